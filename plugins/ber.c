/* Bernasconi dealing machine: 52 bytes a board, the holder of each card
 * AS..2C as '1' (North) to '4' (West), with no separators. */
#include "dl/plugin.h"

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
};
