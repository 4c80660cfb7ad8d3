/* dl-web's form parser (lib/web/cgi.c): the input's first line is the
 * request's Content-Type, the rest its body.  A form taken keeps the
 * limits (no more fields than allowed, no name or value longer, no NUL in
 * a text value) and its fields come back the same when encoded again as
 * a urlencoded body and parsed; a form refused says so with an HTTP
 * status of a refusal and a message that keeps the contract. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/cgi.h"
#include "fuzz.h"
#include "base/util.h"

static const struct cgi_limits limits = { .fields = 16, .name = 32, .value = 256, .file = 4096 };

/* The value %-escaped, every byte but a letter or a digit. */
static void
encode(FILE *fp, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
			fputc(c, fp);
		else
			fprintf(fp, "%%%02X", c);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *type, *body;
	size_t type_size, body_size;
	struct cgi_form form = { 0 }, again = { 0 };
	struct dl_error e;
	char *content_type, *text = NULL;
	size_t text_size = 0;
	FILE *fp;
	int status;

	if (fuzz_split(data, size, "\n", &type, &type_size, &body, &body_size) == -1)
		return 0;
	content_type = fuzz_string(type, type_size);
	dl_error_clear(&e);
	status = cgi_parse_body(&form, content_type, (const char *)body, body_size, &limits, &e);
	if (status != 0) {
		if (status != CGI_BAD_REQUEST && status != CGI_TOO_LARGE && status != CGI_UNSUPPORTED)
			fuzz_fail("refused with status %d", status);
		if (e.kind != DL_ERR_INPUT)
			fuzz_fail("refused as an error of kind %d", e.kind);
		fuzz_check_error(&e, "cgi_parse_body");
		goto out;
	}
	if (form.n > limits.fields)
		fuzz_fail("%zu fields, over the limit", form.n);
	for (size_t i = 0; i < form.n; i++) {
		const struct cgi_field *f = &form.fields[i];

		if (strlen(f->name) > limits.name)
			fuzz_fail("a name over the limit");
		if (f->value[f->len] != '\0')
			fuzz_fail("a value not NUL-terminated");
		if (f->filename == NULL && (f->len > limits.value || strlen(f->value) != f->len))
			fuzz_fail("a text value over the limit, or with a NUL byte");
		if (f->filename != NULL && f->len > limits.file)
			fuzz_fail("a file over the limit");
	}
	/* the text fields, encoded again, read back the same */
	fp = open_memstream(&text, &text_size);
	if (fp == NULL)
		fuzz_fail("open_memstream");
	for (size_t i = 0, n = 0; i < form.n; i++) {
		if (form.fields[i].filename != NULL)
			continue;
		if (n++ > 0)
			fputc('&', fp);
		encode(fp, form.fields[i].name, strlen(form.fields[i].name));
		fputc('=', fp);
		encode(fp, form.fields[i].value, form.fields[i].len);
	}
	fclose(fp);
	/* an encoded value is up to three bytes a byte: the limits are the
	 * decoded bytes' */
	if (cgi_parse_urlencoded(&again, text, text_size, &limits, &e) != 0)
		fuzz_fail("the form encoded again is refused: %s", e.msg);
	for (size_t i = 0, j = 0; i < form.n; i++) {
		if (form.fields[i].filename != NULL)
			continue;
		if (j >= again.n || strcmp(again.fields[j].name, form.fields[i].name) != 0 ||
		    again.fields[j].len != form.fields[i].len ||
		    memcmp(again.fields[j].value, form.fields[i].value, form.fields[i].len) != 0)
			fuzz_fail("field %zu reads back otherwise", i);
		j++;
	}
out:
	cgi_form_free(&form);
	cgi_form_free(&again);
	free(text);
	free(content_type);
	return 0;
}
