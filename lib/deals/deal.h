/* Dealing a run of boards in one process: seed -> deal numbers -> deals ->
 * format writers, what dl-stream | dl-map | dl-fmt do in a pipe.
 *
 * Threads: deal_boards is the main flow's, one call at a time: its state is
 * in secret memory (util.h) and it drives writers (writers.h).  It makes
 * the deals on a thread of its own (ring.h) while the calling thread hands
 * the ones before to the writers; the generators and mappings it runs
 * there share nothing that is not made under pthread_once. */
#ifndef DL_DEAL_H
#define DL_DEAL_H

#include "error.h"
#include "generator.h"
#include "util.h"
#include "writers.h"

/* progress, when not NULL, is called now and then with the boards done.
 * The deals are mapped with the generator's natural mapping. */
int deal_boards(const struct seed_record *seed, struct board_range range,
    struct writers *ws, void (*progress)(unsigned long done, unsigned long total),
    struct dl_error *e);

#endif
