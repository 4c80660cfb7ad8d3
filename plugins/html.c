/* A hand record for people: one self-contained HTML file (inline CSS, no
 * script, nothing fetched), six boards a page (or four, or one for
 * teaching, as DL_PER_PAGE says: paper.h) and never a board cut by a
 * page end, each page the paper's (A4, or US Letter as PAPERSIZE says);
 * on a phone's narrow screen the boards one under another.  Each board: its
 * number (a heading), dealer and vulnerability, the hands round a compass
 * with their high-card points, the vulnerable seats shaded and the dealer
 * ringed, and with an analysed stream (dl-dd) the double-dummy grid and
 * par.  docs/hand-records.md shows and explains it.
 *
 * A board is some 2.8 KB of markup, most of it the same for every board,
 * in some two hundred pieces.  Handing pieces to the host (out->print), or
 * adding them to a buffer one checked call and strlen at a time, cost more
 * than the bytes: the text is written straight through a pointer into a
 * buffer of the writer's, with room made once a board, and handed to the
 * host some ten boards at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysed.h"
#include "suits.h"
#include "paper.h"
#include "qr.h"
#include "set_count.h"
#include "untrusted.h"

/* The longest text a board can have, with room to spare.  At its longest
 * (numbers of as many digits as their types hold) a board's frame is some
 * 225 bytes, a hand 513 (thirteen cards of a suit, three voids), the
 * compass 380 (its seats named for screen readers, the vulnerable and
 * dealer marked), the double-dummy grid 920 (caption, header cells) and
 * the par line 650 (ten contracts): under 4 300 bytes in all, and a piece
 * is copied as a whole slot (PIECE_SLOT) past them.  A board is written
 * unchecked once this much room is made for it. */
#define BOARD_TEXT_MAX 6144
/* The buffer the text is gathered in: some twenty boards. */
#define TEXT_BUFFER (32 * 1024)

/* A piece of text known when compiled, in a slot of fixed size: copying
 * the whole slot is a few moves, where copying len bytes would be a call
 * to memcpy.  The text it is copied into has room for the slot. */
#define PIECE_SLOT 64
struct piece {
	char text[PIECE_SLOT];
	unsigned char len;
};
#define PIECE(literal) { literal, sizeof(literal) - 1 }

/* The suits as printed: spades, hearts, diamonds, clubs. */
#define SPADE "&#9824;"
#define HEART "&#9829;"
#define DIAMOND "&#9830;"
#define CLUB "&#9827;"

/* Where a hand's suit begins: its line, its symbol. */
static const struct piece suit_head[SUITS] = {
	PIECE("<div class=\"s\"><span class=\"sym\">" SPADE "</span>"),
	PIECE("<div class=\"h\"><span class=\"sym\">" HEART "</span>"),
	PIECE("<div class=\"d\"><span class=\"sym\">" DIAMOND "</span>"),
	PIECE("<div class=\"c\"><span class=\"sym\">" CLUB "</span>"),
};
/* A contract's strain: its level goes between the two. */
static const struct piece strain_head[DL_STRAINS] = {
	PIECE("<span class=\"nt\">"), PIECE("<span class=\"s\">"), PIECE("<span class=\"h\">"),
	PIECE("<span class=\"d\">"), PIECE("<span class=\"c\">"),
};
static const struct piece strain_symbol[DL_STRAINS] = {
	PIECE("NT"), PIECE(SPADE), PIECE(HEART), PIECE(DIAMOND), PIECE(CLUB),
};
static const struct piece seat_name[4] = {
	PIECE("North"), PIECE("East"), PIECE("South"), PIECE("West"),
};
/* A hand is headed by its seat's name, a heading a screen reader moves
 * by, shown by the compass beside it rather than in letters. */
static const struct piece hand_head[4] = {
	PIECE("<div class=\"hand north\"><h3 class=\"vh\">North</h3>"),
	PIECE("<div class=\"hand east\"><h3 class=\"vh\">East</h3>"),
	PIECE("<div class=\"hand south\"><h3 class=\"vh\">South</h3>"),
	PIECE("<div class=\"hand west\"><h3 class=\"vh\">West</h3>"),
};
/* A seat in the compass: its class, then (after the marks of the
 * vulnerable seats and the dealer) its letter shown and its name read;
 * its high-card points follow. */
static const struct piece compass_class[4] = {
	PIECE("<div class=\"n"), PIECE("<div class=\"e"), PIECE("<div class=\"s"),
	PIECE("<div class=\"w"),
};
static const struct piece compass_seat[4] = {
	PIECE("\"><b aria-hidden=\"true\">N</b><span class=\"vh\">North</span> "),
	PIECE("\"><b aria-hidden=\"true\">E</b><span class=\"vh\">East</span> "),
	PIECE("\"><b aria-hidden=\"true\">S</b><span class=\"vh\">South</span> "),
	PIECE("\"><b aria-hidden=\"true\">W</b><span class=\"vh\">West</span> "),
};
static const struct piece vulnerable[4] = {
	PIECE("None vulnerable"), PIECE("N-S vulnerable"), PIECE("E-W vulnerable"),
	PIECE("All vulnerable"),
};

/* Each card's rank as printed, with the space that parts it from the
 * next card of its suit (the last card's is taken back): four bytes
 * copied, two or three kept. */
struct rank_text {
	char text[4];
	unsigned char len;
};
#define SUIT_RANKS							\
	{ "A ", 2 }, { "K ", 2 }, { "Q ", 2 }, { "J ", 2 }, { "10 ", 3 },	\
	{ "9 ", 2 }, { "8 ", 2 }, { "7 ", 2 }, { "6 ", 2 }, { "5 ", 2 },	\
	{ "4 ", 2 }, { "3 ", 2 }, { "2 ", 2 }
static const struct rank_text card_rank[DL_CARDS] = {
	SUIT_RANKS, SUIT_RANKS, SUIT_RANKS, SUIT_RANKS,
};

struct html_state {
	unsigned per_page;	/* boards a page */
	unsigned boards;	/* written so far */
	unsigned pages;		/* in all */
	unsigned nboards;	/* in the run */
	char *event;		/* the head's event, escaped */
	size_t event_len;
	unsigned long sets;	/* of the event, this one included (#N:), or 0 */
	char *date;		/* the rest of the head: the same on every page */
	size_t date_len;
	char *generator;	/* the program that wrote the record, escaped */
	size_t generator_len;
	/* with the address where the record is published after play (#U:):
	 * the head's code, caption and address, the same on every page;
	 * else NULL */
	char *qr;
	size_t qr_len;
	char *url;		/* the address's line */
	size_t url_len;
	size_t pending;		/* bytes of text not yet handed to the host */
	char text[TEXT_BUFFER];
};

/* Text from the stream (untrusted.h) for HTML, in an element or an
 * attribute value alike: & < > " ' as entities, so that no value can
 * open a tag, a comment or an element whose content is not HTML
 * (<script>, <style>, <xmp>, ...), or end an attribute; a control
 * character as a space, a byte that is not UTF-8 as U+FFFD.  NULL when
 * out of memory. */
static char *
html_escape(const char *s)
{
	/* at most six bytes for one: "&quot;" */
	char *out = malloc(6 * strlen(s) + 1), *p = out;
	size_t len;

	if (out == NULL)
		return NULL;
	for (; *s != '\0'; s += len) {
		switch (text_char(s, &len)) {
		case TEXT_SPACE:
			*p++ = ' ';
			continue;
		case TEXT_INVALID:
			p = stpcpy(p, TEXT_REPLACEMENT);
			continue;
		case TEXT_CHAR:
			break;
		}
		switch (*s) {
		case '&': p = stpcpy(p, "&amp;"); break;
		case '<': p = stpcpy(p, "&lt;"); break;
		case '>': p = stpcpy(p, "&gt;"); break;
		case '"': p = stpcpy(p, "&quot;"); break;
		case '\'': p = stpcpy(p, "&#39;"); break;
		default: p = mempcpy(p, s, len);
		}
	}
	*p = '\0';
	return out;
}

/* The page as printed: the paper (A4, or US Letter, as the pdf writer
 * chooses it) and no margin of the browser's, the page's own margin
 * being inside it.  A browser prints its own header and footer (title,
 * date, address, page numbers) only in the margin it keeps, so with none
 * it prints none, and the page's own head and foot are not doubled.  A
 * page's height is fixed, as no browser lets CSS ask for the paper's: it
 * is the paper's, less a millimetre that rounding could push onto a page
 * of its own. */
static const char paper_a4[] =
    "@page { size: A4; margin: 0; }\n"
    ".page { width: 210mm; height: 296mm; }\n";
static const char paper_letter[] =
    "@page { size: letter; margin: 0; }\n"
    ".page { width: 215.9mm; height: 278.4mm; }\n";

static const char style[] =
    "* { box-sizing: border-box; }\n"
    /* shading prints without the browser's "background graphics" */
    "html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }\n"
    "body { margin: 0; font-family: \"DejaVu Sans\", \"Liberation Sans\", Arial, sans-serif;"
    " color: #000; background: #fff; }\n"
    "h1, h2, h3, p { margin: 0; font-size: inherit; font-weight: inherit; }\n"
    /* read by a screen reader, not shown */
    ".vh { position: absolute; width: 1px; height: 1px; overflow: hidden;"
    " clip-path: inset(50%); white-space: nowrap; }\n"
    ".page { margin: 0 auto; padding: 10mm 12mm; display: flex; flex-direction: column;"
    " overflow: hidden; break-after: page; page-break-after: always; }\n"
    ".page:last-child { break-after: auto; page-break-after: auto; }\n"
    /* the event, the page's boards at the right of its first line, and
     * where and when under them, as the PDF draws its head: each wraps,
     * so that a club's long name, its hall and the day are read whole */
    ".head { display: grid; grid-template-columns: minmax(0, 1fr) auto; column-gap: 4mm;"
    " align-items: baseline; border-bottom: 0.4mm solid #000; padding-bottom: 1mm;"
    " font-size: 11pt; }\n"
    ".head .event { grid-column: 1; grid-row: 1; font-weight: bold; font-size: 13pt;"
    " overflow-wrap: anywhere; }\n"
    ".head .date { grid-column: 1 / 3; grid-row: 2; overflow-wrap: anywhere; }\n"
    ".head .range { grid-column: 2; grid-row: 1; white-space: nowrap; }\n"
    /* printed, a page's height is the paper's: an event or a site of
     * hundreds of bytes (500 each) stops at two lines, as the PDF's
     * event does, rather than push the last boards off the page */
    "@media print { .head .event, .head .date { display: -webkit-box;"
    " -webkit-box-orient: vertical; -webkit-line-clamp: 2; line-clamp: 2;"
    " overflow: hidden; } }\n"

    ".boards { flex: 1; min-height: 0; display: grid; grid-template-columns: 1fr 1fr;"
    " grid-template-rows: repeat(3, minmax(0, 1fr)); gap: 3mm; padding: 3mm 0; }\n"
    ".board { border: 0.3mm solid #888; border-radius: 2mm; padding: 2mm 3mm;"
    " break-inside: avoid; page-break-inside: avoid; display: flex; flex-direction: column; }\n"
    ".deal { display: grid; grid-template-columns: 1fr 25mm 1fr;"
    " grid-template-rows: auto auto auto; align-items: center; font-size: 10pt; }\n"
    ".id { grid-column: 1; grid-row: 1; align-self: start; }\n"
    ".id .num { font-size: 22pt; font-weight: bold; line-height: 1; }\n"
    ".id .meta { font-size: 9pt; line-height: 1.25; }\n"
    /* a suit too long for its column (eleven cards) wraps under itself */
    ".hand { line-height: 1.2; }\n"
    ".hand div { padding-left: 1.1em; text-indent: -1.1em; }\n"
    ".north { grid-column: 2 / 4; grid-row: 1; padding-left: 2mm; }\n"
    ".west { grid-column: 1; grid-row: 2; }\n"
    ".east { grid-column: 3; grid-row: 2; padding-left: 1.5mm; }\n"
    ".south { grid-column: 2 / 4; grid-row: 3; padding-left: 2mm; }\n"
    /* the compass as a board's tray: a side's strips shaded when it is
     * vulnerable, the dealer's letter in a ring */
    ".compass { grid-column: 2; grid-row: 2; width: 23.5mm; height: 23.5mm;"
    " border: 0.3mm solid #000; display: grid; grid-template-columns: 1fr 1fr 1fr;"
    " grid-template-rows: 1fr 1fr 1fr; font-size: 9.5pt; line-height: 1.1; text-align: center;"
    " align-items: center; margin: 1mm 0; }\n"
    ".compass > div { height: 100%; display: flex; flex-direction: column;"
    " justify-content: center; }\n"
    /* North's and South's letters beside their points, in their strips */
    ".compass .n, .compass .s { flex-direction: row; align-items: center; gap: 0.4em; }\n"
    ".compass .n { grid-column: 1 / 4; grid-row: 1; }\n"
    ".compass .e { grid-column: 3; grid-row: 2; }\n"
    ".compass .s { grid-column: 1 / 4; grid-row: 3; }\n"
    ".compass .w { grid-column: 1; grid-row: 2; }\n"
    ".compass b { display: block; font-size: 8.5pt; }\n"
    ".compass .vul { background: #f4b4b4; }\n"
    ".compass .dlr b { align-self: center; border: 0.3mm solid #000; border-radius: 50%;"
    " width: 1.6em; line-height: 1.5em; }\n"
    ".sym { display: inline-block; width: 1.1em; text-indent: 0; }\n"
    ".h .sym, .d .sym, td.h, td.d, th.h, th.d, .par .h, .par .d { color: #c00; }\n"
    ".s .sym, .c .sym, th.s, th.c { color: #000; }\n"
    "table.dd { grid-column: 1; grid-row: 3; align-self: end; border-collapse: collapse;"
    " font-size: 9pt; line-height: 1.15; }\n"
    "table.dd caption { font-size: 8pt; text-align: left; white-space: nowrap; }\n"
    "table.dd th, table.dd td { border: 0.2mm solid #999; padding: 0 0.8mm;"
    " text-align: center; min-width: 4.5mm; }\n"
    ".par { margin-top: auto; padding-top: 1mm; font-size: 9.5pt; }\n"
    ".foot { display: flex; justify-content: space-between; font-size: 8.5pt;"
    " border-top: 0.2mm solid #888; padding-top: 1mm; color: #333; }\n"
    ".fp::after { content: var(--fingerprint); }\n"
    "@media screen { body { background: #ddd; } .page { background: #fff;"
    " margin: 8mm auto; height: auto; min-height: 278mm; } }\n"
    /* a phone: the boards one under another, each as wide as the screen */
    "@media screen and (max-width: 700px) {\n"
    " body { background: #fff; }\n"
    " .page { width: auto; min-height: 0; margin: 0; padding: 12px 8px; }\n"
    " .head { font-size: 15px; }\n"
    " .head .event { font-size: 18px; }\n"

    " .boards { display: block; padding: 8px 0; }\n"
    " .board { margin-bottom: 10px; padding: 8px 10px; border-radius: 8px; }\n"
    " .deal { grid-template-columns: minmax(0, 1fr) 94px minmax(0, 1fr); font-size: 15.5px; }\n"
    " .id .num { font-size: 30px; }\n"
    " .id .meta { font-size: 14px; }\n"
    " .compass { width: 92px; height: 92px; font-size: 15px; line-height: 1; margin: 6px 0; }\n"
    " .compass b { font-size: 13px; }\n"
    " .north, .east, .south { padding-left: 8px; }\n"
    /* the hands' columns alike, the trick table under South */
    " table.dd { grid-column: 1 / 4; grid-row: 4; justify-self: start; font-size: 14px;"
    " margin-top: 8px; }\n"
    " table.dd caption { font-size: 13px; }\n"
    " table.dd th, table.dd td { padding: 1px 3px; min-width: 20px; }\n"
    " .par { font-size: 15px; padding-top: 6px; }\n"
    " .foot { flex-wrap: wrap; font-size: 13px; gap: 4px 12px; }\n"
    "}\n"
    /* the narrowest phones (320 to 360 pixels): a smaller compass and
     * cards, so that a five-card suit still fits its column */
    "@media screen and (max-width: 360px) {\n"
    " .page { padding: 8px 4px; }\n"
    " .board { padding: 6px 6px; }\n"
    " .deal { grid-template-columns: minmax(0, 1fr) 78px minmax(0, 1fr); font-size: 14px; }\n"
    " .compass { width: 76px; height: 76px; font-size: 13px; }\n"
    " .compass b { font-size: 11px; }\n"
    " .north, .east, .south { padding-left: 4px; }\n"
    "}\n";

/* With the address where the record is published after play (#U:): its
 * QR code at the head's right, its caption under the range, the address
 * under the site and date, a line of it when printed (the rest cut with
 * an ellipsis: the code holds it whole), wrapped on a screen.  On a
 * phone the code is left out: it is for a sheet, and on the phone itself
 * the address is a link. */
static const char qr_style[] =
    ".head.has-qr { grid-template-columns: minmax(0, 1fr) auto auto; }\n"
    ".head .qr { grid-column: 3; grid-row: 1 / 4; align-self: start; line-height: 0; }\n"
    ".head .qr svg { width: 20mm; height: 20mm; }\n"
    ".head .qrcap { grid-column: 2; grid-row: 2; align-self: start; text-align: right;"
    " font-size: 8pt; line-height: 1.2; color: #444; }\n"
    ".head.has-qr .date { grid-column: 1; grid-row: 2; }\n"
    ".head .url { grid-column: 1 / 3; grid-row: 3; font-size: 8pt; overflow-wrap: anywhere; }\n"
    ".head .url a { color: #444; text-decoration: none; }\n"
    "@media print { .head .url { white-space: nowrap; overflow: hidden;"
    " text-overflow: ellipsis; } }\n"
    "@media screen and (max-width: 700px) {\n"
    " .head .qr, .head .qrcap { display: none; }\n"
    " .head.has-qr { grid-template-columns: minmax(0, 1fr) auto; }\n"
    " .head .url { font-size: 13px; }\n"
    "}\n";

/* Four boards a page, two by two, and one (for teaching), as printed and
 * on a screen wide enough for sheets; a phone keeps its boards one under
 * another (the style above).  At four the boards have the height of six
 * but not the width: the cards grow a little, their lines and the board
 * take the height, the trick table goes under South as in the PDF.  At
 * one the board fills the page in large type, the par under the tricks,
 * and the rest of the board is ruled for notes. */
static const char four_a_page[] =
    "@media print, screen and (min-width: 701px) {\n"
    " .boards { grid-template-rows: repeat(2, minmax(0, 1fr)); }\n"
    " .board { padding: 3mm 3mm; }\n"
    " .deal { font-size: 11pt; row-gap: 2mm; }\n"
    /* a six-card suit with its ten still on one line */
    " .hand { line-height: 1.35; word-spacing: -0.1em; }\n"
    " table.dd { grid-column: 1 / 4; grid-row: 4; justify-self: start; font-size: 10.5pt;"
    " margin-top: 2mm; }\n"
    " table.dd caption { font-size: 9pt; }\n"
    " table.dd th, table.dd td { min-width: 6mm; }\n"
    " .par { font-size: 11pt; }\n"
    "}\n";
static const char one_a_page[] =
    "@media print, screen and (min-width: 701px) {\n"
    " .boards { grid-template-columns: 1fr; grid-template-rows: minmax(0, 1fr); }\n"
    " .board { padding: 5mm 6mm; border-radius: 3mm; }\n"
    " .deal { grid-template-columns: 1fr 44mm 1fr; font-size: 18pt; }\n"
    " .id .num { font-size: 40pt; }\n"
    " .id .meta { font-size: 13pt; }\n"
    " .north, .south { padding-left: 4mm; }\n"
    " .east { padding-left: 3mm; }\n"
    " .compass { width: 42mm; height: 42mm; font-size: 16pt; margin: 3mm 0; }\n"
    " .compass b { font-size: 14pt; }\n"
    " table.dd { grid-column: 1 / 4; grid-row: 4; justify-self: start; font-size: 14pt;"
    " margin-top: 5mm; }\n"
    " table.dd caption { font-size: 11pt; }\n"
    " table.dd th, table.dd td { min-width: 10mm; padding: 0.5mm 1.5mm; }\n"
    " .par { margin-top: 4mm; font-size: 16pt; }\n"
    " .board::after { content: \"Notes\"; flex: 1; margin-top: 6mm; font-size: 11pt;"
    " font-weight: bold; background: repeating-linear-gradient(#fff 0 8mm, #bbb 8mm 8.3mm); }\n"
    "}\n";

/* The page head's text after the event: where and when (#S:, #D:) or
 * else the day the deals were made (#T:); every text escaped. */
static char *
head_date_text(const char *where_when, const char *dealt, size_t *len)
{
	char *text;
	int n;

	if (where_when != NULL)
		n = asprintf(&text, "<span class=\"date\">%s</span>", where_when);
	else if (dealt[0] != '\0')
		n = asprintf(&text, "<span class=\"date\">dealt %s</span>", dealt);
	else
		n = asprintf(&text, "%s", "");
	if (n < 0)
		return NULL;
	*len = (size_t)n;
	return text;
}

/* "site, date" (#S:, #D:) escaped, or NULL with *failed set when out of
 * memory */
static char *
where_when_text(const struct dl_run *run, int *failed)
{
	char *where_when, *escaped;

	*failed = 0;
	if (run->site == NULL && run->date == NULL)
		return NULL;
	if (asprintf(&where_when, "%s%s%s", run->site ? run->site : "",
	    run->site && run->date ? ", " : "", run->date ? run->date : "") < 0) {
		*failed = 1;
		return NULL;
	}
	escaped = html_escape(where_when);
	free(where_when);
	*failed = escaped == NULL;
	return escaped;
}

/* The head's QR code of the address (an SVG of the modules alone, a link
 * to the address), and the address's line, a link too: the address
 * escaped as every text of the stream is (the host let only RFC 3986's
 * characters into it, "&" and "'" among them).  0, or -1 after
 * out->fail. */
static int
qr_head(struct dl_out *out, struct html_state *st, const char *url)
{
	QRcode *qr = qr_encode(out, url);
	char *svg, *href;
	int n = -1, m = -1;

	if (qr == NULL)
		return -1;
	svg = qr_svg(qr, "20mm", "QR code of this hand record's address");
	QRcode_free(qr);
	href = html_escape(url);
	if (svg != NULL && href != NULL) {
		n = asprintf(&st->qr, "<a class=\"qr\" href=\"%s\">%s</a>"
		    "<span class=\"qrcap\">This hand record<br>online after play</span>", href, svg);
		m = asprintf(&st->url, "<span class=\"url\"><a href=\"%s\">%s</a></span>", href,
		    href);
	}
	free(svg);
	free(href);
	if (n < 0 || m < 0) {
		if (n >= 0)
			free(st->qr);
		if (m >= 0)
			free(st->url);
		st->qr = st->url = NULL;
		out->fail(out, "out of memory");
		return -1;
	}
	st->qr_len = (size_t)n;
	st->url_len = (size_t)m;
	return 0;
}

static int
html_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	struct html_state *st = malloc(sizeof *st);
	char *where_when, *generator, *dealt, day[DEALT_DAY_MAX];
	int failed;

	if ((*state = st) == NULL) {
		out->fail(out, "out of memory");
		return -1;
	}
	st->per_page = boards_per_page();
	st->sets = sets_of_event(run);
	st->boards = 0;
	st->nboards = run->nboards;
	st->pages = (run->nboards + st->per_page - 1) / st->per_page;
	st->pending = 0;
	st->event = html_escape(run->event != NULL ? run->event : "Hand record");
	where_when = where_when_text(run, &failed);
	st->generator = generator = html_escape(run->generator);
	dealt_day(run, day);
	dealt = html_escape(day);
	st->date = NULL;
	st->qr = st->url = NULL;
	if (run->record_url != NULL && qr_head(out, st, run->record_url) == -1) {
		free(st->event);
		free(where_when);
		free(dealt);
		free(generator);
		free(st);
		*state = NULL;
		return -1;
	}
	if (st->event != NULL && !failed && generator != NULL && dealt != NULL)
		st->date = head_date_text(where_when, dealt, &st->date_len);
	if (st->date != NULL) {
		st->event_len = strlen(st->event);
		st->generator_len = strlen(generator);
		out->print(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		    "<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<meta name=\"generator\" content=\"%s\">\n"
		    "<title>%s</title>\n<style>\n%s%s%s%s</style>\n</head>\n<body>\n<main>\n",
		    generator, st->event, paper_is_letter() ? paper_letter : paper_a4, style,
		    st->qr != NULL ? qr_style : "",
		    st->per_page == 4 ? four_a_page : st->per_page == 1 ? one_a_page : "");
	} else {
		free(st->event);
		free(st->qr);
		free(st->url);
		out->fail(out, "out of memory");
	}
	free(where_when);
	free(dealt);
	if (st->date == NULL) {
		free(generator);
		free(st);
		*state = NULL;
		return -1;
	}
	return 0;
}

/* Hands the text gathered so far to the host. */
static void
flush_text(struct dl_out *out, struct html_state *st)
{
	if (st->pending > 0)
		out->write(out, st->text, st->pending);
	st->pending = 0;
}

/* Where to write up to room bytes (room <= TEXT_BUFFER): the end of the
 * text, once flushed if there was not room enough.  The writer sets
 * st->pending to the end of what it wrote. */
static char *
make_room(struct dl_out *out, struct html_state *st, size_t room)
{
	if (room > TEXT_BUFFER - st->pending)
		flush_text(out, st);
	return st->text + st->pending;
}

static void
add_bytes(struct dl_out *out, struct html_state *st, const char *bytes, size_t len)
{
	if (len > TEXT_BUFFER - st->pending) {
		flush_text(out, st);
		if (len > TEXT_BUFFER) {
			out->write(out, bytes, len);
			return;
		}
	}
	memcpy(st->text + st->pending, bytes, len);
	st->pending += len;
}

/* a string literal: its length is known when compiled */
#define ADD(out, st, literal) add_bytes((out), (st), (literal), sizeof(literal) - 1)

/* Writing at p, which has room for the text (make_room): each returns
 * where the text it wrote ends. */
static inline char *
put(char *p, const char *bytes, size_t len)
{
	memcpy(p, bytes, len);
	return p + len;
}

/* a string literal: its length is known when compiled */
#define PUT(p, literal) put((p), (literal), sizeof(literal) - 1)

static inline char *
put_piece(char *p, const struct piece *piece)
{
	memcpy(p, piece->text, PIECE_SLOT);
	return p + piece->len;
}

/* v (100 or more) in decimal: its digits counted, then written from the
 * last one back */
static char *
put_long_unsigned(char *p, unsigned long v)
{
	size_t digits = 1;

	for (unsigned long rest = v / 10; rest != 0; rest /= 10)
		digits++;
	p += digits;
	for (char *q = p; q > p - digits; v /= 10)
		*--q = (char)('0' + v % 10);
	return p;
}

/* v in decimal.  Most numbers here (points, tricks) are under 100. */
static inline char *
put_unsigned(char *p, unsigned long v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v < 100) {
		p[0] = (char)('0' + v / 10);
		p[1] = (char)('0' + v % 10);
		return p + 2;
	}
	return put_long_unsigned(p, v);
}

/* "+420", or "&#8722;100" (a minus sign) */
static char *
put_signed(char *p, int v)
{
	if (v < 0)
		return put_unsigned(PUT(p, "&#8722;"), 0u - (unsigned)v);
	return put_unsigned(PUT(p, "+"), (unsigned)v);
}

/* A page's head: the event (the document's one <h1> on its first page),
 * where and when, and the page's own boards: those from first on, as
 * many as the page holds of those left (a stream's boards are
 * consecutive). */
static void
page_begin(struct dl_out *out, struct html_state *st, unsigned first)
{
	unsigned left = st->nboards - st->boards;
	unsigned last = first + (left < st->per_page ? left : st->per_page) - 1;
	int title = st->boards == 0;
	char *p;

	if (st->qr != NULL)
		ADD(out, st, "<div class=\"page\">\n<header class=\"head has-qr\">");
	else
		ADD(out, st, "<div class=\"page\">\n<header class=\"head\">");
	if (title)
		ADD(out, st, "<h1 class=\"event\">");
	else
		ADD(out, st, "<div class=\"event\">");
	add_bytes(out, st, st->event, st->event_len);
	if (title)
		ADD(out, st, "</h1>");
	else
		ADD(out, st, "</div>");
	add_bytes(out, st, st->date, st->date_len);
	p = make_room(out, st, 128);
	if (last > first) {
		p = put_unsigned(PUT(p, "<span class=\"range\">Boards "), first);
		p = put_unsigned(PUT(p, "&#8211;"), last);
	} else
		p = put_unsigned(PUT(p, "<span class=\"range\">Board "), first);
	p = PUT(p, "</span>");
	st->pending = (size_t)(p - st->text);
	if (st->qr != NULL) {
		add_bytes(out, st, st->qr, st->qr_len);
		add_bytes(out, st, st->url, st->url_len);
	}
	ADD(out, st, "</header>\n<div class=\"boards\">\n");
}

/* A page's foot, in the PDF's words: the set's fingerprint (which the
 * director matches with the deal files) and the program that wrote the
 * record, what a player can quote when asking about the sheet; the set's
 * number among its event's, and the page's. */
static void
page_end(struct dl_out *out, struct html_state *st)
{
	unsigned page = (st->boards + st->per_page - 1) / st->per_page;
	char *p;

	ADD(out, st, "</div>\n<footer class=\"foot\"><span>Set fingerprint <span class=\"fp\">"
	    "</span> &#183; hand record by ");
	add_bytes(out, st, st->generator, st->generator_len);
	p = make_room(out, st, 256);
	if (st->sets > 0) {
		p = PUT(p, "; set ");
		p = put_unsigned(p, st->sets);
		p = PUT(p, " dealt for this event");
	}
	p = PUT(p, "</span><span>Page ");
	p = put_unsigned(p, page);
	p = PUT(p, " of ");
	p = put_unsigned(p, st->pages);
	p = PUT(p, "</span></footer>\n</div>\n");
	st->pending = (size_t)(p - st->text);
}

/* The board's number, dealer and vulnerability, in the corner above West. */
static char *
put_board_id(char *p, const struct dl_deal *deal)
{
	unsigned board = deal->board;
	/* the number is written twice: its digits are made once, then
	 * copied as a slot (there is room for it) */
	char number[16];
	size_t number_len = (size_t)(put_unsigned(number, board) - number);

	p = PUT(p, "<section class=\"board\" id=\"board-");
	memcpy(p, number, sizeof number);
	p += number_len;
	p = PUT(p, "\">\n<div class=\"deal\">\n<div class=\"id\"><h2 class=\"num\">"
	    "<span class=\"vh\">Board </span>");
	memcpy(p, number, sizeof number);
	p += number_len;
	p = PUT(p, "</h2><p class=\"meta\">Dealer ");
	p = put_piece(p, &seat_name[deal->dealer & 3]);
	p = PUT(p, "<br>");
	p = put_piece(p, &vulnerable[deal->vulnerability & 3]);
	return PUT(p, "</p></div>\n");
}

/* A hand suit by suit, high to low: "A K 10 2", or a dash for a void. */
static char *
put_hand(char *p, const struct dl_deal *deal, unsigned seat)
{
	/* the hand is in card order: suit by suit, high to low */
	const unsigned char *card = deal->hand[seat], *end = card + DL_HAND_CARDS;

	p = put_piece(p, &hand_head[seat]);
	for (unsigned suit = 0; suit < SUITS; suit++) {
		unsigned next_suit = 13 * (suit + 1);
		char *ranks = p = put_piece(p, &suit_head[suit]);
		for (; card < end && *card < next_suit; card++) {
			const struct rank_text *rank = &card_rank[*card];
			size_t len = rank->len;
			memcpy(p, rank->text, sizeof rank->text);
			p += len;
		}
		/* the space after the last card goes; a void is a dash,
		 * read as the word */
		p = p > ranks ? p - 1 : PUT(p, "<span aria-hidden=\"true\">&#8212;</span>"
		    "<span class=\"vh\">void</span>");
		p = PUT(p, "</div>");
	}
	return PUT(p, "</div>\n");
}

/* The seats' high-card points (Milton Work's) in the middle of the
 * table. */
static char *
put_compass(char *p, const struct dl_deal *deal)
{
	/* the seats vulnerable, a bit 1 << seat each, by enum dl_vulnerability */
	static const unsigned vulnerable_seats[4] = { 0, 5, 10, 15 };
	unsigned points[4], vul = vulnerable_seats[deal->vulnerability & 3];

	high_card_points(deal, points);
	p = PUT(p, "<div class=\"compass\" role=\"group\" aria-label=\"High-card points\">");
	for (unsigned seat = 0; seat < 4; seat++) {
		p = put_piece(p, &compass_class[seat]);
		if (vul & 1u << seat)
			p = PUT(p, " vul");
		if ((unsigned)deal->dealer == seat)
			p = PUT(p, " dlr");
		p = put_piece(p, &compass_seat[seat]);
		p = put_unsigned(p, points[seat]);
		p = PUT(p, "</div>");
	}
	return PUT(p, "</div>\n");
}

/* The double-dummy grid, in the corner under West: a row a declarer,
 * shown by letter and read by name. */
static char *
put_tricks(char *p, const struct dl_analysis *a)
{
	static const unsigned rows[4] = { DL_NORTH, DL_SOUTH, DL_EAST, DL_WEST };

	p = PUT(p, "<table class=\"dd\"><caption>Tricks (double dummy)</caption>\n"
	    "<tr><th scope=\"col\"><span class=\"vh\">Declarer</span></th>"
	    "<th scope=\"col\" class=\"nt\">NT</th>"
	    "<th scope=\"col\" class=\"s\">" SPADE "</th><th scope=\"col\" class=\"h\">" HEART
	    "</th><th scope=\"col\" class=\"d\">" DIAMOND "</th>"
	    "<th scope=\"col\" class=\"c\">" CLUB "</th></tr>\n");
	for (unsigned r = 0; r < 4; r++) {
		p = PUT(p, "<tr><th scope=\"row\"><span aria-hidden=\"true\">");
		*p++ = DL_SEAT_LETTERS[rows[r]];
		p = PUT(p, "</span><span class=\"vh\">");
		p = put_piece(p, &seat_name[rows[r]]);
		p = PUT(p, "</span></th>");
		for (unsigned strain = 0; strain < DL_STRAINS; strain++) {
			p = PUT(p, "<td>");
			p = put_unsigned(p, a->tricks[rows[r]][strain]);
			p = PUT(p, "</td>");
		}
		p = PUT(p, "</tr>\n");
	}
	return PUT(p, "</table>\n");
}

/* A par contract as players read it: "4&#9824;", "3NT+1",
 * "5&#9830;&#215;&#8722;2": the result beside the contract, as a scorer
 * writes it ("+1", "&#8722;2"; nothing when just made). */
static char *
put_contract(char *p, const struct dl_contract *c)
{
	unsigned strain = c->strain % DL_STRAINS;

	p = put_piece(p, &strain_head[strain]);
	p = put_unsigned(p, c->level);
	p = put_piece(p, &strain_symbol[strain]);
	if (c->doubled)
		p = PUT(p, "&#215;");
	p = PUT(p, "</span>");
	if (c->result != 0)
		p = put_signed(p, c->result);
	return p;
}

/* The par as hand records players know write it: the contracts, each
 * followed by who declares it (once for contracts in a row that the same
 * seats declare), then the score from that side: "Par: 4&#9824; by N-S,
 * +620", "Par: 5&#9827; or 5&#9830; by N-S, +400", "Par: 3NT by N-S or
 * 4&#9829; by North, +600", a sacrifice "Par: 5&#9830;&#215;&#8722;2 by
 * N-S, &#8722;500"; "Par 0: passed out".  docs/hand-records.md says where
 * the words come from. */
static char *
put_par(char *p, const struct dl_analysis *a)
{
	p = PUT(p, "<div class=\"par\">Par");
	if (a->ncontracts == 0)
		p = PUT(p, " 0: passed out");
	else {
		unsigned n = a->ncontracts < DL_PAR_CONTRACTS_MAX ? a->ncontracts :
		    DL_PAR_CONTRACTS_MAX;
		int score;
		(void)par_side(a, &score);
		p = PUT(p, ": ");
		for (unsigned i = 0; i < n; i++) {
			const struct dl_contract *c = &a->contracts[i];
			if (i > 0)
				p = PUT(p, " or ");
			p = put_contract(p, c);
			if (i + 1 == n || a->contracts[i + 1].declarers != c->declarers) {
				const char *who = declarers_words(c->declarers);
				p = PUT(p, " by ");
				p = who != NULL ? put(p, who, strlen(who)) : PUT(p, "?");
			}
		}
		p = put_signed(PUT(p, ", "), score);
	}
	return PUT(p, "</div>\n");
}

static int
html_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	struct html_state *st = state;

	(void)run;
	if (st->boards % st->per_page == 0) {
		if (st->boards > 0)
			page_end(out, st);
		page_begin(out, st, deal->board);
	}
	st->boards++;
	char *p = make_room(out, st, BOARD_TEXT_MAX);
	p = put_board_id(p, deal);
	p = put_hand(p, deal, DL_NORTH);
	p = put_hand(p, deal, DL_WEST);
	p = put_compass(p, deal);
	p = put_hand(p, deal, DL_EAST);
	p = put_hand(p, deal, DL_SOUTH);
	if (deal->analysis != NULL)
		p = put_tricks(p, deal->analysis);
	p = PUT(p, "</div>\n");
	if (deal->analysis != NULL)
		p = put_par(p, deal->analysis);
	p = PUT(p, "</section>\n");
	st->pending = (size_t)(p - st->text);
	return 0;
}

static int
html_end(struct dl_out *out, const struct dl_run *run, void *state)
{
	struct html_state *st = state;
	const char *fp = run->fingerprint != NULL ? run->fingerprint : "";

	if (st->boards > 0)
		page_end(out, st);
	flush_text(out, st);
	/* the fingerprint is known at the end: every page's footer shows it
	 * through a CSS variable set here */
	out->print(out, "<style>:root { --fingerprint: \"%.4s %.4s %.4s %.4s\"; }</style>\n"
	    "<p hidden>set %s</p>\n</main>\n</body>\n</html>\n", fp, fp + 4 * (strlen(fp) >= 4),
	    fp + 8 * (strlen(fp) >= 8), fp + 12 * (strlen(fp) >= 12), fp);
	free(st->event);
	free(st->date);
	free(st->generator);
	free(st->qr);
	free(st->url);
	free(st);
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "html",
	.suffix = "html",
	.description = "hand record for people, printable (HTML)",
	.kind = DL_TEXT,
	.max_board = 0,
	.begin = html_begin,
	.board = html_board,
	.end = html_end,
	.needs = DL_NEEDS_FINGERPRINT | DL_CONCURRENT | DL_KEEPS_DEALER,
};
