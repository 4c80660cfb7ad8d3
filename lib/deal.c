#include "bigdeal.h"
#include "deal.h"

#define PROGRESS_EVERY 10000

void
deal_boards(const struct seed_record *seed, struct board_range range,
    struct writers *ws, void (*progress)(unsigned long done, unsigned long total))
{
	struct bigdeal_stream *stream = secret_alloc(sizeof *stream);
	unsigned long total = (unsigned long)range.high - range.low + 1;
	unsigned char owner[CARDS];

	bigdeal_stream_init(stream, seed->random, seed->owner);
	for (unsigned long b = range.low; b <= range.high; b++) {
		deal_from_number(bigdeal_next(stream), owner);
		writers_board(ws, (unsigned)b, owner);
		if (progress != NULL && (b - range.low + 1) % PROGRESS_EVERY == 0)
			progress(b - range.low + 1, total);
	}
	if (progress != NULL)
		progress(total, total);
	secret_free(stream);
}
