#include "keys/gimli.h"

#define GIMLI_ROUNDS 24
#define GIMLI_ROUND_CONSTANT 0x9e377900u

static inline uint32_t
rotl32(uint32_t v, unsigned bits)
{
	return v << bits | v >> (32 - bits);
}

static inline void
swap_words(uint32_t *a, uint32_t *b)
{
	uint32_t t = *a;

	*a = *b;
	*b = t;
}

void
gimli_permute(uint32_t state[GIMLI_WORDS])
{
	/* the paper counts rounds down: the linear layer and the constant
	 * are placed by the round number modulo 4 */
	for (uint32_t round = GIMLI_ROUNDS; round > 0; round--) {
		/* the SP-box acts on each column on its own */
		for (unsigned column = 0; column < 4; column++) {
			uint32_t x = rotl32(state[column], 24);
			uint32_t y = rotl32(state[4 + column], 9);
			uint32_t z = state[8 + column];

			state[8 + column] = x ^ (z << 1) ^ ((y & z) << 2);
			state[4 + column] = y ^ x ^ ((x | z) << 1);
			state[column] = z ^ y ^ ((x & y) << 3);
		}
		/* only the top row is mixed across columns */
		if (round % 4 == 0) {
			swap_words(&state[0], &state[1]);
			swap_words(&state[2], &state[3]);
			state[0] ^= GIMLI_ROUND_CONSTANT ^ round;
		} else if (round % 4 == 2) {
			swap_words(&state[0], &state[2]);
			swap_words(&state[1], &state[3]);
		}
	}
}
