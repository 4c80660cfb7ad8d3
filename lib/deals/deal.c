#include <stdlib.h>

#include <sodium.h>

#include "cleanup.h"
#include "deal.h"
#include "mapping.h"
#include "ring.h"

#define PROGRESS_EVERY 10000
/* Deals are made this many at a time by a thread of their own while the
 * writers take the ones before: the two halves of the work (the deals;
 * the formats) run side by side, as dl-stream | dl-map | dl-fmt do. */
#define CHUNK_BOARDS 4096

struct chunk {
	unsigned long first, count;
	u128 numbers[CHUNK_BOARDS];
	unsigned char owners[CHUNK_BOARDS][CARDS];
};

/* Two chunks: one is made while the other is written. */
#define CHUNKS 2

struct maker {
	struct number_source ns;
	const struct mapping *map;
	struct board_range range;
	struct chunk chunk[CHUNKS];
};

/* The analyses of the chunk being written, when there is an analyser: the
 * deals' secrets too (double-dummy tricks say much of a hand). */
struct analyses {
	struct dl_analysis a[CHUNK_BOARDS];
};

/* The ring's maker: chunk number item of the range, into its slot.  One
 * maker thread: the boards are made in order, as a sequential generator
 * needs. */
static void
make_chunk(void *ctx, unsigned worker, unsigned long item, size_t slot)
{
	struct maker *m = ctx;
	struct chunk *c = &m->chunk[slot];

	(void)worker;
	c->first = m->range.low + item * CHUNK_BOARDS;
	c->count = m->range.high - c->first + 1 < CHUNK_BOARDS ?
	    m->range.high - c->first + 1 : CHUNK_BOARDS;
	for (unsigned long i = 0; i < c->count; i++)
		c->numbers[i] = number_source_board(&m->ns, (unsigned)(c->first + i));
	m->map->deals(c->numbers, c->count, c->owners);
}

static int
write_chunk(const struct chunk *c, struct writers *ws, struct board_range range,
    void (*progress)(unsigned long done, unsigned long total),
    const struct deal_analyser *analyser, struct analyses *an, struct dl_error *e)
{
	unsigned long total = (unsigned long)range.high - range.low + 1;

	/* the whole chunk first: its writing then goes without a pause */
	if (analyser != NULL &&
	    analyser->analyse(analyser->ctx, (unsigned)c->first, c->count, c->owners, an->a,
	    e) == -1)
		return -1;
	for (unsigned long i = 0; i < c->count; i++) {
		unsigned long b = c->first + i;
		if (writers_board(ws, (unsigned)b, c->owners[i], -1, -1,
		    analyser != NULL ? &an->a[i] : NULL, e) == -1)
			return -1;
		if (progress != NULL && (b - range.low + 1) % PROGRESS_EVERY == 0)
			progress(b - range.low + 1, total);
	}
	return 0;
}

int
deal_boards(const struct seed_record *seed, struct board_range range,
    struct writers *ws, void (*progress)(unsigned long done, unsigned long total),
    struct dl_error *e)
{
	return deal_boards_analysed(seed, range, ws, progress, NULL, e);
}

int
deal_boards_analysed(const struct seed_record *seed, struct board_range range,
    struct writers *ws, void (*progress)(unsigned long done, unsigned long total),
    const struct deal_analyser *analyser, struct dl_error *e)
{
	struct maker *m = secret_alloc(sizeof *m);	/* deals before play */
	struct analyses *an = analyser != NULL ? secret_alloc(sizeof *an) : NULL;
	unsigned long boards = (unsigned long)range.high - range.low + 1;
	struct ring *ring;
	size_t slot;
	int status = 0, got;

	m->map = mapping_find(seed->generator->mapping);
	m->range = range;
	number_source_init(&m->ns, seed, range.high);
	/* the deals are made on a thread of their own while this one writes
	 * the chunk before */
	ring = ring_start(&(struct ring_work){ .ctx = m, .slots = CHUNKS,
	    .make = make_chunk, .items = (boards + CHUNK_BOARDS - 1) / CHUNK_BOARDS }, 1);
	while ((got = ring_take(ring, &slot)) == 1) {
		if (write_chunk(&m->chunk[slot], ws, range, progress, analyser, an, e) == -1) {
			status = -1;
			break;
		}
		ring_taken(ring);
	}
	ring_free(ring);
	if (progress != NULL && status == 0)
		progress(boards, boards);
	number_source_free(&m->ns);
	secret_free(an);
	secret_free(m);
	return status;
}
