#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dl/plugin.h"
#include "stream/tso.h"

/* Eight digits at a time.  A digit 0-3 XOR '0' is its owner, and any other
 * byte leaves a bit of 0xfc set; the owners' low and high bits, and both,
 * are counted by adding up a word's bytes (one multiplication): North has
 * neither bit, East the low, South the high, West both. */
#define ZEROS UINT64_C(0x3030303030303030)
#define ONES UINT64_C(0x0101010101010101)

struct owner_bits {
	uint64_t bad, low, high, both;
};

static inline uint64_t
owners_of(uint64_t digits, uint64_t zeros, struct owner_bits *b)
{
	uint64_t v = digits ^ zeros;

	b->bad |= v & 0xfc * ONES;
	b->low += (v & ONES) * ONES >> 56;
	b->high += (v >> 1 & ONES) * ONES >> 56;
	b->both += (v & v >> 1 & ONES) * ONES >> 56;
	return v;
}

const char *
deal_from_tso(const char *field, size_t len, unsigned char owner[CARDS])
{
	/* the thread's own: readers run on several threads */
	static _Thread_local char why[64];
	struct owner_bits b = { 0 };
	uint64_t digits;
	uint32_t last;
	unsigned c, count[HANDS];

	if (len != TSO_DIGITS)
		return "deal is not 52 digits";
	for (c = 0; c + 8 <= CARDS; c += 8) {
		memcpy(&digits, field + c, 8);
		digits = owners_of(digits, ZEROS, &b);
		memcpy(owner + c, &digits, 8);
	}
	_Static_assert(CARDS % 8 == sizeof last, "the last digits fill a uint32_t");
	memcpy(&last, field + c, sizeof last);
	last = (uint32_t)owners_of(last, (uint32_t)ZEROS, &b);
	memcpy(owner + c, &last, sizeof last);
	if (b.bad != 0)
		return "deal has a digit other than 0-3";
	count[3] = (unsigned)b.both;
	count[1] = (unsigned)(b.low - b.both);
	count[2] = (unsigned)(b.high - b.both);
	count[0] = CARDS - count[1] - count[2] - count[3];
	for (unsigned h = 0; h < HANDS; h++)
		if (count[h] != HAND_CARDS) {
			snprintf(why, sizeof why, "hand %c has %u cards, not 13",
			    DL_SEAT_LETTERS[h], count[h]);
			return why;
		}
	return NULL;
}

/* Eight digits at a time: an owner is 0 to 3, so adding '0' to each byte
 * of a word never carries into the next. */
void
deal_to_tso(const unsigned char owner[CARDS], char field[TSO_DIGITS])
{
	const uint64_t zeros = UINT64_C(0x3030303030303030);
	uint64_t eight;
	unsigned c;

	for (c = 0; c + 8 <= CARDS; c += 8) {
		memcpy(&eight, owner + c, 8);
		eight += zeros;
		memcpy(field + c, &eight, 8);
	}
	memcpy(&eight, owner + c, CARDS - c);
	eight += zeros;
	memcpy(field + c, &eight, CARDS - c);
}
