/* dl-web: a session's deals and hand records from a browser, as Shufflix
 * gave them, as a CGI program (RFC 3875): one process a request, so that
 * a secret or a crash dies with its request.  GET gives the form; a POST
 * of it deals (lib/session/session.c, as dl-deal does) into a private directory,
 * records the set in the archive, and answers with the hand record and
 * one zip of everything (the formats, the PDF, the seed), or the zip
 * alone; a POST of a file checks it against the archive, or makes the
 * hand record of a set dealt elsewhere (a scoring program's PBN).
 * docs/web.md. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <ctype.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>
#include <sodium.h>

#include "web/cgi.h"
#include "base/cleanup.h"
#include "archive/deal_archive.h"
#include "keys/entropy.h"
#include "files/format_list.h"
#include "keys/generator.h"
#include "files/plugins.h"
#include "stream/date.h"
#include "stream/proto.h"
#include "files/readers.h"
#include "session/set_input.h"
#include "session/session.h"
#include "owner.h"
#include "tool.h"
#include "base/util.h"

/* A session, not a simulation: as dl-deal without --many. */
#define BOARDS_MAX 100
/* A request's body: the largest upload and the form around it. */
#define UPLOAD_MAX (10u << 20)
#define BODY_MAX (UPLOAD_MAX + (64u << 10))
#define PREFIX_MAX 64

static const struct cgi_limits limits = {
	.fields = 64, .name = 32, .value = 4096, .file = UPLOAD_MAX,
};

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-web\n");
	exit(status);
}

/* The private directory of this request, and what is in it. */
static char *workdir;

static void
remove_workdir(void)
{
	if (workdir == NULL)
		return;
	/* every file in it was registered with cleanup_add_file */
	cleanup_now();
	rmdir(workdir);
}

/* Text as HTML: & < > " ' escaped; a control byte as its code. */
static void
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
static void
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
    "main { max-width: 44rem; margin: 0 auto; padding: 1rem; }\n"
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
    ".wide { overflow-x: auto; }\n";

static void
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

static void
page_end(void)
{
	const char *self = getenv("SCRIPT_NAME");

	printf("<p><a href=\"");
	put_html(stdout, self != NULL && *self == '/' ? self : "./");
	printf("\">Deal another session</a></p>\n</main>\n</body>\n</html>\n");
}

/* What the request was at, for the log of refuse_error: a literal. */
static const char *request_step = "the request";

/* A request that cannot be taken: a page that says why (the message, made
 * from fmt, which may quote what was sent, escaped), one line in the web
 * server's error log that says what was refused (logged: a literal, never
 * a value of the request: a field, a file's name or content, a header),
 * and the end. */
static void __attribute__((noreturn, format(printf, 4, 5)))
refuse_logged(int status, const char *reason, const char *logged, const char *fmt, ...)
{
	char msg[DL_ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	tool_warn("%d %s: %s", status, reason, logged);
	head(status, reason, "text/html; charset=utf-8",
	    status == 503 ? "Retry-After: 30\r\n" : status == 405 ? "Allow: GET, HEAD, POST\r\n" :
	    NULL);
	page_begin(reason);
	printf("<p>");
	put_html(stdout, msg);
	printf("</p>\n");
	page_end();
	fflush(stdout);
	remove_workdir();
	/* answered; the status says how, by the tools' one policy: a request
	 * refused is input refused, a server that could not serve it trouble */
	exit(status >= 500 ? EXIT_TROUBLE : EXIT_REFUSED);
}

/* As refuse_logged, with fmt itself for the log, each conversion in it
 * written "...": whatever its arguments hold, none of it reaches the log. */
static void __attribute__((noreturn, format(printf, 3, 4)))
refuse(int status, const char *reason, const char *fmt, ...)
{
	char msg[DL_ERROR_MAX], logged[DL_ERROR_MAX];
	size_t n = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	for (const char *p = fmt; *p != '\0' && n + 4 < sizeof logged; p++) {
		if (*p != '%') {
			logged[n++] = *p;
			continue;
		}
		if (p[1] == '%') {
			logged[n++] = *++p;
			continue;
		}
		/* flags, width, precision, length, then the conversion */
		p += 1 + strspn(p + 1, "-+ #0123456789.*hlLqjzt");
		if (*p == '\0')
			break;
		memcpy(logged + n, "...", 3);
		n += 3;
	}
	logged[n] = '\0';
	refuse_logged(status, reason, logged, "%s", msg);
}

static const char *
reason_of(int status)
{
	return status == 400 ? "Bad Request" : status == 413 ? "Payload Too Large" :
	    status == 415 ? "Unsupported Media Type" : "Internal Server Error";
}

/* An error's message on the page; the log told what failed (a literal). */
static void __attribute__((noreturn))
refuse_at(int status, const char *what, const struct dl_error *e)
{
	refuse_logged(status, reason_of(status), what, "%s", e->msg);
}

static void __attribute__((noreturn))
refuse_error(int status, const struct dl_error *e)
{
	refuse_at(status, request_step, e);
}

/* A text field's value, or NULL when it is not sent or empty. */
static const char *
text_field(const struct cgi_form *form, const char *name)
{
	const struct cgi_field *f = cgi_field(form, name);

	return f != NULL && f->filename == NULL && f->len > 0 ? f->value : NULL;
}

/* An attribute, name="value": the value is text (a request's, a
 * plugin's), escaped as put_html escapes it; the name a literal. */
static void
put_attr(FILE *fp, const char *name, const char *value)
{
	fprintf(fp, " %s=\"", name);
	put_html(fp, value);
	fputc('"', fp);
}

/* What a club asks for in its own words: its dealing machine and its
 * scoring program, each the format it reads (docs/web.md, "The form";
 * Dealer4's software loads PBN files, Duplimate's BOS its DUP files).
 * The form's table below draws these choices and reads them. */
struct club_choice {
	const char *value;	/* the form's */
	const char *words;	/* the director's */
	const char *format;	/* the plugin's name; NULL: none */
};

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

/* The dealing form: one table draws it (put_form_page) and reads it
 * (deal_value, deal's checks), so that a field's name is written once.  An
 * error is a field's (struct form_errors), told by its index, never by
 * its message's words. */
enum field_kind {
	FIELD_TEXT,		/* a line of text */
	FIELD_DATE,		/* a date: the browser's calendar */
	FIELD_CHOICE,		/* one of a table of choices */
	FIELD_FORMATS,		/* the hand record's box, and "Every format" */
	FIELD_BOX,		/* a box ticked ("on") or not */
	FIELD_TEXTAREA,		/* lines of text */
};

enum {
	F_EVENT, F_SITE, F_DATE, F_SESSION, F_BOARDS, F_MACHINE, F_SCORING, F_FORMATS, F_DD,
	F_PAPER, F_PER_PAGE, F_PREFIX, F_ENTROPY, F_COUNT
};

struct form_field {
	const char *name;
	const char *label;	/* markup, a literal */
	enum field_kind kind;
	int limit;		/* bytes of a text (its maxlength); 0: none */
	const char *attrs;	/* the input's other attributes, a literal */
	const char *blank;	/* the blank form's value ("on": a box ticked) */
	const struct club_choice *choices;
	size_t n_choices;
	const char *what;	/* the field in a message, "the boards" */
	int again;		/* carried to "Deal another session" */
};

static const struct form_field deal_fields[F_COUNT] = {
	[F_EVENT] = { "event", "Event", FIELD_TEXT, EVENT_MAX_BYTES,
	    " placeholder=\"Tuesday Pairs\"", NULL, NULL, 0, "the event", 1 },
	[F_SITE] = { "site", "Site", FIELD_TEXT, EVENT_MAX_BYTES, "", NULL, NULL, 0,
	    "the site", 1 },
	[F_DATE] = { "date", "Date <small>(from the calendar; typed by hand,"
	    " <span class=\"nowrap\">2026-11-30</span>, 30/11/2026 day first, or 2026.11.30)</small>", FIELD_DATE, 0, "", NULL, NULL, 0, "the date", 1 },
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

/* A field's value as sent, or NULL: not sent, or empty. */
static const char *
deal_value(const struct cgi_form *form, int f)
{
	return text_field(form, deal_fields[f].name);
}

/* The fields refused, each once, in the order they are read: a script is
 * answered the first's line, the form itself with each beside its field. */
struct form_errors {
	size_t n;
	struct {
		int field;
		const char *logged;	/* for the server's log: a literal */
		char line[DL_ERROR_MAX];	/* the one line a script is answered */
		size_t words;		/* where the field's own words begin in it */
	} e[F_COUNT];
};

static int
field_refused(const struct form_errors *errs, int f)
{
	for (size_t i = 0; i < errs->n; i++)
		if (errs->e[i].field == f)
			return 1;
	return 0;
}

/* A field refused: fmt its words, after the field's own name ("the
 * boards: ...") when named; logged a literal.  A field already refused
 * keeps its first error. */
static void __attribute__((format(printf, 5, 6)))
field_error(struct form_errors *errs, int f, const char *logged, int named, const char *fmt, ...)
{
	va_list ap;
	size_t at = 0;

	if (field_refused(errs, f) || errs->n == F_COUNT)
		return;
	errs->e[errs->n].field = f;
	errs->e[errs->n].logged = logged;
	if (named)
		at = (size_t)snprintf(errs->e[errs->n].line, DL_ERROR_MAX, "%s: ",
		    deal_fields[f].what);
	va_start(ap, fmt);
	vsnprintf(errs->e[errs->n].line + at, DL_ERROR_MAX - at, fmt, ap);
	va_end(ap);
	errs->e[errs->n++].words = at;
}

/* Text with its first letter a capital (a message beside its field). */
static void
put_html_sentence(FILE *fp, const char *s)
{
	if (*s >= 'a' && *s <= 'z') {
		fputc(*s - 'a' + 'A', fp);
		s++;
	}
	put_html(fp, s);
}

/* A field's error, if refused, as the attributes of its input and as the
 * message that follows its label. */
static const char *
field_error_line(const struct form_errors *errs, int f)
{
	if (errs == NULL)
		return NULL;
	for (size_t i = 0; i < errs->n; i++)
		if (errs->e[i].field == f)
			return errs->e[i].line + errs->e[i].words;
	return NULL;
}

static void
put_invalid(const char *name, const char *error)
{
	if (error != NULL)
		printf(" aria-invalid=\"true\" aria-describedby=\"%s-error\"", name);
}

static void
put_error_message(const char *name, const char *error)
{
	if (error == NULL)
		return;
	printf("<p class=\"error\" id=\"%s-error\"><span class=\"visually-hidden\">Error:"
	    " </span>", name);
	put_html_sentence(stdout, error);
	printf("</p>");
}

/* Whether the form sent (a filled form's) names a format: given once a
 * format, or comma-separated. */
static int
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

/* The formats a browser may choose: the plugins that write, each with
 * what it says it is (a plugin's words: escaped). */
struct writer_names {
	char names[64][32];
	char descriptions[64][96];
	size_t n;
};

static void
collect_writer(void *arg, const struct loaded_plugin *lp, const struct dl_error *broken)
{
	struct writer_names *w = arg;

	if (broken != NULL || lp == NULL || lp->plugin->board == NULL || w->n == 64)
		return;
	strlcpy(w->names[w->n], lp->plugin->name, sizeof w->names[0]);
	strlcpy(w->descriptions[w->n++], lp->plugin->description != NULL ?
	    lp->plugin->description : "", sizeof w->descriptions[0]);
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
static void
put_options(const struct form_field *d, const char *chosen)
{
	for (size_t i = 0; i < d->n_choices; i++) {
		printf("<option value=\"%s\"%s>", d->choices[i].value, chosen != NULL &&
		    strcmp(chosen, d->choices[i].value) == 0 ? " selected" : "");
		put_html(stdout, d->choices[i].words);
		printf("</option>");
	}
}

/* One field of the dealing form: sent is what a request filled it with
 * (NULL: the blank form), whose boxes are as sent when it is the form's
 * own (form=deal), else as the blank form's. */
static void
put_field(int f, const struct cgi_form *sent, const struct form_errors *errs,
    const struct writer_names *w)
{
	const struct form_field *d = &deal_fields[f];
	const struct cgi_field *given = sent != NULL ? cgi_field(sent, d->name) : NULL;
	const char *value = given != NULL && given->filename == NULL ? given->value : d->blank;
	const char *error = field_error_line(errs, f);
	int filled = sent != NULL && cgi_field(sent, "form") != NULL;
	char day[11];

	switch (d->kind) {
	case FIELD_TEXT:
	case FIELD_DATE:
		printf("<label for=\"%s\">%s</label>", d->name, d->label);
		put_error_message(d->name, error);
		/* a date the calendar cannot hold (a day typed wrong, a PBN
		 * date with a part not known) is kept as text, as typed */
		if (d->kind == FIELD_DATE && value != NULL && *value != '\0') {
			const char *iso = date_for_picker(value, day);

			printf("<input type=\"%s\"", iso != NULL ? "date" : "text");
			value = iso != NULL ? iso : value;
		} else
			printf("<input type=\"%s\"", d->kind == FIELD_DATE ? "date" : "text");
		printf(" id=\"%s\" name=\"%s\"", d->name, d->name);
		if (d->limit > 0)
			printf(" maxlength=\"%d\"", d->limit);
		fputs(d->attrs, stdout);
		if (value != NULL && (*value != '\0' || d->blank != NULL))
			put_attr(stdout, "value", value);
		put_invalid(d->name, error);
		printf(">\n");
		break;
	case FIELD_TEXTAREA:
		printf("<label for=\"%s\">%s</label>", d->name, d->label);
		put_error_message(d->name, error);
		printf("<textarea id=\"%s\" name=\"%s\"%s", d->name, d->name, d->attrs);
		put_invalid(d->name, error);
		printf(">");
		if (value != NULL)
			put_html(stdout, value);
		printf("</textarea>\n");
		break;
	case FIELD_CHOICE:
		printf("<label for=\"%s\">%s</label>", d->name, d->label);
		put_error_message(d->name, error);
		printf("<select id=\"%s\" name=\"%s\"", d->name, d->name);
		put_invalid(d->name, error);
		printf(">");
		put_options(d, given != NULL ? given->value : NULL);
		printf("</select>\n");
		break;
	case FIELD_BOX:
		put_error_message(d->name, error);
		printf("<label><input type=\"checkbox\" id=\"%s\" name=\"%s\" value=\"on\"%s", d->name,
		    d->name, (filled ? given != NULL && strcmp(given->value, "on") == 0 :
		    d->blank != NULL) ? " checked" : "");
		put_invalid(d->name, error);
		printf("> %s</label>\n", d->label);
		break;
	case FIELD_FORMATS: {
		int others = 0;

		for (size_t i = 0; i < w->n; i++)
			others |= strcmp(w->names[i], "pdf") != 0 && format_sent(sent, w->names[i]);
		put_error_message(d->name, error);
		printf("<label><input type=\"checkbox\" id=\"formats-pdf\" name=\"%s\""
		    " value=\"pdf\"%s", d->name, (filled ? format_sent(sent, "pdf") :
		    d->blank != NULL) ? " checked" : "");
		put_invalid(d->name, error);
		printf("> %s</label>\n<details%s><summary>Every format</summary>\n<fieldset>"
		    "<legend>Other files</legend>\n", d->label, others || error != NULL ?
		    " open" : "");
		for (size_t i = 0; i < w->n; i++) {
			if (strcmp(w->names[i], "pdf") == 0)
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

/* Where a refused field's input is, for the summary's link to it. */
static const char *
field_anchor(int f)
{
	return f == F_FORMATS ? "formats-pdf" : deal_fields[f].name;
}

/* The page of the form: blank (sent NULL), filled from a query ("Deal
 * another session"), or the form a request filled, with its errors and a
 * summary of them under heading (NULL: the fields to put right). */
static void
put_form_page(const struct cgi_form *sent, const struct form_errors *errs, const char *heading)
{
	struct writer_names w = { .n = 0 };

	plugin_each(collect_writer, &w);
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
static void
form_page(int head_only)
{
	const char *query = getenv("QUERY_STRING");
	struct cgi_form sent = { 0 };
	struct dl_error e;
	int status;

	if (query != NULL && *query != '\0' &&
	    (status = cgi_parse_urlencoded(&sent, query, strlen(query), &limits, &e)) != 0)
		refuse_at(status, "the form's query string", &e);
	head(200, "OK", "text/html; charset=utf-8", NULL);
	if (!head_only)
		put_form_page(sent.n > 0 ? &sent : NULL, NULL, NULL);
	cgi_form_free(&sent);
}

/* The body, as CONTENT_LENGTH says, never more than the limit. */
static char *
read_body(size_t *len)
{
	const char *cl = getenv("CONTENT_LENGTH"), *errstr;
	long long n;
	char *body;
	size_t got = 0;

	if (cl == NULL || *cl == '\0')
		refuse(411, "Length Required", "a request without its length");
	n = strtonum(cl, 0, LLONG_MAX, &errstr);
	if (errstr != NULL)
		refuse_logged(400, "Bad Request", "its length is not a number",
		    "its length is not a number");
	if ((unsigned long long)n > BODY_MAX) {
		/* read and dropped, up to a bound, so that a server that hands
		 * the body on as it comes (fcgiwrap) can give the page, not a
		 * broken pipe */
		char sink[65536];
		unsigned long long left = (unsigned long long)n < (64ull << 20) ? (unsigned long long)n : 0;
		ssize_t r;

		while (left > 0 && ((r = read(STDIN_FILENO, sink, left < sizeof sink ? left :
		    sizeof sink)) > 0 || (r == -1 && errno == EINTR)))
			if (r > 0)
				left -= (unsigned long long)r;
		refuse(413, "Payload Too Large", "a request of %lld bytes: at most %u (a file of"
		    " %u MiB)", n, BODY_MAX, UPLOAD_MAX >> 20);
	}
	body = xmalloc((size_t)n + 1);
	while (got < (size_t)n) {
		ssize_t r = read(STDIN_FILENO, body + got, (size_t)n - got);

		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			refuse(400, "Bad Request", "a request shorter than its length");
		got += (size_t)r;
	}
	body[got] = '\0';
	*len = got;
	return body;
}

/* Who may ask, and from where.  A page of another site can have the
 * director's browser post a form here, with the director's credentials
 * (the set is dealt and recorded in the director's name, and the event's
 * count, the evidence against shopping, forged); a page that points a
 * name of its own at this server (DNS rebinding) can read what it
 * answers.  So the Host must be a name the site is set up for, and a post
 * must come from a page of this site by what the browser says of it
 * (Sec-Fetch-Site, Origin, Referer).  A request with none of those is no
 * browser's (curl, a script) and is taken.  docs/web.md, "Who may post,
 * from where". */

/* How many of the first len bytes of s are in set. */
static size_t
span(const char *s, size_t len, const char *set)
{
	size_t n = 0;

	while (n < len && s[n] != '\0' && strchr(set, s[n]) != NULL)
		n++;
	return n;
}

/* A host as a Host header or DL_WEB_HOSTS names it: a name, or an IPv6
 * address in brackets, and a port or none (-1). */
struct host {
	const char *name;
	size_t len;
	long port;
};

/* host[:port] in the len bytes of s; 0 when they are not one.  A trailing
 * dot names the same host: it is dropped. */
static int
host_parse(const char *s, size_t len, struct host *h)
{
	static const char name_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789-._";
	size_t n, digits;

	if (len > 0 && s[0] == '[') {
		n = 1 + span(s + 1, len - 1, "0123456789abcdefABCDEF:.");
		if (n == 1 || n == len || s[n] != ']')
			return 0;
		h->len = ++n;
	} else {
		n = span(s, len, name_chars);
		h->len = n > 1 && s[n - 1] == '.' ? n - 1 : n;
		if (n == 0 || h->len == 0)
			return 0;
	}
	h->name = s;
	h->port = -1;
	if (n == len)
		return 1;
	if (s[n] != ':')
		return 0;
	digits = span(s + n + 1, len - n - 1, "0123456789");
	if (digits == 0 || digits > 5 || n + 1 + digits != len)
		return 0;
	h->port = 0;
	for (size_t i = n + 1; i < len; i++)
		h->port = h->port * 10 + (s[i] - '0');
	return h->port <= 65535;
}

/* The Host one of the names the site is set up for (DL_WEB_HOSTS, else
 * the loopback's), on every request: else 421. */
static void
check_host(void)
{
	const char *host = getenv("HTTP_HOST"), *list = getenv("DL_WEB_HOSTS");
	struct host h, want;
	int ok, found = 0;

	ok = host != NULL && host_parse(host, strlen(host), &h);
	if (list == NULL || list[strspn(list, " \t\n")] == '\0')
		list = "localhost 127.0.0.1 [::1]";
	for (const char *p = list + strspn(list, " \t\n"); *p != '\0';
	    p += strspn(p, " \t\n")) {
		size_t n = strcspn(p, " \t\n");

		if (!host_parse(p, n, &want))
			refuse_logged(500, "Internal Server Error", "DL_WEB_HOSTS: not a list of"
			    " host[:port]", "the server's list of its names (DL_WEB_HOSTS) cannot"
			    " be read: host names, each with :port or not, separated by spaces");
		if (ok && h.len == want.len && strncasecmp(h.name, want.name, h.len) == 0 &&
		    (want.port == -1 || want.port == h.port))
			found = 1;
		p += n;
	}
	/* no browser sends no Host: HTTP/1.0, a script, a test */
	if (host != NULL && !found)
		refuse_logged(421, "Misdirected Request", "a host name not in DL_WEB_HOSTS",
		    "a request for a host name this server does not answer to: it answers to"
		    " the names DL_WEB_HOSTS lists (localhost, 127.0.0.1 and [::1] unless it"
		    " is set), so that a page of another site cannot reach it under a name of"
		    " its own");
}

/* The host[:port] of an origin (whole: an Origin header) or of a URL
 * (a Referer), http or https; 0 when it has none. */
static int
origin_host(const char *url, int whole, const char **host, size_t *len)
{
	const char *rest;
	struct host h;
	size_t n;

	if (strncasecmp(url, "http://", 7) == 0)
		rest = url + 7;
	else if (strncasecmp(url, "https://", 8) == 0)
		rest = url + 8;
	else
		return 0;
	n = strcspn(rest, "/?#");
	if ((whole && rest[n] != '\0') || !host_parse(rest, n, &h))
		return 0;
	*host = rest;
	*len = n;
	return 1;
}

/* The request's own host and port: an origin's, as the Host says them.
 * The scheme is not compared: a proxy that ends TLS may stand between. */
static int
is_own_host(const char *host, size_t len)
{
	const char *own = getenv("HTTP_HOST");

	return own != NULL && strlen(own) == len && strncasecmp(own, host, len) == 0;
}

/* A post from a page of another site: 403, before the body is read. */
static void
check_same_origin(void)
{
	const char *site = getenv("HTTP_SEC_FETCH_SITE"), *origin = getenv("HTTP_ORIGIN");
	const char *referer = getenv("HTTP_REFERER"), *host;
	size_t len;

	/* "none": the user's own navigation (typed, a bookmark) */
	if (site != NULL && strcmp(site, "same-origin") != 0 && strcmp(site, "none") != 0)
		refuse_logged(403, "Forbidden", "a form posted from another site (Sec-Fetch-Site)",
		    "a form posted from another site: the browser says it comes from a page of"
		    " another site (Sec-Fetch-Site). Deal from this server's own form.");
	if (origin != NULL) {
		/* "null": an origin the browser hides (a data: URL, a
		 * sandboxed frame, a redirect from another site) */
		if (!origin_host(origin, 1, &host, &len))
			refuse_logged(403, "Forbidden", "a form posted from another site (Origin"
			    " hidden or unreadable)", "a form posted from another site: its origin is"
			    " hidden (Origin: null) or cannot be read. Deal from this server's own"
			    " form.");
		if (!is_own_host(host, len))
			refuse_logged(403, "Forbidden", "a form posted from another site (Origin)",
			    "a form posted from another site: its origin is not this server"
			    " (Origin). Deal from this server's own form.");
	} else if (referer != NULL &&
	    (!origin_host(referer, 0, &host, &len) || !is_own_host(host, len)))
		refuse_logged(403, "Forbidden", "a form posted from another site (Referer)",
		    "a form posted from another site: the page it was posted from is not this"
		    " server's (Referer). Deal from this server's own form.");
}

/* The private directory: mode 0700, removed at the end whatever the end. */
static void
make_workdir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/dl-web.XXXXXX", tmp != NULL && *tmp == '/' ? tmp : "/tmp");

	if (mkdtemp(dir) == NULL)
		refuse_logged(500, "Internal Server Error", "no private directory",
		    "no private directory: %s", strerror(errno));
	workdir = dir;
	cleanup_add_dir(dir);
}

static char *
work_file(const char *name)
{
	char *path = xasprintf("%s/%s", workdir, name);

	cleanup_add_file(path);
	return path;
}

/* A file name the director chooses: letters, digits, . _ -, not
 * beginning with a dot, so that it names a file in the directory and
 * nothing else. */
static int
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
static void
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

/* The double-dummy analysis runs on as many requests at once as there are
 * cores: a slot is a lock on one of that many files; none free, 503. */
static int analysis_slot = -1;

/* The folder of the slots' lock files: DL_WEB_LOCKS, else dl-web-locks
 * beside the archive when it is a file (a folder of the server user's own,
 * made private as the archive makes it), else in the user's state folder.
 * Never in a shared TMPDIR, where another user could make it first and so
 * hold every analysis off. */
static char *
locks_folder(void)
{
	const char *env = getenv("DL_WEB_LOCKS"), *state, *home;
	struct dl_error e;
	char *spec, *slash, *locks;

	if (env != NULL && *env == '/')
		return xstrdup(env);
	if (archive_default(&spec, &e) == 0) {
		if (strncmp(spec, "postgresql://", 13) != 0 && strncmp(spec, "postgres://", 11) != 0 &&
		    strncmp(spec, "pg:", 3) != 0) {
			slash = strrchr(spec, '/');
			locks = slash != NULL ? xasprintf("%.*s/dl-web-locks", (int)(slash - spec),
			    spec) : xstrdup("dl-web-locks");
			free(spec);
			return locks;
		}
		free(spec);
	}
	if ((state = getenv("XDG_STATE_HOME")) != NULL && *state == '/')
		return xasprintf("%s/dl/dl-web-locks", state);
	if ((home = getenv("HOME")) != NULL && *home == '/')
		return xasprintf("%s/.local/state/dl/dl-web-locks", home);
	refuse_logged(500, "Internal Server Error", "the analysis's lock folder: no place for it",
	    "the analysis's lock folder has no place: the server's administrator must set"
	    " DL_WEB_LOCKS (docs/web.md)");
}

/* A slot, or 0 when every one is held.  A folder that cannot be made, or
 * that is not the server user's own (another user's, writable by others,
 * a link) is the server's fault, a 500 that says so: not a busy 503 that
 * would last for ever. */
static int
take_analysis_slot(void)
{
	char *locks = locks_folder();
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	struct dl_error e;
	struct stat st;

	if (make_private_parents(locks, &e) == -1 || (mkdir(locks, 0700) == -1 && errno != EEXIST))
		refuse_logged(500, "Internal Server Error", "the analysis's lock folder cannot"
		    " be made", "the analysis's lock folder cannot be made: %s", strerror(errno));
	if (lstat(locks, &st) == -1)
		refuse_logged(500, "Internal Server Error", "the analysis's lock folder cannot"
		    " be read", "the analysis's lock folder cannot be read: %s", strerror(errno));
	if (!S_ISDIR(st.st_mode))
		refuse_logged(500, "Internal Server Error", "the analysis's lock folder is not"
		    " a folder", "the analysis's lock folder is not a folder (a link, or a"
		    " file): the server's administrator must remove it (docs/web.md)");
	if (st.st_uid != geteuid())
		refuse_logged(500, "Internal Server Error", "the analysis's lock folder is"
		    " another user's", "the analysis's lock folder is another user's: the"
		    " server's administrator must remove it, or set DL_WEB_LOCKS (docs/web.md)");
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		refuse_logged(500, "Internal Server Error", "the analysis's lock folder is"
		    " writable by others", "the analysis's lock folder is writable by other"
		    " users: the server's administrator must make it the server's alone"
		    " (docs/web.md)");
	for (long i = 0; i < (cores > 0 ? cores : 1); i++) {
		char *path = xasprintf("%s/slot%ld", locks, i);
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

		free(path);
		if (fd == -1)
			refuse_logged(500, "Internal Server Error", "the analysis's lock file"
			    " cannot be opened", "the analysis's lock file cannot be opened: %s",
			    strerror(errno));
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			analysis_slot = fd;	/* held until the process ends */
			break;
		}
		close(fd);
	}
	free(locks);
	return analysis_slot != -1;
}

/* The choice a field of choices sent (NULL: none sent, or empty); a value
 * not in its table is the field's error, refused (logged: a literal). */
static const struct club_choice *
choice_sent(const struct cgi_form *form, int f, const char *logged, const char *refused,
    struct form_errors *errs)
{
	const struct form_field *d = &deal_fields[f];
	const struct cgi_field *given = cgi_field(form, d->name);

	if (given == NULL || given->filename != NULL || given->len == 0)
		return NULL;
	for (size_t i = 0; i < d->n_choices; i++)
		if (strcmp(given->value, d->choices[i].value) == 0)
			return &d->choices[i];
	field_error(errs, f, logged, 1, "%s", refused);
	return NULL;
}

/* The formats asked for, once each: given once a format, or
 * comma-separated, or both, and the machine's and the scoring program's;
 * -1 when they are refused (errs says why). */
static int
chosen_formats(const struct cgi_form *form, struct format_list *list, struct form_errors *errs)
{
	struct dl_error e;
	char *text = xstrdup("");
	size_t before = errs->n;

	for (size_t i = 0; i < form->n; i++) {
		if (strcmp(form->fields[i].name, deal_fields[F_FORMATS].name) != 0 ||
		    form->fields[i].filename != NULL || form->fields[i].len == 0)
			continue;
		char *more = xasprintf("%s%s%s", text, *text ? "," : "", form->fields[i].value);
		free(text);
		text = more;
	}
	/* the dealing machine's and the scoring program's, as the club
	 * names them */
	const struct club_choice *chosen[2] = {
		choice_sent(form, F_MACHINE, "machine", "not one this page offers", errs),
		choice_sent(form, F_SCORING, "scoring", "not one this page offers", errs),
	};
	for (size_t i = 0; i < 2; i++)
		if (chosen[i] != NULL && chosen[i]->format != NULL) {
			char *more = xasprintf("%s%s%s", text, *text ? "," : "", chosen[i]->format);

			free(text);
			text = more;
		}
	if (errs->n > before) {
		free(text);
		return -1;
	}
	if (*text == '\0') {
		/* the form sent, with nothing chosen: said, not guessed */
		if (cgi_field(form, "form") != NULL) {
			field_error(errs, F_FORMATS, "the formats: none chosen", 0, "no file chosen:"
			    " choose the dealing machine, the scoring program, the hand record to"
			    " print, or a format under \"Every format\"");
			free(text);
			return -1;
		}
		/* a script that names none: PBN and the PDF hand record */
		free(text);
		text = xstrdup("pbn,pdf");
	}
	if (format_list_parse(text, list, &e) == -1) {
		field_error(errs, F_FORMATS, "the formats", 0, "%s", e.msg);
		free(text);
		return -1;
	}
	free(text);
	for (size_t i = 0; i < list->n; i++) {
		struct loaded_plugin lp;

		if (plugin_load(list->names[i], &lp, &e) == -1) {
			field_error(errs, F_FORMATS, "the formats: one not here", 0,
			    "no format %s here", list->names[i]);
			return -1;
		}
		if (lp.plugin->board == NULL && lp.plugin->end == NULL)
			field_error(errs, F_FORMATS, "the formats: one dl reads only", 0,
			    "%s is a format dl reads, not one it writes", list->names[i]);
		plugin_unload(&lp);
		if (errs->n > before)
			return -1;
	}
	return 0;
}

/* A request the dealing form's fields refuse: a script (no form=deal) is
 * answered the first refusal's one line; the form itself, with status,
 * the form again, every field holding what was sent, each refused one
 * marked and its error beside it, and a summary at the top (heading: NULL,
 * the fields to put right).  The log: what was refused, literals only. */
static void __attribute__((noreturn))
refuse_fields(int status, const char *reason, const struct cgi_form *form,
    const struct form_errors *errs, const char *heading)
{
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

/* A value in a query string: RFC 3986's unreserved bytes as they are,
 * every other as %XX. */
static void
put_query_value(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++)
		if (isascii((unsigned char)*s) && (isalnum((unsigned char)*s) || strchr("-._~", *s)))
			fputc(*s, fp);
		else
			fprintf(fp, "%%%02X", (unsigned char)*s);
}

/* "Deal another session": the form's address, with this session's fields
 * (those the table marks again) as its query, so that the form opens
 * filled; never the entropy, the seed or the files' name. */
static void
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

static void
add_format(struct format_list *list, const char *name)
{
	for (size_t i = 0; i < list->n; i++)
		if (strcmp(list->names[i], name) == 0)
			return;
	list->names = xreallocarray(list->names, list->n + 1, sizeof *list->names);
	list->names[list->n++] = xstrdup(name);
}

/* The zip as libarchive writes it: a block that grows, wiped when it
 * moves (the seed is in it). */
struct zip_buffer {
	unsigned char *data;
	size_t len, cap;
};

static la_ssize_t
zip_append(struct archive *z, void *arg, const void *data, size_t len)
{
	struct zip_buffer *b = arg;

	(void)z;
	if (len > b->cap - b->len) {
		size_t cap = b->cap != 0 ? b->cap : 1u << 16;

		while (len > cap - b->len)
			cap *= 2;
		b->data = grow_wiped(b->data, b->len, b->cap, cap, 1);
		b->cap = cap;
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return (la_ssize_t)len;
}

/* The files of the set, zipped in memory (libarchive). */
static void *
zip_files(char *const *paths, const char *const *names, size_t n, size_t *size)
{
	struct archive *z = archive_write_new();
	struct zip_buffer b = { NULL, 0, 0 };
	int ok = archive_write_set_format_zip(z) == ARCHIVE_OK &&
	    archive_write_open2(z, &b, NULL, zip_append, NULL, NULL) == ARCHIVE_OK;

	for (size_t i = 0; i < n && ok; i++) {
		struct archive_entry *entry = archive_entry_new();
		FILE *fp = fopen(paths[i], "r");
		char chunk[65536];
		size_t got;
		struct stat st;

		if (fp == NULL || fstat(fileno(fp), &st) == -1)
			ok = 0;
		else {
			archive_entry_set_pathname(entry, names[i]);
			archive_entry_set_size(entry, st.st_size);
			archive_entry_set_filetype(entry, AE_IFREG);
			archive_entry_set_perm(entry, 0600);
			archive_entry_set_mtime(entry, st.st_mtime, 0);
			ok = archive_write_header(z, entry) == ARCHIVE_OK;
			while (ok && (got = fread(chunk, 1, sizeof chunk, fp)) > 0)
				ok = archive_write_data(z, chunk, got) == (la_ssize_t)got;
			ok = ok && !ferror(fp);
			sodium_memzero(chunk, sizeof chunk);
		}
		if (fp != NULL)
			fclose(fp);
		archive_entry_free(entry);
	}
	if (ok)
		ok = archive_write_close(z) == ARCHIVE_OK;
	archive_write_free(z);
	if (!ok) {
		if (b.data != NULL)
			sodium_memzero(b.data, b.cap);
		free(b.data);
		refuse(500, "Internal Server Error", "the zip could not be made");
	}
	*size = b.len;
	return b.data;
}

/* How many sets the archive holds of this event: dealing again and again
 * until a set pleases shows. */
static int64_t
sets_of_event(const char *event)
{
	struct archive *a;
	struct dl_error e;
	char *spec;
	int64_t n = 0;

	if (event == NULL || archive_default(&spec, &e) == -1)
		return 0;
	if (archive_open(&a, spec, 0, &e) == 0) {
		archive_count_event(a, event, &n, &e);
		archive_close(a);
	}
	free(spec);
	return n;
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
static void
put_data_link(const char *type, const char *name, const void *data, size_t len)
{
	printf("<a");
	put_attr(stdout, "download", name);
	printf(" href=\"data:%s;base64,", type);
	put_base64(stdout, data, len);
	printf("\">");
}

/* A file of the private directory, whole, in memory (wiped by the
 * caller: a hand record holds the deals), with a NUL after it. */
static char *
read_work_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	struct stat st;
	char *data;

	if (fp == NULL || fstat(fileno(fp), &st) == -1)
		refuse(500, "Internal Server Error", "a file of the answer is missing");
	data = xmalloc((size_t)st.st_size + 1);
	*len = fread(data, 1, (size_t)st.st_size, fp);
	if (ferror(fp) || *len != (size_t)st.st_size)
		refuse(500, "Internal Server Error", "a file of the answer could not be read");
	fclose(fp);
	data[*len] = '\0';
	return data;
}

/* The html hand record at path as the page, with above it what the
 * director needs (aside(arg) writes it: links, not printed). */
static void
put_hand_record_page(const char *path, const char *label, void (*aside)(void *arg), void *arg)
{
	size_t page_len;
	char *page = read_work_file(path, &page_len);
	char *body = strstr(page, "<body");
	char *after = body != NULL ? strchr(body, '>') : NULL;

	if (after == NULL)
		refuse(500, "Internal Server Error", "the hand record has no body");
	after++;
	head(200, "OK", "text/html; charset=utf-8", NULL);
	fwrite(page, 1, (size_t)(after - page), stdout);
	printf("\n<style>.dl-web { font-family: 'DejaVu Sans', sans-serif; background: #fffbe6;"
	    " border: 1px solid #c9b458; margin: 8px; padding: 8px 12px; }"
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
static char *
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

/* What the page of a set dealt says above its hand record. */
struct dealt_aside {
	const struct cgi_form *form;
	const char *event, *prefix;
	int64_t set_id, dealt;
	const void *zip;
	size_t zip_size;
	const char *seed_name, *seed_text;
	size_t seed_len;
};

static void
put_dealt_aside(void *arg)
{
	const struct dealt_aside *d = arg;
	char *zip_name = xasprintf("%s.zip", d->prefix);

	printf("<p>Recorded as set %lld of the archive of every set dealt here",
	    (long long)d->set_id);
	if (d->event != NULL) {
		printf(": %lld set%s dealt for ", (long long)d->dealt, d->dealt == 1 ? "" : "s");
		put_html(stdout, d->event);
	}
	printf(".</p>\n<p>");
	put_data_link("application/zip", zip_name, d->zip, d->zip_size);
	printf("Download the files (");
	put_html(stdout, zip_name);
	printf(": for the dealing machine, the scoring program and the printer)</a>."
	    " Print this page for the hand record.</p>\n<p>");
	put_data_link("text/plain", d->seed_name, d->seed_text, d->seed_len);
	printf("Download the seed (");
	put_html(stdout, d->seed_name);
	printf(")</a>: <strong>keep it apart, and secret, until the session is"
	    " played.</strong> It makes every board of the set again, for a check"
	    " afterwards; whoever has it before the session knows the hands.</p>\n");
	put_again_link(d->form);
	printf("<form method=\"post\"><input type=\"hidden\" name=\"action\" value=\"played\">"
	    "<input type=\"hidden\" name=\"set\" value=\"%lld\"><button type=\"submit\">"
	    "After the session: mark set %lld played</button></form>\n",
	    (long long)d->set_id, (long long)d->set_id);
	free(zip_name);
}

static void
deal(const struct cgi_form *form)
{
	const char *event = deal_value(form, F_EVENT), *site = deal_value(form, F_SITE);
	const char *date = deal_value(form, F_DATE), *session_no = deal_value(form, F_SESSION);
	const char *boards = deal_value(form, F_BOARDS), *entropy = deal_value(form, F_ENTROPY);
	const char *prefix = deal_value(form, F_PREFIX), *dd = deal_value(form, F_DD);
	const char *download = text_field(form, "download");
	struct form_errors errs = { .n = 0 };
	struct format_list list = { 0 };
	struct board_range r;
	struct dl_error e;
	const char *why;
	char *full_event = NULL, date_pbn[DATE_PBN_SIZE];

	/* every field read and checked, each refusal its field's */
	if (prefix != NULL && !prefix_is_valid(prefix))
		field_error(&errs, F_PREFIX, "the file name (prefix)", 1, "letters, digits, '.',"
		    " '_' and '-' only, at most %d, not beginning with '.' or '-'", PREFIX_MAX);
	if (session_no != NULL) {
		const char *errstr;
		long long n = strtonum(session_no, 1, 9999, &errstr);

		if (errstr != NULL)
			field_error(&errs, F_SESSION, "the session", 1, "a number from 1 to 9999");
		else {
			full_event = event != NULL ? xasprintf("%s, session %lld", event, n) :
			    xasprintf("Session %lld", n);
			event = full_event;
		}
	}
	if (event != NULL && event_text_check(event, &e) == -1)
		field_error(&errs, F_EVENT, "the event", 1, "%s", e.msg);
	if (site != NULL && event_text_check(site, &e) == -1)
		field_error(&errs, F_SITE, "the site", 1, "%s", e.msg);
	if (date != NULL) {
		if (date_typed_to_pbn(date, date_pbn, &e) == -1) {
			field_error(&errs, F_DATE, "the date", 1, "%s", e.msg);
			date = NULL;
		} else
			date = date_pbn;
	}
	int boards_ok = 0;
	if (board_range_parse_typed(boards != NULL ? boards : "1-32", &r, &why) == -1)
		field_error(&errs, F_BOARDS, "the boards", 1, "%s; at most %d boards", why,
		    BOARDS_MAX);
	else if (r.high - r.low + 1 > BOARDS_MAX)
		field_error(&errs, F_BOARDS, "the boards: more than a session", 0,
		    "%u boards: at most %d a request (a session)", r.high - r.low + 1, BOARDS_MAX);
	else
		boards_ok = 1;
	const struct club_choice *paper = choice_sent(form, F_PAPER, "the paper", "a4 or letter",
	    &errs);
	const struct club_choice *per_page = choice_sent(form, F_PER_PAGE, "the boards a page",
	    "6, 4 or 1", &errs);
	struct format_list all = { 0 };
	if (chosen_formats(form, &list, &errs) == 0) {
		for (size_t i = 0; i < list.n; i++)
			add_format(&all, list.names[i]);
		/* the page is the html hand record; a zip alone needs none */
		if (download == NULL || strcmp(download, "zip") != 0)
			add_format(&all, "html");
		/* a format that cannot hold the boards refuses them before
		 * anything is dealt or recorded */
		for (size_t i = 0; i < all.n && boards_ok; i++) {
			struct loaded_plugin lp;

			if (plugin_load(all.names[i], &lp, &e) == -1)
				field_error(&errs, F_FORMATS, "the formats: one not here", 0, "%s",
				    e.msg);
			else {
				if (writer_holds(lp.plugin, r.high, 0, &e) == -1)
					field_error(&errs, F_BOARDS, "the boards: more than a format"
					    " holds", 0, "%s", e.msg);
				plugin_unload(&lp);
			}
		}
	}
	if (errs.n > 0)
		refuse_fields(400, "Bad Request", form, &errs, NULL);

	/* no name given: the event's and the date's */
	char derived_prefix[PREFIX_MAX + 1];
	if (prefix == NULL) {
		file_name_of_event(event, date, derived_prefix);
		prefix = derived_prefix;
	}
	setenv("PAPERSIZE", paper != NULL ? paper->value : "a4", 1);
	setenv("DL_PER_PAGE", per_page != NULL ? per_page->value : "6", 1);
	int analysis = dd != NULL && strcmp(dd, "on") == 0;
	if (analysis && !take_analysis_slot()) {
		/* the form again, as it was sent, to press again or to deal
		 * without the analysis */
		field_error(&errs, F_DD, "every core is analysing another session: try again in half"
		    " a minute, or deal without the analysis", 0, "every core is analysing another"
		    " session: try again in half a minute, or deal without the analysis");
		refuse_fields(503, "Service Unavailable", form, &errs, "Nothing was dealt yet: the"
		    " server is busy");
	}

	make_workdir();
	char *base = work_file(prefix);
	/* every file the writers publish, and the seed and the zip */
	char *paths[66];
	const char *names[66];
	size_t nfiles = 0;
	int html_asked = 0;
	for (size_t i = 0; i < list.n; i++)
		html_asked |= strcmp(list.names[i], "html") == 0;
	for (size_t i = 0; i < all.n && nfiles < 64; i++) {
		char *name;
		char *path = format_work_file(all.names[i], prefix, &name);

		/* the html is the page, and the zip's only when asked for */
		if (strcmp(all.names[i], "html") == 0 && !html_asked) {
			free(path);
			free(name);
			continue;
		}
		paths[nfiles] = path;
		names[nfiles++] = name;
	}

	struct session s = {
		.formats = &all, .event = event, .site = site, .date = date, .boards = r,
		.analysis = analysis, .analyser = &session_dl_dd, .record = 1, .where = "dl-web", .keep_seed = 1,
	};
	s.wo.prefix = base;
	s.wo.publish = PUBLISH_NEW;
	s.wo.threads = 1;
	/* zipped and removed before the answer: no fsync forces the deals
	 * onto a disk (docs/web.md: TMPDIR best in memory all the same) */
	s.wo.scratch = 1;
	s.source.os = 1;
	s.source.no_history = 1;	/* each request is a process of its own */
	unsigned char owner[20] = { 0 };
	/* this set among those of its event: the ones before, and itself.
	 * The archive adds the set only if that is still so when it does
	 * (another request for the event may come in between): else the set,
	 * which nobody has seen, is dealt again, with the archive locked from
	 * the count to the commit, when no other can come in between. */
	int64_t dealt = 0;
	for (int tries = 1;; tries++) {
		s.count_locked = tries > 1 && event != NULL;
		if (entropy != NULL) {
			/* the director's text, Big Deal's way, beside the OS's
			 * (seed_make takes the pool) */
			s.source.generator = &generator_bigdeal;
			s.source.entropy = entropy_new();
			entropy_add_string(s.source.entropy, entropy);
		} else
			s.source.generator = &generator_dl256;
		if (s.source.generator->owner_bytes != 0) {
			owner_from_identification(NULL, owner);
			s.owner = owner;
		}
		s.sets_of_event = event != NULL && !s.count_locked ? sets_of_event(event) + 1 : 0;
		if (session_deal(&s, &e) == 0) {
			dealt = s.sets_of_event;
			break;
		}
		if (e.kind == DL_ERR_CHECK && event != NULL && tries == 1)
			continue;
		/* what the request asked that cannot be (a format that holds
		 * fewer boards) is the request's fault; anything else the
		 * server's */
		refuse_at(e.kind == DL_ERR_INPUT || e.kind == DL_ERR_USAGE ? 400 : 500,
		    "dealing the set", &e);
	}

	/* The seed, which regenerates the set.  The page gives it as its own
	 * download, apart from the zip a volunteer copies whole onto the
	 * dealing machine's stick (FAT keeps no permissions); a zip asked for
	 * alone (download=zip, a script's) holds it, the one answer there
	 * is. */
	int zip_alone = download != NULL && strcmp(download, "zip") == 0;
	char *seed_name = xasprintf("%s.seed", prefix);
	char *seed_text = NULL;
	size_t seed_len = 0;
	FILE *fp = open_memstream(&seed_text, &seed_len);
	if (fp == NULL)
		refuse(500, "Internal Server Error", "the seed could not be written");
	seed_stream_write(fp, s.seed, event, site, date, s.bits, 0);
	if (fclose(fp) != 0)
		refuse(500, "Internal Server Error", "the seed could not be written");
	secret_free(s.seed);
	if (zip_alone) {
		char *seed_path = work_file(seed_name);
		int fd = open(seed_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		if (fd == -1 || write(fd, seed_text, seed_len) != (ssize_t)seed_len || close(fd) != 0)
			refuse(500, "Internal Server Error", "the seed could not be written");
		paths[nfiles] = seed_path;
		names[nfiles++] = xstrdup(seed_name);
	}

	size_t zip_size;
	void *zip = zip_files(paths, names, nfiles, &zip_size);

	if (zip_alone) {
		char *disposition = xasprintf("Content-Disposition: attachment; filename=\"%s.zip\"\r\n"
		    "Content-Length: %zu\r\n", prefix, zip_size);
		head(200, "OK", "application/zip", disposition);
		free(disposition);
		fwrite(zip, 1, zip_size, stdout);
	} else {
		/* the hand record as the page, with what the director needs
		 * above it (not printed) */
		struct dealt_aside d = {
			.form = form, .event = event, .prefix = prefix, .set_id = s.set_id,
			.dealt = dealt, .zip = zip, .zip_size = zip_size, .seed_name = seed_name,
			.seed_text = seed_text, .seed_len = seed_len,
		};
		char *html_path = xasprintf("%s.html", base);

		put_hand_record_page(html_path, "This set", put_dealt_aside, &d);
		free(html_path);
	}
	sodium_memzero(zip, zip_size);
	free(zip);
	sodium_memzero(seed_text, seed_len);
	free(seed_text);
	free(seed_name);
	for (size_t i = 0; i < nfiles; i++) {
		free(paths[i]);
		free((char *)names[i]);
	}
	free(base);
	format_list_free(&list);
	format_list_free(&all);
	free(full_event);
}

/* check */

struct check_page {
	size_t hits;
	struct archive *a;
	unsigned *board_numbers;
	struct archive_verdict verdict;
	/* the club's own set of the hits last shown: whether and when it
	 * was played, asked of the club's archive once a set */
	int64_t set;
	int set_played;
	char played[ARCHIVE_TIME_SIZE];
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
		put_html(stdout, hit->club != NULL ? hit->club : "");
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
		printf("here, ");
		put_html(stdout, c->played);
	} else if (c->set_played == 0)
		printf("<strong>not yet: dealt here</strong>");
}

static int
put_hit(size_t index, const struct archive_hit *hit, void *arg)
{
	struct check_page *c = arg;

	archive_verdict_add(&c->verdict, index, hit);
	if (c->hits++ == 0)
		printf("<div class=\"wide\">\n<table>\n<caption>Boards seen before</caption>\n<tr><th scope=\"col\">Board"
		    "</th><th scope=\"col\">How</th><th scope=\"col\">Set</th><th scope=\"col\">"
		    "Its board</th><th scope=\"col\">Event</th><th scope=\"col\">Date</th>"
		    "<th scope=\"col\">Played</th></tr>\n");
	/* a set of the federation's shared archive, or of this club's own */
	printf("<tr><td>%u</td><td>%s</td><td>%s%lld</td><td>",
	    c->board_numbers[index], archive_match_kind(hit->match)->words,
	    hit->shared ? "shared&nbsp;" : "", (long long)hit->set);
	/* a shared archive's hit of one hand names its set alone, and no
	 * words (docs/archive.md, "Privacy") */
	if (hit->board != 0)
		printf("%u", hit->board);
	printf("</td><td>");
	put_html(stdout, hit->event != NULL ? hit->event : "");
	printf("</td><td>");
	put_html(stdout, hit->date != NULL ? hit->date : "");
	printf("</td><td>");
	put_played(c, hit);
	printf("</td></tr>\n");
	return 0;
}

/* What an uploaded file is for, in the server's log ("the file to
 * check: not read"): each a literal. */
struct upload_words {
	const char *none;		/* no file sent */
	const char *unknown;		/* not of a format dl reads */
	const char *unread;		/* its reader refused it */
};

static const struct upload_words check_upload = {
	"no file to check", "the file to check: not of a format dl reads",
	"the file to check: not read",
};

/* A file that cannot be read: its reader's message, which names the file
 * by its own name (set_input's label, never the server's private path),
 * and no advice for a command line. */
static void __attribute__((noreturn))
refuse_upload(const struct dl_error *e, const char *label, const struct upload_words *w)
{
	if (strstr(e->msg, "cannot tell its format") != NULL)
		refuse_logged(400, "Bad Request", w->unknown,
		    "%s: not a file of a format dl reads (PBN, LIN, DUP, BRI, DGE, ...)", label);
	if (strstr(e->msg, label) == NULL)
		refuse_logged(400, "Bad Request", w->unread, "%s: %s", label, e->msg);
	refuse_logged(400, "Bad Request", w->unread, "%s", e->msg);
}

/* The file uploaded in the field "file", read as dl-archive reads a file,
 * by the same code (lib/session/set_input.c: a dl stream with its
 * headers, any other format through the reader plugins), its boards into
 * *u; refused (w's words in the log) when there is none or it cannot be
 * read, named by the name it was uploaded with.  It is kept for the
 * reading in the private directory, under a name of the server's own
 * (its suffix, if a plain one, saying its format): that path, the
 * caller's to free, set_input_free(in) and set_boards_free(u) after. */
static char *
read_upload(const struct cgi_form *form, const struct upload_words *w, struct set_input *in,
    struct set_boards *u)
{
	const struct cgi_field *file = cgi_field(form, "file");
	struct dl_error e;
	const char *dot;
	char *name;

	if (file == NULL || file->filename == NULL || file->len == 0)
		refuse_logged(400, "Bad Request", w->none, "%s", w->none);
	make_workdir();
	dot = strrchr(file->filename, '.');
	if (dot != NULL && strlen(dot + 1) >= 1 && strlen(dot + 1) <= 8 &&
	    strspn(dot + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") ==
	    strlen(dot + 1))
		name = xasprintf("upload.%s", dot + 1);
	else
		name = xstrdup("upload");
	char *path = work_file(name);
	free(name);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd == -1 || write(fd, file->value, file->len) != (ssize_t)file->len || close(fd) != 0)
		refuse(500, "Internal Server Error", "the file could not be kept to be read");
	*in = (struct set_input){ .path = path, .shown = file->filename, .board = set_boards_take,
	    .arg = u };
	if (set_input_read(in, &e) == -1)
		refuse_upload(&e, in->label, w);
	return path;
}

/* The federation's archive could not be opened: its cause (a host, a
 * port) to the server's log only, the page plain. */
static void __attribute__((noreturn))
shared_unreachable(const struct dl_error *e, const char *words)
{
	tool_warn("the shared archive: %s", e->msg);
	refuse_logged(503, "Service Unavailable", "the shared archive could not be opened", "%s",
	    words);
}

static void
check(const struct cgi_form *form)
{
	const struct cgi_field *file = cgi_field(form, "file");
	struct dl_error e;
	struct set_boards u = { 0 };
	struct set_input in;
	struct archive *a, *shared = NULL;
	char *spec, *shared_spec;
	/* read as dl-archive check reads a file: the same code */
	char *path = read_upload(form, &check_upload, &in, &u);

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
			shared_unreachable(&e, "the shared archive could not be read: the file was not"
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
	struct check_page c = { .a = a, .board_numbers = u.numbers };
	if (archive_check_both(a, shared, (const unsigned char (*)[CARDS])u.owner, u.n, self, 0,
	    put_hit, &c, &e) == -1) {
		printf("<p>The archive could not be read: ");
		put_html(stdout, e.msg);
		printf("</p>\n");
	} else if (c.hits == 0)
		printf("<p>No board of it was seen before.</p>\n");
	else {
		/* the verdict, by the archive's one rule: a hand held before
		 * by chance is listed, but is no board dealt before */
		printf("</table>\n</div>\n");
		if (c.verdict.dealt_before > 0)
			printf("<p><strong>Dealt before: %zu of its %zu boards.</strong></p>\n",
			    c.verdict.dealt_before, u.n);
		else
			printf("<p><strong>None of its %zu boards was dealt before</strong>: the"
			    " hands above were held before by chance, as one in a session is"
			    " in a large archive.</p>\n", u.n);
	}
	page_end();
	if (a != NULL)
		archive_close(a);
	if (shared != NULL)
		archive_close(shared);
	set_input_free(&in);
	set_boards_free(&u);
	free(path);
}

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

static void
record(const struct cgi_form *form)
{
	const char *dd = text_field(form, "dd");
	struct form_errors errs = { .n = 0 };
	const struct club_choice *paper = choice_sent(form, F_PAPER, "the paper", "a4 or letter",
	    &errs);
	const struct club_choice *per_page = choice_sent(form, F_PER_PAGE, "the boards a page",
	    "6, 4 or 1", &errs);
	struct format_list formats = { 0 };
	struct set_boards u = { 0 };
	struct set_input in;
	struct dl_error e;
	char prefix[PREFIX_MAX + 1], date[DATE_PBN_SIZE];

	if (errs.n > 0)
		refuse_logged(400, "Bad Request", errs.e[0].logged, "%s", errs.e[0].line);
	/* read as check reads a file: the same code and limits */
	char *upload = read_upload(form, &record_upload, &in, &u);
	if (u.n > BOARDS_MAX)
		refuse_logged(400, "Bad Request", "the file for a hand record: more than a session",
		    "%s: %zu boards: a hand record of at most %d (a session)", in.label, u.n,
		    BOARDS_MAX);
	int analysis = dd != NULL && strcmp(dd, "on") == 0;
	if (analysis && !take_analysis_slot())
		refuse_logged(503, "Service Unavailable", "every core is analysing another session",
		    "every core is analysing another session: try again in half a minute, or"
		    " make the hand record without the analysis");
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
	if (session_hand_record(&h, &e) == -1) {
		/* boards not in a row: the file's; anything else the server's */
		if (e.kind == DL_ERR_INPUT)
			refuse_logged(400, "Bad Request", "the file for a hand record: not made",
			    "%s: %s", in.label, e.msg);
		refuse_at(500, "the hand record of a file", &e);
	}
	size_t pdf_len;
	char *pdf = read_work_file(pdf_path, &pdf_len);
	struct record_aside r = {
		.filename = cgi_field(form, "file")->filename, .boards = u.n,
		.analysis = analysis, .pdf_name = pdf_name, .pdf = pdf, .pdf_len = pdf_len,
	};
	put_hand_record_page(html_path, "This hand record", put_record_aside, &r);
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

/* played */

static int
put_sent(const struct archive_sent *sent, void *arg)
{
	(void)arg;
	printf("<p>Set %lld is in the federation's shared archive, as its set %lld%s.</p>\n",
	    (long long)sent->local_id, (long long)sent->shared_id,
	    sent->already ? " (it was there already)" : "");
	return 0;
}

/* A set marked played, and every set played sent to the federation's
 * shared archive when one is named (DL_SHARED_ARCHIVE), as the club
 * DL_CLUB names: the page says what happened to each. */
static void
played(const struct cgi_form *form)
{
	const char *set = text_field(form, "set"), *errstr = NULL;
	const char *club = getenv("DL_CLUB");
	struct archive *a, *shared;
	struct dl_error e;
	char *spec, *shared_spec, *user;
	int shared_named;
	long long id = set != NULL ? strtonum(set, 1, INT64_MAX, &errstr) : 0;
	size_t sent;

	if (set == NULL || errstr != NULL)
		refuse(400, "Bad Request", "the set played: a set's number, as the hand record"
		    " gives it");
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
		refuse(400, "Bad Request", "no set %lld in the archive of sets dealt here", id);
	}
	free(user);
	head(200, "OK", "text/html; charset=utf-8", NULL);
	page_begin("Played");
	printf("<p>Set %lld is marked played.</p>\n", id);
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

int
main(int argc, char *argv[])
{
	const char *method;
	struct cgi_form form = { 0 };
	int status;

	tool_start();
	tool_sodium_init();
	if (argc > 1) {
		if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
			usage(stdout, 0);
		usage(stderr, EXIT_TROUBLE);
	}
	if ((method = getenv("REQUEST_METHOD")) == NULL)
		tool_fail(DL_ERR_USAGE, "a CGI program: run by a web server (docs/web.md), or with"
		    " REQUEST_METHOD and the others set");
	umask(077);
	atexit(remove_workdir);
	/* a request whose client went away is not told so (the server tells
	 * a CGI nothing): its analysis, here or in dl-dd, which inherits the
	 * limit, ends after DL_WEB_CPU seconds of work all the same */
	{
		const char *cpu = getenv("DL_WEB_CPU"), *errstr = NULL;
		long long seconds = cpu != NULL ? strtonum(cpu, 1, 86400, &errstr) : 300;
		struct rlimit rl = { (rlim_t)(errstr == NULL ? seconds : 300),
		    (rlim_t)(errstr == NULL ? seconds : 300) + 5 };

		setrlimit(RLIMIT_CPU, &rl);
	}
	check_host();
	if (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0)
		form_page(strcmp(method, "HEAD") == 0);
	else if (strcmp(method, "POST") == 0) {
		size_t len;

		/* before a byte of the body is read, or anything dealt */
		check_same_origin();
		char *body = read_body(&len);
		struct dl_error e;

		status = cgi_parse_body(&form, getenv("CONTENT_TYPE"), body, len, &limits, &e);
		sodium_memzero(body, len);
		free(body);
		if (status != 0)
			refuse_at(status, "the form's body", &e);
		const char *action = text_field(&form, "action");
		if (action != NULL && strcmp(action, "check") == 0) {
			request_step = "the check of a file";
			check(&form);
		} else if (action != NULL && strcmp(action, "record") == 0) {
			request_step = "a hand record of a file";
			record(&form);
		} else if (action != NULL && strcmp(action, "played") == 0) {
			request_step = "a set marked played";
			played(&form);
		} else {
			request_step = "dealing the set";
			deal(&form);
		}
		cgi_form_free(&form);
	} else
		refuse_logged(405, "Method Not Allowed", "a method but GET, HEAD and POST",
		    "%s: this page takes GET and POST only", method);
	xfflush(stdout, "standard output");
	return 0;
}
