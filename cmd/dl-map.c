/* dl-map: deal numbers to deals (.tso records), or back with --reverse. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deals/dealnum.h"
#include "deals/mapping.h"
#include "keys/generator.h"
#include "stream/proto.h"
#include "tool.h"
#include "stream/tso.h"
#include "base/util.h"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-map [-r] [-m mapping]\n");
	exit(status);
}

/* Records are mapped a batch at a time and written in one piece: Big
 * Deal's mapping unranks two deals side by side (map->deals), 40 % faster
 * than one after the other, and an fwrite a record cost more than making
 * its text.  The boards of a batch follow
 * on from each other, as record_number makes sure. */
#define BATCH 64

struct batch {
	size_t count;
	unsigned first_board;
	u128 number[BATCH];
	unsigned char owner[BATCH][CARDS];
	char text[BATCH * RECORD_TEXT_MAX];
};

static void
map_batch(struct batch *b, const struct mapping *map, FILE *out)
{
	if (b->count == 0)
		return;
	map->deals(b->number, b->count, b->owner);
	fwrite_unlocked(b->text, 1, records_deal_text(b->text, b->first_board, b->count, b->owner),
	    out);
	b->count = 0;
}

/* The records before a bad one are written, as they were one at a time. */
static int
numbers_to_deals(struct stream_in *in, const struct mapping *map, struct dl_error *e)
{
	struct stream_out out;
	struct batch b;
	unsigned board;
	char *line;
	size_t len;
	int got;

	if (stream_out_begin_like(&out, stdout, in, STREAM_DEALS)) {
		stream_out_copy_headers(&out, in, "M");
		stream_out_header(&out, 'M', map->name);
	}
	b.count = 0;
	while ((got = stream_next_record(in, &line, &len, e)) == 1) {
		if (record_number(in, line, &board, &b.number[b.count], e) == -1) {
			got = -1;
			break;
		}
		if (b.count == 0)
			b.first_board = board;
		if (++b.count == BATCH)
			map_batch(&b, map, out.fp);
	}
	map_batch(&b, map, out.fp);
	if (got == -1)
		return -1;
	return stream_check_complete(in, e);
}

static int
deals_to_numbers(struct stream_in *in, const struct mapping *map, struct dl_error *e)
{
	struct stream_out out;
	unsigned char owner[CARDS];
	unsigned board;
	char *line;
	size_t len;
	int got;

	/* #A: names who analysed deals, which numbers no longer carry */
	if (stream_out_begin_like(&out, stdout, in, STREAM_NUMBERS))
		stream_out_copy_headers(&out, in, "MA");
	while ((got = stream_next_record(in, &line, &len, e)) == 1) {
		if (record_deal(in, line, len, &board, owner, e) == -1)
			return -1;
		stream_out_number(&out, board, map->number(owner));
	}
	if (got == -1)
		return -1;
	return stream_check_complete(in, e);
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
	const struct mapping *given = NULL, *map;	/* given by -m */
	struct dl_error e;
	int reverse = 0, ch;

	tool_start();
	opterr = 0;	/* tool_bad_option says what is wrong */
	while ((ch = getopt_long(argc, argv, "hm:r", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout, 0);
		case 'm':
			if ((given = mapping_find(optarg)) == NULL)
				tool_fail(DL_ERR_USAGE, "unknown mapping \"%s\" (known: %s)",
				    optarg, mapping_names());
			break;
		case 'r':
			reverse = 1;
			break;
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	setup_stdout();
	/* --reverse takes analysed deals too: the analysis follows from the deal */
	if ((reverse ? stream_open_deals(&in, stdin,
	    STREAM_TAKES_ANALYSED | STREAM_TAKES_OWN_DV, &e) :
	    stream_open(&in, stdin, STREAM_NUMBERS, &e)) == -1 ||
	    mapping_of_stream(&in, given, &map, &e) == -1 ||
	    (reverse ? deals_to_numbers(&in, map, &e) : numbers_to_deals(&in, map, &e)) == -1)
		tool_die(&e);
	stream_close(&in);
	xfclose(stdout, "standard output");
	return 0;
}
