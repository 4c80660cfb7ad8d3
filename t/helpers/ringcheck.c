/* Test helper: drives lib/base/ring.c the two ways the tools do and checks
 * what comes out of it, printing one line a check.
 *
 *   ringcheck make THREADS SLOTS ITEMS
 *	items made on THREADS threads (0: by the caller), taken by the
 *	caller: "taken N items in order, each once" when every item came in
 *	order with what its maker put in its slot.
 *   ringcheck take THREADS LANES SLOTS ITEMS [LANE ITEM]
 *	items handed by the caller to LANES lanes on THREADS threads: a
 *	line a lane saying how many items it took in order and whether it
 *	finished.  With LANE ITEM, that lane fails at that item (ITEM equal
 *	to ITEMS: at its finish); the lines then leave out whether a lane
 *	finished (the others may or may not have, by the threads' timing)
 *	and end with "failed: lane L", the lane the ring reports.
 *
 * The makers and lanes sleep now and then, so that the threads finish out
 * of order and the ring's ordering is what is tested.  Exits 1 when a
 * check fails. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "base/ring.h"

#define LANES_MAX 16

struct check {
	unsigned long *slot;		/* what each slot holds: an item's mark */
	/* make */
	unsigned long bad;		/* items out of order or with a wrong mark */
	/* take */
	unsigned long lane_next[LANES_MAX];	/* the item each lane expects */
	int lane_bad[LANES_MAX], lane_finished[LANES_MAX];
	long fail_lane;
	unsigned long fail_item;
};

static unsigned long
mark(unsigned long item)
{
	return item * 2654435761u + 17;
}

/* Now and then a short sleep, by item and lane: threads that would go in
 * step are put out of it. */
static void
jitter(unsigned long item, unsigned long lane)
{
	if ((item * 7 + lane * 3) % 5 == 0) {
		struct timespec ts = { 0, (long)((item + lane) % 4) * 100000 };
		nanosleep(&ts, NULL);
	}
}

static void
make_item(void *ctx, unsigned worker, unsigned long item, size_t slot)
{
	struct check *c = ctx;

	(void)worker;
	jitter(item, 0);
	c->slot[slot] = mark(item);
}

static int
take_item(void *ctx, size_t lane, unsigned long item, size_t slot)
{
	struct check *c = ctx;

	jitter(item, lane + 1);
	if (item != c->lane_next[lane] || c->slot[slot] != mark(item))
		c->lane_bad[lane] = 1;
	c->lane_next[lane]++;
	return (long)lane == c->fail_lane && item == c->fail_item ? -1 : 0;
}

static int
finish_lane(void *ctx, size_t lane)
{
	struct check *c = ctx;

	c->lane_finished[lane] = 1;
	return (long)lane == c->fail_lane ? -1 : 0;
}

static unsigned long
number(const char *text)
{
	return strtoul(text, NULL, 10);
}

static int
check_make(unsigned threads, size_t slots, unsigned long items)
{
	struct check c = { .slot = calloc(slots, sizeof *c.slot) };
	struct ring *r = ring_start(&(struct ring_work){ .ctx = &c, .slots = slots,
	    .make = make_item, .items = items }, threads);
	unsigned long taken = 0;
	size_t slot;

	while (ring_take(r, &slot) == 1) {
		if (c.slot[slot] != mark(taken))
			c.bad++;
		jitter(taken, 9);
		taken++;
		ring_taken(r);
	}
	ring_free(r);
	free(c.slot);
	if (taken != items || c.bad != 0) {
		printf("taken %lu items, %lu wrong\n", taken, c.bad);
		return 1;
	}
	printf("taken %lu items in order, each once\n", taken);
	return 0;
}

static int
check_take(unsigned threads, size_t lanes, size_t slots, unsigned long items,
    long fail_lane, unsigned long fail_item)
{
	struct check c = { .slot = calloc(slots, sizeof *c.slot),
	    .fail_lane = fail_lane, .fail_item = fail_item };
	struct ring *r = ring_start(&(struct ring_work){ .ctx = &c, .slots = slots,
	    .take = take_item, .finish = finish_lane, .lanes = lanes }, threads);
	int failed = 0;
	size_t slot = 0;
	int status = 0;

	for (unsigned long k = 0; k < items && !failed; k++) {
		c.slot[slot] = mark(k);
		failed = ring_hand(r, &slot) == -1;
	}
	failed = failed || ring_drain(r) == -1 || ring_close(r) == -1;
	long lane = ring_failed_lane(r);
	ring_free(r);
	for (size_t i = 0; i < lanes; i++) {
		printf("lane %zu: %s%s\n", i, c.lane_bad[i] ? "out of order" : "in order",
		    fail_lane == -1 && c.lane_finished[i] ? ", finished" : "");
		if (fail_lane == -1 && (c.lane_bad[i] || !c.lane_finished[i] ||
		    c.lane_next[i] != items))
			status = 1;
		if (c.lane_bad[i])
			status = 1;
	}
	if (failed)
		printf("failed: lane %ld\n", lane);
	if (failed != (fail_lane != -1) || lane != fail_lane)
		status = 1;
	free(c.slot);
	return status;
}

int
main(int argc, char *argv[])
{
	if (argc >= 4 && argv[1][0] == 't' && number(argv[3]) > LANES_MAX)
		return 2;
	if (argc == 5 && argv[1][0] == 'm')
		return check_make((unsigned)number(argv[2]), number(argv[3]), number(argv[4]));
	if (argc == 6 && argv[1][0] == 't')
		return check_take((unsigned)number(argv[2]), number(argv[3]), number(argv[4]),
		    number(argv[5]), -1, 0);
	if (argc == 8 && argv[1][0] == 't')
		return check_take((unsigned)number(argv[2]), number(argv[3]), number(argv[4]),
		    number(argv[5]), (long)number(argv[6]), number(argv[7]));
	fprintf(stderr, "usage: ringcheck make THREADS SLOTS ITEMS\n"
	    "       ringcheck take THREADS LANES SLOTS ITEMS [LANE ITEM]\n");
	return 2;
}
