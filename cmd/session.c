/* A session dealt in one process (session.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "deal.h"
#include "generator.h"
#include "proto.h"
#include "recording.h"
#include "session.h"
#include "solve.h"

int
session_wants_analysis(const struct format_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		if (strcmp(list->names[i], "html") == 0 || strcmp(list->names[i], "pdf") == 0)
			return 1;
	return 0;
}

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
analyse(void *ctx, unsigned first, size_t n, const unsigned char (*owner)[CARDS],
    struct dl_analysis analysis[], struct dl_error *e)
{
	struct analysing *a = ctx;

	if (solver_solve_run(a->solver, first, n, owner, analysis, analysed_some, a, e) == -1)
		return -1;
	a->done += n;
	return 0;
}

/* The header lines a pipeline would carry, for writers that keep them;
 * with the analysis, dl-dd's #A:. */
static size_t
make_headers(char *headers[9], const struct session *s, const struct seed_record *seed)
{
	char when[32], generator[128];
	time_t now = time(NULL);
	struct tm tm;
	size_t n = 0;

	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	generator_header(seed, generator, sizeof generator);
	headers[n++] = xasprintf("#V: %s", DL_VERSION_STRING);
	headers[n++] = xasprintf("#T: %s", when);
	if (s->event != NULL)
		headers[n++] = xasprintf("#I: %s", s->event);
	if (s->site != NULL)
		headers[n++] = xasprintf("#S: %s", s->site);
	if (s->date != NULL)
		headers[n++] = xasprintf("#D: %s", s->date);
	headers[n++] = xasprintf("#G: %s", generator);
	headers[n++] = xasprintf("#B: %u-%u", s->boards.low, s->boards.high);
	headers[n++] = xasprintf("#M: %s", seed->generator->mapping);
	if (s->analysis) {
		char name[64];
		solver_name(name, sizeof name);
		headers[n++] = xasprintf("#A: %s", name);
	}
	return n;
}

int
session_deal(struct session *s, struct dl_error *e)
{
	struct recording *recording = NULL;
	struct analysing analysing = { 0 };
	struct writers *ws = NULL;
	struct seed_record *seed;
	char *headers[9];
	size_t nheaders = 0;
	int status = -1;

	if (s->record && (recording = recording_start(s->archive, s->where, &s->wo, e)) == NULL) {
		dl_error_prefix(e, "archive");
		return -1;
	}
	if (writers_open(&ws, s->formats, &s->wo, e) == -1) {
		recording_abort(recording);
		return -1;
	}
	seed = secret_alloc(sizeof *seed);
	if (s->owner != NULL)
		memcpy(seed->owner, s->owner, sizeof seed->owner);
	if (seed_make(seed, &s->source, &s->bits, e) == -1)
		goto fail;
	nheaders = make_headers(headers, s, seed);
	if (s->analysis) {
		analysing.solver = solver_start(0);
		analysing.shown = s->show_analysis;
		analysing.total = (unsigned long)s->boards.high - s->boards.low + 1;
		clock_gettime(CLOCK_MONOTONIC, &analysing.start);
	}
	if (writers_begin(ws, s->boards.low, s->boards.high, s->event, headers, nheaders,
	    s->analysis, 0, e) == -1 ||
	    deal_boards_analysed(seed, s->boards, ws, s->progress, s->analysis ?
	    &(struct deal_analyser){ .analyse = analyse, .ctx = &analysing } : NULL, e) == -1) {
		if (analysing.midline)
			fputc('\n', stderr);
		goto fail;
	}
	/* in the archive before its files are there: a set published is a
	 * set recorded */
	if (recording != NULL) {
		struct recording *r = recording;

		recording = NULL;
		if (recording_commit(r, headers, nheaders, &s->set_id, e) == -1) {
			dl_error_prefix(e, "archive");
			goto fail;
		}
	}
	status = writers_finish(ws, e);
	ws = NULL;
fail:
	if (analysing.solver != NULL)
		solver_free(analysing.solver);
	recording_abort(recording);
	if (ws != NULL)
		writers_abort(ws);
	for (size_t i = 0; i < nheaders; i++)
		free(headers[i]);
	if (s->keep_seed && status == 0)
		s->seed = seed;
	else
		secret_free(seed);
	return status;
}
