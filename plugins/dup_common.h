/* Duplimate .dup boards, shared by dup and dupblind: 156 bytes a board,
 * the BRI part, the DGE part and a 10-byte trailer.  The trailer holds the
 * number of boards in two digits, hence the limit of 99 boards. */
#ifndef DL_PLUGINS_DUP_COMMON_H
#define DL_PLUGINS_DUP_COMMON_H

#include "bri_dge.h"

#define DUP_MAX_BOARD 99

/* blind: spaces in place of the DGE part. */
static inline void
dup_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    int blind)
{
	bri_part(out, deal);
	if (blind)
		write_fill(out, ' ', DGE_PART);
	else
		dge_part(out, deal);
	out->print(out, "YN1  0 %02u ", run->nboards % 100);
}

#endif
