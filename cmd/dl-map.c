/* dl-map: deal numbers to deals (.tso records), or back with --reverse. */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dealnum.h"
#include "proto.h"
#include "tso.h"
#include "util.h"

#define MAPPING "bigdeal"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-map [-r] [-m mapping]\n");
	exit(status);
}

static void
numbers_to_deals(struct stream_in *in)
{
	unsigned board;
	unsigned char owner[CARDS];
	char *line;
	size_t len;

	if (in->headed) {
		stream_write_headers(stdout, STREAM_DEALS, in, "M");
		printf("#M: %s\n", MAPPING);
	}
	while ((line = stream_next_record(in, &len)) != NULL) {
		char *hex = record_board(in, line, &board);
		char out[16 + TSO_DIGITS], *p;
		u128 number;
		if (deal_number_from_hex(hex, &number) == -1)
			stream_fail(in, "deal number is not 24 lowercase hex digits");
		if (number >= DEAL_COUNT)
			stream_fail(in, "deal number out of range");
		deal_from_number(number, owner);
		p = put_unsigned(out, board);
		*p++ = ' ';
		deal_to_tso(owner, p);
		p[TSO_DIGITS] = '\n';
		fwrite_unlocked(out, 1, (size_t)(p + TSO_DIGITS + 1 - out), stdout);
	}
	stream_check_complete(in);
}

static void
deals_to_numbers(struct stream_in *in)
{
	unsigned board;
	const char *mapping = stream_header(in, 'M');
	unsigned char owner[CARDS];
	char *line;
	size_t len;

	if (mapping != NULL && strcmp(mapping, MAPPING) != 0)
		errx(1, "the deals were mapped with \"%.40s\", which this dl-map does not know",
		    mapping);
	if (in->headed)
		stream_write_headers(stdout, STREAM_NUMBERS, in, "M");
	while ((line = stream_next_record(in, &len)) != NULL) {
		char *field = record_board(in, line, &board);
		char out[16 + DEAL_NUMBER_HEX], *p;
		const char *why = deal_from_tso(field, strlen(field), owner);
		if (why != NULL)
			stream_fail(in, "%s", why);
		p = put_unsigned(out, board);
		*p++ = ' ';
		deal_number_to_hex(number_from_deal(owner), p);
		p[DEAL_NUMBER_HEX] = '\n';
		fwrite_unlocked(out, 1, (size_t)(p + DEAL_NUMBER_HEX + 1 - out), stdout);
	}
	stream_check_complete(in);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "mapping", required_argument, NULL, 'm' },
		{ "reverse", no_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	struct stream_in in;
	int reverse = 0, ch;

	while ((ch = getopt_long(argc, argv, "hm:r", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout, 0);
		case 'm':
			if (strcmp(optarg, MAPPING) != 0)
				errx(2, "unknown mapping \"%s\" (known: %s)", optarg, MAPPING);
			break;
		case 'r':
			reverse = 1;
			break;
		default:
			usage(stderr, 2);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	setup_stdout();
	if (reverse) {
		stream_open(&in, stdin, STREAM_DEALS);
		deals_to_numbers(&in);
	} else {
		stream_open(&in, stdin, STREAM_NUMBERS);
		numbers_to_deals(&in);
	}
	stream_close(&in);
	xfclose(stdout, "standard output");
	return 0;
}
