/* Dealing a run of boards in one process: seed -> deal numbers -> deals ->
 * format writers, what dl-stream | dl-map | dl-fmt do in a pipe.
 *
 * Threads: deal_boards is the main flow's, one call at a time: its state is
 * in secret memory (util.h) and it drives writers (writers.h).  It makes
 * the deals on a thread of its own (ring.h) while the calling thread hands
 * the ones before to the writers; the generators and mappings it runs
 * there share nothing that is not made under pthread_once.  An analyser
 * (deal_boards_analysed) is called on the calling thread, chunk by chunk,
 * before the chunk is written. */
#ifndef DL_DEAL_H
#define DL_DEAL_H

#include "base/error.h"
#include "keys/generator.h"
#include "base/util.h"
#include "files/writers.h"

/* progress, when not NULL, is called now and then with the boards done.
 * The deals are mapped with the generator's natural mapping. */
int deal_boards(const struct seed_record *seed, struct board_range range,
    struct writers *ws, void (*progress)(unsigned long done, unsigned long total),
    struct dl_error *e);

/* What analyses the deals before they are written (dl-deal's double-dummy
 * analysis, solve.h, which this file does not call: the tools that deal
 * without it do not link libdds).  analyse is given the n boards from
 * first on (owner[i] is board first + i's), each with its own dealer[i]
 * and vulnerability[i] (enum dl_seat, enum dl_vulnerability: a set read
 * from a file, whose par they give), or its number's where one is -1 or
 * the array NULL (every board dealt here), and fills analysis[i]; 0, or
 * -1 with *e, which ends the run. */
struct deal_analyser {
	int (*analyse)(void *ctx, unsigned first, size_t n, const unsigned char (*owner)[CARDS],
	    const int dealer[], const int vulnerability[], struct dl_analysis analysis[],
	    struct dl_error *e);
	void *ctx;
};

/* deal_boards, each board written with its analysis (the writers begun
 * with analysed set); the analyses, as the deals, in secret memory. */
int deal_boards_analysed(const struct seed_record *seed, struct board_range range,
    struct writers *ws, void (*progress)(unsigned long done, unsigned long total),
    const struct deal_analyser *analyser, struct dl_error *e);

#endif
