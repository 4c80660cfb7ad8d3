/* Benchmark helper (make bench): DDS's own batch throughput, the figure
 * dl-dd is measured against.  Reads a deals stream and solves its deals
 * with CalcAllTables, 32 a call on every core, without par or output;
 * prints the seconds the solving took. */
#include <dds/dll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stream/proto.h"
#include "base/util.h"

int
main(void)
{
	static struct ddTableDeals deals;
	static struct ddTablesRes results;
	static struct allParResults pars;
	unsigned char (*held)[CARDS] = NULL;
	int filter[DDS_STRAINS] = { 0 };
	struct stream_in in;
	struct dl_error e;
	struct timespec a, b;
	size_t n = 0;
	unsigned board;
	char *line;
	size_t len;

	if (stream_open(&in, stdin, STREAM_DEALS, &e) == -1)
		goto fail;
	while (stream_next_record(&in, &line, &len, &e) == 1) {
		held = xreallocarray(held, n + 1, sizeof *held);
		if (record_deal(&in, line, len, &board, held[n++], &e) == -1)
			goto fail;
	}
	SetMaxThreads(0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (size_t first = 0; first < n; first += 32) {
		deals.noOfTables = (int)(n - first < 32 ? n - first : 32);
		for (int i = 0; i < deals.noOfTables; i++) {
			memset(&deals.deals[i], 0, sizeof deals.deals[i]);
			for (unsigned c = 0; c < CARDS; c++)
				deals.deals[i].cards[held[first + (size_t)i][c]][c / 13] |=
				    1u << (14 - c % 13);
		}
		int rc = CalcAllTables(&deals, -1, filter, &results, &pars);
		if (rc != RETURN_NO_FAULT) {
			fprintf(stderr, "ddsbatch: DDS error %d\n", rc);
			return 2;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	free(held);
	return 0;
fail:
	fprintf(stderr, "ddsbatch: %s\n", e.msg);
	return 1;
}
