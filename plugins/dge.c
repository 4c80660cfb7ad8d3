/* DGE: 128 bytes a board, the DGE part padded with 60 NULs. */
#include "bri_dge.h"

static int
dge_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	(void)run;
	(void)state;
	dge_part(out, deal);
	write_fill(out, '\0', 128 - DGE_PART);
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "dge",
	.suffix = "dge",
	.description = "DGE, hands with suit symbols",
	.kind = DL_BINARY,
	.max_board = 0,
	.begin = NULL,
	.board = dge_board,
	.end = NULL,
};
