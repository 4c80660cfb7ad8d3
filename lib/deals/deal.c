#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include <sodium.h>

#include "cleanup.h"
#include "deal.h"
#include "mapping.h"

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

struct maker {
	struct number_source ns;
	const struct mapping *map;
	struct chunk chunk[2];
	unsigned set;			/* the chunk being made */
	int stop;
	pthread_barrier_t start, done;
};

static void *
make_deals(void *arg)
{
	struct maker *m = arg;

	for (;;) {
		pthread_barrier_wait(&m->start);
		if (m->stop)
			return NULL;
		struct chunk *c = &m->chunk[m->set];
		for (unsigned long i = 0; i < c->count; i++)
			c->numbers[i] = number_source_board(&m->ns, (unsigned)(c->first + i));
		m->map->deals(c->numbers, c->count, c->owners);
		pthread_barrier_wait(&m->done);
	}
}

/* The next chunk of boards, from *next: 0 when the range is done. */
static int
next_chunk(struct chunk *c, unsigned long *next, unsigned long high)
{
	if (*next > high)
		return 0;
	c->first = *next;
	c->count = high - *next + 1 < CHUNK_BOARDS ? high - *next + 1 : CHUNK_BOARDS;
	*next += c->count;
	return 1;
}

static int
write_chunk(const struct chunk *c, struct writers *ws, struct board_range range,
    void (*progress)(unsigned long done, unsigned long total), struct dl_error *e)
{
	unsigned long total = (unsigned long)range.high - range.low + 1;

	for (unsigned long i = 0; i < c->count; i++) {
		unsigned long b = c->first + i;
		if (writers_board(ws, (unsigned)b, c->owners[i], NULL, e) == -1)
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
	struct maker *m = secret_alloc(sizeof *m);	/* deals before play */
	unsigned long next = range.low;
	pthread_t thread;
	int status = 0, more;

	m->map = mapping_find(seed->generator->mapping);
	number_source_init(&m->ns, seed, range.high);
	if ((errno = pthread_barrier_init(&m->start, NULL, 2)) != 0 ||
	    (errno = pthread_barrier_init(&m->done, NULL, 2)) != 0 ||
	    (errno = cleanup_thread_create(&thread, make_deals, m)) != 0) {
		number_source_free(&m->ns);
		secret_free(m);
		return dl_error_sys(e, "a thread to make the deals");
	}
	more = next_chunk(&m->chunk[0], &next, range.high);
	if (more)
		pthread_barrier_wait(&m->start);
	while (more) {
		unsigned set = m->set;
		pthread_barrier_wait(&m->done);
		/* the next chunk is made while this one is written */
		m->set = !set;
		if ((more = next_chunk(&m->chunk[m->set], &next, range.high)))
			pthread_barrier_wait(&m->start);
		if (write_chunk(&m->chunk[set], ws, range, progress, e) == -1) {
			status = -1;
			if (more)
				pthread_barrier_wait(&m->done);
			break;
		}
	}
	m->stop = 1;
	pthread_barrier_wait(&m->start);
	pthread_join(thread, NULL);
	pthread_barrier_destroy(&m->start);
	pthread_barrier_destroy(&m->done);
	if (progress != NULL && status == 0)
		progress((unsigned long)range.high - range.low + 1,
		    (unsigned long)range.high - range.low + 1);
	number_source_free(&m->ns);
	secret_free(m);
	return status;
}
