/* A hand record for people: one self-contained HTML file (inline CSS, no
 * script, nothing fetched), printable on A4 and Letter alike, six boards a
 * page and never a board cut by a page end.  Each board: its number, dealer
 * and vulnerability, the hands round a compass with their high-card
 * points, and with an analysed stream (dl-dd) the double-dummy grid and
 * par.  docs/hand-records.md shows and explains it.
 *
 * A board is 1.5 KB of markup, most of it the same for every board, in
 * some two hundred pieces.  Handing pieces to the host (out->print), or
 * adding them to a buffer one checked call and strlen at a time, cost more
 * than the bytes: the text is written straight through a pointer into a
 * buffer of the writer's, with room made once a board, and handed to the
 * host some twenty boards at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysed.h"
#include "suits.h"
#include "untrusted.h"

#define BOARDS_PER_PAGE 6

/* The longest text a board can have, with room to spare.  At its longest
 * (numbers of as many digits as their types hold) a board's frame is 194
 * bytes, a hand 309 (thirteen cards of a suit, three voids), the compass
 * 152, the double-dummy grid 492 and the par line 608 (ten contracts):
 * 2 682 bytes in all, and a piece is copied as a whole slot (PIECE_SLOT)
 * past them.  A board is written unchecked once this much room is made
 * for it. */
#define BOARD_TEXT_MAX 4096
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
static const struct piece hand_head[4] = {
	PIECE("<div class=\"hand north\" aria-label=\"North\">"),
	PIECE("<div class=\"hand east\" aria-label=\"East\">"),
	PIECE("<div class=\"hand south\" aria-label=\"South\">"),
	PIECE("<div class=\"hand west\" aria-label=\"West\">"),
};
/* each seat's high-card points follow its piece */
static const struct piece compass_seat[4] = {
	PIECE("<div class=\"n\"><b>N</b>"), PIECE("<div class=\"e\"><b>E</b>"),
	PIECE("<div class=\"s\"><b>S</b>"), PIECE("<div class=\"w\"><b>W</b>"),
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
	unsigned boards;	/* written so far */
	unsigned pages;		/* in all */
	char *page_head;	/* the same on every page of the run */
	size_t page_head_len;
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
    /* one line, however long the event or site (500 bytes each): a head
     * that wrapped would push the last boards off the printed page */
    ".head span { white-space: nowrap; overflow: hidden; text-overflow: ellipsis;"
    " min-width: 0; padding-right: 2mm; }\n"
    ".head .range { flex-shrink: 0; padding-right: 0; }\n"
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

/* The page head: the event, where and when (#S:, #D:) or else the day
 * the deals were made (#T:), and the run's boards; every text escaped. */
static char *
page_head_text(const struct dl_run *run, const char *event, const char *where_when,
    const char *dealt, size_t *len)
{
	const char *date_open = "", *date = "", *date_close = "";
	char *head;

	if (where_when != NULL) {
		date_open = "<span class=\"date\">";
		date = where_when;
		date_close = "</span>";
	} else if (dealt[0] != '\0') {
		date_open = "<span class=\"date\">dealt ";
		date = dealt;
		date_close = "</span>";
	}
	int n = asprintf(&head, "<div class=\"page\">\n<div class=\"head\"><span class=\"event\">"
	    "%s</span>%s%s%s<span class=\"range\">boards %u&#8211;%u</span></div>\n"
	    "<div class=\"boards\">\n", event != NULL ? event : "Hand record", date_open, date,
	    date_close, run->low, run->high);
	if (n < 0)
		return NULL;
	*len = (size_t)n;
	return head;
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

static int
html_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	struct html_state *st = malloc(sizeof *st);
	char *event, *where_when, *generator, *dealt, day[DEALT_DAY_MAX];
	int failed;

	if ((*state = st) == NULL) {
		out->fail(out, "out of memory");
		return -1;
	}
	st->boards = 0;
	st->pages = (run->nboards + BOARDS_PER_PAGE - 1) / BOARDS_PER_PAGE;
	st->pending = 0;
	event = run->event != NULL ? html_escape(run->event) : NULL;
	where_when = where_when_text(run, &failed);
	generator = html_escape(run->generator);
	dealt_day(run, day);
	dealt = html_escape(day);
	st->page_head = NULL;
	if ((run->event == NULL || event != NULL) && !failed && generator != NULL &&
	    dealt != NULL)
		st->page_head = page_head_text(run, event, where_when, dealt, &st->page_head_len);
	if (st->page_head != NULL)
		out->print(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		    "<meta charset=\"utf-8\">\n<meta name=\"generator\" content=\"%s\">\n"
		    "<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n", generator,
		    event != NULL ? event : "Hand record", style);
	else
		out->fail(out, "out of memory");
	free(event);
	free(where_when);
	free(generator);
	free(dealt);
	return st->page_head != NULL ? 0 : -1;
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

static void
page_begin(struct dl_out *out, struct html_state *st)
{
	add_bytes(out, st, st->page_head, st->page_head_len);
}

static void
page_end(struct dl_out *out, struct html_state *st)
{
	unsigned page = (st->boards + BOARDS_PER_PAGE - 1) / BOARDS_PER_PAGE;
	char *p = make_room(out, st, 256);

	p = PUT(p, "</div>\n<div class=\"foot\"><span>set <span class=\"fp\"></span></span>"
	    "<span>page ");
	p = put_unsigned(p, page);
	p = PUT(p, " of ");
	p = put_unsigned(p, st->pages);
	p = PUT(p, "</span></div>\n</div>\n");
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
	p = PUT(p, "\">\n<div class=\"deal\">\n<div class=\"id\"><div class=\"num\">");
	memcpy(p, number, sizeof number);
	p += number_len;
	p = PUT(p, "</div><div class=\"meta\">Dealer ");
	p = put_piece(p, &seat_name[deal->dealer]);
	p = PUT(p, "<br>");
	p = put_piece(p, &vulnerable[deal->vulnerability]);
	return PUT(p, "</div></div>\n");
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
		/* the space after the last card goes */
		p = p > ranks ? p - 1 : PUT(p, "&#8212;");
		p = PUT(p, "</div>");
	}
	return PUT(p, "</div>\n");
}

/* The seats' high-card points (Milton Work's) in the middle of the
 * table. */
static char *
put_compass(char *p, const struct dl_deal *deal)
{
	unsigned points[4];

	high_card_points(deal, points);
	p = PUT(p, "<div class=\"compass\">");
	for (unsigned seat = 0; seat < 4; seat++) {
		p = put_piece(p, &compass_seat[seat]);
		p = put_unsigned(p, points[seat]);
		p = PUT(p, "</div>");
	}
	return PUT(p, "</div>\n");
}

/* The double-dummy grid, in the corner under West: a row a declarer. */
static char *
put_tricks(char *p, const struct dl_analysis *a)
{
	static const unsigned rows[4] = { DL_NORTH, DL_SOUTH, DL_EAST, DL_WEST };

	p = PUT(p, "<table class=\"dd\"><tr><th></th><th class=\"nt\">NT</th>"
	    "<th class=\"s\">" SPADE "</th><th class=\"h\">" HEART "</th>"
	    "<th class=\"d\">" DIAMOND "</th><th class=\"c\">" CLUB "</th></tr>\n");
	for (unsigned r = 0; r < 4; r++) {
		p = PUT(p, "<tr><th>");
		*p++ = "NESW"[rows[r]];
		p = PUT(p, "</th>");
		for (unsigned strain = 0; strain < DL_STRAINS; strain++) {
			p = PUT(p, "<td>");
			p = put_unsigned(p, a->tricks[rows[r]][strain]);
			p = PUT(p, "</td>");
		}
		p = PUT(p, "</tr>\n");
	}
	return PUT(p, "</table>\n");
}

/* "4&#9824; NS", "3NT W +1", "5&#9830;&#215; EW &#8722;2" */
static char *
put_contract(char *p, const struct dl_contract *c)
{
	const char *side = declarers_name(c->declarers);
	unsigned strain = c->strain % DL_STRAINS;

	p = put_piece(p, &strain_head[strain]);
	p = put_unsigned(p, c->level);
	p = put_piece(p, &strain_symbol[strain]);
	if (c->doubled)
		p = PUT(p, "&#215;");
	p = PUT(p, "</span> ");
	p = side != NULL ? put(p, side, strlen(side)) : PUT(p, "?");
	if (c->result != 0)
		p = put_signed(PUT(p, " "), c->result);
	return p;
}

/* "Par NS +420: 4S NS", from the side that declares it. */
static char *
put_par(char *p, const struct dl_analysis *a)
{
	p = PUT(p, "<div class=\"par\">Par ");
	if (a->ncontracts == 0)
		p = PUT(p, "0: passed out");
	else {
		int score;
		p = PUT(put(p, par_side(a, &score), 2), " ");	/* NS or EW */
		p = PUT(put_signed(p, score), ": ");
		for (unsigned i = 0; i < a->ncontracts && i < DL_PAR_CONTRACTS_MAX; i++) {
			if (i > 0)
				p = PUT(p, ", ");
			p = put_contract(p, &a->contracts[i]);
		}
	}
	return PUT(p, "</div>\n");
}

static int
html_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	struct html_state *st = state;

	(void)run;
	if (st->boards % BOARDS_PER_PAGE == 0) {
		if (st->boards > 0)
			page_end(out, st);
		page_begin(out, st);
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
	    "<p hidden>set %s</p>\n</body>\n</html>\n", fp, fp + 4 * (strlen(fp) >= 4),
	    fp + 8 * (strlen(fp) >= 8), fp + 12 * (strlen(fp) >= 12), fp);
	free(st->page_head);
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
