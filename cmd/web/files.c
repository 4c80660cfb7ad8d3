/* The answer's files: their names (the director's, or the event's and
 * the date's), each format's in the private folder, and the html hand
 * record made the page. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "files/plugins.h"
#include "base/util.h"
#include "page.h"

/* A file name the director chooses: letters, digits, . _ -, not
 * beginning with a dot, so that it names a file in the directory and
 * nothing else. */
int
prefix_is_valid(const char *p)
{
	size_t n = strlen(p);

	if (n == 0 || n > PREFIX_MAX || p[0] == '.' || p[0] == '-')
		return 0;
	return strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

/* The files' name when the form gives none: the event's and the session's
 * date ("monday-pairs-2026-11-30"), so that this week's files do not
 * overwrite last week's on a dealing machine's stick; "session-DATE"
 * without an event.  Letters and digits are kept (small), a Latin letter
 * with an accent as its letter, anything else one '-'; date_pbn is the
 * set's date in PBN's form (NULL: today's), a part of it not known left
 * out.  Always a name prefix_is_valid takes. */
void
file_name_of_event(const char *event, const char *date_pbn, char out[PREFIX_MAX + 1])
{
	/* UTF-8's C3 80 .. C3 BF: À .. ÿ, as ASCII (0: not a letter) */
	static const char *const latin1[64] = {
		"a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
		"d", "n", "o", "o", "o", "o", "o", 0, "o", "u", "u", "u", "u", "y", "th", "ss",
		"a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
		"d", "n", "o", "o", "o", "o", "o", 0, "o", "u", "u", "u", "u", "y", "th", "y",
	};
	/* room for "-" and the date */
	size_t at = 0, most = PREFIX_MAX - 11;
	char date[11];

	for (const unsigned char *p = (const unsigned char *)(event != NULL ? event : "session");
	    *p != '\0' && at < most; p++) {
		const char *letters = NULL;
		char one[2] = { 0 };

		if (isascii(*p) && isalnum(*p)) {
			one[0] = (char)tolower(*p);
			letters = one;
		} else if (*p == 0xc3 && p[1] >= 0x80 && p[1] <= 0xbf)
			letters = latin1[*++p - 0x80];
		if (letters == NULL) {
			if (at > 0 && out[at - 1] != '-')
				out[at++] = '-';
			continue;
		}
		for (; *letters != '\0' && at < most; letters++)
			out[at++] = *letters;
	}
	while (at > 0 && out[at - 1] == '-')
		at--;
	if (at == 0) {
		strcpy(out, "session");
		at = strlen(out);
	}
	if (date_pbn == NULL) {
		time_t now = time(NULL);
		struct tm tm;

		strftime(date, sizeof date, "%Y.%m.%d", localtime_r(&now, &tm));
		date_pbn = date;
	}
	/* "2026.11.30" as "2026-11-30"; a part not known ("?") left out */
	out[at++] = '-';
	for (const char *d = date_pbn; *d != '\0' && at < PREFIX_MAX; d++)
		if (isdigit((unsigned char)*d))
			out[at++] = *d;
		else if (out[at - 1] != '-')
			out[at++] = '-';
	while (out[at - 1] == '-')
		at--;
	out[at] = '\0';
}

void
add_format(struct format_list *list, const char *name)
{
	for (size_t i = 0; i < list->n; i++)
		if (strcmp(list->names[i], name) == 0)
			return;
	list->names = xreallocarray(list->names, list->n + 1, sizeof *list->names);
	list->names[list->n++] = xstrdup(name);
}

/* The html hand record at path as the page, with above it what the
 * director needs (aside(arg) writes it: links, not printed).  streamed:
 * the response's head and the document's (<head>, <body>) are out
 * already (page_deal.c's progress), so that the hand record's own head
 * gives its styles alone, in the body, and the page stays one document. */
void
put_hand_record_page(const char *path, const char *label, void (*aside)(void *arg), void *arg,
    int streamed)
{
	size_t page_len;
	char *page = read_work_file(path, &page_len);
	char *body = strstr(page, "<body");
	char *after = body != NULL ? strchr(body, '>') : NULL;

	if (after == NULL)
		refuse(500, "Internal Server Error", "the hand record has no body");
	after++;
	if (!streamed) {
		head(200, "OK", "text/html; charset=utf-8", NULL);
		fwrite(page, 1, (size_t)(after - page), stdout);
	} else
		/* the styles of its head, which the browser applies as
		 * those of the head */
		for (char *style = page; (style = strstr(style, "<style")) != NULL && style < body;) {
			char *end = strstr(style, "</style>");

			if (end == NULL || end > body)
				break;
			end += strlen("</style>");
			fwrite(style, 1, (size_t)(end - style), stdout);
			fputc('\n', stdout);
			style = end;
		}
	printf("\n<style>.dl-web { font-family: 'DejaVu Sans', sans-serif; background: #fffbe6;"
	    " border: 1px solid #c9b458; margin: 8px; padding: 8px 12px; }"
	    /* a button as large as a finger needs (WCAG 2.2's target size) */
	    " .dl-web button { font: inherit; padding: .5rem 1rem; margin: .5rem 0; }"
	    " @media print { .dl-web { display: none; } }</style>\n"
	    "<aside class=\"dl-web\" aria-label=\"%s\">\n", label);
	aside(arg);
	printf("</aside>\n");
	fputs(after, stdout);
	sodium_memzero(page, page_len);
	free(page);
}

/* The file a format writes in the private directory, PREFIX.SUFFIX (its
 * name into *name, the caller's to free), registered to be removed. */
char *
format_work_file(const char *format, const char *prefix, char **name)
{
	struct loaded_plugin lp;
	struct dl_error e;
	char *path;

	if (plugin_load(format, &lp, &e) == -1)
		refuse_at(500, "the formats: loaded again", &e);
	*name = xasprintf("%s.%s", prefix, lp.plugin->suffix);
	path = work_file(*name);
	plugin_unload(&lp);
	return path;
}
