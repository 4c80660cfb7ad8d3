/* The hand record of html.c as PDF, drawn with cairo and pango: six boards
 * a page, or four, or one for teaching (DL_PER_PAGE, paper.h), fonts
 * embedded (subsets), text selectable.  Every page's footer
 * carries the set's fingerprint, which is known only at the end: the
 * boards are held (about 250 bytes each) and drawn then.  A4, or US Letter
 * when PAPERSIZE or /etc/papersize says "letter" (libpaper's convention). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-pdf.h>
#include <pango/pangocairo.h>

#include "analysed.h"
#include "paper.h"
#include "qr.h"
#include "set_count.h"
#include "pango_text.h"
#include "untrusted.h"

#define MM (72.0 / 25.4)
#define FONT "DejaVu Sans"

struct held_board {
	struct dl_deal deal;
	struct dl_analysis analysis;
	int analysed;
};

/* How a page holds its boards: a grid of cols by rows; on a board, the
 * hands and the par drawn type times their size at six a page, the rest
 * (number, compass, gaps) scale times it, the tricks in a type of their
 * own.  Four a page have the
 * height of six but not the width: the hands grow most there, while the
 * compass and tricks leave them the width; one a page grows everything. */
struct layout {
	unsigned per_page, cols, rows;
	double scale, type;
	/* the hands' lines and the bands' gaps, first tried, lead and air
	 * times their size at six a page: four a page have height to spare */
	double lead, air;
	/* the tricks' type and their caption's, and whether they have a
	 * band of their own under South (else they are beside South, under
	 * West, their caption under West's hand) */
	double tricks, caption;
	int tricks_band;
};

static const struct layout layouts[] = {
	{ 6, 2, 3, 1.0, 1.0, 1.0, 1.0, 9.0, 6.0, 0 },
	{ 4, 2, 2, 1.0, 1.15, 1.2, 2.5, 11.0, 8.0, 1 },
	{ 1, 1, 1, 1.8, 1.8, 1.0, 1.0, 16.0, 11.0, 0 },
};

struct pdf_state {
	struct held_board *boards;
	size_t n, cap;
	const struct layout *layout;
};

static const char *const seat_name[4] = { "North", "East", "South", "West" };
static const char *const suit_markup[4] = {
	"\u2660", "<span foreground=\"#c00000\">\u2665</span>",
	"<span foreground=\"#c00000\">\u2666</span>", "\u2663",
};
static const char *const strain_markup[DL_STRAINS] = {
	"NT", "\u2660", "<span foreground=\"#c00000\">\u2665</span>",
	"<span foreground=\"#c00000\">\u2666</span>", "\u2663",
};

static int
pdf_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	(void)run;
	struct pdf_state *st = calloc(1, sizeof(struct pdf_state));
	unsigned per_page = boards_per_page();

	if ((*state = st) == NULL) {
		out->fail(out, "out of memory");
		return -1;
	}
	st->layout = &layouts[0];
	for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
		if (layouts[i].per_page == per_page)
			st->layout = &layouts[i];
	return 0;
}

static int
pdf_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	struct pdf_state *st = state;

	(void)run;
	if (st->n == st->cap) {
		size_t cap = st->cap ? 2 * st->cap : 64;
		struct held_board *grown = reallocarray(st->boards, cap, sizeof *grown);
		if (grown == NULL) {
			out->fail(out, "out of memory");
			return -1;
		}
		st->boards = grown;
		st->cap = cap;
	}
	struct held_board *b = &st->boards[st->n++];
	b->deal = *deal;
	b->deal.analysis = NULL;
	b->analysed = deal->analysis != NULL;
	if (b->analysed)
		b->analysis = *deal->analysis;
	return 0;
}

/* What the texts of a document share, kept with its cairo context: one
 * pango context (pango_cairo_create_layout makes a context for each
 * layout), the fonts' descriptions, parsed once each, and the page's
 * layouts by font and text.  Laying out text is most of the PDF's time,
 * and a board asks for the same text again and again: a suit measured,
 * then counted in lines, then drawn; the tricks' digits and strains on
 * every board.  Nothing here transforms the cairo context, so that a
 * layout made once stays right for the document; the layouts are
 * forgotten at the end of each page all the same, so that a long
 * document's memory does not grow with it. */
#define TEXT_FONTS 32

struct text_cache {
	PangoContext *context;
	unsigned nfonts;
	struct {
		char *name;
		PangoFontDescription *desc;
	} font[TEXT_FONTS];
	GHashTable *layouts;	/* "where font\001markup" -> struct cached_layout */
};

struct cached_layout {
	PangoLayout *layout;
	double width;
};

static void
cached_layout_free(void *p)
{
	struct cached_layout *c = p;

	g_object_unref(c->layout);
	g_free(c);
}

static const cairo_user_data_key_t text_cache_key;

static void
text_cache_free(void *p)
{
	struct text_cache *tc = p;

	for (unsigned i = 0; i < tc->nfonts; i++) {
		g_free(tc->font[i].name);
		pango_font_description_free(tc->font[i].desc);
	}
	g_hash_table_destroy(tc->layouts);
	g_object_unref(tc->context);
	g_free(tc);
}

static struct text_cache *
text_cache_of(cairo_t *cr)
{
	struct text_cache *tc = cairo_get_user_data(cr, &text_cache_key);

	if (tc == NULL) {
		tc = g_new0(struct text_cache, 1);
		tc->context = pango_cairo_create_context(cr);
		tc->layouts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		    cached_layout_free);
		if (cairo_set_user_data(cr, &text_cache_key, tc, text_cache_free) !=
		    CAIRO_STATUS_SUCCESS) {
			/* out of memory: cairo's status says so at the end */
			text_cache_free(tc);
			return NULL;
		}
	}
	return tc;
}

/* A layout in a font, of our own markup or (plain) of text shown as it
 * is, on one line; its natural width in *width (to g_object_unref).  The
 * shared context takes cr's transformation and font options first, as
 * pango_cairo_create_layout's own would. */
static PangoLayout *
new_layout(cairo_t *cr, const char *font, const char *text, int plain, PangoAlignment align,
    double *width)
{
	struct text_cache *tc = text_cache_of(cr);
	PangoLayout *layout;
	PangoFontDescription *desc = NULL;
	int w, h, own = 0;

	if (tc == NULL)
		layout = pango_cairo_create_layout(cr);
	else {
		pango_cairo_update_context(cr, tc->context);
		layout = pango_layout_new(tc->context);
		for (unsigned i = 0; i < tc->nfonts && desc == NULL; i++)
			if (strcmp(tc->font[i].name, font) == 0)
				desc = tc->font[i].desc;
	}
	if (desc == NULL) {
		desc = pango_font_description_from_string(font);
		if (tc != NULL && tc->nfonts < TEXT_FONTS) {
			tc->font[tc->nfonts].name = g_strdup(font);
			tc->font[tc->nfonts++].desc = desc;
		} else
			own = 1;
	}
	pango_layout_set_font_description(layout, desc);
	if (own)
		pango_font_description_free(desc);
	/* before it is measured: setting it after lays the text out again */
	pango_layout_set_alignment(layout, align);
	if (plain) {
		/* a paragraph separator is drawn, not a second line over the boards */
		pango_layout_set_single_paragraph_mode(layout, TRUE);
		pango_layout_set_text(layout, text, -1);
	} else
		pango_layout_set_markup(layout, text, -1);
	pango_layout_get_size(layout, &w, &h);
	*width = (double)w / PANGO_SCALE;
	return layout;
}

/* A layout of markup in a font (to g_object_unref). */
static PangoLayout *
layout_of(cairo_t *cr, const char *font, const char *markup, double *width)
{
	return new_layout(cr, font, markup, 0, PANGO_ALIGN_LEFT, width);
}

/* The same, made once a page and shared: the caller neither changes nor
 * frees it.  where: its alignment (text_aligned), part of its key. */
static PangoLayout *
shared_layout(cairo_t *cr, const char *font, const char *markup, double where,
    double *width)
{
	struct text_cache *tc = text_cache_of(cr);
	/* the lines of a label ("N" over its points) aligned alike */
	PangoAlignment align = where == 0 ? PANGO_ALIGN_LEFT :
	    where == 1 ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_CENTER;
	struct cached_layout *c;
	char *key;

	if (tc == NULL) {
		/* no cache: kept by cr until it goes, all the same */
		static const cairo_user_data_key_t last;
		PangoLayout *layout = new_layout(cr, font, markup, 0, align, width);

		cairo_set_user_data(cr, &last, layout, g_object_unref);
		return layout;
	}
	key = g_strconcat(align == PANGO_ALIGN_LEFT ? "L" : align == PANGO_ALIGN_RIGHT ? "R" : "C",
	    font, "\001", markup, NULL);
	if ((c = g_hash_table_lookup(tc->layouts, key)) != NULL) {
		g_free(key);
		*width = c->width;
		return c->layout;
	}
	c = g_new(struct cached_layout, 1);
	c->layout = new_layout(cr, font, markup, 0, align, &c->width);
	g_hash_table_insert(tc->layouts, key, c);
	*width = c->width;
	return c->layout;
}

/* The page's shared layouts let go (after cairo_show_page). */
static void
forget_page_layouts(cairo_t *cr)
{
	struct text_cache *tc = cairo_get_user_data(cr, &text_cache_key);

	if (tc != NULL)
		g_hash_table_remove_all(tc->layouts);
}

/* Draws markup with its top at y: left-aligned at x (where 0), centred on
 * it (0.5) or right-aligned (1). */
static void
text_aligned(cairo_t *cr, double x, double y, const char *font, const char *markup,
    double where)
{
	double width;
	PangoLayout *layout = shared_layout(cr, font, markup, where, &width);

	cairo_move_to(cr, x - where * width, y);
	pango_cairo_show_layout(cr, layout);
}

static void
text(cairo_t *cr, double x, double y, const char *font, const char *markup)
{
	text_aligned(cr, x, y, font, markup, 0);
}

/* The same as a paragraph of the document's structure. */
static void
tagged_text(cairo_t *cr, double x, double y, const char *font, const char *markup)
{
	cairo_tag_begin(cr, "P", NULL);
	text_aligned(cr, x, y, font, markup, 0);
	cairo_tag_end(cr, "P");
}

static double
text_width(cairo_t *cr, const char *font, const char *markup)
{
	double width;

	shared_layout(cr, font, markup, 0, &width);
	return width;
}

/* A layout of plain text (plain_text()) on one line, its natural width
 * in *width (to g_object_unref). */
static PangoLayout *
plain_layout(cairo_t *cr, const char *font, const char *text, double *width)
{
	return new_layout(cr, font, text, 1, PANGO_ALIGN_LEFT, width);
}

/* A hand's four suits, a line each: "\u2660 A K 10 7", a dash for a void.
 * Drawn in HAND_PT (times the layout's scale), or, when a suit is too long for the hand's column, in
 * the largest size down to HAND_MIN_PT at which every suit fits; a suit
 * too long even then wraps onto more lines at HAND_MIN_PT, its ranks
 * indented under the first (as the HTML wraps it), and the board makes
 * room.  A hand is never drawn smaller than HAND_MIN_PT. */
#define HAND_PT 10.0
#define HAND_MIN_PT 8.0
/* between ranks, a space narrower than the font's: "A Q 10 6 5 2" keeps
 * its gaps (a space, for a reader who copies it) but takes less room.
 * A four-per-em space (U+2005, a quarter of an em), which prints as the
 * font's space in x-small type did (0.22 em, positions rounded to the
 * point); not that space itself: a change of size is a run of its own,
 * and a hand's line of a dozen runs was shaped and drawn run by run, the
 * most of the PDF's time.  (A thin space, U+2009, is narrower in DejaVu Sans: "A Q
 * 10" read "AQ10".) */
#define RANK_GAP "\u2005"
#define HAND_LINE_MAX 512
struct hand {
	char lines[4][HAND_LINE_MAX];
	char font[64];
	double width;		/* of the column */
	int wrap;		/* long suits wrap (at HAND_MIN_PT) */
	int nlines[4];		/* the lines of each suit */
	double line;		/* the height of one line in the hand's font */
};

/* A suit's layout in the hand's font, wrapped when the hand is (to
 * g_object_unref). */
static PangoLayout *
suit_layout(cairo_t *cr, const struct hand *hand, unsigned suit)
{
	double width;
	PangoLayout *layout;
	char head[64];

	/* on one line: the layout hand_prepare measured */
	if (!hand->wrap)
		return g_object_ref(shared_layout(cr, hand->font, hand->lines[suit], 0, &width));
	layout = layout_of(cr, hand->font, hand->lines[suit], &width);
	snprintf(head, sizeof head, "%s ", suit_markup[suit]);
	pango_layout_set_width(layout, (int)(hand->width * PANGO_SCALE));
	pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
	/* the lines after the first under the first rank */
	pango_layout_set_indent(layout, -(int)(text_width(cr, hand->font, head) *
	    PANGO_SCALE));
	return layout;
}

static void
hand_prepare(cairo_t *cr, struct hand *hand, const struct dl_deal *deal, unsigned seat,
    double width, double scale)
{
	static const char *const ranks[13] = {
		"A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2",
	};
	double size;

	hand->width = width;
	for (unsigned suit = 0; suit < 4; suit++) {
		char *line = hand->lines[suit];
		size_t len = (size_t)snprintf(line, HAND_LINE_MAX, "%s ", suit_markup[suit]);
		unsigned n = 0;
		for (unsigned i = 0; i < DL_HAND_CARDS; i++) {
			unsigned card = deal->hand[seat][i];
			if (card / 13 == suit)
				len += (size_t)snprintf(line + len, HAND_LINE_MAX - len, "%s%s",
				    n++ > 0 ? RANK_GAP : "", ranks[card % 13]);
		}
		if (n == 0)
			snprintf(line + len, HAND_LINE_MAX - len, "\u2014");
	}
	/* widths do not scale quite in proportion: the largest size that fits */
	hand->wrap = 1;
	for (size = HAND_PT * scale; size >= HAND_MIN_PT; size -= 0.25) {
		double widest = 0;
		snprintf(hand->font, sizeof hand->font, FONT " %.2f", size);
		for (unsigned suit = 0; suit < 4; suit++) {
			double w = text_width(cr, hand->font, hand->lines[suit]);
			if (w > widest)
				widest = w;
		}
		if (widest <= width) {
			hand->wrap = 0;
			break;
		}
	}
	if (hand->wrap)
		snprintf(hand->font, sizeof hand->font, FONT " %.2f", HAND_MIN_PT);
	for (unsigned suit = 0; suit < 4; suit++) {
		PangoLayout *layout = suit_layout(cr, hand, suit);
		int h;
		hand->nlines[suit] = pango_layout_get_line_count(layout);
		pango_layout_get_size(layout, NULL, &h);
		hand->line = (double)h / PANGO_SCALE / hand->nlines[suit];
		g_object_unref(layout);
	}
}

/* The height of a hand whose suits are pitch apart (the lines of a
 * wrapped suit closer, a line of its font apart). */
static double
hand_height(const struct hand *hand, double pitch)
{
	double h = 3 * pitch + hand->nlines[3] * hand->line;

	for (unsigned suit = 0; suit < 3; suit++)
		h += (hand->nlines[suit] - 1) * hand->line;
	return h;
}

static void
draw_hand(cairo_t *cr, double x, double y, const struct hand *hand, double pitch)
{
	for (unsigned suit = 0; suit < 4; suit++) {
		PangoLayout *layout = suit_layout(cr, hand, suit);
		cairo_move_to(cr, x, y);
		pango_cairo_show_layout(cr, layout);
		g_object_unref(layout);
		y += pitch + (hand->nlines[suit] - 1) * hand->line;
	}
}

/* The compass: each seat's letter and high-card points, in COMPASS_PT
 * times the scale; the strips of the vulnerable seats shaded red, as
 * clubs' boards have them and as the HTML's compass shades its cells
 * (North's and South's strips across the top and the foot, East's and
 * West's the middle third at the sides); the dealer's letter white on a
 * black disc. */
#define COMPASS_PT 8.0
static void
draw_compass(cairo_t *cr, double x, double y, double size, const struct dl_deal *deal,
    double scale)
{
	static const double at[4][2] = { { 0.5, 0.08 }, { 0.84, 0.36 }, { 0.5, 0.62 }, { 0.16, 0.36 } };
	/* each seat's strip: its left, top, width and height in thirds */
	static const double strip[4][4] = {
		{ 0, 0, 3, 1 }, { 2, 1, 1, 1 }, { 0, 2, 3, 1 }, { 0, 1, 1, 1 },
	};
	const double pt = COMPASS_PT * scale;
	char label[64], font[64];
	unsigned points[4];

	high_card_points(deal, points);
	for (unsigned seat = 0; seat < 4; seat++) {
		unsigned ns = seat % 2 == 0;
		if (!(deal->vulnerability == 3 || (ns && deal->vulnerability == 1) ||
		    (!ns && deal->vulnerability == 2)))
			continue;
		cairo_rectangle(cr, x + strip[seat][0] * size / 3, y + strip[seat][1] * size / 3,
		    strip[seat][2] * size / 3, strip[seat][3] * size / 3);
	}
	cairo_set_source_rgb(cr, 0.96, 0.70, 0.70);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 0.8);
	cairo_rectangle(cr, x, y, size, size);
	cairo_stroke(cr);
	for (unsigned seat = 0; seat < 4; seat++) {
		double lx = x + at[seat][0] * size, ly = y + at[seat][1] * size;
		if (seat == (unsigned)deal->dealer) {
			/* round the letter, clear of the points under it */
			cairo_new_sub_path(cr);
			cairo_arc(cr, lx, ly + 0.56 * pt, 0.72 * pt, 0, 2 * G_PI);
			cairo_fill(cr);
			snprintf(label, sizeof label, "<span foreground=\"white\"><b>%c</b></span>\n%u",
			    DL_SEAT_LETTERS[seat], points[seat]);
		} else
			snprintf(label, sizeof label, "<b>%c</b>\n%u", DL_SEAT_LETTERS[seat], points[seat]);
		snprintf(font, sizeof font, FONT " %.2f", pt);
		text_aligned(cr, lx, ly, font, label, 0.5);
	}
}

/* The double-dummy tricks under their caption, "Tricks (double dummy)"
 * as the HTML says it: a row a declarer (N, S, E, W, a thin rule between
 * the sides), a column a strain.  The type is the layout's (9 at six a
 * page, as the par; more at four and one), its rows row times it apart;
 * no rule between the digits, two figures wide and a space apart (a
 * grid's lines made it "NT\u2660").  The caption is
 * smaller, and narrowed to the width given (West's column, under which
 * it is drawn at six and one a page). */
#define CAPTION_TEXT "Tricks (double dummy)"
#define FIGURE_SPACE "\u2007"
struct tricks {
	char font[64], bold[64], caption[64];
	double pt;		/* the type */
	double seat, cw;	/* the declarers' column, a strain's */
	double cell;		/* a strain's tricks, two digits wide */
	double lead;		/* from the declarers' rule to the tricks */
	double ch;		/* a row */
	double caption_h;	/* the caption's line */
	double w, h;		/* the whole, caption and rows */
};

static void
tricks_measure(cairo_t *cr, struct tricks *t, const struct layout *l, double row,
    double caption_room)
{
	double size, pad;

	t->pt = l->tricks;
	snprintf(t->font, sizeof t->font, FONT " %.2f", t->pt);
	snprintf(t->bold, sizeof t->bold, FONT " Bold %.2f", t->pt);
	pad = 0.3 * t->pt;
	/* a row's tricks are one line of text, each two figures wide (a
	 * figure space before 0 to 9) and a space apart, so that the columns
	 * line up and a reader of the text (pdftotext, a copy) takes the row
	 * as a row, not five columns */
	t->cell = text_width(cr, t->font, "13");
	t->cw = text_width(cr, t->font, "13 13") - t->cell;
	/* the declarers' letters, then their rule and a little air */
	t->seat = text_width(cr, t->bold, "W") + pad;
	t->lead = 0.25 * t->pt;
	t->ch = row * t->pt;
	t->w = t->seat + t->lead + DL_STRAINS * t->cw - (t->cw - t->cell);
	/* the largest size that fits, down to 0.6 of the layout's */
	for (size = l->caption;; size -= 0.25) {
		snprintf(t->caption, sizeof t->caption, FONT " %.2f", size);
		if (size - 0.25 < 0.6 * l->caption ||
		    text_width(cr, t->caption, CAPTION_TEXT) <= caption_room)
			break;
	}
	/* its line: the font's height (Pango's points, 1.552 em of DejaVu) */
	t->caption_h = 1.552 * size + 0.5;
	t->h = t->caption_h + 5 * t->ch;
}

static void
draw_tricks(cairo_t *cr, double x, double y, const struct dl_analysis *a,
    const struct tricks *t)
{
	static const unsigned rows[4] = { DL_NORTH, DL_SOUTH, DL_EAST, DL_WEST };
	const double cw = t->cw, ch = t->ch;
	char cell[16];

	text(cr, x, y, t->caption, CAPTION_TEXT);
	y += t->caption_h;
	cairo_set_line_width(cr, 0.5);
	cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
	/* under the strains, after the declarers, and between the sides */
	cairo_move_to(cr, x, y + ch);
	cairo_line_to(cr, x + t->w, y + ch);
	cairo_move_to(cr, x + t->seat, y);
	cairo_line_to(cr, x + t->seat, y + 5 * ch);
	cairo_stroke(cr);
	cairo_set_line_width(cr, 0.3);
	cairo_set_source_rgb(cr, 0.65, 0.65, 0.65);
	cairo_move_to(cr, x, y + 3 * ch);
	cairo_line_to(cr, x + t->w, y + 3 * ch);
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	/* a digit's ink in the middle of its row: DejaVu's digits stand
	 * from 0.265 to 1.237 of the size below the top of their line */
	const double in = ch / 2 - 0.751 * t->pt;
	/* each strain over its column's units (most tricks are one figure) */
	for (unsigned s = 0; s < DL_STRAINS; s++)
		text_aligned(cr, x + t->seat + t->lead + s * cw + 0.75 * t->cell, y + in, t->bold,
		    strain_markup[s], 0.5);
	for (unsigned r = 0; r < 4; r++) {
		char line[64];
		size_t n = 0;
		snprintf(cell, sizeof cell, "<b>%c</b>", DL_SEAT_LETTERS[rows[r]]);
		text_aligned(cr, x + t->seat / 2, y + (r + 1) * ch + in, t->font, cell, 0.5);
		for (unsigned s = 0; s < DL_STRAINS; s++) {
			unsigned v = a->tricks[rows[r]][s];
			n += (size_t)snprintf(line + n, sizeof line - n, "%s%s%u", s > 0 ? " " : "",
			    v < 10 ? FIGURE_SPACE : "", v);
		}
		text(cr, x + t->seat + t->lead, y + (r + 1) * ch + in, t->font, line);
	}
}

/* The par line in the HTML's words, "Par: 3NT by N-S or 5\u2663 by North,
 * +600", "Par: 5\u2663 or 5\u2666 by N-S, +400", wrapped between its
 * contracts to the board's width, the lines after the first under the
 * first contract; in PAR_PT times the scale, PAR_LINE times it apart. */
#define PAR_PT 9.0
#define PAR_LINE 11.0
#define PAR_LINES_MAX (DL_PAR_CONTRACTS_MAX + 1)
struct par {
	char lines[PAR_LINES_MAX][512];
	unsigned n;
	double indent;
	char font[64];
	double line;		/* apart */
};

static void
par_prepare(cairo_t *cr, struct par *par, const struct dl_analysis *a, double width,
    double scale)
{
	static const char head[] = "Par:";
	char piece[192];
	const char *font = par->font;
	int score;

	snprintf(par->font, sizeof par->font, FONT " %.2f", PAR_PT * scale);
	par->line = PAR_LINE * scale;
	par->n = 1;
	par->indent = 0;
	if (a->ncontracts == 0) {
		snprintf(par->lines[0], sizeof par->lines[0], "Par 0: passed out");
		return;
	}
	(void)par_side(a, &score);
	snprintf(par->lines[0], sizeof par->lines[0], "%s", head);
	par->indent = text_width(cr, font, head) + text_width(cr, font, " ");
	unsigned n = a->ncontracts < DL_PAR_CONTRACTS_MAX ? a->ncontracts : DL_PAR_CONTRACTS_MAX;
	for (unsigned i = 0; i < n; i++) {
		const struct dl_contract *c = &a->contracts[i];
		const char *who = declarers_words(c->declarers);
		char result[16] = "", by[32] = "", after[32] = " or";
		if (c->result != 0)
			snprintf(result, sizeof result, "%s%d", c->result > 0 ? "+" : "\u2212",
			    c->result > 0 ? c->result : -c->result);
		/* who declares, once for contracts in a row that the same
		 * seats declare; the score after the last, from their side */
		if (i + 1 == n || a->contracts[i + 1].declarers != c->declarers)
			snprintf(by, sizeof by, " by %s", who != NULL ? who : "?");
		if (i + 1 == n)
			snprintf(after, sizeof after, ", %s%d", score < 0 ? "\u2212" : "+",
			    score < 0 ? -score : score);
		snprintf(piece, sizeof piece, "%u%s%s%s%s%s", c->level,
		    strain_markup[c->strain % DL_STRAINS], c->doubled ? "\u00d7" : "", result,
		    by, after);
		/* on this line if it fits (the first contract always: it
		 * fits beside the head), else on the next */
		char *line = par->lines[par->n - 1];
		char joined[sizeof par->lines[0]];
		snprintf(joined, sizeof joined, "%s%s%s", line, *line != '\0' ? " " : "", piece);
		double x = par->n > 1 ? par->indent : 0;
		if (i == 0 || x + text_width(cr, font, joined) <= width)
			snprintf(line, sizeof par->lines[0], "%s", joined);
		else if (par->n < PAR_LINES_MAX)
			snprintf(par->lines[par->n++], sizeof par->lines[0], "%s", piece);
	}
}

/* Draws the first n lines of the par, the last of them ending in an
 * ellipsis when some are left out (a board with no room for them). */
static void
draw_par(cairo_t *cr, double x, double y, double width, const struct par *par, unsigned n)
{
	for (unsigned i = 0; i < n && i < par->n; i++) {
		double w, at = i > 0 ? par->indent : 0;
		char line[sizeof par->lines[0] + 8];
		snprintf(line, sizeof line, "%s%s", par->lines[i], i + 1 == n && n < par->n ?
		    " \u2026" : "");
		PangoLayout *layout = layout_of(cr, par->font, line, &w);
		/* a contract wider than the board (none is) cannot leave it */
		pango_layout_set_width(layout, (int)((width - at) * PANGO_SCALE));
		pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
		cairo_move_to(cr, x + at, y + i * par->line);
		pango_cairo_show_layout(cr, layout);
		g_object_unref(layout);
	}
}

/* A board in its box: its number, dealer and vulnerability at the top
 * left; North above the compass, West and East beside it, South under it;
 * with analysis, the tricks under West, their caption tucked under
 * West's hand beside the compass's foot (so that it costs the box no
 * height), and the par at the foot; North and South begin right of the
 * tricks (the tricks' 9 points need more than West's column), inside the
 * compass.  The bands of the board are as high as what they hold (a hand
 * whose long suit wraps is taller): when they do not all fit the box,
 * the hands' lines, the gaps and the tricks' rows close up, and at the
 * last the par keeps what lines it has room for.  Everything else is
 * drawn scale times its size at six a page.  With notes (one board a page, for teaching), the par follows
 * the tricks and the rest of the box is ruled for a teacher's notes. */
#define COMPASS 60.0
#define NOTES_PT 11.0
#define NOTES_RULE 24.0
static void
draw_board(cairo_t *cr, double x, double y, double w, double h, const struct held_board *b,
    const struct layout *l)
{
	static const char *const vulnerable[4] = {
		"None vulnerable", "N-S vulnerable", "E-W vulnerable", "All vulnerable",
	};
	/* the hands' lines, the gaps and the tricks' rows (times their
	 * type), closer at each try */
	const struct { double pitch, gap, row; } fits[] = {
		{ 13 * l->lead, 4 * l->air, 1.3 }, { 13, 4, 1.25 }, { 12.5, 3, 1.2 },
		{ 12, 2, 1.17 },
	};
	const struct dl_deal *d = &b->deal;
	const double s = l->scale, t = l->type, pad = 7 * s, number_h = 46 * s;
	const double compass = COMPASS * s, par_line = PAR_LINE * t;
	const int notes = l->per_page == 1;
	double side = (w - 2 * pad - compass) / 2, cx = x + pad + side;
	struct hand hands[4];
	struct par par;
	struct tricks tricks;
	char label[64], font[64];
	/* where North and South begin: inside the compass's edge, or right
	 * of the tricks beside South */
	double ns = cx + 6 * s;

	cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
	cairo_set_line_width(cr, 0.8);
	cairo_new_sub_path(cr);
	cairo_arc(cr, x + w - 6, y + 6, 6, -G_PI / 2, 0);
	cairo_arc(cr, x + w - 6, y + h - 6, 6, 0, G_PI / 2);
	cairo_arc(cr, x + 6, y + h - 6, 6, G_PI / 2, G_PI);
	cairo_arc(cr, x + 6, y + 6, 6, G_PI, 3 * G_PI / 2);
	cairo_close_path(cr);
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);

	/* tagged for a screen reader: a section a board, its number a
	 * heading, then its paragraphs in reading order */
	cairo_tag_begin(cr, "Sect", NULL);
	snprintf(label, sizeof label, "<b>%u</b>", d->board);
	cairo_tag_begin(cr, "H2", NULL);
	snprintf(font, sizeof font, FONT " %.2f", 22 * s);
	text(cr, x + pad, y + pad - 3 * s, font, label);
	cairo_tag_end(cr, "H2");
	snprintf(label, sizeof label, "Dealer %s\n%s", seat_name[d->dealer],
	    vulnerable[d->vulnerability]);
	snprintf(font, sizeof font, FONT " %.2f", 7.5 * s);
	tagged_text(cr, x + pad, y + pad + 28 * s, font, label);

	if (b->analysed) {
		tricks_measure(cr, &tricks, l, fits[0].row,
		    l->tricks_band ? w - 2 * pad : side - 4 * s);
		if (!l->tricks_band && x + pad + tricks.w + 8 * s > ns)
			ns = x + pad + tricks.w + 8 * s;
	}
	hand_prepare(cr, &hands[DL_NORTH], d, DL_NORTH, x + w - pad - ns, t);
	hand_prepare(cr, &hands[DL_SOUTH], d, DL_SOUTH, x + w - pad - ns, t);
	hand_prepare(cr, &hands[DL_WEST], d, DL_WEST, side - 6 * s, t);
	hand_prepare(cr, &hands[DL_EAST], d, DL_EAST, side - 8 * s, t);
	par.n = 0;
	if (b->analysed)
		par_prepare(cr, &par, &b->analysis, w - 2 * pad, t);

	/* the bands, from the top: North and the number; West, the compass
	 * and East; South and the tricks; the par */
	double pitch = 0, gap = 0, band[4] = { 0, 0, 0, 0 }, room = 0;
	double tricks_at = 0;	/* beside South: the caption's top, from South's */
	for (size_t f = 0; f < sizeof fits / sizeof fits[0]; f++) {
		pitch = fits[f].pitch * t;
		gap = fits[f].gap * s;
		band[0] = hand_height(&hands[DL_NORTH], pitch);
		band[0] = band[0] > number_h ? band[0] : number_h;
		band[1] = compass;
		for (unsigned seat = DL_EAST; seat <= DL_WEST; seat += 2)
			if (hand_height(&hands[seat], pitch) > band[1])
				band[1] = hand_height(&hands[seat], pitch);
		band[2] = hand_height(&hands[DL_SOUTH], pitch);
		band[3] = 0;
		if (b->analysed) {
			tricks.ch = fits[f].row * tricks.pt;
			tricks.h = tricks.caption_h + 5 * tricks.ch;
			if (l->tricks_band)
				band[3] = tricks.h + gap;
			else {
				/* the caption just under West's last line (its
				 * ranks stand on the line's baseline, 0.8 of it
				 * down; the font's ascent and descent, 0.75 of it),
				 * beside the compass's foot */
				double west = hand_height(&hands[DL_WEST], pitch);
				tricks_at = (band[1] - west) / 2 + west - 0.25 * hands[DL_WEST].line +
				    gap - s - band[1] - gap;
				if (tricks_at + tricks.h > band[2])
					band[2] = tricks_at + tricks.h;
			}
		}
		room = h - 2 * pad - band[0] - band[1] - band[2] - band[3] - 2 * gap;
		if (room - (par.n > 0 ? gap + par.n * par_line : 0) >= 0)
			break;
	}

	double top = y + pad, mid = top + band[0] + gap, low = mid + band[1] + gap;
	/* North, West, East, South, then the compass's points: the order a
	 * hand record is read in */
	cairo_tag_begin(cr, "P", NULL);
	draw_hand(cr, ns, top, &hands[DL_NORTH], pitch);
	cairo_tag_end(cr, "P");
	cairo_tag_begin(cr, "P", NULL);
	draw_hand(cr, x + pad, mid + (band[1] - hand_height(&hands[DL_WEST], pitch)) / 2,
	    &hands[DL_WEST], pitch);
	cairo_tag_end(cr, "P");
	cairo_tag_begin(cr, "P", NULL);
	draw_hand(cr, cx + compass + 8 * s,
	    mid + (band[1] - hand_height(&hands[DL_EAST], pitch)) / 2, &hands[DL_EAST], pitch);
	cairo_tag_end(cr, "P");
	cairo_tag_begin(cr, "P", NULL);
	draw_hand(cr, ns, low, &hands[DL_SOUTH], pitch);
	cairo_tag_end(cr, "P");
	/* the compass's points and the tricks as paragraphs of their text:
	 * cairo 1.16 gives a figure no alternative text, nor a table rows */
	cairo_tag_begin(cr, "P", NULL);
	draw_compass(cr, cx, mid + (band[1] - compass) / 2, compass, d, s);
	cairo_tag_end(cr, "P");
	double below = low + band[2] + band[3] + gap;	/* where the notes may begin */
	if (b->analysed) {
		cairo_tag_begin(cr, "P", NULL);
		draw_tricks(cr, x + pad, l->tricks_band ? low + band[2] + gap : low + tricks_at,
		    &b->analysis, &tricks);
		cairo_tag_end(cr, "P");
		/* the lines it has room for, at the foot of the box (or, with
		 * notes, under the tricks) */
		unsigned n = room - gap >= par.n * par_line ? par.n :
		    room - gap >= par_line ? (unsigned)((room - gap) / par_line) : 1;
		double at = notes ? below : y + h - pad - n * par_line;
		cairo_tag_begin(cr, "P", NULL);
		draw_par(cr, x + pad, at, w - 2 * pad, &par, n);
		cairo_tag_end(cr, "P");
		below += n * par_line + gap;
	}
	cairo_tag_end(cr, "Sect");
	if (notes && y + h - pad - below >= 3 * NOTES_RULE) {
		/* a heading, then a rule every NOTES_RULE points to the foot */
		below += 2 * gap;
		snprintf(font, sizeof font, FONT " Bold %.2f", NOTES_PT);
		cairo_tag_begin(cr, "P", NULL);
		text(cr, x + pad, below, font, "Notes");
		cairo_tag_end(cr, "P");
		cairo_set_source_rgb(cr, 0.75, 0.75, 0.75);
		cairo_set_line_width(cr, 0.5);
		for (double ry = below + NOTES_RULE; ry <= y + h - pad; ry += NOTES_RULE) {
			cairo_move_to(cr, x + pad, ry);
			cairo_line_to(cr, x + w - pad, ry);
		}
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
	}
}

/* The page head: the event, bold, at the left, wrapped to two lines at
 * most (and only then cut with an ellipsis), the page's own boards at the
 * right of its first line; under it, on a line of its own across the
 * page, where and when (#S:, #D:) or else the day the deals were made
 * (#T:), cut in its middle should it be longer than the line, so that
 * the date stays; both at the left in every script.  Laid out once for the document (the same room on
 * every page, the widest page's range of boards kept free), measured
 * with Pango, so that nothing runs into anything else or off the paper;
 * the text a reader selects or searches is the whole of it, and the
 * PDF's title keeps the whole event.  The event and site are anyone's
 * text, as long as 500 bytes each. */
#define HEAD_GAP 12.0
/* With the address where the hand record is published after play (#U:),
 * its QR code stands at the head's right, 0.6 mm a module but between 16
 * and 24 mm a side, and no taller than the text beside it where that is
 * 16 mm or more (a phone reads it from a sheet on the table: 57 modules
 * of a third of a millimetre for an address of 200 bytes), its quiet
 * zone clear of the text and the rule, and the text keeps the rest of
 * the width.
 * What the code is, a caption says in two short lines under the range of
 * boards, beside the event's second line (so that a head of two lines of
 * event, a page's tightest, grows no taller: on Letter its boards had no
 * height to spare); the address in words follows the site and date on
 * their line, or has a line of its own when they leave it too little
 * room, cut in its middle should it be wider than the text (an address
 * of 200 bytes: the code holds it whole). */
#define QR_MODULE (0.6 * MM)
#define QR_SIDE_MIN (16 * MM)
#define QR_SIDE_MAX (24 * MM)
#define QR_CAPTION "This hand record\nonline after play"
#define QR_FONT FONT " 7"
struct head {
	PangoLayout *event, *where, *caption, *url;
	double event_h, where_h, height;
	/* where the site and date's line begins, under the event (and the
	 * caption); the address's line (the same when it is beside them) */
	double where_y, url_y, url_x;
	/* the range of boards' column, its width and its height */
	double range_w, range_h;
	/* the text's width, left of the code (the page's width without one) */
	double text_w;
	/* the code, its side (its modules' square) and a module's */
	const QRcode *qr;
	double qr_side, module;
};

static void
range_text(char *buf, size_t size, const struct pdf_state *st, size_t first)
{
	size_t per = st->layout->per_page;
	size_t last = first + per - 1 < st->n ? first + per - 1 : st->n - 1;

	/* as the HTML says it */
	if (st->boards[first].deal.board == st->boards[last].deal.board)
		snprintf(buf, size, "Board %u", st->boards[first].deal.board);
	else
		snprintf(buf, size, "Boards %u\u2013%u", st->boards[first].deal.board,
		    st->boards[last].deal.board);
}

static void
head_layout(cairo_t *cr, double pw, double m, const struct pdf_state *st, const char *event,
    const char *when, const char *url, const QRcode *qr, double spare, struct head *head)
{
	char range[64];
	double rw = 0, w, room = pw - 2 * m, right_h = 0;
	int h;

	memset(head, 0, sizeof *head);
	head->qr = qr;
	head->text_w = room;
	if (qr != NULL) {
		double side = qr->width * QR_MODULE;
		head->qr_side = side < QR_SIDE_MIN ? QR_SIDE_MIN : side > QR_SIDE_MAX ? QR_SIDE_MAX :
		    side;
		head->module = head->qr_side / qr->width;
		/* the quiet zone, or the gap of the head's text, whichever is more */
		head->text_w = room - head->qr_side -
		    (QR_QUIET * head->module > HEAD_GAP ? QR_QUIET * head->module : HEAD_GAP);
	}
	room = head->text_w;

	for (size_t first = 0; first < st->n; first += st->layout->per_page) {
		range_text(range, sizeof range, st, first);
		if ((w = text_width(cr, FONT " 10", range)) > rw)
			rw = w;
	}
	head->range_w = rw;
	if (qr != NULL) {
		/* under the range, right-aligned as it is */
		head->caption = new_layout(cr, QR_FONT, QR_CAPTION, 0, PANGO_ALIGN_RIGHT, &w);
		if (w > head->range_w)
			head->range_w = w;
		pango_layout_get_size(head->caption, NULL, &h);
		/* the range's line, 1.552 em of its 10 points, from 3 down */
		right_h = 3 + 1.552 * 10 + (double)h / PANGO_SCALE;
	}
	head->event = plain_layout(cr, FONT " Bold 13", event, &w);
	/* at the left in any script: an Arabic or Hebrew event, though
	 * written right to left, is not pushed against the range */
	pango_layout_set_auto_dir(head->event, FALSE);
	pango_layout_set_width(head->event, (int)((room - head->range_w - HEAD_GAP) * PANGO_SCALE));
	pango_layout_set_wrap(head->event, PANGO_WRAP_WORD_CHAR);
	pango_layout_set_height(head->event, -2);
	pango_layout_set_ellipsize(head->event, PANGO_ELLIPSIZE_END);
	pango_layout_get_size(head->event, NULL, &h);
	head->event_h = (double)h / PANGO_SCALE;
	head->where_y = (head->event_h > right_h ? head->event_h : right_h) + 1;
	head->url_y = head->where_y;
	if (when != NULL) {
		head->where = plain_layout(cr, FONT " 10", when, &w);
		pango_layout_set_auto_dir(head->where, FALSE);
		pango_layout_set_width(head->where, (int)(room * PANGO_SCALE));
		pango_layout_set_ellipsize(head->where, PANGO_ELLIPSIZE_MIDDLE);
		pango_layout_get_size(head->where, NULL, &h);
		head->where_h = (double)h / PANGO_SCALE;
	}
	/* the text's foot, then the rule 3 points under it, or under the
	 * code's quiet zone */
	head->height = head->where_y + (when != NULL ? head->where_h : -1);
	if (qr != NULL) {
		double uw, ww = when != NULL ? w : 0;

		double code_h = head->qr_side + QR_QUIET * head->module, uh;

		head->url = plain_layout(cr, QR_FONT, url, &uw);
		pango_layout_get_size(head->url, NULL, &h);
		uh = (double)h / PANGO_SCALE;
		if (when == NULL || (ww + HEAD_GAP + uw > room && head->height + 1 + uh <=
		    QR_SIDE_MIN * (1 + (double)QR_QUIET / qr->width) + spare)) {
			/* a line of its own, where the code's least height
			 * (and the height the page spares) leaves room for it */
			head->url_y = head->height + 1;
			pango_layout_set_width(head->url, (int)(room * PANGO_SCALE));
			pango_layout_set_ellipsize(head->url, PANGO_ELLIPSIZE_MIDDLE);
			head->height = head->url_y + uh;
		} else {
			/* beside the site and date, their baselines one; when
			 * both do not fit, the address cut in its middle (the
			 * code and the link hold it whole), the site and date
			 * too only when they would leave it under a third of
			 * the line */
			if (ww + HEAD_GAP + uw > room) {
				double keep = room - ww - HEAD_GAP > room / 3 ? room - ww - HEAD_GAP :
				    room / 3;
				pango_layout_set_width(head->url, (int)(keep * PANGO_SCALE));
				pango_layout_set_ellipsize(head->url, PANGO_ELLIPSIZE_MIDDLE);
				pango_layout_set_width(head->where,
				    (int)((room - keep - HEAD_GAP) * PANGO_SCALE));
				pango_layout_get_size(head->where, &h, NULL);
				ww = (double)h / PANGO_SCALE;
			}
			head->url_x = ww + HEAD_GAP;
			head->url_y = head->where_y + 0.928 * (10 - 7) * 4 / 3;
		}
		/* no taller than the text beside it, where it can: a page
		 * head grown taller takes the boards' height (on Letter a
		 * board of three par contracts under a two-line event would
		 * lose its par's second line), and a code of 0.33 mm a module
		 * still reads from a sheet */
		if (code_h > head->height) {
			double fit = head->height / (1 + (double)QR_QUIET / qr->width);
			head->qr_side = fit > QR_SIDE_MIN ? fit : QR_SIDE_MIN;
			head->module = head->qr_side / qr->width;
			code_h = head->qr_side + QR_QUIET * head->module;
		}
		if (code_h > head->height)
			head->height = code_h;
	}
	head->height += 3;
}

static void
head_free(struct head *head)
{
	g_object_unref(head->event);
	if (head->where != NULL)
		g_object_unref(head->where);
	if (head->caption != NULL)
		g_object_unref(head->caption);
	if (head->url != NULL)
		g_object_unref(head->url);
}

/* The code's dark modules, a square of side at (x, y), a rectangle for
 * each run of them in a row. */
static void
draw_qr(cairo_t *cr, double x, double y, double side, const QRcode *qr)
{
	double module = side / qr->width;

	for (int r = 0; r < qr->width; r++)
		for (int c = 0; c < qr->width;) {
			int run = 0;
			while (c + run < qr->width && qr_dark(qr, c + run, r))
				run++;
			if (run == 0) {
				c++;
				continue;
			}
			cairo_rectangle(cr, x + c * module, y + r * module, run * module, module);
			c += run;
		}
	cairo_fill(cr);
}

/* The head, tagged: the event the document's heading on its first page
 * (a paragraph on the others, which repeat it); the code and the address
 * a link to it, for a PDF read on a screen. */
static void
draw_head(cairo_t *cr, double pw, double m, const struct head *head, const char *range,
    unsigned page, const char *link)
{
	const char *tag = page == 1 ? "H1" : "P";
	double right = m + head->text_w;

	cairo_tag_begin(cr, tag, NULL);
	cairo_move_to(cr, m, m);
	pango_cairo_show_layout(cr, head->event);
	cairo_tag_end(cr, tag);
	cairo_tag_begin(cr, "P", NULL);
	/* the range on the event's first line, their baselines one */
	text_aligned(cr, right, m + 3, FONT " 10", range, 1);
	if (head->caption != NULL) {
		int cw;

		pango_layout_get_size(head->caption, &cw, NULL);
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		cairo_move_to(cr, right - (double)cw / PANGO_SCALE, m + 3 + 1.552 * 10);
		pango_cairo_show_layout(cr, head->caption);
		cairo_set_source_rgb(cr, 0, 0, 0);
	}
	if (head->where != NULL) {
		cairo_move_to(cr, m, m + head->where_y);
		pango_cairo_show_layout(cr, head->where);
	}
	if (head->qr != NULL) {
		cairo_tag_begin(cr, CAIRO_TAG_LINK, link);
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		cairo_move_to(cr, m + head->url_x, m + head->url_y);
		pango_cairo_show_layout(cr, head->url);
		cairo_set_source_rgb(cr, 0, 0, 0);
		draw_qr(cr, pw - m - head->qr_side, m, head->qr_side, head->qr);
		cairo_tag_end(cr, CAIRO_TAG_LINK);
	}
	cairo_tag_end(cr, "P");
}

static void
draw_page(cairo_t *cr, double pw, double ph, const struct head *head,
    const struct pdf_state *st, size_t first, unsigned page, unsigned pages,
    const struct dl_run *run, const char *link)
{
	const struct layout *l = st->layout;
	const double m = 12 * MM, foot = 16, gap = 3 * MM;
	double top = m + head->height + 6;
	double cw = (pw - 2 * m - (l->cols - 1) * gap) / l->cols;
	double ch = (ph - m - top - foot - (l->rows - 1) * gap) / l->rows;
	char line[256];

	range_text(line, sizeof line, st, first);
	draw_head(cr, pw, m, head, line, page, link);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, m, m + head->height);
	cairo_line_to(cr, pw - m, m + head->height);
	cairo_stroke(cr);

	for (size_t i = 0; i < l->per_page && first + i < st->n; i++)
		draw_board(cr, m + (double)(i % l->cols) * (cw + gap),
		    top + (double)(i / l->cols) * (ch + gap), cw, ch, &st->boards[first + i], l);

	const char *fp = run->fingerprint != NULL ? run->fingerprint : "";
	cairo_set_line_width(cr, 0.5);
	cairo_move_to(cr, m, ph - m - foot + 2);
	cairo_line_to(cr, pw - m, ph - m - foot + 2);
	cairo_stroke(cr);
	cairo_tag_begin(cr, "P", NULL);
	/* the set's number among its event's (#N:) beside the page's, where
	 * the fingerprint's words leave no room for it */
	if (sets_of_event(run) > 0)
		snprintf(line, sizeof line, "Set %lu dealt for this event \u00b7 Page %u of %u",
		    sets_of_event(run), page, pages);
	else
		snprintf(line, sizeof line, "Page %u of %u", page, pages);
	double pw_page = text_width(cr, FONT " 8", line);
	text_aligned(cr, pw - m, ph - m - foot + 5, FONT " 8", line, 1);
	/* the set's fingerprint, which the director matches with the deal
	 * files, and the program that wrote the record, as the HTML's foot
	 * says them; cut with an ellipsis rather than run into the page
	 * number */
	snprintf(line, sizeof line, "Set fingerprint %.4s %.4s %.4s %.4s \u00b7 hand record by %s",
	    fp, fp + (strlen(fp) >= 4 ? 4 : 0), fp + (strlen(fp) >= 8 ? 8 : 0),
	    fp + (strlen(fp) >= 12 ? 12 : 0), run->generator != NULL ? run->generator : "dl");
	double w;
	PangoLayout *layout = plain_layout(cr, FONT " 8", line, &w);
	pango_layout_set_width(layout, (int)((pw - 2 * m - pw_page - HEAD_GAP) * PANGO_SCALE));
	pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
	cairo_move_to(cr, m, ph - m - foot + 5);
	pango_cairo_show_layout(cr, layout);
	g_object_unref(layout);
	cairo_tag_end(cr, "P");
}

/* cairo's PDF is gathered here, to be marked as tagged before it is
 * written (mark_tagged). */
static cairo_status_t
write_out(void *closure, const unsigned char *data, unsigned int length)
{
	g_byte_array_append(closure, data, length);
	return CAIRO_STATUS_SUCCESS;
}

/* The last place of needle in the n bytes at data, or NULL. */
static const char *
find_last(const char *data, size_t n, const char *needle)
{
	size_t len = strlen(needle);

	for (size_t i = n >= len ? n - len + 1 : 0; i-- > 0;)
		if (memcmp(data + i, needle, len) == 0)
			return data + i;
	return NULL;
}

/* The number after key in the NUL-terminated text, or 0. */
static unsigned long
number_after(const char *text, const char *key)
{
	const char *at = strstr(text, key);

	return at == NULL ? 0 : strtoul(at + strlen(key), NULL, 10);
}

/* cairo 1.16 writes the structure tree of a tagged PDF (the tags of
 * draw_page) but no /MarkInfo, which says that the document is tagged: a
 * reader that looks for it (pdfinfo, screen readers, PDF/UA checkers)
 * takes the PDF for an untagged one.  An incremental update, as PDF
 * allows, appends the catalog again with /MarkInfo, the language of the
 * labels and the title shown as the window's: the bytes before stay
 * cairo's.  A PDF whose trailer and catalog are not found as cairo 1.16
 * writes them (a later cairo's) is left as it is. */
static void
mark_tagged(GByteArray *pdf)
{
	const char *data = (const char *)pdf->data, *at, *dict, *end;
	size_t n = pdf->len;
	char *tail = NULL, *object = NULL, *catalog = NULL, *update = NULL;
	unsigned long size, root, info, prev;
	size_t offset, xref_at;

	/* the trailer and startxref: text, in the last bytes */
	if ((at = find_last(data, n, "\ntrailer")) == NULL ||
	    find_last(data, n, "/MarkInfo") != NULL)
		return;
	tail = g_strndup(at, n - (size_t)(at - data));
	size = number_after(tail, "/Size ");
	root = number_after(tail, "/Root ");
	info = number_after(tail, "/Info ");
	prev = number_after(tail, "startxref");
	object = g_strdup_printf("\n%lu 0 obj", root);
	if (size == 0 || root == 0 || prev == 0 ||
	    (at = find_last(data, n, object)) == NULL)
		goto out;
	/* the catalog object, text, up to its endobj */
	end = find_last(at, n - (size_t)(at - data), "endobj");
	dict = end != NULL ? g_strstr_len(at, end - at, "<<") : NULL;
	if (dict == NULL || g_strstr_len(dict, end - dict, "/Catalog") == NULL)
		goto out;
	while (end > dict + 2 && !(end[-1] == '>' && end[-2] == '>'))
		end--;
	if (end <= dict + 2)
		goto out;
	catalog = g_strdup_printf("<< /MarkInfo << /Marked true >> /Lang (en)"
	    " /ViewerPreferences << /DisplayDocTitle true >>%.*s",
	    (int)(end - dict - 2), dict + 2);
	offset = n + 1;
	update = g_strdup_printf("\n%lu 0 obj\n%s\nendobj\n", root, catalog);
	xref_at = n + strlen(update);
	g_free(catalog);
	catalog = info != 0 ? g_strdup_printf(" /Info %lu 0 R", info) : g_strdup("");
	g_byte_array_append(pdf, (const guint8 *)update, (guint)strlen(update));
	g_free(update);
	update = g_strdup_printf("xref\n0 1\n0000000000 65535 f \n%lu 1\n%010zu 00000 n \n"
	    "trailer\n<< /Size %lu /Root %lu 0 R%s /Prev %lu >>\nstartxref\n%zu\n%%%%EOF\n",
	    root, offset, size, root, catalog, prev, xref_at);
	g_byte_array_append(pdf, (const guint8 *)update, (guint)strlen(update));
out:
	g_free(update);
	g_free(catalog);
	g_free(object);
	g_free(tail);
}

/* "site, date" (#S:, #D:), or "dealt DAY" (#T:), or NULL: as plain
 * text (to g_free) */
static gchar *
when_text(const struct dl_run *run)
{
	char day[DEALT_DAY_MAX];
	gchar *raw, *when;

	dealt_day(run, day);
	if (run->site != NULL || run->date != NULL)
		raw = g_strdup_printf("%s%s%s", run->site ? run->site : "",
		    run->site && run->date ? ", " : "", run->date ? run->date : "");
	else if (day[0] != '\0')
		raw = g_strdup_printf("dealt %s", day);
	else
		return NULL;
	when = plain_text(raw);
	g_free(raw);
	return when;
}

static int
pdf_end(struct dl_out *out, const struct dl_run *run, void *state)
{
	struct pdf_state *st = state;
	int letter = paper_is_letter();
	double pw = letter ? 612 : 595.276, ph = letter ? 792 : 841.89;
	size_t per = st->layout->per_page;
	unsigned pages = (unsigned)((st->n + per - 1) / per);
	gchar *event = plain_text(run->event != NULL ? run->event : "Hand record");
	gchar *generator = plain_text(run->generator);
	gchar *when = when_text(run);
	int status = 0;
	GByteArray *pdf = g_byte_array_new();

	cairo_surface_t *surface = cairo_pdf_surface_create_for_stream(write_out, pdf, pw, ph);
	/* cairo writes them as PDF strings, escaped; it fails on text that
	 * is not UTF-8 */
	cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, event);
	cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, generator);
	cairo_t *cr = cairo_create(surface);
	/* no hinting of metrics: text is laid out as it is printed, at any size */
	cairo_font_options_t *options = cairo_font_options_create();
	cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
	cairo_set_font_options(cr, options);
	cairo_font_options_destroy(options);
	struct head head;
	QRcode *qr = NULL;
	gchar *link = NULL;
	if (run->record_url != NULL) {
		if ((qr = qr_encode(out, run->record_url)) == NULL)
			status = -1;
		/* cairo's attribute: the address quoted, a quote in it escaped
		 * (the host lets no backslash into it) */
		gchar **parts = g_strsplit(run->record_url, "'", -1);
		gchar *quoted = g_strjoinv("\\'", parts);
		link = g_strdup_printf("uri='%s'", quoted);
		g_free(quoted);
		g_strfreev(parts);
	}
	/* the height a page spares for the address's line of its own: A4's
	 * is 50 points taller than Letter, whose boards have none to spare
	 * under a two-line event; one board a page has room enough */
	head_layout(cr, pw, 12 * MM, st, event, when, run->record_url, qr,
	    per == 1 ? 30 : letter ? 0 : 14, &head);
	/* a character no font here draws comes out as a box with its code:
	 * said, rather than printed unseen (the head is all anyone's text) */
	if (pango_layout_get_unknown_glyphs_count(head.event) > 0 ||
	    (head.where != NULL && pango_layout_get_unknown_glyphs_count(head.where) > 0))
		out->warn(out, "no font here draws every character of the event, site or "
		    "date: they print as boxes (a font for their script draws them, such as "
		    "Debian's fonts-noto-cjk for Chinese, Japanese and Korean)");
	/* one Document element at the root of the structure tree, as a
	 * tagged PDF has it */
	cairo_tag_begin(cr, "Document", NULL);
	for (unsigned page = 0; page < pages && status == 0; page++) {
		draw_page(cr, pw, ph, &head, st, (size_t)page * per, page + 1, pages, run, link);
		cairo_show_page(cr);
		forget_page_layouts(cr);
	}
	cairo_tag_end(cr, "Document");
	head_free(&head);
	if (qr != NULL)
		QRcode_free(qr);
	g_free(link);
	status = pdf_surface_close(out, cr, surface, status);
	if (status == 0) {
		mark_tagged(pdf);
		out->write(out, pdf->data, pdf->len);
	}
	g_byte_array_free(pdf, TRUE);
	g_free(event);
	g_free(generator);
	g_free(when);
	free(st->boards);
	free(st);
	return status;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "pdf",
	.suffix = "pdf",
	.description = "hand record for people, printable (PDF)",
	.kind = DL_BINARY,
	.max_board = 0,
	.begin = pdf_begin,
	.board = pdf_board,
	.end = pdf_end,
	.needs = DL_NEEDS_FINGERPRINT | DL_CONCURRENT | DL_KEEPS_DEALER,
};
