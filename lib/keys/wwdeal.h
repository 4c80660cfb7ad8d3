/* The ww-deal generator (docs/wwdeal.md): Gerald Tan's deals from a 256-bit
 * key and (event, session, board) through the Gimli permutation,
 * reproduced bit for bit, including its quirk with the event's bits.
 *
 * Threads: wwdeal_number keeps no state: several threads may call it at
 * once. */
#ifndef DL_WWDEAL_H
#define DL_WWDEAL_H

#include <stdint.h>

#include "deals/dealnum.h"

#define WWDEAL_KEY_BYTES 32

/* The board's deal number, below DEAL_COUNT; map it with Pavlicek's
 * mapping (pavlicek.h) to get ww-deal's deal.  Only bits 0..15 and 32..63
 * of event count: events that differ in bits 16..31 alone give the same
 * deals, as they do in ww-deal. */
u128 wwdeal_number(const unsigned char key[WWDEAL_KEY_BYTES], uint64_t event,
    uint32_t session, uint32_t board);

#endif
