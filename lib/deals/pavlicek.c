/* Richard Pavlicek's deal numbering (docs/mappings.md).
 *
 * The cards are dealt in order, AS to 2C.  Before a card, with C cards
 * still to deal and left[h] places in hand h, K = C! / (left[N]! left[E]!
 * left[S]! left[W]!) deals are possible, and in K * left[h] / C of them
 * hand h gets the card: its share, the same multinomial for the C - 1
 * later cards with one place less in h.  The numbers still possible are
 * given to the shares of N, E, S and W in that order.
 *
 * Each share is computed as that multinomial, a product of binomials,
 * rather than from K: K * left[h] / C needs a 128-bit division, and K is
 * known only once the card before is dealt.  The step from one card to the
 * next is then a table load, two multiplications and three comparisons,
 * and a deal takes half the time (docs/mappings.md). */
#include <pthread.h>

#include "deals/pavlicek.h"

/* choose[n + 1][k + 1] = C(n, k), with a row and a column of zeros for
 * n = -1 and k = -1: the share of a hand without a place left, whose
 * product then has a factor C(n, -1) or C(-1, 0), is 0 without a test. */
static uint64_t choose[CARDS + 2][HAND_CARDS + 2];
#define CHOOSE(n, k) choose[(n) + 1][(k) + 1]

/* The places left in N, E, S, W, one byte each: in a register, where an
 * array goes through memory on every card (a quarter slower). */
#define ALL_PLACES (HAND_CARDS * 0x01010101u)
#define PLACES(left, h) ((int)((left) >> 8 * (h) & 0xff))
#define TAKE_PLACE(left, h) ((left) - (1u << 8 * (h)))

/* made once, whichever thread first needs it */
static pthread_once_t choose_once = PTHREAD_ONCE_INIT;

static void
fill_choose(void)
{
	for (int n = 0; n <= CARDS; n++)
		for (int k = 0; k <= HAND_CARDS; k++)
			CHOOSE(n, k) = binomial((unsigned)n, (unsigned)k);
}

/* before[h]: the sum of the shares of the hands before h, for the card
 * with rest cards after it.  A share is the number of deals of the rest
 * with places n, e, s, w (one less in the hand that takes the card):
 * C(rest, n) * C(rest - n, e) * C(s + w, s).  West's is never needed: it
 * is what the others leave. */
static void
card_before(uint32_t left, int rest, u128 before[HANDS])
{
	int n = PLACES(left, 0), e = PLACES(left, 1);
	int s = PLACES(left, 2), w = PLACES(left, 3);
	uint64_t south_west = CHOOSE(s + w, s);
	u128 north = (u128)CHOOSE(rest, n - 1) * CHOOSE(rest - n + 1, e) * south_west;
	u128 east = (u128)CHOOSE(rest, n) * CHOOSE(rest - n, e - 1) * south_west;
	u128 south = (u128)CHOOSE(rest, n) * CHOOSE(rest - n, e) * CHOOSE(s + w - 1, s - 1);

	before[0] = 0;
	before[1] = north;
	before[2] = north + east;
	before[3] = north + east + south;
}

void
deal_from_number_pavlicek(u128 number, unsigned char owner[CARDS])
{
	uint32_t left = ALL_PLACES;

	pthread_once(&choose_once, fill_choose);
	for (int c = 0; c < CARDS; c++) {
		u128 before[HANDS];
		card_before(left, CARDS - 1 - c, before);
		/* the holder is a coin toss: comparisons, not a branch on each */
		unsigned h = (number >= before[1]) + (number >= before[2]) +
		    (number >= before[3]);
		number -= before[h];
		owner[c] = (unsigned char)h;
		left = TAKE_PLACE(left, h);
	}
}

u128
number_from_deal_pavlicek(const unsigned char owner[CARDS])
{
	uint32_t left = ALL_PLACES;
	u128 number = 0;

	pthread_once(&choose_once, fill_choose);
	for (int c = 0; c < CARDS; c++) {
		u128 before[HANDS];
		card_before(left, CARDS - 1 - c, before);
		number += before[owner[c]];
		left = TAKE_PLACE(left, owner[c]);
	}
	return number;
}
