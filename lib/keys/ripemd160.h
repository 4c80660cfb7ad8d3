/* RIPEMD-160 (Dobbertin, Bosselaers, Preneel 1996).
 * libsodium lacks it and Big Deal's stream is built on it, so we carry our own.
 *
 * Threads: every function may be called from several threads at once, each
 * on its own context: the vector level is found once (simd.h). */
#ifndef DL_RIPEMD160_H
#define DL_RIPEMD160_H

#include <stddef.h>
#include <stdint.h>

#define RIPEMD160_SIZE 20
#define RIPEMD160_BLOCK 64

struct ripemd160 {
	uint32_t h[5];
	uint64_t length;		/* bytes hashed so far */
	unsigned char buf[RIPEMD160_BLOCK];
	size_t fill;
};

void ripemd160_init(struct ripemd160 *ctx);
void ripemd160_update(struct ripemd160 *ctx, const void *data, size_t len);
void ripemd160_final(struct ripemd160 *ctx, unsigned char out[RIPEMD160_SIZE]);
void ripemd160(const void *data, size_t len, unsigned char out[RIPEMD160_SIZE]);

/* One compression of a complete 64-byte block into h[5]: the hot path of the
 * Big Deal stream, whose messages fit in one padded block. */
void ripemd160_compress(uint32_t h[5], const unsigned char block[RIPEMD160_BLOCK]);
void ripemd160_initial_state(uint32_t h[5]);

/* Big Deal's candidates are compressions of one block whose first four
 * bytes count up (little-endian): independent, so several are computed at
 * once in the lanes of a vector (AVX2: 8, AVX-512: 16; lib/base/simd.h).
 * out[i] is the state after compressing, from the initial state, block
 * with first + i in its first four bytes, for i < n; n is best
 * ripemd160_counter_lanes(), at most RIPEMD160_MAX_LANES.  The same
 * results whichever instructions compute them. */
#define RIPEMD160_MAX_LANES 16
unsigned ripemd160_counter_lanes(void);
void ripemd160_counter_blocks(const unsigned char block[RIPEMD160_BLOCK], uint32_t first,
    unsigned n, uint32_t out[][5]);

#endif
