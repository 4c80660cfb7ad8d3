/* Benchmark helper (make bench): the compute time of random access to
 * single dl256 boards, in microseconds a board, over N random boards. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <sodium.h>

#include "keys/dl256.h"

int
main(int argc, char *argv[])
{
	unsigned char key[DL256_KEY_BYTES];
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
	struct timespec a, b;
	u128 sink = 0;

	if (sodium_init() < 0)
		return 2;
	randombytes_buf(key, sizeof key);
	/* the coordinates drawn first: the system's randomness is a system
	 * call a number, which would cost more than the board */
	uint64_t *events = calloc(n, sizeof *events);
	uint32_t *sessions = calloc(n, sizeof *sessions), *boards = calloc(n, sizeof *boards);
	if (events == NULL || sessions == NULL || boards == NULL)
		return 2;
	randombytes_buf(events, n * sizeof *events);
	randombytes_buf(sessions, n * sizeof *sessions);
	for (unsigned long i = 0; i < n; i++)
		boards[i] = 1 + randombytes_uniform(1000000000);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (unsigned long i = 0; i < n; i++)
		sink ^= dl256_deal_number(key, events[i], sessions[i], boards[i]);
	clock_gettime(CLOCK_MONOTONIC, &b);
	free(events);
	free(sessions);
	free(boards);
	double us = ((double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3) / (double)n;
	printf("%.2f%s\n", us, sink == 1 ? " " : "");
	return 0;
}
