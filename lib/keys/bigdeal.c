#include <string.h>

#include <sodium.h>

#include "keys/bigdeal.h"
#include "keys/generator.h"

#define MESSAGE_BYTES (4 + 2 * BIGDEAL_SECRET)

void
bigdeal_stream_init(struct bigdeal_stream *s,
    const unsigned char random[BIGDEAL_SECRET], const unsigned char owner[BIGDEAL_SECRET])
{
	uint64_t bits = MESSAGE_BYTES * 8;

	memset(s, 0, sizeof *s);
	memcpy(s->block + 4, random, BIGDEAL_SECRET);
	memcpy(s->block + 4 + BIGDEAL_SECRET, owner, BIGDEAL_SECRET);
	s->block[MESSAGE_BYTES] = 0x80;
	for (int i = 0; i < 8; i++)
		s->block[56 + i] = (unsigned char)(bits >> (8 * i));
}

/* The digest's first 12 bytes are h[0..2], each little-endian; read them
 * as one big-endian number. */
static u128
number_from_state(const uint32_t h[5])
{
	return (u128)__builtin_bswap32(h[0]) << 64 |
	    (u128)__builtin_bswap32(h[1]) << 32 | __builtin_bswap32(h[2]);
}

static u128
candidate(struct bigdeal_stream *s)
{
	if (s->ahead_next == s->ahead_count) {
		uint32_t h[RIPEMD160_MAX_LANES][5];
		unsigned n = ripemd160_counter_lanes();

		ripemd160_counter_blocks(s->block, s->seq + 1, n, h);
		for (unsigned i = 0; i < n; i++)
			s->ahead[i] = number_from_state(h[i]);
		sodium_memzero(h, sizeof h);
		s->seq += n;
		s->ahead_next = 0;
		s->ahead_count = n;
	}
	return s->ahead[s->ahead_next++];
}

u128
bigdeal_next(struct bigdeal_stream *s)
{
	u128 number;

	do
		number = candidate(s);
	while (number >= DEAL_COUNT);
	return number;
}

int
bigdeal_owner_hash(const char *identification, unsigned char owner[BIGDEAL_SECRET])
{
	const char *text = identification ? identification : BIGDEAL_DEFAULT_OWNER;
	size_t len = strlen(text);

	ripemd160(text, len > BIGDEAL_OWNER_MAX ? BIGDEAL_OWNER_MAX : len, owner);
	return len > BIGDEAL_OWNER_MAX;
}

void
bigdeal_owner_hash_whole(const char *identification, unsigned char owner[BIGDEAL_SECRET])
{
	ripemd160(identification, strlen(identification), owner);
}

static void
start(void *state, const struct seed_record *seed, unsigned last_board)
{
	(void)last_board;
	bigdeal_stream_init(state, seed->key, seed->owner);
}

/* A sequence: the board number is not an input. */
static u128
board(void *state, unsigned number)
{
	(void)number;
	return bigdeal_next(state);
}

/* Big Deal 2.0's generator (docs/bigdeal-compat.md): "bigdeal RANDOM
 * OWNER", the secret and the owner's RIPEMD-160, 20 bytes each. */
const struct generator generator_bigdeal = {
	.name = "bigdeal",
	.history_id = 0,
	.fresh_keys = FRESH_FROM_ENTROPY,
	.mapping = "bigdeal",
	.key_bytes = BIGDEAL_SECRET,
	.owner_bytes = BIGDEAL_SECRET,
	.sequential = 1,
	.state_size = sizeof(struct bigdeal_stream),
	.start = start,
	.board = board,
};
