#include <pthread.h>
#include <stdlib.h>

#include "base/cleanup.h"
#include "base/ring.h"
#include "base/util.h"

struct ring_thread {
	struct ring *ring;
	unsigned worker;
	pthread_t thread;
};

struct lane {
	unsigned long next;	/* the next item it takes */
	int busy;		/* a thread is running its callback */
	int finished;
};

struct ring {
	struct ring_work work;
	pthread_mutex_t lock;
	/* Any change: an item made or taken, a lane finished, a failure, the
	 * end.  One condition for all, broadcast: a change comes once an
	 * item of hundreds of boards, and every waiter checks its own need. */
	pthread_cond_t changed;
	unsigned long *made;	/* by slot: the item it holds, plus 1; 0 none */
	/* Made by the caller: the items handed.  Made on threads: the items
	 * a thread has begun to make (claimed in order). */
	unsigned long handed;
	int closing;		/* the caller makes no more */
	struct lane *lane;
	size_t nlanes;
	int failed, stopping;
	long failed_lane;
	struct ring_thread thread[RING_THREADS_MAX];
	unsigned nthreads;
};

/* Whether item k's slot is free: every lane has taken the item before it
 * there.  With the lock held. */
static int
slot_free(const struct ring *r, unsigned long k)
{
	if (k < r->work.slots)
		return 1;
	for (size_t i = 0; i < r->nlanes; i++)
		if (r->lane[i].next <= k - r->work.slots)
			return 0;
	return 1;
}

static int
is_made(const struct ring *r, unsigned long k)
{
	return r->made[k % r->work.slots] == k + 1;
}

/* A failed callback: every side stops.  With the lock held. */
static void
fail(struct ring *r, long lane)
{
	if (!r->failed)
		r->failed_lane = lane;
	r->failed = 1;
	pthread_cond_broadcast(&r->changed);
}

/* A maker thread: claims the items in order while their slots are free,
 * makes each outside the lock. */
static void
maker_loop(struct ring *r, unsigned worker)
{
	while (!r->stopping && !r->failed && r->handed < r->work.items) {
		unsigned long k = r->handed;
		if (!slot_free(r, k)) {
			pthread_cond_wait(&r->changed, &r->lock);
			continue;
		}
		r->handed++;
		pthread_mutex_unlock(&r->lock);
		r->work.make(r->work.ctx, worker, k, k % r->work.slots);
		pthread_mutex_lock(&r->lock);
		r->made[k % r->work.slots] = k + 1;
		pthread_cond_broadcast(&r->changed);
	}
}

/* The lane a taker thread should serve next: the one furthest behind (it
 * holds back the oldest slot) among those free with an item to take or,
 * the ring closed and all taken, a finish to run.  -1: none now. */
static long
lane_to_serve(const struct ring *r)
{
	long pick = -1;

	for (size_t i = 0; i < r->nlanes; i++) {
		const struct lane *l = &r->lane[i];
		if (l->busy || l->finished || (l->next == r->handed && !r->closing))
			continue;
		if (pick == -1 || l->next < r->lane[pick].next)
			pick = (long)i;
	}
	return pick;
}

static int
all_finished(const struct ring *r)
{
	for (size_t i = 0; i < r->nlanes; i++)
		if (!r->lane[i].finished)
			return 0;
	return 1;
}

/* Runs lane's next callback, outside the lock: its next item, or its
 * finish once it has taken the last.  With the lock held. */
static void
serve_lane(struct ring *r, size_t i)
{
	struct lane *l = &r->lane[i];
	int ending = l->next == r->handed, status = 0;
	unsigned long k = l->next;

	l->busy = 1;
	pthread_mutex_unlock(&r->lock);
	if (!ending)
		status = r->work.take(r->work.ctx, i, k, k % r->work.slots);
	else if (r->work.finish != NULL)
		status = r->work.finish(r->work.ctx, i);
	pthread_mutex_lock(&r->lock);
	l->busy = 0;
	if (ending)
		l->finished = 1;
	else
		l->next++;
	if (status != 0)
		fail(r, (long)i);
	pthread_cond_broadcast(&r->changed);
}

static void
taker_loop(struct ring *r)
{
	long i;

	while (!r->stopping && !r->failed && !all_finished(r)) {
		if ((i = lane_to_serve(r)) == -1)
			pthread_cond_wait(&r->changed, &r->lock);
		else
			serve_lane(r, (size_t)i);
	}
}

static void *
ring_thread_run(void *arg)
{
	struct ring_thread *t = arg;
	struct ring *r = t->ring;

	pthread_mutex_lock(&r->lock);
	if (r->work.make != NULL)
		maker_loop(r, t->worker);
	else
		taker_loop(r);
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

struct ring *
ring_start(const struct ring_work *work, unsigned threads)
{
	struct ring *r = xcalloc(1, sizeof *r);

	r->work = *work;
	r->failed_lane = -1;
	r->made = xcalloc(work->slots, sizeof *r->made);
	/* made on threads: the caller is the one lane */
	r->nlanes = work->make != NULL ? 1 : work->lanes;
	r->lane = xcalloc(r->nlanes, sizeof *r->lane);
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->changed, NULL);
	if (threads > RING_THREADS_MAX)
		threads = RING_THREADS_MAX;
	for (unsigned i = 0; i < threads; i++) {
		struct ring_thread *t = &r->thread[r->nthreads];
		*t = (struct ring_thread){ .ring = r, .worker = r->nthreads };
		if (cleanup_thread_create(&t->thread, ring_thread_run, t) == 0)
			r->nthreads++;
	}
	return r;
}

unsigned
ring_threads(const struct ring *r)
{
	return r->nthreads;
}

int
ring_take(struct ring *r, size_t *slot)
{
	struct lane *l = &r->lane[0];
	int status;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		unsigned long k = l->next;
		if (k == r->work.items) {
			status = 0;
			break;
		}
		if (is_made(r, k)) {
			*slot = k % r->work.slots;
			status = 1;
			break;
		}
		if (r->nthreads > 0) {
			pthread_cond_wait(&r->changed, &r->lock);
			continue;
		}
		/* no thread: the caller makes it, its slot free since the caller
		 * has taken every item before */
		pthread_mutex_unlock(&r->lock);
		r->work.make(r->work.ctx, 0, k, k % r->work.slots);
		pthread_mutex_lock(&r->lock);
		r->made[k % r->work.slots] = k + 1;
	}
	pthread_mutex_unlock(&r->lock);
	return status;
}

void
ring_taken(struct ring *r)
{
	pthread_mutex_lock(&r->lock);
	r->lane[0].next++;
	pthread_cond_broadcast(&r->changed);
	pthread_mutex_unlock(&r->lock);
}

/* No thread: the caller's lanes take item k in turn. */
static void
take_here(struct ring *r, unsigned long k)
{
	for (size_t i = 0; i < r->nlanes && !r->failed; i++) {
		if (r->work.take(r->work.ctx, i, k, k % r->work.slots) != 0)
			fail(r, (long)i);
		r->lane[i].next++;
	}
}

int
ring_hand(struct ring *r, size_t *slot)
{
	unsigned long k;
	int status;

	pthread_mutex_lock(&r->lock);
	k = r->handed++;
	r->made[k % r->work.slots] = k + 1;
	pthread_cond_broadcast(&r->changed);
	if (r->nthreads == 0)
		take_here(r, k);
	while (!r->failed && !slot_free(r, r->handed))
		pthread_cond_wait(&r->changed, &r->lock);
	status = r->failed ? -1 : 0;
	*slot = r->handed % r->work.slots;
	pthread_mutex_unlock(&r->lock);
	return status;
}

static unsigned long
least_taken(const struct ring *r)
{
	unsigned long least = r->handed;

	for (size_t i = 0; i < r->nlanes; i++)
		if (r->lane[i].next < least)
			least = r->lane[i].next;
	return least;
}

int
ring_drain(struct ring *r)
{
	int status;

	pthread_mutex_lock(&r->lock);
	while (!r->failed && least_taken(r) < r->handed)
		pthread_cond_wait(&r->changed, &r->lock);
	status = r->failed ? -1 : 0;
	pthread_mutex_unlock(&r->lock);
	return status;
}

/* Waits for the threads to end, once. */
static void
join_threads(struct ring *r)
{
	for (unsigned i = 0; i < r->nthreads; i++)
		pthread_join(r->thread[i].thread, NULL);
	r->nthreads = 0;
}

int
ring_close(struct ring *r)
{
	int status;

	pthread_mutex_lock(&r->lock);
	r->closing = 1;
	pthread_cond_broadcast(&r->changed);
	if (r->nthreads == 0)
		for (size_t i = 0; i < r->nlanes && !r->failed; i++) {
			if (r->work.finish != NULL && r->work.finish(r->work.ctx, i) != 0)
				fail(r, (long)i);
			r->lane[i].finished = 1;
		}
	pthread_mutex_unlock(&r->lock);
	/* the threads end once every lane has finished, or one failed */
	join_threads(r);
	pthread_mutex_lock(&r->lock);
	status = r->failed ? -1 : 0;
	pthread_mutex_unlock(&r->lock);
	return status;
}

long
ring_failed_lane(const struct ring *r)
{
	return r->failed_lane;
}

void
ring_free(struct ring *r)
{
	if (r == NULL)
		return;
	pthread_mutex_lock(&r->lock);
	r->stopping = 1;
	pthread_cond_broadcast(&r->changed);
	pthread_mutex_unlock(&r->lock);
	join_threads(r);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->changed);
	free(r->made);
	free(r->lane);
	free(r);
}
