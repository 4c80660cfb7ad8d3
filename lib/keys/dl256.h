/* The dl256 generator (docs/generator.md): each board's deal number from a
 * 256-bit key and (event, session, board) alone, so that any board can be
 * made by itself and a run split across processes.  A session key is
 * derived with keyed BLAKE2b; each board's candidates are ChaCha20 blocks
 * under it, the board number being the block counter.
 *
 * Threads: every function may be called from several threads at once, a
 * struct dl256_session shared read-only, once sodium_init has run (from
 * then on libsodium is safe on threads). */
#ifndef DL_DL256_H
#define DL_DL256_H

#include <stdint.h>

#include "deals/dealnum.h"

#define DL256_KEY_BYTES 32
/* Domain separation: names the project, the generator and its version.
 * Changing it, or anything else in docs/generator.md, changes every deal. */
#define DL256_LABEL "dl/dl256/1"
/* Boards dl256_boards makes with one ChaCha20 call: 16 KiB of key stream. */
#define DL256_CHUNK 256

/* What one (key, event, session) needs: secret, wipe it after use. */
struct dl256_session {
	unsigned char subkey[32];
};

void dl256_session_init(struct dl256_session *s,
    const unsigned char key[DL256_KEY_BYTES], uint64_t event, uint32_t session);
/* The deal numbers of boards first .. first + count - 1, count at most
 * DL256_CHUNK, first + count - 1 at most UINT32_MAX. */
void dl256_boards(const struct dl256_session *s, uint32_t first, unsigned count,
    u128 numbers[]);
/* One board, derived from scratch: random access. */
u128 dl256_deal_number(const unsigned char key[DL256_KEY_BYTES], uint64_t event,
    uint32_t session, uint32_t board);

#endif
