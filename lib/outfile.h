/* Output files that appear whole or not at all: written under a temporary
 * name in the same directory, then published by an atomic rename.  Without
 * replace, publishing never overwrites an existing file (old deal files
 * are how series get replayed). */
#ifndef DL_OUTFILE_H
#define DL_OUTFILE_H

#include <stdio.h>
#include <sys/types.h>

struct outfile {
	char *path;
	char *tmp;		/* NULL once published or discarded */
	FILE *fp;
	struct outfile *next;	/* unpublished files, removed at exit */
};

enum publish_mode {
	PUBLISH_NEW,		/* never replace an existing file */
	PUBLISH_REPLACE,	/* replace it (--force) */
	/* replace it only when it has the same bytes: regenerating a set of
	 * deals must succeed, and refresh the file's time for make(1) */
	PUBLISH_SAME,
};

/* mode: 0600 for secrets, 0666 (less the umask) for deal files. */
FILE *outfile_create(struct outfile *of, const char *path, mode_t mode);
/* Exits with a message when the file cannot be written or exists. */
void outfile_publish(struct outfile *of, enum publish_mode how);
void outfile_discard(struct outfile *of);

#endif
