/* Duplimate .dup (dup_common.h). */
#include "dup_common.h"

static int
dup_write(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	(void)state;
	dup_board(out, run, deal, 0);
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "dup",
	.suffix = "dup",
	.description = "Duplimate",
	.kind = DL_BINARY,
	.max_board = DUP_MAX_BOARD,
	.begin = NULL,
	.board = dup_write,
	.end = NULL,
};
