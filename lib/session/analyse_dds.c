/* The double-dummy analysis in this process, by DDS (lib/deals/solve.c),
 * with a progress line on a terminal as dl-dd shows it: dl-deal's
 * (session.h). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "session/session.h"
#include "deals/solve.h"

/* The analysis: DDS's through the solver, with a line on a terminal as
 * dl-dd shows. */
struct analysing {
	struct solver *solver;
	int shown;
	int midline;	/* a progress line without its end */
	unsigned long done, total;
	struct timespec start;
};

static void
analysed_some(void *ctx, size_t boards)
{
	struct analysing *a = ctx;
	struct timespec now;
	double elapsed, rate;

	if (!a->shown)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	elapsed = (double)(now.tv_sec - a->start.tv_sec) +
	    (double)(now.tv_nsec - a->start.tv_nsec) / 1e9;
	rate = elapsed > 0 ? (double)(a->done + boards) / elapsed : 0;
	fprintf(stderr, "\r%s: analysed %lu/%lu boards, %.1f a second, %.0f s left   ",
	    getprogname(), a->done + boards, a->total, rate,
	    rate > 0 ? (double)(a->total - a->done - boards) / rate : 0);
	a->midline = a->done + boards < a->total;
	if (!a->midline)
		fputc('\n', stderr);
}

static int
dds_analyse(void *ctx, unsigned first, size_t n, const unsigned char (*owner)[CARDS],
    const int dealer[], const int vulnerability[], struct dl_analysis analysis[],
    struct dl_error *e)
{
	struct analysing *a = ctx;

	if (solver_solve_run(a->solver, first, n, owner, dealer, vulnerability, analysis,
	    analysed_some, a, e) == -1)
		return -1;
	a->done += n;
	return 0;
}

static struct analysing dds_state;

static int
dds_start(void *ctx, unsigned long total, int shown, struct dl_error *e)
{
	struct analysing *a = ctx;

	(void)e;
	a->solver = solver_start(0);
	a->shown = shown;
	a->total = total;
	a->done = 0;
	clock_gettime(CLOCK_MONOTONIC, &a->start);
	return 0;
}

static void
dds_stop(void *ctx)
{
	struct analysing *a = ctx;

	if (a->midline)
		fputc('\n', stderr);
	a->midline = 0;
	if (a->solver != NULL)
		solver_free(a->solver);
	a->solver = NULL;
}

static void
dds_name(void *ctx, char *buf, size_t size)
{
	(void)ctx;
	solver_name(buf, size);
}

const struct session_analyser session_dds = {
	.start = dds_start, .analyse = dds_analyse, .stop = dds_stop, .name = dds_name,
	.ctx = &dds_state,
};
