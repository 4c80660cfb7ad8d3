#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "session/session.h"
#include "stream/date.h"
#include "stream/description.h"
#include "base/util.h"
#include "page.h"

/* record: the hand record of a set dealt elsewhere, from the file the
 * club already has (its scoring program's PBN), as Bridge Solver Online
 * makes one: the boards read as check reads them, written as deal
 * writes its hand record, analysed as it analyses.  The set was not
 * dealt here: it is neither checked against the archive nor recorded in
 * it. */

static const struct upload_words record_upload = {
	"no file for a hand record", "the file for a hand record: not of a format dl reads",
	"the file for a hand record: not read",
};

/* What the page of a hand record from a file says above it. */
struct record_aside {
	const char *filename;	/* as uploaded: the request's, escaped */
	size_t boards;
	int analysis;
	const char *pdf_name;
	const void *pdf;
	size_t pdf_len;
};

static void
put_record_aside(void *arg)
{
	const struct record_aside *r = arg;
	const char *self = getenv("SCRIPT_NAME");

	printf("<p>The hand record of ");
	put_html(stdout, r->filename);
	printf(": %zu board%s%s. It is not recorded in the archive: the set was not dealt"
	    " here.</p>\n<p>", r->boards, r->boards == 1 ? "" : "s", r->analysis ?
	    ", with each board's double-dummy tricks and par" : "");
	put_data_link("application/pdf", r->pdf_name, r->pdf, r->pdf_len);
	printf("Download the PDF (");
	put_html(stdout, r->pdf_name);
	printf(")</a>, or print this page.</p>\n<p><a href=\"");
	put_html(stdout, self != NULL && *self == '/' ? self : "./");
	printf("#record\">A hand record of another file</a></p>\n");
}

void
record(const struct cgi_form *form)
{
	const char *dd = text_field(form, record_form.fields[R_DD].name);
	struct form_errors errs = { .table = &record_form };
	const struct club_choice *paper = choice_sent(form, R_PAPER, "the paper", "a4 or letter",
	    &errs);
	const struct club_choice *per_page = choice_sent(form, R_PER_PAGE, "the boards a page",
	    "6, 4 or 1", &errs);
	struct format_list formats = { 0 };
	struct set_boards u = { 0 };
	struct set_input in;
	struct dl_error e;
	char prefix[PREFIX_MAX + 1], date[DATE_PBN_SIZE];

	/* read as check reads a file: the same code and limits; every field
	 * read before any is refused */
	char *upload = read_upload(form, &errs, R_FILE, &record_upload, &in, &u);
	if (upload != NULL && u.n > BOARDS_MAX)
		file_error(&errs, R_FILE, "the file for a hand record: more than a session",
		    "%s: %zu boards: a hand record of at most %d (a session)", in.label, u.n,
		    BOARDS_MAX);
	/* boards not in a row: the file's, refused before a page streams */
	struct board_range range;
	if (upload != NULL && u.n <= BOARDS_MAX && set_boards_range(&u, &range, &e) == -1)
		file_error(&errs, R_FILE, "the file for a hand record: not made", "%s: %s",
		    in.label, e.msg);
	if (errs.n > 0)
		refuse_fields(400, "Bad Request", form, &errs, NULL);
	int analysis = dd != NULL && strcmp(dd, "on") == 0;
	if (analysis && !take_analysis_slot()) {
		/* the form again, to send again or without the analysis */
		field_error(&errs, R_DD, "every core is analysing another session", 0, "every core"
		    " is analysing another session: try again in half a minute, or make the hand"
		    " record without the analysis");
		refuse_fields(503, "Service Unavailable", form, &errs, "No hand record was made yet:"
		    " the server is busy");
	}
	setenv("PAPERSIZE", paper != NULL ? paper->value : "a4", 1);
	setenv("DL_PER_PAGE", per_page != NULL ? per_page->value : "6", 1);

	/* the files named from the event and the date the file gives (else
	 * from its own name, and today's), as a set dealt here is */
	const char *named = in.set.event != NULL && event_text_check(in.set.event, &e) == 0 ?
	    in.set.event : NULL;
	char *stem = named == NULL ? xstrdup(cgi_field(form, "file")->filename) : NULL;
	if (stem != NULL && strrchr(stem, '.') != NULL && strrchr(stem, '.') != stem)
		*strrchr(stem, '.') = '\0';
	file_name_of_event(named != NULL ? named : stem, in.set.date != NULL &&
	    date_to_pbn(in.set.date, date, &e) == 0 ? date : NULL, prefix);
	free(stem);
	add_format(&formats, "html");
	add_format(&formats, "pdf");
	char *base = work_file(prefix), *html_name, *pdf_name;
	char *html_path = format_work_file("html", prefix, &html_name);
	char *pdf_path = format_work_file("pdf", prefix, &pdf_name);
	struct hand_record h = {
		.formats = &formats, .event = in.set.event, .site = in.set.site,
		.date = in.set.date, .analysis = analysis, .analyser = &session_dl_dd,
		.boards = &u,
	};
	h.wo.prefix = base;
	h.wo.publish = PUBLISH_NEW;
	h.wo.threads = 1;
	h.wo.scratch = 1;	/* read back and removed before the answer */
	/* with the analysis, the page streams its progress (progress.c) */
	struct progress_page progress = { range.low, 0 };
	if (analysis) {
		stream_top(h.event != NULL && event_text_check(h.event, &e) == 0 ? h.event :
		    "Hand record", "Solving", (unsigned long)u.n);
		h.solved = put_solved;
		h.solved_arg = &progress;
	}
	if (session_hand_record(&h, &e) == -1) {
		/* boards not in a row (refused above, before the page
		 * streamed): the file's; anything else, a writer's failure
		 * among them, the server's */
		if (e.kind == DL_ERR_INPUT && !analysis) {
			file_error(&errs, R_FILE, "the file for a hand record: not made", "%s: %s",
			    in.label, e.msg);
			refuse_fields(400, "Bad Request", form, &errs, NULL);
		}
		refuse_at(500, "the hand record of a file", &e);
	}
	size_t pdf_len;
	char *pdf = read_work_file(pdf_path, &pdf_len);
	struct record_aside r = {
		.filename = cgi_field(form, "file")->filename, .boards = u.n,
		.analysis = analysis, .pdf_name = pdf_name, .pdf = pdf, .pdf_len = pdf_len,
	};
	if (analysis)
		stream_done("Done: the hand record follows.", 1);
	put_hand_record_page(html_path, "This hand record", put_record_aside, &r, analysis);
	sodium_memzero(pdf, pdf_len);
	free(pdf);
	free(html_path);
	free(html_name);
	free(pdf_path);
	free(pdf_name);
	free(base);
	format_list_free(&formats);
	set_input_free(&in);
	set_boards_free(&u);
	free(upload);
}
