/* The Gimli permutation (Bernstein et al., "Gimli: a cross-platform
 * permutation", CHES 2017) on its 384-bit state: twelve 32-bit words, seen
 * as 3 rows of 4 columns, word 4 * row + column.  ww-deal (wwdeal.h) is
 * built on it.
 *
 * Threads: gimli_permute keeps no state: several threads may call it at
 * once, each on its own state. */
#ifndef DL_GIMLI_H
#define DL_GIMLI_H

#include <stdint.h>

#define GIMLI_WORDS 12

/* The 24 rounds, in place. */
void gimli_permute(uint32_t state[GIMLI_WORDS]);

#endif
