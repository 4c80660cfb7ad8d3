/* Duplimate .dup, except that board 1 (if in the run) has spaces in place
 * of its DGE part, as Big Deal's dupblind writes it (dup_common.h). */
#include "dup_common.h"

static int
dupblind_write(struct dl_out *out, const struct dl_run *run,
    const struct dl_deal *deal, void *state)
{
	(void)state;
	dup_board(out, run, deal, deal->board == 1);
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "dupblind",
	.suffix = "dup",
	.description = "Duplimate, board 1 blind",
	.kind = DL_BINARY,
	.max_board = DUP_MAX_BOARD,
	.begin = NULL,
	.board = dupblind_write,
	.end = NULL,
};
