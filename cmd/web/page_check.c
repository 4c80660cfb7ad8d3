/* POST, action=check: "Played before?", a file of any format checked
 * against the archive of every set dealt here, and the federation's when
 * one is named, by the code dl-archive check runs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "archive/deal_archive.h"
#include "base/util.h"
#include "tool.h"
#include "page.h"

/* check */

/* A set whose boards were dealt before, said under the verdict, where a
 * phone shows it (the table's Played column is off its screen): at most
 * FOUND_MAX, the others in the table alone. */
#define FOUND_MAX 8
struct found_set {
	int shared;
	int64_t set;
	char *words;		/* "set 2, played here on 2026-11-28": escaped */
};

struct check_page {
	FILE *out;		/* the table's rows, shown after the verdict */
	size_t hits;
	struct archive *a;
	unsigned *board_numbers;
	struct archive_verdict verdict;
	/* the club's own set of the hits last shown: whether and when it
	 * was played, asked of the club's archive once a set */
	int64_t set;
	int set_played;
	char played[ARCHIVE_TIME_SIZE];
	struct found_set found[FOUND_MAX];
	size_t n_found;
	int more_found;
};

/* "Played" for a hit: the club that played a shared set; for a set of
 * the club's own archive, when it was played, or that it was dealt here
 * and is not yet played (a seed used twice, or the same set dealt
 * again). */
static void
put_played(struct check_page *c, const struct archive_hit *hit)
{
	struct archive_set set;
	struct dl_error e;

	if (hit->shared || c->a == NULL) {
		put_html(c->out, hit->club != NULL ? hit->club : "");
		return;
	}
	if (hit->set != c->set) {
		c->set = hit->set;
		c->set_played = -1;
		switch (archive_set_get(c->a, hit->set, &set, &e)) {
		case 1:
			c->set_played = set.played[0] != '\0';
			/* the day of the time, "2026-11-25T20:30:00Z" */
			snprintf(c->played, sizeof c->played, "%.10s", set.played);
			archive_set_clear(&set);
			break;
		case -1:
			/* the hit is shown all the same, without it */
			tool_warn("the archive: %s", e.msg);
			break;
		}
	}
	if (c->set_played == 1) {
		fprintf(c->out, "here, ");
		put_html(c->out, c->played);
	} else if (c->set_played == 0)
		fprintf(c->out, "<strong>not yet: dealt here</strong>");
}

/* The set of a hit that counts, said once under the verdict: for a set of
 * the club's own, whether and when it was played (put_played has just
 * asked), for a shared one the club that played it. */
static void
note_found(struct check_page *c, const struct archive_hit *hit)
{
	int shared = hit->shared || c->a == NULL;
	char *words = NULL;
	size_t len = 0;
	FILE *m;

	for (size_t i = 0; i < c->n_found; i++)
		if (c->found[i].shared == shared && c->found[i].set == hit->set)
			return;
	if (c->n_found == FOUND_MAX) {
		c->more_found = 1;
		return;
	}
	if ((m = open_memstream(&words, &len)) == NULL)
		return;
	fprintf(m, "%sset %lld", shared ? "shared " : "", (long long)hit->set);
	if (shared && hit->club != NULL) {
		fputs(", played by ", m);
		put_html(m, hit->club);
	} else if (!shared && c->set_played == 1) {
		fputs(", played here on ", m);
		put_html(m, c->played);
	} else if (!shared && c->set_played == 0)
		fputs(", dealt here and not yet played", m);
	if (fclose(m) != 0) {
		free(words);
		return;
	}
	c->found[c->n_found].shared = shared;
	c->found[c->n_found].set = hit->set;
	c->found[c->n_found++].words = words;
}

static int
put_hit(size_t index, const struct archive_hit *hit, void *arg)
{
	struct check_page *c = arg;

	archive_verdict_add(&c->verdict, index, hit);
	if (c->hits++ == 0)
		fprintf(c->out, "<div class=\"wide\">\n<table>\n<caption>Boards seen before</caption>\n<tr><th scope=\"col\">Board"
		    "</th><th scope=\"col\">How</th><th scope=\"col\">Set</th><th scope=\"col\">"
		    "Its board</th><th scope=\"col\">Event</th><th scope=\"col\">Date</th>"
		    "<th scope=\"col\">Played</th></tr>\n");
	/* a set of the federation's shared archive, or of this club's own */
	fprintf(c->out, "<tr><td>%u</td><td>%s</td><td>%s%lld</td><td>",
	    c->board_numbers[index], archive_match_kind(hit->match)->words,
	    hit->shared ? "shared&nbsp;" : "", (long long)hit->set);
	/* a shared archive's hit of one hand names its set alone, and no
	 * words (docs/archive.md, "Privacy") */
	if (hit->board != 0)
		fprintf(c->out, "%u", hit->board);
	fprintf(c->out, "</td><td>");
	put_html(c->out, hit->event != NULL ? hit->event : "");
	fprintf(c->out, "</td><td>");
	put_html(c->out, hit->date != NULL ? hit->date : "");
	fprintf(c->out, "</td><td>");
	put_played(c, hit);
	fprintf(c->out, "</td></tr>\n");
	if (archive_match_kind(hit->match)->dealt_before)
		note_found(c, hit);
	return 0;
}

static const struct upload_words check_upload = {
	"no file to check", "the file to check: not of a format dl reads",
	"the file to check: not read",
};

/* The federation's archive could not be opened: its cause (a host, a
 * port) to the server's log only, the page plain: from the form, the form
 * again, the file to send again. */
static void __attribute__((noreturn))
shared_unreachable(const struct cgi_form *form, const struct dl_error *e, const char *words)
{
	struct form_errors errs = { .table = &check_form };

	tool_warn("the shared archive: %s", e->msg);
	field_error(&errs, C_FILE, "the shared archive could not be opened", 0, "%s", words);
	refuse_fields(503, "Service Unavailable", form, &errs, "Nothing was checked: the"
	    " federation's shared archive could not be read");
}

void
check(const struct cgi_form *form)
{
	const struct cgi_field *file = cgi_field(form, check_form.fields[C_FILE].name);
	struct form_errors errs = { .table = &check_form };
	struct dl_error e;
	struct set_boards u = { 0 };
	struct set_input in;
	struct archive *a, *shared = NULL;
	char *spec, *shared_spec;
	/* read as dl-archive check reads a file: the same code */
	char *path = read_upload(form, &errs, C_FILE, &check_upload, &in, &u);

	if (path == NULL)
		refuse_fields(400, "Bad Request", form, &errs, NULL);

	if (archive_default(&spec, &e) == -1)
		refuse_error(500, &e);
	/* and the federation's, when one is named: one report of both; a
	 * club that has dealt nothing here yet has no archive of its own */
	archive_shared_default(&shared_spec);
	if (archive_open(&a, spec, 0, &e) == -1) {
		if (e.errnum != ENOENT || shared_spec == NULL) {
			if (shared_spec != NULL)
				freezero(shared_spec, strlen(shared_spec));
			refuse_error(500, &e);
		}
		a = NULL;
	}
	free(spec);
	if (shared_spec != NULL) {
		int opened = archive_open(&shared, shared_spec, 0, &e);

		freezero(shared_spec, strlen(shared_spec));
		if (opened == -1)
			shared_unreachable(form, &e, "the shared archive could not be read: the file was not"
			    " checked");
	}
	/* the set itself, recorded here when it was dealt, is no set played
	 * before until it is played (as dl-archive check) */
	int64_t self = 0;
	struct archive_set self_set = { 0 };
	if (a != NULL && (archive_unplayed_self(a, u.numbers, (const unsigned char (*)[CARDS])u.owner,
	    u.n, &self, &e) == -1 || (self != 0 && archive_set_get(a, self, &self_set, &e) == -1)))
		refuse_error(500, &e);
	head(200, "OK", "text/html; charset=utf-8", NULL);
	page_begin("Played before?");
	printf("<p>");
	put_html(stdout, file->filename);
	printf(": %zu board%s.</p>\n", u.n, u.n == 1 ? "" : "s");
	if (self != 0) {
		char day[11];

		/* the day of its time, "2026-11-25T20:30:00Z" */
		snprintf(day, sizeof day, "%.10s", self_set.archived);
		printf("<p>This is set %lld, dealt here on %s and not yet played: it is not compared"
		    " with itself. Mark it played after the session.</p>\n", (long long)self, day);
		archive_set_clear(&self_set);
	}
	/* the verdict first, where a phone shows it, then the boards seen
	 * before, kept aside until it is known */
	char *rows = NULL;
	size_t rows_len = 0;
	struct check_page c = { .a = a, .board_numbers = u.numbers };
	if ((c.out = open_memstream(&rows, &rows_len)) == NULL)
		refuse(500, "Internal Server Error", "no memory for the check's table");
	int checked = archive_check_both(a, shared, (const unsigned char (*)[CARDS])u.owner, u.n,
	    self, 0, put_hit, &c, &e);
	if (fclose(c.out) != 0)
		refuse(500, "Internal Server Error", "no memory for the check's table");
	if (checked == -1) {
		printf("<p>The archive could not be read: ");
		put_html(stdout, e.msg);
		printf("</p>\n");
	} else if (c.hits == 0)
		printf("<p>No board of it was seen before.</p>\n");
	else {
		/* the verdict, by the archive's one rule: a hand held before
		 * by chance is listed, but is no board dealt before */
		if (c.verdict.dealt_before > 0) {
			printf("<p><strong>Dealt before: %zu of its %zu boards.</strong></p>\n",
			    c.verdict.dealt_before, u.n);
			if (c.n_found > 0) {
				printf("<p>Its boards dealt before are in ");
				for (size_t i = 0; i < c.n_found; i++)
					printf("%s%s", i > 0 ? "; " : "", c.found[i].words);
				printf("%s.</p>\n", c.more_found ? "; and other sets (below)" : "");
			}
		} else
			printf("<p><strong>None of its %zu boards was dealt before</strong>: the"
			    " hands below were held before by chance, as one in a session is"
			    " in a large archive.</p>\n", u.n);
		fwrite(rows, 1, rows_len, stdout);
		printf("</table>\n</div>\n");
	}
	free(rows);
	for (size_t i = 0; i < c.n_found; i++)
		free(c.found[i].words);
	page_end();
	if (a != NULL)
		archive_close(a);
	if (shared != NULL)
		archive_close(shared);
	set_input_free(&in);
	set_boards_free(&u);
	free(path);
}
