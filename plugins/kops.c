/* KOPS (.rzd): the number of boards as two bytes, least significant first,
 * 11 spaces, then 13 bytes a board (rank_bytes.h). */
#include "rank_bytes.h"

static int
kops_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	/* two bytes: max_board keeps larger counts out */
	unsigned char count[2] = { run->nboards & 0xff, (run->nboards >> 8) & 0xff };

	(void)state;
	out->write(out, count, sizeof count);
	out->write(out, "           ", 11);
	return 0;
}

static int
kops_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	unsigned char bytes[DL_HAND_CARDS];

	(void)run;
	(void)state;
	rank_bytes(deal, 0, bytes);
	out->write(out, bytes, sizeof bytes);
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "kops",
	.suffix = "rzd",
	.description = "KOPS",
	.kind = DL_BINARY,
	.max_board = 65535,	/* the board count is two bytes */
	.begin = kops_begin,
	.board = kops_board,
	.end = NULL,
};
