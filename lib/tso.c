#include <stdio.h>

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

void
deal_to_tso(const unsigned char owner[CARDS], char field[TSO_DIGITS])
{
	for (unsigned c = 0; c < CARDS; c++)
		field[c] = (char)('0' + owner[c]);
}
