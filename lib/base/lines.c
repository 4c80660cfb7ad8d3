#include <errno.h>
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
	/* Our buffer is the only copy of what is read: stdio's own would
	 * keep a seed record, which we wipe from ours, until the process
	 * ends.  Reads of 64 KiB lose nothing by going straight to it. */
	setvbuf(in, NULL, _IONBF, 0);
}

void
line_reader_close(struct line_reader *r)
{
	/* the buffer may have held a seed */
	sodium_memzero(r->buf, BUF_BYTES);
	free(r->buf);
	r->buf = NULL;
}

int
line_error(const struct line_reader *r, struct dl_error *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line_verror(r, e, fmt, ap);
	va_end(ap);
	return -1;
}

int
line_error_locate(const struct line_reader *r, struct dl_error *e)
{
	if (e == NULL)
		return -1;
	if (r->name != NULL)
		dl_error_prefix(e, "%s:%lu", r->name, (unsigned long)r->lineno);
	else
		dl_error_prefix(e, "line %lu", (unsigned long)r->lineno);
	e->kind = DL_ERR_INPUT;
	return -1;
}

int
line_verror(const struct line_reader *r, struct dl_error *e, const char *fmt, va_list ap)
{
	return dl_error_vat(e, DL_ERR_INPUT, r->name, r->lineno, fmt, ap);
}

/* Move what is left to the front and read more: the bytes read, 0 at the
 * end of input, -1 on a read error. */
static long
refill(struct line_reader *r, struct dl_error *e)
{
	size_t old_end = r->end;

	memmove(r->buf, r->buf + r->start, r->end - r->start);
	r->end -= r->start;
	r->start = 0;
	/* no second copy of the bytes moved (a secret line's head) stays
	 * behind, should nothing more be read over it */
	memset(r->buf + r->end, 0, old_end - r->end);
	size_t got = fread(r->buf + r->end, 1, BUF_BYTES - 1 - r->end, r->in);
	if (got == 0 && ferror(r->in)) {
		if (errno == 0)
			errno = EIO;
		return r->name != NULL ? dl_error_sys(e, "%s", r->name) : dl_error_sys(e, "read error");
	}
	r->end += got;
	return (long)got;
}

int
line_next(struct line_reader *r, char **linep, size_t *lenp, struct dl_error *e)
{
	char *line, *nl;
	size_t len;

	for (;;) {
		nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (nl != NULL)
			break;
		if (r->end - r->start >= LINE_MAX_BYTES + 1) {
			r->lineno++;
			return line_error(r, e, "line too long (over %d bytes)", LINE_MAX_BYTES);
		}
		long got = refill(r, e);
		if (got == -1)
			return -1;
		if (got == 0) {
			if (r->end == r->start)
				return 0;
			nl = r->buf + r->end;	/* last line lacks its newline */
			break;
		}
	}
	r->lineno++;
	line = r->buf + r->start;
	len = (size_t)(nl - line);
	r->start = nl - r->buf + (nl < r->buf + r->end);
	if (memchr(line, '\0', len) != NULL)
		return line_error(r, e, "NUL byte in line");
	r->crlf = len > 0 && line[len - 1] == '\r';
	if (r->crlf)
		len--;
	line[len] = '\0';
	*linep = line;
	if (lenp != NULL)
		*lenp = len;
	return 1;
}
