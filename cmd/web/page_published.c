/* GET ?record=TOKEN: the hand record of a set played, for the players,
 * at the address its hand record and table cards print as a QR code
 * (publish.c).  Before the set is played the address answers as an
 * address of no set does, so that it tells nothing of a set to come;
 * ?record=TOKEN&file=pdf gives the PDF. */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "archive/deal_archive.h"
#include "base/util.h"
#include "page.h"

static void __attribute__((noreturn))
not_published(void)
{
	refuse_logged(404, "Not Found", "a hand record not published (no such set, or not played)",
	    "no hand record is published at this address yet: a set's hand record appears"
	    " here once its session is played. Come back after the session.");
}

/* What the published page says above its hand record. */
struct published_aside {
	const struct archive_set *set;
	const char *token;
};

static void
put_published_aside(void *arg)
{
	const struct published_aside *p = arg;
	const char *self = getenv("SCRIPT_NAME");
	char day[11];

	snprintf(day, sizeof day, "%.10s", p->set->played);
	printf("<p>The hand record of set %lld, played on %s.</p>\n<p><a href=\"",
	    (long long)p->set->id, day);
	put_html(stdout, self != NULL && *self == '/' ? self : "./");
	printf("?record=%s&amp;file=pdf\" download>Download it as a PDF</a></p>\n", p->token);
}

void
published_page(const struct cgi_form *query, int head_only)
{
	const char *token = text_field(query, "record"), *file = text_field(query, "file");
	struct archive *a;
	struct archive_set set = { 0 };
	struct dl_error e;
	char *spec;
	int64_t id;

	request_step = "a hand record published";
	/* every answer before the set is found played is the one of no set
	 * at all, whatever the token: a token given to a set to come must
	 * tell nothing of it */
	if (token == NULL || !record_token_is_valid(token) || (file != NULL &&
	    strcmp(file, "pdf") != 0))
		not_published();
	if (archive_default(&spec, &e) == -1 || archive_open(&a, spec, 0, &e) == -1)
		refuse_error(500, &e);
	free(spec);
	if (!record_token_set(a, token, &set) || set.played[0] == '\0')
		not_published();
	/* played, but marked so elsewhere (dl-archive played), or when every
	 * core was busy: made now, for the first player to ask, with the
	 * analysis; another player asking meanwhile waits for it */
	if (publish_set(a, &set, token, 20, NULL) == -1)
		refuse_logged(503, "Service Unavailable", "a hand record published: every core busy",
		    "the hand record is being made, and every core of the server is busy: try"
		    " again in a minute.");
	archive_close(a);
	id = set.id;
	char *path = published_file(token, file != NULL ? "pdf" : "html");
	if (file != NULL) {
		size_t len;
		char *pdf = read_work_file(path, &len);
		char *extra = xasprintf("Content-Disposition: attachment; filename=\"set-%lld.pdf\"\r\n"
		    "Content-Length: %zu\r\n", (long long)id, len);

		head(200, "OK", "application/pdf", extra);
		if (!head_only)
			fwrite(pdf, 1, len, stdout);
		free(extra);
		free(pdf);
	} else if (head_only)
		head(200, "OK", "text/html; charset=utf-8", NULL);
	else {
		struct published_aside p = { &set, token };

		put_hand_record_page(path, "This hand record", put_published_aside, &p, 0);
	}
	free(path);
	archive_set_clear(&set);
}
