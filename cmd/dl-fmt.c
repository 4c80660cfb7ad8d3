/* dl-fmt: deals (.tso records) in, bridge file formats out, through
 * format-writer plugins.  Called dl-fmt-NAME, it writes format NAME. */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins.h"
#include "proto.h"
#include "util.h"
#include "writers.h"

#define DEFAULT_FORMAT "pbn"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp,
	    "usage: dl-fmt [--crlf] [--force] [-f formats] [-p prefix]\n"
	    "       dl-fmt-NAME [--crlf] [--force] [-p prefix]\n"
	    "       dl-fmt --list\n");
	exit(status);
}

static void
list_one(const struct loaded_plugin *lp)
{
	const struct dl_plugin *p = lp->plugin;
	char limit[32] = "-";

	if (p->max_board != 0)
		snprintf(limit, sizeof limit, "%u", p->max_board);
	printf("%-10s .%-5s %-6s %-5s %s\n", p->name, p->suffix,
	    p->kind == DL_TEXT ? "text" : "binary", limit, p->description);
}

/* With a #B: header the run is known before the first board: stream it. */
static void
write_streaming(struct stream_in *in, struct writers *ws)
{
	unsigned char owner[CARDS];
	unsigned board;
	char *line;
	size_t len;

	writers_begin(ws, in->range.low, in->range.high, stream_header(in, 'I'),
	    in->headers, in->nheaders);
	while ((line = stream_next_record(in, &len)) != NULL) {
		record_deal(in, line, &board, owner);
		writers_board(ws, board, owner);
	}
	stream_check_complete(in);
}

/* A plain .tso file does not say how many boards come, which some formats
 * need first (DUP, KOPS): hold its deals, 52 bytes a board. */
static void
write_buffered(struct stream_in *in, struct writers *ws)
{
	unsigned char (*deals)[CARDS] = NULL;
	size_t n = 0, cap = 0;
	unsigned board;
	char *line;
	size_t len;

	while ((line = stream_next_record(in, &len)) != NULL) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			deals = xreallocarray(deals, cap, sizeof *deals);
		}
		record_deal(in, line, &board, deals[n++]);
	}
	stream_check_complete(in);
	writers_begin(ws, in->first_board, board, stream_header(in, 'I'),
	    in->headers, in->nheaders);
	for (size_t i = 0; i < n; i++)
		writers_board(ws, in->first_board + (unsigned)i, deals[i]);
	free(deals);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "crlf", no_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "force", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "list", no_argument, NULL, 'l' },
		{ "prefix", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct writers_options opt = { 0 };
	const char *formats = NULL, *self = getprogname();
	int list = 0, named = strncmp(self, "dl-fmt-", 7) == 0, ch;
	struct stream_in in;
	struct writers *ws;

	while ((ch = getopt_long(argc, argv, "f:hp:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			opt.crlf = 1;
			break;
		case 'f':
			if (named)
				errx(2, "%s writes %s only: no -f", self, self + 7);
			formats = optarg;
			break;
		case 'F':
			opt.publish = PUBLISH_REPLACE;
			break;
		case 'h':
			usage(stdout, 0);
		case 'l':
			list = 1;
			break;
		case 'p':
			opt.prefix = optarg;
			break;
		default:
			usage(stderr, 2);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	setup_stdout();
	if (list) {
		printf("%-10s %-6s %-6s %-5s %s\n", "FORMAT", "SUFFIX", "KIND", "MAX", "DESCRIPTION");
		plugin_each(list_one);
		xfclose(stdout, "standard output");
		return 0;
	}
	if (named)
		formats = self + 7;
	ws = writers_open(formats ? formats : DEFAULT_FORMAT, &opt);
	stream_open(&in, stdin, STREAM_DEALS);
	if (in.has_range)
		write_streaming(&in, ws);
	else
		write_buffered(&in, ws);
	writers_finish(ws);
	stream_close(&in);
	xfclose(stdout, "standard output");
	return 0;
}
