#include <stdlib.h>

#include <sodium.h>

#include "base/cleanup.h"
#include "session/deal.h"
#include "deals/mapping.h"
#include "base/ring.h"

#define PROGRESS_EVERY 10000
/* Deals are made this many at a time by a thread of their own while the
 * writers take the ones before: the two halves of the work (the deals;
 * the formats) run side by side, as dl-stream | dl-map | dl-fmt do. */
#define CHUNK_BOARDS 4096

/* A chunk's arrays are in its maker's secret memory, as long as a chunk
 * is: CHUNK_BOARDS, or the range when it is shorter.  A session of 32
 * boards so locks 5 KB, not 540 KB (whose page faults were a third of a
 * web request's processor time). */
struct chunk {
	unsigned long first, count;
	u128 *numbers;
	unsigned char (*owners)[CARDS];
};

/* Two chunks: one is made while the other is written. */
#define CHUNKS 2

struct maker {
	struct number_source ns;
	const struct mapping *map;
	struct board_range range;
	unsigned long chunk_boards;	/* a chunk's length */
	struct chunk chunk[CHUNKS];
	/* then each chunk's numbers, then each chunk's owners */
};

/* The maker and its chunks' arrays in one secret allocation.  Its size is
 * kept a multiple of 16: sodium_malloc puts a block against its guard
 * page, so that an odd size would leave the u128s unaligned. */
static struct maker *
maker_alloc(unsigned long chunk_boards)
{
	size_t head = (sizeof(struct maker) + 15) & ~(size_t)15;
	size_t numbers = chunk_boards * sizeof(u128);
	size_t owners = chunk_boards * CARDS;
	size_t size = (head + CHUNKS * (numbers + owners) + 15) & ~(size_t)15;
	unsigned char *p = secret_alloc(size);
	struct maker *m = (struct maker *)p;

	m->chunk_boards = chunk_boards;
	for (size_t i = 0; i < CHUNKS; i++) {
		m->chunk[i].numbers = (u128 *)(p + head + i * numbers);
		m->chunk[i].owners = (unsigned char (*)[CARDS])
		    (p + head + CHUNKS * numbers + i * owners);
	}
	return m;
}

/* The ring's maker: chunk number item of the range, into its slot.  One
 * maker thread: the boards are made in order, as a sequential generator
 * needs. */
static void
make_chunk(void *ctx, unsigned worker, unsigned long item, size_t slot)
{
	struct maker *m = ctx;
	struct chunk *c = &m->chunk[slot];

	(void)worker;
	c->first = m->range.low + item * m->chunk_boards;
	c->count = m->range.high - c->first + 1 < m->chunk_boards ?
	    m->range.high - c->first + 1 : m->chunk_boards;
	for (unsigned long i = 0; i < c->count; i++)
		c->numbers[i] = number_source_board(&m->ns, (unsigned)(c->first + i));
	m->map->deals(c->numbers, c->count, c->owners);
}

static int
write_chunk(const struct chunk *c, struct writers *ws, struct board_range range,
    void (*progress)(unsigned long done, unsigned long total),
    const struct deal_analyser *analyser, struct dl_analysis *an, struct dl_error *e)
{
	unsigned long total = (unsigned long)range.high - range.low + 1;

	/* the whole chunk first: its writing then goes without a pause */
	if (analyser != NULL &&
	    analyser->analyse(analyser->ctx, (unsigned)c->first, c->count, c->owners, NULL,
	    NULL, an, e) == -1)
		return -1;
	for (unsigned long i = 0; i < c->count; i++) {
		unsigned long b = c->first + i;
		if (writers_board(ws, (unsigned)b, c->owners[i], -1, -1,
		    analyser != NULL ? &an[i] : NULL, e) == -1)
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
	unsigned long boards = (unsigned long)range.high - range.low + 1;
	unsigned long chunk_boards = boards < CHUNK_BOARDS ? boards : CHUNK_BOARDS;
	unsigned long chunks = (boards + chunk_boards - 1) / chunk_boards;
	struct maker *m = maker_alloc(chunk_boards);	/* deals before play */
	/* the analyses of the chunk being written: the deals' secrets too
	 * (double-dummy tricks say much of a hand) */
	struct dl_analysis *an = analyser != NULL ?
	    secret_alloc(chunk_boards * sizeof *an) : NULL;
	struct ring *ring;
	size_t slot;
	int status = 0, got;

	m->map = mapping_find(seed->generator->mapping);
	m->range = range;
	number_source_init(&m->ns, seed, range.high);
	/* the deals are made on a thread of their own while this one writes
	 * the chunk before; one chunk is made here, with no thread to start */
	ring = ring_start(&(struct ring_work){ .ctx = m, .slots = CHUNKS,
	    .make = make_chunk, .items = chunks }, chunks > 1 ? 1 : 0);
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
