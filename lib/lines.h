/* Reading text input a line at a time, with the line number kept for error
 * messages, and hostile input (overlong lines, NUL bytes) refused. */
#ifndef DL_LINES_H
#define DL_LINES_H

#include <stdarg.h>
#include <stdio.h>

#define LINE_MAX_BYTES 65536

struct line_reader {
	FILE *in;
	const char *name;	/* file name for messages; NULL: standard input */
	unsigned long lineno;
	char *buf;
	size_t start, end;
};

void line_reader_open(struct line_reader *r, FILE *in, const char *name);
void line_reader_close(struct line_reader *r);
/* The next line without its LF or CRLF, NUL-terminated; NULL at the end. */
char *line_next(struct line_reader *r, size_t *len);
/* The exit status for bad input: 1, unless a tool whose 1 means something
 * else (dl-stat: the battery failed) sets another. */
extern int input_error_status;

/* "NAME:N: message" or "line N: message", then exit input_error_status. */
void line_fail(const struct line_reader *r, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
void line_vfail(const struct line_reader *r, const char *fmt, va_list ap)
    __attribute__((noreturn, format(printf, 2, 0)));

#endif
