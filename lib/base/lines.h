/* Reading text input a line at a time, with the line number kept for error
 * messages, and hostile input (overlong lines, NUL bytes) refused.
 *
 * Threads: a struct line_reader is one thread's, and so is its FILE, which
 * line_reader_open makes unbuffered; different readers may read on
 * different threads at once (dl-cat's shards). */
#ifndef DL_LINES_H
#define DL_LINES_H

#include <stdarg.h>
#include <stdio.h>

#include "error.h"

#define LINE_MAX_BYTES 65536

struct line_reader {
	FILE *in;
	const char *name;	/* file name for messages; NULL: standard input */
	unsigned long lineno;
	char *buf;
	size_t start, end;
	int crlf;		/* the last line ended in CR LF */
};

void line_reader_open(struct line_reader *r, FILE *in, const char *name);
void line_reader_close(struct line_reader *r);
/* The next line without its LF or CRLF, NUL-terminated, in *line: 1; at
 * the end of input 0; on an overlong line, a NUL byte or a read error -1
 * with *e set. */
int line_next(struct line_reader *r, char **line, size_t *len, struct dl_error *e);

/* An input error at the reader's line: "NAME:N: message", or "line N:
 * message" on standard input.  Returns -1. */
/* An error made already (its message escaped) placed at the reader's line,
 * as line_error would: -1.  Its message is not escaped a second time. */
int line_error_locate(const struct line_reader *r, struct dl_error *e);
int line_error(const struct line_reader *r, struct dl_error *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int line_verror(const struct line_reader *r, struct dl_error *e, const char *fmt,
    va_list ap) __attribute__((format(printf, 3, 0)));

#endif
