#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tso.h"

const char *
deal_from_tso(const char *field, size_t len, unsigned char owner[CARDS])
{
	static char why[64];
	unsigned count[HANDS] = { 0 };

	if (len != TSO_DIGITS)
		return "deal is not 52 digits";
	for (unsigned c = 0; c < CARDS; c++) {
		if (field[c] < '0' || field[c] > '3')
			return "deal has a digit other than 0-3";
		owner[c] = (unsigned char)(field[c] - '0');
		count[owner[c]]++;
	}
	for (unsigned h = 0; h < HANDS; h++)
		if (count[h] != HAND_CARDS) {
			snprintf(why, sizeof why, "hand %c has %u cards, not 13",
			    "NESW"[h], count[h]);
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
