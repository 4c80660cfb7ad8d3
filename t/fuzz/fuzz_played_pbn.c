/* The played deals a player gives dl-sqd verify --deals (lib/pbn.c
 * played_read, deal_from_pbn): a PBN file's [Board] and [Deal] tags, or a
 * deals stream when the file is a .tso.  An input that begins with '#' or
 * a digit is read as a .tso, any other as PBN.  Each deal accepted is
 * complete and its board in range, a .tso's boards follow on from each
 * other, and each deal written as PBN (deal_to_pbn) reads back as the same
 * deal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pbn.h"
#include "util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int tso = size > 0 && (data[0] == '#' || (data[0] >= '0' && data[0] <= '9'));
	const char *path = fuzz_tmp_file(tso ? "played.tso" : "played.pbn", data, size);
	struct played_board *boards;
	struct dl_error e = { 0 };
	size_t n;

	if (played_read(path, &boards, &n, &e) == -1) {
		fuzz_check_error(&e, "played_read");
		if (boards != NULL || n != 0)
			fuzz_fail("played_read refused the file and kept %zu boards", n);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		const struct played_board *p = &boards[i];
		unsigned char again[CARDS];
		char text[PBN_DEAL_MAX];
		if (p->board < 1 || p->board > BOARD_MAX || !deal_is_complete(p->owner))
			fuzz_fail("played board %u accepted incomplete or out of range",
			    p->board);
		if (tso && i > 0 && p->board != boards[i - 1].board + 1)
			fuzz_fail("board %u follows board %u", p->board, boards[i - 1].board);
		/* text is exactly PBN_DEAL_MAX: ASan sees a write past it */
		deal_to_pbn(p->owner, text);
		if (deal_from_pbn(text, again) == -1 || memcmp(again, p->owner, CARDS) != 0)
			fuzz_fail("board %u reads back as another deal", p->board);
	}
	/* a .tso has boards, or it is refused */
	if (tso && n == 0)
		fuzz_fail("a .tso without boards accepted");
	free(boards);
	return 0;
}
