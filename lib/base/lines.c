#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "base/lines.h"
#include "base/util.h"

/* The longest line, its CR and its LF (line_split's promise): a partial
 * line moved to the front always leaves room to read more, and the NUL
 * that ends a line goes on its line end, or after the last line's bytes. */
#define BUF_BYTES (LINE_MAX_BYTES + 2)

void
line_reader_open(struct line_reader *r, FILE *in, const char *name)
{
	r->in = in;
	r->name = name;
	r->lineno = 0;
	r->buf = xmalloc(BUF_BYTES);
	r->start = r->end = 0;
	r->at_end = 0;
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
	size_t got = fread(r->buf + r->end, 1, BUF_BYTES - r->end, r->in);
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
	enum line_split_result found;
	size_t len, next;

	while ((found = line_split(r->buf + r->start, r->end - r->start, r->at_end,
	    &line_rules_stream, &len, &next)) == LINE_SPLIT_MORE) {
		/* never a full buffer here: fread's 0 is the end */
		long got = refill(r, e);
		if (got == -1)
			return -1;
		r->at_end = got == 0;
	}
	if (found == LINE_SPLIT_END)
		return 0;
	r->lineno++;
	if (found == LINE_SPLIT_TOO_LONG)
		return line_error(r, e, "line too long (over %d bytes)", LINE_MAX_BYTES);
	char *line = r->buf + r->start;
	r->start += next;
	if (found == LINE_SPLIT_NUL)
		return line_error(r, e, "NUL byte in line");
	r->crlf = next > len && line[len] == '\r';
	line[len] = '\0';
	*linep = line;
	if (lenp != NULL)
		*lenp = len;
	return 1;
}
