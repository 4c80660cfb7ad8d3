/* Benchmark helper (make bench): archive_check_boards alone, in one
 * process, so that a session's check is timed without the process's start
 * and the reading of its file.  archivebench ARCHIVE FILE RUNS [BITS]
 * checks the deals of a .tso file RUNS times (every kind of match, as
 * dl-archive check asks; BITS of each key sent, the backend's default
 * when not given) and prints the best run's milliseconds, then the hits of
 * each kind (same, turned, same hands, two hands, near, one hand). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "archive/deal_archive.h"
#include "stream/tso.h"

static int
count(size_t board, const struct archive_hit *hit, void *arg)
{
	unsigned long *hits = arg;

	(void)board;
	hits[hit->match]++;
	return 0;
}

int
main(int argc, char *argv[])
{
	unsigned char (*owner)[CARDS] = NULL;
	size_t n = 0, cap = 0, len = 0;
	unsigned long hits[ARCHIVE_MATCHES];
	double best = -1;
	struct archive *a;
	struct dl_error e;
	char *line = NULL;
	ssize_t got;
	FILE *fp;
	int runs;

	unsigned bits = argc == 5 ? (unsigned)atoi(argv[4]) : 0;

	if (argc < 4 || argc > 5 || (runs = atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: archivebench archive file.tso runs [bits]\n");
		return 2;
	}
	if (sodium_init() < 0 || (fp = fopen(argv[2], "r")) == NULL)
		return 2;
	while ((got = getline(&line, &len, fp)) != -1) {
		const char *field = strchr(line, ' ');

		if (line[0] == '#' || field == NULL)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			if ((owner = realloc(owner, cap * sizeof *owner)) == NULL)
				return 2;
		}
		field++;
		if (deal_from_tso(field, strcspn(field, "\n"), owner[n]) != NULL) {
			fprintf(stderr, "archivebench: %s: not a deal: %s", argv[2], line);
			return 2;
		}
		n++;
	}
	free(line);
	fclose(fp);
	if (archive_open(&a, argv[1], 0, &e) == -1) {
		fprintf(stderr, "archivebench: %s\n", e.msg);
		return 2;
	}
	for (int r = 0; r < runs; r++) {
		struct timespec t0, t1;
		double ms;

		memset(hits, 0, sizeof hits);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (archive_check_boards(a, (const unsigned char (*)[CARDS])owner, n, 0, bits, count,
		    hits, &e) == -1) {
			fprintf(stderr, "archivebench: %s\n", e.msg);
			return 2;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
		if (best < 0 || ms < best)
			best = ms;
	}
	archive_close(a);
	free(owner);
	printf("%.3f %lu %lu %lu %lu %lu %lu\n", best, hits[0], hits[1], hits[2], hits[3], hits[4],
	    hits[5]);
	return 0;
}
