#include <string.h>

#include <sodium.h>

#include "keys/generator.h"
#include "keys/gimli.h"
#include "keys/wwdeal.h"

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

/* ww-deal makes any board from its coordinates alone: the state keeps
 * only what the seed gives. */
struct state {
	unsigned char key[WWDEAL_KEY_BYTES];
	uint64_t event;
	uint32_t session;
};

static void
start(void *state, const struct seed_record *seed, unsigned last_board)
{
	struct state *s = state;

	(void)last_board;
	memcpy(s->key, seed->key, WWDEAL_KEY_BYTES);
	s->event = seed->event;
	s->session = seed->session;
}

static u128
board(void *state, unsigned number)
{
	struct state *s = state;

	return wwdeal_number(s->key, s->event, s->session, number);
}

/* "wwdeal KEY", 32 bytes; coordinates event (64 bits, of which ww-deal
 * uses 48) and session; Pavlicek's mapping, as the reference's. */
const struct generator generator_wwdeal = {
	.name = "wwdeal",
	.history_id = 102,
	.fresh_keys = FRESH_NONE,
	.mapping = "pavlicek",
	.key_bytes = WWDEAL_KEY_BYTES,
	.coordinates = 1,
	.max_event = UINT64_MAX,
	.state_size = sizeof(struct state),
	.start = start,
	.board = board,
};
