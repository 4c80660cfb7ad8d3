/* For test helpers: the deals of the .tso records ("BOARD DIGITS") on
 * standard input, headers passed over, at most max of them into deals;
 * how many, or the helper ends (a bad deal, none at all). */
#ifndef DL_TSO_INPUT_H
#define DL_TSO_INPUT_H

#include <err.h>
#include <stdio.h>
#include <string.h>

#include "stream/tso.h"

static inline unsigned long
tso_input(unsigned char (*deals)[CARDS], unsigned long max)
{
	unsigned long have = 0;
	char line[256];

	while (have < max && fgets(line, sizeof line, stdin) != NULL) {
		char *space = strchr(line, ' ');
		if (line[0] == '#' || space == NULL)
			continue;
		if (deal_from_tso(space + 1, strcspn(space + 1, "\n"), deals[have]) != NULL)
			errx(1, "a bad deal on standard input");
		have++;
	}
	if (have == 0)
		errx(1, "no deals on standard input");
	return have;
}

#endif
