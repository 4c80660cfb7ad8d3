/* POST, action=played: a set marked played, and sent to the federation's
 * shared archive when one is named. */
#include <stdlib.h>
#include <string.h>

#include "archive/deal_archive.h"
#include "base/util.h"
#include "tool.h"
#include "page.h"

static int
put_sent(const struct archive_sent *sent, void *arg)
{
	(void)arg;
	printf("<p>Set %lld is in the federation's shared archive, as its set %lld%s.</p>\n",
	    (long long)sent->local_id, (long long)sent->shared_id,
	    sent->already ? " (it was there already)" : "");
	return 0;
}

/* The page that marks a set played, streamed while the set's hand record
 * for the players is solved. */
struct played_progress {
	long long id;
	struct progress_page page;
	int streamed;
};

static void
begin_progress(void *arg, unsigned long boards, unsigned low)
{
	struct played_progress *p = arg;
	char *doing = xasprintf("Set %lld is marked played. Making its hand record for the"
	    " players: solving", p->id);

	p->page.low = low;
	p->streamed = 1;
	stream_top("Played", doing, boards);
	free(doing);
}

/* A set marked played, and every set played sent to the federation's
 * shared archive when one is named (DL_SHARED_ARCHIVE), as the club
 * DL_CLUB names: the page says what happened to each. */
void
played(const struct cgi_form *form)
{
	const char *set = text_field(form, played_form.fields[P_SET].name), *errstr = NULL;
	struct form_errors errs = { .table = &played_form };
	const char *club = getenv("DL_CLUB");
	struct archive *a, *shared;
	struct dl_error e;
	char *spec, *shared_spec, *user;
	int shared_named;
	long long id = set != NULL ? strtonum(set, 1, INT64_MAX, &errstr) : 0;
	size_t sent;

	if (set == NULL || errstr != NULL) {
		field_error(&errs, P_SET, "the set played: a set's number, as the hand record gives"
		    " it", 1, "a set's number, as the hand record gives it");
		refuse_fields(400, "Bad Request", form, &errs, NULL);
	}
	if (club != NULL && *club == '\0')
		club = NULL;
	/* the shared archive's name (a connection string, perhaps with a
	 * password) is read when it is opened, after the set is marked */
	shared_named = getenv("DL_SHARED_ARCHIVE") != NULL && *getenv("DL_SHARED_ARCHIVE") != '\0';
	if (shared_named && club == NULL)
		refuse(500, "Internal Server Error", "no club named (DL_CLUB): the shared archive"
		    " must be told which club played a set");
	if (archive_default(&spec, &e) == -1 || archive_open(&a, spec, ARCHIVE_WRITE, &e) == -1)
		refuse_error(500, &e);
	free(spec);
	user = archive_user();
	switch (archive_mark_played(a, id, NULL, club, user, &e)) {
	case -1:
		refuse_error(500, &e);
	case 0:
		field_error(&errs, P_SET, "no set ... in the archive of sets dealt here", 0,
		    "no set %lld in the archive of sets dealt here", id);
		refuse_fields(400, "Bad Request", form, &errs, NULL);
	}
	free(user);
	/* its hand record published for the players, at the address its
	 * hand record and table cards print; the analysis waits for a core
	 * a minute at most, since players are waiting for it */
	struct archive_set played_set = { 0 };
	char *token = NULL, *address = NULL;
	switch (archive_set_get(a, id, &played_set, &e)) {
	case -1:
		refuse_error(500, &e);
	case 0:
		refuse(500, "Internal Server Error", "the set marked played is not in the archive");
	}
	token = record_token_of_set(&played_set);
	/* the analysis streams its progress (progress.c) */
	struct played_progress p = { id, { 1, 0 }, 0 };
	struct publish_watch watch = { begin_progress, &p, put_solved, &p.page };
	int published = publish_set(a, &played_set, token, 60, &watch);
	archive_set_clear(&played_set);
	address = record_address(token);
	if (p.streamed) {
		stream_done("Done.", 1);
		page_begin_in_body("Played");
	} else {
		head(200, "OK", "text/html; charset=utf-8", NULL);
		page_begin("Played");
	}
	printf("<p>Set %lld is marked played.</p>\n", id);
	if (address != NULL) {
		printf("<p>Its hand record is published for the players at <a");
		put_attr(stdout, "href", address);
		printf(">");
		put_html(stdout, address);
		printf("</a>, where the QR code on its hand record and table cards leads.</p>\n");
		if (published == -1)
			printf("<p>The server is busy: its hand record, with its double-dummy"
			    " analysis, is made when the address is first opened.</p>\n");
	}
	free(address);
	free(token);
	if (shared_named) {
		int r;

		archive_shared_default(&shared_spec);
		r = archive_open(&shared, shared_spec, ARCHIVE_WRITE, &e);

		freezero(shared_spec, strlen(shared_spec));
		if (r == 0) {
			r = archive_share(a, shared, club, put_sent, NULL, &sent, &e);
			archive_close(shared);
		}
		/* the cause to the server's log, the page plain: no host,
		 * port or user of the server on it */
		if (r == -1) {
			tool_warn("the shared archive: %s", e.msg);
			printf("<p><strong>The federation's shared archive could not be reached"
			    "</strong>: the set is kept to be sent, with any other set played, the"
			    " next time a set is marked played here (or by <code>dl-archive"
			    " sync</code>).</p>\n");
		}
	}
	page_end();
	archive_close(a);
}

