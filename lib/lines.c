#include <err.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "lines.h"
#include "util.h"

/* One byte beyond the longest line, for its newline, and one for a NUL. */
#define BUF_BYTES (LINE_MAX_BYTES + 2)

void
line_reader_open(struct line_reader *r, FILE *in, const char *name)
{
	r->in = in;
	r->name = name;
	r->lineno = 0;
	r->buf = xmalloc(BUF_BYTES);
	r->start = r->end = 0;
}

void
line_reader_close(struct line_reader *r)
{
	/* the buffer may have held a seed */
	sodium_memzero(r->buf, BUF_BYTES);
	free(r->buf);
	r->buf = NULL;
}

void
line_fail(const struct line_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line_vfail(r, fmt, ap);
}

int input_error_status = 1;

void
line_vfail(const struct line_reader *r, const char *fmt, va_list ap)
{
	char *msg;

	if (vasprintf(&msg, fmt, ap) == -1)
		err(2, "vasprintf");
	if (r->name != NULL)
		errx(input_error_status, "%s:%lu: %s", r->name, r->lineno, msg);
	errx(input_error_status, "line %lu: %s", r->lineno, msg);
}

/* Move what is left to the front and read more; 0 at end of input. */
static size_t
refill(struct line_reader *r)
{
	memmove(r->buf, r->buf + r->start, r->end - r->start);
	r->end -= r->start;
	r->start = 0;
	size_t got = fread(r->buf + r->end, 1, BUF_BYTES - 1 - r->end, r->in);
	if (got == 0 && ferror(r->in)) {
		if (r->name != NULL)
			err(1, "%s", r->name);
		err(1, "read error");
	}
	r->end += got;
	return got;
}

char *
line_next(struct line_reader *r, size_t *lenp)
{
	char *line, *nl;
	size_t len;

	for (;;) {
		nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (nl != NULL)
			break;
		if (r->end - r->start >= LINE_MAX_BYTES + 1) {
			r->lineno++;
			line_fail(r, "line too long (over %d bytes)", LINE_MAX_BYTES);
		}
		if (refill(r) == 0) {
			if (r->end == r->start)
				return NULL;
			nl = r->buf + r->end;	/* last line lacks its newline */
			break;
		}
	}
	r->lineno++;
	line = r->buf + r->start;
	len = (size_t)(nl - line);
	r->start = nl - r->buf + (nl < r->buf + r->end);
	if (memchr(line, '\0', len) != NULL)
		line_fail(r, "NUL byte in line");
	if (len > 0 && line[len - 1] == '\r')
		len--;
	line[len] = '\0';
	if (lenp != NULL)
		*lenp = len;
	return line;
}
