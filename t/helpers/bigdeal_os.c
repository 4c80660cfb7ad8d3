/* Test helper: dl-bigdeal or dl-bigdealx (the first argument, "bigdeal" or
 * "bigdealx"; the others are the program's) with the operating system's
 * randomness given: the bytes of $DL_TEST_OS_BYTES, hex, repeated as far
 * as a call asks (zeros without it), so that a run with the same bytes
 * and the same answers deals the same boards, and its deals can be
 * computed (t/dropin.bats).  The drop-ins' code is the tools' own
 * (cmd/bigdeal_cli.c); only libsodium's randombytes_buf is replaced, for
 * its calls inside libsodium too (a canary gets the same bytes). */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "bigdeal_cli.h"

void
randombytes_buf(void *const buf, const size_t size)
{
	const char *hex = getenv("DL_TEST_OS_BYTES");
	size_t len = hex != NULL ? strlen(hex) : 0, n = 0;
	unsigned char *out = buf, *bytes = len > 0 ? malloc(len / 2 + 1) : NULL;

	if (len > 0 && (bytes == NULL || sodium_hex2bin(bytes, len / 2 + 1, hex, len, NULL,
	    &n, NULL) != 0 || n != len / 2 || len % 2 != 0))
		abort();
	/* the bytes given, over and over; none given: zeros */
	for (size_t i = 0; i < size; i++)
		out[i] = n > 0 ? bytes[i % n] : 0;
	free(bytes);
}

int
main(int argc, char *argv[])
{
	if (argc < 2 || (strcmp(argv[1], "bigdeal") != 0 && strcmp(argv[1], "bigdealx") != 0))
		return 2;
	enum bigdeal_program which = strcmp(argv[1], "bigdealx") == 0 ? BIGDEAL_EXTENDED :
	    BIGDEAL_SAFE;

	argv[1] = argv[0];
	return bigdeal_cli_main(argc - 1, argv + 1, which);
}
