#include <string.h>

#include <sodium.h>

#include "dl256.h"

#define OUTPUT_BYTES 32

static void
put_be(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--) {
		p[i] = (unsigned char)v;
		v >>= 8;
	}
}

u128
dl256_deal_number(const unsigned char key[DL256_KEY_BYTES], uint64_t event,
    uint32_t session, uint32_t board)
{
	/* label || event (8) || session (4) || board (4) || counter (4), big-endian */
	unsigned char msg[sizeof DL256_LABEL - 1 + 20], out[OUTPUT_BYTES];
	size_t at = sizeof DL256_LABEL - 1;
	u128 number;

	memcpy(msg, DL256_LABEL, at);
	put_be(msg + at, event, 8);
	put_be(msg + at + 8, session, 4);
	put_be(msg + at + 12, board, 4);
	for (uint32_t counter = 0;; counter++) {
		put_be(msg + at + 16, counter, 4);
		crypto_generichash(out, sizeof out, msg, sizeof msg, key, DL256_KEY_BYTES);
		number = deal_number_from_bytes(out);
		if (number < DEAL_COUNT)
			break;
	}
	sodium_memzero(out, sizeof out);
	return number;
}
