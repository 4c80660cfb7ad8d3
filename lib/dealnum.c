#include <string.h>

#include "dealnum.h"

/* C(n,k) for n <= 52, k <= 13: every value fits in 64 bits (C(52,13) is
 * about 6.4e11), so only the deal number itself needs 128 bits. */
static uint64_t binomials[CARDS + 1][HAND_CARDS + 1];

#define C_26_13 UINT64_C(10400600)
#define C_39_13 UINT64_C(8122425444)

static void
fill_binomials(void)
{
	for (unsigned n = 0; n <= CARDS; n++) {
		binomials[n][0] = 1;
		for (unsigned k = 1; k <= HAND_CARDS; k++)
			binomials[n][k] = n == 0 ? 0 :
			    binomials[n - 1][k - 1] + binomials[n - 1][k];
	}
}

uint64_t
binomial(unsigned n, unsigned k)
{
	if (binomials[0][0] == 0)
		fill_binomials();
	return binomials[n][k];
}

/* skips[m][t] = C(m, t - 1), and 0 for t = 0: what unranking skips at a
 * position with m positions after it and t cards still to choose.  With
 * t = 0 nothing is skipped any more, so the loop needs no end test. */
static uint64_t skips[CARDS][HAND_CARDS + 1];

static void
fill_skips(void)
{
	for (unsigned m = 0; m < CARDS; m++)
		for (unsigned t = 1; t <= HAND_CARDS; t++)
			skips[m][t] = binomial(m, t - 1);
}

/* Cards of one hand from the lexicographic rank of a 13-subset of the n
 * positions in rest[]; the chosen positions are removed from rest[].
 * Whether a position is chosen is unpredictable, so the loop is written
 * without branches on it, and the next position's two possible skips are
 * fetched before this position is decided: that takes the table load out
 * of the chain of dependent steps.  A plain loop runs 30% fewer
 * instructions but about 15% slower (make bench, docs/performance.md). */
static void
unrank_hand(uint64_t rank, unsigned char *rest, unsigned n, unsigned hand,
    unsigned char owner[CARDS])
{
	unsigned char left[CARDS], chosen[HAND_CARDS + 1];
	unsigned nleft = 0, t = HAND_CARDS;
	uint64_t skip = skips[n - 1][t];

	for (unsigned q = 0; q < n; q++) {
		unsigned m = q + 2 <= n ? n - q - 2 : 0;
		uint64_t skip_if_taken = skips[m][t - (t > 0)], skip_if_not = skips[m][t];
		unsigned take = rank < skip;
		/* masks, not ?: -- the compiler turns ?: back into a branch */
		uint64_t taken = -(uint64_t)take;
		rank -= skip & ~taken;
		chosen[HAND_CARDS - t] = rest[q];
		left[nleft] = rest[q];
		nleft += !take;
		t -= take;
		skip = (skip_if_taken & taken) | (skip_if_not & ~taken);
	}
	for (unsigned i = 0; i < HAND_CARDS; i++)
		owner[chosen[i]] = (unsigned char)hand;
	memcpy(rest, left, nleft);
}

void
deal_from_number(u128 number, unsigned char owner[CARDS])
{
	unsigned char rest[CARDS];

	if (skips[1][1] == 0)
		fill_skips();
	/* constant divisors: the compiler turns these into multiplications */
	u128 north_east = number / C_26_13;
	uint64_t south = (uint64_t)(number - north_east * C_26_13);
	uint64_t north = (uint64_t)(north_east / C_39_13);
	uint64_t east = (uint64_t)(north_east - (u128)north * C_39_13);

	/* West holds whatever the others do not take */
	for (unsigned c = 0; c < CARDS; c++) {
		rest[c] = (unsigned char)c;
		owner[c] = 3;
	}
	unrank_hand(north, rest, 52, 0, owner);
	unrank_hand(east, rest, 39, 1, owner);
	unrank_hand(south, rest, 26, 2, owner);
}

/* Rank of hand's cards among the n cards in rest[]: the sum of the binomials
 * the unranking would skip. Removes the hand's cards from rest[]. */
static uint64_t
rank_hand(unsigned char *rest, unsigned n, unsigned hand, const unsigned char owner[CARDS])
{
	uint64_t rank = 0;
	unsigned j = 0, nleft = 0;

	for (unsigned q = 0; q < n; q++) {
		if (owner[rest[q]] == hand)
			j++;
		else {
			if (j < HAND_CARDS)
				rank += binomials[n - q - 1][HAND_CARDS - j - 1];
			rest[nleft++] = rest[q];
		}
	}
	return rank;
}

u128
number_from_deal(const unsigned char owner[CARDS])
{
	unsigned char rest[CARDS];

	if (binomials[0][0] == 0)
		fill_binomials();
	for (unsigned c = 0; c < CARDS; c++)
		rest[c] = (unsigned char)c;
	u128 north = rank_hand(rest, 52, 0, owner);
	u128 east = rank_hand(rest, 39, 1, owner);
	u128 south = rank_hand(rest, 26, 2, owner);
	return (north * C_39_13 + east) * C_26_13 + south;
}

int
deal_is_complete(const unsigned char owner[CARDS])
{
	unsigned count[HANDS] = { 0 };

	for (unsigned c = 0; c < CARDS; c++) {
		if (owner[c] >= HANDS)
			return 0;
		count[owner[c]]++;
	}
	for (unsigned h = 0; h < HANDS; h++)
		if (count[h] != HAND_CARDS)
			return 0;
	return 1;
}

void
deal_hands(const unsigned char owner[CARDS], unsigned char hand[HANDS][HAND_CARDS])
{
	unsigned fill[HANDS] = { 0 };

	for (unsigned c = 0; c < CARDS; c++) {
		unsigned h = owner[c] & 3;
		if (fill[h] < HAND_CARDS)
			hand[h][fill[h]++] = (unsigned char)c;
	}
}

u128
deal_number_from_bytes(const unsigned char bytes[DEAL_NUMBER_BYTES])
{
	u128 number = 0;

	for (unsigned i = 0; i < DEAL_NUMBER_BYTES; i++)
		number = number << 8 | bytes[i];
	return number;
}

void
deal_number_to_bytes(u128 number, unsigned char bytes[DEAL_NUMBER_BYTES])
{
	for (int i = DEAL_NUMBER_BYTES - 1; i >= 0; i--) {
		bytes[i] = (unsigned char)number;
		number >>= 8;
	}
}

int
deal_number_from_hex(const char *hex, u128 *number)
{
	u128 value = 0;

	for (unsigned i = 0; i < DEAL_NUMBER_HEX; i++) {
		char ch = hex[i];
		unsigned digit;
		if (ch >= '0' && ch <= '9')
			digit = (unsigned)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			digit = (unsigned)(ch - 'a' + 10);
		else
			return -1;
		value = value << 4 | digit;
	}
	if (hex[DEAL_NUMBER_HEX] != '\0')
		return -1;
	*number = value;
	return 0;
}

void
deal_number_to_hex(u128 number, char hex[DEAL_NUMBER_HEX + 1])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = DEAL_NUMBER_HEX - 1; i >= 0; i--) {
		hex[i] = digits[number & 15];
		number >>= 4;
	}
	hex[DEAL_NUMBER_HEX] = '\0';
}
