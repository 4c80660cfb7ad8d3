/* The BRI and DGE board records, each also a part of a DUP board. */
#ifndef DL_PLUGINS_BRI_DGE_H
#define DL_PLUGINS_BRI_DGE_H

#include "dl/plugin.h"
#include "reading.h"
#include "suits.h"
#include "textbuf.h"

#define BRI_PART 78	/* North's, East's and South's cards, two digits each */
#define DGE_PART 68	/* 16 suit bytes and 52 rank letters */

/* North, East and South as card numbers 01..52; West gets the rest. */
static inline void
bri_part(struct textbuf *tb, const struct dl_deal *deal)
{
	char *p = textbuf_room(tb, BRI_PART);

	for (unsigned seat = DL_NORTH; seat <= DL_SOUTH; seat++)
		for (unsigned i = 0; i < DL_HAND_CARDS; i++, p += 2) {
			unsigned number = deal->hand[seat][i] + 1u;
			p[0] = (char)('0' + number / 10);
			p[1] = (char)('0' + number % 10);
		}
	textbuf_wrote(tb, BRI_PART);
}

/* Every hand suit by suit, each suit led by its symbol in the IBM PC
 * character set (spade 6, heart 3, diamond 4, club 5). */
static inline void
dge_part(struct textbuf *tb, const struct dl_deal *deal)
{
	for (unsigned seat = DL_NORTH; seat <= DL_WEST; seat++)
		textbuf_wrote(tb, hand_text(textbuf_room(tb, HAND_TEXT_MAX(1)), deal->hand[seat],
		    "\x06\x03\x04\x05", 1, 0));
}

/* Reading.  The BRI part: 39 numbers 01..52, North's, East's and South's
 * 13 each in any order; two spaces stand for a card not known.  West gets
 * every card the others do not hold.  0, or -1 after in->fail. */
static inline int
bri_part_read(struct dl_in *in, unsigned board, const unsigned char *part,
    unsigned char owner[DL_CARDS])
{
	deal_clear(owner);
	for (unsigned i = 0; i < 3 * DL_HAND_CARDS; i++) {
		const unsigned char *p = part + 2 * i;
		unsigned seat = i / DL_HAND_CARDS;
		if (p[0] == ' ' && p[1] == ' ')
			continue;
		unsigned number = (unsigned)(p[0] - '0') * 10 + (unsigned)(p[1] - '0');
		if (p[0] < '0' || p[0] > '9' || p[1] < '0' || p[1] > '9' ||
		    number < 1 || number > DL_CARDS) {
			in->fail(in, "board %u: BRI part: %s's card %u is not a number 01-52",
			    board, seat_names[seat], i % DL_HAND_CARDS + 1);
			return -1;
		}
		if (deal_card(in, board, owner, number - 1, seat) == -1)
			return -1;
	}
	for (unsigned card = 0; card < DL_CARDS; card++)
		if (owner[card] == NO_SEAT)
			owner[card] = DL_WEST;
	return 0;
}

/* Whether c is one of the DGE suit symbols (spade 6, heart 3, diamond 4,
 * club 5). */
static inline int
dge_symbol(unsigned char c)
{
	return c >= 3 && c <= 6;
}

/* One suit of a DGE part at part[*pos]: its symbol, then its ranks. */
static inline int
dge_suit_read(struct dl_in *in, unsigned board, const unsigned char *part, size_t len,
    size_t *pos, unsigned seat, unsigned suit, unsigned char owner[DL_CARDS])
{
	static const unsigned char symbol[SUITS] = { 0x06, 0x03, 0x04, 0x05 };
	static const char *const suit_names[SUITS] = { "spade", "heart", "diamond", "club" };
	size_t start;

	if (*pos >= len || part[*pos] != symbol[suit]) {
		in->fail(in, "board %u: DGE part: no %s symbol for %s", board, suit_names[suit],
		    seat_names[seat]);
		return -1;
	}
	start = ++*pos;
	while (*pos < len && part[*pos] != '\0' && part[*pos] != ' ' && !dge_symbol(part[*pos]))
		++*pos;
	return deal_ranks(in, board, owner, seat, suit, (const char *)part + start, *pos - start);
}

/* The DGE part in part[0..len): every hand suit by suit, each suit its
 * symbol and ranks; what follows the last suit, up to len, is NULs or
 * spaces.  0, or -1 after in->fail. */
static inline int
dge_part_read(struct dl_in *in, unsigned board, const unsigned char *part, size_t len,
    unsigned char owner[DL_CARDS])
{
	size_t pos = 0;

	deal_clear(owner);
	for (unsigned seat = DL_NORTH; seat <= DL_WEST; seat++)
		for (unsigned suit = 0; suit < SUITS; suit++)
			if (dge_suit_read(in, board, part, len, &pos, seat, suit, owner) == -1)
				return -1;
	for (; pos < len; pos++)
		if (part[pos] != '\0' && part[pos] != ' ') {
			in->fail(in, "board %u: byte 0x%02x after the DGE part", board, part[pos]);
			return -1;
		}
	return 0;
}

/* Sniffing: a BRI part of 39 distinct numbers 01..52. */
static inline int
bri_part_looks_right(const unsigned char *part)
{
	unsigned char seen[DL_CARDS] = { 0 };

	for (unsigned i = 0; i < 3 * DL_HAND_CARDS; i++) {
		const unsigned char *p = part + 2 * i;
		unsigned number = (unsigned)(p[0] - '0') * 10 + (unsigned)(p[1] - '0');
		if (p[0] < '0' || p[0] > '9' || p[1] < '0' || p[1] > '9' ||
		    number < 1 || number > DL_CARDS || seen[number - 1]++)
			return 0;
	}
	return 1;
}

/* Sniffing: a complete DGE part of 68 bytes, each rank once a suit. */
static inline int
dge_part_looks_right(const unsigned char *part)
{
	static const unsigned char symbol[SUITS] = { 0x06, 0x03, 0x04, 0x05 };
	unsigned char seats[DL_CARDS];
	size_t pos = 0;

	memset(seats, NO_SEAT, sizeof seats);
	for (unsigned seat = DL_NORTH; seat <= DL_WEST; seat++)
		for (unsigned suit = 0; suit < SUITS; suit++) {
			if (pos >= DGE_PART || part[pos++] != symbol[suit])
				return 0;
			for (int rank; pos < DGE_PART && (rank = rank_of(part[pos])) >= 0; pos++) {
				if (seats[suit * 13 + (unsigned)rank] != NO_SEAT)
					return 0;
				seats[suit * 13 + (unsigned)rank] = (unsigned char)seat;
			}
		}
	return pos == DGE_PART && thirteen_each(seats);
}

#endif
