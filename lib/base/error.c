#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

size_t
escape_text(char *out, size_t outsize, const char *text, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)text;
	size_t o = 0, i = 0;

	if (outsize == 0)
		return 0;
	while (i < len) {
		size_t n = utf8_printable_sequence(s + i, len - i);
		char piece[8];
		size_t plen;

		if (n > 0 && s[i] != '\\') {
			memcpy(piece, s + i, n);
			plen = n;
		} else if (s[i] == '\\') {
			memcpy(piece, "\\\\", 2);
			plen = 2;
			n = 1;
		} else {
			piece[0] = '\\';
			piece[1] = 'x';
			piece[2] = hex[s[i] >> 4];
			piece[3] = hex[s[i] & 15];
			plen = 4;
			n = 1;
		}
		/* room for the piece, and for "..." should more follow */
		if (o + plen + 3 >= outsize && (i + n < len || o + plen >= outsize)) {
			size_t dots = outsize - 1 - o < 3 ? outsize - 1 - o : 3;
			memcpy(out + o, "...", dots);
			o += dots;
			break;
		}
		memcpy(out + o, piece, plen);
		o += plen;
		i += n;
	}
	out[o] = '\0';
	return o;
}

int
dl_error_vset(struct dl_error *e, enum dl_error_kind kind, const char *fmt, va_list ap)
{
	char raw[DL_ERROR_MAX * 2];
	int n;

	if (e == NULL)
		return -1;
	e->kind = kind;
	e->errnum = 0;
	e->cause = DL_CAUSE_NONE;
	n = vsnprintf(raw, sizeof raw, fmt, ap);
	if (n < 0)
		n = 0;
	escape_text(e->msg, sizeof e->msg, raw,
	    (size_t)n < sizeof raw ? (size_t)n : sizeof raw - 1);
	return -1;
}

int
dl_error_set(struct dl_error *e, enum dl_error_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dl_error_vset(e, kind, fmt, ap);
	va_end(ap);
	return -1;
}

int
dl_error_sys(struct dl_error *e, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	if (e == NULL)
		return -1;
	va_start(ap, fmt);
	dl_error_vset(e, DL_ERR_SYSTEM, fmt, ap);
	va_end(ap);
	e->errnum = saved;
	size_t used = strlen(e->msg);
	if (used + 3 < sizeof e->msg)
		snprintf(e->msg + used, sizeof e->msg - used, ": %s", strerror(saved));
	errno = saved;
	return -1;
}

int
dl_error_vat(struct dl_error *e, enum dl_error_kind kind, const char *file,
    unsigned long line, const char *fmt, va_list ap)
{
	char msg[DL_ERROR_MAX];

	if (e == NULL)
		return -1;
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (file != NULL)
		return dl_error_set(e, kind, "%s:%lu: %s", file, line, msg);
	return dl_error_set(e, kind, "line %lu: %s", line, msg);
}

int
dl_error_at(struct dl_error *e, enum dl_error_kind kind, const char *file,
    unsigned long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dl_error_vat(e, kind, file, line, fmt, ap);
	va_end(ap);
	return -1;
}

void
dl_error_prefix(struct dl_error *e, const char *fmt, ...)
{
	char context[DL_ERROR_MAX], escaped[DL_ERROR_MAX], old[DL_ERROR_MAX];
	va_list ap;
	int n;

	if (e == NULL)
		return;
	va_start(ap, fmt);
	n = vsnprintf(context, sizeof context, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	escape_text(escaped, sizeof escaped, context,
	    (size_t)n < sizeof context ? (size_t)n : sizeof context - 1);
	memcpy(old, e->msg, sizeof old);
	/* the old message is escaped already: put it back as it is */
	int w = snprintf(e->msg, sizeof e->msg, "%s: %s", escaped, old);
	if (w >= (int)sizeof e->msg)
		memcpy(e->msg + sizeof e->msg - 4, "...", 4);
}

void
dl_error_clear(struct dl_error *e)
{
	if (e != NULL) {
		e->kind = DL_ERR_NONE;
		e->errnum = 0;
		e->msg[0] = '\0';
		e->cause = DL_CAUSE_NONE;
	}
}

void
dl_warn(struct dl_warnings *w, const char *fmt, ...)
{
	struct dl_error e;
	char **more;
	va_list ap;

	if (w == NULL)
		return;
	va_start(ap, fmt);
	dl_error_vset(&e, DL_ERR_NONE, fmt, ap);
	va_end(ap);
	if ((more = reallocarray(w->msgs, w->n + 1, sizeof *more)) == NULL)
		return;		/* a warning lost to a lack of memory */
	w->msgs = more;
	if ((w->msgs[w->n] = strdup(e.msg)) != NULL)
		w->n++;
}

void
dl_warnings_free(struct dl_warnings *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->msgs[i]);
	free(w->msgs);
	w->msgs = NULL;
	w->n = 0;
}

char *
text_escaped(const char *text)
{
	size_t size = 4 * strlen(text) + 1;
	char *out = xmalloc(size);

	escape_text(out, size, text, strlen(text));
	return out;
}

