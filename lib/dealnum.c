#include <endian.h>
#include <pthread.h>
#include <string.h>

#include "dealnum.h"
#include "simd.h"

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

static void tables_setup(void);
/* The tables are made once, whichever thread first needs them. */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

uint64_t
binomial(unsigned n, unsigned k)
{
	pthread_once(&tables_once, tables_setup);
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
			skip_rows[m + 1][t + 1] = binomials[m][t - 1];
}

/* One hand's unranking: its rank, the skip of its next position, how many
 * cards it still takes, and its choices so far as bits, the latest lowest. */
struct unrank_chain {
	uint64_t rank, skip, chosen;
	uint64_t to_take;	/* 64 bits: an index needs no widening */
};

static inline void
unrank_chain_start(struct unrank_chain *ch, uint64_t rank, unsigned positions)
{
	ch->rank = rank;
	ch->skip = skip_rows[positions][HAND_CARDS + 1];
	ch->chosen = 0;
	ch->to_take = HAND_CARDS;
}

/* One position of a hand, taken when rank < skip; next is the row of the
 * position after it, whose two possible skips are fetched before this
 * position is decided.  Taken or not is a coin toss, so this must not be a
 * branch: on x86-64 the carry of one subtraction drives two conditional
 * moves (one of them the load of the next skip) and goes as it is into the
 * chosen bits and the count (sbb, adc): eight instructions.  Elsewhere
 * masks (gcc turns ?: back into a branch). */
static inline void
unrank_chain_step(struct unrank_chain *ch, const uint64_t *next)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(DL_NO_ASM)
	uint64_t rest, minus_take;

	__asm__("mov %[rank], %[rest]\n\t"
	    "sub %[skip], %[rest]\n\t"
	    "cmovae %[rest], %[rank]\n\t"
	    "mov 8(%[next],%[t],8), %[skip]\n\t"
	    "cmovb (%[next],%[t],8), %[skip]\n\t"
	    "sbb %[minus_take], %[minus_take]\n\t"	/* -carry, and keeps it */
	    "adc %[chosen], %[chosen]\n\t"
	    "add %[minus_take], %[t]"
	    : [rank] "+r" (ch->rank), [skip] "+r" (ch->skip),
	      [chosen] "+r" (ch->chosen), [t] "+r" (ch->to_take),
	      [rest] "=&r" (rest), [minus_take] "=&r" (minus_take)
	    : [next] "r" (next),
	      "m" (*(const uint64_t (*)[HAND_CARDS + 2])next)
	    : "cc");
#else
	uint64_t take = ch->rank < ch->skip;
	uint64_t taken = -take;

	ch->rank -= ch->skip & ~taken;
	ch->skip = (next[ch->to_take] & taken) | (next[ch->to_take + 1] & ~taken);
	ch->to_take -= take;
	ch->chosen = ch->chosen << 1 | take;
#endif
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

/* Eight cards' owners from the hands' masks (card c at bit 63 - c):
 * 1 East + 2 South + 3 West, 0 North. */
static inline uint64_t
eight_owners(uint64_t east, uint64_t south, uint64_t west, unsigned k)
{
	unsigned shift = 56 - 8 * k;

	return spread[east >> shift & 0xff] + 2 * spread[south >> shift & 0xff] +
	    3 * spread[west >> shift & 0xff];
}

/* number / divisor, and the remainder in *rest.  gcc divides 128 bits by
 * a library call even by a constant; on x86-64 one divq divides 128 bits
 * by 64 when the quotient fits in 64 bits, which dividing the high half
 * first makes sure of. */
static inline u128
divide(u128 number, uint64_t divisor, uint64_t *rest)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(DL_NO_ASM)
	uint64_t high = (uint64_t)(number >> 64), low;

	__asm__("divq %[divisor]"
	    : "=a" (low), "=d" (*rest)
	    : "a" ((uint64_t)number), "d" (high % divisor), [divisor] "r" (divisor));
	return (u128)(high / divisor) << 64 | low;
#else
	u128 quotient = number / divisor;

	*rest = (uint64_t)(number - quotient * divisor);
	return quotient;
#endif
}

/* North's, East's and South's chains, from the deal number's three ranks. */
static inline void
chains_start(u128 number, struct unrank_chain ch[3])
{
	uint64_t north_rank, east_rank, south_rank;
	u128 north_east = divide(number, C_26_13, &south_rank);

	north_rank = (uint64_t)divide(north_east, C_39_13, &east_rank);
	unrank_chain_start(&ch[0], north_rank, 52);
	unrank_chain_start(&ch[1], east_rank, 39);
	unrank_chain_start(&ch[2], south_rank, 26);
}

/* The hands' cards put in place, and their owners written eight at a time. */
static inline void
chains_finish(const struct unrank_chain ch[3], unsigned char owner[CARDS])
{
	uint64_t free = ALL_CARDS & ~ch[0].chosen;
	uint64_t east_cards = deposit_bits(ch[1].chosen, free);
	free &= ~east_cards;
	uint64_t south_cards = deposit_bits(ch[2].chosen, free);
	uint64_t west_cards = free & ~south_cards;

	east_cards <<= 64 - CARDS;
	south_cards <<= 64 - CARDS;
	west_cards <<= 64 - CARDS;
	for (unsigned k = 0; k < CARDS / 8; k++) {
		uint64_t eight = eight_owners(east_cards, south_cards, west_cards, k);
		memcpy(owner + 8 * k, &eight, 8);
	}
	uint64_t last = eight_owners(east_cards, south_cards, west_cards, CARDS / 8);
	memcpy(owner + CARDS / 8 * 8, &last, CARDS % 8);
}

/* The three hands are unranked side by side: which of its positions a hand
 * takes depends on its own rank alone (East chooses among "the cards North
 * did not take", whichever they are), so the chains are independent and
 * the processor runs them in parallel.  Aligned at their ends, position q
 * of North's 52 is East's q - 13 of 39 and South's q - 26 of 26, with
 * 51 - q positions after it in all three.  The cards are put in place
 * afterwards: card c is bit 51 - c of a hand's mask, so that a hand's
 * positions, in increasing card order, are its free bits from the highest
 * down, as the chains chose them. */
void
deal_from_number(u128 number, unsigned char owner[CARDS])
{
	struct unrank_chain ch[3];
	unsigned q;

	pthread_once(&tables_once, tables_setup);
	chains_start(number, ch);
#pragma GCC unroll 13
	for (q = 0; q < 13; q++)
		unrank_chain_step(&ch[0], skip_rows[51 - q]);
#pragma GCC unroll 13
	for (; q < 26; q++) {
		unrank_chain_step(&ch[0], skip_rows[51 - q]);
		unrank_chain_step(&ch[1], skip_rows[51 - q]);
	}
#pragma GCC unroll 26
	for (; q < 52; q++) {
		unrank_chain_step(&ch[0], skip_rows[51 - q]);
		unrank_chain_step(&ch[1], skip_rows[51 - q]);
		unrank_chain_step(&ch[2], skip_rows[51 - q]);
	}
	chains_finish(ch, owner);
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
	fill_skip_rows();
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

/* Each hand's cards are its mask's set bits, lowest first: no store waits
 * on another, as filling the hands card by card would. */
void
deal_hands(const unsigned char owner[CARDS], unsigned char hand[HANDS][HAND_CARDS])
{
	uint64_t low, high;

	owner_masks(owner, &low, &high);

	const uint64_t cards[HANDS] = {
		ALL_CARDS & ~low & ~high, low & ~high, ~low & high, low & high,
	};
	for (unsigned h = 0; h < HANDS; h++) {
		uint64_t m = cards[h];
		/* at most 13: a deal that is not complete fills what it can */
#pragma GCC unroll 13
		for (unsigned i = 0; i < HAND_CARDS && m != 0; i++, m &= m - 1)
			hand[h][i] = (unsigned char)__builtin_ctzll(m);
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
