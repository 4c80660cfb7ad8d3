/* Table cards: a card for each table of the session, to stand on it as a
 * tent, with the table's number, the event, where and when, and the QR
 * code of the address where the hand record is published after play
 * (#U:, dl-deal --record-url), so that the players find the record on
 * their phones when the session is over.  PDF drawn with cairo and pango,
 * on A4 or US Letter as the hand records (paper.h): two cards a page, a
 * dashed line to cut them apart, each folded along its dotted middle line
 * into a tent whose two faces are the same, the upper one upside down so
 * that it reads upright from the other side of the table.
 *
 * How many tables: DL_TABLES (1 to 200), or else one for each two
 * boards, as a Mitchell movement of two boards a round has (24 boards,
 * 12 tables): a director who has fewer tables leaves the last cards in
 * the drawer.  A card shows no deal: it may stand on the table before
 * play.  Without an address the cards are printed all the same, with the
 * table, the event, where and when, and no code, and the writer says so
 * (out->warn). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-pdf.h>
#include <pango/pangocairo.h>

#include "paper.h"
#include "qr.h"
#include "pango_text.h"
#include "untrusted.h"

#define MM (72.0 / 25.4)
#define FONT "DejaVu Sans"
#define TABLES_MAX 200
/* the paper's margin, which no printer fails to print inside, and each
 * face's margin inside its half of the card */
#define PAGE_MARGIN (10 * MM)
#define FACE_MARGIN (8 * MM)
#define QR_SIDE_MAX (45 * MM)
#define NUMBER_MAX (44 * MM)

/* The tables: DL_TABLES when it is a number from 1 to TABLES_MAX, else
 * half the boards, rounded up, at most TABLES_MAX. */
static unsigned
tables_of(const struct dl_run *run)
{
	const char *env = getenv("DL_TABLES");
	unsigned n = (run->nboards + 1) / 2;

	if (env != NULL && *env >= '1' && *env <= '9') {
		char *end;
		unsigned long v = strtoul(env, &end, 10);
		if (*end == '\0' && v <= TABLES_MAX)
			return (unsigned)v;
	}
	return n < 1 ? 1 : n > TABLES_MAX ? TABLES_MAX : n;
}

/* A layout of plain text in a font, in printer's points (a resolution of
 * 72: the sizes here are the paper's), width wide (0: on one line), cut
 * with an ellipsis (where: END, MIDDLE) past lines lines; to
 * g_object_unref.  Made in cr's transformation (a face upside down). */
static PangoLayout *
text_layout(cairo_t *cr, const char *font, const char *text, double width, int lines,
    PangoEllipsizeMode where)
{
	PangoLayout *layout = pango_cairo_create_layout(cr);
	PangoFontDescription *desc = pango_font_description_from_string(font);

	pango_cairo_context_set_resolution(pango_layout_get_context(layout), 72);
	pango_layout_context_changed(layout);
	pango_layout_set_font_description(layout, desc);
	pango_font_description_free(desc);
	pango_layout_set_auto_dir(layout, FALSE);
	if (width > 0) {
		pango_layout_set_width(layout, (int)(width * PANGO_SCALE));
		pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
		pango_layout_set_height(layout, -lines);
		pango_layout_set_ellipsize(layout, where);
	}
	pango_layout_set_text(layout, text, -1);
	return layout;
}

/* Draws the layout with its top left at (x, y); its height. */
static double
show(cairo_t *cr, PangoLayout *layout, double x, double y)
{
	int h;

	cairo_move_to(cr, x, y);
	pango_cairo_show_layout(cr, layout);
	pango_layout_get_size(layout, NULL, &h);
	g_object_unref(layout);
	return (double)h / PANGO_SCALE;
}

struct card_text {
	gchar *event, *where, *url;	/* plain text, or NULL */
	const QRcode *qr;
};

/* One face of a table's card in the box (x, y, w, h), upright: the
 * table's number at the left, large; the code at the right; between
 * them the event, where and when, and what the code is for, the address
 * under it in words. */
static void
draw_face(cairo_t *cr, double x, double y, double w, double h, unsigned table,
    const struct card_text *t)
{
	char number[16];
	double q = 0, left, mid, cy;
	PangoLayout *layout;
	int lw;

	/* the number in 96 points, but no wider than NUMBER_MAX (three
	 * figures: smaller), so that the event and the caption keep their
	 * room */
	cairo_set_source_rgb(cr, 0, 0, 0);
	layout = text_layout(cr, FONT " 14", "Table", 0, 1, PANGO_ELLIPSIZE_NONE);
	cy = y + show(cr, layout, x, y);
	snprintf(number, sizeof number, "%u", table);
	layout = text_layout(cr, FONT " Bold 96", number, 0, 1, PANGO_ELLIPSIZE_NONE);
	pango_layout_get_size(layout, &lw, NULL);
	if ((double)lw / PANGO_SCALE > NUMBER_MAX) {
		char font[32];
		snprintf(font, sizeof font, FONT " Bold %.1f", 96 * NUMBER_MAX * PANGO_SCALE / lw);
		g_object_unref(layout);
		layout = text_layout(cr, font, number, 0, 1, PANGO_ELLIPSIZE_NONE);
		pango_layout_get_size(layout, &lw, NULL);
	}
	left = (double)lw / PANGO_SCALE;
	if (left < 40 * MM)
		left = 40 * MM;
	show(cr, layout, x, cy);
	if (t->qr != NULL) {
		q = h < QR_SIDE_MAX ? h : QR_SIDE_MAX;
		double module = q / t->qr->width;
		for (int r = 0; r < t->qr->width; r++)
			for (int c = 0; c < t->qr->width; c++)
				if (qr_dark(t->qr, c, r))
					cairo_rectangle(cr, x + w - q + c * module, y + r * module, module,
					    module);
		cairo_fill(cr);
		/* the quiet zone: four modules between the code and the text */
		q += QR_QUIET * module;
	}
	mid = w - left - 6 * MM - q;
	x += left + 6 * MM;
	cy = y;
	if (t->event != NULL)
		cy += show(cr, text_layout(cr, FONT " Bold 15", t->event, mid, 2, PANGO_ELLIPSIZE_END),
		    x, cy) + 2;
	if (t->where != NULL)
		cy += show(cr, text_layout(cr, FONT " 11", t->where, mid, 2, PANGO_ELLIPSIZE_MIDDLE),
		    x, cy);
	if (t->qr != NULL) {
		/* at the foot: what the code is for, how to use it, and the
		 * address, each on a line of its own */
		PangoLayout *what = text_layout(cr, FONT " Bold 14", "Hand records after play", mid,
		    1, PANGO_ELLIPSIZE_END);
		PangoLayout *how = text_layout(cr, FONT " 10", "Scan the code with your phone", mid,
		    1, PANGO_ELLIPSIZE_END);
		PangoLayout *url = text_layout(cr, FONT " 8", t->url, mid, 1, PANGO_ELLIPSIZE_MIDDLE);
		int uh, hh, wh;
		pango_layout_get_size(url, NULL, &uh);
		pango_layout_get_size(how, NULL, &hh);
		pango_layout_get_size(what, NULL, &wh);
		double foot = y + h - (double)uh / PANGO_SCALE;
		show(cr, how, x, foot - (double)hh / PANGO_SCALE);
		show(cr, what, x, foot - (double)(hh + wh) / PANGO_SCALE);
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		show(cr, url, x, foot);
		cairo_set_source_rgb(cr, 0, 0, 0);
	}
}

/* A dashed line across the paper at y, with a word at its left (scissors
 * for a cut, "fold" for a fold). */
static void
guide(cairo_t *cr, double pw, double y, const char *word, const double dash[2])
{
	PangoLayout *layout = text_layout(cr, FONT " 7", word, 0, 1, PANGO_ELLIPSIZE_NONE);
	int lw, lh;

	pango_layout_get_size(layout, &lw, &lh);
	cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
	show(cr, layout, PAGE_MARGIN, y - (double)lh / PANGO_SCALE / 2);
	cairo_set_line_width(cr, 0.5);
	cairo_set_dash(cr, dash, 2, 0);
	cairo_move_to(cr, PAGE_MARGIN + (double)lw / PANGO_SCALE + 3, y);
	cairo_line_to(cr, pw - PAGE_MARGIN, y);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	cairo_set_source_rgb(cr, 0, 0, 0);
}

/* A card in the band from top, height h: the fold at its middle, the face
 * under it upright, the face above it upside down. */
static void
draw_card(cairo_t *cr, double pw, double top, double h, unsigned table,
    const struct card_text *t)
{
	static const double fold_dash[2] = { 1, 2 };
	const double fold = top + h / 2;
	const double fw = pw - 2 * PAGE_MARGIN - 2 * FACE_MARGIN;
	const double fh = h / 2 - 2 * FACE_MARGIN;

	guide(cr, pw, fold, "fold", fold_dash);
	draw_face(cr, PAGE_MARGIN + FACE_MARGIN, fold + FACE_MARGIN, fw, fh, table, t);
	cairo_save(cr);
	/* half a turn about the upper face's middle */
	cairo_translate(cr, pw / 2, top + h / 4);
	cairo_rotate(cr, G_PI);
	cairo_translate(cr, -pw / 2, -(top + h / 4));
	draw_face(cr, PAGE_MARGIN + FACE_MARGIN, top + FACE_MARGIN, fw, fh, table, t);
	cairo_restore(cr);
}

static cairo_status_t
write_out(void *closure, const unsigned char *data, unsigned int length)
{
	g_byte_array_append(closure, data, length);
	return CAIRO_STATUS_SUCCESS;
}

/* "site, date" (#S:, #D:), or NULL, as plain text (to g_free) */
static gchar *
where_text(const struct dl_run *run)
{
	gchar *raw, *where;

	if (run->site == NULL && run->date == NULL)
		return NULL;
	raw = g_strdup_printf("%s%s%s", run->site ? run->site : "",
	    run->site && run->date ? ", " : "", run->date ? run->date : "");
	where = plain_text(raw);
	g_free(raw);
	return where;
}

static int
cards_end(struct dl_out *out, const struct dl_run *run, void *state)
{
	static const double cut_dash[2] = { 4, 3 };
	int letter = paper_is_letter(), status = 0;
	double pw = letter ? 612 : 595.276, ph = letter ? 792 : 841.89;
	unsigned tables = tables_of(run);
	QRcode *qr = NULL;
	struct card_text t = { 0 };
	GByteArray *pdf;

	(void)state;
	if (run->record_url != NULL && (qr = qr_encode(out, run->record_url)) == NULL)
		return -1;
	if (qr == NULL)
		out->warn(out, "no address for the hand record (#U:, dl-deal --record-url): "
		    "the cards have no QR code");
	t.qr = qr;
	t.event = run->event != NULL ? plain_text(run->event) : NULL;
	t.where = where_text(run);
	t.url = run->record_url != NULL ? plain_text(run->record_url) : NULL;
	pdf = g_byte_array_new();
	cairo_surface_t *surface = cairo_pdf_surface_create_for_stream(write_out, pdf, pw, ph);
	gchar *title = g_strdup_printf("Table cards%s%s", t.event ? ": " : "",
	    t.event ? t.event : "");
	gchar *creator = plain_text(run->generator);
	cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title);
	cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, creator);
	g_free(title);
	g_free(creator);
	cairo_t *cr = cairo_create(surface);
	cairo_font_options_t *options = cairo_font_options_create();
	cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
	cairo_set_font_options(cr, options);
	cairo_font_options_destroy(options);
	/* two cards a page, each half of the paper inside its margins, a cut
	 * between them */
	const double card_h = (ph - 2 * PAGE_MARGIN) / 2;
	for (unsigned table = 1; table <= tables; table += 2) {
		draw_card(cr, pw, PAGE_MARGIN, card_h, table, &t);
		if (table + 1 <= tables) {
			guide(cr, pw, ph / 2, "\u2702 cut", cut_dash);
			draw_card(cr, pw, ph / 2, card_h, table + 1, &t);
		}
		cairo_show_page(cr);
	}
	status = pdf_surface_close(out, cr, surface, status);
	if (status == 0)
		out->write(out, pdf->data, pdf->len);
	g_byte_array_free(pdf, TRUE);
	g_free(t.event);
	g_free(t.where);
	g_free(t.url);
	if (qr != NULL)
		QRcode_free(qr);
	return status;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "tablecards",
	.suffix = "cards.pdf",
	.description = "table cards with the hand record's QR code, to stand on each table (PDF)",
	.kind = DL_BINARY,
	.max_board = 0,
	.end = cards_end,
	.needs = DL_CONCURRENT,
};
