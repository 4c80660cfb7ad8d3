/* Comma-separated values: one line a board, a quoted field for each suit
 * of N, E, S, W, then the board number and "dealer/vulnerability". */
#include "suits.h"

static int
csv_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	static const char *const vulnerability[] = { "-", "NS", "EW", "All" };
	char ranks[DL_HAND_CARDS];

	(void)run;
	(void)state;
	for (unsigned seat = DL_NORTH; seat <= DL_WEST; seat++)
		for (unsigned suit = 0; suit < SUITS; suit++)
			out->print(out, "\"%.*s\",",
			    (int)suit_ranks(deal, seat, suit, ranks), ranks);
	out->print(out, "\"%u\",\"%c/%s\"\n", deal->board,
	    "NESW"[dl_dealer(deal->board)], vulnerability[dl_vulnerability(deal->board)]);
	return 0;
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
};
