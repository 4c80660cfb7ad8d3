/* Borel (.bhg): an empty first line, then a line of 52 letters a board,
 * the hands from the dealer clockwise, card 1..52 (AS..2C) as A..Z a..z. */
#include "reading.h"

static int
borel_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	(void)run;
	(void)state;
	out->write(out, "\n", 1);
	return 0;
}

static int
borel_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	char line[DL_CARDS + 1];
	size_t n = 0;
	unsigned dealer = dl_dealer(deal->board);

	(void)run;
	(void)state;
	for (unsigned i = 0; i < 4; i++) {
		const unsigned char *hand = deal->hand[(dealer + i) % 4];
		for (unsigned k = 0; k < DL_HAND_CARDS; k++)
			line[n++] = hand[k] < 26 ? (char)('A' + hand[k]) :
			    (char)('a' + hand[k] - 26);
	}
	line[n++] = '\n';
	out->write(out, line, n);
	return 0;
}

/* Reading: empty lines are passed over; each other line is a board of 52
 * letters, boards counting from 1, whose numbers give the dealer and so
 * which hand comes first. */
static int
borel_card(int letter)
{
	if (letter >= 'A' && letter <= 'Z')
		return letter - 'A';
	if (letter >= 'a' && letter <= 'z')
		return letter - 'a' + 26;
	return -1;
}

static int
borel_decode(struct dl_in *in, unsigned board, const char *line, size_t len,
    unsigned char owner[DL_CARDS])
{
	unsigned dealer = dl_dealer(board);

	if (len != DL_CARDS) {
		in->fail(in, "board %u: %zu bytes, not 52 letters", board, len);
		return -1;
	}
	deal_clear(owner);
	for (unsigned i = 0; i < DL_CARDS; i++) {
		int card = borel_card((unsigned char)line[i]);
		if (card < 0) {
			in->fail(in, "board %u: byte %u is not a card letter", board, i + 1);
			return -1;
		}
		if (deal_card(in, board, owner, (unsigned)card, (dealer + i / 13) % 4) == -1)
			return -1;
	}
	return 0;
}

static int
borel_read_board(struct dl_in *in, struct dl_board_in *board, void *state)
{
	struct counting *r = state;
	const char *line;
	size_t len;

	while ((line = in->line(in, &len)) != NULL)
		if (len > 0)
			return borel_decode(in, ++r->board, line, len, board->owner) == -1 ? -1 : 1;
	return 0;
}

/* An empty first line, then lines of 52 letters, each letter once. */
static int
borel_sniff(const unsigned char *head, size_t len)
{
	size_t pos = 0, linelen;
	const unsigned char *line = head_line(head, len, &pos, &linelen);

	if (line == NULL || linelen != 0 || (line = head_line(head, len, &pos, &linelen)) == NULL ||
	    linelen != DL_CARDS)
		return 0;
	unsigned char seen[DL_CARDS] = { 0 };
	for (unsigned i = 0; i < DL_CARDS; i++) {
		int card = borel_card(line[i]);
		if (card < 0 || seen[card]++)
			return 0;
	}
	return 90;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "borel",
	.suffix = "bhg",
	.description = "Borel",
	.kind = DL_TEXT,
	.max_board = 0,
	.begin = borel_begin,
	.board = borel_board,
	.end = NULL,
	.sniff = borel_sniff,
	.read_begin = counting_begin,
	.read_board = borel_read_board,
	.read_end = counting_end,
	.needs = DL_CONCURRENT,
};
