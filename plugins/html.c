/* A hand record for people: one self-contained HTML file (inline CSS, no
 * script, nothing fetched), printable on A4 and Letter alike, six boards a
 * page and never a board cut by a page end.  Each board: its number, dealer
 * and vulnerability, the hands round a compass with their high-card
 * points, and with an analysed stream (dl-dd) the double-dummy grid and
 * par.  docs/hand-records.md shows and explains it. */
#include <stdlib.h>
#include <string.h>

#include "analysed.h"
#include "textbuf.h"
#include "suits.h"

#define BOARDS_PER_PAGE 6

/* The suits as printed: spades, hearts, diamonds, clubs. */
static const char *const suit_symbol[SUITS] = { "&#9824;", "&#9829;", "&#9830;", "&#9827;" };
static const char *const suit_class[SUITS] = { "s", "h", "d", "c" };
static const char *const strain_symbol[DL_STRAINS] = { "NT", "&#9824;", "&#9829;", "&#9830;", "&#9827;" };
static const char *const strain_class[DL_STRAINS] = { "nt", "s", "h", "d", "c" };
static const char *const seat_name[4] = { "North", "East", "South", "West" };

struct html_state {
	unsigned boards;	/* written so far */
	unsigned pages;		/* in all */
	char *event;		/* escaped, or NULL */
	char *where_when;	/* "site, date" escaped (#S:, #D:), or NULL */
	char dealt[11];		/* "2026-11-24" from #T:, or "" */
};

/* Text for HTML: & < > " ' as entities; control characters (the host
 * lets none through) as spaces. */
static char *
html_escape(const char *s)
{
	size_t n = 0;
	char *out, *p;

	for (const char *q = s; *q; q++)
		n += strchr("&<>\"'", *q) != NULL ? 6 : 1;
	if ((out = malloc(n + 1)) == NULL)
		return NULL;
	for (p = out; *s; s++) {
		switch (*s) {
		case '&': p = stpcpy(p, "&amp;"); break;
		case '<': p = stpcpy(p, "&lt;"); break;
		case '>': p = stpcpy(p, "&gt;"); break;
		case '"': p = stpcpy(p, "&quot;"); break;
		case '\'': p = stpcpy(p, "&#39;"); break;
		default: *p++ = (unsigned char)*s < 0x20 ? ' ' : *s;
		}
	}
	*p = '\0';
	return out;
}

static const char style[] =
    "@page { margin: 12mm; }\n"
    "* { box-sizing: border-box; }\n"
    "body { margin: 0; font-family: \"DejaVu Sans\", \"Liberation Sans\", Arial, sans-serif;"
    " color: #000; background: #fff; }\n"
    /* a page fits A4 (186 x 273 mm inside the margins) and Letter (192 x 255) */
    ".page { width: 186mm; height: 254mm; margin: 0 auto; display: flex;"
    " flex-direction: column; break-after: page; page-break-after: always; }\n"
    ".page:last-child { break-after: auto; page-break-after: auto; }\n"
    ".head { display: flex; justify-content: space-between; align-items: baseline;"
    " border-bottom: 0.4mm solid #000; padding-bottom: 1mm; font-size: 11pt; }\n"
    ".head .event { font-weight: bold; font-size: 13pt; }\n"
    ".boards { flex: 1; min-height: 0; display: grid; grid-template-columns: 1fr 1fr;"
    " grid-template-rows: repeat(3, minmax(0, 1fr)); gap: 3mm; padding: 3mm 0; }\n"
    ".board { border: 0.3mm solid #888; border-radius: 2mm; padding: 2mm 3mm;"
    " break-inside: avoid; page-break-inside: avoid; display: flex; flex-direction: column; }\n"
    ".deal { display: grid; grid-template-columns: 1fr 24mm 1fr;"
    " grid-template-rows: auto auto auto; align-items: center; font-size: 10pt; }\n"
    ".id { grid-column: 1; grid-row: 1; align-self: start; }\n"
    ".id .num { font-size: 22pt; font-weight: bold; line-height: 1; }\n"
    ".id .meta { font-size: 8.5pt; line-height: 1.25; }\n"
    /* a suit too long for its column (eleven cards) wraps under itself */
    ".hand { line-height: 1.2; }\n"
    ".hand div { padding-left: 1.1em; text-indent: -1.1em; }\n"
    ".north { grid-column: 2 / 4; grid-row: 1; padding-left: 2mm; }\n"
    ".west { grid-column: 1; grid-row: 2; }\n"
    ".east { grid-column: 3; grid-row: 2; padding-left: 2mm; }\n"
    ".south { grid-column: 2 / 4; grid-row: 3; padding-left: 2mm; }\n"
    ".compass { grid-column: 2; grid-row: 2; width: 22mm; height: 22mm;"
    " border: 0.3mm solid #000; display: grid; grid-template-columns: 1fr 1fr 1fr;"
    " grid-template-rows: 1fr 1fr 1fr; font-size: 7.5pt; text-align: center;"
    " align-items: center; margin: 1mm 0; }\n"
    ".compass .n { grid-column: 2; grid-row: 1; }\n"
    ".compass .e { grid-column: 3; grid-row: 2; }\n"
    ".compass .s { grid-column: 2; grid-row: 3; }\n"
    ".compass .w { grid-column: 1; grid-row: 2; }\n"
    ".compass b { display: block; font-size: 6.5pt; }\n"
    ".sym { display: inline-block; width: 1.1em; text-indent: 0; }\n"
    ".h .sym, .d .sym, td.h, td.d, th.h, th.d { color: #c00; }\n"
    ".s .sym, .c .sym, th.s, th.c { color: #000; }\n"
    "table.dd { grid-column: 1; grid-row: 3; align-self: end; border-collapse: collapse;"
    " font-size: 7.5pt; line-height: 1.15; }\n"
    "table.dd th, table.dd td { border: 0.2mm solid #999; padding: 0 0.8mm;"
    " text-align: center; min-width: 4mm; }\n"
    ".par { margin-top: auto; padding-top: 1mm; font-size: 9pt; }\n"
    ".foot { display: flex; justify-content: space-between; font-size: 8pt;"
    " border-top: 0.2mm solid #888; padding-top: 1mm; color: #333; }\n"
    ".fp::after { content: var(--fingerprint); }\n"
    "@media screen { body { background: #ddd; } .page { background: #fff;"
    " margin: 8mm auto; padding: 12mm; width: 210mm; height: auto; min-height: 278mm; } }\n";

static int
html_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	struct html_state *st = calloc(1, sizeof *st);

	if ((*state = st) == NULL) {
		out->fail(out, "out of memory");
		return -1;
	}
	st->pages = (run->nboards + BOARDS_PER_PAGE - 1) / BOARDS_PER_PAGE;
	char *where_when = NULL, *generator = html_escape(run->generator);
	if (run->site != NULL || run->date != NULL) {
		size_t len = (run->site ? strlen(run->site) : 0) + (run->date ? strlen(run->date) : 0);
		if ((where_when = malloc(len + 3)) != NULL)
			snprintf(where_when, len + 3, "%s%s%s", run->site ? run->site : "",
			    run->site && run->date ? ", " : "", run->date ? run->date : "");
	}
	if ((run->event != NULL && (st->event = html_escape(run->event)) == NULL) ||
	    ((run->site != NULL || run->date != NULL) &&
	    (where_when == NULL || (st->where_when = html_escape(where_when)) == NULL)) ||
	    generator == NULL) {
		free(where_when);
		free(generator);
		out->fail(out, "out of memory");
		return -1;
	}
	free(where_when);
	/* the day the deals were made: "#T: 2026-11-24T19:30:00Z" */
	for (size_t i = 0; i < run->nheaders; i++)
		if (strncmp(run->headers[i], "#T: ", 4) == 0 && strlen(run->headers[i]) >= 14)
			memcpy(st->dealt, run->headers[i] + 4, 10);
	out->print(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta name=\"generator\" content=\"%s\">\n<title>%s</title>\n<style>\n%s</style>\n"
	    "</head>\n<body>\n", generator, st->event != NULL ? st->event : "Hand record",
	    style);
	free(generator);
	return 0;
}

static void
page_begin(struct dl_out *out, const struct dl_run *run, struct html_state *st)
{
	out->print(out, "<div class=\"page\">\n<div class=\"head\"><span class=\"event\">%s</span>",
	    st->event != NULL ? st->event : "Hand record");
	if (st->where_when != NULL)
		out->print(out, "<span class=\"date\">%s</span>", st->where_when);
	else if (st->dealt[0] != '\0')
		out->print(out, "<span class=\"date\">dealt %s</span>", st->dealt);
	out->print(out, "<span class=\"range\">boards %u&#8211;%u</span></div>\n"
	    "<div class=\"boards\">\n", run->low, run->high);
}

static void
page_end(struct dl_out *out, const struct html_state *st)
{
	unsigned page = (st->boards + BOARDS_PER_PAGE - 1) / BOARDS_PER_PAGE;

	out->print(out, "</div>\n<div class=\"foot\"><span>set <span class=\"fp\"></span></span>"
	    "<span>page %u of %u</span></div>\n</div>\n", page, st->pages);
}

static void
add_text(struct textbuf *tb, const char *text)
{
	textbuf_add(tb, text, strlen(text));
}

static void
add_hand(struct textbuf *tb, const struct dl_deal *deal, unsigned seat)
{
	static const char *const ranks[13] = {
		"A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2",
	};
	static const char *const seat_class[4] = { "north", "east", "south", "west" };
	unsigned i = 0;

	TEXTBUF_ADD(tb, "<div class=\"hand ");
	add_text(tb, seat_class[seat]);
	TEXTBUF_ADD(tb, "\" aria-label=\"");
	add_text(tb, seat_name[seat]);
	TEXTBUF_ADD(tb, "\">");
	for (unsigned suit = 0; suit < SUITS; suit++) {
		unsigned n = 0;
		TEXTBUF_ADD(tb, "<div class=\"");
		add_text(tb, suit_class[suit]);
		TEXTBUF_ADD(tb, "\"><span class=\"sym\">");
		add_text(tb, suit_symbol[suit]);
		TEXTBUF_ADD(tb, "</span>");
		/* the hand is in card order: suit by suit, high to low */
		for (; i < DL_HAND_CARDS && deal->hand[seat][i] / 13 == suit; i++) {
			if (n++ > 0)
				textbuf_char(tb, ' ');
			add_text(tb, ranks[deal->hand[seat][i] % 13]);
		}
		if (n == 0)
			TEXTBUF_ADD(tb, "&#8212;");
		TEXTBUF_ADD(tb, "</div>");
	}
	TEXTBUF_ADD(tb, "</div>\n");
}

static void
add_compass(struct textbuf *tb, const struct dl_deal *deal)
{
	static const char *const letters = "NESW";
	static const char *const classes[4] = { "n", "e", "s", "w" };

	TEXTBUF_ADD(tb, "<div class=\"compass\">");
	for (unsigned seat = 0; seat < 4; seat++) {
		TEXTBUF_ADD(tb, "<div class=\"");
		add_text(tb, classes[seat]);
		TEXTBUF_ADD(tb, "\"><b>");
		textbuf_char(tb, letters[seat]);
		TEXTBUF_ADD(tb, "</b>");
		textbuf_unsigned(tb, high_card_points(deal, seat));
		TEXTBUF_ADD(tb, "</div>");
	}
	TEXTBUF_ADD(tb, "</div>\n");
}

/* "4&#9824; NS", "3NT W +1", "5&#9830;&#215; EW &#8722;2" */
static void
print_contract(struct dl_out *out, const struct dl_contract *c)
{
	const char *side = declarers_name(c->declarers);
	unsigned strain = c->strain % DL_STRAINS;

	out->print(out, "<span class=\"%s\">%u%s%s</span> %s", strain_class[strain], c->level,
	    strain_symbol[strain], c->doubled ? "&#215;" : "", side != NULL ? side : "?");
	if (c->result > 0)
		out->print(out, " +%d", c->result);
	else if (c->result < 0)
		out->print(out, " &#8722;%d", -c->result);
}

/* The double-dummy grid, in the corner under West: a row a declarer. */
static void
print_tricks(struct dl_out *out, const struct dl_analysis *a)
{
	static const unsigned rows[4] = { DL_NORTH, DL_SOUTH, DL_EAST, DL_WEST };

	out->print(out, "<table class=\"dd\"><tr><th></th>");
	for (unsigned strain = 0; strain < DL_STRAINS; strain++)
		out->print(out, "<th class=\"%s\">%s</th>", strain_class[strain],
		    strain_symbol[strain]);
	out->print(out, "</tr>\n");
	for (unsigned r = 0; r < 4; r++) {
		out->print(out, "<tr><th>%c</th>", "NESW"[rows[r]]);
		for (unsigned strain = 0; strain < DL_STRAINS; strain++)
			out->print(out, "<td>%u</td>", a->tricks[rows[r]][strain]);
		out->print(out, "</tr>\n");
	}
	out->print(out, "</table>\n");
}

/* "Par NS +420: 4S NS", from the side that declares it. */
static void
print_par(struct dl_out *out, const struct dl_analysis *a)
{
	out->print(out, "<div class=\"par\">Par ");
	if (a->ncontracts == 0)
		out->print(out, "0: passed out");
	else {
		int score;
		const char *side = par_side(a, &score);
		out->print(out, "%s %s%d: ", side, score < 0 ? "&#8722;" : "+",
		    score < 0 ? -score : score);
		for (unsigned i = 0; i < a->ncontracts && i < DL_PAR_CONTRACTS_MAX; i++) {
			if (i > 0)
				out->print(out, ", ");
			print_contract(out, &a->contracts[i]);
		}
	}
	out->print(out, "</div>\n");
}

static int
html_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	static const char *const vulnerable[4] = {
		"None vulnerable", "N-S vulnerable", "E-W vulnerable", "All vulnerable",
	};
	struct html_state *st = state;

	if (st->boards % BOARDS_PER_PAGE == 0) {
		if (st->boards > 0)
			page_end(out, st);
		page_begin(out, run, st);
	}
	st->boards++;
	TEXTBUF(tb, out);
	TEXTBUF_ADD(&tb, "<section class=\"board\" id=\"board-");
	textbuf_unsigned(&tb, deal->board);
	TEXTBUF_ADD(&tb, "\">\n<div class=\"deal\">\n<div class=\"id\"><div class=\"num\">");
	textbuf_unsigned(&tb, deal->board);
	TEXTBUF_ADD(&tb, "</div><div class=\"meta\">Dealer ");
	add_text(&tb, seat_name[dl_dealer(deal->board)]);
	TEXTBUF_ADD(&tb, "<br>");
	add_text(&tb, vulnerable[dl_vulnerability(deal->board)]);
	TEXTBUF_ADD(&tb, "</div></div>\n");
	add_hand(&tb, deal, DL_NORTH);
	add_hand(&tb, deal, DL_WEST);
	add_compass(&tb, deal);
	add_hand(&tb, deal, DL_EAST);
	add_hand(&tb, deal, DL_SOUTH);
	textbuf_flush(&tb);
	if (deal->analysis != NULL)
		print_tricks(out, deal->analysis);
	out->print(out, "</div>\n");
	if (deal->analysis != NULL)
		print_par(out, deal->analysis);
	out->print(out, "</section>\n");
	return 0;
}

static int
html_end(struct dl_out *out, const struct dl_run *run, void *state)
{
	struct html_state *st = state;
	const char *fp = run->fingerprint != NULL ? run->fingerprint : "";

	if (st->boards > 0)
		page_end(out, st);
	/* the fingerprint is known at the end: every page's footer shows it
	 * through a CSS variable set here */
	out->print(out, "<style>:root { --fingerprint: \"%.4s %.4s %.4s %.4s\"; }</style>\n"
	    "<p hidden>set %s</p>\n</body>\n</html>\n", fp, fp + 4 * (strlen(fp) >= 4),
	    fp + 8 * (strlen(fp) >= 8), fp + 12 * (strlen(fp) >= 12), fp);
	free(st->event);
	free(st->where_when);
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
	.needs = DL_NEEDS_FINGERPRINT,
};
