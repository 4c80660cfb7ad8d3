/* Output files that appear whole or not at all: written under a temporary
 * name in the same directory, then published by an atomic rename.  Without
 * replace, publishing never overwrites an existing file (old deal files
 * are how series get replayed).
 *
 * Threads: spool_create may be called from any thread; the rest is the main
 * flow's, one thread at a time.  outfile_create reads the umask by setting
 * it (a file another thread made meanwhile would miss it) and registers the
 * temporary file with the cleanup module, whose guard holds in the calling
 * thread alone (cleanup.h). */
#ifndef DL_OUTFILE_H
#define DL_OUTFILE_H

#include <stdio.h>
#include <sys/types.h>

#include "base/error.h"

struct outfile {
	char *path;
	char *tmp;		/* NULL once published or discarded; until
				 * then the cleanup module removes it should
				 * the tool end */
	FILE *fp;
	char *buffer;		/* fp's, wiped when it closes: deals before play */
	mode_t mode;		/* the published file's; 0600 until then */
	/* read back and removed at once (dl-web's files, zipped): not
	 * forced onto the disk with fsync, so that deals not yet played
	 * need not reach it.  Set after outfile_create. */
	int scratch;
};

enum publish_mode {
	PUBLISH_NEW,		/* never replace an existing file */
	PUBLISH_REPLACE,	/* replace it (--force) */
	/* replace it only when it has the same bytes: regenerating a set of
	 * deals must succeed, and refresh the file's time for make(1) */
	PUBLISH_SAME,
};

/* mode: 0600 for secrets, 0666 (less the umask) for deal files.  NULL
 * with *e set when no temporary file can be made. */
FILE *outfile_create(struct outfile *of, const char *path, mode_t mode, struct dl_error *e);
/* Whether a file may be published at path: -1 with *e ("NAME exists:
 * refusing to overwrite deal files") when how is PUBLISH_NEW and the name
 * is taken.  A check before the work, so that a run that cannot publish
 * does not deal first; publishing checks again, the only check that holds
 * against a file made meanwhile. */
int outfile_may_publish(const char *path, enum publish_mode how, const char *force,
    struct dl_error *e);
/* -1 with *e set when the file cannot be written or (by how) exists; the
 * temporary file is then removed.  A name that is taken (a file publishing
 * may not replace, or one that is no regular file) is DL_ERR_INPUT, any
 * other failure DL_ERR_SYSTEM: a caller may say "exists" in its own words.
 * force: the tool's option that would replace the file ("--force"), for
 * the message; NULL when it has none. */
int outfile_publish(struct outfile *of, enum publish_mode how, const char *force,
    struct dl_error *e);
/* The same for a set of files that belong together (the formats of one
 * run): every final name is checked (and, without replace, claimed)
 * before any existing file is replaced, and a failure puts back what was
 * there, so the set appears whole or not at all.  Signals wait until it
 * is done.  A replaced file's old contents wait under a hidden backup
 * name (".NAME.XXXXXX~") until the whole set is in place: only a machine
 * dying mid-way can leave one behind, next to a set of old and new
 * files (docs/robustness.md). */
int outfile_publish_set(struct outfile *const files[], size_t n, enum publish_mode how,
    const char *force, struct dl_error *e);
/* The same, each file with its own mode, put in place in order. */
int outfile_publish_each(struct outfile *const files[], const enum publish_mode hows[],
    size_t n, const char *force, struct dl_error *e);
void outfile_discard(struct outfile *of);

/* A temporary file for data a tool holds a while (mode 0600, in TMPDIR or
 * /tmp, unlinked at once: deals before play are secret), open for reading
 * and writing; NULL with *e set. */
FILE *spool_create(struct dl_error *e);

#endif
