/* Hands suit by suit, shared by the writers that print suits separately
 * (lin, csv, dge). */
#ifndef DL_PLUGINS_SUITS_H
#define DL_PLUGINS_SUITS_H

#include <stddef.h>

#include "dl/plugin.h"

#define SUITS 4

/* The rank letters of seat's cards, suit by suit, high to low: suit s
 * is ranks + start[s], start[s + 1] - start[s] letters.  The hand is in
 * increasing card order, which is suit by suit, high to low. */
struct hand_suits {
	char ranks[DL_HAND_CARDS];
	unsigned char start[SUITS + 1];
};

static inline void
hand_suits(const struct dl_deal *deal, unsigned seat, struct hand_suits *hs)
{
	unsigned suit = 0;

	hs->start[0] = 0;
	for (unsigned i = 0; i < DL_HAND_CARDS; i++) {
		unsigned card = deal->hand[seat][i];
		for (; suit < dl_suit(card); suit++)
			hs->start[suit + 1] = (unsigned char)i;
		hs->ranks[i] = dl_rank_char(card);
	}
	for (; suit < SUITS; suit++)
		hs->start[suit + 1] = DL_HAND_CARDS;
}

static inline size_t
suit_length(const struct hand_suits *hs, unsigned suit)
{
	return (size_t)(hs->start[suit + 1] - hs->start[suit]);
}

#endif
