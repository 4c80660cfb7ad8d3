/* GET: the page of the forms, each drawn by its table (form.c): the
 * dealing form, then a file to check, a file for a hand record, a set
 * played. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "tool.h"
#include "page.h"

/* One form's fields, filled from sent and marked from errs when they are
 * this form's (else blank). */
static void
put_fields(const struct form_table *t, const struct form_table *filled,
    const struct cgi_form *sent, const struct form_errors *errs, const struct writer_names *w)
{
	printf("<input type=\"hidden\" name=\"form\" value=\"%s\">\n", t->form);
	for (int f = 0; f < t->n; f++)
		put_field(t, f, t == filled ? sent : NULL, t == filled ? errs : NULL, w);
}

/* The page of the forms: blank (sent NULL), the dealing form filled from
 * a query ("Deal another session"), or the form a request filled (errs's
 * table), with its errors and a summary of them under heading (NULL: the
 * fields to put right), the others blank. */
void
put_form_page(const struct cgi_form *sent, const struct form_errors *errs, const char *heading)
{
	const struct form_table *filled = errs != NULL ? errs->table : &deal_form;
	struct writer_names w;

	collect_writers(&w);
	page_begin("Deal a session");
	if (errs != NULL && errs->n > 0) {
		printf("<div class=\"error-summary\" role=\"alert\" aria-labelledby=\"error-summary-title\">\n"
		    "<h2 id=\"error-summary-title\">");
		if (heading != NULL)
			printf("%s", heading);
		else
			printf("%s: %zu field%s to put right", filled->not_done, errs->n,
			    errs->n == 1 ? "" : "s");
		printf("</h2>\n<ul>\n");
		/* in the form's order, each its whole line, linked to its field */
		for (int f = 0; f < filled->n; f++)
			for (size_t i = 0; i < errs->n; i++) {
				if (errs->e[i].field != f)
					continue;
				printf("<li><a href=\"#");
				put_field_id(filled, f);
				printf("\">");
				put_error_line(errs, i);
				printf("</a></li>\n");
			}
		printf("</ul>\n</div>\n");
	}
	printf("<form method=\"post\" enctype=\"multipart/form-data\">\n");
	put_once_field(sent);
	put_fields(&deal_form, filled, sent, errs, &w);
	printf("<button type=\"submit\">Deal, and show the hand record</button>"
	    "<button type=\"submit\" name=\"download\" value=\"zip\">Deal, and download"
	    " everything (zip)</button>\n"
	    "</form>\n"
	    "<h2 id=\"check\">Played before?</h2>\n"
	    "<form method=\"post\" enctype=\"multipart/form-data\">\n"
	    "<input type=\"hidden\" name=\"action\" value=\"check\">\n");
	put_fields(&check_form, filled, sent, errs, &w);
	printf("<button type=\"submit\">Check it against the archive</button>\n"
	    "</form>\n");
	/* after play: the hand record of the file the club's scoring
	 * program has (record) */
	printf("<h2 id=\"record\">A hand record from your scoring program's file</h2>\n"
	    "<p class=\"note\">After play: the session's file from your scoring program (PBN,"
	    " or any other format this page reads) made into the hand record to print or"
	    " publish, each board with its double-dummy tricks and par. The file is not"
	    " recorded in the archive, nor checked against it.</p>\n"
	    "<form method=\"post\" enctype=\"multipart/form-data\">\n"
	    "<input type=\"hidden\" name=\"action\" value=\"record\">\n");
	put_fields(&record_form, filled, sent, errs, &w);
	printf("<button type=\"submit\">Make the hand record</button>\n"
	    "</form>\n"
	    "<h2 id=\"played\">After the session</h2>\n"
	    "<form method=\"post\">\n"
	    "<input type=\"hidden\" name=\"action\" value=\"played\">\n");
	put_fields(&played_form, filled, sent, errs, &w);
	printf("<button type=\"submit\">Mark it played</button>\n"
	    "</form>\n"
	    "<p class=\"note\">Every set dealt here is recorded in the archive, with who dealt it"
	    " and when. The seed that regenerates a set is its own download (in the zip"
	    " only when the zip alone is asked for): keep it apart until the session is"
	    " played.</p>\n");
	printf("</main>\n</body>\n</html>\n");
}

/* A request a form's fields refuse (errs->table's): a script (no form=...)
 * is answered the first refusal's one line; the form itself, with status,
 * the page again, every field of the form holding what was sent (but a
 * file), each refused one marked and its error beside it, the page's
 * other forms blank, and a summary at the top (heading: NULL, the fields
 * to put right).  The log: what was refused, literals only. */
void __attribute__((noreturn))
refuse_fields(int status, const char *reason, const struct cgi_form *form,
    const struct form_errors *errs, const char *heading)
{
	/* a page that streams has its head out: one line ends it */
	if (stream_is_begun())
		refuse_logged(status, reason, errs->e[0].logged, "%s", errs->e[0].line);
	char logged[DL_ERROR_MAX] = "";

	if (cgi_field(form, "form") == NULL)
		refuse_logged(status, reason, errs->e[0].logged, "%s", errs->e[0].line);
	for (size_t i = 0; i < errs->n; i++) {
		if (i > 0)
			strlcat(logged, "; ", sizeof logged);
		strlcat(logged, errs->e[i].logged, sizeof logged);
	}
	tool_warn("%d %s: %s", status, reason, logged);
	head(status, reason, "text/html; charset=utf-8", status == 503 ? "Retry-After: 30\r\n" :
	    NULL);
	put_form_page(form, errs, heading);
	fflush(stdout);
	remove_workdir();
	exit(status >= 500 ? EXIT_TROUBLE : EXIT_REFUSED);
}

/* GET: the form, blank, or filled from its query string ("Deal another
 * session" links to it so), which holds no secret. */
void
form_page(int head_only)
{
	const char *query = getenv("QUERY_STRING");
	struct cgi_form sent = { 0 };
	struct dl_error e;
	int status;

	if (query != NULL && *query != '\0' &&
	    (status = cgi_parse_urlencoded(&sent, query, strlen(query), &limits, &e)) != 0)
		refuse_at(status, "the form's query string", &e);
	/* a hand record published after play, for the players */
	if (cgi_field(&sent, "record") != NULL) {
		published_page(&sent, head_only);
		cgi_form_free(&sent);
		return;
	}
	head(200, "OK", "text/html; charset=utf-8", NULL);
	if (!head_only)
		put_form_page(sent.n > 0 ? &sent : NULL, NULL, NULL);
	cgi_form_free(&sent);
}
