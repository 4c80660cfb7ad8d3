/* A CGI request's form (RFC 3875): the fields of a query string, of an
 * application/x-www-form-urlencoded body, or of a multipart/form-data
 * body (RFC 7578), each checked against limits before anything is kept.
 * dl-web's only parser of what a browser or a script sends: fuzzed
 * (t/fuzz/fuzz_cgi.c).
 *
 * Threads: every function may run on several threads, each on its own
 * request. */
#ifndef DL_CGI_H
#define DL_CGI_H

#include <stddef.h>

#include "base/error.h"

struct cgi_field {
	char *name;		/* NUL-terminated; no NUL inside */
	char *value;		/* len bytes, NUL-terminated after them; a file's */
	size_t len;		/*   may hold NUL bytes, a text field's not */
	char *filename;		/* a file's name as sent, or NULL */
};

struct cgi_form {
	struct cgi_field *fields;
	size_t n;
};

struct cgi_limits {
	size_t fields;		/* at most this many fields */
	size_t name;		/* bytes of a field's name */
	size_t value;		/* bytes of a text field's value */
	size_t file;		/* bytes of a file's */
};

/* What a request that cannot be taken is answered with: the HTTP status,
 * beside the error's message. */
enum cgi_status {
	CGI_BAD_REQUEST = 400,
	CGI_TOO_LARGE = 413,
	CGI_UNSUPPORTED = 415,
};

/* The fields of a query string or of a urlencoded body ("a=1&b=x+y%21"),
 * added to form.  0, or a status with *e set: a bad escape, a NUL byte, a
 * field too long, too many fields. */
int cgi_parse_urlencoded(struct cgi_form *form, const char *text, size_t len,
    const struct cgi_limits *lim, struct dl_error *e);
/* A body as its Content-Type says: urlencoded or multipart/form-data
 * (its boundary from the type's parameter).  CGI_UNSUPPORTED for any
 * other type. */
int cgi_parse_body(struct cgi_form *form, const char *content_type, const char *body,
    size_t len, const struct cgi_limits *lim, struct dl_error *e);

/* The first field of that name, or NULL. */
const struct cgi_field *cgi_field(const struct cgi_form *form, const char *name);
void cgi_form_free(struct cgi_form *form);

#endif
