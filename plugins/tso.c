/* The dl deal stream itself (.tso), so that a set written to a file can be
 * archived and read back by dl-fmt: its headers, then "BOARD DIGITS" a
 * board with the holder of each card AS..2C as 0 (North) .. 3 (West). */
#include <string.h>

#include "dl/plugin.h"

static int
has_range_header(const struct dl_run *run)
{
	for (size_t i = 0; i < run->nheaders; i++)
		if (strncmp(run->headers[i], "#B: ", 4) == 0)
			return 1;
	return 0;
}

/* A stream read back must announce its range: with #B: its boards keep
 * their numbers, where a plain file's would count from 1. */
static int
tso_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	(void)state;
	out->print(out, "#P: dl/1 deals\n");
	for (size_t i = 0; i < run->nheaders; i++)
		out->print(out, "%s\n", run->headers[i]);
	if (!has_range_header(run))
		out->print(out, "#B: %u-%u\n", run->low, run->high);
	return 0;
}

static int
tso_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	char digits[DL_CARDS + 1];

	(void)run;
	(void)state;
	for (unsigned c = 0; c < DL_CARDS; c++)
		digits[c] = (char)('0' + deal->owner[c]);
	digits[DL_CARDS] = '\n';
	out->print(out, "%u ", deal->board);
	out->write(out, digits, sizeof digits);
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "tso",
	.suffix = "tso",
	.description = "dl deal stream with its headers, re-readable",
	.kind = DL_TEXT,
	.max_board = 0,
	.begin = tso_begin,
	.board = tso_board,
	.end = NULL,
};
