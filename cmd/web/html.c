/* HTML as cgit writes it: text and attributes escaped by one function
 * each, the response's head, the frame of every page. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "base/util.h"
#include "page.h"

/* Text as HTML: & < > " ' escaped; a control byte as its code. */
void
put_html(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++)
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		default:
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				fprintf(fp, "&#%d;", *s);
			else
				fputc(*s, fp);
		}
}

/* The response's head: every answer is private and not to be kept. */
void
head(int status, const char *reason, const char *type, const char *extra)
{
	printf("Status: %d %s\r\n"
	    "Content-Type: %s\r\n"
	    "Cache-Control: no-store\r\n"
	    "X-Content-Type-Options: nosniff\r\n"
	    "Referrer-Policy: same-origin\r\n"
	    "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; "
	    "img-src data:; form-action 'self'; frame-ancestors 'none'\r\n"
	    "%s\r\n", status, reason, type, extra != NULL ? extra : "");
}

static const char page_style[] =
    "body { font-family: 'DejaVu Sans', sans-serif; margin: 0; background: #f6f6f2; color: #111; }\n"
    /* an address (a hand record's, 80 characters of no space) wraps on a phone */
    "main { max-width: 44rem; margin: 0 auto; padding: 1rem; overflow-wrap: anywhere; }\n"
    "h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2rem; }\n"
    "label { display: block; margin: .6rem 0 .2rem; font-weight: bold; }\n"
    "input[type=text], input[type=number], input[type=date], textarea, select { width: 100%;"
    " box-sizing: border-box; font: inherit; padding: .4rem; }\n"
    "label small { font-weight: normal; color: #444; } .nowrap { white-space: nowrap; }\n"
    "fieldset { margin: .8rem 0; display: grid; grid-template-columns: repeat(auto-fill,"
    " minmax(13rem, 1fr)); gap: 0 1rem; }\n"
    "fieldset label { font-weight: normal; margin: .25rem 0; }\n"
    "fieldset small { color: #555; }\n"
    "button { font: inherit; padding: .5rem 1rem; margin: 1rem .5rem 0 0; }\n"
    ".note { color: #444; font-size: .9rem; }\n"
    /* a field refused: its message after its label, its box red, and a
     * summary at the top linking to each */
    ".error { color: #b00020; font-weight: bold; margin: .2rem 0; }\n"
    "[aria-invalid=true] { border: 3px solid #b00020; }\n"
    "input[type=checkbox][aria-invalid=true] { outline: 3px solid #b00020; }\n"
    ".error-summary { border: 4px solid #b00020; background: #fff; padding: .2rem 1rem;"
    " margin: 1rem 0; }\n"
    ".error-summary h2 { margin-top: .6rem; } .error-summary a { color: #b00020; }\n"
    ".visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden;"
    " clip: rect(0 0 0 0); white-space: nowrap; }\n"
    "table { border-collapse: collapse; } td, th { border: 1px solid #999; padding: .2rem .5rem; }\n"
    /* a table wider than a phone scrolls in its own box, the page not */
    ".wide { overflow-x: auto; }\n"
    /* its caption where a phone shows it, not in the middle of the table */
    "caption { text-align: left; font-weight: bold; }\n"
    /* the check's days (its Date and Played columns) each on one line */
    ".wide td:nth-child(n+6) { white-space: nowrap; }\n";

void
page_begin(const char *title)
{
	printf("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	    "<title>");
	put_html(stdout, title);
	printf("</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<h1>", page_style);
	put_html(stdout, title);
	printf("</h1>\n");
}

/* The same page in a document whose head is out already (a page that
 * streamed its progress: progress.c): its style, its heading. */
void
page_begin_in_body(const char *title)
{
	printf("<style>\n%s</style>\n<main>\n<h1>", page_style);
	put_html(stdout, title);
	printf("</h1>\n");
}

/* "Deal another session": the blank form. */
void
put_again_plain(void)
{
	const char *self = getenv("SCRIPT_NAME");

	printf("<p><a href=\"");
	put_html(stdout, self != NULL && *self == '/' ? self : "./");
	printf("\">Deal another session</a></p>\n");
}

void
page_end(void)
{
	put_again_plain();
	printf("</main>\n</body>\n</html>\n");
}

/* An attribute, name="value": the value is text (a request's, a
 * plugin's), escaped as put_html escapes it; the name a literal. */
void
put_attr(FILE *fp, const char *name, const char *value)
{
	fprintf(fp, " %s=\"", name);
	put_html(fp, value);
	fputc('"', fp);
}

/* Text with its first letter a capital (a message beside its field). */
void
put_html_sentence(FILE *fp, const char *s)
{
	if (*s >= 'a' && *s <= 'z') {
		fputc(*s - 'a' + 'A', fp);
		s++;
	}
	put_html(fp, s);
}

/* A value in a query string: RFC 3986's unreserved bytes as they are,
 * every other as %XX. */
void
put_query_value(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++)
		if (isascii((unsigned char)*s) && (isalnum((unsigned char)*s) || strchr("-._~", *s)))
			fputc(*s, fp);
		else
			fprintf(fp, "%%%02X", (unsigned char)*s);
}

static void
put_base64(FILE *fp, const void *data, size_t len)
{
	size_t out = sodium_base64_ENCODED_LEN(len, sodium_base64_VARIANT_ORIGINAL);
	char *text = xmalloc(out);

	sodium_bin2base64(text, out, data, len, sodium_base64_VARIANT_ORIGINAL);
	fputs(text, fp);
	sodium_memzero(text, out);
	free(text);
}

/* A link that saves a file the page holds itself, <a download=NAME
 * href="data:TYPE;base64,...">, left open for its words: the file is in
 * this one response and nowhere else. */
void
put_data_link(const char *type, const char *name, const void *data, size_t len)
{
	printf("<a");
	put_attr(stdout, "download", name);
	printf(" href=\"data:%s;base64,", type);
	put_base64(stdout, data, len);
	printf("\">");
}
