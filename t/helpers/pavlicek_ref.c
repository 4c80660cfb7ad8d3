/* Test helper: the Pavlicek numbers of the deals on standard input,
 * computed as the issue states the algorithm: K deals still possible, the
 * share of hand X the exact quotient K * n_X / C, one 128-bit division per
 * hand and card.  lib/deals/pavlicek.c computes the shares as products of
 * binomials instead, so the two check each other.
 *
 * Reads .tso records, "BOARD DIGITS" or bare "DIGITS", skipping header
 * lines; writes "BOARD NUMBER" lines as dl-map --reverse does.  Exits 1
 * on a malformed deal, a share that is not an integer, or a K that does
 * not end at 1. */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deals/dealnum.h"

/* C(n, k) by the multiplicative formula: each partial product is itself a
 * binomial, so every division is exact. */
static uint64_t
choose(unsigned n, unsigned k)
{
	uint64_t r = 1;

	for (unsigned j = 1; j <= k; j++)
		r = r * (n - k + j) / j;
	return r;
}

static u128
share(u128 deals, unsigned places, unsigned cards)
{
	u128 product = deals * places;

	if (product % cards != 0)
		errx(1, "a share K * %u / %u is not an integer", places, cards);
	return product / cards;
}

static u128
number_of(const char *digits)
{
	unsigned left[HANDS] = { HAND_CARDS, HAND_CARDS, HAND_CARDS, HAND_CARDS };
	u128 deals = (u128)choose(52, 13) * choose(39, 13) * choose(26, 13);
	u128 number = 0;

	if (deals != DEAL_COUNT)
		errx(1, "52! / 13!^4 is not DEAL_COUNT");
	for (unsigned c = 0; c < CARDS; c++) {
		unsigned cards = CARDS - c, x = (unsigned)(digits[c] - '0');
		if (x >= HANDS || left[x] == 0)
			errx(1, "not a deal: %.52s", digits);
		for (unsigned y = 0; y < x; y++)
			number += share(deals, left[y], cards);
		deals = share(deals, left[x], cards);
		left[x]--;
	}
	if (deals != 1)
		errx(1, "K ends at a value other than 1");
	return number;
}

int
main(void)
{
	char line[256];
	unsigned long board = 0;

	while (fgets(line, sizeof line, stdin) != NULL) {
		char *space = strchr(line, ' ');
		char *digits = space != NULL ? space + 1 : line;

		if (line[0] == '#')
			continue;
		board = space != NULL ? strtoul(line, NULL, 10) : board + 1;
		if (strcspn(digits, "\n") != CARDS)
			errx(1, "not 52 digits: %s", digits);
		u128 number = number_of(digits);
		printf("%lu %08" PRIx32 "%016" PRIx64 "\n", board,
		    (uint32_t)(number >> 64), (uint64_t)number);
	}
	return 0;
}
