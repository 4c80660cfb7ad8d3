/* What the two cairo writers share (pdf, tablecards): text from the
 * stream as Pango takes it, and the end of a PDF surface.
 *
 * Text from the stream (untrusted.h) as Pango and cairo take it: valid UTF-8 (Pango drops text that is not,
 * with a warning on the terminal; cairo fails the file), a control
 * character as a space, a byte that is not UTF-8 as U+FFFD.  It is drawn
 * as text, never read as markup (to g_free). */
#ifndef DL_PLUGINS_PANGO_TEXT_H
#define DL_PLUGINS_PANGO_TEXT_H

#include <string.h>

#include <pango/pangocairo.h>

#include "dl/plugin.h"
#include "untrusted.h"

static inline gchar *
plain_text(const char *s)
{
	GString *text = g_string_sized_new(strlen(s));
	size_t len;

	for (; *s != '\0'; s += len)
		switch (text_char(s, &len)) {
		case TEXT_CHAR: g_string_append_len(text, s, (gssize)len); break;
		case TEXT_SPACE: g_string_append_c(text, ' '); break;
		case TEXT_INVALID: g_string_append(text, TEXT_REPLACEMENT); break;
		}
	return g_string_free(text, FALSE);
}

/* The drawing ended and the PDF surface finished, each checked (a failure
 * said through out->fail once); the context and the surface destroyed.
 * status: the run's so far; what it is now. */
static inline int
pdf_surface_close(struct dl_out *out, cairo_t *cr, cairo_surface_t *surface, int status)
{
	if (status == 0 && cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		out->fail(out, "cairo: %s", cairo_status_to_string(cairo_status(cr)));
		status = -1;
	}
	cairo_destroy(cr);
	cairo_surface_finish(surface);
	if (status == 0 && cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
		out->fail(out, "cairo: %s", cairo_status_to_string(cairo_surface_status(surface)));
		status = -1;
	}
	cairo_surface_destroy(surface);
	return status;
}

#endif
