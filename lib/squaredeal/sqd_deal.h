/* Dealing a SquareDeal tournament's sessions to files as the reference
 * does (squaredeal.md): one file a session and format, named by the
 * phase's prefix, and for sessions whose boards continue each other one
 * more file holding them all, in the formats that combine.
 *
 * Threads: sqd_session_check and sqd_session_boards may be called from
 * several threads at once; sqd_make_phase is the main flow's, one call at a
 * time: it deals through deal_boards and writes through writers.h, which
 * start threads of their own. */
#ifndef DL_SQD_DEAL_H
#define DL_SQD_DEAL_H

#include <stdio.h>

#include "base/error.h"
#include "files/outfile.h"
#include "squaredeal/sqd.h"
#include "files/writers.h"

struct sqd_make_options {
	const struct format_list *formats;
	const char *dir;		/* where the files go; NULL: the .sqd's */
	/* The boards of a phase whose boards are chosen when dealing ("?"),
	 * as the operator gave them (-b); NULL: not given. */
	const char *boards;
	int reserve;			/* the reserve set, not the original */
	enum publish_mode publish;	/* PUBLISH_SAME, or PUBLISH_REPLACE */
	const char *force;		/* the option that replaces, for messages */
	FILE *report;			/* each published file's name; or NULL */
	/* a format left out of a phase whose boards it cannot hold */
	struct dl_warnings *warnings;
	/* a writer's warnings (writers_options' warn), or NULL */
	void (*warn)(const char *msg, void *arg);
	/* Each session's set as it is dealt, also here (dl-sqd make's record
	 * in the archive, lib/session/recording.c), the files that combine sessions
	 * aside: record_begin before its first board may set wo's tap;
	 * record_end after its last, before its files are published, with ok
	 * 1 (keep it) or 0 (the run failed).  NULL: nowhere. */
	int (*record_begin)(void *arg, const struct sqd *t, unsigned phase, unsigned session,
	    const char *prefix, struct writers_options *wo, struct dl_error *e);
	int (*record_end)(void *arg, int ok, struct dl_error *e);
	void *record_arg;
};

/* -1 with *e unless session (from 1) of phase (from 1) is the
 * tournament's, its DV is known and k holds its key. */
int sqd_session_check(const struct sqd *t, const struct sqk *k, unsigned phase,
    unsigned session, struct dl_error *e);
/* The boards a session deals: its phase's, or for a "?" phase the boards
 * given (the text of -b, or NULL); -1 with *e when there are none. */
int sqd_session_boards(const struct sqd *t, unsigned phase, unsigned session,
    const char *boards, struct board_range *r, struct dl_error *e);
/* Sessions sessions.low to sessions.high of phase: each one's files,
 * then a combined file for each run of them that continue each other's
 * boards.  sqd_path is the .sqd, whose directory the files go to unless
 * opt->dir is set.  Files already published stay on a later error. */
int sqd_make_phase(const char *sqd_path, const struct sqd *t, const struct sqk *k,
    unsigned phase, struct board_range sessions, const struct sqd_make_options *opt,
    struct dl_error *e);

#endif
