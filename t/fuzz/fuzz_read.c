/* Every reader (lib/files/readers.c and the reader plugins, linked in under
 * the names dl_plugin_NAME) on hostile bytes.  The input's first line
 * names the reader, "NAME", then the options dl-read takes, in any order:
 * " --first N" (where the boards the file does not number start),
 * " --partial", " --renumber" ("NAME --first 11 --renumber"); the rest is
 * the file.  By
 * name, not by a place in the list, so that a reader added leaves every
 * input of the corpus with the reader it was made for.  A refusal keeps
 * the error contract; a board accepted holds a
 * complete deal, a board number in range and printable text fields; the
 * boards a file does not number follow on; warnings are one line each.
 * The file is read again with DL_IN_STRICT (dl-sqd verify, dl-diff): the
 * same boards up to where that read fails, and it fails only where the
 * first read failed too or warned (of an ambiguous board). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "files/readers.h"
#include "base/util.h"

/* FUZZ_READERS: READER(ber) READER(borel) ..., every plugin that reads,
 * given by share/dev/fuzz.mk from the Makefile's READERS. */
#ifndef FUZZ_READERS
#error "FUZZ_READERS names the readers: build fuzz_read with make (share/dev/fuzz.mk)"
#endif

#define READER(name) extern const struct dl_plugin dl_plugin_##name;
FUZZ_READERS
#undef READER

static const struct dl_plugin *const readers[] = {
#define READER(name) &dl_plugin_##name,
FUZZ_READERS
#undef READER
};
#define NREADERS (sizeof readers / sizeof *readers)

/* The reader the first line names, then --first N, --partial and
 * --renumber, in any order, as dl-read's options (without --renumber,
 * dl-read offers it): the flags and the first board of what the file does
 * not number (0: none given); NULL for no reader. */
static const struct dl_plugin *
reader_named(const uint8_t *line, size_t len, unsigned *flags, unsigned *first)
{
	static const struct { const char *word; unsigned flag; } options[] = {
		{ " --partial", DL_IN_PARTIAL }, { " --renumber", DL_IN_RENUMBER },
	};
	static const char first_option[] = " --first ";
	int found;

	*flags = 0;
	*first = 0;
	do {
		found = 0;
		for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
			size_t n = strlen(options[i].word);
			if (len > n && !(*flags & options[i].flag) &&
			    memcmp(line + len - n, options[i].word, n) == 0) {
				*flags |= options[i].flag;
				len -= n;
				found = 1;
			}
		}
		size_t digits = 0;
		while (digits < len && line[len - 1 - digits] >= '0' &&
		    line[len - 1 - digits] <= '9')
			digits++;
		if (*first == 0 && digits > 0 && len > digits + sizeof first_option - 1 &&
		    memcmp(line + len - digits - (sizeof first_option - 1), first_option,
		    sizeof first_option - 1) == 0) {
			if (board_number_parse((const char *)line + len - digits, digits,
			    first) == -1)
				return NULL;
			len -= digits + sizeof first_option - 1;
			found = 1;
		}
	} while (found);
	if (!(*flags & DL_IN_RENUMBER))
		*flags |= DL_IN_OFFER_RENUMBER;
	for (size_t i = 0; i < NREADERS; i++)
		if (strlen(readers[i]->name) == len && memcmp(readers[i]->name, line, len) == 0)
			return readers[i];
	return NULL;
}

static size_t warnings;		/* of the read under way */

static void
check_warning(const char *msg, void *arg)
{
	(void)arg;
	fuzz_check_message(msg, "a reader's warning");
	warnings++;
}

/* The boards one read returned, and how it ended. */
struct read_result {
	struct read_board { unsigned board; unsigned char owner[CARDS]; } *boards;
	size_t n;
	int failed;
	size_t warnings;
};

static void
check_board(const struct dl_board_in *b, const char *format)
{
	const char *const fields[] = {
		b->event, b->site, b->date,
		b->players[0], b->players[1], b->players[2], b->players[3],
	};

	if (b->board < 1 || b->board > BOARD_MAX || !deal_is_complete(b->owner))
		fuzz_fail("%s: board %u accepted incomplete or out of range", format, b->board);
	if (b->dealer < -1 || b->dealer > 3 || b->vulnerability < -1 || b->vulnerability > 3)
		fuzz_fail("%s: board %u: dealer %d, vulnerability %d", format, b->board,
		    b->dealer, b->vulnerability);
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
		if (fields[i] != NULL && (*fields[i] == '\0' ||
		    !text_is_printable(fields[i], strlen(fields[i]))))
			fuzz_fail("%s: board %u: text field %zu not printable", format,
			    b->board, i);
}

static void
read_file(const struct dl_plugin *plugin, const char *path, unsigned flags, unsigned first,
    struct read_result *res)
{
	struct reader_options opt = { .flags = flags, .warn = check_warning, .first = first };
	struct deal_reader *r;
	struct dl_board_in b;
	struct dl_error e = { 0 };
	int got;

	memset(res, 0, sizeof *res);
	warnings = 0;
	if (reader_open_plugin(&r, path, plugin, &opt, &e) == -1)
		fuzz_fail("%s: a file written cannot be opened: %s", plugin->name, e.msg);
	while ((got = reader_next(r, &b, &e)) == 1) {
		check_board(&b, plugin->name);
		if ((res->n & (res->n - 1)) == 0)
			res->boards = xreallocarray(res->boards, res->n ? 2 * res->n : 1,
			    sizeof *res->boards);
		res->boards[res->n].board = b.board;
		memcpy(res->boards[res->n++].owner, b.owner, CARDS);
	}
	if (got == -1)
		fuzz_check_error(&e, plugin->name);
	res->failed = got == -1;
	res->warnings = warnings;
	reader_close(r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *line, *file;
	size_t line_size, file_size;
	const struct dl_plugin *plugin;
	unsigned flags, first;
	struct read_result lax, strict;

	if (fuzz_split(data, size, "\n", &line, &line_size, &file, &file_size) == -1 ||
	    (plugin = reader_named(line, line_size, &flags, &first)) == NULL ||
	    plugin->read_board == NULL)
		return 0;
	const char *path = fuzz_tmp_file("deals", file, file_size);
	read_file(plugin, path, flags, first, &lax);
	read_file(plugin, path, flags | DL_IN_STRICT, first, &strict);
	if (strict.n > lax.n || (!strict.failed && (lax.failed || strict.n != lax.n)))
		fuzz_fail("%s: %zu boards strictly, %zu (%s) without", plugin->name, strict.n,
		    lax.n, lax.failed ? "failed" : "whole");
	for (size_t i = 0; i < strict.n; i++)
		if (strict.boards[i].board != lax.boards[i].board ||
		    memcmp(strict.boards[i].owner, lax.boards[i].owner, CARDS) != 0)
			fuzz_fail("%s: board %zu read strictly differs", plugin->name, i + 1);
	/* a strict read fails where the other did, or where it warned */
	if (strict.failed && !(lax.failed && lax.n == strict.n) && lax.warnings == 0)
		fuzz_fail("%s: the strict read failed after %zu boards, without a warning "
		    "before", plugin->name, strict.n);
	free(lax.boards);
	free(strict.boards);
	return 0;
}
