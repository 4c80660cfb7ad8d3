/* A deal as a .tso field: 52 digits, the holder of each card AS..2C.
 *
 * Threads: both functions may be called from several threads at once:
 * deal_from_tso's message on a hand's count is in a buffer of the calling
 * thread's own (_Thread_local), good until that thread's next call. */
#ifndef DL_TSO_H
#define DL_TSO_H

#include <stddef.h>

#include "deals/dealnum.h"

#define TSO_DIGITS CARDS

/* NULL when field is a complete deal, else what is wrong with it. */
const char *deal_from_tso(const char *field, size_t len, unsigned char owner[CARDS]);
void deal_to_tso(const unsigned char owner[CARDS], char field[TSO_DIGITS]);

#endif
