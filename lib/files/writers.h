/* A run of format writers fed the same boards: every file is written under
 * a temporary name and all are published together at the end, or none.
 *
 * Threads: one thread drives a struct writers, the main flow's:
 * writers_begin creates its files and writers_finish publishes them
 * (outfile.h).  Within a run the writers that promise DL_CONCURRENT are
 * called on threads of the run's own (threads, below; ring.h), each by one
 * thread at a time and board after board; the others on the driving
 * thread. */
#ifndef DL_WRITERS_H
#define DL_WRITERS_H

#include <stddef.h>
#include <stdio.h>

#include "deals/dealnum.h"
#include "dl/plugin.h"
#include "base/error.h"
#include "files/format_list.h"
#include "files/outfile.h"
#include "base/ring.h"

struct writers;

struct writers_options {
	const char *prefix;	/* files PREFIX.SUFFIX; NULL: standard output */
	int crlf;		/* CRLF line ends in text formats */
	enum publish_mode publish;	/* what to do with existing files */
	const char *force;	/* the tool's option to replace them, or NULL */
	/* Formats whose board numbers wrap past their max_board
	 * (DL_WRAPS_PAST_MAX: CDS, KOPS) written there all the same: what
	 * Big Deal writes, for the drop-ins. */
	int past_limit;
	const char *generator;	/* for generator tags; NULL: this program */
	FILE *report;		/* when set, each published file's name goes here */
	/* Writers built into the program, found by name before the plugin
	 * directories (dl-bigdealx's stats); NULL-terminated, or NULL. */
	const struct dl_plugin *const *builtins;
	/* With a prefix: the list's last format is written to standard
	 * output, not to PREFIX.SUFFIX, and may share its suffix with
	 * another (dl-bigdealx's stdout: PBN there, beside the files). */
	int last_to_stdout;
	/* Threads for the writers that may run beside each other
	 * (DL_CONCURRENT): 0, one a core; 1, none (every writer in the
	 * caller's thread).  Either way each file gets the same bytes. */
	unsigned threads;
	/* The files are read back and removed at once (dl-web zips them):
	 * not made durable (outfile's scratch). */
	int scratch;
	/* Called with each warning a writer gives (out->warn), one escaped
	 * line "FORMAT: ..."; NULL: none is said.  It may be called from
	 * the writers' threads. */
	void (*warn)(const char *msg, void *arg);
	void *warn_arg;
	/* Each board, as it goes to the writers, goes here too (a dealing
	 * tool's record of the set in the archive, lib/session/recording.c), on the
	 * caller's thread; -1 with *e ends the run.  NULL: nowhere. */
	int (*tap)(void *arg, unsigned board, const unsigned char owner[CARDS],
	    struct dl_error *e);
	void *tap_arg;
};
#define WRITERS_THREADS_MAX RING_THREADS_MAX

/* Loads the plugins of the list; -1 with *e for an unknown or broken
 * plugin, two formats of one suffix, or (without replace) an output file
 * that exists already. */
int writers_open(struct writers **ws, const struct format_list *formats,
    const struct writers_options *opt, struct dl_error *e);
/* headers: the stream's header lines; event: the #I: text or NULL;
 * analysed: every board will come with its analysis; own_dv: boards come
 * with their own dealers and vulnerabilities (a deals+dv stream).  -1 when a format
 * cannot hold board high. */
int writers_begin(struct writers *w, unsigned low, unsigned high, const char *event,
    char *const *headers, size_t nheaders, int analysed, int own_dv, struct dl_error *e);
/* dealer and vulnerability: the board's own (enum dl_seat, enum
 * dl_vulnerability), or -1 for its number's.  analysis: the board's, or
 * NULL.  With threads, a writer's failure may
 * come out of a later call, or of writers_finish; when two things fail
 * close together (two writers, or a writer and the caller's input), which
 * one is reported may depend on the threads' timing.  One thread drives a
 * struct writers. */
int writers_board(struct writers *w, unsigned board, const unsigned char owner[CARDS],
    int dealer, int vulnerability, const struct dl_analysis *analysis, struct dl_error *e);
/* The formats of the run that do not show a board's own dealer and
 * vulnerability (no DL_KEEPS_DEALER, or a plugin before version 4), one
 * a call from *i on (start at 0): a name, or NULL when there are no more.
 * For the tool's warning when boards have their own. */
const char *writers_without_dealer(const struct writers *ws, size_t *i);
/* Ends every format and publishes every file, or none; frees w either way. */
int writers_finish(struct writers *w, struct dl_error *e);
/* Removes what was written and frees w: after an error. */
void writers_abort(struct writers *w);

/* Whether format p holds board high (past_limit: as writers_options):
 * 0, or -1 with *e saying "format NAME holds boards up to N, not board H"
 * (an input error), for the caller to refuse the run or leave the format
 * out, with its own tail. */
int writer_holds(const struct dl_plugin *p, unsigned high, int past_limit,
    struct dl_error *e);

#endif
