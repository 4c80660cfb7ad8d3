/* KOPS (.rzd): the number of boards as two bytes, least significant first,
 * 11 spaces, then 13 bytes a board (rank_bytes.h). */
#include <stdlib.h>

#include "rank_bytes.h"

static int
kops_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	/* two bytes: max_board keeps larger counts out */
	unsigned char count[2] = { run->nboards & 0xff, (run->nboards >> 8) & 0xff };

	(void)state;
	out->write(out, count, sizeof count);
	out->write(out, "           ", 11);
	return 0;
}

static int
kops_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	unsigned char bytes[DL_HAND_CARDS];

	(void)run;
	(void)state;
	rank_bytes(deal, 0, bytes);
	out->write(out, bytes, sizeof bytes);
	return 0;
}

/* Reading: the header's count, 11 spaces, then 13 bytes a board; boards
 * count from 1.  The count is the number of boards modulo 65536 (Big
 * Deal's count of a longer run wraps). */
#define KOPS_HEADER 13

struct kops_reading {
	struct counting boards;	/* the board being read, 0 before the first */
	unsigned count;		/* what the header says */
};

static int
kops_read_begin(struct dl_in *in, void **state)
{
	unsigned char header[KOPS_HEADER];
	struct kops_reading *r;
	size_t got = in->read(in, header, sizeof header);

	if (got < sizeof header || !all_bytes(header + 2, KOPS_HEADER - 2, ' ')) {
		in->fail(in, "not a KOPS file: no 13-byte header (a count and 11 spaces)");
		return -1;
	}
	if ((r = calloc(1, sizeof *r)) == NULL) {
		in->fail(in, "out of memory");
		return -1;
	}
	r->count = header[0] | (unsigned)header[1] << 8;
	*state = r;
	return 0;
}

/* At the end, the boards read must be the header's count. */
static int
kops_end_of_file(struct dl_in *in, const struct kops_reading *r)
{
	unsigned boards = r->boards.board - 1;

	if ((boards & 0xffff) == r->count)
		return 0;
	in->fail(in, "the header announces %u boards, the file holds %u", r->count, boards);
	return -1;
}

/* Any 13 bytes give every card a holder (rank_bytes.h); deal_finish
 * checks that every seat holds 13. */
static int
kops_record_read(struct dl_in *in, unsigned board, const unsigned char *bytes,
    unsigned char owner[DL_CARDS])
{
	(void)in;
	(void)board;
	rank_bytes_read(bytes, 0, owner);
	return 0;
}

static int
kops_read_board(struct dl_in *in, struct dl_board_in *board, void *state)
{
	struct kops_reading *r = state;
	unsigned char bytes[DL_HAND_CARDS];
	int got = counted_records_read_board(in, board, &r->boards, bytes, sizeof bytes,
	    kops_record_read);

	return got == 0 ? kops_end_of_file(in, r) : got;
}

static void
kops_read_end(struct dl_in *in, void *state)
{
	(void)in;
	free(state);
}

/* The header, its count matching the size of a short file, and boards
 * that give every seat 13 cards. */
static int
kops_sniff(const unsigned char *head, size_t len)
{
	if (len < KOPS_HEADER + DL_HAND_CARDS || !all_bytes(head + 2, KOPS_HEADER - 2, ' '))
		return 0;
	unsigned count = head[0] | (unsigned)head[1] << 8;
	if (len < 4096 && len != KOPS_HEADER + (size_t)count * DL_HAND_CARDS)
		return 0;
	for (size_t at = KOPS_HEADER; at + DL_HAND_CARDS <= len; at += DL_HAND_CARDS)
		if (!rank_bytes_look_right(head + at))
			return 0;
	return 90;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "kops",
	.suffix = "rzd",
	.description = "KOPS",
	.kind = DL_BINARY,
	.max_board = 65535,	/* the board count is two bytes */
	.begin = kops_begin,
	.board = kops_board,
	.end = NULL,
	.sniff = kops_sniff,
	.read_begin = kops_read_begin,
	.read_board = kops_read_board,
	.read_end = kops_read_end,
	.needs = DL_CONCURRENT | DL_WRAPS_PAST_MAX,
};
