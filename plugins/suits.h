/* Hands suit by suit, shared by the writers that print suits separately
 * (lin, csv, dge). */
#ifndef DL_PLUGINS_SUITS_H
#define DL_PLUGINS_SUITS_H

#include <stddef.h>

#include "dl/plugin.h"

#define SUITS 4

/* The rank letters of seat's cards in suit, high to low; returns how many.
 * Cards are numbered high to low within a suit, so increasing card order
 * is already the order to print. */
static inline size_t
suit_ranks(const struct dl_deal *deal, unsigned seat, unsigned suit,
    char ranks[DL_HAND_CARDS])
{
	size_t n = 0;

	for (unsigned c = suit * DL_HAND_CARDS; c < (suit + 1) * DL_HAND_CARDS; c++)
		if (deal->owner[c] == seat)
			ranks[n++] = dl_rank_char(c);
	return n;
}

#endif
