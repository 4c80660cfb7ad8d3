/* Goedel (.goe): each board's Big Deal deal number in decimal, a line of
 * 29 digit positions grouped by three, leading zeros as blanks. */
#include <string.h>

#include "dl/plugin.h"

#define GOEDEL_DIGITS 29	/* enough for any 96-bit deal number */

/* Divides the big-endian number by 10 in place; returns the remainder. */
static unsigned
divide_by_ten(unsigned char number[DL_DEAL_NUMBER_BYTES])
{
	unsigned rest = 0;

	for (unsigned i = 0; i < DL_DEAL_NUMBER_BYTES; i++) {
		unsigned part = rest << 8 | number[i];
		number[i] = (unsigned char)(part / 10);
		rest = part % 10;
	}
	return rest;
}

static int
goedel_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	unsigned char number[DL_DEAL_NUMBER_BYTES];
	unsigned digit[GOEDEL_DIGITS];	/* digit[0] is the units */
	char line[GOEDEL_DIGITS + GOEDEL_DIGITS / 3 + 1];
	size_t n = 0;
	int leading = 1;

	(void)run;
	(void)state;
	memcpy(number, deal->number, sizeof number);
	for (unsigned p = 0; p < GOEDEL_DIGITS; p++)
		digit[p] = divide_by_ten(number);
	for (unsigned p = GOEDEL_DIGITS; p-- > 0;) {
		/* the units digit shows even when the number is 0 */
		if (digit[p] != 0 || p == 0)
			leading = 0;
		line[n++] = leading ? ' ' : (char)('0' + digit[p]);
		if (p == 0)
			line[n++] = '\n';
		else if (p % 3 == 0)
			line[n++] = leading ? ' ' : ',';
	}
	out->write(out, line, n);
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "goedel",
	.suffix = "goe",
	.description = "Big Deal's deal numbers in decimal",
	.kind = DL_TEXT,
	.max_board = 0,
	.begin = NULL,
	.board = goedel_board,
	.end = NULL,
};
