/* BRI: 128 bytes a board, the BRI part padded with 32 spaces and 18 NULs. */
#include "bri_dge.h"

static int
bri_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	(void)run;
	(void)state;
	bri_part(out, deal);
	write_fill(out, ' ', 32);
	write_fill(out, '\0', 18);
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "bri",
	.suffix = "bri",
	.description = "BRI, card numbers of N, E and S",
	.kind = DL_BINARY,
	.max_board = 0,
	.begin = NULL,
	.board = bri_board,
	.end = NULL,
};
