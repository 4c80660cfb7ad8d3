/* Duplimate "new" text format, sealed (dlm_common.h). */
#include "dlm_common.h"

static int
dlm_sealed_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	return dlm_begin(out, run, state, 1);
}

static int
dlmblind_read_begin(struct dl_in *in, void **state)
{
	return dlm_reading_begin(in, state, 1);
}

/* By the Status line: Sealed is dlmblind's. */
static int
dlmblind_sniff(const unsigned char *head, size_t len)
{
	static const int score[4] = { 0, 90, 20, 40 };

	return score[dlm_sniff_status(head, len)];
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
	.sniff = dlmblind_sniff,
	.read_begin = dlmblind_read_begin,
	.read_board = dlm_read_board,
	.read_end = dlm_read_end,
	.needs = DL_CONCURRENT,
};
