/* Benchmark helper (make bench): how many boards a second format NAME
 * writes, the writer alone.  Reads up to BOARDS deals (.tso records) from
 * standard input into memory, then times writing BOARDS boards to standard
 * output; a format that holds boards up to M only (DUP 99, CDS 255) is fed
 * boards 1..M over and over in one run, which it writes as it comes, or
 * when it refuses a board twice (DLM), a run of M boards after another.
 *   fmtbench NAME BOARDS   prints "boards/s" */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "files/plugins.h"
#include "tso_input.h"
#include "files/writers.h"

static double
seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One run of boards 1..session over and over: -1 if the format refuses a
 * board it had. */
static int
write_cycling(const struct format_list *list, const struct writers_options *wo,
    unsigned char (*deals)[CARDS], unsigned long have, unsigned long want, unsigned session)
{
	struct writers *ws;
	struct dl_error e;

	if (writers_open(&ws, list, wo, &e) == -1 ||
	    writers_begin(ws, 1, session, "Benchmark", NULL, 0, 0, 0, &e) == -1)
		errx(1, "%s", e.msg);
	for (unsigned long done = 0; done < want; done++)
		if (writers_board(ws, (unsigned)(1 + done % session), deals[done % have],
		    -1, -1, NULL, &e) == -1) {
			if (done < session)
				errx(1, "%s", e.msg);
			writers_abort(ws);
			return -1;
		}
	if (writers_finish(ws, &e) == -1)
		errx(1, "%s", e.msg);
	return 0;
}

static void
write_sessions(const struct format_list *list, const struct writers_options *wo,
    unsigned char (*deals)[CARDS], unsigned long have, unsigned long want, unsigned session)
{
	struct dl_error e;

	for (unsigned long done = 0; done < want;) {
		struct writers *ws;
		unsigned high = want - done < session ? (unsigned)(want - done) : session;
		if (writers_open(&ws, list, wo, &e) == -1 ||
		    writers_begin(ws, 1, high, "Benchmark", NULL, 0, 0, 0, &e) == -1)
			errx(1, "%s", e.msg);
		for (unsigned b = 1; b <= high; b++, done++)
			if (writers_board(ws, b, deals[done % have], -1, -1, NULL, &e) == -1)
				errx(1, "%s", e.msg);
		if (writers_finish(ws, &e) == -1)
			errx(1, "%s", e.msg);
	}
}

int
main(int argc, char *argv[])
{
	/* the writer alone, in this thread: not overlapped with the reading */
	struct writers_options wo = { .publish = PUBLISH_NEW, .threads = 1 };
	struct format_list list;
	struct loaded_plugin lp;
	struct dl_error e;
	unsigned char (*deals)[CARDS];
	unsigned long want, have;

	if (argc != 3)
		errx(2, "usage: fmtbench NAME BOARDS");
	want = strtoul(argv[2], NULL, 10);
	if (want == 0 || (deals = calloc(want, CARDS)) == NULL)
		errx(2, "bad board count");
	have = tso_input(deals, want);
	if (plugin_load(argv[1], &lp, &e) == -1)
		errx(2, "%s", e.msg);
	/* held loaded: a run a session then loads it once, as dl-sqd's
	 * sessions of one event would, not once a session */
	unsigned session = lp.plugin->max_board != 0 ? lp.plugin->max_board : (unsigned)want;
	if (format_list_parse(argv[1], &list, &e) == -1)
		errx(2, "%s", e.msg);

	double start = seconds();
	if (write_cycling(&list, &wo, deals, have, want, session) == -1) {
		/* a format that takes no board twice in a run (DLM): a run
		 * a session, as a tournament would write it */
		start = seconds();
		write_sessions(&list, &wo, deals, have, want, session);
	}
	double t = seconds() - start;
	fflush(stdout);
	fprintf(stderr, "%.0f\n", (double)want / t);
	format_list_free(&list);
	plugin_unload(&lp);
	free(deals);
	return 0;
}
