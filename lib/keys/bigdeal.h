/* Big Deal's deal-number stream (docs/bigdeal-compat.md section 3).
 *
 * Threads: a struct bigdeal_stream is one thread's, since each call moves
 * it on; different streams may run on different threads at once, and
 * bigdeal_owner_hash may be called from any. */
#ifndef DL_BIGDEAL_H
#define DL_BIGDEAL_H

#include <stdint.h>

#include "deals/dealnum.h"
#include "keys/ripemd160.h"

#define BIGDEAL_SECRET 20	/* bytes of `random` and of `owner` */
/* Big Deal keeps at most this many bytes of the owner= line of .bigdealrc
 * (it reads lines 119 bytes at a time, "owner=" taking 6), and hashes
 * what it kept.  bigdealx -W is hashed whole. */
#define BIGDEAL_OWNER_MAX 113
/* What Big Deal hashes when .bigdealrc says no owner (no owner= line, no
 * file), and stores when its first-run question is answered with Enter. */
#define BIGDEAL_DEFAULT_OWNER "Identification of owner or tournament"

/* Holds the secret: allocate it with secret_alloc() and free it with
 * secret_free(), which wipes it. */
struct bigdeal_stream {
	uint32_t seq;		/* the candidates made so far */
	/* seq (LE) || random || owner, already padded to one RIPEMD-160 block:
	 * each candidate costs exactly one compression. */
	unsigned char block[RIPEMD160_BLOCK];
	/* candidates made ahead, as many at once as the processor's vectors
	 * hold (ripemd160_counter_blocks), taken in order */
	u128 ahead[RIPEMD160_MAX_LANES];
	unsigned ahead_next, ahead_count;
};

void bigdeal_stream_init(struct bigdeal_stream *s,
    const unsigned char random[BIGDEAL_SECRET], const unsigned char owner[BIGDEAL_SECRET]);
/* The next board's deal number: candidates are drawn until one is below D. */
u128 bigdeal_next(struct bigdeal_stream *s);

/* owner: RIPEMD-160 of the identification as Big Deal takes it: its
 * bytes, whatever their encoding, at most BIGDEAL_OWNER_MAX of them (1 when
 * it was cut, for a warning, else 0); NULL is the default identification. */
int bigdeal_owner_hash(const char *identification, unsigned char owner[BIGDEAL_SECRET]);
/* owner: RIPEMD-160 of bigdealx -W's identification, every byte of it:
 * Big Deal hashes the wizard string whole (main.c), whatever its length. */
void bigdeal_owner_hash_whole(const char *identification,
    unsigned char owner[BIGDEAL_SECRET]);

#endif
