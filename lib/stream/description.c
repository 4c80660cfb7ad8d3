/* A set's description as header lines (description.h). */
#include <stdlib.h>
#include <string.h>

#include "stream/description.h"

size_t
set_description_lines(const struct set_description *d, char *lines[SET_DESCRIPTION_LINES])
{
	size_t n = 0;

	if (d->version != NULL)
		lines[n++] = xasprintf("#V: %s", d->version);
	if (d->time != NULL)
		lines[n++] = xasprintf("#T: %s", d->time);
	if (d->event != NULL)
		lines[n++] = xasprintf("#I: %s", d->event);
	if (d->site != NULL)
		lines[n++] = xasprintf("#S: %s", d->site);
	if (d->date != NULL)
		lines[n++] = xasprintf("#D: %s", d->date);
	if (d->place > 0)
		lines[n++] = xasprintf("#N: %lld", (long long)d->place);
	if (d->record_url != NULL)
		lines[n++] = xasprintf("#U: %s", d->record_url);
	if (d->generator != NULL)
		lines[n++] = xasprintf("#G: %s", d->generator);
	if (d->boards.high != 0)
		lines[n++] = xasprintf("#B: %u-%u", d->boards.low, d->boards.high);
	if (d->mapping != NULL)
		lines[n++] = xasprintf("#M: %s", d->mapping);
	if (d->solver != NULL)
		lines[n++] = xasprintf("#A: %s", d->solver);
	return n;
}

void
set_description_lines_free(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
}

void
set_description_read(struct set_description *d, char *const *lines, size_t n)
{
	memset(d, 0, sizeof *d);
	for (size_t i = 0; i < n; i++) {
		const char *v = lines[i] + 4;
		const char *why;

		if (lines[i][0] != '#' || lines[i][1] == '\0' || strncmp(lines[i] + 2, ": ", 2) != 0)
			continue;
		switch (lines[i][1]) {
		case 'V': d->version = v; break;
		case 'T': d->time = v; break;
		case 'I': d->event = v; break;
		case 'S': d->site = v; break;
		case 'D': d->date = v; break;
		case 'G': d->generator = v; break;
		case 'M': d->mapping = v; break;
		case 'A': d->solver = v; break;
		case 'U': d->record_url = v; break;
		case 'N': {
			long long place;

			d->place = decimal_parse(v, strlen(v), 1, INT64_MAX, &place) == 0 ? place : 0;
			break;
		}
		case 'B':
			if (board_range_parse(v, &d->boards, &why) == -1)
				d->boards.low = d->boards.high = 0;
			break;
		}
	}
}
