/* dl-read: deal files of any format in (through the reader plugins), one
 * deals stream out.  Called dl-read-NAME, it reads format NAME. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stream/date.h"
#include "files/plugins.h"
#include "files/outfile.h"
#include "stream/proto.h"
#include "files/readers.h"
#include "tool.h"
#include "base/util.h"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp,
	    "usage: dl-read [--first board] [--partial] [--renumber] [-f format] [file ...]\n"
	    "       dl-read-NAME [--first board] [--partial] [--renumber] [file ...]\n"
	    "       dl-read --list\n"
	    "       dl-read --index directory\n");
	exit(status);
}

static struct {
	char **files;		/* "-" for standard input */
	int nfiles;
	int renumber;
	unsigned first;		/* --first, 0 when not given */
	struct reader_options opt;
} run;

/* What the first pass learns, and what the stream then says. */
struct session {
	unsigned long boards;
	unsigned first, last;	/* board numbers as they go out */
	unsigned last_read;	/* the last board read, as its file numbers it */
	char *event;		/* the first board's event */
	char *site, *date;	/* the first board's, when it has them */
	int event_differs;	/* warned of already */
	FILE *spool;		/* the deals, when the input is read once */
	int own_dv;		/* a board's dealer or vulnerability is not its
				 * number's: a deals+dv stream */
};

static void
list_one(void *unused, const struct loaded_plugin *lp, const struct dl_error *broken)
{
	char description[256];

	(void)unused;
	if (broken != NULL || lp->plugin->read_board == NULL)
		return;
	escape_text(description, sizeof description, lp->plugin->description,
	    strlen(lp->plugin->description));
	printf("%-10s .%-5s %s\n", lp->plugin->name, lp->plugin->suffix, description);
}

/* A plugin dl-read --index could not load: the tools will load it, and
 * refuse it, as they would without an index. */
static void
index_left_out(void *unused, const struct dl_error *broken)
{
	(void)unused;
	tool_warn_error(broken, ": left out of the index");
}

/* Whether every input can be read twice: regular files, not a pipe. */
static int
inputs_rereadable(void)
{
	struct stat st;

	for (int i = 0; i < run.nfiles; i++)
		if (strcmp(run.files[i], "-") == 0 ||
		    (stat(run.files[i], &st) == 0 && !S_ISREG(st.st_mode)))
			return 0;
	return 1;
}

static void __attribute__((noreturn, format(printf, 2, 3)))
board_fail(struct deal_reader *r, const char *fmt, ...)
{
	char what[DL_ERROR_MAX];
	struct dl_error e;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	reader_board_error(r, &e, "%s", what);
	tool_die(&e);
}

/* The board number a board goes out with, checked to follow the one
 * before: a deals stream runs without gaps (docs/protocol.md). */
static unsigned
number_board(struct session *s, struct deal_reader *r, unsigned board)
{
	unsigned long long renumbered = (run.first != 0 ? run.first : 1) + s->boards;

	if (run.renumber && renumbered > BOARD_MAX)
		board_fail(r, "board %llu: board numbers go up to %u", renumbered, BOARD_MAX);
	unsigned out = run.renumber ? (unsigned)renumbered : board;

	if (s->boards > 0 && out != s->last + 1) {
		if (out <= s->last)
			board_fail(r, "board %u after board %u: a board again, or out of order "
			    "(--renumber numbers the boards 1, 2, ... as they come)", out, s->last);
		if (out == s->last + 2)
			board_fail(r, "board %u after board %u: board %u is missing "
			    "(--renumber numbers the boards 1, 2, ... as they come)", out,
			    s->last, s->last + 1);
		board_fail(r, "board %u after board %u: boards %u to %u are missing "
		    "(--renumber numbers the boards 1, 2, ... as they come)", out, s->last,
		    s->last + 1, out - 1);
	}
	if (s->boards == 0)
		s->first = out;
	s->last = out;
	s->boards++;
	return out;
}

/* A stream has one event: the first board's; another one is said once. */
static void
note_event(struct session *s, struct deal_reader *r, const struct dl_board_in *b)
{
	struct dl_error e;

	if (b->event == NULL)
		return;
	if (s->event == NULL && s->boards == 1) {
		/* e's message is escaped already: a prefix, not a new message */
		if (event_text_check(b->event, &e) == -1) {
			dl_error_prefix(&e, "%s: event", reader_position(r));
			tool_warn_error(&e, ": the stream gets no #I:");
			s->event_differs = 1;
			return;
		}
		s->event = xstrdup(b->event);
	} else if (!s->event_differs && (s->event == NULL || strcmp(s->event, b->event) != 0)) {
		tool_warn("%s: board %u: event \"%s\", not the first board's: #I: keeps "
		    "the first", reader_position(r), b->board, b->event);
		s->event_differs = 1;
	}
}

/* Where and when: the first board's site and date, when they pass as
 * #S: and #D: (a date made PBN's YYYY.MM.DD when its day is certain,
 * date.h); else a warning. */
static void
note_site_date(struct session *s, struct deal_reader *r, const struct dl_board_in *b)
{
	struct dl_error e;

	if (s->boards != 1)
		return;
	if (b->site != NULL) {
		if (event_text_check(b->site, &e) == -1) {
			dl_error_prefix(&e, "%s: site", reader_position(r));
			tool_warn_error(&e, ": the stream gets no #S:");
		} else
			s->site = xstrdup(b->site);
	}
	if (b->date != NULL) {
		char date[DATE_PBN_SIZE];
		if (date_to_pbn(b->date, date, &e) == -1) {
			dl_error_prefix(&e, "%s: date \"%.40s\"", reader_position(r), b->date);
			tool_warn_error(&e, ": the stream gets no #D:");
		} else
			s->date = xstrdup(date);
	}
}

/* The board's dealer and vulnerability: what its file says, else those
 * of the number it goes out with. */
static void
board_dv(const struct dl_board_in *b, unsigned board, int *dealer, int *vulnerability)
{
	*dealer = b->dealer != -1 ? b->dealer : (int)dl_dealer(board);
	*vulnerability = b->vulnerability != -1 ? b->vulnerability :
	    (int)dl_vulnerability(board);
}

/* A board whose dealer or vulnerability is not its number's makes the
 * stream a deals+dv one, whose records carry every board's own. */
static void
note_dealer(struct session *s, const struct dl_board_in *b, unsigned board)
{
	int dealer, vulnerability;

	board_dv(b, board, &dealer, &vulnerability);
	if (dealer != (int)dl_dealer(board) || vulnerability != (int)dl_vulnerability(board))
		s->own_dv = 1;
}

typedef void board_fn(struct session *s, unsigned board, const struct dl_board_in *b,
    struct stream_out *o);

/* Reads every input once, calling fn for each board with its outgoing
 * number; warnings only when noting. */
static void
read_all(struct session *s, board_fn *fn, struct stream_out *o, int noting)
{
	struct reader_options opt = run.opt;
	struct dl_board_in b;
	struct dl_error e;
	int got;

	if (!noting)
		opt.warn = NULL;
	s->boards = 0;
	for (int i = 0; i < run.nfiles; i++) {
		struct deal_reader *r;

		/* a file's boards that it does not number follow the files
		 * before, or start at --first */
		opt.first = s->boards == 0 ? run.first : s->last_read + 1;
		if (reader_open(&r, run.files[i], &opt, &e) == -1)
			tool_die(&e);
		while ((got = reader_next(r, &b, &e)) == 1) {
			if (noting && run.first != 0 && !run.renumber && s->boards == 0 &&
			    b.board != run.first)
				tool_warn("%s: board %u first: the file numbers its boards, "
				    "--first %u is not used", reader_position(r), b.board, run.first);
			s->last_read = b.board;
			unsigned board = number_board(s, r, b.board);
			if (noting) {
				note_event(s, r, &b);
				note_site_date(s, r, &b);
				note_dealer(s, &b, board);
			}
			if (fn != NULL)
				fn(s, board, &b, o);
		}
		if (got == -1)
			tool_die(&e);
		reader_close(r);
	}
	if (s->boards == 0)
		tool_fail(DL_ERR_INPUT, "no boards in %s", run.nfiles == 1 ?
		    (strcmp(run.files[0], "-") == 0 ? "standard input" : run.files[0]) :
		    "the files");
}

/* A pipe is read once; its deals wait in a temporary file, not in
 * memory, so that ten million boards take no more memory than ten.  The
 * file is mode 0600 and unlinked at once: deals before play are secret. */
static FILE *
open_spool(void)
{
	struct dl_error e;
	FILE *fp = spool_create(&e);

	if (fp == NULL)
		tool_die(&e);
	return fp;
}

/* A held board: its deal, dealer and vulnerability. */
#define HELD_BYTES (CARDS + 2)

static void
hold_board(struct session *s, unsigned board, const struct dl_board_in *b,
    struct stream_out *o)
{
	unsigned char held[HELD_BYTES];
	int dealer, vulnerability;

	(void)o;
	board_dv(b, board, &dealer, &vulnerability);
	memcpy(held, b->owner, CARDS);
	held[CARDS] = (unsigned char)dealer;
	held[CARDS + 1] = (unsigned char)vulnerability;
	if (fwrite(held, 1, HELD_BYTES, s->spool) != HELD_BYTES)
		tool_fail_sys("the temporary file of deals");
}

/* The held deals, in order, into the stream. */
static void
write_held(struct session *s, struct stream_out *o)
{
	unsigned char held[HELD_BYTES];

	if (fflush(s->spool) == EOF || fseek(s->spool, 0, SEEK_SET) == -1)
		tool_fail_sys("the temporary file of deals");
	for (unsigned long i = 0; i < s->boards; i++) {
		if (fread(held, 1, HELD_BYTES, s->spool) != HELD_BYTES)
			tool_fail_sys("the temporary file of deals, read back");
		stream_out_deal_dv(o, s->first + (unsigned)i, held, held[CARDS],
		    held[CARDS + 1]);
	}
	fclose(s->spool);
	s->spool = NULL;
}

static void
write_board(struct session *s, unsigned board, const struct dl_board_in *b,
    struct stream_out *o)
{
	int dealer, vulnerability;

	(void)s;
	board_dv(b, board, &dealer, &vulnerability);
	stream_out_deal_dv(o, board, b->owner, dealer, vulnerability);
}

static void
write_headers(const struct session *s, struct stream_out *o)
{
	stream_out_begin_dv(o, stdout, STREAM_DEALS, s->own_dv);
	if (s->event != NULL)
		stream_out_header(o, 'I', s->event);
	if (s->site != NULL)
		stream_out_header(o, 'S', s->site);
	if (s->date != NULL)
		stream_out_header(o, 'D', s->date);
	stream_out_range(o, s->first, s->last);
}

/* Everything is read and checked before the first line goes out: a bad
 * board never leaves half a stream.  Files are read twice; a pipe once,
 * its deals held in a temporary file (52 bytes a board).  Memory stays
 * bounded either way. */
static void
read_files(void)
{
	struct session s = { 0 };
	struct stream_out o;

	setup_stdout();
	if (inputs_rereadable()) {
		read_all(&s, NULL, NULL, 1);
		write_headers(&s, &o);
		read_all(&s, write_board, &o, 0);
	} else {
		s.spool = open_spool();
		read_all(&s, hold_board, NULL, 1);
		write_headers(&s, &o);
		write_held(&s, &o);
	}
	xfclose(stdout, "standard output");
	free(s.event);
	free(s.site);
	free(s.date);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "first", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "index", required_argument, NULL, 'i' },
		{ "list", no_argument, NULL, 'l' },
		{ "partial", no_argument, NULL, 'P' },
		{ "renumber", no_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	static char *standard_input[] = { "-" };
	const char *self = getprogname();
	const char *index_dir = NULL;
	int named = strncmp(self, "dl-read-", 8) == 0, listing = 0, ch;

	tool_start();
	run.opt.warn = tool_print_warning;
	if (named)
		run.opt.format = self + 8;
	opterr = 0;	/* tool_bad_option says what is wrong */
	while ((ch = getopt_long(argc, argv, "f:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if (named)
				tool_fail(DL_ERR_USAGE, "%s reads %s only: no -f", self, self + 8);
			run.opt.format = optarg;
			break;
		case 'b':
			if (board_number_parse(optarg, strlen(optarg), &run.first) == -1)
				tool_fail(DL_ERR_USAGE, "--first %s: not a board number (1 to %u)",
				    optarg, BOARD_MAX);
			break;
		case 'h': usage(stdout, 0);
		case 'i': index_dir = optarg; break;
		case 'l': listing = 1; break;
		case 'P': run.opt.flags |= DL_IN_PARTIAL; break;
		case 'r': run.renumber = 1; break;
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (listing) {
		if (optind != argc)
			usage(stderr, 2);
		setup_stdout();
		printf("%-10s %-6s %s\n", "FORMAT", "SUFFIX", "DESCRIPTION");
		plugin_each_reader(list_one, NULL);
		xfclose(stdout, "standard output");
		return 0;
	}
	if (index_dir != NULL) {
		struct dl_error e;

		if (optind != argc || named)
			usage(stderr, 2);
		if (plugin_index_write(index_dir, index_left_out, NULL, &e) == -1)
			tool_die(&e);
		return 0;
	}
	/* the readers know whether board numbers are labels, and name the option */
	run.opt.flags |= run.renumber ? DL_IN_RENUMBER : DL_IN_OFFER_RENUMBER;
	run.files = optind < argc ? argv + optind : standard_input;
	run.nfiles = optind < argc ? argc - optind : 1;
	read_files();
	return 0;
}
