#include "bigdeal.h"
#include "deal.h"

#define PROGRESS_EVERY 10000

void
number_source_init(struct number_source *ns, const struct seed_record *seed)
{
	ns->seed = seed;
	ns->stream = NULL;
	if (seed->generator == GENERATOR_BIGDEAL) {
		ns->stream = secret_alloc(sizeof *ns->stream);
		bigdeal_stream_init(ns->stream, seed->random, seed->owner);
	}
}

u128
number_source_board(struct number_source *ns, unsigned board)
{
	if (ns->stream != NULL)
		return bigdeal_next(ns->stream);
	return dl256_deal_number(ns->seed->key, ns->seed->event, ns->seed->session, board);
}

void
number_source_free(struct number_source *ns)
{
	if (ns->stream != NULL)
		secret_free(ns->stream);
	ns->stream = NULL;
}

void
deal_boards(const struct seed_record *seed, struct board_range range,
    struct writers *ws, void (*progress)(unsigned long done, unsigned long total))
{
	unsigned long total = (unsigned long)range.high - range.low + 1;
	unsigned char owner[CARDS];
	struct number_source ns;

	number_source_init(&ns, seed);
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
