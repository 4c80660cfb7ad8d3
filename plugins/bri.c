/* BRI: 128 bytes a board, the BRI part padded with 32 spaces and 18 NULs. */
#include "bri_dge.h"

static int
bri_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	TEXTBUF(tb, out);

	(void)run;
	(void)state;
	bri_part(&tb, deal);
	textbuf_fill(&tb, ' ', 32);
	textbuf_fill(&tb, '\0', 18);
	textbuf_flush(&tb);
	return 0;
}

/* Reading: 128-byte records, the BRI part and 50 bytes of padding, which
 * are not looked at; boards count from 1. */
static int
bri_read_board(struct dl_in *in, struct dl_board_in *board, void *state)
{
	unsigned char record[128];

	return counted_records_read_board(in, board, state, record, sizeof record, bri_part_read);
}

/* A BRI part at every 128 bytes; surer with Big Deal's padding. */
static int
bri_sniff(const unsigned char *head, size_t len)
{
	int padded = 1;

	if (len < 128 || (len < 4096 && len % 128 != 0))
		return 0;
	for (size_t at = 0; at + 128 <= len; at += 128) {
		if (!bri_part_looks_right(head + at))
			return 0;
		padded &= all_bytes(head + at + BRI_PART, 32, ' ') &&
		    all_bytes(head + at + BRI_PART + 32, 18, '\0');
	}
	return padded ? 90 : 60;
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
	.sniff = bri_sniff,
	.read_begin = counting_begin,
	.read_board = bri_read_board,
	.read_end = counting_end,
	.needs = DL_CONCURRENT | DL_JOINABLE,
};
