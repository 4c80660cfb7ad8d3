/* Test helper: RIPEMD-160 of standard input, in hex. */
#include <err.h>
#include <stdio.h>

#include "keys/ripemd160.h"

int
main(void)
{
	struct ripemd160 ctx;
	unsigned char buf[65536], digest[RIPEMD160_SIZE];
	size_t n;

	ripemd160_init(&ctx);
	while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
		ripemd160_update(&ctx, buf, n);
	if (ferror(stdin))
		err(1, "read error");
	ripemd160_final(&ctx, digest);
	for (int i = 0; i < RIPEMD160_SIZE; i++)
		printf("%02x", digest[i]);
	printf("\n");
	return 0;
}
