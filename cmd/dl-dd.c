/* dl-dd: a deals stream in, the same deals with their double-dummy
 * analysis out (a deals+dd stream, docs/protocol.md): each board's 20
 * trick counts and its par result, for the dealer and vulnerability of its
 * number.  The solving is libdds's (DDS, the solver other programs use);
 * this tool only feeds it boards in batches and writes what it finds. */
#include <dds/dll.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis.h"
#include "proto.h"
#include "tool.h"
#include "util.h"

/* CalcAllTables solves at most 32 deals of five strains a call. */
#define BATCH 32

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

static void __attribute__((noreturn))
dds_failed(const char *what, int code)
{
	char message[80];

	ErrorMessage(code, message);
	tool_fail(DL_ERR_SYSTEM, "DDS: %s: %s", what, message);
}

/* DDS's holding of a suit: bit 14 the ace ... bit 2 the two. */
static void
table_deal(const unsigned char owner[CARDS], struct ddTableDeal *deal)
{
	memset(deal, 0, sizeof *deal);
	for (unsigned c = 0; c < CARDS; c++)
		deal->cards[owner[c]][c / 13] |= 1u << (14 - c % 13);
}

/* DDS's vulnerability: 0 none, 1 both, 2 North-South, 3 East-West. */
static int
dds_vulnerable(int vulnerability)
{
	static const int by_ours[4] = { 0, 2, 3, 1 };

	return by_ours[vulnerability];
}

/* Par contracts from the lowest strain up (clubs first, notrump last),
 * then by level: the order Bridge Composer lists them in. */
static int
contract_order(const void *a, const void *b)
{
	const struct dl_contract *x = a, *y = b;

	if (x->strain != y->strain)
		return (int)y->strain - (int)x->strain;
	return (int)x->level - (int)y->level;
}

/* The par result DDS finds for the board's dealer and vulnerability, in
 * our terms; checked against the scoring table, so that a misreading of
 * DDS's conventions cannot pass unseen. */
static void
board_par(unsigned board, int dealer, int vulnerability, struct ddTableResults *table,
    struct dl_analysis *a)
{
	static const unsigned char seats_mask[6] = { 1, 2, 4, 8, 5, 10 };
	struct parResultsMaster par;
	char text[ANALYSIS_TEXT_MAX];
	struct dl_analysis check;
	const char *why;
	int rc;

	if ((rc = DealerParBin(table, &par, dealer, dds_vulnerable(vulnerability))) !=
	    RETURN_NO_FAULT)
		dds_failed("par", rc);
	a->par_score = par.score;
	a->ncontracts = 0;
	if (par.score != 0)
		for (int i = 0; i < par.number && i < DL_PAR_CONTRACTS_MAX; i++) {
			const struct contractType *ct = &par.contracts[i];
			if (ct->seats < 0 || ct->seats > 5 || ct->denom < 0 || ct->denom > 4)
				tool_fail(DL_ERR_SYSTEM, "board %u: DDS's par names seats %d, "
				    "strain %d", board, ct->seats, ct->denom);
			struct dl_contract *c = &a->contracts[a->ncontracts++];
			c->level = (unsigned char)ct->level;
			c->strain = (unsigned char)ct->denom;	/* 0 NT, 1 S ... 4 C, as ours */
			c->doubled = ct->underTricks > 0;
			c->declarers = seats_mask[ct->seats];
			c->result = (signed char)(ct->overTricks - ct->underTricks);
		}
	qsort(a->contracts, a->ncontracts, sizeof *a->contracts, contract_order);
	analysis_format(a, text);
	if ((why = analysis_parse(text, (unsigned)vulnerability, &check)) != NULL)
		tool_fail(DL_ERR_SYSTEM, "board %u: DDS's par \"%s\" does not add up: %s", board,
		    text + ANALYSIS_TRICKS_HEX + 1, why);
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

/* Solves the batch: one CalcAllTables call, or with -s one CalcDDtable a
 * board (DDS then runs a board's strains in parallel, and each board's
 * time is known); then par board by board. */
static void
solve(struct batch *b)
{
	static struct ddTableDeals deals;
	static struct ddTablesRes results;
	static struct allParResults pars;
	int filter[DDS_STRAINS] = { 0 }, rc;

	deals.noOfTables = (int)b->n;
	for (unsigned i = 0; i < b->n; i++)
		table_deal(b->owner[i], &deals.deals[i]);
	if (slowest.want > 0)
		for (unsigned i = 0; i < b->n; i++) {
			double start = now();
			if ((rc = CalcDDtable(deals.deals[i], &results.results[i])) != RETURN_NO_FAULT)
				dds_failed("table", rc);
			note_time(b->board[i], now() - start);
		}
	else if ((rc = CalcAllTables(&deals, -1, filter, &results, &pars)) != RETURN_NO_FAULT)
		dds_failed("tables", rc);
	for (unsigned i = 0; i < b->n; i++) {
		struct ddTableResults *table = &results.results[i];
		/* DDS's strains run spades, hearts, diamonds, clubs, notrump */
		for (unsigned seat = 0; seat < 4; seat++)
			for (unsigned strain = 0; strain < DL_STRAINS; strain++)
				b->analysis[i].tricks[seat][(strain + 1) % DL_STRAINS] =
				    (unsigned char)table->resTable[strain][seat];
		board_par(b->board[i], b->dealer[i], b->vulnerability[i], table, &b->analysis[i]);
	}
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

static void
flush_batch(struct batch *b, struct stream_out *out, struct progress *p)
{
	double start = now(), took;

	if (b->n == 0)
		return;
	solve(b);
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
}

static void
write_headers(const struct stream_in *in, struct stream_out *out)
{
	struct DDSInfo info;

	GetDDSInfo(&info);
	stream_out_begin_dv(out, stdout, STREAM_ANALYSED, stream_own_dv(in));
	stream_out_copy_headers(out, in, "A");
	stream_out_headerf(out, 'A', "dds %d.%d.%d", info.major, info.minor, info.patch);
}

static int
analyse(struct stream_in *in, struct progress *p, struct dl_error *e)
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
		if (++b->n == BATCH)
			flush_batch(b, &out, p);
	}
	if (got == 0 && stream_check_complete(in, e) == 0) {
		flush_batch(b, &out, p);
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
	SetMaxThreads(threads > 0 ? (int)threads : 0);
	setup_stdout();
	/* a board's own dealer and vulnerability give its par */
	if (stream_open_deals(&in, stdin, STREAM_TAKES_OWN_DV, &e) == -1)
		tool_die(&e);
	if (stream_range(&in, &announced))
		progress.total = announced.high - announced.low + 1;
	progress.shown = !quiet && isatty(STDERR_FILENO);
	progress.start = now();
	if (analyse(&in, &progress, &e) == -1) {
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
	FreeMemory();
	xfclose(stdout, "standard output");
	return 0;
}
