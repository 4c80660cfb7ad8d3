/* RIPEMD-160, written from the algorithm's published description. */
#include <string.h>

#include <sodium.h>

#include "keys/ripemd160.h"
#include "base/simd.h"

static const uint8_t word_left[80] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	7, 4, 13, 1, 10, 6, 15, 3, 12, 0, 9, 5, 2, 14, 11, 8,
	3, 10, 14, 4, 9, 15, 8, 1, 2, 7, 0, 6, 13, 11, 5, 12,
	1, 9, 11, 10, 0, 8, 12, 4, 13, 3, 7, 15, 14, 5, 6, 2,
	4, 0, 5, 9, 7, 12, 2, 10, 14, 1, 3, 8, 11, 6, 15, 13,
};
static const uint8_t word_right[80] = {
	5, 14, 7, 0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12,
	6, 11, 3, 7, 0, 13, 5, 10, 14, 15, 8, 12, 4, 9, 1, 2,
	15, 5, 1, 3, 7, 14, 6, 9, 11, 8, 12, 2, 10, 0, 4, 13,
	8, 6, 4, 1, 3, 11, 15, 0, 5, 12, 2, 13, 9, 7, 10, 14,
	12, 15, 10, 4, 1, 5, 8, 7, 6, 2, 13, 14, 0, 3, 9, 11,
};
static const uint8_t shift_left[80] = {
	11, 14, 15, 12, 5, 8, 7, 9, 11, 13, 14, 15, 6, 7, 9, 8,
	7, 6, 8, 13, 11, 9, 7, 15, 7, 12, 15, 9, 11, 7, 13, 12,
	11, 13, 6, 7, 14, 9, 13, 15, 14, 8, 13, 6, 5, 12, 7, 5,
	11, 12, 14, 15, 14, 15, 9, 8, 9, 14, 5, 6, 8, 6, 5, 12,
	9, 15, 5, 11, 6, 8, 13, 12, 5, 12, 13, 14, 11, 8, 5, 6,
};
static const uint8_t shift_right[80] = {
	8, 9, 9, 11, 13, 15, 15, 5, 7, 7, 8, 11, 14, 14, 12, 6,
	9, 13, 15, 7, 12, 8, 9, 11, 7, 7, 12, 7, 6, 15, 13, 11,
	9, 7, 15, 11, 8, 6, 6, 14, 12, 13, 5, 14, 13, 13, 7, 5,
	15, 5, 8, 11, 14, 14, 6, 14, 6, 9, 12, 9, 12, 5, 15, 8,
	8, 5, 12, 9, 12, 5, 14, 6, 8, 13, 6, 5, 15, 13, 11, 11,
};

static inline uint32_t rol(uint32_t x, unsigned n) { return (x << n) | (x >> (32 - n)); }

static inline uint32_t f1(uint32_t x, uint32_t y, uint32_t z) { return x ^ y ^ z; }
static inline uint32_t f2(uint32_t x, uint32_t y, uint32_t z) { return (x & y) | (~x & z); }
static inline uint32_t f3(uint32_t x, uint32_t y, uint32_t z) { return (x | ~y) ^ z; }
static inline uint32_t f4(uint32_t x, uint32_t y, uint32_t z) { return (x & z) | (y & ~z); }
static inline uint32_t f5(uint32_t x, uint32_t y, uint32_t z) { return x ^ (y | ~z); }

/* Sixteen steps of one line with a fixed boolean function; the two lines of
 * each round differ only in function, constant and tables. */
#define SIXTEEN_STEPS(f, k, words, shifts, first)			\
	_Pragma("GCC unroll 16")					\
	for (int i = (first); i < (first) + 16; i++) {			\
		uint32_t t = rol(a + f(b, c, d) + x[words[i]] + (k),	\
		    shifts[i]) + e;					\
		a = e; e = d; d = rol(c, 10); c = b; b = t;		\
	}

void
ripemd160_compress(uint32_t h[5], const unsigned char block[RIPEMD160_BLOCK])
{
	uint32_t x[16];

	for (int i = 0; i < 16; i++)
		x[i] = (uint32_t)block[4 * i] | (uint32_t)block[4 * i + 1] << 8 |
		    (uint32_t)block[4 * i + 2] << 16 | (uint32_t)block[4 * i + 3] << 24;

	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	SIXTEEN_STEPS(f1, 0x00000000u, word_left, shift_left, 0)
	SIXTEEN_STEPS(f2, 0x5a827999u, word_left, shift_left, 16)
	SIXTEEN_STEPS(f3, 0x6ed9eba1u, word_left, shift_left, 32)
	SIXTEEN_STEPS(f4, 0x8f1bbcdcu, word_left, shift_left, 48)
	SIXTEEN_STEPS(f5, 0xa953fd4eu, word_left, shift_left, 64)
	uint32_t al = a, bl = b, cl = c, dl = d, el = e;

	a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	SIXTEEN_STEPS(f5, 0x50a28be6u, word_right, shift_right, 0)
	SIXTEEN_STEPS(f4, 0x5c4dd124u, word_right, shift_right, 16)
	SIXTEEN_STEPS(f3, 0x6d703ef3u, word_right, shift_right, 32)
	SIXTEEN_STEPS(f2, 0x7a6d76e9u, word_right, shift_right, 48)
	SIXTEEN_STEPS(f1, 0x00000000u, word_right, shift_right, 64)

	uint32_t t = h[1] + cl + d;
	h[1] = h[2] + dl + e;
	h[2] = h[3] + el + a;
	h[3] = h[4] + al + b;
	h[4] = h[0] + bl + c;
	h[0] = t;
	sodium_memzero(x, sizeof x);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(DL_NO_ASM)
#define LANES 8
#define LANES_TARGET __attribute__((target("avx2")))
#define LANES_NAME compress_counters_avx2
#include "keys/ripemd160_lanes.h"
#undef LANES
#undef LANES_TARGET
#undef LANES_NAME
#define LANES 16
#define LANES_TARGET __attribute__((target("avx512f,avx512vl")))
#define LANES_NAME compress_counters_avx512
#include "keys/ripemd160_lanes.h"
#undef LANES
#undef LANES_TARGET
#undef LANES_NAME
#endif

unsigned
ripemd160_counter_lanes(void)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(DL_NO_ASM)
	if (simd_allowed(SIMD_AVX512))
		return 16;
	if (simd_allowed(SIMD_AVX2))
		return 8;
#endif
	return 1;
}

void
ripemd160_counter_blocks(const unsigned char block[RIPEMD160_BLOCK], uint32_t first,
    unsigned n, uint32_t out[][5])
{
	uint32_t words[16];

	for (int i = 0; i < 16; i++)
		words[i] = (uint32_t)block[4 * i] | (uint32_t)block[4 * i + 1] << 8 |
		    (uint32_t)block[4 * i + 2] << 16 | (uint32_t)block[4 * i + 3] << 24;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(DL_NO_ASM)
	if (n == 16 && simd_allowed(SIMD_AVX512)) {
		compress_counters_avx512(words, first, out);
		n = 0;
	} else if (n == 8 && simd_allowed(SIMD_AVX2)) {
		compress_counters_avx2(words, first, out);
		n = 0;
	}
#endif
	if (n > 0) {
		unsigned char one[RIPEMD160_BLOCK];

		memcpy(one, block, sizeof one);
		for (unsigned i = 0; i < n; i++) {
			uint32_t counter = first + i;
			for (int j = 0; j < 4; j++)
				one[j] = (unsigned char)(counter >> (8 * j));
			ripemd160_initial_state(out[i]);
			ripemd160_compress(out[i], one);
		}
		sodium_memzero(one, sizeof one);
	}
	sodium_memzero(words, sizeof words);
}

void
ripemd160_initial_state(uint32_t h[5])
{
	h[0] = 0x67452301u;
	h[1] = 0xefcdab89u;
	h[2] = 0x98badcfeu;
	h[3] = 0x10325476u;
	h[4] = 0xc3d2e1f0u;
}

void
ripemd160_init(struct ripemd160 *ctx)
{
	ripemd160_initial_state(ctx->h);
	ctx->length = 0;
	ctx->fill = 0;
}

void
ripemd160_update(struct ripemd160 *ctx, const void *data, size_t len)
{
	const unsigned char *p = data;

	ctx->length += len;
	while (len > 0) {
		size_t take = RIPEMD160_BLOCK - ctx->fill;
		if (take > len)
			take = len;
		memcpy(ctx->buf + ctx->fill, p, take);
		ctx->fill += take;
		p += take;
		len -= take;
		if (ctx->fill == RIPEMD160_BLOCK) {
			ripemd160_compress(ctx->h, ctx->buf);
			ctx->fill = 0;
		}
	}
}

void
ripemd160_final(struct ripemd160 *ctx, unsigned char out[RIPEMD160_SIZE])
{
	uint64_t bits = ctx->length * 8;
	unsigned char pad[RIPEMD160_BLOCK + 8] = { 0x80 };
	size_t padlen = (ctx->fill < 56 ? 56 : 120) - ctx->fill;

	for (int i = 0; i < 8; i++)
		pad[padlen + i] = (unsigned char)(bits >> (8 * i));
	ripemd160_update(ctx, pad, padlen + 8);
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 4; j++)
			out[4 * i + j] = (unsigned char)(ctx->h[i] >> (8 * j));
	sodium_memzero(ctx, sizeof *ctx);
}

void
ripemd160(const void *data, size_t len, unsigned char out[RIPEMD160_SIZE])
{
	struct ripemd160 ctx;

	ripemd160_init(&ctx);
	ripemd160_update(&ctx, data, len);
	ripemd160_final(&ctx, out);
}
