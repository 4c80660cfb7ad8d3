/* dl's one threading engine: a ring of slots through which numbered items
 * 0, 1, 2 ... pass from the side that makes them to the side that takes
 * them, each side either the calling thread or threads of the ring's own.
 *
 * - Made on threads, taken by the caller (make set, take NULL): the deals
 *   of dl-deal (one maker thread while the caller writes the formats) and
 *   the records of dl-stream -j (several makers; the caller writes them
 *   out in order).
 * - Made by the caller, taken on threads (take set, make NULL): the format
 *   writers' pool, where each writer is a lane that takes every item in
 *   order, the lanes beside each other.
 *
 * The ring knows items and slots by number; the memory of the slots is
 * the user's (slot s holds item k when k % slots == s).  Item k goes into
 * its slot only once every lane has taken item k - slots, so at most
 * `slots` items are in flight, and takers always see items in order, each
 * lane every item once, whatever order the makers finish them in.
 *
 * Threads: a struct ring is driven by one thread, the caller; its
 * callbacks run on the ring's threads (or, with none started, on the
 * caller's), never two at once for one lane, and a lane's items in order.
 * A maker is told which of the threads it runs on (worker), for state a
 * thread keeps to itself.  What a callback writes into a slot or a lane's
 * state is seen by whoever reads it next through the ring (the ring's lock
 * orders them). */
#ifndef DL_RING_H
#define DL_RING_H

#include <stddef.h>

#define RING_THREADS_MAX 64

struct ring;

struct ring_work {
	void *ctx;		/* passed to every callback */
	size_t slots;		/* items in flight at most, 1 or more */
	/* Making, on the ring's threads: item into slot; NULL when the
	 * caller makes (ring_hand).  items: how many there are.  With one
	 * thread (or none) items are made in order, by worker 0.  Making
	 * cannot fail: what can fail is done by the taker. */
	void (*make)(void *ctx, unsigned worker, unsigned long item, size_t slot);
	unsigned long items;
	/* Taking, on the ring's threads: lane takes item from slot; NULL
	 * when the caller takes (ring_take), as one lane.  finish, when not
	 * NULL, runs once for a lane after its last item, when the caller
	 * has closed the ring (ring_close). */
	int (*take)(void *ctx, size_t lane, unsigned long item, size_t slot);
	int (*finish)(void *ctx, size_t lane);
	size_t lanes;
};

/* A ring and up to threads threads (at most RING_THREADS_MAX) for the side
 * the callbacks name.  A thread that cannot be started leaves the work to
 * the others; with none, ring_take makes each item and ring_hand takes it
 * in the caller's thread: the same items in the same order. */
struct ring *ring_start(const struct ring_work *work, unsigned threads);
unsigned ring_threads(const struct ring *r);

/* The caller takes.  The next item's slot in *slot: 1; 0 after the last
 * item.  ring_taken gives the slot back. */
int ring_take(struct ring *r, size_t *slot);
void ring_taken(struct ring *r);

/* The caller makes.  The slot to fill first is 0.  ring_hand hands the
 * filled slot to the lanes and waits for the next one to be free: its
 * number in *slot, 0; or -1 when a lane failed. */
int ring_hand(struct ring *r, size_t *slot);
/* Waits until every lane has taken every item handed: 0, or -1 when a
 * lane failed. */
int ring_drain(struct ring *r);
/* No more items: each lane takes what is left and finishes; the threads
 * end.  0, or -1 when a lane failed. */
int ring_close(struct ring *r);

/* The lane whose callback failed first (-1 from take or finish), or -1
 * when none has.  A failure stops the other lanes. */
long ring_failed_lane(const struct ring *r);

/* Stops every side (after the caller's own failure, or once all is
 * done), waits for the threads and frees the ring.  What a callback was
 * running when told to stop, it finishes. */
void ring_free(struct ring *r);

#endif
