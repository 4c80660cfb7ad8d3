#include <string.h>

#include <sodium.h>

#include "keys/dl256.h"
#include "keys/generator.h"

#define BLOCK_BYTES 64
/* 64-byte ChaCha20 blocks hold five 12-byte candidates; 4 bytes are unused */
#define CANDIDATES_PER_BLOCK 5
#define OVERFLOW_NONCE_TAG 1

static void
put_be(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--) {
		p[i] = (unsigned char)v;
		v >>= 8;
	}
}

void
dl256_session_init(struct dl256_session *s, const unsigned char key[DL256_KEY_BYTES],
    uint64_t event, uint32_t session)
{
	/* label || event (8) || session (4), big-endian */
	unsigned char msg[sizeof DL256_LABEL - 1 + 12];
	size_t at = sizeof DL256_LABEL - 1;

	memcpy(msg, DL256_LABEL, at);
	put_be(msg + at, event, 8);
	put_be(msg + at + 8, session, 4);
	crypto_generichash(s->subkey, sizeof s->subkey, msg, sizeof msg, key,
	    DL256_KEY_BYTES);
}

/* The first of a block's five candidates below D, or D when there is none. */
static u128
first_below_deal_count(const unsigned char block[BLOCK_BYTES])
{
	for (unsigned i = 0; i < CANDIDATES_PER_BLOCK; i++) {
		u128 candidate = deal_number_from_bytes(block + i * DEAL_NUMBER_BYTES);
		if (candidate < DEAL_COUNT)
			return candidate;
	}
	return DEAL_COUNT;
}

/* Boards whose first block holds no candidate below D (one in 280) go on
 * with blocks 0, 1, ... of a nonce of their own. */
static u128
overflow_candidates(const struct dl256_session *s, uint32_t board)
{
	unsigned char nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = { 0 };
	unsigned char block[BLOCK_BYTES];
	u128 number = DEAL_COUNT;

	put_be(nonce, OVERFLOW_NONCE_TAG, 4);
	put_be(nonce + 4, board, 4);
	for (uint32_t counter = 0; number == DEAL_COUNT; counter++) {
		memset(block, 0, sizeof block);
		crypto_stream_chacha20_ietf_xor_ic(block, block, sizeof block, nonce,
		    counter, s->subkey);
		number = first_below_deal_count(block);
	}
	sodium_memzero(block, sizeof block);
	return number;
}

void
dl256_boards(const struct dl256_session *s, uint32_t first, unsigned count,
    u128 numbers[])
{
	static const unsigned char zero_nonce[crypto_stream_chacha20_ietf_NONCEBYTES];
	unsigned char blocks[DL256_CHUNK * BLOCK_BYTES];
	size_t len = (size_t)count * BLOCK_BYTES;

	/* one call for the whole chunk: the vectorised key stream is five
	 * times as fast as block by block */
	memset(blocks, 0, len);
	crypto_stream_chacha20_ietf_xor_ic(blocks, blocks, len, zero_nonce, first,
	    s->subkey);
	for (unsigned i = 0; i < count; i++) {
		numbers[i] = first_below_deal_count(blocks + i * BLOCK_BYTES);
		if (numbers[i] == DEAL_COUNT)
			numbers[i] = overflow_candidates(s, first + i);
	}
	sodium_memzero(blocks, len);
}

u128
dl256_deal_number(const unsigned char key[DL256_KEY_BYTES], uint64_t event,
    uint32_t session, uint32_t board)
{
	struct dl256_session s;
	u128 number;

	dl256_session_init(&s, key, event, session);
	dl256_boards(&s, board, 1, &number);
	sodium_memzero(&s, sizeof s);
	return number;
}

/* Boards are made DL256_CHUNK at a time, never past the run's last. */
struct chunk {
	struct dl256_session session;
	u128 numbers[DL256_CHUNK];
	unsigned long first, count, last_board;
};

static void
start(void *state, const struct seed_record *seed, unsigned last_board)
{
	struct chunk *c = state;

	dl256_session_init(&c->session, seed->key, seed->event, seed->session);
	c->first = c->count = 0;
	c->last_board = last_board;
}

static u128
board(void *state, unsigned number)
{
	struct chunk *c = state;

	if (number < c->first || number - c->first >= c->count) {
		c->first = number;
		c->count = number <= c->last_board ? c->last_board - number + 1 : 1;
		if (c->count > DL256_CHUNK)
			c->count = DL256_CHUNK;
		dl256_boards(&c->session, number, (unsigned)c->count, c->numbers);
	}
	return c->numbers[number - c->first];
}

/* dl256 (docs/generator.md): "dl256 KEY", 32 bytes; coordinates event
 * (64 bits) and session (32 bits). */
const struct generator generator_dl256 = {
	.name = "dl256",
	.history_id = 1,
	.fresh_keys = FRESH_FROM_OS,
	.mapping = "bigdeal",
	.key_bytes = DL256_KEY_BYTES,
	.coordinates = 1,
	.max_event = UINT64_MAX,
	.state_size = sizeof(struct chunk),
	.start = start,
	.board = board,
};
