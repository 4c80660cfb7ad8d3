/* CDS: 14 bytes a board, the board number as one byte, then the 13 bytes
 * of rank_bytes.h with the seats numbered from West (W = 0, N = 1). */
#include "rank_bytes.h"

static int
cds_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	/* one byte: max_board keeps larger board numbers out */
	unsigned char bytes[1 + DL_HAND_CARDS] = { (unsigned char)deal->board };

	(void)run;
	(void)state;
	rank_bytes(deal, 1, bytes + 1);
	out->write(out, bytes, sizeof bytes);
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "cds",
	.suffix = "cds",
	.description = "CDS",
	.kind = DL_BINARY,
	.max_board = 255,	/* the board number is one byte */
	.begin = NULL,
	.board = cds_board,
	.end = NULL,
};
