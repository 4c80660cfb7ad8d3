/* The dl deal stream itself (.tso), so that a set written to a file can be
 * archived and read back by dl-fmt: its headers, then "BOARD DIGITS" a
 * board with the holder of each card AS..2C as 0 (North) .. 3 (West). */
#include <stdlib.h>
#include <string.h>

#include "reading.h"
#include "textbuf.h"

/* A deals+dv record's vulnerability after its dealer's letter (the
 * protocol's words, PBN's). */
static const char *const dv_words[] = { "None", "NS", "EW", "All" };

static int
has_range_header(const struct dl_run *run)
{
	for (size_t i = 0; i < run->nheaders; i++)
		if (strncmp(run->headers[i], "#B: ", 4) == 0)
			return 1;
	return 0;
}

/* A stream read back must announce its range: with #B: its boards keep
 * their numbers, where a plain file's would count from 1. */
static int
tso_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	(void)state;
	/* boards with their own dealers and vulnerabilities: deals+dv */
	out->print(out, run->own_dv ? "#P: dl/1 deals+dv\n" : "#P: dl/1 deals\n");
	/* the records hold the deals alone: not who analysed them (#A:) */
	for (size_t i = 0; i < run->nheaders; i++)
		if (strncmp(run->headers[i], "#A: ", 4) != 0)
			out->print(out, "%s\n", run->headers[i]);
	if (!has_range_header(run))
		out->print(out, "#B: %u-%u\n", run->low, run->high);
	return 0;
}

static int
tso_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	TEXTBUF(tb, out);
	char digits[DL_CARDS + 1];

	(void)state;
	for (unsigned c = 0; c < DL_CARDS; c++)
		digits[c] = (char)('0' + deal->owner[c]);
	digits[DL_CARDS] = '\n';
	textbuf_unsigned(&tb, deal->board);
	textbuf_char(&tb, ' ');
	if (!run->own_dv) {
		textbuf_add(&tb, digits, sizeof digits);
	} else {
		textbuf_add(&tb, digits, DL_CARDS);
		textbuf_char(&tb, ' ');
		textbuf_char(&tb, DL_SEAT_LETTERS[deal->dealer]);
		textbuf_char(&tb, ' ');
		textbuf_add(&tb, dv_words[deal->vulnerability],
		    strlen(dv_words[deal->vulnerability]));
		textbuf_char(&tb, '\n');
	}
	textbuf_flush(&tb);
	return 0;
}

/* Reading: header lines, then "BOARD DIGITS" or plain DIGITS records, as
 * docs/protocol.md says.  #I: is every board's event; #B: numbers the
 * plain records and must be met in full.  A header given twice is refused,
 * as every stage refuses it (lib/stream/proto.c): two #B: or #I: would leave the
 * file two ways to read. */
struct tso_reading {
	unsigned long given;	/* the headers given: bit K - 'A' */
	char *event;		/* #I:, or NULL */
	unsigned low, high;	/* #B:, or 0 */
	unsigned board;		/* the board before */
	int records;		/* a record was read: no more headers */
	int analysed;		/* #P: dl/1 deals+dd: an analysis after each deal */
	int own_dv;		/* deals+dv: each deal's dealer and vulnerability */
};

static int
tso_read_begin(struct dl_in *in, void **state)
{
	if ((*state = calloc(1, sizeof(struct tso_reading))) == NULL) {
		in->fail(in, "out of memory");
		return -1;
	}
	return 0;
}

static void
tso_read_end(struct dl_in *in, void *state)
{
	struct tso_reading *r = state;

	(void)in;
	if (r != NULL)
		free(r->event);
	free(r);
}

/* Digits at *p as a number from 1 to 10^9; *p moves past them. */
static unsigned
tso_number(const char **p)
{
	unsigned long n = 0;

	while (**p >= '0' && **p <= '9' && n <= 1000000000ul)
		n = n * 10 + (unsigned long)(*(*p)++ - '0');
	return n <= 1000000000ul ? (unsigned)n : 0;
}

static int
tso_range(struct dl_in *in, struct tso_reading *r, const char *value)
{
	r->low = tso_number(&value);
	if (*value++ != '-' || (r->high = tso_number(&value)) == 0 || *value != '\0' ||
	    r->low == 0 || r->low > r->high) {
		in->fail(in, "#B: is not a range LOW-HIGH");
		return -1;
	}
	return 0;
}

static int
tso_header(struct dl_in *in, struct tso_reading *r, const char *line, size_t len)
{
	if (len < 4 || line[1] < 'A' || line[1] > 'Z' || line[2] != ':' || line[3] != ' ') {
		in->fail(in, "not a header line (#K: value)");
		return -1;
	}
	if (r->records) {
		in->fail(in, "a header line after the first board");
		return -1;
	}
	/* #W: (a warning the stream carries) may come more than once */
	if (line[1] != 'W' && (r->given & 1ul << (line[1] - 'A'))) {
		in->fail(in, "header #%c: given twice", line[1]);
		return -1;
	}
	r->given |= 1ul << (line[1] - 'A');
	/* an analysed stream (dl-dd) holds the deals too: its analysis,
	 * which follows from them, is passed over */
	if (line[1] == 'P') {
		static const char *const kinds[] = { "dl/1 deals", "dl/1 deals+dd",
		    "dl/1 deals+dv", "dl/1 deals+dv+dd" };
		unsigned k = 0;
		while (k < 4 && strcmp(line + 4, kinds[k]) != 0)
			k++;
		if (k == 4) {
			in->fail(in, "#P: %s: not a deals stream (#P: dl/1 deals)", line + 4);
			return -1;
		}
		r->analysed = k % 2;
		r->own_dv = k / 2;
	}
	if (line[1] == 'B')
		return tso_range(in, r, line + 4);
	if (line[1] == 'I') {
		free(r->event);
		if ((r->event = strdup(line + 4)) == NULL) {
			in->fail(in, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* The board's number: the record's, or the one after the board before. */
static int
tso_board_number(struct dl_in *in, struct tso_reading *r, const char **p, unsigned *board)
{
	const char *space = strchr(*p, ' ');

	*board = r->board != 0 ? r->board + 1 : r->low;
	if (space == NULL)
		return 0;
	if ((*board = tso_number(p)) == 0 || *p != space) {
		in->fail(in, "after board %u: not a board number", r->board);
		return -1;
	}
	(*p)++;
	return 0;
}

/* "D V" at the start of the len bytes at p, then the end or a space (the
 * analysis of a deals+dv+dd record, passed over). */
static int
tso_dv(struct dl_in *in, unsigned board, const char *p, size_t len, struct dl_board_in *b)
{
	static const char seats[] = DL_SEAT_LETTERS;
	/* the seat's index is its place in this one string: two equal
	 * literals need not be one object */
	const char *seat = len >= 2 && p[0] != '\0' ? strchr(seats, p[0]) : NULL;

	if (seat != NULL && p[1] == ' ')
		for (int v = 0; v < 4; v++) {
			size_t n = strlen(dv_words[v]);
			if (len >= 2 + n && memcmp(p + 2, dv_words[v], n) == 0 &&
			    (len == 2 + n || p[2 + n] == ' ')) {
				b->dealer = (int)(seat - seats);
				b->vulnerability = v;
				return 0;
			}
		}
	in->fail(in, "board %u: not a dealer and vulnerability (N, E, S or W, then None, "
	    "NS, EW or All)", board);
	return -1;
}

static int
tso_record(struct dl_in *in, struct tso_reading *r, const char *line, size_t len,
    struct dl_board_in *b)
{
	const char *p = line;
	unsigned board;

	r->records = 1;
	if (tso_board_number(in, r, &p, &board) == -1)
		return -1;
	r->board = board != 0 ? board : r->board + 1;
	if (r->high != 0 && (r->board < r->low || r->board > r->high)) {
		in->fail(in, "board %u: outside #B: %u-%u", r->board, r->low, r->high);
		return -1;
	}
	if (r->analysed || r->own_dv) {
		const char *space = memchr(p, ' ', len - (size_t)(p - line));
		if (space == NULL) {
			in->fail(in, r->own_dv ? "board %u: a deals+dv record without its "
			    "dealer and vulnerability" : "board %u: a deals+dd record without "
			    "its analysis", r->board);
			return -1;
		}
		if (r->own_dv && tso_dv(in, r->board, space + 1,
		    len - (size_t)(space + 1 - line), b) == -1)
			return -1;
		len = (size_t)(space - line);
	}
	if (len - (size_t)(p - line) != DL_CARDS) {
		in->fail(in, "board %u: %zu digits, not 52", r->board, len - (size_t)(p - line));
		return -1;
	}
	for (unsigned c = 0; c < DL_CARDS; c++) {
		if (p[c] < '0' || p[c] > '3') {
			in->fail(in, "board %u: '%c' is not a seat 0-3", r->board, p[c]);
			return -1;
		}
		b->owner[c] = (unsigned char)(p[c] - '0');
	}
	b->board = board;
	b->event = r->event;
	return deal_finish(in, r->board, b->owner);
}

/* At the end, #B: must have been met in full. */
static int
tso_end_of_file(struct dl_in *in, const struct tso_reading *r)
{
	if (r->high == 0 || r->board >= r->high)
		return 0;
	in->fail(in, "boards %u-%u missing: #B: %u-%u", r->board != 0 ? r->board + 1 : r->low,
	    r->high, r->low, r->high);
	return -1;
}

static int
tso_read_board(struct dl_in *in, struct dl_board_in *board, void *state)
{
	struct tso_reading *r = state;
	const char *line;
	size_t len;
	int got;

	while ((line = in->line(in, &len)) != NULL) {
		if (len == 0) {
			in->fail(in, "an empty line");
			return -1;
		}
		if (line[0] == '#') {
			if (tso_header(in, r, line, len) == -1)
				return -1;
		} else if ((got = tso_record(in, r, line, len, board)) != 0) {
			return got;
		}
	}
	return tso_end_of_file(in, r);
}

/* "#P: dl/1 deals" (or deals+dd, deals+dv, deals+dv+dd), or a first line of 52 digits 0-3,
 * board number or not. */
static int
tso_sniff(const unsigned char *head, size_t len)
{
	static const char protocol[] = "#P: dl/1 deals";
	size_t pos = 0, linelen, i = 0;
	const unsigned char *line = head_line(head, len, &pos, &linelen);

	if (line == NULL)
		return 0;
	if (linelen >= sizeof protocol - 1 && memcmp(line, protocol, sizeof protocol - 1) == 0) {
		const unsigned char *kind = line + sizeof protocol - 1;
		size_t rest = linelen - (sizeof protocol - 1);
		if (rest == 0 || (rest == 3 && memcmp(kind, "+dd", 3) == 0) ||
		    (rest == 3 && memcmp(kind, "+dv", 3) == 0) ||
		    (rest == 6 && memcmp(kind, "+dv+dd", 6) == 0))
			return 100;
	}
	while (i < linelen && line[i] >= '0' && line[i] <= '9')
		i++;
	if (i > 0 && i < linelen && line[i] == ' ')
		i++;
	else
		i = 0;
	unsigned char seats[DL_CARDS];
	if (linelen - i != DL_CARDS)
		return 0;
	for (unsigned c = 0; c < DL_CARDS; c++)
		seats[c] = (unsigned char)(line[i + c] - '0');
	return thirteen_each(seats) ? 90 : 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "tso",
	.suffix = "tso",
	.description = "dl deal stream with its headers, re-readable",
	.kind = DL_TEXT,
	.max_board = 0,
	.begin = tso_begin,
	.board = tso_board,
	.end = NULL,
	.sniff = tso_sniff,
	.read_begin = tso_read_begin,
	.read_board = tso_read_board,
	.read_end = tso_read_end,
	.needs = DL_CONCURRENT | DL_KEEPS_DEALER,
};
