/* Test helper: Big Deal's candidates computed several at a time
 * (ripemd160_counter_blocks, on the vector path DL_SIMD allows) against
 * the one-message-at-a-time hash, ripemd160(), of the same 44 bytes.
 *   rmdlanes --level          the best path allowed: plain, avx2, avx512
 *   rmdlanes FIRST COUNT      COUNT candidates from counter FIRST (hex)
 * Prints the path, the lanes and how many agreed; exits 1 at the first
 * candidate that differs. */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys/ripemd160.h"
#include "base/simd.h"

int
main(int argc, char *argv[])
{
	unsigned char message[44], block[RIPEMD160_BLOCK] = { 0 }, digest[RIPEMD160_SIZE];
	uint32_t states[RIPEMD160_MAX_LANES][5];
	unsigned long count, done = 0;
	uint32_t first;

	if (argc == 2 && strcmp(argv[1], "--level") == 0) {
		printf("%s\n", simd_level_name());
		return 0;
	}
	if (argc != 3)
		errx(2, "usage: rmdlanes --level | rmdlanes FIRST COUNT");
	first = (uint32_t)strtoul(argv[1], NULL, 16);
	count = strtoul(argv[2], NULL, 10);
	/* a block as Big Deal's: counter, 40 bytes of secret, padding, length */
	for (int i = 4; i < 44; i++)
		block[i] = (unsigned char)(i * 37 + 11);
	block[44] = 0x80;
	block[56] = 44 * 8 % 256;
	block[57] = 44 * 8 / 256;

	unsigned lanes = ripemd160_counter_lanes();
	while (done < count) {
		ripemd160_counter_blocks(block, first, lanes, states);
		for (unsigned i = 0; i < lanes; i++, done++) {
			uint32_t counter = first + i;
			memcpy(message, block, sizeof message);
			for (int j = 0; j < 4; j++)
				message[j] = (unsigned char)(counter >> (8 * j));
			ripemd160(message, sizeof message, digest);
			for (int w = 0; w < 5; w++)
				for (int j = 0; j < 4; j++)
					if (digest[4 * w + j] != (unsigned char)(states[i][w] >> (8 * j)))
						errx(1, "counter %08x: lanes and ripemd160() differ", counter);
		}
		first += lanes;
	}
	printf("%s: %u lanes: %lu candidates as ripemd160()\n", simd_level_name(), lanes, done);
	return 0;
}
