/* DGE: 128 bytes a board, the DGE part padded with 60 NULs. */
#include "bri_dge.h"

static int
dge_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	TEXTBUF(tb, out);

	(void)run;
	(void)state;
	dge_part(&tb, deal);
	textbuf_fill(&tb, '\0', 128 - DGE_PART);
	textbuf_flush(&tb);
	return 0;
}

/* Reading: 128-byte records, the DGE part then NULs (or spaces); boards
 * count from 1. */
#define DGE_RECORD 128

/* The DGE part and the NULs after it, up to the record's end. */
static int
dge_record_read(struct dl_in *in, unsigned board, const unsigned char *record,
    unsigned char owner[DL_CARDS])
{
	return dge_part_read(in, board, record, DGE_RECORD, owner);
}

static int
dge_read_board(struct dl_in *in, struct dl_board_in *board, void *state)
{
	unsigned char record[DGE_RECORD];

	return counted_records_read_board(in, board, state, record, sizeof record, dge_record_read);
}

/* A whole DGE part, then NULs, at every 128 bytes. */
static int
dge_sniff(const unsigned char *head, size_t len)
{
	if (len < 128 || (len < 4096 && len % 128 != 0))
		return 0;
	for (size_t at = 0; at + 128 <= len; at += 128)
		if (!dge_part_looks_right(head + at) ||
		    !all_bytes(head + at + DGE_PART, 128 - DGE_PART, '\0'))
			return 0;
	return 90;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "dge",
	.suffix = "dge",
	.description = "DGE, hands with suit symbols",
	.kind = DL_BINARY,
	.max_board = 0,
	.begin = NULL,
	.board = dge_board,
	.end = NULL,
	.sniff = dge_sniff,
	.read_begin = counting_begin,
	.read_board = dge_read_board,
	.read_end = counting_end,
	.needs = DL_CONCURRENT | DL_JOINABLE,
};
