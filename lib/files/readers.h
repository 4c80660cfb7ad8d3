/* Reading deal files of any format through the reader plugins
 * (dl/plugin.h, ABI version 2 and up): the host side.  The file is
 * buffered here, its format found (by -f, by its suffix, by its content),
 * and every board a plugin returns is checked before a tool sees it.
 * docs/formats-in.md lists what each reader takes.
 *
 * Threads: a struct deal_reader is one thread's.  Different readers may run
 * on different threads at once only as far as their plugins allow: the
 * plugins of this tree keep no static state, but the ABI asks that of no
 * reader (DL_CONCURRENT is a writer's promise). */
#ifndef DL_READERS_H
#define DL_READERS_H

#include "deals/dealnum.h"
#include "dl/plugin.h"
#include "base/error.h"

struct deal_reader;

struct reader_options {
	const char *format;	/* a plugin's name, or NULL: from the file */
	unsigned flags;		/* DL_IN_PARTIAL, DL_IN_STRICT, DL_IN_RENUMBER or
				 * DL_IN_OFFER_RENUMBER (dl/plugin.h) */
	/* Called with each warning (one escaped line naming the file and
	 * line), or NULL to drop them. */
	void (*warn)(const char *msg, void *arg);
	void *warn_arg;
	/* The number of the first board the file does not number (struct
	 * dl_in's first_board); 0: 1. */
	unsigned first;
};

/* Opens PATH (NULL or "-": standard input, which is never closed here) and
 * finds its format.  -1 with *e: the file cannot be opened, its format is
 * unknown (e->cause DL_CAUSE_FORMAT_UNKNOWN) or has no reader. */
int reader_open(struct deal_reader **r, const char *path,
    const struct reader_options *opt, struct dl_error *e);
/* The same with a reader linked into the program rather than loaded (the
 * fuzz harnesses): plugin must have read_board. */
int reader_open_plugin(struct deal_reader **r, const char *path,
    const struct dl_plugin *plugin, const struct reader_options *opt,
    struct dl_error *e);
/* The name of the format being read ("pbn"). */
const char *reader_format(const struct deal_reader *r);
/* The file's name as messages give it ("standard input" for stdin). */
const char *reader_name(const struct deal_reader *r);

/* The next board: 1 and *b filled, 0 at the end, -1 with *e ("NAME:LINE:
 * message").  A board the file does not number gets the one after the
 * board before (the options' first, or 1, first).  Every board holds a
 * complete deal; text fields are valid UTF-8 without control characters
 * (else NULL, with a warning) until the next call. */
int reader_next(struct deal_reader *r, struct dl_board_in *b, struct dl_error *e);
/* Where the last board began, for messages: "NAME:LINE", or "NAME: byte
 * N" in a binary file. */
const char *reader_position(struct deal_reader *r);
/* An input error about the last board, at its position: "NAME:LINE:
 * message" ("NAME: byte N: message").  Returns -1. */
int reader_board_error(struct deal_reader *r, struct dl_error *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void reader_close(struct deal_reader *r);


#endif
