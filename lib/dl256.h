/* The dl256 generator (docs/generator.md): each board's deal number from a
 * 256-bit key and (event, session, board) alone, so that any board can be
 * made by itself and a run split across processes.  Keyed BLAKE2b. */
#ifndef DL_DL256_H
#define DL_DL256_H

#include <stdint.h>

#include "dealnum.h"

#define DL256_KEY_BYTES 32
/* Domain separation: names the project, the generator and its version.
 * Changing it, or anything else in docs/generator.md, changes every deal. */
#define DL256_LABEL "dl/dl256/1"

/* The first candidate below D of PRF(key, event, session, board, 0, 1, ...). */
u128 dl256_deal_number(const unsigned char key[DL256_KEY_BYTES], uint64_t event,
    uint32_t session, uint32_t board);

#endif
