/* A local history of seed fingerprints, so that an operator cannot deal
 * the same series twice from the same fresh seed (a reused entropy phrase,
 * a restored virtual machine).  It holds one-way fingerprints, never seeds. */
#ifndef DL_HISTORY_H
#define DL_HISTORY_H

#include "seed.h"

/* The history file: $DL_SEED_HISTORY, else $XDG_STATE_HOME/dl/seed-history,
 * else ~/.local/state/dl/seed-history; NULL when DL_SEED_HISTORY is "off". */
const char *history_path(void);
/* Exits when the seed is in the history; records it otherwise. */
void history_check_and_record(const struct seed_record *seed);

#endif
