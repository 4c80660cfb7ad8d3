#include <sodium.h>

#include "gimli.h"
#include "wwdeal.h"

#define KEY_WORDS (WWDEAL_KEY_BYTES / 4)
/* The reference keeps only these bits of the event's low word. */
#define EVENT_LOW_MASK 0xffffu

/* Byte by byte, not memcpy: the reference ran on little-endian machines
 * and its deals must not depend on ours. */
static uint32_t
load_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

u128
wwdeal_number(const unsigned char key[WWDEAL_KEY_BYTES], uint64_t event,
    uint32_t session, uint32_t board)
{
	uint32_t state[GIMLI_WORDS];
	u128 number;

	for (unsigned i = 0; i < KEY_WORDS; i++)
		state[i] = load_le32(key + 4 * i);
	state[8] = (uint32_t)(event >> 32);
	/* the quirk: bits 16..31 of the event are dropped, as in ww-deal */
	state[9] = (uint32_t)event & EVENT_LOW_MASK;
	state[10] = session;
	state[11] = board;
	/* a candidate at or above D is rejected and the state permuted once
	 * more as it stands, not rebuilt: that keeps the choice uniform and
	 * is what ww-deal does */
	do {
		gimli_permute(state);
		number = (u128)state[0] | (u128)state[1] << 32 |
		    (u128)state[2] << 64;
	} while (number >= DEAL_COUNT);
	sodium_memzero(state, sizeof state);
	return number;
}
