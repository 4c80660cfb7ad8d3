/* A set read from one file of any format, for the tools that take sets
 * (dl-archive add and check, dl-web's check): a dl stream with every
 * header it carries, or a file any reader plugin reads.  Standard input
 * and pipes are read whole into memory first, never onto a disk (a set
 * not yet played is a secret), so that the first bytes can say what the
 * file is and a reader can still read it from its start. */
#ifndef DL_SET_INPUT_H
#define DL_SET_INPUT_H

#include "archive/deal_archive.h"
#include "base/error.h"
#include "files/readers.h"

struct set_input {
	const char *path;	/* NULL or "-": standard input */
	/* The file's name in messages when not its path (dl-web: the name
	 * of the file uploaded, never the server's private path); NULL:
	 * the path, escaped. */
	const char *shown;
	struct reader_options reader;	/* format (-f), flags, warnings */
	/* each board as it comes, with its dealer and vulnerability (enum
	 * dl_seat, enum dl_vulnerability; -1: its number's); -1 with *e
	 * ends the reading */
	int (*board)(struct set_input *in, unsigned board, const unsigned char owner[CARDS],
	    int dealer, int vulnerability, struct dl_error *e);
	void *arg;
	/* filled by set_input_read: */
	char *label;		/* the file as messages name it, escaped */
	size_t boards;		/* how many boards it gave (none: an error) */
	struct archive_set set;	/* what the file says of itself: event,
				 * site, date, generator, headers, source */
};

/* A set's boards held whole, for a check against the archive (dl-archive
 * check, dl-web's check) or a hand record (dl-web's): their numbers,
 * deals, dealers and vulnerabilities (their own, or -1: their numbers')
 * in the order read. */
struct set_boards {
	unsigned *numbers;
	unsigned char (*owner)[CARDS];
	int *dealer, *vulnerability;
	size_t n, cap;
};
/* The board callback that holds each board in in->arg, a struct
 * set_boards (zeroed at first). */
int set_boards_take(struct set_input *in, unsigned board, const unsigned char owner[CARDS],
    int dealer, int vulnerability, struct dl_error *e);
/* The deals wiped (a set perhaps not yet played), everything freed. */
void set_boards_free(struct set_boards *b);

/* Reads the whole set; -1 with *e, its message naming the file by its
 * label, its cause DL_CAUSE_FORMAT_UNKNOWN when no reader knows the
 * file's format. */
int set_input_read(struct set_input *in, struct dl_error *e);
void set_input_free(struct set_input *in);

#endif
