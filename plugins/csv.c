/* Comma-separated values: one line a board, a quoted field for each suit
 * of N, E, S, W, then the board number and "dealer/vulnerability". */
#include <stdlib.h>
#include <string.h>

#include "reading.h"
#include "suits.h"
#include "textbuf.h"

static int
csv_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	static const char *const vulnerability[] = { "-", "NS", "EW", "All" };
	const char *vul = vulnerability[deal->vulnerability];
	TEXTBUF(tb, out);

	(void)run;
	(void)state;
	/* "AK2","QJ","","T98765432", a hand's suits */
	for (unsigned seat = DL_NORTH; seat <= DL_WEST; seat++) {
		textbuf_char(&tb, '"');
		textbuf_wrote(&tb, hand_text(textbuf_room(&tb, HAND_TEXT_MAX(3)), deal->hand[seat],
		    "   \",\"\",\"\",\"", 3, 1));
		TEXTBUF_ADD(&tb, "\",");
	}
	textbuf_char(&tb, '"');
	textbuf_unsigned(&tb, deal->board);
	TEXTBUF_ADD(&tb, "\",\"");
	textbuf_char(&tb, DL_SEAT_LETTERS[deal->dealer]);
	textbuf_char(&tb, '/');
	textbuf_add(&tb, vul, strlen(vul));
	TEXTBUF_ADD(&tb, "\"\n");
	textbuf_flush(&tb);
	return 0;
}

/* Reading: a line a board (empty lines passed over), 16 fields of ranks
 * (N's spades .. W's clubs), then optionally the board number and
 * "D/V".  A field may be in double quotes, without a quote inside. */
#define CSV_FIELDS 18

struct csv_field {
	const char *text;
	size_t len;
};

/* Splits line into at most CSV_FIELDS fields: how many, or -1 after
 * in->fail. */
static int
csv_split(struct dl_in *in, unsigned board, const char *line, struct csv_field *f)
{
	int n = 0;

	for (const char *p = line;; p++) {
		if (n == CSV_FIELDS) {
			in->fail(in, "board %u: more than %d fields", board, CSV_FIELDS);
			return -1;
		}
		const char *end = *p == '"' ? strchr(p + 1, '"') : p + strcspn(p, ",");
		if (end == NULL) {
			in->fail(in, "board %u: field %d: no closing quote", board, n + 1);
			return -1;
		}
		int quoted = *p == '"';
		f[n].text = p + quoted;
		f[n].len = (size_t)(end - p) - (size_t)quoted;
		n++;
		p = end + quoted;
		if (*p == '\0')
			return n;
		if (*p != ',') {
			in->fail(in, "board %u: field %d: no comma after its closing quote", board, n);
			return -1;
		}
	}
}

/* "D/V": the dealer's letter, then -, None, NS, EW, All or Both. */
static int
csv_dealer_vulnerability(struct dl_in *in, unsigned board, const struct csv_field *f,
    struct dl_board_in *b)
{
	static const char *const names[] = { "-", "NS", "EW", "All", "None", "Both" };
	static const int values[] = { DL_VUL_NONE, DL_VUL_NS, DL_VUL_EW, DL_VUL_ALL,
		DL_VUL_NONE, DL_VUL_ALL };
	static const char seats[] = DL_SEAT_LETTERS;
	/* the seat's index is its place in this one string: two equal
	 * literals need not be one object */
	const char *seat = f->len > 2 && f->text[1] == '/' && f->text[0] != '\0' ?
	    strchr(seats, f->text[0]) : NULL;

	for (size_t i = 0; seat != NULL && i < sizeof names / sizeof *names; i++)
		if (f->len - 2 == strlen(names[i]) && memcmp(f->text + 2, names[i], f->len - 2) == 0) {
			b->dealer = (int)(seat - seats);
			b->vulnerability = values[i];
			return 0;
		}
	in->fail(in, "board %u: \"%.*s\" is not dealer/vulnerability (N/-, E/NS, ...)", board,
	    (int)f->len, f->text);
	return -1;
}

/* The board number field: 1 and more. */
static int
csv_board_number(struct dl_in *in, unsigned after, const struct csv_field *f, unsigned *board)
{
	unsigned long n = 0;
	size_t i;

	for (i = 0; i < f->len && f->text[i] >= '0' && f->text[i] <= '9' && n < 1000000000ul; i++)
		n = n * 10 + (unsigned long)(f->text[i] - '0');
	if (f->len == 0 || i < f->len || n == 0 || n > 1000000000ul) {
		in->fail(in, "the board after board %u: \"%.*s\" is not a board number", after,
		    (int)f->len, f->text);
		return -1;
	}
	*board = (unsigned)n;
	return 0;
}

static int
csv_decode(struct dl_in *in, struct counting *r, const char *line, struct dl_board_in *b)
{
	struct csv_field f[CSV_FIELDS];
	int n = csv_split(in, r->board + 1, line, f);
	unsigned number = r->board + 1;

	if (n == -1)
		return -1;
	if (n != 16 && n != CSV_FIELDS) {
		in->fail(in, "board %u: %d fields, not 16 or 18", number, n);
		return -1;
	}
	if (n == CSV_FIELDS && (csv_board_number(in, r->board, &f[16], &number) == -1 ||
	    csv_dealer_vulnerability(in, number, &f[17], b) == -1))
		return -1;
	b->board = n == CSV_FIELDS ? number : 0;
	r->board = number;
	deal_clear(b->owner);
	for (unsigned i = 0; i < 16; i++)
		if (deal_ranks(in, number, b->owner, i / SUITS, i % SUITS, f[i].text, f[i].len) == -1)
			return -1;
	return deal_finish(in, number, b->owner);
}

static int
csv_read_board(struct dl_in *in, struct dl_board_in *board, void *state)
{
	const char *line;
	size_t len;
	int got;

	while ((line = in->line(in, &len)) != NULL) {
		if (len == 0)
			continue;
		if ((got = csv_decode(in, state, line, board)) != 0)
			return got;
		board->dealer = board->vulnerability = -1;
	}
	return 0;
}

/* The first line: 18 quoted fields, 16 of ranks, a number, "D/V". */
static int
csv_sniff(const unsigned char *head, size_t len)
{
	size_t pos = 0, linelen, fields = 0, i = 0;
	const unsigned char *line = head_line(head, len, &pos, &linelen);

	while (line != NULL && i < linelen && line[i] == '"') {
		const unsigned char *end = memchr(line + i + 1, '"', linelen - i - 1);
		if (end == NULL)
			return 0;
		for (const unsigned char *p = line + i + 1; fields < 16 && p < end; p++)
			if (rank_of(*p) < 0)
				return 0;
		fields++;
		i = (size_t)(end - line) + 1;
		if (i < linelen && line[i++] != ',')
			return 0;
	}
	return fields == CSV_FIELDS && i == linelen ? 80 : 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "csv",
	.suffix = "csv",
	.description = "comma-separated suits, a line a board",
	.kind = DL_TEXT,
	.max_board = 0,
	.begin = NULL,
	.board = csv_board,
	.end = NULL,
	.sniff = csv_sniff,
	.read_begin = counting_begin,
	.read_board = csv_read_board,
	.read_end = counting_end,
	.needs = DL_CONCURRENT | DL_KEEPS_DEALER,
};
