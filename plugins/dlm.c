/* Duplimate "new" text format with the hands shown (dlm_common.h). */
#include "dlm_common.h"

static int
dlm_show_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	return dlm_begin(out, run, state, 0);
}

static int
dlm_read_begin(struct dl_in *in, void **state)
{
	return dlm_reading_begin(in, state, 0);
}

/* By the Status line: Show is dlm's. */
static int
dlm_sniff(const unsigned char *head, size_t len)
{
	static const int score[4] = { 0, 20, 90, 50 };

	return score[dlm_sniff_status(head, len)];
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
	.sniff = dlm_sniff,
	.read_begin = dlm_read_begin,
	.read_board = dlm_read_board,
	.read_end = dlm_read_end,
	.needs = DL_CONCURRENT,
};
