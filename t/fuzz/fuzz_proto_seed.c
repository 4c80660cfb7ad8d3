/* A seed stream as dl-stream and dl-seed --verify read it (cmd/dl-stream.c,
 * cmd/dl-seed.c): stream_open, the boards of #B:, seed_record_read.  What
 * it accepts must give a numbers stream dl-map reads back (the first
 * boards of the run), and pass through dl-seed --verify unchanged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "deal.h"
#include "dealnum.h"
#include "fuzz.h"
#include "proto.h"
#include "seed.h"
#include "util.h"

#define BOARDS_MADE 3		/* of the run: each costs a hash or a block */

struct run {
	const char *path;
	struct stream_in in;
	struct seed_record *seed;	/* secret memory, as in dl-stream */
	struct board_range range;
};

static void
read_seed(void *arg)
{
	struct run *run = arg;
	const char *why;

	stream_open(&run->in, fopen(run->path, "r"), STREAM_SEED);
	/* dl-stream without -n: the seed's own boards, or 32 */
	if (run->in.has_range)
		run->range = run->in.range;
	else if (board_range_parse("32", &run->range, &why) == -1)
		fuzz_fail("the default boards: %s", why);
	seed_record_read(&run->in, run->seed);
}

/* dl-stream's output for the first boards of the run, into text. */
static void
write_numbers(struct run *run, unsigned last, u128 numbers[], char **text, size_t *size)
{
	FILE *out = open_memstream(text, size);
	struct number_source ns;

	stream_write_headers(out, STREAM_NUMBERS, &run->in, "BG");
	if (run->seed->generator == GENERATOR_DL256)
		fprintf(out, "#G: dl256 event %llu session %u\n",
		    (unsigned long long)run->seed->event, run->seed->session);
	else
		fprintf(out, "#G: bigdeal\n");
	fprintf(out, "#B: %u-%u\n", run->range.low, last);
	number_source_init(&ns, run->seed, run->range.high);
	for (unsigned b = run->range.low; b <= last; b++) {
		char hex[DEAL_NUMBER_HEX + 1];
		numbers[b - run->range.low] = number_source_board(&ns, b);
		if (numbers[b - run->range.low] >= DEAL_COUNT)
			fuzz_fail("board %u: deal number out of range", b);
		deal_number_to_hex(numbers[b - run->range.low], hex);
		fprintf(out, "%u %.*s\n", b, DEAL_NUMBER_HEX, hex);
	}
	number_source_free(&ns);
	fclose(out);
}

struct numbers {
	struct run *run;
	unsigned last;
	u128 *numbers;
};

static void
read_numbers(void *arg)
{
	struct numbers *n = arg;
	struct stream_in out;
	char generator[80], boards[40];
	const char *added[] = { generator, boards, NULL };
	unsigned board, expect = n->run->range.low;
	char *line;
	size_t len;

	stream_open(&out, fopen("numbers", "r"), STREAM_NUMBERS);
	if (n->run->seed->generator == GENERATOR_DL256)
		snprintf(generator, sizeof generator, "#G: dl256 event 0 session 0");
	else
		snprintf(generator, sizeof generator, "#G: bigdeal");
	snprintf(boards, sizeof boards, "#B: %u-%u", n->run->range.low, n->last);
	fuzz_check_headers(&n->run->in, "BG", added, &out);
	while ((line = stream_next_record(&out, &len)) != NULL) {
		char *hex = record_board(&out, line, &board);
		u128 number;
		if (board != expect || deal_number_from_hex(hex, &number) == -1 ||
		    number != n->numbers[board - n->run->range.low])
			fuzz_fail("output board %u is not as made", board);
		expect++;
	}
	stream_check_complete(&out);
	stream_close(&out);
}

/* dl-seed --verify hands the seed on: its headers, then the record. */
static void
pass_on(struct run *run)
{
	char record[2 * 2 * BIGDEAL_SECRET + 16], *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	stream_write_headers(out, STREAM_SEED, &run->in, "");
	seed_record_format(run->seed, record);
	fputs(record, out);
	fclose(out);
	fuzz_file_add("again", (const uint8_t *)text, size);

	struct run again = { "again", .seed = secret_alloc(sizeof *again.seed) };
	if (fuzz_call(read_seed, &again) == -1)
		fuzz_fail("dl-seed --verify's output is refused: %s", fuzz_message);
	fuzz_check_headers(&run->in, "", NULL, &again.in);
	if (again.seed->generator != run->seed->generator ||
	    sodium_memcmp(again.seed, run->seed, sizeof *run->seed) != 0)
		fuzz_fail("the seed record reads back as another seed");
	stream_close(&again.in);
	secret_free(again.seed);
	free(text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run run = { "seed", .seed = secret_alloc(sizeof *run.seed) };

	fuzz_file_add("seed", data, size);
	if (fuzz_call(read_seed, &run) == 0) {
		struct numbers n = { &run, run.range.low, NULL };
		char *text = NULL;
		size_t text_size = 0;
		if (run.range.high - run.range.low >= BOARDS_MADE)
			n.last = run.range.low + BOARDS_MADE - 1;
		else
			n.last = run.range.high;
		n.numbers = calloc(BOARDS_MADE, sizeof *n.numbers);
		write_numbers(&run, n.last, n.numbers, &text, &text_size);
		fuzz_file_add("numbers", (const uint8_t *)text, text_size);
		if (fuzz_call(read_numbers, &n) == -1)
			fuzz_fail("dl-stream's output is refused: %s", fuzz_message);
		free(text);
		free(n.numbers);
		pass_on(&run);
		stream_close(&run.in);
	} else
		fuzz_abandon();
	secret_free(run.seed);
	fuzz_files_reset();
	return 0;
}
