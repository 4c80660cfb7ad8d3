/* RIPEMD-160 compressions of several blocks at once, one per vector lane:
 * the blocks are equal but for their first word, which counts up from
 * first.  Included by ripemd160.c once per instruction set, with
 *   LANES         the lanes of a vector (8 for AVX2, 16 for AVX-512)
 *   LANES_TARGET  the function attribute naming the instruction set
 *   LANES_NAME    the function's name
 * The steps are those of ripemd160_compress, written on vectors with GCC's
 * vector extensions; the compiler picks the instructions.
 *
 * Threads: the function it makes keeps no state: several threads may run it
 * at once. */

static void LANES_TARGET
LANES_NAME(const uint32_t words[16], uint32_t first, uint32_t out[][5])
{
	typedef uint32_t vec __attribute__((vector_size(4 * LANES)));
	vec x[16], zero = { 0 };

	for (int i = 0; i < 16; i++)
		x[i] = zero + words[i];
	for (int lane = 0; lane < LANES; lane++)
		x[0][lane] = first + (uint32_t)lane;

#define VROL(v, n) ((v) << (n) | (v) >> (32 - (n)))
#define VSTEPS(f, k, wtab, stab, from)					\
	_Pragma("GCC unroll 16")					\
	for (int i = (from); i < (from) + 16; i++) {			\
		vec t = VROL(a + f(b, c, d) + x[wtab[i]] + (k), stab[i]) + e; \
		a = e; e = d; d = VROL(c, 10); c = b; b = t;		\
	}
#define VF1(x, y, z) ((x) ^ (y) ^ (z))
#define VF2(x, y, z) (((x) & (y)) | (~(x) & (z)))
#define VF3(x, y, z) (((x) | ~(y)) ^ (z))
#define VF4(x, y, z) (((x) & (z)) | ((y) & ~(z)))
#define VF5(x, y, z) ((x) ^ ((y) | ~(z)))

	const vec h0 = zero + 0x67452301u, h1 = zero + 0xefcdab89u,
	    h2 = zero + 0x98badcfeu, h3 = zero + 0x10325476u, h4 = zero + 0xc3d2e1f0u;
	vec a = h0, b = h1, c = h2, d = h3, e = h4;
	VSTEPS(VF1, 0x00000000u, word_left, shift_left, 0)
	VSTEPS(VF2, 0x5a827999u, word_left, shift_left, 16)
	VSTEPS(VF3, 0x6ed9eba1u, word_left, shift_left, 32)
	VSTEPS(VF4, 0x8f1bbcdcu, word_left, shift_left, 48)
	VSTEPS(VF5, 0xa953fd4eu, word_left, shift_left, 64)
	vec al = a, bl = b, cl = c, dl = d, el = e;

	a = h0, b = h1, c = h2, d = h3, e = h4;
	VSTEPS(VF5, 0x50a28be6u, word_right, shift_right, 0)
	VSTEPS(VF4, 0x5c4dd124u, word_right, shift_right, 16)
	VSTEPS(VF3, 0x6d703ef3u, word_right, shift_right, 32)
	VSTEPS(VF2, 0x7a6d76e9u, word_right, shift_right, 48)
	VSTEPS(VF1, 0x00000000u, word_right, shift_right, 64)

	vec r0 = h1 + cl + d, r1 = h2 + dl + e, r2 = h3 + el + a,
	    r3 = h4 + al + b, r4 = h0 + bl + c;
	for (int lane = 0; lane < LANES; lane++) {
		out[lane][0] = r0[lane];
		out[lane][1] = r1[lane];
		out[lane][2] = r2[lane];
		out[lane][3] = r3[lane];
		out[lane][4] = r4[lane];
	}
	sodium_memzero(x, sizeof x);
#undef VROL
#undef VSTEPS
#undef VF1
#undef VF2
#undef VF3
#undef VF4
#undef VF5
}
