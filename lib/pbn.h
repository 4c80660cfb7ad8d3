/* Reading deals from files other programs wrote.  For now PBN's [Board]
 * and [Deal] tags, and dl's own .tso; the readers of every format build on
 * this (docs/formats-in.md when it comes). */
#ifndef DL_PBN_H
#define DL_PBN_H

#include <stddef.h>

#include "dealnum.h"
#include "error.h"

/* A PBN deal string "N:AKQ.xx... ..." (any first seat, hands clockwise,
 * suits by dots): 0 and the deal when it is a complete deal, else -1. */
int deal_from_pbn(const char *text, unsigned char owner[CARDS]);
/* The deal as PBN writes it from North: "N:" and four hands (text holds
 * at least PBN_DEAL_MAX bytes). */
#define PBN_DEAL_MAX (2 + CARDS + 4 * 3 + 3 + 1)
void deal_to_pbn(const unsigned char owner[CARDS], char *text);

/* A board of a played file. */
struct played_board {
	unsigned board;
	unsigned char owner[CARDS];
};

/* The boards of a file: a .tso (deals stream, by its suffix) or PBN.
 * *boards is allocated (to free); -1 with *e naming the file and line. */
int played_read(const char *path, struct played_board **boards, size_t *n,
    struct dl_error *e);

#endif
