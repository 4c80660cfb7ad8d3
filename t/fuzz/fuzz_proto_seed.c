/* A seed stream as dl-stream and dl-seed --verify read it (cmd/dl-stream.c,
 * cmd/dl-seed.c): stream_open, the boards of #B: (or 32),
 * seed_record_read.  What it accepts must give a numbers stream dl-map
 * reads back (the first boards of the run, written the way dl-stream
 * writes them), and pass through dl-seed --verify unchanged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "deals/dealnum.h"
#include "fuzz.h"
#include "keys/generator.h"
#include "stream/proto.h"
#include "keys/seed.h"
#include "base/util.h"

#define BOARDS_MADE 3		/* of the run: each costs a hash or a block */

struct run {
	struct stream_in in;
	struct seed_record *seed;	/* secret memory, as in dl-stream */
	struct board_range range;
};

/* What dl-stream reads: 0, or -1 and *e. */
static int
read_seed(struct run *run, FILE *fp, struct dl_error *e)
{
	const char *why;

	if (stream_open(&run->in, fp, STREAM_SEED, e) == -1)
		return -1;
	/* dl-stream without -n: the seed's own boards, or 32 */
	if (run->in.has_range)
		run->range = run->in.range;
	else if (board_range_parse("32", &run->range, &why) == -1)
		fuzz_fail("the default boards: %s", why);
	return seed_record_read(&run->in, run->seed, e);
}

/* dl-stream's output for the boards up to last, into text. */
static void
write_numbers(struct run *run, unsigned last, u128 numbers[], char **text, size_t *size)
{
	FILE *fp = open_memstream(text, size);
	struct stream_out out;
	struct number_source ns;
	char header[128];

	if (fp == NULL)
		abort();
	stream_out_begin(&out, fp, STREAM_NUMBERS);
	stream_out_copy_headers(&out, &run->in, "BG");
	generator_header(run->seed, header, sizeof header);
	stream_out_header(&out, 'G', header);
	stream_out_range(&out, run->range.low, last);
	number_source_init(&ns, run->seed, run->range.high);
	for (unsigned b = run->range.low; b <= last; b++) {
		numbers[b - run->range.low] = number_source_board(&ns, b);
		if (numbers[b - run->range.low] >= DEAL_COUNT)
			fuzz_fail("board %u: deal number out of range", b);
		stream_out_number(&out, b, numbers[b - run->range.low]);
	}
	number_source_free(&ns);
	fclose(fp);
}

/* The numbers, read as dl-map reads them. */
static void
read_numbers(const struct run *run, unsigned last, const u128 numbers[],
    const char *text, size_t size)
{
	FILE *fp = fuzz_memfile((const uint8_t *)text, size);
	struct stream_in out;
	struct dl_error e = { 0 };
	char generator[160], boards[40], *line;
	const char *added[] = { generator, boards, NULL };
	unsigned board, expect = run->range.low;
	u128 number;
	size_t len;
	int got;

	if (stream_open(&out, fp, STREAM_NUMBERS, &e) == -1)
		fuzz_fail("dl-stream's output is refused: %s", e.msg);
	snprintf(generator, sizeof generator, "#G: ");
	generator_header(run->seed, generator + 4, sizeof generator - 4);
	snprintf(boards, sizeof boards, "#B: %u-%u", run->range.low, last);
	fuzz_check_headers(&run->in, "BG", added, &out);
	if (generator_of_header(stream_header(&out, 'G')) != run->seed->generator)
		fuzz_fail("#G: names another generator");
	while ((got = stream_next_record(&out, &line, &len, &e)) == 1) {
		if (record_number(&out, line, &board, &number, &e) == -1)
			fuzz_fail("output board %u: %s", expect, e.msg);
		if (board != expect || number != numbers[board - run->range.low])
			fuzz_fail("output board %u is not as made", board);
		expect++;
	}
	if (got == -1 || stream_check_complete(&out, &e) == -1)
		fuzz_fail("dl-stream's output is refused: %s", e.msg);
	stream_close(&out);
	fclose(fp);
}

/* dl-seed --verify hands the seed on: its headers, then the record. */
static void
pass_on(const struct run *run)
{
	char record[SEED_RECORD_MAX], *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);
	struct stream_out out;
	struct run again = { .seed = secret_alloc(sizeof *again.seed) };
	struct dl_error e = { 0 };

	if (fp == NULL)
		abort();
	stream_out_begin(&out, fp, STREAM_SEED);
	stream_out_copy_headers(&out, &run->in, "");
	seed_record_format(run->seed, record);
	fputs(record, fp);
	fclose(fp);

	FILE *in = fuzz_memfile((const uint8_t *)text, size);
	if (read_seed(&again, in, &e) == -1)
		fuzz_fail("dl-seed --verify's output is refused: %s", e.msg);
	fclose(in);
	fuzz_check_headers(&run->in, "", NULL, &again.in);
	if (again.seed->generator != run->seed->generator ||
	    sodium_memcmp(again.seed, run->seed, sizeof *run->seed) != 0)
		fuzz_fail("the seed record reads back as another seed");
	stream_close(&again.in);
	secret_free(again.seed);
	/* the text held the secret in hex */
	sodium_memzero(text, size);
	free(text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run run = { .seed = secret_alloc(sizeof *run.seed) };
	struct dl_error e = { 0 };
	FILE *in = fuzz_memfile(data, size);

	if (read_seed(&run, in, &e) == 0) {
		u128 numbers[BOARDS_MADE];
		unsigned last = run.range.high - run.range.low >= BOARDS_MADE ?
		    run.range.low + BOARDS_MADE - 1 : run.range.high;
		char *text = NULL;
		size_t text_size = 0;
		write_numbers(&run, last, numbers, &text, &text_size);
		read_numbers(&run, last, numbers, text, text_size);
		free(text);
		pass_on(&run);
	} else {
		fuzz_check_error(&e, "dl-stream");
		if (e.kind != DL_ERR_INPUT)
			fuzz_fail("a bad seed stream is not an input error: %s", e.msg);
	}
	fclose(in);
	stream_close(&run.in);
	secret_free(run.seed);
	return 0;
}
