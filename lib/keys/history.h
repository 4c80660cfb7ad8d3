/* A local history of seed fingerprints, so that an operator cannot deal
 * the same series twice from the same fresh seed (a reused entropy phrase,
 * a restored virtual machine).  It holds one-way fingerprints, never seeds.
 *
 * Threads: every function may be called from several threads at once, once
 * sodium_init has run: the environment is only read, and the history is
 * held under flock while it is read and appended to, which keeps two
 * threads apart as it does two processes (each opens the file itself). */
#ifndef DL_HISTORY_H
#define DL_HISTORY_H

#include "base/error.h"
#include "keys/seed.h"

/* The history file: $DL_SEED_HISTORY, else $XDG_STATE_HOME/dl/seed-history,
 * else ~/.local/state/dl/seed-history (to free); NULL in *path when
 * DL_SEED_HISTORY is "off". */
int history_path(char **path, struct dl_error *e);
/* -1 (an input error) when the seed is in the history; records it
 * otherwise. */
int history_check_and_record(const struct seed_record *seed, struct dl_error *e);

#define HISTORY_FINGERPRINT_BYTES 16
/* What the history holds of a seed: a keyed BLAKE2b of the seed and its
 * generator's history_id (never of the generator's place in the table). */
void history_fingerprint(const struct seed_record *seed,
    unsigned char fp[HISTORY_FINGERPRINT_BYTES]);

#endif
