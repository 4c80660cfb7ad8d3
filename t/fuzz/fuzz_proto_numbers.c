/* A numbers stream as dl-map reads it (cmd/dl-map.c, numbers_to_deals):
 * stream_open, stream_next_record, record_board, deal_number_from_hex,
 * stream_check_complete.  What it accepts must give a deals stream that
 * the next stage reads back with the same headers, boards and deals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dealnum.h"
#include "fuzz.h"
#include "mapping.h"
#include "proto.h"
#include "tso.h"

struct run {
	const struct mapping *map;
	struct stream_in in;	/* the input, read */
	FILE *out;		/* dl-map's output */
	u128 *numbers;		/* of each record */
	unsigned *boards;
	size_t n;
};

/* numbers_to_deals, writing to run->out. */
static void
map_numbers(void *arg)
{
	struct run *run = arg;
	struct stream_in *in = &run->in;
	unsigned char owner[CARDS];
	unsigned board;
	char *line;
	size_t len;

	stream_open(in, fopen("numbers", "r"), STREAM_NUMBERS);
	if (in->headed) {
		stream_write_headers(run->out, STREAM_DEALS, in, "M");
		fprintf(run->out, "#M: %s\n", run->map->name);
	}
	while ((line = stream_next_record(in, &len)) != NULL) {
		char field[TSO_DIGITS];
		u128 number = record_number(in, line, &board);
		run->map->deal(number, owner);
		if (!deal_is_complete(owner))
			fuzz_fail("board %u: number gave an incomplete deal", board);
		deal_to_tso(owner, field);
		fprintf(run->out, "%u %.*s\n", board, TSO_DIGITS, field);
		run->numbers = realloc(run->numbers, (run->n + 1) * sizeof *run->numbers);
		run->boards = realloc(run->boards, (run->n + 1) * sizeof *run->boards);
		if (run->numbers == NULL || run->boards == NULL)
			abort();
		run->numbers[run->n] = number;
		run->boards[run->n++] = board;
	}
	stream_check_complete(in);
}

/* The output, read as dl-fmt and dl-map --reverse read a deals stream. */
static void
read_deals(void *arg)
{
	struct run *run = arg;
	struct stream_in out;
	unsigned char owner[CARDS];
	const char *added[] = { NULL, NULL };
	char mapped[64];
	unsigned board;
	char *line;
	size_t len, i = 0;

	stream_open(&out, fopen("deals", "r"), STREAM_DEALS);
	if (out.headed != run->in.headed)
		fuzz_fail("a %s input gave a %s output", run->in.headed ? "headed" : "plain",
		    out.headed ? "headed" : "plain");
	snprintf(mapped, sizeof mapped, "#M: %s", run->map->name);
	added[0] = run->in.headed ? mapped : NULL;
	fuzz_check_headers(&run->in, "M", added, &out);
	while ((line = stream_next_record(&out, &len)) != NULL) {
		char *field = record_board(&out, line, &board);
		const char *why = deal_from_tso(field, strlen(field), owner);
		if (why != NULL)
			fuzz_fail("output board %u: %s", board, why);
		if (i == run->n || board != run->boards[i])
			fuzz_fail("output board %u is not input board %u", board,
			    i < run->n ? run->boards[i] : 0);
		if (run->map->number(owner) != run->numbers[i])
			fuzz_fail("board %u: the deal does not map back to its number", board);
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
	struct run run = { .map = &mappings[size % nmappings] };
	char *text = NULL;
	size_t text_size = 0;
	int ended;

	fuzz_file_add("numbers", data, size);
	run.out = open_memstream(&text, &text_size);
	ended = fuzz_call(map_numbers, &run) == -1;
	fclose(run.out);
	if (!ended) {
		fuzz_file_add("deals", (const uint8_t *)text, text_size);
		if (fuzz_call(read_deals, &run) == -1)
			fuzz_fail("dl-map's output is refused: %s", fuzz_message);
		stream_close(&run.in);
	}
	/* what is ours first: fuzz_abandon frees the rest */
	free(text);
	free(run.numbers);
	free(run.boards);
	if (ended)
		fuzz_abandon();
	fuzz_files_reset();
	return 0;
}
