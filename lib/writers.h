/* A run of format writers fed the same boards: every file is written under
 * a temporary name and all are published together at the end, or none. */
#ifndef DL_WRITERS_H
#define DL_WRITERS_H

#include <stddef.h>
#include <stdio.h>

#include "dealnum.h"
#include "outfile.h"

struct writers;

struct writers_options {
	const char *prefix;	/* files PREFIX.SUFFIX; NULL: standard output */
	int crlf;		/* CRLF line ends in text formats */
	enum publish_mode publish;	/* what to do with existing files */
	const char *generator;	/* for generator tags; NULL: this program */
	FILE *report;		/* when set, each published file's name goes here */
};

/* formats: a comma-separated list of plugin names.  Exits on an unknown
 * or broken plugin, two formats of one suffix, or (without replace) an
 * output file that exists already. */
struct writers *writers_open(const char *formats, const struct writers_options *opt);
/* What writers_open would refuse in a format list, without exiting: NULL,
 * or the message (to free). */
char *writers_check(const char *formats);
/* headers: the stream's header lines; event: the #I: text or NULL.  Exits
 * when a format cannot hold board high. */
void writers_begin(struct writers *w, unsigned low, unsigned high, const char *event,
    char *const *headers, size_t nheaders);
void writers_board(struct writers *w, unsigned board, const unsigned char owner[CARDS]);
void writers_finish(struct writers *w);

#endif
