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

/* mode: 0600 for secrets, 0666 (less the umask) for deal files. */
FILE *outfile_create(struct outfile *of, const char *path, mode_t mode);
/* Exits with a message when the file cannot be written or exists. */
void outfile_publish(struct outfile *of, int replace);
void outfile_discard(struct outfile *of);

#endif
