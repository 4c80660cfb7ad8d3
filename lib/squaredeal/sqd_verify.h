/* Checking a played set against a SquareDeal session: after the event,
 * anyone with the key file and the DV deals the session again and
 * compares it board by board with the file the players got.
 *
 * Threads: sqd_verify_free and sqd_session_of_file may be called from
 * several threads at once; sqd_verify_played is the main flow's, one thread
 * at a time: it deals the session from a seed and a generator state in
 * secret memory (util.h). */
#ifndef DL_SQD_VERIFY_H
#define DL_SQD_VERIFY_H

#include <stddef.h>

#include "base/error.h"
#include "files/played.h"
#include "squaredeal/sqd.h"

enum sqd_verdict {
	SQD_SAME,		/* the played deal is the session's */
	SQD_DIFFERENT,		/* the played deal is another */
	SQD_MISSING,		/* a board of the session that was not played */
	SQD_FOREIGN,		/* a played board that is not of the session */
	SQD_VERDICTS
};

struct sqd_board_verdict {
	unsigned board;
	enum sqd_verdict verdict;
};

/* The verdict on the whole file. */
enum sqd_match {
	SQD_MATCH_WHOLE,	/* every board of the session, each with its deal */
	/* Every board given is the session's, with its deal, but some of the
	 * session's are missing: a file of one board out of ten is no proof
	 * that the ten were the session's, so the check does not pass. */
	SQD_MATCH_PART,
	SQD_MATCH_NONE,		/* a board different or foreign, or none given */
};

struct sqd_verify {
	/* The session's boards in order, then the played boards that are not
	 * of the session in the file's order (a board played twice twice). */
	struct sqd_board_verdict *boards;
	size_t n;
	size_t count[SQD_VERDICTS];
	enum sqd_match match;
};

/* Deals boards r of a session (phase and session from 1, the reserve set
 * or the original) and compares them with the played boards.  -1 with *e
 * only when the tournament cannot deal the session (sqd_session_check). */
int sqd_verify_played(const struct sqd *t, const struct sqk *k, unsigned phase,
    unsigned session, int reserve, struct board_range r,
    const struct played_board *played, size_t nplayed, struct sqd_verify *v,
    struct dl_error *e);
void sqd_verify_free(struct sqd_verify *v);

/* The session a played file is named after: "rr02reserve.pbn" is session
 * 2 of the phase with prefix rr##, reserve set.  -1 for a name of no
 * session. */
int sqd_session_of_file(const struct sqd *t, const char *path, unsigned *phase,
    unsigned *session, int *reserve);

#endif
