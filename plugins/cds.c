/* CDS: 14 bytes a board, the board number as one byte, then the 13 bytes
 * of rank_bytes.h with the seats numbered from West (W = 0, N = 1). */
#include "rank_bytes.h"

static int
cds_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	/* one byte: max_board keeps larger board numbers out */
	unsigned char bytes[1 + DL_HAND_CARDS] = { (unsigned char)deal->board };

	(void)run;
	(void)state;
	rank_bytes(deal, 1, bytes + 1);
	out->write(out, bytes, sizeof bytes);
	return 0;
}

/* Reading: 14 bytes a board.  The board number byte wraps past 255 (as
 * Big Deal writes it): a byte one more, modulo 256, than the board before
 * continues its numbers.  The first record's byte is the host's first
 * board (counting_begin puts the board before it in the state) when it
 * is that board modulo 256: a file of boards 256-300 begins with byte 0. */
#define CDS_RECORD (1 + DL_HAND_CARDS)

static unsigned
cds_board_number(unsigned before, unsigned char byte)
{
	if (before != 0 && byte == ((before + 1) & 0xff))
		return before + 1;
	return byte;
}

static int
cds_read_board(struct dl_in *in, struct dl_board_in *board, void *state)
{
	struct counting *r = state;	/* the board before (first - 1 at first) */
	unsigned char record[CDS_RECORD];
	int got;

	for (;;) {
		if ((got = read_record(in, r->board + 1, record, sizeof record)) != 1)
			return got;
		r->board = cds_board_number(r->board, record[0]);
		if (r->board == 0) {
			in->fail(in, "board 0: board numbers start at 1");
			return -1;
		}
		board->board = r->board;
		rank_bytes_read(record + 1, 1, board->owner);
		if ((got = deal_finish(in, r->board, board->owner)) != 0)
			return got;
	}
}

/* Records whose boards give every seat 13 cards, numbered one after the
 * other.  Any 13 such bytes also make a KOPS board: a KOPS file is told
 * by its header. */
static int
cds_sniff(const unsigned char *head, size_t len)
{
	if (len < CDS_RECORD || (len < 4096 && len % CDS_RECORD != 0) || head[0] == 0)
		return 0;
	for (size_t at = 0; at + CDS_RECORD <= len; at += CDS_RECORD)
		if (!rank_bytes_look_right(head + at + 1) ||
		    (at > 0 && head[at] != ((head[at - CDS_RECORD] + 1) & 0xff)))
			return 0;
	return 80;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "cds",
	.suffix = "cds",
	.description = "CDS",
	.kind = DL_BINARY,
	.max_board = 255,	/* the board number is one byte */
	.begin = NULL,
	.board = cds_board,
	.end = NULL,
	.sniff = cds_sniff,
	.read_begin = counting_begin,
	.read_board = cds_read_board,
	.read_end = counting_end,
	.needs = DL_CONCURRENT | DL_WRAPS_PAST_MAX,
};
