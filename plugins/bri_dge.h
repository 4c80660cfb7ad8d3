/* The BRI and DGE board records, each also a part of a DUP board. */
#ifndef DL_PLUGINS_BRI_DGE_H
#define DL_PLUGINS_BRI_DGE_H

#include "dl/plugin.h"
#include "suits.h"

#define BRI_PART 78	/* North's, East's and South's cards, two digits each */
#define DGE_PART 68	/* 16 suit bytes and 52 rank letters */

/* North, East and South as card numbers 01..52; West gets the rest. */
static inline void
bri_part(struct dl_out *out, const struct dl_deal *deal)
{
	for (unsigned seat = DL_NORTH; seat <= DL_SOUTH; seat++)
		for (unsigned i = 0; i < DL_HAND_CARDS; i++)
			out->print(out, "%02u", deal->hand[seat][i] + 1u);
}

/* Every hand suit by suit, each suit led by its symbol in the IBM PC
 * character set (spade 6, heart 3, diamond 4, club 5). */
static inline void
dge_part(struct dl_out *out, const struct dl_deal *deal)
{
	static const char symbol[SUITS] = { 0x06, 0x03, 0x04, 0x05 };
	char ranks[DL_HAND_CARDS];

	for (unsigned seat = DL_NORTH; seat <= DL_WEST; seat++)
		for (unsigned suit = 0; suit < SUITS; suit++) {
			out->write(out, &symbol[suit], 1);
			out->write(out, ranks, suit_ranks(deal, seat, suit, ranks));
		}
}

#endif
