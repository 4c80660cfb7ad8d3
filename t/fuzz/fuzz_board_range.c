/* Board numbers and ranges, everywhere they are typed: -n of dl-stream,
 * dl-deal and dl-bigdeal, the #B: header (lib/base/util.c board_range_parse,
 * board_number_parse), the board lists of a .sqd phase (lib/squaredeal/sqd.c
 * sqd_parse_boards), dl-board's -b list (board_list_parse), and the
 * decimal and hex fields beside them
 * (decimal_parse, hex_to_bytes), each against a model of its syntax. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sqd.h"
#include "util.h"

/* 1 to BOARD_MAX as 1 to 10 digits, leading zeros allowed. */
static int
model_board(const char *s, size_t len, unsigned long *value)
{
	*value = 0;
	if (len < 1 || len > 10)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*value = *value * 10 + (unsigned long)(s[i] - '0');
	}
	return *value >= 1 && *value <= BOARD_MAX ? 0 : -1;
}

/* "N" or "LOW-HIGH", split at the first '-'. */
static int
model_range(const char *s, unsigned long *low, unsigned long *high)
{
	const char *dash = strchr(s, '-');

	if (dash == NULL) {
		*low = 1;
		return model_board(s, strlen(s), high);
	}
	if (model_board(s, (size_t)(dash - s), low) == -1 ||
	    model_board(dash + 1, strlen(dash + 1), high) == -1)
		return -1;
	return *low <= *high ? 0 : -1;
}

/* "ITEM,ITEM,...": each "N" (that board) or "L-H" split at its first '-',
 * in increasing order, none overlapping the one before. */
static void
check_board_list(const char *text)
{
	struct board_list list;
	struct dl_error e;
	unsigned long low, high, last = 0, count = 0;
	size_t n = 0;
	int want = 0, got = board_list_parse(text, &list, &e);
	const char *p = text;

	for (;;) {
		const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
		const char *dash = memchr(p, '-', (size_t)(end - p));
		int item_ok = model_board(p, (size_t)((dash ? dash : end) - p), &low) == 0;
		if (item_ok && dash == NULL)
			high = low;
		else if (item_ok)
			item_ok = model_board(dash + 1, (size_t)(end - dash - 1), &high) == 0;
		if (!item_ok || high < low || (n > 0 && low <= last)) {
			want = -1;
			break;
		}
		if (got == 0 && (n >= list.n || list.ranges[n].low != low ||
		    list.ranges[n].high != high))
			fuzz_fail("board_list_parse(\"%.40s\"): range %zu read otherwise", text, n);
		n++;
		count += high - low + 1;
		last = high;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	if (got != want)
		fuzz_fail("board_list_parse(\"%.40s\") %s", text,
		    got == 0 ? "accepts what it should refuse" : "refuses a list");
	if (got == 0 && (list.n != n || list.count != count))
		fuzz_fail("board_list_parse(\"%.40s\"): %zu ranges, %llu boards", text, list.n,
		    list.count);
	if (got == -1) {
		fuzz_check_error(&e, "board_list_parse");
		if (e.kind != DL_ERR_USAGE || list.n != 0 || list.ranges != NULL)
			fuzz_fail("board_list_parse(\"%.40s\"): a refusal not as promised", text);
	}
	board_list_free(&list);
}

static void
check_range(const char *text)
{
	struct board_range r;
	unsigned long low, high;
	const char *why;
	int got = board_range_parse(text, &r, &why), want = model_range(text, &low, &high);

	if (got != want)
		fuzz_fail("board_range_parse(\"%.40s\") %s", text,
		    got == 0 ? "accepts what it should refuse" : "refuses a range");
	if (got == -1 && (why == NULL || *why == '\0'))
		fuzz_fail("board_range_parse(\"%.40s\") does not say why", text);
	if (got == 0 && (r.low != low || r.high != high))
		fuzz_fail("\"%.40s\" read as %u-%u", text, r.low, r.high);
}

/* The raw bytes with their length, not a string: a read past len shows. */
static void
check_board_number(const uint8_t *data, size_t size)
{
	unsigned board;
	unsigned long want;
	int got = board_number_parse((const char *)data, size, &board);

	if (got != model_board((const char *)data, size, &want))
		fuzz_fail("board_number_parse disagrees with the model");
	if (got == 0 && board != want)
		fuzz_fail("board_number_parse read %u, not %lu", board, want);
}

static void
check_decimal(const char *text)
{
	size_t len = strlen(text);
	long long value;

	/* as parse_count uses it: a prefix of a longer string */
	for (size_t cut = 0; cut <= len && cut <= 24; cut++)
		if (decimal_parse(text, cut, 0, 999999999, &value) == 0) {
			char back[32];
			if (value < 0 || value > 999999999)
				fuzz_fail("decimal_parse out of its bounds: %lld", value);
			if (strspn(text, "0123456789") < cut)
				fuzz_fail("decimal_parse took a non-digit");
			snprintf(back, sizeof back, "%lld", value);
			/* leading zeros aside, the digits are the number */
			size_t z = strspn(text, "0");
			z = z >= cut ? cut - 1 : z;
			if (strlen(back) != cut - z || strncmp(back, text + z, cut - z) != 0)
				fuzz_fail("decimal_parse read %lld from \"%.*s\"", value,
				    (int)cut, text);
		}
}

static void
check_hex(const char *text)
{
	unsigned char out[32];

	/* only exactly 2 * len hex digits */
	for (size_t len = 20; len <= 32; len += 12)
		if (hex_to_bytes(text, out, len) == 0 &&
		    (strlen(text) != 2 * len || strspn(text, "0123456789abcdefABCDEF") != 2 * len))
			fuzz_fail("hex_to_bytes took \"%.70s\" for %zu bytes", text, len);
}

/* The canonical list reads back as the same ranges. */
static void
check_sqd_boards(const char *text)
{
	struct board_range *ranges, *again;
	size_t n, m;
	char *canon = sqd_parse_boards(text, &ranges, &n);

	if (canon == NULL) {
		if (ranges != NULL || n != 0)
			fuzz_fail("a refused board list leaves ranges behind");
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (ranges[i].low < 1 || ranges[i].low > ranges[i].high ||
		    ranges[i].high > BOARD_MAX)
			fuzz_fail("\"%.40s\": range %zu is %u-%u", text, i, ranges[i].low,
			    ranges[i].high);
	char *twice = sqd_parse_boards(canon, &again, &m);
	if (twice == NULL || strcmp(canon, twice) != 0 || m != n ||
	    (n && memcmp(ranges, again, n * sizeof *ranges) != 0))
		fuzz_fail("the board list \"%.40s\" reads back otherwise", canon);
	free(twice);
	free(again);
	free(canon);
	free(ranges);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);

	check_board_number(data, size);
	check_range(text);
	check_board_list(text);
	check_decimal(text);
	check_hex(text);
	check_sqd_boards(text);
	free(text);
	return 0;
}
