/* Dealing a run of boards in one process: seed -> Big Deal stream ->
 * deals -> format writers, what dl-stream | dl-map | dl-fmt do in a pipe. */
#ifndef DL_DEAL_H
#define DL_DEAL_H

#include "bigdeal.h"
#include "dl256.h"
#include "seed.h"
#include "util.h"
#include "writers.h"

/* Deal numbers board by board from a seed of either generator.  bigdeal's
 * are a sequence: its boards must be asked for in order, from the first of
 * the run; dl256's come from the board number itself, any board in any
 * order, made DL256_CHUNK at a time but never past last_board. */
struct number_source {
	const struct seed_record *seed;
	struct bigdeal_stream *stream;	/* bigdeal: secret, allocated */
	struct dl256_chunk {
		struct dl256_session session;
		u128 numbers[DL256_CHUNK];
		unsigned long first, count;
	} *chunk;			/* dl256: secret, allocated */
	unsigned long last_board;
};

void number_source_init(struct number_source *ns, const struct seed_record *seed,
    unsigned last_board);
u128 number_source_board(struct number_source *ns, unsigned board);
void number_source_free(struct number_source *ns);

/* progress, when not NULL, is called now and then with the boards done. */
void deal_boards(const struct seed_record *seed, struct board_range range,
    struct writers *ws, void (*progress)(unsigned long done, unsigned long total));

#endif
