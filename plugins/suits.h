/* Hands suit by suit, shared by the writers that print suits separately
 * (pbn, lin, csv, dge). */
#ifndef DL_PLUGINS_SUITS_H
#define DL_PLUGINS_SUITS_H

#include <stddef.h>
#include <string.h>

#include "dl/plugin.h"

#define SUITS 4

/* The most bytes hand_text writes with separators of width bytes. */
#define HAND_TEXT_MAX(width) (DL_HAND_CARDS + SUITS * (width))

/* A hand's ranks suit by suit, high to low, each suit from first (0 or
 * 1) on led by its separator, the width bytes at seps + width * suit:
 * "SAK2HQJ..." (LIN: "SHDC", first 0) or "AK2.QJ..." (PBN: "....",
 * first 1).  Its length, 13 + width * (4 - first).
 *
 * A suit's length is a coin toss to the branch predictor, so nothing
 * here branches on it: card i, of suit s, goes at i + width * (s + 1 -
 * first), and suit s's separator after the cards of the suits before
 * it, at that count + width * (s - first). */
static inline size_t
hand_text(char *out, const unsigned char cards[DL_HAND_CARDS], const char *seps,
    size_t width, unsigned first)
{
	size_t before[SUITS] = { 0 };

	for (unsigned i = 0; i < DL_HAND_CARDS; i++) {
		/* & 3: not even a card beyond 51 writes outside the text */
		unsigned card = cards[i], suit = dl_suit(card) & 3;
		out[i + width * (suit + 1 - first)] = dl_rank_char(card);
		before[1] += card < 13;
		before[2] += card < 26;
		before[3] += card < 39;
	}
	for (unsigned suit = first; suit < SUITS; suit++)
		memcpy(out + before[suit] + width * (suit - first), seps + width * suit, width);
	return DL_HAND_CARDS + width * (SUITS - first);
}

#endif
