/* Duplimate "new" text format, sealed (dlm_common.h). */
#include "dlm_common.h"

static int
dlm_sealed_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	return dlm_begin(out, run, state, 1);
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "dlmblind",
	.suffix = "dlm",
	.description = "Duplimate, new text format, sealed",
	.kind = DL_TEXT,
	.max_board = DLM_BOARDS,
	.begin = dlm_sealed_begin,
	.board = dlm_board,
	.end = dlm_end,
};
