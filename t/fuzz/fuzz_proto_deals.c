/* A deals stream as dl-fmt and dl-map --reverse read it (cmd/dl-fmt.c,
 * cmd/dl-map.c deals_to_numbers): stream_open, record_board,
 * deal_from_tso, the mapping its #M: header names, stream_check_complete.
 * What it accepts must run from its first board to its last without a
 * gap, and give a numbers stream the next stage reads back unchanged. */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dealnum.h"
#include "fuzz.h"
#include "lines.h"
#include "mapping.h"
#include "proto.h"
#include "tso.h"

struct run {
	const struct mapping *map;
	struct stream_in in;
	FILE *out;		/* dl-map --reverse's output */
	u128 *numbers;
	size_t n;
};

/* mapping_of_deals, without -m */
static const struct mapping *
mapping_of(const struct stream_in *in)
{
	const char *name = stream_header(in, 'M');
	const struct mapping *map;

	if (name == NULL)
		return &mappings[0];
	if ((map = mapping_find(name)) == NULL)
		errx(input_error_status, "the deals were mapped with \"%.40s\", which "
		    "this dl-map does not know", name);
	return map;
}

static void
reverse_deals(void *arg)
{
	struct run *run = arg;
	struct stream_in *in = &run->in;
	unsigned char owner[CARDS], again[CARDS];
	unsigned board;
	char *line;
	size_t len;

	stream_open(in, fopen("deals", "r"), STREAM_DEALS);
	run->map = mapping_of(in);
	if (in->headed)
		stream_write_headers(run->out, STREAM_NUMBERS, in, "M");
	while ((line = stream_next_record(in, &len)) != NULL) {
		char hex[DEAL_NUMBER_HEX + 1];
		record_deal(in, line, &board, owner);
		if (board != in->first_board + run->n)
			fuzz_fail("board %u where %zu boards from %u should be", board,
			    run->n, in->first_board);
		u128 number = run->map->number(owner);
		if (number >= DEAL_COUNT)
			fuzz_fail("board %u: deal number out of range", board);
		run->map->deal(number, again);
		if (memcmp(owner, again, CARDS) != 0)
			fuzz_fail("board %u: the deal's number gives another deal", board);
		deal_number_to_hex(number, hex);
		fprintf(run->out, "%u %.*s\n", board, DEAL_NUMBER_HEX, hex);
		run->numbers = realloc(run->numbers, (run->n + 1) * sizeof *run->numbers);
		if (run->numbers == NULL)
			abort();
		run->numbers[run->n++] = number;
	}
	stream_check_complete(in);
	/* what dl-fmt's writers are told: the whole run, before its boards */
	if (in->has_range && (in->first_board != in->range.low ||
	    run->n != (size_t)in->range.high - in->range.low + 1))
		fuzz_fail("%zu boards from %u, but #B: %u-%u", run->n, in->first_board,
		    in->range.low, in->range.high);
}

/* The output, read as dl-map reads numbers. */
static void
read_numbers(void *arg)
{
	struct run *run = arg;
	struct stream_in out;
	unsigned board;
	char *line;
	size_t len, i = 0;

	stream_open(&out, fopen("numbers", "r"), STREAM_NUMBERS);
	if (out.headed != run->in.headed)
		fuzz_fail("headed and plain streams mixed up");
	fuzz_check_headers(&run->in, "M", NULL, &out);
	while ((line = stream_next_record(&out, &len)) != NULL) {
		char *hex = record_board(&out, line, &board);
		u128 number;
		if (deal_number_from_hex(hex, &number) == -1)
			fuzz_fail("output board %u: a bad deal number", board);
		if (i == run->n || board != run->in.first_board + i || number != run->numbers[i])
			fuzz_fail("output board %u differs from the input's", board);
		i++;
	}
	stream_check_complete(&out);
	if (i != run->n)
		fuzz_fail("%zu boards in, %zu out", run->n, i);
	stream_close(&out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run run = { 0 };
	char *text = NULL;
	size_t text_size = 0;
	int ended;

	fuzz_file_add("deals", data, size);
	run.out = open_memstream(&text, &text_size);
	ended = fuzz_call(reverse_deals, &run) == -1;
	fclose(run.out);
	if (!ended) {
		fuzz_file_add("numbers", (const uint8_t *)text, text_size);
		if (fuzz_call(read_numbers, &run) == -1)
			fuzz_fail("dl-map --reverse's output is refused: %s", fuzz_message);
		stream_close(&run.in);
	}
	free(text);
	free(run.numbers);
	if (ended)
		fuzz_abandon();
	fuzz_files_reset();
	return 0;
}
