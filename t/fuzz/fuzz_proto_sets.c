/* A sets stream, or one set's stream, as dl-archive import reads it
 * (lib/archive/export.c's archive_import, without the archive):
 * stream_open_deals taking a sets stream, stream_open_next for each set,
 * record_deal with the boards in a set's own order when it has no #B:,
 * stream_board_dv, stream_check_complete.  A set with a #B: holds exactly
 * its boards, in order; every set read, written back as dl-archive export
 * writes it (its kind, its headers, its records), reads back the same:
 * as many sets, the same headers, boards, deals, dealers and
 * vulnerabilities. */
#include <stdlib.h>
#include <string.h>

#include "deals/dealnum.h"
#include "fuzz.h"
#include "stream/proto.h"
#include "base/util.h"

#define TAKES (STREAM_TAKES_OWN_DV | STREAM_TAKES_ANY_ORDER)

struct board_read {
	unsigned board;
	unsigned char owner[CARDS];
	int dealer, vulnerability;
};

struct set_read {
	char **headers;
	size_t nheaders;
	int own_dv;
	struct board_read *boards;
	size_t n;
};

struct run {
	int sets_stream;		/* else one set's stream */
	char **headers;			/* the sets stream's own */
	size_t nheaders;
	struct set_read *sets;
	size_t nsets;
};

static char **
headers_copy(const struct stream_in *s, size_t *n)
{
	char *const *h = stream_headers(s, n);
	char **copy = xreallocarray(NULL, *n ? *n : 1, sizeof *copy);

	for (size_t i = 0; i < *n; i++)
		copy[i] = xstrdup(h[i]);
	return copy;
}

static void
headers_free(char **h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(h[i]);
	free(h);
}

static void
run_free(struct run *run)
{
	headers_free(run->headers, run->nheaders);
	for (size_t i = 0; i < run->nsets; i++) {
		headers_free(run->sets[i].headers, run->sets[i].nheaders);
		free(run->sets[i].boards);
	}
	free(run->sets);
	memset(run, 0, sizeof *run);
}

/* One set's records, its #B: kept to. */
static int
read_set(struct run *run, struct stream_in *s, struct dl_error *e)
{
	struct set_read *set;
	struct board_range range;
	char *line;
	size_t len;
	int got;

	if (stream_kind_of(s) != STREAM_DEALS)
		fuzz_fail("a set read as a %s stream", stream_kind_name(stream_kind_of(s)));
	run->sets = xreallocarray(run->sets, run->nsets + 1, sizeof *run->sets);
	set = &run->sets[run->nsets++];
	memset(set, 0, sizeof *set);
	set->headers = headers_copy(s, &set->nheaders);
	set->own_dv = stream_own_dv(s);
	while ((got = stream_next_record(s, &line, &len, e)) == 1) {
		struct board_read *b;

		set->boards = xreallocarray(set->boards, set->n + 1, sizeof *set->boards);
		b = &set->boards[set->n];
		if (record_deal(s, line, len, &b->board, b->owner, e) == -1)
			return -1;
		if (b->board < 1 || b->board > BOARD_MAX)
			fuzz_fail("board %u read", b->board);
		stream_board_dv(s, &b->dealer, &b->vulnerability);
		if (b->dealer < 0 || b->dealer > 3 || b->vulnerability < 0 ||
		    b->vulnerability > 3)
			fuzz_fail("board %u: dealer %d, vulnerability %d", b->board, b->dealer,
			    b->vulnerability);
		set->n++;
	}
	if (got == -1 || stream_check_complete(s, e) == -1)
		return -1;
	if (stream_range(s, &range)) {
		if (set->n != (size_t)range.high - range.low + 1)
			fuzz_fail("%zu boards, but #B: %u-%u", set->n, range.low, range.high);
		for (size_t i = 0; i < set->n; i++)
			if (set->boards[i].board != range.low + i)
				fuzz_fail("board %u where #B: %u-%u has %zu", set->boards[i].board,
				    range.low, range.high, range.low + i);
	}
	return 0;
}

/* What dl-archive import reads: one set, or a sets stream's sets. */
static int
read_input(struct run *run, FILE *in, struct dl_error *e)
{
	struct stream_in outer, set, next;
	int r;

	if (stream_open_deals(&outer, in, TAKES | STREAM_TAKES_SETS, e) == -1) {
		stream_close(&outer);
		return -1;
	}
	if (stream_kind_of(&outer) != STREAM_SETS) {
		r = read_set(run, &outer, e);
		stream_close(&outer);
		return r;
	}
	run->sets_stream = 1;
	run->headers = headers_copy(&outer, &run->nheaders);
	r = stream_open_next(&set, &outer, STREAM_DEALS, TAKES | STREAM_TAKES_NEXT, e);
	stream_close(&outer);
	while (r == 1) {
		if (read_set(run, &set, e) == -1) {
			r = -1;
			break;
		}
		r = stream_open_next(&next, &set, STREAM_DEALS, TAKES | STREAM_TAKES_NEXT, e);
		stream_close(&set);
		set = next;
	}
	stream_close(&set);
	return r == 0 ? 0 : -1;
}

static void
write_headers(FILE *fp, char *const *headers, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "%s\n", headers[i]);
}

/* The sets read, as dl-archive export writes them. */
static void
write_run(const struct run *run, FILE *fp)
{
	struct stream_out out;

	if (run->sets_stream) {
		stream_out_begin(&out, fp, STREAM_SETS);
		write_headers(fp, run->headers, run->nheaders);
	}
	for (size_t i = 0; i < run->nsets; i++) {
		const struct set_read *set = &run->sets[i];

		stream_out_begin_dv(&out, fp, STREAM_DEALS, set->own_dv);
		write_headers(fp, set->headers, set->nheaders);
		for (size_t j = 0; j < set->n; j++)
			stream_out_deal_dv(&out, set->boards[j].board, set->boards[j].owner,
			    set->boards[j].dealer, set->boards[j].vulnerability);
	}
}

static int
import_stage(void *arg, FILE *in, FILE *out, struct dl_error *e)
{
	struct run *run = arg;

	if (read_input(run, in, e) == -1)
		return -1;
	write_run(run, out);
	return 0;
}

static void
same_headers(char *const *a, size_t na, char *const *b, size_t nb, const char *what)
{
	if (na != nb)
		fuzz_fail("%s: %zu headers read back as %zu", what, na, nb);
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i], b[i]) != 0)
			fuzz_fail("%s: header \"%.60s\" read back as \"%.60s\"", what, a[i], b[i]);
}

/* What was written reads back as what was read. */
static void
check_again(void *arg, const char *text, size_t size)
{
	const struct run *run = arg;
	struct run again = { 0 };
	struct dl_error e = { 0 };
	FILE *fp = fuzz_memfile((const uint8_t *)text, size);

	if (read_input(&again, fp, &e) == -1)
		fuzz_fail("the sets written back are refused: %s", e.msg);
	fclose(fp);
	if (again.sets_stream != run->sets_stream || again.nsets != run->nsets)
		fuzz_fail("%zu sets (a sets stream: %d) read back as %zu (%d)", run->nsets,
		    run->sets_stream, again.nsets, again.sets_stream);
	same_headers(run->headers, run->nheaders, again.headers, again.nheaders,
	    "the sets stream");
	for (size_t i = 0; i < run->nsets; i++) {
		const struct set_read *a = &run->sets[i], *b = &again.sets[i];

		same_headers(a->headers, a->nheaders, b->headers, b->nheaders, "a set");
		if (a->own_dv != b->own_dv || a->n != b->n)
			fuzz_fail("set %zu: %zu boards (dv %d) read back as %zu (dv %d)", i + 1,
			    a->n, a->own_dv, b->n, b->own_dv);
		for (size_t j = 0; j < a->n; j++)
			if (a->boards[j].board != b->boards[j].board ||
			    memcmp(a->boards[j].owner, b->boards[j].owner, CARDS) != 0 ||
			    a->boards[j].dealer != b->boards[j].dealer ||
			    a->boards[j].vulnerability != b->boards[j].vulnerability)
				fuzz_fail("set %zu: board %u read back otherwise", i + 1,
				    a->boards[j].board);
	}
	run_free(&again);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run run = { 0 };

	fuzz_stage(data, size, &run, import_stage, check_again, "dl-archive import");
	run_free(&run);
	return 0;
}
