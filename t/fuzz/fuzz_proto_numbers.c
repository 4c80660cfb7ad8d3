/* A numbers stream as dl-map reads it (cmd/dl-map.c numbers_to_deals):
 * stream_open, mapping_of_stream, stream_next_record, record_number,
 * stream_check_complete, with -m or without it as the input's length
 * says.  The mapping is the one -m gives, else the natural one of the
 * generator #G: names, else the default; every number gives a complete
 * deal; and the deals stream written the way dl-map writes it reads back
 * with the same headers (#M: replaced), boards and deals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deals/dealnum.h"
#include "fuzz.h"
#include "keys/generator.h"
#include "deals/mapping.h"
#include "stream/proto.h"
#include "base/util.h"

struct run {
	const struct mapping *given;	/* -m, or NULL */
	const struct mapping *map;
	struct stream_in in;	/* the input, read */
	u128 *numbers;		/* of each record */
	unsigned *boards;
	size_t n;
};

/* The mapping mapping_of_stream must choose for a numbers stream. */
static const struct mapping *
expected_mapping(const struct run *run)
{
	const char *g = stream_header(&run->in, 'G');
	const struct generator *gen;

	if (run->given != NULL)
		return run->given;
	if (g != NULL && (gen = generator_of_header(g)) != NULL)
		return mapping_find(gen->mapping);
	return &mappings[0];
}

/* numbers_to_deals: the input from in, dl-map's output to fp. */
static int
map_numbers(struct run *run, FILE *in, FILE *fp, struct dl_error *e)
{
	struct stream_out out = { fp, STREAM_DEALS, 0 };
	unsigned char owner[CARDS];
	unsigned board;
	u128 number;
	char *line;
	size_t len;
	int got;

	if (stream_open(&run->in, in, STREAM_NUMBERS, e) == -1 ||
	    mapping_of_stream(&run->in, run->given, &run->map, e) == -1)
		return -1;
	if (run->map == NULL || run->map != expected_mapping(run))
		fuzz_fail("the mapping %s chosen for the numbers",
		    run->map ? run->map->name : "(none)");
	if (run->in.headed) {
		stream_out_begin(&out, fp, STREAM_DEALS);
		stream_out_copy_headers(&out, &run->in, "M");
		stream_out_header(&out, 'M', run->map->name);
	}
	while ((got = stream_next_record(&run->in, &line, &len, e)) == 1) {
		if (record_number(&run->in, line, &board, &number, e) == -1)
			return -1;
		if (number >= DEAL_COUNT)
			fuzz_fail("board %u: a deal number out of range accepted", board);
		run->map->deal(number, owner);
		if (!deal_is_complete(owner))
			fuzz_fail("board %u: number gave an incomplete deal", board);
		stream_out_deal(&out, board, owner);
		run->numbers = xreallocarray(run->numbers, run->n + 1, sizeof *run->numbers);
		run->boards = xreallocarray(run->boards, run->n + 1, sizeof *run->boards);
		run->numbers[run->n] = number;
		run->boards[run->n++] = board;
	}
	if (got == -1)
		return -1;
	return stream_check_complete(&run->in, e);
}

/* The output, read as dl-fmt and dl-map --reverse read a deals stream. */
static void
read_deals(const struct run *run, const char *text, size_t size)
{
	FILE *fp = fuzz_memfile((const uint8_t *)text, size);
	const struct mapping *map;
	struct stream_in out;
	struct dl_error e = { 0 };
	unsigned char owner[CARDS];
	const char *added[] = { NULL, NULL };
	char mapped[64], *line;
	unsigned board;
	size_t len, i = 0;
	int got;

	if (stream_open(&out, fp, STREAM_DEALS, &e) == -1)
		fuzz_fail("dl-map's output is refused: %s", e.msg);
	if (out.headed != run->in.headed)
		fuzz_fail("a %s input gave a %s output", run->in.headed ? "headed" : "plain",
		    out.headed ? "headed" : "plain");
	snprintf(mapped, sizeof mapped, "#M: %s", run->map->name);
	added[0] = run->in.headed ? mapped : NULL;
	fuzz_check_headers(&run->in, "M", added, &out);
	/* the next stage finds the mapping in #M: */
	if (out.headed && (mapping_of_stream(&out, NULL, &map, &e) == -1 || map != run->map))
		fuzz_fail("dl-map's output names another mapping");
	while ((got = stream_next_record(&out, &line, &len, &e)) == 1) {
		if (record_deal(&out, line, len, &board, owner, &e) == -1)
			fuzz_fail("output record %zu: %s", i + 1, e.msg);
		if (i == run->n || board != run->boards[i])
			fuzz_fail("output board %u is not input board %u", board,
			    i < run->n ? run->boards[i] : 0);
		if (run->map->number(owner) != run->numbers[i])
			fuzz_fail("board %u: the deal does not map back to its number", board);
		i++;
	}
	if (got == -1 || stream_check_complete(&out, &e) == -1)
		fuzz_fail("dl-map's output is refused: %s", e.msg);
	if (i != run->n)
		fuzz_fail("%zu boards in, %zu out", run->n, i);
	stream_close(&out);
	fclose(fp);
}

static int
map_stage(void *run, FILE *in, FILE *out, struct dl_error *e)
{
	return map_numbers(run, in, out, e);
}

static void
check_deals(void *run, const char *text, size_t size)
{
	read_deals(run, text, size);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run run = { 0 };

	/* half the inputs with -m NAME */
	run.given = size % 2 ? &mappings[size / 2 % nmappings] : NULL;
	fuzz_stage(data, size, &run, map_stage, check_deals, "dl-map");
	stream_close(&run.in);
	free(run.numbers);
	free(run.boards);
	return 0;
}
