/* dl-map: deal numbers to deals (.tso records), or back with --reverse. */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dealnum.h"
#include "mapping.h"
#include "proto.h"
#include "tso.h"
#include "util.h"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-map [-r] [-m mapping]\n");
	exit(status);
}

static void __attribute__((noreturn))
unknown_mapping(const char *name)
{
	errx(2, "unknown mapping \"%s\" (known: %s)", name, mapping_names());
}

static void
numbers_to_deals(struct stream_in *in, const struct mapping *map)
{
	unsigned board;
	unsigned char owner[CARDS];
	char *line;
	size_t len;

	if (in->headed) {
		stream_write_headers(stdout, STREAM_DEALS, in, "M");
		printf("#M: %s\n", map->name);
	}
	while ((line = stream_next_record(in, &len)) != NULL) {
		char out[16 + TSO_DIGITS], *p;
		map->deal(record_number(in, line, &board), owner);
		p = put_unsigned(out, board);
		*p++ = ' ';
		deal_to_tso(owner, p);
		p[TSO_DIGITS] = '\n';
		fwrite_unlocked(out, 1, (size_t)(p + TSO_DIGITS + 1 - out), stdout);
	}
	stream_check_complete(in);
}

/* The mapping of a deals stream: the one its #M: header names, which an
 * explicit -m must agree with, else -m's or the default. */
static const struct mapping *
mapping_of_deals(const struct stream_in *in, const struct mapping *given)
{
	const char *name = stream_header(in, 'M');
	const struct mapping *map;

	if (name == NULL)
		return given != NULL ? given : &mappings[0];
	if ((map = mapping_find(name)) == NULL)
		errx(1, "the deals were mapped with \"%.40s\", which this dl-map does not know",
		    name);
	if (given != NULL && given != map)
		errx(1, "the deals were mapped with \"%s\", not \"%s\" as -m says",
		    map->name, given->name);
	return map;
}

static void
deals_to_numbers(struct stream_in *in, const struct mapping *given)
{
	unsigned board;
	const struct mapping *map = mapping_of_deals(in, given);
	unsigned char owner[CARDS];
	char *line;
	size_t len;

	if (in->headed)
		stream_write_headers(stdout, STREAM_NUMBERS, in, "M");
	while ((line = stream_next_record(in, &len)) != NULL) {
		char out[16 + DEAL_NUMBER_HEX], *p;
		record_deal(in, line, &board, owner);
		p = put_unsigned(out, board);
		*p++ = ' ';
		deal_number_to_hex(map->number(owner), p);
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
	const struct mapping *given = NULL;	/* by -m */
	int reverse = 0, ch;

	while ((ch = getopt_long(argc, argv, "hm:r", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout, 0);
		case 'm':
			if ((given = mapping_find(optarg)) == NULL)
				unknown_mapping(optarg);
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
		deals_to_numbers(&in, given);
	} else {
		stream_open(&in, stdin, STREAM_NUMBERS);
		numbers_to_deals(&in, given != NULL ? given : &mappings[0]);
	}
	stream_close(&in);
	xfclose(stdout, "standard output");
	return 0;
}
