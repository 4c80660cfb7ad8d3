/* The tables of the page's forms, each of which draws its form and reads
 * it, their fields' errors, and the link that opens the dealing form
 * filled again. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "files/plugins.h"
#include "stream/date.h"
#include "stream/description.h"
#include "base/util.h"
#include "tool.h"
#include "page.h"

/* What a club asks for in its own words: its dealing machine and its
 * scoring program, each the format it reads (docs/web.md, "The form";
 * Dealer4's software loads PBN files, Duplimate's BOS its DUP files).
 * The form's table below draws these choices and reads them. */

static const struct club_choice dealing_machines[] = {
	{ "", "None: the boards are shuffled by hand", NULL },
	{ "duplimate", "Duplimate (Jannersten)", "dup" },
	{ "dealer4", "Dealer4 or Dealer4+", "pbn" },
	{ "bernasconi", "Bernasconi", "ber" },
	{ "kops", "KOPS", "kops" },
};

static const struct club_choice scoring_programs[] = {
	{ "pbn", "One that reads PBN (ScoreBridge, EBUScore, Bridgemate, ACBLscore, Bridge"
	    " Composer, most others)", "pbn" },
	{ "lin", "Bridge Base Online (LIN)", "lin" },
	{ "", "None", NULL },
};

static const struct club_choice papers[] = {
	{ "a4", "A4", NULL },
	{ "letter", "Letter", NULL },
};

/* The hand record's boards a page (DL_PER_PAGE, plugins/paper.h): six
 * for the tables, four larger, one for a lesson. */
static const struct club_choice boards_a_page[] = {
	{ "6", "Six (two columns of three)", NULL },
	{ "4", "Four, larger", NULL },
	{ "1", "One, for teaching", NULL },
};

#define CHOICES(table) (table), (sizeof (table) / sizeof (table)[0])
#define STRING_(x) #x
#define STRING(x) STRING_(x)

const struct form_field deal_fields[F_COUNT] = {
	[F_EVENT] = { "event", "Event", FIELD_TEXT, EVENT_MAX_BYTES,
	    " placeholder=\"Tuesday Pairs\"", NULL, NULL, 0, "the event", 1 },
	[F_SITE] = { "site", "Site", FIELD_TEXT, EVENT_MAX_BYTES, "", NULL, NULL, 0,
	    "the site", 1 },
	[F_DATE] = { "date", "Date <small>(pick it from the calendar; where there is none,"
	    " type <span class=\"nowrap\">2026-11-30</span>, 30/11/2026 day first, or 2026.11.30)</small>", FIELD_DATE, 0, "", NULL, NULL, 0, "the date", 1 },
	[F_SESSION] = { "session", "Session", FIELD_TEXT, 0, " inputmode=\"numeric\"", NULL,
	    NULL, 0, "the session", 0 },
	[F_BOARDS] = { "boards", "Boards (at most " STRING(BOARDS_MAX) ")", FIELD_TEXT, 0, "",
	    "1-32", NULL, 0, "the boards", 1 },
	[F_MACHINE] = { "machine", "Dealing machine", FIELD_CHOICE, 0, "", NULL,
	    CHOICES(dealing_machines), "the dealing machine", 1 },
	[F_SCORING] = { "scoring", "Scoring program", FIELD_CHOICE, 0, "", NULL,
	    CHOICES(scoring_programs), "the scoring program", 1 },
	[F_FORMATS] = { "formats", "The hand record to print (PDF)", FIELD_FORMATS, 0, "",
	    "pdf", NULL, 0, "the files", 1 },
	[F_DD] = { "dd", "Double-dummy tricks and par on the hand record", FIELD_BOX, 0, "",
	    "on", NULL, 0, "the analysis", 1 },
	[F_PAPER] = { "paper", "Paper", FIELD_CHOICE, 0, "", NULL, CHOICES(papers),
	    "the paper", 1 },
	[F_PER_PAGE] = { "per_page", "Boards a page on the hand record", FIELD_CHOICE, 0, "",
	    NULL, CHOICES(boards_a_page), "the boards a page", 1 },
	[F_PREFIX] = { "prefix", "File name (else the event's and the date's)", FIELD_TEXT,
	    PREFIX_MAX, " placeholder=\"monday-pairs-2026-11-30\"", NULL, NULL, 0,
	    "the file name", 0 },
	[F_ENTROPY] = { "entropy", "Your own entropy (optional: a lottery draw, dice)",
	    FIELD_TEXTAREA, 0, " rows=\"2\"", NULL, NULL, 0, "the entropy", 0 },
};

const struct form_table deal_form = {
	deal_fields, F_COUNT, "deal", "", "Nothing was dealt",
};

/* "Played before?": a file of any format, checked against the archive */
static const struct form_field check_fields[C_COUNT] = {
	[C_FILE] = { "file", "The file to check (PBN, DUP, LIN, or any other deal file)",
	    FIELD_FILE, 0, " required", NULL, NULL, 0, "the file", 0 },
};

const struct form_table check_form = {
	check_fields, C_COUNT, "check", "check-", "Nothing was checked",
};

/* "A hand record from your scoring program's file": the paper and the
 * boards a page the dealing form's choices */
static const struct form_field record_fields[R_COUNT] = {
	[R_FILE] = { "file", "The session's file", FIELD_FILE, 0, " required", NULL, NULL, 0,
	    "the file", 0 },
	[R_PAPER] = { "paper", "Paper", FIELD_CHOICE, 0, "", NULL, CHOICES(papers),
	    "the paper", 0 },
	[R_PER_PAGE] = { "per_page", "Boards a page on the hand record", FIELD_CHOICE, 0, "",
	    NULL, CHOICES(boards_a_page), "the boards a page", 0 },
	[R_DD] = { "dd", "Double-dummy tricks and par", FIELD_BOX, 0, "", "on", NULL, 0,
	    "the analysis", 0 },
};

const struct form_table record_form = {
	record_fields, R_COUNT, "record", "record-", "No hand record was made",
};

/* "After the session": the set played, by its number */
static const struct form_field played_fields[P_COUNT] = {
	[P_SET] = { "set", "The set played (its number, on the hand record)", FIELD_NUMBER, 0,
	    " min=\"1\" required", NULL, NULL, 0, "the set played", 0 },
};

_Static_assert((int)C_COUNT <= FORM_FIELDS_MAX && (int)R_COUNT <= FORM_FIELDS_MAX &&
    (int)P_COUNT <= FORM_FIELDS_MAX, "a form's errors fit struct form_errors");

const struct form_table played_form = {
	played_fields, P_COUNT, "played", "played-", "No set was marked played",
};

/* A field's value as sent, or NULL: not sent, or empty. */
const char *
deal_value(const struct cgi_form *form, int f)
{
	return text_field(form, deal_fields[f].name);
}

/* A field's error, if refused: its index in errs; -1: none. */
static int
field_error_index(const struct form_errors *errs, int f)
{
	if (errs == NULL)
		return -1;
	for (size_t i = 0; i < errs->n; i++)
		if (errs->e[i].field == f)
			return (int)i;
	return -1;
}

static void __attribute__((format(printf, 6, 0)))
vfield_error(struct form_errors *errs, int f, const char *logged, int named, int verbatim,
    const char *fmt, va_list ap)
{
	size_t at = 0;

	if (field_error_index(errs, f) != -1 || errs->n == FORM_FIELDS_MAX)
		return;
	errs->e[errs->n].field = f;
	errs->e[errs->n].logged = logged;
	errs->e[errs->n].verbatim = verbatim;
	if (named)
		at = (size_t)snprintf(errs->e[errs->n].line, DL_ERROR_MAX, "%s: ",
		    errs->table->fields[f].what);
	vsnprintf(errs->e[errs->n].line + at, DL_ERROR_MAX - at, fmt, ap);
	errs->e[errs->n++].words = at;
}

/* A field of errs's form refused: fmt its words, after the field's own
 * name ("the boards: ...") when named; logged a literal.  A field already
 * refused keeps its first error. */
void __attribute__((format(printf, 5, 6)))
field_error(struct form_errors *errs, int f, const char *logged, int named, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfield_error(errs, f, logged, named, 0, fmt, ap);
	va_end(ap);
}

/* A file refused: its words begin with the file's name as it was
 * uploaded ("notes.txt: ..."), given as it is, never with a capital. */
void __attribute__((format(printf, 4, 5)))
file_error(struct form_errors *errs, int f, const char *logged, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfield_error(errs, f, logged, 0, 1, fmt, ap);
	va_end(ap);
}

/* A field's input's id, which the summary links to: the form's prefix
 * and the field's name (the formats' box, its first: "formats-pdf");
 * names and prefixes are literals. */
void
put_field_id(const struct form_table *t, int f)
{
	printf("%s%s%s", t->id_prefix, t->fields[f].name, t->fields[f].kind == FIELD_FORMATS ?
	    "-pdf" : "");
}

/* Error i's words from byte from of its line: a sentence, but for a
 * file's, which begins with the file's own name. */
static void
put_error_words(const struct form_errors *errs, size_t i, size_t from)
{
	if (errs->e[i].verbatim)
		put_html(stdout, errs->e[i].line + from);
	else
		put_html_sentence(stdout, errs->e[i].line + from);
}

/* The error i of errs as a whole line: the summary's. */
void
put_error_line(const struct form_errors *errs, size_t i)
{
	put_error_words(errs, i, 0);
}

/* The attributes of a field's input when it is refused, or its file is to
 * be chosen again (a note of its own). */
static void
put_invalid(const char *id, int refused, int again)
{
	if (refused)
		printf(" aria-invalid=\"true\"");
	if (refused && again)
		printf(" aria-describedby=\"%s-error %s-again\"", id, id);
	else if (refused)
		printf(" aria-describedby=\"%s-error\"", id);
	else if (again)
		printf(" aria-describedby=\"%s-again\"", id);
}

static void
put_error_message(const char *id, const struct form_errors *errs, int i)
{
	if (i == -1)
		return;
	printf("<p class=\"error\" id=\"%s-error\"><span class=\"visually-hidden\">Error:"
	    " </span>", id);
	put_error_words(errs, (size_t)i, errs->e[i].words);
	printf("</p>");
}

/* Whether the form sent (a filled form's) names a format: given once a
 * format, or comma-separated. */
int
format_sent(const struct cgi_form *sent, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; sent != NULL && i < sent->n; i++) {
		const char *v = sent->fields[i].value;

		if (strcmp(sent->fields[i].name, deal_fields[F_FORMATS].name) != 0 ||
		    sent->fields[i].filename != NULL)
			continue;
		for (const char *p = v; *p != '\0'; p += strcspn(p, ","), p += *p == ',') {
			size_t len = strcspn(p, ",");

			while (len > 0 && p[len - 1] == ' ')
				len--;
			while (len > 0 && *p == ' ') {
				p++;
				len--;
			}
			if (len == n && strncmp(p, name, n) == 0)
				return 1;
		}
	}
	return 0;
}

static void
collect_writer(void *arg, const struct loaded_plugin *lp, const struct dl_error *broken)
{
	struct writer_names *w = arg;

	if (broken != NULL || lp == NULL || (lp->plugin->board == NULL && lp->plugin->end == NULL) ||
	    w->n == 64)
		return;
	strlcpy(w->names[w->n], lp->plugin->name, sizeof w->names[0]);
	strlcpy(w->descriptions[w->n++], lp->plugin->description != NULL ?
	    lp->plugin->description : "", sizeof w->descriptions[0]);
}

/* Whether the plugins found hold a writer of this name. */
static int
writer_listed(const struct writer_names *w, const char *name)
{
	for (size_t i = 0; i < w->n; i++)
		if (strcmp(w->names[i], name) == 0)
			return 1;
	return 0;
}

void
collect_writers(struct writer_names *w)
{
	w->n = 0;
	plugin_each(collect_writer, w);
}

/* The date as a date input holds it, YYYY-MM-DD, when the text is a
 * whole day in any form the form takes; else NULL. */
static const char *
date_for_picker(const char *typed, char out[11])
{
	char pbn[DATE_PBN_SIZE];
	struct dl_error e;

	if (typed == NULL || date_typed_to_pbn(typed, pbn, &e) == -1 || strlen(pbn) != 10 ||
	    strspn(pbn, "0123456789.") != 10)
		return NULL;
	snprintf(out, 11, "%.4s-%.2s-%.2s", pbn, pbn + 5, pbn + 8);
	return out;
}

/* A choice field's options, the one whose value is chosen (NULL: none)
 * selected. */
void
put_options(const struct form_field *d, const char *chosen)
{
	for (size_t i = 0; i < d->n_choices; i++) {
		printf("<option value=\"%s\"%s>", d->choices[i].value, chosen != NULL &&
		    strcmp(chosen, d->choices[i].value) == 0 ? " selected" : "");
		put_html(stdout, d->choices[i].words);
		printf("</option>");
	}
}

/* One field of a form (t): sent is what a request filled it with (NULL:
 * the blank form), whose boxes are as sent when it is the form's own
 * (form=deal, form=record), else as the blank form's.  A file cannot be
 * given back: when one was sent, a note beside it asks for it again. */
void
put_field(const struct form_table *t, int f, const struct cgi_form *sent,
    const struct form_errors *errs, const struct writer_names *w)
{
	const struct form_field *d = &t->fields[f];
	const struct cgi_field *given = sent != NULL ? cgi_field(sent, d->name) : NULL;
	const char *value = given != NULL && given->filename == NULL ? given->value : d->blank;
	int refused = field_error_index(errs, f), marked = refused != -1;
	int filled = sent != NULL && cgi_field(sent, "form") != NULL;
	char day[11], id[64];

	/* the formats' first box is "formats-pdf" (put_field_id) */
	snprintf(id, sizeof id, "%s%s", t->id_prefix, d->name);

	switch (d->kind) {
	case FIELD_TEXT:
	case FIELD_DATE:
		printf("<label for=\"%s\">%s</label>", id, d->label);
		put_error_message(id, errs, refused);
		/* a date the calendar cannot hold (a day typed wrong, a PBN
		 * date with a part not known) is kept as text, as typed */
		if (d->kind == FIELD_DATE && value != NULL && *value != '\0') {
			const char *iso = date_for_picker(value, day);

			printf("<input type=\"%s\"", iso != NULL ? "date" : "text");
			value = iso != NULL ? iso : value;
		} else
			printf("<input type=\"%s\"", d->kind == FIELD_DATE ? "date" : "text");
		printf(" id=\"%s\" name=\"%s\"", id, d->name);
		if (d->limit > 0)
			printf(" maxlength=\"%d\"", d->limit);
		fputs(d->attrs, stdout);
		if (value != NULL && (*value != '\0' || d->blank != NULL))
			put_attr(stdout, "value", value);
		put_invalid(id, marked, 0);
		printf(">\n");
		break;
	case FIELD_TEXTAREA:
		printf("<label for=\"%s\">%s</label>", id, d->label);
		put_error_message(id, errs, refused);
		printf("<textarea id=\"%s\" name=\"%s\"%s", id, d->name, d->attrs);
		put_invalid(id, marked, 0);
		printf(">");
		if (value != NULL)
			put_html(stdout, value);
		printf("</textarea>\n");
		break;
	case FIELD_CHOICE:
		printf("<label for=\"%s\">%s</label>", id, d->label);
		put_error_message(id, errs, refused);
		printf("<select id=\"%s\" name=\"%s\"", id, d->name);
		put_invalid(id, marked, 0);
		printf(">");
		put_options(d, given != NULL ? given->value : NULL);
		printf("</select>\n");
		break;
	case FIELD_BOX:
		put_error_message(id, errs, refused);
		printf("<label><input type=\"checkbox\" id=\"%s\" name=\"%s\" value=\"on\"%s", id,
		    d->name, (filled ? given != NULL && strcmp(given->value, "on") == 0 :
		    d->blank != NULL) ? " checked" : "");
		put_invalid(id, marked, 0);
		printf("> %s</label>\n", d->label);
		break;
	case FIELD_NUMBER:
		printf("<label for=\"%s\">%s</label>", id, d->label);
		put_error_message(id, errs, refused);
		/* a value no number input holds is kept as text, as typed */
		printf("<input type=\"%s\" id=\"%s\" name=\"%s\"%s", value == NULL ||
		    strspn(value, "0123456789") == strlen(value) ? "number" : "text", id, d->name,
		    d->attrs);
		if (value != NULL)
			put_attr(stdout, "value", value);
		put_invalid(id, marked, 0);
		printf(">\n");
		break;
	case FIELD_FILE: {
		/* the file sent, which the browser cannot be given back */
		int again = filled && given != NULL && given->filename != NULL &&
		    *given->filename != '\0';

		printf("<label for=\"%s\">%s</label>", id, d->label);
		put_error_message(id, errs, refused);
		if (again) {
			printf("<p class=\"note\" id=\"%s-again\">Choose the file again (you chose ", id);
			put_html(stdout, given->filename);
			printf("): a page cannot keep it for you.</p>");
		}
		printf("<input type=\"file\" id=\"%s\" name=\"%s\"%s", id, d->name, d->attrs);
		put_invalid(id, marked, again);
		printf(">\n");
		break;
	}
	case FIELD_FORMATS: {
		/* the boxes a club ticks in the open, the first the field's
		 * own (its label, its anchor); every other writer under
		 * "Every format" */
		static const struct { const char *format, *words; } in_the_open[] = {
			{ "pdf", NULL },
			{ "tablecards", "Table cards with the QR code for the players&#39; phones"
			    " (PDF)" },
		};
		int others = 0;

		for (size_t i = 0; i < w->n; i++)
			others |= strcmp(w->names[i], "pdf") != 0 &&
			    strcmp(w->names[i], "tablecards") != 0 && format_sent(sent, w->names[i]);
		put_error_message(id, errs, refused);
		for (size_t k = 0; k < sizeof in_the_open / sizeof in_the_open[0]; k++) {
			const char *format = in_the_open[k].format;

			if (k > 0 && !writer_listed(w, format))
				continue;
			printf("<label><input type=\"checkbox\" id=\"%s-%s\" name=\"%s\" value=\"%s\"%s",
			    id, format, d->name, format, (filled ? format_sent(sent, format) :
			    k == 0 && d->blank != NULL) ? " checked" : "");
			if (k == 0)
				put_invalid(id, marked, 0);
			printf("> %s</label>\n", k == 0 ? d->label : in_the_open[k].words);
		}
		printf("<details%s><summary>Every format</summary>\n<fieldset>"
		    "<legend>Other files</legend>\n", others || marked ? " open" : "");
		for (size_t i = 0; i < w->n; i++) {
			if (strcmp(w->names[i], "pdf") == 0 || strcmp(w->names[i], "tablecards") == 0)
				continue;
			printf("<label><input type=\"checkbox\" name=\"%s\"", d->name);
			put_attr(stdout, "value", w->names[i]);
			printf("%s> ", format_sent(sent, w->names[i]) ? " checked" : "");
			put_html(stdout, w->names[i]);
			if (w->descriptions[i][0] != '\0') {
				printf(" <small>");
				put_html(stdout, w->descriptions[i]);
				printf("</small>");
			}
			printf("</label>\n");
		}
		printf("</fieldset>\n</details>\n");
		break;
	}
	}
}

/* The choice a field of choices sent (NULL: none sent, or empty); a value
 * not in its table is the field's error, refused (logged: a literal). */
const struct club_choice *
choice_sent(const struct cgi_form *form, int f, const char *logged, const char *refused,
    struct form_errors *errs)
{
	const struct form_field *d = &errs->table->fields[f];
	const struct cgi_field *given = cgi_field(form, d->name);

	if (given == NULL || given->filename != NULL || given->len == 0)
		return NULL;
	for (size_t i = 0; i < d->n_choices; i++)
		if (strcmp(given->value, d->choices[i].value) == 0)
			return &d->choices[i];
	field_error(errs, f, logged, 1, "%s", refused);
	return NULL;
}

/* "Deal another session": the form's address, with this session's fields
 * (those the table marks again) as its query, so that the form opens
 * filled; never the entropy, the seed or the files' name. */
void
put_again_link(const struct cgi_form *form)
{
	const char *self = getenv("SCRIPT_NAME");
	char *url = NULL, day[11];
	size_t len = 0;
	FILE *m = open_memstream(&url, &len);

	if (m == NULL)
		return;
	fputs(self != NULL && *self == '/' ? self : "./", m);
	fputs("?form=deal", m);
	for (int f = 0; f < F_COUNT; f++) {
		const struct form_field *d = &deal_fields[f];

		if (!d->again)
			continue;
		for (size_t i = 0; i < form->n; i++) {
			const struct cgi_field *given = &form->fields[i];
			const char *value = given->value;

			if (strcmp(given->name, d->name) != 0 || given->filename != NULL)
				continue;
			if (d->kind == FIELD_DATE && date_for_picker(value, day) != NULL)
				value = day;
			fprintf(m, "&%s=", d->name);
			put_query_value(m, value);
			/* each of the formats; the others' first only */
			if (d->kind != FIELD_FORMATS)
				break;
		}
	}
	if (fclose(m) != 0) {
		free(url);
		return;
	}
	printf("<p><a");
	put_attr(stdout, "href", url);
	printf(">Deal another session</a> (this one's event, date, boards and files"
	    " filled in)</p>\n");
	free(url);
}
