#include <stdlib.h>
#include <string.h>

#include "files/played.h"
#include "files/readers.h"
#include "base/util.h"

/* The boards seen so far, an open-addressing set kept at most half full,
 * so that a file of a million boards is checked in linear time. */
struct board_set {
	unsigned *slots;	/* 0: empty (board numbers start at 1) */
	size_t size;
	size_t count;
};

static size_t
slot_of(const struct board_set *set, unsigned board)
{
	size_t i = (board * 2654435761u) & (set->size - 1);

	while (set->slots[i] != 0 && set->slots[i] != board)
		i = (i + 1) & (set->size - 1);
	return i;
}

/* 1 when board was in the set already; else adds it, 0. */
static int
board_set_add(struct board_set *set, unsigned board)
{
	if (2 * (set->count + 1) > set->size) {
		struct board_set bigger = { NULL, set->size ? 2 * set->size : 64, 0 };
		bigger.slots = xcalloc(bigger.size, sizeof *bigger.slots);
		for (size_t i = 0; i < set->size; i++)
			if (set->slots[i] != 0)
				bigger.slots[slot_of(&bigger, set->slots[i])] = set->slots[i];
		bigger.count = set->count;
		free(set->slots);
		*set = bigger;
	}
	size_t i = slot_of(set, board);
	if (set->slots[i] == board)
		return 1;
	set->slots[i] = board;
	set->count++;
	return 0;
}

static void
add_board(struct played_board **all, size_t *n, const struct dl_board_in *b)
{
	/* a power of two: grow when the count reaches one */
	if ((*n & (*n - 1)) == 0)
		*all = xreallocarray(*all, *n ? 2 * *n : 1, sizeof **all);
	(*all)[*n].board = b->board;
	memcpy((*all)[*n].owner, b->owner, CARDS);
	(*n)++;
}

int
played_read(const char *path, unsigned first, struct played_board **boards, size_t *n,
    struct dl_error *e)
{
	/* a file that reads two ways cannot be checked against one session */
	struct reader_options opt = { .flags = DL_IN_STRICT, .first = first };
	struct board_set seen = { NULL, 0, 0 };
	struct deal_reader *r;
	struct dl_board_in b;
	int got;

	*boards = NULL;
	*n = 0;
	if (reader_open(&r, path, &opt, e) == -1)
		return -1;
	while ((got = reader_next(r, &b, e)) == 1) {
		if (board_set_add(&seen, b.board)) {
			got = reader_board_error(r, e, "board %u appears twice", b.board);
			break;
		}
		add_board(boards, n, &b);
	}
	/* an empty file, or one of headers alone, is no record of play */
	if (got == 0 && *n == 0)
		got = dl_error_set(e, DL_ERR_INPUT, "no boards in %s", reader_name(r));
	reader_close(r);
	free(seen.slots);
	if (got == -1) {
		free(*boards);
		*boards = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}
