#include <endian.h>
#include <pthread.h>
#include <string.h>

#include "deals/dealnum.h"
#include "dl/plugin.h"
#include "base/simd.h"

/* C(n,k) for n <= 52, k <= 13: every value fits in 64 bits (C(52,13) is
 * about 6.4e11), so only the deal number itself needs 128 bits. */
static uint64_t binomials[CARDS + 1][HAND_CARDS + 1];

#define C_26_13 UINT64_C(10400600)
#define C_39_13 UINT64_C(8122425444)
#define C_52_13 UINT64_C(635013559600)

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

static void tables_setup(void);
/* The tables are made once, whichever thread first needs them. */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

uint64_t
binomial(unsigned n, unsigned k)
{
	pthread_once(&tables_once, tables_setup);
	return binomials[n][k];
}

/* Unranking.  A hand's 13 positions among n, p_1 < ... < p_13, have the
 * lexicographic rank r when, with c_i = n - 1 - p_i (so c_1 > ... > c_13),
 *
 *     C(n,13) - 1 - r = C(c_1,13) + C(c_2,12) + ... + C(c_13,1)
 *
 * (the combinatorial number system; rank_positions below adds it up).  So
 * c_1 is the largest c with C(c,13) at most that sum, c_2 the largest
 * with C(c,12) at most what is left of it, and so on: 13 searches a hand,
 * whatever n, where stepping through the positions (is this one taken?)
 * took n steps, 117 a deal.  The hand's chosen bits are bits c_i: its
 * positions, in increasing order, are their bits from the highest down.
 *
 * A search looks its answer up.  What is left of the sum, s, is kept as
 * 2s + 1: odd, so never 0, and at least 2 C(c,k) exactly when s is at
 * least C(c,k).  As a double, its exponent and the top bits of its mantissa
 * pick a bucket, a range of values whose top is less than 1 + 2^-bits
 * times its bottom.  From one c to the next, C(c,k) grows by
 * (c + 1) / (c + 1 - k), at least 52 / (52 - k) for c < 52, so with
 * 2^-bits < k / (52 - k) no bucket holds two of them: the bucket gives
 * the answer c for its lowest value, and C(c,k) and C(c+1,k), and one
 * comparison with the latter ends the search.  Its carry picks the rest
 * less one binomial or the other (a conditional move: the outcome is a
 * coin toss) and goes into the card.
 *
 * A search is a chain of dependent steps (the conversion, the loads, the
 * comparison), so the three hands' searches run side by side (East's rank
 * alone says which of the cards North left it takes), and in
 * deals_from_numbers those of two deals, which one deal's three chains
 * leave room for. */
struct unrank_chain {
	uint64_t odd_rest;	/* 2s + 1, s what is left of the sum */
	uint64_t chosen;
};

/* The mantissa bits of card k's buckets: the fewest with
 * 2^-bits < k / (52 - k). */
#define BUCKET_BITS(k) ((k) <= 3 ? 5 : (k) <= 5 ? 4 : (k) <= 10 ? 3 : 2)
/* The exponents of 2s + 1 < 2 C(52,13) < 2^41. */
#define BUCKET_ROWS 41
#define BUCKET_SPAN(k) (BUCKET_ROWS << BUCKET_BITS(k))
#define BUCKETS (BUCKET_SPAN(2) + BUCKET_SPAN(3) + BUCKET_SPAN(4) + BUCKET_SPAN(5) + \
	BUCKET_SPAN(6) + BUCKET_SPAN(7) + BUCKET_SPAN(8) + BUCKET_SPAN(9) + \
	BUCKET_SPAN(10) + BUCKET_SPAN(11) + BUCKET_SPAN(12) + BUCKET_SPAN(13))

/* Bucket i of card k: the answer card[i] for its lowest value, and first[i]
 * and next[i] twice C(card[i], k) and C(card[i] + 1, k).  Card k's buckets
 * begin at bucket_start(k), card 2's first (card 1 needs no search:
 * C(c,1) = c). */
static struct {
	uint64_t first[BUCKETS], next[BUCKETS];
	unsigned char card[BUCKETS];
} buckets;

static inline size_t
bucket_start(unsigned k)
{
	size_t start = 0;

	for (unsigned j = 2; j < k; j++)
		start += BUCKET_SPAN(j);
	return start;
}

/* The bucket of odd_rest among card k's: its bits as a double (exact, as
 * it is below 2^53) are the exponent, biased by 1023, and the mantissa,
 * from the top. */
static inline size_t
bucket_of(uint64_t odd_rest, unsigned k)
{
	double value = (double)(int64_t)odd_rest;
	uint64_t pattern;

	memcpy(&pattern, &value, sizeof pattern);
	return bucket_start(k) + (size_t)(pattern >> (52 - BUCKET_BITS(k))) -
	    ((size_t)1023 << BUCKET_BITS(k));
}

/* A bucket's answer is c when the least odd rests that reach C(k,k) ...
 * C(c,k) lie in the buckets before it: C(c+1,k)'s lies in it or after it,
 * and no other binomial's in it (BUCKET_BITS). */
static void
fill_buckets(void)
{
	for (unsigned k = 2; k <= HAND_CARDS; k++) {
		size_t start = bucket_start(k);
		unsigned c = k - 1;

		for (size_t i = start; i < start + BUCKET_SPAN(k); i++) {
			while (c + 1 < CARDS && bucket_of(2 * binomials[c + 1][k] + 1, k) < i)
				c++;
			buckets.first[i] = 2 * binomials[c][k];
			buckets.next[i] = 2 * binomials[c + 1][k];
			buckets.card[i] = (unsigned char)c;
		}
	}
}

/* Card k of a hand (k cards still to find): c or c + 1, whether the rest
 * reaches C(c+1,k).  On x86-64 the carry of one subtraction drives a
 * conditional move and goes as it is into the card (sbb): gcc makes a
 * branch of ?: (masks elsewhere, or with -DDL_NO_ASM). */
static inline void
choose_card(struct unrank_chain *ch, unsigned k)
{
	size_t i = bucket_of(ch->odd_rest, k);
	uint64_t card = buckets.card[i];
#if defined(__x86_64__) && defined(__GNUC__) && !defined(DL_NO_ASM)
	uint64_t past = ch->odd_rest;

	__asm__("sub %[first], %[rest]\n\t"
	    "sub %[next], %[past]\n\t"	/* carry: below next, the card is c */
	    "cmovae %[past], %[rest]\n\t"
	    "sbb $-1, %[card]\n\t"	/* + 1 - carry */
	    "bts %[card], %[chosen]"
	    : [rest] "+r" (ch->odd_rest), [past] "+r" (past), [card] "+r" (card),
	      [chosen] "+r" (ch->chosen)
	    : [first] "m" (buckets.first[i]), [next] "m" (buckets.next[i])
	    : "cc");
#else
	uint64_t next = buckets.next[i];
	uint64_t past = ch->odd_rest >= next;

	ch->odd_rest -= (buckets.first[i] & (past - 1)) | (next & -past);
	ch->chosen |= UINT64_C(1) << (card + past);
#endif
}

/* Every hand's 13 cards, count chains side by side; the last card is what
 * is left, C(c,1) = c. */
static inline __attribute__((always_inline)) void
unrank_chains(struct unrank_chain *ch, unsigned count)
{
#pragma GCC unroll 12
	for (unsigned k = HAND_CARDS; k >= 2; k--)
#pragma GCC unroll 6
		for (unsigned j = 0; j < count; j++)
			choose_card(&ch[j], k);
	for (unsigned j = 0; j < count; j++)
		ch[j].chosen |= UINT64_C(1) << (ch[j].odd_rest >> 1);
}

/* A hand's choice among the positions still free is a choice of set bits:
 * bit i of chosen, counted from the lowest, picks the i-th lowest set bit
 * of free (what BMI2's PDEP does in one instruction). */
static uint64_t
deposit_bits_plain(uint64_t chosen, uint64_t free)
{
	uint64_t cards = 0;

	for (; free != 0; free &= free - 1, chosen >>= 1)
		cards |= free & -free & -(chosen & 1);
	return cards;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(DL_NO_ASM)
#include <immintrin.h>

static uint64_t __attribute__((target("bmi2")))
deposit_bits_bmi2(uint64_t chosen, uint64_t free)
{
	return _pdep_u64(chosen, free);
}

/* PDEP is one instruction on Intel since Haswell and on AMD since Zen 3,
 * but microcode of hundreds of cycles on Zen 1 and 2, where the loop wins. */
static uint64_t
(*pick_deposit(void))(uint64_t, uint64_t)
{
	if (!simd_allowed(SIMD_AVX2))
		return deposit_bits_plain;
	if (__builtin_cpu_is("znver1") || __builtin_cpu_is("znver2"))
		return deposit_bits_plain;
	return deposit_bits_bmi2;
}
#else
static uint64_t
(*pick_deposit(void))(uint64_t, uint64_t)
{
	return deposit_bits_plain;
}
#endif

static uint64_t (*deposit_bits)(uint64_t, uint64_t);

/* spread[v]: eight bytes, the i-th 1 when bit 7 - i of v is set, else 0,
 * in memory order whatever the machine's byte order. */
static uint64_t spread[256];

static void
fill_spread(void)
{
	for (unsigned v = 0; v < 256; v++) {
		unsigned char bytes[8];
		for (unsigned i = 0; i < 8; i++)
			bytes[i] = (unsigned char)(v >> (7 - i) & 1);
		memcpy(&spread[v], bytes, 8);
	}
}

#define ALL_CARDS ((UINT64_C(1) << CARDS) - 1)

/* Eight cards' owners from the owners' two bit planes (card c at bit
 * 63 - c): the low bit is East's or West's, the high bit South's or
 * West's. */
static inline uint64_t
eight_owners(uint64_t low, uint64_t high, unsigned k)
{
	unsigned shift = 56 - 8 * k;

	return spread[low >> shift & 0xff] + 2 * spread[high >> shift & 0xff];
}

/* number / divisor, and the remainder in *rest, when the quotient fits in
 * 64 bits.  gcc divides 128 bits by a library call even by a constant; on
 * x86-64 one divq divides 128 bits by 64. */
static inline uint64_t
divide(u128 number, uint64_t divisor, uint64_t *rest)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(DL_NO_ASM)
	uint64_t quotient;

	__asm__("divq %[divisor]"
	    : "=a" (quotient), "=d" (*rest)
	    : "a" ((uint64_t)number), "d" ((uint64_t)(number >> 64)),
	      [divisor] "r" (divisor));
	return quotient;
#else
	*rest = (uint64_t)(number % divisor);
	return (uint64_t)(number / divisor);
#endif
}

/* North's, East's and South's chains, from the deal number's three ranks:
 * number = north * C(39,13) * C(26,13) + east * C(26,13) + south, one
 * division of 128 bits (north < C(52,13) fits in 64 bits, as a number
 * below D has its high half below the divisor) and one of 64 (by a
 * constant: gcc multiplies). */
static inline void
chains_start(u128 number, struct unrank_chain ch[3])
{
	uint64_t east_south, north = divide(number, C_39_13 * C_26_13, &east_south);
	uint64_t east = east_south / C_26_13, south = east_south % C_26_13;

	ch[0] = (struct unrank_chain){ 2 * (C_52_13 - 1 - north) + 1, 0 };
	ch[1] = (struct unrank_chain){ 2 * (C_39_13 - 1 - east) + 1, 0 };
	ch[2] = (struct unrank_chain){ 2 * (C_26_13 - 1 - south) + 1, 0 };
}

/* The hands' cards put in place: card c is bit 51 - c of a hand's mask,
 * East's chosen bits deposited into the cards North left, South's into
 * those East left; and their owners written eight at a time. */
static inline void
chains_finish(const struct unrank_chain ch[3], unsigned char owner[CARDS])
{
	uint64_t free = ALL_CARDS & ~ch[0].chosen;
	uint64_t east = deposit_bits(ch[1].chosen, free);
	uint64_t south = deposit_bits(ch[2].chosen, free & ~east);
	uint64_t low = (free & ~south) << (64 - CARDS);	/* East and West */
	uint64_t high = (free & ~east) << (64 - CARDS);	/* South and West */

#pragma GCC unroll 6
	for (unsigned k = 0; k < CARDS / 8; k++) {
		uint64_t eight = eight_owners(low, high, k);
		memcpy(owner + 8 * k, &eight, 8);
	}
	uint64_t last = eight_owners(low, high, CARDS / 8);
	memcpy(owner + CARDS / 8 * 8, &last, CARDS % 8);
}

void
deal_from_number(u128 number, unsigned char owner[CARDS])
{
	struct unrank_chain ch[3];

	pthread_once(&tables_once, tables_setup);
	chains_start(number, ch);
	unrank_chains(ch, 3);
	chains_finish(ch, owner);
}

void
deals_from_numbers(const u128 *numbers, size_t count, unsigned char (*owner)[CARDS])
{
	struct unrank_chain ch[6];
	size_t i;

	pthread_once(&tables_once, tables_setup);
	for (i = 0; i + 2 <= count; i += 2) {
		chains_start(numbers[i], ch);
		chains_start(numbers[i + 1], ch + 3);
		unrank_chains(ch, 6);
		chains_finish(ch, owner[i]);
		chains_finish(ch + 3, owner[i + 1]);
	}
	if (i < count)
		deal_from_number(numbers[i], owner[i]);
}

/* Bit i of the result is bit 0 of byte i of word (eight bytes of owners,
 * little-endian): one multiplication gathers them (docs/performance.md). */
static inline uint64_t
gather_low_bits(uint64_t word)
{
	return (word & UINT64_C(0x0101010101010101)) * UINT64_C(0x0102040810204080) >> 56;
}

/* The owners as two masks, bit c of each the low and the high bit of
 * owner[c]. */
static void
owner_masks(const unsigned char owner[CARDS], uint64_t *lowp, uint64_t *highp)
{
	uint64_t low = 0, high = 0, word;
	uint32_t last;
	unsigned c;

	for (c = 0; c + 8 <= CARDS; c += 8) {
		memcpy(&word, owner + c, 8);
		word = le64toh(word);
		low |= gather_low_bits(word) << c;
		high |= gather_low_bits(word >> 1) << c;
	}
	_Static_assert(CARDS % 8 == sizeof last, "the last owners fill a uint32_t");
	memcpy(&last, owner + c, sizeof last);
	word = le32toh(last);
	*lowp = low | gather_low_bits(word) << c;
	*highp = high | gather_low_bits(word >> 1) << c;
}

/* The reverse of deposit_bits: the bits of cards at the set bits of free,
 * packed together (BMI2's PEXT). */
static uint64_t
extract_bits_plain(uint64_t cards, uint64_t free)
{
	uint64_t packed = 0, bit = 1;

	for (; free != 0; free &= free - 1, bit <<= 1)
		packed |= bit & -(uint64_t)((cards & free & -free) != 0);
	return packed;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(DL_NO_ASM)
static uint64_t __attribute__((target("bmi2")))
extract_bits_bmi2(uint64_t cards, uint64_t free)
{
	return _pext_u64(cards, free);
}
#endif

static uint64_t (*extract_bits)(uint64_t, uint64_t);

static void
tables_setup(void)
{
	fill_binomials();
	fill_buckets();
	fill_spread();
	deposit_bits = pick_deposit();
	extract_bits = extract_bits_plain;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(DL_NO_ASM)
	/* PEXT is slow where PDEP is (pick_deposit) */
	if (deposit_bits == deposit_bits_bmi2)
		extract_bits = extract_bits_bmi2;
#endif
}

/* The lexicographic rank of a 13-subset of n positions, position p at bit
 * p of positions: with its positions p_1 < ... < p_13, the combinatorial
 * number system gives C(n,13) - 1 - the sum of C(n - 1 - p_i, 14 - i), a
 * binomial a position, where the unranking walks all n. */
static uint64_t
rank_positions(uint64_t positions, unsigned n)
{
	uint64_t sum = 0;

	for (unsigned i = 1; i <= HAND_CARDS && positions != 0; i++, positions &= positions - 1)
		sum += binomials[n - 1 - (unsigned)__builtin_ctzll(positions)][HAND_CARDS + 1 - i];
	return binomials[n][HAND_CARDS] - 1 - sum;
}

/* East's positions are its cards among those North does not hold, South's
 * among those neither holds: the hands' masks packed (PEXT). */
u128
number_from_deal(const unsigned char owner[CARDS])
{
	uint64_t low, high;

	pthread_once(&tables_once, tables_setup);
	owner_masks(owner, &low, &high);
	uint64_t north = ALL_CARDS & ~low & ~high, east = low & ~high, south = ~low & high;
	uint64_t free = ALL_CARDS & ~north;
	u128 north_rank = rank_positions(north, 52);
	u128 east_rank = rank_positions(extract_bits(east, free), 39);
	u128 south_rank = rank_positions(extract_bits(south, free & ~east), 26);

	return (north_rank * C_39_13 + east_rank) * C_26_13 + south_rank;
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

/* The lowest card of cards into *card; the others. */
static inline uint64_t
lowest_card(uint64_t cards, unsigned char *card)
{
	*card = (unsigned char)__builtin_ctzll(cards | UINT64_C(1) << 63);
	return cards & (cards - 1);
}

/* Each hand's cards are its mask's set bits, lowest first: no store waits
 * on another, as filling the hands card by card would, and the four hands
 * go side by side, each a chain of dependent steps.  The bit above the
 * cards stops a hand that has fewer than 13 (card 63). */
void
deal_hands(const unsigned char owner[CARDS], unsigned char hand[HANDS][HAND_CARDS])
{
	uint64_t low, high;

	owner_masks(owner, &low, &high);

	uint64_t north = ALL_CARDS & ~low & ~high, east = low & ~high;
	uint64_t south = ~low & high, west = low & high;
#pragma GCC unroll 13
	for (unsigned i = 0; i < HAND_CARDS; i++) {
		north = lowest_card(north, &hand[0][i]);
		east = lowest_card(east, &hand[1][i]);
		south = lowest_card(south, &hand[2][i]);
		west = lowest_card(west, &hand[3][i]);
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

static const char pbn_ranks[] = "AKQJT98765432";

/* One hand's text up to a space or the end, into *hand; *end after it. */
static int
pbn_hand(const char *text, const char **end, uint64_t *hand)
{
	unsigned suit = 0, n = 0;

	*hand = 0;
	for (; *text != '\0' && *text != ' '; text++) {
		const char *rank;
		unsigned c;

		if (*text == '.') {
			if (++suit == 4)
				return -1;
			continue;
		}
		if (text[0] == '1' && text[1] == '0') {
			text++;
			rank = pbn_ranks + 4;
		} else if ((rank = strchr(pbn_ranks, *text)) == NULL)
			return -1;
		c = suit * HAND_CARDS + (unsigned)(rank - pbn_ranks);
		if (*hand & (uint64_t)1 << c)
			return -1;
		*hand |= (uint64_t)1 << c;
		n++;
	}
	*end = text;
	return suit == 3 && n == HAND_CARDS ? 0 : -1;
}

int
hand_from_pbn(const char *text, uint64_t *hand)
{
	const char *end;

	return pbn_hand(text, &end, hand) == -1 || *end != '\0' ? -1 : 0;
}

int
deal_from_pbn(const char *text, unsigned char owner[CARDS])
{
	const char *seats = DL_SEAT_LETTERS, *first;
	uint64_t held = 0, hand;
	int missing = -1;

	if ((first = strchr(seats, text[0])) == NULL || text[0] == '\0' || text[1] != ':')
		return -1;
	memset(owner, 0xff, CARDS);
	text += 2;
	for (unsigned i = 0; i < HANDS; i++) {
		unsigned seat = ((unsigned)(first - seats) + i) % HANDS;

		if (i > 0 && *text++ != ' ')
			return -1;
		if (text[0] == '-' && (text[1] == ' ' || text[1] == '\0') && missing == -1) {
			missing = (int)seat;
			text++;
			continue;
		}
		if (pbn_hand(text, &text, &hand) == -1 || (held & hand) != 0)
			return -1;
		held |= hand;
		for (unsigned c = 0; c < CARDS; c++)
			if (hand & (uint64_t)1 << c)
				owner[c] = (unsigned char)seat;
	}
	if (*text != '\0')
		return -1;
	for (unsigned c = 0; c < CARDS; c++)
		if (owner[c] == 0xff)
			owner[c] = (unsigned char)missing;
	return 0;
}

/* Two loads and byte swaps: dl256 reads five candidates a board. */
u128
deal_number_from_bytes(const unsigned char bytes[DEAL_NUMBER_BYTES])
{
	uint32_t high;
	uint64_t low;

	memcpy(&high, bytes, 4);
	memcpy(&low, bytes + 4, 8);
	return (u128)be32toh(high) << 64 | be64toh(low);
}

void
deal_number_to_bytes(u128 number, unsigned char bytes[DEAL_NUMBER_BYTES])
{
	uint32_t high = htobe32((uint32_t)(number >> 64));
	uint64_t low = htobe64((uint64_t)number);

	memcpy(bytes, &high, 4);
	memcpy(bytes + 4, &low, 8);
}

/* The value of eight hex digits, the first in the lowest byte of text (a
 * little-endian word), all eight at once in the word: dl-map reads 24
 * digits a deal, and a loop over them (a table lookup each, as which of
 * the two ranges a random digit falls in is a coin toss) took 250
 * instructions a deal, this a hundred.  In *bad the bits of the bytes that
 * are not lowercase hex digits. */
static inline uint32_t
hex_word_value(uint64_t text, uint64_t *bad)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	/* '0'-'9' are 0x30-0x39 and 'a'-'f' 0x61-0x66: a digit's value is
	 * its low four bits, plus 9 where bit 6 is set (kept to four bits; no
	 * byte carries into the next, whatever the text) */
	uint64_t digits = ((text & ones * 0x0f) + (text >> 6 & ones) * 9) & ones * 0x0f;
	/* written back as digits, the values must give the text again: the
	 * sixteen values give the sixteen digits, so any other byte differs.
	 * A value past 9 gets 'a' - '0' - 10 more, and carries into bit 4
	 * when 6 is added. */
	uint64_t letters = (digits + ones * 6) >> 4 & ones;
	uint64_t written = digits + ones * '0' + letters * ('a' - '0' - 10);

	*bad |= written ^ text;
	/* the nibbles packed, the first the highest: pairs, fours, eights */
	digits = (digits << 4 | digits >> 8) & UINT64_C(0x00ff00ff00ff00ff);
	digits = (digits << 8 | digits >> 16) & UINT64_C(0x0000ffff0000ffff);
	return (uint32_t)(digits << 16 | digits >> 32);
}

static inline uint32_t
hex_digits_value(const char *hex, uint64_t *bad)
{
	uint64_t text;

	memcpy(&text, hex, sizeof text);
	return hex_word_value(le64toh(text), bad);
}

int
deal_number_from_hex(const char *hex, u128 *number)
{
	uint64_t bad = 0;

	/* the digits are read only once they are known to be there: a
	 * shorter field (a record "17 ab" at the end of the line buffer) must
	 * not be read past its NUL */
	if (strnlen(hex, DEAL_NUMBER_HEX + 1) != DEAL_NUMBER_HEX)
		return -1;
	/* two 64-bit halves: shifting a 128-bit value costs two registers */
	uint64_t high = hex_digits_value(hex, &bad);
	uint64_t low = (uint64_t)hex_digits_value(hex + 8, &bad) << 32 |
	    hex_digits_value(hex + 16, &bad);

	if (bad != 0)
		return -1;
	*number = (u128)high << 64 | low;
	return 0;
}

/* A byte's two digits at a time. */
static const char byte_digits[] =
	    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
	    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
	    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
	    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

void
deal_number_to_hex(u128 number, char hex[DEAL_NUMBER_HEX + 1])
{
	unsigned char bytes[DEAL_NUMBER_BYTES];

	deal_number_to_bytes(number, bytes);
	for (unsigned i = 0; i < DEAL_NUMBER_BYTES; i++)
		memcpy(hex + 2 * i, byte_digits + 2 * bytes[i], 2);
	hex[DEAL_NUMBER_HEX] = '\0';
}
