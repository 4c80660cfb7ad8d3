/* A CGI request's form (cgi.h).  Everything is measured before it is
 * kept: a request larger than the limits is refused, never cut. */
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "web/cgi.h"
#include "base/util.h"

static int
add_field(struct cgi_form *form, const char *name, size_t name_len, char *value, size_t len,
    char *filename, const struct cgi_limits *lim, struct dl_error *e)
{
	struct cgi_field *f;

	if (form->n >= lim->fields) {
		free(value);
		free(filename);
		return dl_error_set(e, DL_ERR_INPUT, "more than %zu fields", lim->fields),
		    CGI_TOO_LARGE;
	}
	form->fields = xreallocarray(form->fields, form->n + 1, sizeof *form->fields);
	f = &form->fields[form->n++];
	f->name = xstrndup(name, name_len);
	f->value = value;
	f->len = len;
	f->filename = filename;
	return 0;
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The len bytes at text, +s and %XX decoded, into a new string: its
 * length, or -1 on a bad escape or a NUL byte. */
static long
decode(const char *text, size_t len, char **out)
{
	char *d = xmalloc(len + 1);
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		char c = text[i];

		if (c == '+')
			c = ' ';
		else if (c == '%') {
			int hi, lo;

			if (i + 2 >= len || (hi = hex_digit(text[i + 1])) < 0 ||
			    (lo = hex_digit(text[i + 2])) < 0)
				goto bad;
			c = (char)(hi << 4 | lo);
			i += 2;
		}
		if (c == '\0')
			goto bad;
		d[n++] = c;
	}
	d[n] = '\0';
	*out = d;
	return (long)n;
bad:
	free(d);
	return -1;
}

int
cgi_parse_urlencoded(struct cgi_form *form, const char *text, size_t len,
    const struct cgi_limits *lim, struct dl_error *e)
{
	size_t start = 0;

	while (start < len) {
		const char *pair = text + start, *amp = memchr(pair, '&', len - start);
		size_t plen = amp != NULL ? (size_t)(amp - pair) : len - start;
		const char *eq = memchr(pair, '=', plen);
		size_t nlen = eq != NULL ? (size_t)(eq - pair) : plen;
		char *name, *value;
		long got_name, got_value;
		int status;

		start += plen + 1;
		if (plen == 0)
			continue;	/* "a=1&&b=2" */
		if (nlen > 3 * lim->name || (eq != NULL && plen - nlen - 1 > 3 * lim->value))
			return dl_error_set(e, DL_ERR_INPUT, "a field longer than the limit"),
			    CGI_TOO_LARGE;
		got_name = decode(pair, nlen, &name);
		if (got_name < 0)
			return dl_error_set(e, DL_ERR_INPUT, "a field's name: a bad %%-escape or a "
			    "NUL byte"), CGI_BAD_REQUEST;
		got_value = eq != NULL ? decode(eq + 1, plen - nlen - 1, &value) :
		    (value = xstrdup(""), 0);
		if (got_value < 0) {
			free(name);
			return dl_error_set(e, DL_ERR_INPUT, "a field's value: a bad %%-escape or a "
			    "NUL byte"), CGI_BAD_REQUEST;
		}
		if ((size_t)got_name > lim->name || (size_t)got_value > lim->value) {
			free(name);
			free(value);
			return dl_error_set(e, DL_ERR_INPUT, "a field longer than the limit"),
			    CGI_TOO_LARGE;
		}
		status = add_field(form, name, (size_t)got_name, value, (size_t)got_value, NULL,
		    lim, e);
		free(name);
		if (status != 0)
			return status;
	}
	return 0;
}

/* A parameter of a header line ("name=x" or name="x"), into a new string,
 * or NULL.  Quoted strings may hold \" and \\. */
static char *
header_parameter(const char *line, size_t len, const char *param)
{
	size_t plen = strlen(param);

	for (size_t i = 0; i + plen + 1 < len; i++) {
		/* at the start of a parameter: after ';' and blanks */
		if ((i > 0 && line[i - 1] != ';' && line[i - 1] != ' ' && line[i - 1] != '\t') ||
		    strncasecmp(line + i, param, plen) != 0 || line[i + plen] != '=')
			continue;
		const char *v = line + i + plen + 1, *end = line + len;
		char *out = xmalloc((size_t)(end - v) + 1);
		size_t n = 0;

		if (v < end && *v == '"') {
			for (v++; v < end && *v != '"'; v++) {
				if (*v == '\\' && v + 1 < end)
					v++;
				out[n++] = *v;
			}
			if (v == end) {
				free(out);
				return NULL;	/* no closing quote */
			}
		} else
			while (v < end && *v != ';' && *v != ' ' && *v != '\t')
				out[n++] = *v++;
		out[n] = '\0';
		return out;
	}
	return NULL;
}

static const char *
find(const char *hay, size_t len, const char *needle, size_t nlen)
{
	return nlen > len ? NULL : memmem(hay, len, needle, nlen);
}

/* One part's headers (the bytes before its blank line): its field's name
 * and file name from Content-Disposition. */
static int
part_headers(const char *h, size_t len, char **name, char **filename, struct dl_error *e)
{
	*name = *filename = NULL;
	while (len > 0) {
		const char *eol = find(h, len, "\r\n", 2);
		size_t llen = eol != NULL ? (size_t)(eol - h) : len;

		if (llen > 20 && strncasecmp(h, "Content-Disposition:", 20) == 0) {
			free(*name);
			free(*filename);
			*name = header_parameter(h + 20, llen - 20, "name");
			*filename = header_parameter(h + 20, llen - 20, "filename");
		}
		if (eol == NULL)
			break;
		h += llen + 2;
		len -= llen + 2;
	}
	if (*name == NULL || **name == '\0') {
		free(*name);
		free(*filename);
		*name = *filename = NULL;
		return dl_error_set(e, DL_ERR_INPUT, "a part without a field's name"),
		    CGI_BAD_REQUEST;
	}
	return 0;
}

static int
parse_multipart(struct cgi_form *form, const char *boundary, const char *body, size_t len,
    const struct cgi_limits *lim, struct dl_error *e)
{
	char *delim = xasprintf("\r\n--%s", boundary);
	size_t dlen = strlen(delim);
	const char *p, *end = body + len;
	int status = 0;

	/* the first delimiter may open the body, without its CR LF */
	if (len >= dlen - 2 && memcmp(body, delim + 2, dlen - 2) == 0)
		p = body + dlen - 2;
	else if ((p = find(body, len, delim, dlen)) != NULL)
		p += dlen;
	else {
		status = CGI_BAD_REQUEST;
		dl_error_set(e, DL_ERR_INPUT, "a multipart body without its boundary");
		goto out;
	}
	for (;;) {
		const char *headers, *blank, *content, *next;
		char *name, *filename, *value;
		size_t clen, limit;

		/* "--" after a delimiter ends the body; else CR LF and a part */
		if ((size_t)(end - p) >= 2 && p[0] == '-' && p[1] == '-')
			break;
		if ((size_t)(end - p) < 2 || p[0] != '\r' || p[1] != '\n') {
			status = CGI_BAD_REQUEST;
			dl_error_set(e, DL_ERR_INPUT, "a multipart body cut short");
			goto out;
		}
		headers = p + 2;
		if ((size_t)(end - headers) >= 2 && headers[0] == '\r' && headers[1] == '\n')
			blank = headers - 2;	/* no headers at all */
		else
			blank = find(headers, (size_t)(end - headers), "\r\n\r\n", 4);
		if (blank == NULL) {
			status = CGI_BAD_REQUEST;
			dl_error_set(e, DL_ERR_INPUT, "a part without the blank line after its headers");
			goto out;
		}
		content = blank + 4;
		next = find(content, (size_t)(end - content), delim, dlen);
		if (next == NULL) {
			status = CGI_BAD_REQUEST;
			dl_error_set(e, DL_ERR_INPUT, "a multipart body cut short");
			goto out;
		}
		if ((status = part_headers(headers, blank > headers ? (size_t)(blank - headers) : 0,
		    &name, &filename, e)) != 0)
			goto out;
		clen = (size_t)(next - content);
		limit = filename != NULL ? lim->file : lim->value;
		if (strlen(name) > lim->name || clen > limit) {
			free(name);
			free(filename);
			status = CGI_TOO_LARGE;
			dl_error_set(e, DL_ERR_INPUT, "a field longer than the limit");
			goto out;
		}
		if (filename == NULL && memchr(content, '\0', clen) != NULL) {
			free(name);
			status = CGI_BAD_REQUEST;
			dl_error_set(e, DL_ERR_INPUT, "a field's value: a NUL byte");
			goto out;
		}
		value = xmalloc(clen + 1);
		memcpy(value, content, clen);
		value[clen] = '\0';
		status = add_field(form, name, strlen(name), value, clen, filename, lim, e);
		free(name);
		if (status != 0)
			goto out;
		p = next + dlen;
	}
out:
	free(delim);
	return status;
}

int
cgi_parse_body(struct cgi_form *form, const char *content_type, const char *body,
    size_t len, const struct cgi_limits *lim, struct dl_error *e)
{
	size_t tlen;
	char *boundary;
	int status;

	if (content_type == NULL)
		return dl_error_set(e, DL_ERR_INPUT, "a body without its type"), CGI_UNSUPPORTED;
	tlen = strcspn(content_type, "; \t");
	if (tlen == 33 && strncasecmp(content_type, "application/x-www-form-urlencoded", 33) == 0)
		return cgi_parse_urlencoded(form, body, len, lim, e);
	if (tlen != 19 || strncasecmp(content_type, "multipart/form-data", 19) != 0)
		return dl_error_set(e, DL_ERR_INPUT, "a body of a type other than a form's"),
		    CGI_UNSUPPORTED;
	boundary = header_parameter(content_type + tlen, strlen(content_type + tlen), "boundary");
	/* RFC 2046: 1 to 70 characters */
	if (boundary == NULL || *boundary == '\0' || strlen(boundary) > 70) {
		free(boundary);
		return dl_error_set(e, DL_ERR_INPUT, "a multipart body without a boundary of 1 to "
		    "70 characters"), CGI_BAD_REQUEST;
	}
	status = parse_multipart(form, boundary, body, len, lim, e);
	free(boundary);
	return status;
}

const struct cgi_field *
cgi_field(const struct cgi_form *form, const char *name)
{
	for (size_t i = 0; i < form->n; i++)
		if (strcmp(form->fields[i].name, name) == 0)
			return &form->fields[i];
	return NULL;
}

void
cgi_form_free(struct cgi_form *form)
{
	for (size_t i = 0; i < form->n; i++) {
		free(form->fields[i].name);
		/* a field may be the director's entropy */
		sodium_memzero(form->fields[i].value, form->fields[i].len);
		free(form->fields[i].value);
		free(form->fields[i].filename);
	}
	free(form->fields);
	form->fields = NULL;
	form->n = 0;
}
