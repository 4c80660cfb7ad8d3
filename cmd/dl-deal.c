/* dl-deal: one safe command for a session: a fresh seed from the OS, Big
 * Deal's stream and mapping, and the formats, in one process; with the
 * hand records (html, pdf) the double-dummy analysis too, as dl-dd makes
 * it (lib/deals/solve.c). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "bigdealrc.h"
#include "deal.h"
#include "entropy.h"
#include "history.h"
#include "proto.h"
#include "recording.h"
#include "seed.h"
#include "solve.h"
#include "tool.h"
#include "util.h"
#include "writers.h"

#define DEFAULT_BOARDS "32"
#define SAFE_BOARDS 100		/* as the reference's safe bigdeal */
#define DEFAULT_FORMAT "pbn"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-deal [--analysis | --no-analysis] [--archive archive | --no-archive]\n"
	    "               [--crlf] [--many] [-f formats] [-g generator] [-i event]\n"
	    "               [-n boards] [-p prefix] [--paper a4 | letter]\n"
	    "               [--per-page 6 | 4 | 1]\n");
	exit(status);
}

static void
show_progress(unsigned long done, unsigned long total)
{
	fprintf(stderr, "\rdl-deal: %lu of %lu boards", done, total);
	if (done == total)
		fputc('\n', stderr);
}

/* The formats people read after play, which show the analysis: asking
 * for one asks for the analysis, unless told otherwise. */
static int
wants_analysis(const struct format_list *list)
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
	fprintf(stderr, "\rdl-deal: analysed %lu/%lu boards, %.1f a second, %.0f s left   ",
	    a->done + boards, a->total, rate,
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
make_headers(char *headers[7], const char *event, struct board_range r,
    const struct seed_record *seed, int analysed)
{
	char when[32], generator[128];
	time_t now = time(NULL);
	size_t n = 0;

	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	generator_header(seed, generator, sizeof generator);
	headers[n++] = xasprintf("#V: %s", DL_VERSION_STRING);
	headers[n++] = xasprintf("#T: %s", when);
	if (event != NULL)
		headers[n++] = xasprintf("#I: %s", event);
	headers[n++] = xasprintf("#G: %s", generator);
	headers[n++] = xasprintf("#B: %u-%u", r.low, r.high);
	headers[n++] = xasprintf("#M: %s", seed->generator->mapping);
	if (analysed) {
		char name[64];
		solver_name(name, sizeof name);
		headers[n++] = xasprintf("#A: %s", name);
	}
	return n;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "analysis", no_argument, NULL, 'a' },
		{ "no-analysis", no_argument, NULL, 'A' },
		{ "archive", required_argument, NULL, 'r' },
		{ "no-archive", no_argument, NULL, 'R' },
		{ "crlf", no_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "generator", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ "event", required_argument, NULL, 'i' },
		{ "many", no_argument, NULL, 'm' },
		{ "paper", required_argument, NULL, 'P' },
		{ "per-page", required_argument, NULL, 'G' },
		{ "prefix", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	const char *boards = DEFAULT_BOARDS, *formats = NULL, *event = NULL, *why;
	struct writers_options wo = { .publish = PUBLISH_NEW, .warn = tool_print_warning };
	struct seed_source source = { .generator = &generator_dl256, .os = 1 };
	struct format_list list;
	struct bigdealrc rc;
	struct board_range r;
	struct writers *ws;
	struct seed_record *seed;
	struct dl_error e;
	unsigned long bits;
	struct analysing analysing = { 0 };
	/* -1: as the formats say */
	int many = 0, analysis = -1, ch;
	/* the archive the set is recorded in: NULL, the default */
	const char *archive = NULL;
	int record = 1;
	struct recording *recording = NULL;
	int64_t set_id;

	tool_start();
	opterr = 0;	/* tool_bad_option says what is wrong */
	while ((ch = getopt_long(argc, argv, "f:g:hi:n:p:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a': analysis = 1; break;
		case 'A': analysis = 0; break;
		case 'r': archive = optarg; record = 1; break;
		case 'R': archive = NULL; record = 0; break;
		case 'c': wo.crlf = 1; break;
		case 'f': formats = optarg; break;
		case 'g':
			source.generator = generator_find(optarg);
			/* the others' keys are not fresh seeds: given with --hex */
			if (source.generator == NULL ||
			    source.generator->fresh_keys == FRESH_NONE)
				tool_fail(DL_ERR_USAGE, "-g %s: dl-deal makes fresh seeds of "
				    "%s", optarg, generator_fresh_names());
			break;
		case 'h': usage(stdout, 0);
		case 'i': event = optarg; break;
		case 'm': many = 1; break;
		case 'n': boards = optarg; break;
		case 'p': wo.prefix = optarg; break;
		case 'P': tool_paper(optarg); break;
		case 'G': tool_per_page(optarg); break;
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	if (board_range_parse(boards, &r, &why) == -1)
		tool_fail(DL_ERR_USAGE, "-n %s: %s", boards, why);
	if (!many && r.high - r.low + 1 > SAFE_BOARDS)
		tool_fail(DL_ERR_USAGE, "%u boards: at most %d without --many",
		    r.high - r.low + 1, SAFE_BOARDS);
	if (event != NULL && event_text_check(event, &e) == -1) {
		dl_error_prefix(&e, "--event");
		tool_die(&e);
	}
	tool_sodium_init();
	if (bigdealrc_read(BIGDEALRC, &rc, &e) == -1)
		tool_die(&e);
	tool_print_warnings(&rc.warnings);
	if (formats == NULL)
		formats = rc.formats && *rc.formats ? rc.formats : DEFAULT_FORMAT;

	/* every set dealt goes into the archive; a run of --many boards (a
	 * simulation, not a session) only when one is named */
	if (record && (!many || archive != NULL)) {
		char *where = wo.prefix != NULL ? xasprintf("dl-deal -p %s", wo.prefix) :
		    xstrdup("dl-deal");

		recording = recording_start(archive, where, &wo, &e);
		free(where);
		if (recording == NULL) {
			dl_error_prefix(&e, "archive");
			tool_die(&e);
		}
	}
	if (format_list_parse(formats, &list, &e) == -1 ||
	    writers_open(&ws, &list, &wo, &e) == -1) {
		recording_abort(recording);
		tool_die(&e);
	}
	/* hand records are analysed, but not a run of --many boards unless
	 * asked: DDS solves a few boards a second */
	if (analysis == -1) {
		analysis = wants_analysis(&list) && !many;
		if (many && wants_analysis(&list))
			tool_warn("--many: the hand records go without the analysis "
			    "(--analysis solves every board)");
	}
	format_list_free(&list);
	seed = secret_alloc(sizeof *seed);
	if (source.generator->owner_bytes != 0)	/* Big Deal's owner, from .bigdealrc */
		tool_owner_hash_rc(&rc, 0, seed->owner);
	if (seed_make(seed, &source, &bits, &e) == -1) {
		recording_abort(recording);
		writers_abort(ws);
		tool_die(&e);
	}

	char *headers[7];
	size_t nheaders = make_headers(headers, event, r, seed, analysis);
	if (analysis) {
		analysing.solver = solver_start(0);
		analysing.shown = isatty(STDERR_FILENO);
		analysing.total = (unsigned long)r.high - r.low + 1;
		clock_gettime(CLOCK_MONOTONIC, &analysing.start);
	}
	setup_stdout();
	if (writers_begin(ws, r.low, r.high, event, headers, nheaders, analysis, 0, &e) == -1 ||
	    deal_boards_analysed(seed, r, ws, wo.prefix != NULL && isatty(STDERR_FILENO) &&
	    r.high - r.low >= 10000 ? show_progress : NULL, analysis ?
	    &(struct deal_analyser){ .analyse = analyse, .ctx = &analysing } : NULL, &e) == -1) {
		if (analysing.midline)
			fputc('\n', stderr);
		recording_abort(recording);
		writers_abort(ws);
		tool_die(&e);
	}
	secret_free(seed);
	if (analysis)
		solver_free(analysing.solver);
	/* in the archive before its files are there: a set published is a
	 * set recorded */
	if (recording != NULL && recording_commit(recording, headers, nheaders, &set_id, &e) == -1) {
		dl_error_prefix(&e, "archive");
		writers_abort(ws);
		tool_die(&e);
	}
	if (writers_finish(ws, &e) == -1)
		tool_die(&e);
	for (size_t i = 0; i < nheaders; i++)
		free(headers[i]);
	bigdealrc_free(&rc);
	xfclose(stdout, "standard output");
	return 0;
}
