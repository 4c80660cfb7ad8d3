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

static int
dupblind_read_begin(struct dl_in *in, void **state)
{
	return dup_reading_begin(in, state, 1);
}

/* A first board without its DGE part, which only dupblind writes; a board
 * with one may be dupblind's too, if its run does not start at board 1. */
static int
dupblind_sniff(const unsigned char *head, size_t len)
{
	static const int score[4] = { 0, 0, 95, 40 };

	return score[dup_first_record(head, len)];
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
	.sniff = dupblind_sniff,
	.read_begin = dupblind_read_begin,
	.read_board = dup_read_board,
	.read_end = dup_read_end,
	.needs = DL_CONCURRENT,
};
