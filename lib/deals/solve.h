/* Double-dummy analysis by DDS (libdds, the solver most hand-record
 * programs use): a batch of deals in, each deal's 20 trick counts and its
 * par result out (docs/analysis.md), par checked against our scoring
 * table (analysis.h) so that a misreading of DDS's conventions cannot pass
 * unseen.  dl-dd and dl-deal --analysis solve through it; a program that
 * calls it links -ldds.
 *
 * Threads: the main flow's, one solver at a time in a process: DDS's
 * thread count and memory are the process's (SetMaxThreads,
 * FreeMemory).  solver_start allocates the solver's state in secret
 * memory (util.h: a deal before play is secret) and solver_free wipes
 * it; DDS solves each batch on threads of its own (OpenMP), which run
 * DDS alone, no code of lib/, and which it starts itself, not through
 * cleanup_thread_create: a signal may reach one of them, whose handler
 * wipes and unlinks as on the main thread (cleanup.h).  What DDS copies
 * of the deals into its own memory is DDS's: solver_free has it freed
 * (FreeMemory), not wiped. */
#ifndef DL_SOLVE_H
#define DL_SOLVE_H

#include <stddef.h>

#include "deals/dealnum.h"
#include "dl/plugin.h"
#include "base/error.h"

/* CalcAllTables solves at most 32 deals of five strains a call. */
#define SOLVE_BATCH 32

struct solver;

/* threads: DDS's threads, 0 for as many as the machine has cores.  The
 * caller has run sodium_init (secret memory). */
struct solver *solver_start(unsigned threads);

/* Solves n (1 to SOLVE_BATCH) deals: board[i]'s owner[i] (enum dl_seat a
 * card, AS..2C), par for its dealer[i] (enum dl_seat) and
 * vulnerability[i] (enum dl_vulnerability), into analysis[i].  With timed
 * the deals are solved one at a time, each over every thread, and
 * timed(ctx, board, seconds) is told each one's time; else in one batch
 * call.  -1 with *e (DL_ERR_SYSTEM) when DDS fails or its par does not
 * add up. */
int solver_solve(struct solver *s, size_t n, const unsigned board[],
    const unsigned char (*owner)[CARDS], const int dealer[], const int vulnerability[],
    struct dl_analysis analysis[], void (*timed)(void *ctx, unsigned board, double seconds),
    void *ctx, struct dl_error *e);

/* Solves the n boards from board first on, each for its own dealer[i]
 * and vulnerability[i] (a set read from a file), or its number's
 * (dl_dealer, dl_vulnerability) where one is -1 or the array NULL,
 * SOLVE_BATCH at a time: owner[i] is board first + i's, analysis[i] its
 * result.  After
 * each batch done(ctx, boards), when not NULL, is told how many of the n
 * are done (for a progress line).  -1 with *e as solver_solve. */
int solver_solve_run(struct solver *s, unsigned first, size_t n,
    const unsigned char (*owner)[CARDS], const int own_dealer[], const int own_vulnerability[],
    struct dl_analysis analysis[],
    void (*done)(void *ctx, size_t boards), void *ctx, struct dl_error *e);

/* "dds MAJOR.MINOR.PATCH": the #A: header's text. */
void solver_name(char *buf, size_t size);

/* Wipes and frees the solver, and has DDS free its memory. */
void solver_free(struct solver *s);

#endif
