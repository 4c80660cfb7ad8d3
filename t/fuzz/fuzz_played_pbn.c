/* The played deals a player gives dl-sqd verify --deals (lib/files/played.c
 * played_read, through the reader plugins): an input that begins with '#'
 * or a digit is a .tso, any other a .pbn, by the file's suffix.  Each deal
 * accepted is complete and its board in range, no board comes twice, a
 * .tso's boards follow on from each other, and a file without boards is
 * refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "files/played.h"
#include "base/util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int tso = size > 0 && (data[0] == '#' || (data[0] >= '0' && data[0] <= '9'));
	const char *path = fuzz_tmp_file(tso ? "played.tso" : "played.pbn", data, size);
	struct played_board *boards;
	struct dl_error e = { 0 };
	size_t n;

	if (played_read(path, 0, &boards, &n, &e) == -1) {
		fuzz_check_error(&e, "played_read");
		if (boards != NULL || n != 0)
			fuzz_fail("played_read refused the file and kept %zu boards", n);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		const struct played_board *p = &boards[i];
		if (p->board < 1 || p->board > BOARD_MAX || !deal_is_complete(p->owner))
			fuzz_fail("played board %u accepted incomplete or out of range",
			    p->board);
		if (tso && i > 0 && p->board != boards[i - 1].board + 1)
			fuzz_fail("board %u follows board %u", p->board, boards[i - 1].board);
		for (size_t j = 0; j < i; j++)
			if (boards[j].board == p->board)
				fuzz_fail("board %u accepted twice", p->board);
	}
	/* a file has boards, or it is refused */
	if (n == 0)
		fuzz_fail("a file without boards accepted");
	free(boards);
	return 0;
}
