/* "#N: 3": the set is the third dealt for its event, as the archive of
 * the program that dealt it counts (dl-web, docs/protocol.md), which the
 * hand records' feet say, so that dealing again and again until a set
 * pleases shows on the paper too.  One rule for the html and pdf
 * writers. */
#ifndef DL_PLUGINS_SET_COUNT_H
#define DL_PLUGINS_SET_COUNT_H

#include <stdlib.h>
#include <string.h>

#include "dl/plugin.h"

/* The count, or 0 when the stream has none (or one that is no number
 * from 1 to 999999). */
static inline unsigned long
sets_of_event(const struct dl_run *run)
{
	for (size_t i = 0; i < run->nheaders; i++)
		if (strncmp(run->headers[i], "#N: ", 4) == 0) {
			char *end;
			unsigned long n = strtoul(run->headers[i] + 4, &end, 10);

			return *end == '\0' && n >= 1 && n <= 999999 &&
			    run->headers[i][4] >= '1' && run->headers[i][4] <= '9' ? n : 0;
		}
	return 0;
}

#endif
