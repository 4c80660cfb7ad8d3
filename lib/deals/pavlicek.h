/* Richard Pavlicek's deal numbering: the second mapping between deal numbers
 * 0 <= g < D and deals, next to Big Deal's (dealnum.h); docs/mappings.md.
 * Pavlicek counts deals from 1: his number is g + 1.
 *
 * Threads: both functions may be called from several threads at once: their
 * table of binomials is made once, by whichever thread first needs it
 * (pthread_once). */
#ifndef DL_PAVLICEK_H
#define DL_PAVLICEK_H

#include "deals/dealnum.h"

/* owner[] as in dealnum.h; number must be below DEAL_COUNT. */
void deal_from_number_pavlicek(u128 number, unsigned char owner[CARDS]);
/* owner[] must be a complete deal (deal_is_complete). */
u128 number_from_deal_pavlicek(const unsigned char owner[CARDS]);

#endif
