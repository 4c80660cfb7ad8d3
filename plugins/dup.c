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

static int
dup_read_begin(struct dl_in *in, void **state)
{
	return dup_reading_begin(in, state, 0);
}

/* A first board with its DGE part; dupblind's board 1 has none. */
static int
dup_sniff(const unsigned char *head, size_t len)
{
	static const int score[4] = { 0, 0, 30, 90 };

	return score[dup_first_record(head, len)];
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
	.sniff = dup_sniff,
	.read_begin = dup_read_begin,
	.read_board = dup_read_board,
	.read_end = dup_read_end,
	.needs = DL_CONCURRENT,
};
