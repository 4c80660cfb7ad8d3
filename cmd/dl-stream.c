/* dl-stream: seed record in, one deal number per board out. */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <sodium.h>

#include "bigdeal.h"
#include "proto.h"
#include "seed.h"
#include "util.h"

#define DEFAULT_BOARDS "32"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-stream [-n boards]\n");
	exit(status);
}

int
main(int argc, char *argv[])
{
	const char *boards = NULL, *why;
	struct board_range range;
	struct stream_in in;
	struct seed_record *seed;
	struct bigdeal_stream *stream;
	int ch;

	while ((ch = getopt(argc, argv, "hn:")) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout, 0);
		case 'n':
			boards = optarg;
			break;
		default:
			usage(stderr, 2);
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
	stream = secret_alloc(sizeof *stream);
	seed_record_read(&in, seed);
	bigdeal_stream_init(stream, seed->random, seed->owner);
	secret_free(seed);

	setup_stdout();
	stream_write_headers(stdout, STREAM_NUMBERS, &in, "BG");
	printf("#G: bigdeal\n#B: %u-%u\n", range.low, range.high);
	stream_close(&in);
	for (unsigned long board = range.low; board <= range.high; board++) {
		char line[16 + DEAL_NUMBER_HEX], *p = put_unsigned(line, board);
		*p++ = ' ';
		deal_number_to_hex(bigdeal_next(stream), p);
		p[DEAL_NUMBER_HEX] = '\n';
		fwrite_unlocked(line, 1, (size_t)(p + DEAL_NUMBER_HEX + 1 - line), stdout);
	}
	secret_free(stream);
	xfclose(stdout, "standard output");
	return 0;
}
