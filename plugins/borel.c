/* Borel (.bhg): an empty first line, then a line of 52 letters a board,
 * the hands from the dealer clockwise, card 1..52 (AS..2C) as A..Z a..z. */
#include "dl/plugin.h"

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
};
