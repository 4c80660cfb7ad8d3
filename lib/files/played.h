/* The boards of a played file, for dl-sqd verify --deals: any format a
 * reader plugin reads (lib/files/readers.h), each board at most once.
 *
 * Threads: played_read may run on several threads at once, each on its own
 * file, as far as the reader plugins allow (readers.h). */
#ifndef DL_PLAYED_H
#define DL_PLAYED_H

#include <stddef.h>

#include "deals/dealnum.h"
#include "base/error.h"

struct played_board {
	unsigned board;
	unsigned char owner[CARDS];
};

/* *boards is allocated (to free); -1 with *e naming the file and line.
 * The boards the file does not number count from first (the session's
 * first board; 0: 1), as dl-read --first counts them.
 * A board given twice is refused: a file could otherwise both match the
 * session and hold another deal for the same board.  So is a file that
 * says two things about a board (DL_IN_STRICT: two [Deal] tags in a PBN
 * game, LIN's qx| and ah| with two numbers), which another program may
 * read the other way. */
int played_read(const char *path, unsigned first, struct played_board **boards, size_t *n,
    struct dl_error *e);

#endif
