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

/* skip_rows[m + 1][t + 1] = C(m, t - 1): what unranking skips at a position
 * with m positions after it when the position is not taken and t cards are
 * still to choose.  Column 0 and 1 (t = -1, 0) and row 0 (m = -1, past the
 * last position) are 0, so the loop needs neither end tests nor clamps. */
static uint64_t skip_rows[CARDS + 1][HAND_CARDS + 2];

static void
fill_skip_rows(void)
{
	for (unsigned m = 0; m < CARDS; m++)
		for (unsigned t = 1; t <= HAND_CARDS; t++)
			skip_rows[m + 1][t + 1] = binomial(m, t - 1);
}

/* One position: taken when rank < skip.  Taken or not is a coin toss, so
 * this must not be a branch: on x86-64 two conditional moves off the flags
 * of one subtraction; elsewhere masks (gcc turns ?: back into a branch). */
static inline unsigned
unrank_step(uint64_t *rank, uint64_t *skip, uint64_t if_taken, uint64_t if_not)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(DL_NO_ASM)
	uint64_t rest = *rank;
	unsigned char take;

	__asm__("sub %[skip], %[rest]\n\t"
	    "cmovb %[rank], %[rest]\n\t"
	    "cmovb %[if_taken], %[if_not]\n\t"
	    "setb %[take]"
	    : [rest] "+&r" (rest), [if_not] "+&r" (if_not), [take] "=&q" (take)
	    : [skip] "r" (*skip), [rank] "r" (*rank), [if_taken] "r" (if_taken)
	    : "cc");
	*rank = rest;
	*skip = if_not;
	return take;
#else
	unsigned take = *rank < *skip;
	uint64_t taken = -(uint64_t)take;

	*rank -= *skip & ~taken;
	*skip = (if_taken & taken) | (if_not & ~taken);
	return take;
#endif
}

/* Cards of one hand from the lexicographic rank of a 13-subset of the n
 * positions in rest[]; the chosen positions are removed from rest[].  The
 * next position's two possible skips are fetched before this position is
 * decided, which takes the table load out of the chain of dependent steps
 * (docs/performance.md). */
static void
unrank_hand(uint64_t rank, unsigned char *rest, unsigned n, unsigned hand,
    unsigned char owner[CARDS])
{
	unsigned char left[CARDS], chosen[HAND_CARDS + 1];
	unsigned nleft = 0, t = HAND_CARDS;
	uint64_t skip = skip_rows[n][t + 1];

	for (unsigned q = 0; q < n; q++) {
		const uint64_t *next = skip_rows[n - 1 - q];	/* m = n - q - 2 */
		unsigned take = unrank_step(&rank, &skip, next[t], next[t + 1]);
		chosen[HAND_CARDS - t] = rest[q];
		left[nleft] = rest[q];
		nleft += !take;
		t -= take;
	}
	for (unsigned i = 0; i < HAND_CARDS; i++)
		owner[chosen[i]] = (unsigned char)hand;
	memcpy(rest, left, nleft);
}

void
deal_from_number(u128 number, unsigned char owner[CARDS])
{
	unsigned char rest[CARDS];

	if (skip_rows[1][2] == 0)
		fill_skip_rows();
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

void
deal_to_pbn(const unsigned char owner[CARDS], char *text)
{
	*text++ = 'N';
	*text++ = ':';
	for (unsigned h = 0; h < HANDS; h++) {
		if (h > 0)
			*text++ = ' ';
		for (unsigned suit = 0; suit < 4; suit++) {
			if (suit > 0)
				*text++ = '.';
			for (unsigned c = suit * HAND_CARDS; c < (suit + 1) * HAND_CARDS; c++)
				if (owner[c] == h)
					*text++ = "AKQJT98765432"[c % HAND_CARDS];
		}
	}
	*text = '\0';
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

/* hex_digits[c]: 16 + the value of lowercase hex digit c, 0 for any other
 * byte.  A table, not comparisons: which of the two digit ranges a random
 * digit falls in is a coin toss, and dl-map reads 24 of them a deal. */
#define HEX_DIGIT 16
static const unsigned char hex_digits[256] = {
	['0'] = 16, ['1'] = 17, ['2'] = 18, ['3'] = 19, ['4'] = 20,
	['5'] = 21, ['6'] = 22, ['7'] = 23, ['8'] = 24, ['9'] = 25,
	['a'] = 26, ['b'] = 27, ['c'] = 28, ['d'] = 29, ['e'] = 30, ['f'] = 31,
};

/* The value of n hex digits; *all_digits loses HEX_DIGIT at a non-digit. */
static uint64_t
hex_digits_value(const char *hex, unsigned n, unsigned *all_digits)
{
	uint64_t value = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned digit = hex_digits[(unsigned char)hex[i]];
		*all_digits &= digit;
		value = value << 4 | (digit & 15);
	}
	return value;
}

int
deal_number_from_hex(const char *hex, u128 *number)
{
	unsigned all_digits = HEX_DIGIT;

	/* the digits are read before they are checked: a shorter field (a
	 * record "17 ab" at the end of the line buffer) must not be read
	 * past its NUL */
	if (strnlen(hex, DEAL_NUMBER_HEX + 1) != DEAL_NUMBER_HEX)
		return -1;
	/* two 64-bit halves: shifting a 128-bit value costs two registers */
	uint64_t high = hex_digits_value(hex, DEAL_NUMBER_HEX - 16, &all_digits);
	uint64_t low = hex_digits_value(hex + DEAL_NUMBER_HEX - 16, 16, &all_digits);

	if (all_digits != HEX_DIGIT || hex[DEAL_NUMBER_HEX] != '\0')
		return -1;
	*number = (u128)high << 64 | low;
	return 0;
}

void
deal_number_to_hex(u128 number, char hex[DEAL_NUMBER_HEX + 1])
{
	static const char digits[] = "0123456789abcdef";
	uint64_t low = (uint64_t)number, high = (uint64_t)(number >> 64);

	for (int i = DEAL_NUMBER_HEX - 1; i >= DEAL_NUMBER_HEX - 16; i--) {
		hex[i] = digits[low & 15];
		low >>= 4;
	}
	for (int i = DEAL_NUMBER_HEX - 17; i >= 0; i--) {
		hex[i] = digits[high & 15];
		high >>= 4;
	}
	hex[DEAL_NUMBER_HEX] = '\0';
}
