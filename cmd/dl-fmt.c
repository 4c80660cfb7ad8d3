/* dl-fmt: deals (.tso records) in, bridge file formats out, through
 * format-writer plugins.  Called dl-fmt-NAME, it writes format NAME. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "files/plugins.h"
#include "stream/proto.h"
#include "layout.h"
#include "tool.h"
#include "base/util.h"
#include "files/writers.h"

#define DEFAULT_FORMAT "pbn"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp,
	    "usage: dl-fmt [--crlf] [--force] [-f formats] [-j threads] [-p prefix]\n"
	    "              [--paper a4 | letter] [--per-page 6 | 4 | 1]\n"
	    "       dl-fmt-NAME [--crlf] [--force] [-j threads] [-p prefix]\n"
	    "                   [--paper a4 | letter] [--per-page 6 | 4 | 1]\n"
	    "       dl-fmt --list\n");
	exit(status);
}

static void
list_one(void *unused, const struct loaded_plugin *lp, const struct dl_error *broken)
{
	(void)unused;
	if (broken != NULL) {
		tool_warn_error(broken, "");
		return;
	}
	const struct dl_plugin *p = lp->plugin;
	char limit[32] = "-", description[256];

	if (p->max_board != 0)
		snprintf(limit, sizeof limit, "%u", p->max_board);
	/* a plugin's own text: escaped like any untrusted text */
	escape_text(description, sizeof description, p->description, strlen(p->description));
	printf("%-10s .%-5s %-6s %-5s %s\n", p->name, p->suffix,
	    p->kind == DL_TEXT ? "text" : "binary", limit, description);
}

/* The boards have their own dealers and vulnerabilities: a word on each
 * format that shows its numbers' instead. */
static void
warn_dealer_lost(const struct writers *ws)
{
	const char *name;
	size_t i = 0;

	while ((name = writers_without_dealer(ws, &i)) != NULL)
		tool_warn("%s has no room for a board's own dealer and vulnerability: "
		    "its boards show their numbers'", name);
}

/* With a #B: header the run is known before the first board (announced):
 * stream it. */
static int
write_streaming(struct stream_in *in, struct board_range announced, struct writers *ws,
    struct dl_error *e)
{
	unsigned char owner[CARDS];
	unsigned board;
	int dealer, vulnerability;
	size_t nheaders;
	char *const *headers = stream_headers(in, &nheaders);
	char *line;
	size_t len;
	int got;

	if (writers_begin(ws, announced.low, announced.high, stream_header(in, 'I'),
	    headers, nheaders, stream_analysis(in) != NULL, stream_own_dv(in), e) == -1)
		return -1;
	while ((got = stream_next_record(in, &line, &len, e)) == 1) {
		if (record_deal(in, line, len, &board, owner, e) == -1)
			return -1;
		stream_board_dv(in, &dealer, &vulnerability);
		if (writers_board(ws, board, owner, dealer, vulnerability, stream_analysis(in),
		    e) == -1)
			return -1;
	}
	if (got == -1)
		return -1;
	return stream_check_complete(in, e);
}

/* A plain .tso file (or a stream without #B:) does not say how many
 * boards come, which some formats need first (DUP, KOPS): hold its deals,
 * 52 bytes a board, their dealers and vulnerabilities, and their analyses
 * when it has them. */
static int
write_buffered(struct stream_in *in, struct writers *ws, struct dl_error *e)
{
	unsigned char (*deals)[CARDS] = NULL;
	unsigned char (*dv)[2] = NULL;
	struct dl_analysis *analyses = NULL;
	int analysed = stream_kind_of(in) == STREAM_ANALYSED;
	size_t n = 0, cap = 0, nheaders;
	char *const *headers = stream_headers(in, &nheaders);
	struct board_range boards_read;
	unsigned board;
	char *line;
	size_t len;
	int got, status = -1;

	while ((got = stream_next_record(in, &line, &len, e)) == 1) {
		if (n == cap) {
			/* deals perhaps not yet played: no old block is freed
			 * unwiped */
			size_t more = cap ? 2 * cap : 64;
			deals = grow_wiped(deals, n, cap, more, sizeof *deals);
			dv = xreallocarray(dv, more, sizeof *dv);
			if (analysed)
				analyses = grow_wiped(analyses, n, cap, more, sizeof *analyses);
			cap = more;
		}
		if (record_deal(in, line, len, &board, deals[n], e) == -1)
			goto done;
		int dealer, vulnerability;
		stream_board_dv(in, &dealer, &vulnerability);
		dv[n][0] = (unsigned char)dealer;
		dv[n][1] = (unsigned char)vulnerability;
		if (analysed)
			analyses[n] = *stream_analysis(in);
		n++;
	}
	if (got == -1 || stream_check_complete(in, e) == -1)
		goto done;
	stream_boards_read(in, &boards_read);	/* one at least: the check passed */
	if (writers_begin(ws, boards_read.low, boards_read.high, stream_header(in, 'I'),
	    headers, nheaders, analysed, stream_own_dv(in), e) == -1)
		goto done;
	for (size_t i = 0; i < n; i++)
		if (writers_board(ws, boards_read.low + (unsigned)i, deals[i], dv[i][0], dv[i][1],
		    analysed ? &analyses[i] : NULL, e) == -1)
			goto done;
	status = 0;
done:
	if (deals != NULL)
		sodium_memzero(deals, cap * sizeof *deals);
	if (analyses != NULL)
		sodium_memzero(analyses, cap * sizeof *analyses);
	free(deals);
	free(dv);
	free(analyses);
	return status;
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
		{ "paper", required_argument, NULL, 'P' },
		{ "per-page", required_argument, NULL, 'G' },
		{ "prefix", required_argument, NULL, 'p' },
		{ "threads", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct writers_options opt = { .force = "--force", .warn = tool_print_warning };
	const char *formats = NULL, *self = getprogname();
	int listing = 0, named = strncmp(self, "dl-fmt-", 7) == 0, ch;
	struct format_list list;
	struct stream_in in;
	struct board_range announced;
	struct writers *ws;
	struct dl_error e;

	tool_start();
	opterr = 0;	/* tool_bad_option says what is wrong */
	while ((ch = getopt_long(argc, argv, "f:hj:p:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			opt.crlf = 1;
			break;
		case 'f':
			if (named)
				tool_fail(DL_ERR_USAGE, "%s writes %s only: no -f", self, self + 7);
			formats = optarg;
			break;
		case 'F':
			opt.publish = PUBLISH_REPLACE;
			break;
		case 'h':
			usage(stdout, 0);
		case 'j':
			opt.threads = tool_threads(optarg, WRITERS_THREADS_MAX);
			break;
		case 'l':
			listing = 1;
			break;
		case 'p':
			opt.prefix = optarg;
			break;
		case 'P':
			layout_paper(optarg);
			break;
		case 'G':
			layout_per_page(optarg);
			break;
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	setup_stdout();
	if (listing) {
		printf("%-10s %-6s %-6s %-5s %s\n", "FORMAT", "SUFFIX", "KIND", "MAX", "DESCRIPTION");
		plugin_each(list_one, NULL);
		xfclose(stdout, "standard output");
		return 0;
	}
	if (named)
		formats = self + 7;
	if (format_list_parse(formats ? formats : DEFAULT_FORMAT, &list, &e) == -1 ||
	    writers_open(&ws, &list, &opt, &e) == -1)
		tool_die(&e);
	format_list_free(&list);
	if (stream_open_deals(&in, stdin, STREAM_TAKES_ANALYSED | STREAM_TAKES_OWN_DV, &e) == -1) {
		writers_abort(ws);
		tool_die(&e);
	}
	if (stream_own_dv(&in))
		warn_dealer_lost(ws);
	if ((stream_range(&in, &announced) ? write_streaming(&in, announced, ws, &e) :
	    write_buffered(&in, ws, &e)) == -1) {
		writers_abort(ws);
		tool_die(&e);
	}
	if (writers_finish(ws, &e) == -1)
		tool_die(&e);
	stream_close(&in);
	xfclose(stdout, "standard output");
	return 0;
}
