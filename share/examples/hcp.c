/*
 * hcp: an example dl format writer, built out of the dl tree:
 *
 *	cc -shared -fPIC $(pkg-config --cflags dl-plugin) hcp.c -o hcp.so
 *	DL_PLUGIN_PATH=$PWD dl-fmt -f hcp < session.tso
 *
 * One line per board: the board number and each hand's high-card points
 * (ace 4, king 3, queen 2, jack 1), with the event as a first line.
 */
#include <dl/plugin.h>

static int
hcp_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	(void)state;
	out->print(out, "# %s, boards %u-%u\n",
	    run->event != NULL ? run->event : "no event", run->low, run->high);
	return 0;
}

static unsigned
hand_points(const unsigned char cards[DL_HAND_CARDS])
{
	unsigned points = 0;

	for (unsigned i = 0; i < DL_HAND_CARDS; i++) {
		unsigned rank = cards[i] % 13;	/* 0 is the ace */
		if (rank < 4)
			points += 4 - rank;
	}
	return points;
}

static int
hcp_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	(void)run;
	(void)state;
	out->print(out, "%u", deal->board);
	for (unsigned seat = DL_NORTH; seat <= DL_WEST; seat++)
		out->print(out, " %c:%u", "NESW"[seat], hand_points(deal->hand[seat]));
	out->print(out, "\n");
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "hcp",
	.suffix = "hcp",
	.description = "high-card points of each hand (example plugin)",
	.kind = DL_TEXT,
	.max_board = 0,
	.begin = hcp_begin,
	.board = hcp_board,
	.end = NULL,
};
