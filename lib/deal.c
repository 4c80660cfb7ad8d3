#include "deal.h"
#include "mapping.h"

#define PROGRESS_EVERY 10000

int
deal_boards(const struct seed_record *seed, struct board_range range,
    struct writers *ws, void (*progress)(unsigned long done, unsigned long total),
    struct dl_error *e)
{
	const struct mapping *map = mapping_find(seed->generator->mapping);
	unsigned long total = (unsigned long)range.high - range.low + 1;
	unsigned char owner[CARDS];
	struct number_source ns;
	int status = 0;

	number_source_init(&ns, seed, range.high);
	for (unsigned long b = range.low; b <= range.high && status == 0; b++) {
		map->deal(number_source_board(&ns, (unsigned)b), owner);
		status = writers_board(ws, (unsigned)b, owner, NULL, e);
		if (progress != NULL && (b - range.low + 1) % PROGRESS_EVERY == 0)
			progress(b - range.low + 1, total);
	}
	if (progress != NULL && status == 0)
		progress(total, total);
	number_source_free(&ns);
	return status;
}
