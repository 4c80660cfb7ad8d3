/* A page streamed as the analysis runs (a set dealt, a hand record of a
 * file, a set marked played whose hand record is made for the players):
 * the response's head and the top of the document at once, then a line a
 * board solved, each flushed to the server (X-Accel-Buffering: nginx's;
 * lighttpd streams by its configuration, share/web/lighttpd.conf), with
 * no script; what the page is for follows in the same document, and a
 * style hides the progress then, on the screen and on paper. */
#include <stdio.h>

#include "page.h"

void
stream_top(const char *title, const char *doing, unsigned long boards)
{
	head(200, "OK", "text/html; charset=utf-8", "X-Accel-Buffering: no\r\n");
	printf("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	/* the title of the page that follows (a hand record's: plugins/html.c) */
	put_html(stdout, title);
	printf("</title>\n<style>.dl-web-progress { font-family: 'DejaVu Sans', sans-serif;"
	    " margin: 8px; padding: 8px 12px; } .dl-web-progress p { margin: .2rem 0; }"
	    " .error { color: #b00020; font-weight: bold; }</style>\n</head>\n<body>\n"
	    "<section class=\"dl-web-progress\" aria-label=\"Progress\">\n"
	    "<p>%s %lu board%s&hellip;</p>\n", doing, boards, boards == 1 ? "" : "s");
	/* behind nginx, fcgiwrap (1.1.0) passes a CGI's answer on through
	 * libfcgi's stream, which sends it in records of 8 KiB, flushed at
	 * the end only: 8 KiB of nothing take the top through at once (the
	 * lines that follow come in 8 KiB, or at the end) */
	printf("<!--%8200s-->\n", "");
	fflush(stdout);
	/* from now on a failure can only say so, in the page */
	stream_begun("</section>\n");
}

/* A board solved, or a second gone without one: a dot, a sign of life
 * (which also keeps a web server from dropping a page silent for long,
 * lighttpd's server.max-write-idle). */
void
put_solved(void *arg, unsigned long done, unsigned long total)
{
	struct progress_page *p = arg;

	if (done == p->shown)
		printf(".\n");
	else
		for (; p->shown < done; p->shown++)
			printf("<p>Board %lu solved (%lu of %lu)</p>\n", p->low + p->shown,
			    p->shown + 1, total);
	fflush(stdout);
}

/* The progress ended with its last line; hidden when hide (a hand record
 * follows, to be printed) */
void
stream_done(const char *words, int hide)
{
	printf("<p>%s</p>\n</section>\n", words);
	if (hide)
		printf("<style>.dl-web-progress { display: none; }</style>\n");
	stream_begun("");
}
