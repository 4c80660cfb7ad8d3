/* Bernasconi dealing machine: 52 bytes a board, the holder of each card
 * AS..2C as '1' (North) to '4' (West), with no separators. */
#include "reading.h"

static int
ber_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	char digits[DL_CARDS];

	(void)run;
	(void)state;
	for (unsigned c = 0; c < DL_CARDS; c++)
		digits[c] = (char)('1' + deal->owner[c]);
	out->write(out, digits, sizeof digits);
	return 0;
}

/* Reading: 52 digits a board, nothing between boards; boards count from 1. */
static int
ber_decode(struct dl_in *in, unsigned board, const unsigned char *digits,
    unsigned char owner[DL_CARDS])
{
	for (unsigned c = 0; c < DL_CARDS; c++) {
		if (digits[c] < '1' || digits[c] > '4') {
			in->fail(in, "board %u: byte %u: not a seat 1-4", board, c + 1);
			return -1;
		}
		owner[c] = (unsigned char)(digits[c] - '1');
	}
	return 0;
}

static int
ber_read_board(struct dl_in *in, struct dl_board_in *board, void *state)
{
	unsigned char digits[DL_CARDS];

	return counted_records_read_board(in, board, state, digits, sizeof digits, ber_decode);
}

/* Only the digits 1-4, 13 of each in every whole record. */
static int
ber_sniff(const unsigned char *head, size_t len)
{
	size_t records = len / DL_CARDS;
	unsigned char seats[DL_CARDS];

	if (len < DL_CARDS || (len < 4096 && len % DL_CARDS != 0))
		return 0;
	for (size_t i = 0; i < records; i++) {
		for (unsigned c = 0; c < DL_CARDS; c++)
			seats[c] = (unsigned char)(head[i * DL_CARDS + c] - '1');
		if (!thirteen_each(seats))
			return 0;
	}
	return 80;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "ber",
	.suffix = "ber",
	.description = "Bernasconi dealing machine",
	.kind = DL_BINARY,
	.max_board = 0,
	.begin = NULL,
	.board = ber_board,
	.end = NULL,
	.sniff = ber_sniff,
	.read_begin = counting_begin,
	.read_board = ber_read_board,
	.read_end = counting_end,
	.needs = DL_CONCURRENT | DL_JOINABLE,
};
