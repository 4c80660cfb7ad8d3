/* Board numbers and ranges, everywhere they are typed: -n of dl-stream
 * and dl-deal, the #B: header (lib/base/util.c board_range_parse,
 * board_number_parse), -n of dl-bigdeal and dl-bigdealx and their answer to
 * the question of the boards (board_range_parse_bigdeal), the board lists of a .sqd phase (lib/squaredeal/sqd.c
 * sqd_parse_boards), dl-board's -b list (board_list_parse), and the
 * decimal and hex fields beside them
 * (decimal_parse, hex_to_bytes), each against a model of its syntax. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "squaredeal/sqd.h"
#include "base/util.h"

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

/* Big Deal's dialect as a regular expression: blanks around each number,
 * a plus sign before it, one dash between two.  Then board 0 is refused
 * before anything else, and the numbers are board_range_parse's. */
static int
model_range_bigdeal(const char *s, unsigned long *low, unsigned long *high, const char **why)
{
	static regex_t syntax;
	static int compiled;
	regmatch_t m[4];

	if (!compiled && regcomp(&syntax, "^[ \t]*\\+?([0-9]+)[ \t]*(-[ \t]*\\+?([0-9]+)[ \t]*)?$",
	    REG_EXTENDED) != 0)
		fuzz_fail("the model's regular expression does not compile");
	compiled = 1;
	*why = "not a board count or range (N or LOW-HIGH)";
	if (regexec(&syntax, s, 4, m, 0) != 0)
		return -1;
	size_t low_len = (size_t)(m[1].rm_eo - m[1].rm_so), high_len = 0;
	const char *low_digits = s + m[1].rm_so, *high_digits = NULL;
	if (m[3].rm_so != -1) {
		high_digits = s + m[3].rm_so;
		high_len = (size_t)(m[3].rm_eo - m[3].rm_so);
	}
	*why = "boards are numbered from 1";
	if (strspn(low_digits, "0") >= low_len ||
	    (high_digits != NULL && strspn(high_digits, "0") >= high_len))
		return -1;
	*why = "not a board count or range (N or LOW-HIGH, boards 1 to 1000000000)";
	if (high_digits == NULL) {
		*low = 1;
		return model_board(low_digits, low_len, high);
	}
	if (model_board(low_digits, low_len, low) == -1 ||
	    model_board(high_digits, high_len, high) == -1)
		return -1;
	*why = "board range runs backwards";
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

static void
check_range_bigdeal(const char *text)
{
	struct board_range r;
	unsigned long low, high;
	const char *why, *want_why;
	int got = board_range_parse_bigdeal(text, &r, &why);
	int want = model_range_bigdeal(text, &low, &high, &want_why);

	if (got != want)
		fuzz_fail("board_range_parse_bigdeal(\"%.40s\") %s", text,
		    got == 0 ? "accepts what it should refuse" : "refuses a range");
	if (got == -1 && (why == NULL || strcmp(why, want_why) != 0))
		fuzz_fail("board_range_parse_bigdeal(\"%.40s\"): \"%s\", not \"%s\"", text,
		    why != NULL ? why : "(nothing)", want_why);
	if (got == 0 && (r.low != low || r.high != high))
		fuzz_fail("\"%.40s\" read as %u-%u in Big Deal's way", text, r.low, r.high);
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
	check_range_bigdeal(text);
	check_board_list(text);
	check_decimal(text);
	check_hex(text);
	check_sqd_boards(text);
	free(text);
	return 0;
}
