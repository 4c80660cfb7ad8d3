/* What a stream says of its set beside its records, typed: the event,
 * where and when, its place among the event's sets, the generator, the
 * boards, the mapping, the solver, where its hand record is published
 * (docs/protocol.md, "Headers").  One
 * pair of functions writes it as header lines and reads it back, so that
 * no tool builds or parses a "#K: value" line by hand.
 *
 * Threads: every function may be called from several threads at once;
 * a description is one thread's. */
#ifndef DL_DESCRIPTION_H
#define DL_DESCRIPTION_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/util.h"

struct set_description {
	const char *version;	/* #V: the program that made the stream */
	const char *time;	/* #T: when */
	const char *event;	/* #I: */
	const char *site;	/* #S: */
	const char *date;	/* #D: YYYY.MM.DD */
	int64_t place;		/* #N: its place among its event's sets, 0: none */
	const char *record_url;	/* #U: where its hand record is published after play */
	const char *generator;	/* #G: */
	struct board_range boards;	/* #B: (high 0: none) */
	const char *mapping;	/* #M: */
	const char *solver;	/* #A: */
};

/* The lines set_description_lines writes at most. */
#define SET_DESCRIPTION_LINES 11

/* Its header lines, each allocated ("#I: Club Pairs"), in the order the
 * protocol's writers keep (V T I S D N U G B M A), those it has: how many. */
size_t set_description_lines(const struct set_description *d,
    char *lines[SET_DESCRIPTION_LINES]);
/* The lines' description, its texts pointing into them, zeroed for those
 * it lacks; a line of another key is passed over, and a count that is no
 * count is none (a #N: that is no number of sets, which the hand records
 * then do not print; a #B: that is no range, which a stream's reader has
 * refused before). */
void set_description_read(struct set_description *d, char *const *lines, size_t n);
/* The lines set_description_lines made, freed. */
void set_description_lines_free(char **lines, size_t n);

#endif
