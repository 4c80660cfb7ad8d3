/* GET: the page of the forms, the dealing form drawn by its table
 * (form.c), the others (a file to check, a file for a hand record, a set
 * played) after it. */
#include <stdlib.h>
#include <string.h>

#include "page.h"

/* The page of the form: blank (sent NULL), filled from a query ("Deal
 * another session"), or the form a request filled, with its errors and a
 * summary of them under heading (NULL: the fields to put right). */
void
put_form_page(const struct cgi_form *sent, const struct form_errors *errs, const char *heading)
{
	struct writer_names w;

	collect_writers(&w);
	page_begin("Deal a session");
	if (errs != NULL && errs->n > 0) {
		printf("<div class=\"error-summary\" role=\"alert\" aria-labelledby=\"error-summary-title\">\n"
		    "<h2 id=\"error-summary-title\">");
		if (heading != NULL)
			printf("%s", heading);
		else
			printf("Nothing was dealt: %zu field%s to put right", errs->n,
			    errs->n == 1 ? "" : "s");
		printf("</h2>\n<ul>\n");
		/* in the form's order, each its whole line, linked to its field */
		for (int f = 0; f < F_COUNT; f++)
			for (size_t i = 0; i < errs->n; i++) {
				if (errs->e[i].field != f)
					continue;
				printf("<li><a href=\"#%s\">", field_anchor(f));
				put_html_sentence(stdout, errs->e[i].line);
				printf("</a></li>\n");
			}
		printf("</ul>\n</div>\n");
	}
	printf("<form method=\"post\" enctype=\"multipart/form-data\">\n"
	    "<input type=\"hidden\" name=\"form\" value=\"deal\">\n");
	put_once_field(sent);
	for (int f = 0; f < F_COUNT; f++)
		put_field(f, sent, errs, &w);
	printf("<button type=\"submit\">Deal, and show the hand record</button>"
	    "<button type=\"submit\" name=\"download\" value=\"zip\">Deal, and download"
	    " everything (zip)</button>\n"
	    "</form>\n"
	    "<h2>Played before?</h2>\n"
	    "<form method=\"post\" enctype=\"multipart/form-data\">\n"
	    "<input type=\"hidden\" name=\"action\" value=\"check\">\n"
	    "<label for=\"file\">A deal file of any format</label>"
	    "<input type=\"file\" id=\"file\" name=\"file\">\n"
	    "<button type=\"submit\">Check it against the archive</button>\n"
	    "</form>\n");
	/* after play: the hand record of the file the club's scoring
	 * program has (record) */
	printf("<h2 id=\"record\">A hand record from your scoring program's file</h2>\n"
	    "<p class=\"note\">After play: the session's file from your scoring program (PBN,"
	    " or any other format this page reads) made into the hand record to print or"
	    " publish, each board with its double-dummy tricks and par. The file is not"
	    " recorded in the archive, nor checked against it.</p>\n"
	    "<form method=\"post\" enctype=\"multipart/form-data\">\n"
	    "<input type=\"hidden\" name=\"action\" value=\"record\">\n"
	    "<label for=\"record-file\">The session's file</label>"
	    "<input type=\"file\" id=\"record-file\" name=\"file\" required>\n"
	    "<label for=\"record-paper\">%s</label><select id=\"record-paper\" name=\"%s\">",
	    deal_fields[F_PAPER].label, deal_fields[F_PAPER].name);
	put_options(&deal_fields[F_PAPER], NULL);
	printf("</select>\n<label for=\"record-per-page\">%s</label><select id=\"record-per-page\""
	    " name=\"%s\">", deal_fields[F_PER_PAGE].label, deal_fields[F_PER_PAGE].name);
	put_options(&deal_fields[F_PER_PAGE], NULL);
	printf("</select>\n"
	    "<label><input type=\"checkbox\" id=\"record-dd\" name=\"%s\" value=\"on\" checked>"
	    " Double-dummy tricks and par</label>\n"
	    "<button type=\"submit\">Make the hand record</button>\n"
	    "</form>\n"
	    "<h2>After the session</h2>\n"
	    "<form method=\"post\">\n"
	    "<input type=\"hidden\" name=\"action\" value=\"played\">\n"
	    "<label for=\"set\">The set played (its number, on the hand record)</label>"
	    "<input type=\"number\" id=\"set\" name=\"set\" min=\"1\" required>\n"
	    "<button type=\"submit\">Mark it played</button>\n"
	    "</form>\n"
	    "<p class=\"note\">Every set dealt here is recorded in the archive, with who dealt it"
	    " and when. The seed that regenerates a set is its own download (in the zip"
	    " only when the zip alone is asked for): keep it apart until the session is"
	    " played.</p>\n", deal_fields[F_DD].name);
	printf("</main>\n</body>\n</html>\n");
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
	/* the responses kept for a press again, removed when old */
	once_sweep();
	head(200, "OK", "text/html; charset=utf-8", NULL);
	if (!head_only)
		put_form_page(sent.n > 0 ? &sent : NULL, NULL, NULL);
	cgi_form_free(&sent);
}
