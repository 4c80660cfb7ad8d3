/* dl-stream: seed record in, one deal number per board out. */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <sodium.h>

#include "deal.h"
#include "proto.h"
#include "seed.h"
#include "util.h"

#define DEFAULT_BOARDS "32"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-stream [-g generator] [-n boards] [--event number]\n"
	    "                 [--session number]\n");
	exit(status);
}

static long long
coordinate(const char *text, long long max, const char *what)
{
	const char *why;
	long long value = strtonum(text, 0, max, &why);

	if (why != NULL)
		errx(2, "--%s %s: %s (0 to %lld)", what, text, why, max);
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
	enum generator wanted = GENERATOR_BIGDEAL;
	int check_generator = 0, ch;
	struct board_range range;
	struct number_source ns;
	struct stream_in in;
	struct seed_record *seed;

	while ((ch = getopt_long(argc, argv, "g:hn:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'E': event = optarg; break;
		case 'g':
			if (generator_from_name(optarg, &wanted) == -1)
				errx(2, "unknown generator \"%s\" (known: bigdeal, dl256)", optarg);
			check_generator = 1;
			break;
		case 'h': usage(stdout, 0);
		case 'n': boards = optarg; break;
		case 'S': session = optarg; break;
		default: usage(stderr, 2);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	if (boards != NULL && board_range_parse(boards, &range, &why) == -1)
		errx(2, "-n %s: %s", boards, why);
	if (sodium_init() < 0)
		errx(2, "cannot initialise libsodium");

	stream_open(&in, stdin, STREAM_SEED);
	if (boards == NULL) {
		/* a seed stream may announce its session's boards */
		if (in.has_range)
			range = in.range;
		else
			board_range_parse(DEFAULT_BOARDS, &range, &why);
	}
	seed = secret_alloc(sizeof *seed);
	seed_record_read(&in, seed);
	if (check_generator && seed->generator != wanted)
		errx(1, "the seed is for the %s generator, not %s",
		    generator_name(seed->generator), generator_name(wanted));
	if ((event != NULL || session != NULL) && seed->generator != GENERATOR_DL256)
		errx(2, "--event and --session are coordinates of the dl256 generator");
	if (event != NULL)
		seed->event = (uint64_t)coordinate(event, LLONG_MAX, "event");
	if (session != NULL)
		seed->session = (uint32_t)coordinate(session, UINT32_MAX, "session");
	number_source_init(&ns, seed, range.high);

	setup_stdout();
	stream_write_headers(stdout, STREAM_NUMBERS, &in, "BG");
	if (seed->generator == GENERATOR_DL256)
		printf("#G: dl256 event %llu session %u\n",
		    (unsigned long long)seed->event, seed->session);
	else
		printf("#G: bigdeal\n");
	printf("#B: %u-%u\n", range.low, range.high);
	stream_close(&in);
	for (unsigned long board = range.low; board <= range.high; board++) {
		char line[16 + DEAL_NUMBER_HEX], *p = put_unsigned(line, board);
		*p++ = ' ';
		deal_number_to_hex(number_source_board(&ns, (unsigned)board), p);
		p[DEAL_NUMBER_HEX] = '\n';
		fwrite_unlocked(line, 1, (size_t)(p + DEAL_NUMBER_HEX + 1 - line), stdout);
	}
	number_source_free(&ns);
	secret_free(seed);
	xfclose(stdout, "standard output");
	return 0;
}
