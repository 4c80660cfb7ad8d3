/* dl-dd: a deals stream in, the same deals with their double-dummy
 * analysis out (a deals+dd stream, docs/protocol.md): each board's 20
 * trick counts and its par result, for the dealer and vulnerability of its
 * number.  The solving is libdds's (DDS, the solver other programs use);
 * this tool only feeds it boards in batches and writes what it finds. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "deals/analysis.h"
#include "stream/proto.h"
#include "deals/solve.h"
#include "tool.h"
#include "base/util.h"

#define BATCH SOLVE_BATCH

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-dd [-qv] [-j threads] [-s count]\n");
	exit(status);
}

struct batch {
	unsigned n;
	unsigned board[BATCH];
	unsigned char owner[BATCH][CARDS];
	/* the board's dealer and vulnerability: its own in a deals+dv
	 * stream, else its number's */
	int dealer[BATCH], vulnerability[BATCH];
	struct dl_analysis analysis[BATCH];
};

/* What the run has done, for the progress line and the report. */
struct progress {
	int shown;			/* a progress line on a terminal */
	unsigned long done, total;	/* total: 0 when the stream says not */
	double start;
	double slowest;			/* the slowest batch's seconds */
	unsigned slowest_low, slowest_high;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* -s: the slowest boards seen so far, solved one at a time. */
#define SLOWEST_MAX 100
static struct {
	unsigned want, n;
	unsigned board[SLOWEST_MAX];
	double seconds[SLOWEST_MAX];
} slowest;

static void
note_time(unsigned board, double seconds)
{
	unsigned at = slowest.n;

	if (slowest.n < slowest.want)
		slowest.n++;
	else {
		/* the quickest kept gives way, if this board was slower */
		at = 0;
		for (unsigned i = 1; i < slowest.n; i++)
			if (slowest.seconds[i] < slowest.seconds[at])
				at = i;
		if (seconds <= slowest.seconds[at])
			return;
	}
	slowest.board[at] = board;
	slowest.seconds[at] = seconds;
}

static void
report_slowest(void)
{
	if (slowest.n == 0)
		return;
	fprintf(stderr, "dl-dd: the slowest boards:");
	while (slowest.n > 0) {
		unsigned top = 0;
		for (unsigned i = 1; i < slowest.n; i++)
			if (slowest.seconds[i] > slowest.seconds[top])
				top = i;
		fprintf(stderr, " %u (%.2f s)", slowest.board[top], slowest.seconds[top]);
		slowest.board[top] = slowest.board[--slowest.n];
		slowest.seconds[top] = slowest.seconds[slowest.n];
	}
	fputc('\n', stderr);
}

/* -s: each board's time, from the solver. */
static void
timed(void *ctx, unsigned board, double seconds)
{
	(void)ctx;
	note_time(board, seconds);
}

static void
show_progress(const struct progress *p)
{
	double elapsed = now() - p->start;
	double rate = elapsed > 0 ? (double)p->done / elapsed : 0;

	if (!p->shown)
		return;
	if (p->total > 0 && rate > 0)
		fprintf(stderr, "\rdl-dd: %lu/%lu boards, %.1f a second, %.0f s left   ", p->done,
		    p->total, rate, (double)(p->total - p->done) / rate);
	else
		fprintf(stderr, "\rdl-dd: %lu boards, %.1f a second   ", p->done, rate);
}

static int
flush_batch(struct solver *solver, struct batch *b, struct stream_out *out,
    struct progress *p, struct dl_error *e)
{
	double start = now(), took;

	if (b->n == 0)
		return 0;
	if (solver_solve(solver, b->n, b->board, b->owner, b->dealer, b->vulnerability,
	    b->analysis, slowest.want > 0 ? timed : NULL, NULL, e) == -1)
		return -1;
	took = now() - start;
	if (took > p->slowest) {
		p->slowest = took;
		p->slowest_low = b->board[0];
		p->slowest_high = b->board[b->n - 1];
	}
	for (unsigned i = 0; i < b->n; i++)
		stream_out_analysed(out, b->board[i], b->owner[i], b->dealer[i],
		    b->vulnerability[i], &b->analysis[i]);
	p->done += b->n;
	b->n = 0;
	show_progress(p);
	return 0;
}

static void
write_headers(const struct stream_in *in, struct stream_out *out)
{
	char name[64];

	solver_name(name, sizeof name);
	stream_out_begin_dv(out, stdout, STREAM_ANALYSED, stream_own_dv(in));
	stream_out_copy_headers(out, in, "A");
	stream_out_headerf(out, 'A', "%s", name);
}

static int
analyse(struct solver *solver, struct stream_in *in, struct progress *p, struct dl_error *e)
{
	struct stream_out out;
	struct batch *b = xmalloc(sizeof *b);
	char *line;
	size_t len;
	int got;

	b->n = 0;
	write_headers(in, &out);
	while ((got = stream_next_record(in, &line, &len, e)) == 1) {
		if (record_deal(in, line, len, &b->board[b->n], b->owner[b->n], e) == -1)
			break;
		stream_board_dv(in, &b->dealer[b->n], &b->vulnerability[b->n]);
		if (++b->n == BATCH && flush_batch(solver, b, &out, p, e) == -1) {
			got = -1;
			break;
		}
	}
	if (got == 0 && stream_check_complete(in, e) == 0 &&
	    flush_batch(solver, b, &out, p, e) == 0) {
		free(b);
		return 0;
	}
	free(b);
	return -1;
}

int
main(int argc, char *argv[])
{
	struct progress progress = { 0 };
	struct stream_in in;
	struct board_range announced;
	struct dl_error e;
	struct solver *solver;
	long threads = sysconf(_SC_NPROCESSORS_ONLN);
	int quiet = 0, verbose = 0, ch;
	const char *errstr;

	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};

	tool_start();
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "hj:qs:v", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h': usage(stdout, 0);
		case 'j':
			threads = strtonum(optarg, 1, 1024, &errstr);
			if (errstr != NULL)
				tool_fail(DL_ERR_USAGE, "-j %s: not a number of threads from 1 to 1024",
				    optarg);
			break;
		case 'q': quiet = 1; break;
		case 's':
			slowest.want = (unsigned)strtonum(optarg, 1, SLOWEST_MAX, &errstr);
			if (errstr != NULL)
				tool_fail(DL_ERR_USAGE, "-s %s: not a number of boards from 1 to %d",
				    optarg, SLOWEST_MAX);
			break;
		case 'v': verbose = 1; break;
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	tool_sodium_init();	/* the solver's deals are in secret memory */
	solver = solver_start(threads > 0 ? (unsigned)threads : 0);
	setup_stdout();
	/* a board's own dealer and vulnerability give its par */
	if (stream_open_deals(&in, stdin, STREAM_TAKES_OWN_DV, &e) == -1)
		tool_die(&e);
	if (stream_range(&in, &announced))
		progress.total = announced.high - announced.low + 1;
	progress.shown = !quiet && isatty(STDERR_FILENO);
	progress.start = now();
	if (analyse(solver, &in, &progress, &e) == -1) {
		if (progress.shown)
			fputc('\n', stderr);
		tool_die(&e);
	}
	if (progress.shown)
		fputc('\n', stderr);
	if (verbose && progress.done > 0)
		fprintf(stderr, "dl-dd: %lu boards in %.2f s; the slowest batch, boards %u-%u, "
		    "%.2f s\n", progress.done, now() - progress.start, progress.slowest_low,
		    progress.slowest_high, progress.slowest);
	report_slowest();
	stream_close(&in);
	solver_free(solver);
	xfclose(stdout, "standard output");
	return 0;
}
