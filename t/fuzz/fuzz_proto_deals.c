/* A deals stream as dl-fmt and dl-map --reverse read it (cmd/dl-fmt.c,
 * cmd/dl-map.c deals_to_numbers): stream_open, mapping_of_stream (with -m
 * or without it, as the input's length says), record_deal,
 * stream_check_complete.  The mapping is the one #M: names, which -m must
 * not contradict; what is accepted runs from its first board to its last
 * without a gap (with #B:, exactly its boards); every deal's number maps
 * back to it; and the numbers stream written the way dl-map --reverse
 * writes it reads back unchanged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deals/analysis.h"
#include "deals/dealnum.h"
#include "fuzz.h"
#include "deals/mapping.h"
#include "keys/generator.h"
#include "stream/proto.h"
#include "base/util.h"

struct run {
	const struct mapping *given;	/* -m, or NULL */
	const struct mapping *map;
	struct stream_in in;
	u128 *numbers;
	size_t n;
};

/* An analysis accepted is written back as it was given (its text form is
 * canonical), and what it says adds up. */
static void
check_analysis(const struct stream_in *in, const char *record, unsigned board)
{
	const struct dl_analysis *a = stream_analysis(in);
	char text[ANALYSIS_TEXT_MAX];
	const char *given = strchr(record, ' ');

	/* a deals+dv record's dealer and vulnerability, written back as read */
	if (stream_own_dv(in)) {
		static const char *const words[] = { "None", "NS", "EW", "All" };
		char dv[16];
		int dealer, vulnerability;
		stream_board_dv(in, &dealer, &vulnerability);
		snprintf(dv, sizeof dv, " %c %s", "NESW"[dealer], words[vulnerability]);
		const char *deal = given != NULL ? strchr(given + 1, ' ') : NULL;
		if (deal == NULL || strncmp(deal, dv, strlen(dv)) != 0 ||
		    (deal[strlen(dv)] != '\0' && deal[strlen(dv)] != ' '))
			fuzz_fail("board %u: dealer and vulnerability \"%.20s\" read as \"%s\"",
			    board, deal ? deal : "", dv);
		given = deal + 3;	/* on the vulnerability: its end is the next space */
	}
	if (a == NULL)
		return;
	/* "BOARD DEAL [D V] ANALYSIS": past the board and the deal */
	if (given == NULL || (given = strchr(given + 1, ' ')) == NULL)
		fuzz_fail("board %u: an analysis accepted from a record without one", board);
	analysis_format(a, text);
	if (strcmp(text, given + 1) != 0)
		fuzz_fail("board %u: analysis \"%.60s\" written back as \"%.60s\"", board,
		    given + 1, text);
	for (unsigned seat = 0; seat < 4; seat++)
		for (unsigned strain = 0; strain < DL_STRAINS; strain++)
			if (a->tricks[seat][strain] > 13)
				fuzz_fail("board %u: %u tricks", board, a->tricks[seat][strain]);
	if ((a->ncontracts == 0) != (a->par_score == 0))
		fuzz_fail("board %u: par score %d with %u contracts", board, a->par_score,
		    a->ncontracts);
}

/* deals_to_numbers: the input from in, dl-map --reverse's output to fp. */
static int
reverse_deals(struct run *run, FILE *in, FILE *fp, struct dl_error *e)
{
	struct stream_out out = { fp, STREAM_NUMBERS, 0 };
	unsigned char owner[CARDS], again[CARDS];
	const char *named;
	unsigned board;
	char *line;
	size_t len;
	int got;

	if (stream_open_deals(&run->in, in, STREAM_TAKES_ANALYSED | STREAM_TAKES_OWN_DV, e) == -1 ||
	    mapping_of_stream(&run->in, run->given, &run->map, e) == -1)
		return -1;
	named = stream_header(&run->in, 'M');
	if (run->map == NULL ||
	    (named != NULL && run->map != mapping_find(named)) ||
	    (named == NULL && run->map != (run->given ? run->given : &mappings[0])) ||
	    (run->given != NULL && run->map != run->given))
		fuzz_fail("the mapping %s chosen for deals mapped with \"%.40s\"",
		    run->map ? run->map->name : "(none)", named ? named : "(unnamed)");
	if (run->in.headed) {
		stream_out_begin(&out, fp, STREAM_NUMBERS);
		stream_out_copy_headers(&out, &run->in, "M");
	}
	while ((got = stream_next_record(&run->in, &line, &len, e)) == 1) {
		char *record = xstrdup(line);
		if (record_deal(&run->in, line, len, &board, owner, e) == -1) {
			free(record);
			return -1;
		}
		check_analysis(&run->in, record, board);
		free(record);
		if (board != run->in.first_board + run->n)
			fuzz_fail("board %u where %zu boards from %u should be", board,
			    run->n, run->in.first_board);
		u128 number = run->map->number(owner);
		if (number >= DEAL_COUNT)
			fuzz_fail("board %u: deal number out of range", board);
		run->map->deal(number, again);
		if (memcmp(owner, again, CARDS) != 0)
			fuzz_fail("board %u: the deal's number gives another deal", board);
		stream_out_number(&out, board, number);
		run->numbers = xreallocarray(run->numbers, run->n + 1, sizeof *run->numbers);
		run->numbers[run->n++] = number;
	}
	if (got == -1 || stream_check_complete(&run->in, e) == -1)
		return -1;
	/* what dl-fmt's writers are told: the whole run, before its boards */
	if (run->in.has_range && (run->in.first_board != run->in.range.low ||
	    run->n != (size_t)run->in.range.high - run->in.range.low + 1))
		fuzz_fail("%zu boards from %u, but #B: %u-%u", run->n, run->in.first_board,
		    run->in.range.low, run->in.range.high);
	return 0;
}

/* The output, read as dl-map reads numbers. */
static void
read_numbers(const struct run *run, const char *text, size_t size)
{
	FILE *fp = fuzz_memfile((const uint8_t *)text, size);
	struct stream_in out;
	struct dl_error e = { 0 };
	unsigned board;
	u128 number;
	char *line;
	size_t len, i = 0;
	int got;

	if (stream_open(&out, fp, STREAM_NUMBERS, &e) == -1)
		fuzz_fail("dl-map --reverse's output is refused: %s", e.msg);
	if (out.headed != run->in.headed)
		fuzz_fail("headed and plain streams mixed up");
	fuzz_check_headers(&run->in, "M", NULL, &out);
	while ((got = stream_next_record(&out, &line, &len, &e)) == 1) {
		if (record_number(&out, line, &board, &number, &e) == -1)
			fuzz_fail("output record %zu: %s", i + 1, e.msg);
		if (i == run->n || board != run->in.first_board + i || number != run->numbers[i])
			fuzz_fail("output board %u differs from the input's", board);
		i++;
	}
	if (got == -1 || stream_check_complete(&out, &e) == -1)
		fuzz_fail("dl-map --reverse's output is refused: %s", e.msg);
	if (i != run->n)
		fuzz_fail("%zu boards in, %zu out", run->n, i);
	stream_close(&out);
	fclose(fp);
}

static int
reverse_stage(void *run, FILE *in, FILE *out, struct dl_error *e)
{
	return reverse_deals(run, in, out, e);
}

static void
check_numbers(void *run, const char *text, size_t size)
{
	read_numbers(run, text, size);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run run = { 0 };

	/* half the inputs with -m NAME: dl-map --reverse -m */
	run.given = size % 2 ? &mappings[size / 2 % nmappings] : NULL;
	fuzz_stage(data, size, &run, reverse_stage, check_numbers, "dl-map --reverse");
	stream_close(&run.in);
	free(run.numbers);
	return 0;
}
