/* The QR code of the address where a set's hand record is published after
 * play (#U:, struct dl_run's record_url), for the writers that print it:
 * the hand records (pdf, html) and the table cards.  Encoded by
 * libqrencode, never by code of ours: each of those plugins links it
 * (-lqrencode, the Makefile), as pdf.so links cairo, since a plugin calls
 * nothing in the host.  Level M (15 % of the code may be lost to a fold
 * or a smudge and it still reads), every byte in 8-bit mode, as a
 * phone's camera reads an address; the host has checked the address
 * (record_url_check: at most 200 bytes of printable ASCII, a QR code of
 * version 10 at most, 57 modules a side).
 *
 * libqrencode is built with pthread on Debian: its functions may be
 * called from the writers' threads at once (DL_CONCURRENT). */
#ifndef DL_PLUGINS_QR_H
#define DL_PLUGINS_QR_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qrencode.h>

#include "dl/plugin.h"

/* The white margin a reader needs round the code, in modules (ISO/IEC
 * 18004's quiet zone). */
#define QR_QUIET 4

/* The address's code (to QRcode_free), or NULL after out->fail. */
static inline QRcode *
qr_encode(struct dl_out *out, const char *url)
{
	QRcode *qr = QRcode_encodeString(url, 0, QR_ECLEVEL_M, QR_MODE_8, 1);

	if (qr == NULL)
		out->fail(out, "libqrencode cannot encode the hand record's address "
		    "(%zu bytes)", strlen(url));
	return qr;
}

/* 1 when the module at column x, row y is dark. */
static inline int
qr_dark(const QRcode *qr, int x, int y)
{
	return qr->data[y * qr->width + x] & 1;
}

/* The code as an SVG image (to free), a square of size CSS units (its
 * quiet zone inside it, white), or NULL when out of memory: one path of
 * the dark modules, row by row, a rectangle for each run of them.  It
 * holds no text of the stream's: the address is in the modules alone,
 * and label (ours, no markup) names the image for a screen reader. */
static inline char *
qr_svg(const QRcode *qr, const char *size, const char *label)
{
	int w = qr->width, all = w + 2 * QR_QUIET;
	/* a run is at most "M56,56h57v1h-57z", 16 bytes */
	size_t room = 512 + strlen(size) * 2 + strlen(label) + (size_t)w * (size_t)w * 16;
	char *svg = malloc(room), *p = svg;

	if (svg == NULL)
		return NULL;
	p += snprintf(p, room, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"qr\" "
	    "role=\"img\" aria-label=\"%s\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %d %d\" "
	    "shape-rendering=\"crispEdges\"><rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>"
	    "<path fill=\"#000\" d=\"", label, size, size, all, all, all, all);
	for (int y = 0; y < w; y++)
		for (int x = 0; x < w;) {
			int run = 0;
			while (x + run < w && qr_dark(qr, x + run, y))
				run++;
			if (run == 0) {
				x++;
				continue;
			}
			p += snprintf(p, room - (size_t)(p - svg), "M%d,%dh%dv1h-%dz", x + QR_QUIET,
			    y + QR_QUIET, run, run);
			x += run;
		}
	snprintf(p, room - (size_t)(p - svg), "\"/></svg>");
	return svg;
}

#endif
