#include "bigdeal.h"
#include "deal.h"

#define PROGRESS_EVERY 10000

void
number_source_init(struct number_source *ns, const struct seed_record *seed,
    unsigned last_board)
{
	ns->seed = seed;
	ns->stream = NULL;
	ns->chunk = NULL;
	ns->last_board = last_board;
	if (seed->generator == GENERATOR_BIGDEAL) {
		ns->stream = secret_alloc(sizeof *ns->stream);
		bigdeal_stream_init(ns->stream, seed->random, seed->owner);
	} else {
		ns->chunk = secret_alloc(sizeof *ns->chunk);
		dl256_session_init(&ns->chunk->session, seed->key, seed->event,
		    seed->session);
		ns->chunk->first = ns->chunk->count = 0;
	}
}

u128
number_source_board(struct number_source *ns, unsigned board)
{
	struct dl256_chunk *c = ns->chunk;

	if (ns->stream != NULL)
		return bigdeal_next(ns->stream);
	if (board < c->first || board - c->first >= c->count) {
		c->first = board;
		c->count = board <= ns->last_board ? ns->last_board - board + 1 : 1;
		if (c->count > DL256_CHUNK)
			c->count = DL256_CHUNK;
		dl256_boards(&c->session, board, (unsigned)c->count, c->numbers);
	}
	return c->numbers[board - c->first];
}

void
number_source_free(struct number_source *ns)
{
	if (ns->stream != NULL)
		secret_free(ns->stream);
	if (ns->chunk != NULL)
		secret_free(ns->chunk);
	ns->stream = NULL;
	ns->chunk = NULL;
}

void
deal_boards(const struct seed_record *seed, struct board_range range,
    struct writers *ws, void (*progress)(unsigned long done, unsigned long total))
{
	unsigned long total = (unsigned long)range.high - range.low + 1;
	unsigned char owner[CARDS];
	struct number_source ns;

	number_source_init(&ns, seed, range.high);
	for (unsigned long b = range.low; b <= range.high; b++) {
		deal_from_number(number_source_board(&ns, (unsigned)b), owner);
		writers_board(ws, (unsigned)b, owner);
		if (progress != NULL && (b - range.low + 1) % PROGRESS_EVERY == 0)
			progress(b - range.low + 1, total);
	}
	if (progress != NULL)
		progress(total, total);
	number_source_free(&ns);
}
