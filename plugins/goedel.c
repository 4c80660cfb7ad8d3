/* Goedel (.goe): each board's Big Deal deal number in decimal, a line of
 * 29 digit positions grouped by three, leading zeros as blanks. */
#include <stdint.h>
#include <string.h>

#include "reading.h"

#define GOEDEL_DIGITS 29	/* enough for any 96-bit deal number */

/* A line: 29 digit positions grouped by three with commas, then '\n'. */
#define GOEDEL_LINE (GOEDEL_DIGITS + (GOEDEL_DIGITS - 1) / 3 + 1)

/* The nine digits of part below 10^9 at text, each after the comma
 * that precedes it in the line when text points at a group's start:
 * "ddd,ddd,ddd". */
static void
nine_digits(char *text, uint32_t part)
{
	for (int group = 2; group >= 0; group--, part /= 1000) {
		unsigned three = part % 1000;
		char *g = text + 4 * group;
		g[0] = (char)('0' + three / 100);
		g[1] = (char)('0' + three / 10 % 10);
		g[2] = (char)('0' + three % 10);
	}
}

/* The line of a deal number, leading zeros as blanks: the number split
 * by one 128-bit division into the top 11 digits and the low 18, each
 * then by 64-bit divisions (by constants: gcc multiplies). */
static void
goedel_line(const unsigned char bytes[DL_DEAL_NUMBER_BYTES], char line[GOEDEL_LINE])
{
	unsigned __int128 number = 0;
	uint64_t high, low;
	size_t blank = 0;

	for (unsigned i = 0; i < DL_DEAL_NUMBER_BYTES; i++)
		number = number << 8 | bytes[i];
	high = (uint64_t)(number / 1000000000000000000u);	/* below 10^11 */
	low = (uint64_t)(number % 1000000000000000000u);
	/* "dd,ddd,ddd,ddd,ddd,ddd,ddd,ddd,ddd,ddd": 2 + 3 groups of high, then 6 of low */
	line[0] = (char)('0' + high / 1000000000 / 10 % 10);
	line[1] = (char)('0' + high / 1000000000 % 10);
	nine_digits(line + 3, (uint32_t)(high % 1000000000));
	nine_digits(line + 15, (uint32_t)(low / 1000000000));
	nine_digits(line + 27, (uint32_t)(low % 1000000000));
	for (size_t at = 2; at < GOEDEL_LINE - 2; at += 4)
		line[at] = ',';
	line[GOEDEL_LINE - 1] = '\n';
	/* the units digit shows even when the number is 0 */
	while (blank < GOEDEL_LINE - 2 && (line[blank] == '0' || line[blank] == ','))
		blank++;
	memset(line, ' ', blank);
}

static int
goedel_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	char line[GOEDEL_LINE];

	(void)run;
	(void)state;
	goedel_line(deal->number, line);
	out->write(out, line, sizeof line);
	return 0;
}

/* Reading: a line a board (empty lines passed over), the deal number in
 * decimal: either as Big Deal writes it (38 bytes, digits grouped by three
 * with commas, right-aligned in blanks: a line cut short shows), or as
 * plain digits.  Boards count from 1.  The number becomes a deal as in
 * bigdeal-compat.md section 4: mixed radix, then three 13-card subsets
 * unranked. */
typedef unsigned __int128 goedel_number;

#define GOEDEL_MAX_DIGITS 30	/* D has 29 digits: one more is too many */

/* C(n, k) for n <= 52, k <= 13. */
struct binomials {
	uint64_t c[DL_CARDS + 1][DL_HAND_CARDS + 1];
};

static void
binomials_fill(struct binomials *b)
{
	for (unsigned n = 0; n <= DL_CARDS; n++) {
		b->c[n][0] = 1;
		for (unsigned k = 1; k <= DL_HAND_CARDS; k++)
			b->c[n][k] = n == 0 ? 0 : b->c[n - 1][k - 1] + b->c[n - 1][k];
	}
}

/* Gives seat the 13 cards of rank r among the n cards not dealt yet. */
static void
unrank_hand(const struct binomials *b, uint64_t r, unsigned n, unsigned seat,
    unsigned char owner[DL_CARDS])
{
	unsigned t = DL_HAND_CARDS, q = 0;

	for (unsigned card = 0; card < DL_CARDS; card++) {
		if (owner[card] != NO_SEAT)
			continue;
		uint64_t below = t > 0 ? b->c[n - q - 1][t - 1] : 0;
		if (t > 0 && r < below) {
			owner[card] = (unsigned char)seat;
			t--;
		} else {
			r -= below;
		}
		q++;
	}
}

/* The deal of number g (below D). */
static void
goedel_deal(goedel_number g, unsigned char owner[DL_CARDS])
{
	struct binomials b;

	binomials_fill(&b);
	uint64_t south = (uint64_t)(g % b.c[26][13]);
	g /= b.c[26][13];
	uint64_t east = (uint64_t)(g % b.c[39][13]);
	uint64_t north = (uint64_t)(g / b.c[39][13]);
	deal_clear(owner);
	unrank_hand(&b, north, 52, DL_NORTH, owner);
	unrank_hand(&b, east, 39, DL_EAST, owner);
	unrank_hand(&b, south, 26, DL_SOUTH, owner);
	for (unsigned card = 0; card < DL_CARDS; card++)
		if (owner[card] == NO_SEAT)
			owner[card] = DL_WEST;
}

/* D = C(52,13) C(39,13) C(26,13), the number of deals. */
static goedel_number
goedel_deals(void)
{
	struct binomials b;

	binomials_fill(&b);
	return (goedel_number)b.c[52][13] * b.c[39][13] * b.c[26][13];
}

/* A line as Big Deal writes it: 38 bytes, the digits grouped by three
 * from the right with commas, blanks before the first digit. */
static int
goedel_line_looks_right(const unsigned char *line, size_t len)
{
	size_t i = 0;

	if (len != GOEDEL_DIGITS + GOEDEL_DIGITS / 3)
		return 0;
	while (i < len && line[i] == ' ')
		i++;
	if (i == len)
		return 0;
	for (; i < len; i++) {
		int separator = (len - i) % 4 == 0;
		if (separator ? line[i] != ',' : line[i] < '0' || line[i] > '9')
			return 0;
	}
	return 1;
}

/* The number of a line: 0, or -1 after in->fail. */
static int
goedel_parse(struct dl_in *in, unsigned board, const char *line, goedel_number *g)
{
	unsigned digits = 0;

	*g = 0;
	if (strchr(line, ',') != NULL &&
	    !goedel_line_looks_right((const unsigned char *)line, strlen(line))) {
		in->fail(in, "board %u: not a deal number as Big Deal writes it "
		    "(38 bytes, digits grouped by three)", board);
		return -1;
	}
	for (const char *p = line; *p != '\0'; p++) {
		if (*p == ',' || (*p == ' ' && digits == 0))
			continue;
		if (*p < '0' || *p > '9') {
			in->fail(in, "board %u: '%c' in a deal number", board, *p);
			return -1;
		}
		if (++digits > GOEDEL_MAX_DIGITS)
			break;
		*g = *g * 10 + (unsigned)(*p - '0');
	}
	if (digits == 0 || digits > GOEDEL_MAX_DIGITS || *g >= goedel_deals()) {
		in->fail(in, "board %u: %s", board, digits == 0 ? "no deal number" :
		    "a deal number past the last deal (53,644,737,765,488,792,839,237,439,999)");
		return -1;
	}
	return 0;
}

static int
goedel_read_board(struct dl_in *in, struct dl_board_in *board, void *state)
{
	struct counting *r = state;
	goedel_number g;
	const char *line;
	size_t len;

	while ((line = in->line(in, &len)) != NULL) {
		if (len == 0)
			continue;
		if (goedel_parse(in, ++r->board, line, &g) == -1)
			return -1;
		goedel_deal(g, board->owner);
		return 1;
	}
	return 0;
}

static int
goedel_sniff(const unsigned char *head, size_t len)
{
	size_t pos = 0, linelen;
	const unsigned char *line;
	int lines = 0;

	while ((line = head_line(head, len, &pos, &linelen)) != NULL) {
		if (!goedel_line_looks_right(line, linelen))
			return 0;
		lines++;
	}
	return lines > 0 ? 90 : 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "goedel",
	.suffix = "goe",
	.description = "Big Deal's deal numbers in decimal",
	.kind = DL_TEXT,
	.max_board = 0,
	.begin = NULL,
	.board = goedel_board,
	.end = NULL,
	.sniff = goedel_sniff,
	.read_begin = counting_begin,
	.read_board = goedel_read_board,
	.read_end = counting_end,
	.needs = DL_NEEDS_DEAL_NUMBER | DL_CONCURRENT,
};
