/* Duplimate "new" text format with the hands shown (dlm_common.h). */
#include "dlm_common.h"

static int
dlm_show_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	return dlm_begin(out, run, state, 0);
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "dlm",
	.suffix = "dlm",
	.description = "Duplimate, new text format",
	.kind = DL_TEXT,
	.max_board = DLM_BOARDS,
	.begin = dlm_show_begin,
	.board = dlm_board,
	.end = dlm_end,
};
