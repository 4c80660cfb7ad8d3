/* Duplimate .dup boards, shared by dup and dupblind: 156 bytes a board,
 * the BRI part, the DGE part and a 10-byte trailer.  The trailer holds the
 * number of boards in two digits, hence the limit of 99 boards. */
#ifndef DL_PLUGINS_DUP_COMMON_H
#define DL_PLUGINS_DUP_COMMON_H

#include <stdlib.h>

#include "bri_dge.h"

#define DUP_MAX_BOARD 99

/* blind: spaces in place of the DGE part. */
static inline void
dup_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    int blind)
{
	TEXTBUF(tb, out);

	bri_part(&tb, deal);
	if (blind)
		textbuf_fill(&tb, ' ', DGE_PART);
	else
		dge_part(&tb, deal);
	TEXTBUF_ADD(&tb, "YN1  0 ");
	textbuf_two_digits(&tb, run->nboards % 100);
	textbuf_char(&tb, ' ');
	textbuf_flush(&tb);
}

/* Reading.  A DUP record's trailer, as Duplimate's conversion notes give
 * it: "Random hands?" and "Backwards counting?" as Y or N, then three
 * fields left-aligned in spaces: the lowest board (3 bytes), the copies
 * (2) and the highest board (3).  Big Deal writes it after every board
 * (lowest 1, copies 0, the count of boards as the highest);
 * deal-convert after the first board only, ten NULs after the others. */
#define DUP_RECORD 156
#define DUP_TRAILER (DUP_RECORD - BRI_PART - DGE_PART)

struct dup_reading {
	unsigned first;		/* the first record's board number, 0 before it */
	unsigned lowest;	/* the first trailer's lowest board (1 when blank) */
	int lowest_differs;	/* a trailer since gave another: said once */
	unsigned count;		/* records read */
	int blind_allowed;	/* dupblind: a DGE part may be all spaces */
};

/* The trailer's lowest board in *lowest, 0 when it gives none: 1, or 0
 * for a record after the first without a trailer (all NULs or all
 * spaces); -1 after in->fail. */
static inline int
dup_trailer_read(struct dl_in *in, unsigned board, const unsigned char *t, int first,
    long *lowest)
{
	*lowest = 0;
	if (!first && (all_bytes(t, DUP_TRAILER, '\0') || all_bytes(t, DUP_TRAILER, ' ')))
		return 0;
	for (unsigned i = 2; i < DUP_TRAILER; i++)
		if (t[i] != ' ' && (t[i] < '0' || t[i] > '9'))
			goto garbled;
	if ((t[0] != 'Y' && t[0] != 'N') || (t[1] != 'Y' && t[1] != 'N'))
		goto garbled;
	for (unsigned i = 2; i < 5 && t[i] != ' '; i++)
		*lowest = *lowest * 10 + (t[i] - '0');
	return 1;
garbled:
	in->fail(in, "board %u: not a DUP trailer (YN1  0 32 , say)", board);
	return -1;
}

/* The BRI part decides; the DGE part must say the same, or be blank. */
static inline int
dup_record_read(struct dl_in *in, struct dup_reading *r, unsigned board,
    const unsigned char *record, unsigned char owner[DL_CARDS])
{
	const unsigned char *dge = record + BRI_PART;
	unsigned char shown[DL_CARDS];
	char name[3];

	if (bri_part_read(in, board, record, owner) == -1)
		return -1;
	if (all_bytes(dge, DGE_PART, ' ')) {
		if (r->blind_allowed)
			return 0;
		in->fail(in, "board %u: no DGE part: a dupblind file (-f dupblind)", board);
		return -1;
	}
	if (dge_part_read(in, board, dge, DGE_PART, shown) == -1)
		return -1;
	for (unsigned card = 0; card < DL_CARDS; card++)
		if (shown[card] != owner[card]) {
			in->fail(in, "board %u: the %s is %s's in the BRI part, %s's in the DGE part",
			    board, card_name(card, name), seat_names[owner[card]],
			    shown[card] == NO_SEAT ? "no one" : seat_names[shown[card]]);
			return -1;
		}
	return 0;
}

static inline int
dup_reading_begin(struct dl_in *in, void **state, int blind_allowed)
{
	struct dup_reading *r = calloc(1, sizeof *r);

	if (r == NULL) {
		in->fail(in, "out of memory");
		return -1;
	}
	r->blind_allowed = blind_allowed;
	*state = r;
	return 0;
}

/* Boards count from the first trailer's lowest board, or from the host's
 * first board (1 unless told otherwise) when that is 1 or blank: Big Deal
 * writes 1 whatever the run.  Every trailer there is repeats the run's
 * lowest board: one that gives another leaves the file two ways to number
 * (reading.h's ambiguous). */
static inline int
dup_read_board(struct dl_in *in, struct dl_board_in *board, void *state)
{
	struct dup_reading *r = state;
	unsigned char record[DUP_RECORD];
	int got;

	for (;;) {
		unsigned number = (r->first != 0 ? r->first : in->first_board) + r->count++;
		if ((got = read_record(in, number, record, sizeof record)) != 1)
			return got;
		long lowest;
		int trailer = dup_trailer_read(in, number, record + DUP_RECORD - DUP_TRAILER,
		    r->count == 1, &lowest);
		if (trailer == -1)
			return -1;
		if (lowest < 1)
			lowest = 1;
		if (r->count == 1) {
			/* Big Deal's 1 says nothing: its run may start anywhere */
			r->lowest = (unsigned)lowest;
			number = r->first = lowest > 1 ? (unsigned)lowest : in->first_board;
		} else if (trailer == 1 && (unsigned)lowest != r->lowest && !r->lowest_differs) {
			r->lowest_differs = 1;
			if (ambiguous(in, "the first record's is read", "board %u: the trailer's "
			    "lowest board is %ld, the first record's %u", number, lowest,
			    r->lowest) == -1)
				return -1;
		}
		board->board = number;
		if (dup_record_read(in, r, number, record, board->owner) == -1)
			return -1;
		if ((got = deal_finish(in, number, board->owner)) != 0)
			return got;
	}
}

static inline void
dup_read_end(struct dl_in *in, void *state)
{
	(void)in;
	free(state);
}

/* Sniffing the first record: 3 when it is a DUP record with a DGE part,
 * 2 when with a blank one (dupblind's board 1), 0 when no DUP record. */
static inline int
dup_first_record(const unsigned char *head, size_t len)
{
	const unsigned char *t = head + DUP_RECORD - DUP_TRAILER;

	if (len < DUP_RECORD || (len < 4096 && len % DUP_RECORD != 0) ||
	    !bri_part_looks_right(head) || (t[0] != 'Y' && t[0] != 'N') ||
	    (t[1] != 'Y' && t[1] != 'N'))
		return 0;
	if (all_bytes(head + BRI_PART, DGE_PART, ' '))
		return 2;
	return dge_part_looks_right(head + BRI_PART) ? 3 : 0;
}

#endif
