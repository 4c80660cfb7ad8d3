/* dl-stream: seed record in, one deal number per board out. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <sodium.h>

#include "generator.h"
#include "proto.h"
#include "seed.h"
#include "tool.h"
#include "util.h"

#define DEFAULT_BOARDS "32"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-stream [-g generator] [-n boards] [--event number]\n"
	    "                 [--session number]\n");
	exit(status);
}

static uint64_t
coordinate(const char *text, uint64_t max, const char *what)
{
	const char *why;
	uint64_t value;

	if (u64_parse(text, max, &value, &why) == -1)
		tool_fail(DL_ERR_USAGE, "--%s %s: %s (0 to %llu)", what, text, why,
		    (unsigned long long)max);
	return value;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'E' },
		{ "generator", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ "session", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	const char *boards = NULL, *why, *event = NULL, *session = NULL;
	const struct generator *wanted = NULL;
	struct board_range range;
	struct number_source ns;
	struct stream_in in;
	struct stream_out out;
	struct seed_record *seed;
	struct dl_error e;
	char header[128];
	int ch;

	tool_start();
	opterr = 0;	/* tool_bad_option says what is wrong */
	while ((ch = getopt_long(argc, argv, "g:hn:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'E': event = optarg; break;
		case 'g':
			if ((wanted = generator_find(optarg)) == NULL)
				tool_fail(DL_ERR_USAGE, "unknown generator \"%s\" (known: %s)",
				    optarg, generator_names());
			break;
		case 'h': usage(stdout, 0);
		case 'n': boards = optarg; break;
		case 'S': session = optarg; break;
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	if (boards != NULL && board_range_parse(boards, &range, &why) == -1)
		tool_fail(DL_ERR_USAGE, "-n %s: %s", boards, why);
	if (sodium_init() < 0)
		tool_fail(DL_ERR_SYSTEM, "cannot initialise libsodium");

	seed = secret_alloc(sizeof *seed);
	if (stream_open(&in, stdin, STREAM_SEED, &e) == -1)
		tool_die(&e);
	if (boards == NULL) {
		/* a seed stream may announce its session's boards */
		if (in.has_range)
			range = in.range;
		else
			board_range_parse(DEFAULT_BOARDS, &range, &why);
	}
	if (seed_record_read(&in, seed, &e) == -1)
		tool_die(&e);
	if (wanted != NULL && seed->generator != wanted)
		tool_fail(DL_ERR_INPUT, "the seed is for the %s generator, not %s",
		    seed->generator->name, wanted->name);
	if ((event != NULL || session != NULL) && !seed->generator->coordinates)
		tool_fail(DL_ERR_USAGE, "--event and --session are coordinates of "
		    "generators that take them, not of %s", seed->generator->name);
	if (event != NULL)
		seed->event = coordinate(event, seed->generator->max_event, "event");
	if (session != NULL)
		seed->session = (uint32_t)coordinate(session, UINT32_MAX, "session");
	number_source_init(&ns, seed, range.high);

	setup_stdout();
	stream_out_begin(&out, stdout, STREAM_NUMBERS);
	stream_out_copy_headers(&out, &in, "BG");
	generator_header(seed, header, sizeof header);
	stream_out_header(&out, 'G', header);
	stream_out_range(&out, range.low, range.high);
	stream_close(&in);
	for (unsigned long board = range.low; board <= range.high; board++)
		stream_out_number(&out, (unsigned)board, number_source_board(&ns, (unsigned)board));
	number_source_free(&ns);
	secret_free(seed);
	xfclose(stdout, "standard output");
	return 0;
}
