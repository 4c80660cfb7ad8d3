/* Bridge Base Online LIN: one line a board.  LIN lists the hands from
 * South clockwise and leaves out East, which follows from the others. */
#include "suits.h"

static void
lin_hand(struct dl_out *out, const struct dl_deal *deal, unsigned seat)
{
	char ranks[DL_HAND_CARDS];

	for (unsigned suit = 0; suit < SUITS; suit++) {
		out->write(out, &"SHDC"[suit], 1);
		out->write(out, ranks, suit_ranks(deal, seat, suit, ranks));
	}
}

static int
lin_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	/* LIN numbers the seats 1 = S, 2 = W, 3 = N, 4 = E. */
	unsigned dealer = (dl_dealer(deal->board) + 2) % 4 + 1;

	(void)run;
	(void)state;
	out->print(out, "qx|o%u|md|%u", deal->board, dealer);
	lin_hand(out, deal, DL_SOUTH);
	out->write(out, ",", 1);
	lin_hand(out, deal, DL_WEST);
	out->write(out, ",", 1);
	lin_hand(out, deal, DL_NORTH);
	out->print(out, "|rh||ah|Board %u|sv|%c|pg||\n", deal->board,
	    "0neb"[dl_vulnerability(deal->board)]);
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "lin",
	.suffix = "lin",
	.description = "Bridge Base Online LIN",
	.kind = DL_TEXT,
	.max_board = 0,
	.begin = NULL,
	.board = lin_board,
	.end = NULL,
};
