/* A session dealt in one process, the one way dl-deal and dl-web deal:
 * a fresh seed, its deals through the writers (with the double-dummy
 * analysis when asked), the set recorded in the archive before the files
 * are published (lib/session/recording.c).  What dl-seed | dl-stream | dl-map |
 * dl-dd | dl-fmt do in a pipe. */
#ifndef DL_SESSION_H
#define DL_SESSION_H

#include <stdint.h>

#include "files/format_list.h"
#include "keys/seed.h"
#include "base/util.h"
#include "files/writers.h"

/* Who analyses the deals, double dummy: start before the first board (the
 * run's number of boards), analyse as deal_analyser's (deal.h), stop after
 * the last (also after a failure), name the #A: header's text. */
struct session_analyser {
	int (*start)(void *ctx, unsigned long total, int shown, struct dl_error *e);
	int (*analyse)(void *ctx, unsigned first, size_t n, const unsigned char (*owner)[CARDS],
	    const int dealer[], const int vulnerability[], struct dl_analysis analysis[],
	    struct dl_error *e);
	void (*stop)(void *ctx);
	void (*name)(void *ctx, char *buf, size_t size);
	/* before start: solved(arg, done, total) is to be told, as the
	 * analysis comes back board by board, how many of the run's boards
	 * are solved, and about once a second while none more is (done the
	 * same) (NULL: nobody asks).  NULL when the analyser cannot
	 * tell (session_dds: dl-deal shows its own progress line). */
	void (*watch)(void *ctx, void (*solved)(void *arg, unsigned long done,
	    unsigned long total), void *arg);
	void *ctx;
};

/* DDS in this process (lib/deals/solve.c), with a progress line on a
 * terminal when shown: dl-deal's (lib/session/analyse_dds.c). */
extern const struct session_analyser session_dds;
/* dl-dd, the tool, beside this program, a process of its own for each
 * chunk of boards: dl-web's (lib/session/analyse_child.c), which then does not
 * load DDS, whose start costs every request 20 ms, for requests that
 * do not analyse.  Watched (solved), it gives dl-dd the boards as many at
 * a time as the machine has cores, so that they come back in pieces:
 * each piece still keeps every core busy, and a piece's dl-dd costs a
 * few milliseconds of the hundreds a board takes. */
extern const struct session_analyser session_dl_dd;

struct session {
	/* what to deal and where to */
	const struct format_list *formats;
	struct writers_options wo;
	const char *event, *site, *date;	/* #I:, #S:, #D:, or NULL */
	long long sets_of_event;	/* #N:, the sets dealt for the event; 0: none */
	/* #U:, where the hand record is published after play (checked by
	 * record_url_check; session_deal refuses it should it hold the
	 * seed's secret), or NULL */
	const char *record_url;
	/* sets_of_event counted by session_deal, with the archive locked
	 * from the count to the commit (record and event needed): exact for
	 * certain, but every other writer waits while the set is dealt */
	int count_locked;
	struct board_range boards;
	int analysis;			/* the double-dummy analysis too, */
	const struct session_analyser *analyser;	/* by this */
	int show_analysis;		/* a progress line of it on standard error */
	/* called now and then with the boards dealt, or NULL */
	void (*progress)(unsigned long done, unsigned long total);
	/* with the analysis, called as its boards are solved (the analyser's
	 * watch; never when it has none), or NULL: for a page that shows
	 * how far the analysis is, the boards solved of the total; called
	 * too about once a second while none more is (done the same) */
	void (*solved)(void *arg, unsigned long done, unsigned long total);
	void *solved_arg;
	struct seed_source source;
	const unsigned char *owner;	/* Big Deal's owner hash, or NULL */
	/* the archive: record the set (in archive, NULL: the default),
	 * saying it came from where */
	int record;
	const char *archive, *where;
	/* the federation's archive the set is checked against before it is
	 * published (NULL: DL_SHARED_ARCHIVE's, if any; recording_start) */
	const char *shared;
	/* after session_deal: the seed (secret memory, the caller's to
	 * secret_free) when keep_seed, the entropy credited, the set's number
	 * in the archive */
	int keep_seed;
	struct seed_record *seed;
	unsigned long bits;
	int64_t set_id;
};

/* A hand record of a set not dealt here: the boards of a file a club
 * already has (its scoring program's PBN), with their double-dummy
 * tricks and par when asked, through the writers (html, pdf): what
 * dl-read FILE | dl-dd | dl-fmt -f html,pdf do in a pipe, for dl-web.
 * Nothing is recorded in the archive: the set was not dealt here. */
struct set_boards;
struct hand_record {
	const struct format_list *formats;
	struct writers_options wo;
	/* what the file says of itself (set_input's set), or NULL: each
	 * kept as a stream's header would keep it, else left out (an
	 * event or site as dl-read takes it, a date made PBN's) */
	const char *event, *site, *date;
	/* #U:, where the hand record is published (record_url_check), or NULL */
	const char *record_url;
	int analysis;			/* the double-dummy analysis too, */
	const struct session_analyser *analyser;	/* by this */
	/* the boards, in a row, each with its own dealer and vulnerability
	 * or its number's (set_input.h) */
	const struct set_boards *boards;
	/* with the analysis, told as its boards are solved, as a session's
	 * solved is; NULL: not watched */
	void (*solved)(void *arg, unsigned long done, unsigned long total);
	void *solved_arg;
};

/* The boards of a hand record run in a row, each once, as a stream's do
 * (docs/protocol.md): their range, or -1 with an input error saying
 * which board breaks it. */
int set_boards_range(const struct set_boards *b, struct board_range *range,
    struct dl_error *e);
/* The hand record's files; 0, or -1 with *e (an input error for boards
 * that do not run in a row, each once), nothing published. */
int session_hand_record(const struct hand_record *h, struct dl_error *e);

/* 1 when the formats hold a hand record (html, pdf), which shows the
 * analysis. */
int session_wants_analysis(const struct format_list *list);
/* Deals the session; 0, or -1 with *e (an archive's error prefixed
 * "archive: "), nothing published. */
int session_deal(struct session *s, struct dl_error *e);

#endif
