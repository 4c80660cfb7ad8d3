/* Big Deal's settings file .bigdealrc in the current directory: a
 * "[BigDeal]" line and key=value lines (docs/bigdeal-compat.md section 6).
 *
 * Threads: bigdealrc_read and bigdealrc_free may run on several threads at
 * once, each on its own struct; bigdealrc_write is the main flow's, one
 * thread at a time, as it publishes through outfile.h. */
#ifndef DL_BIGDEALRC_H
#define DL_BIGDEALRC_H

#include "error.h"

#define BIGDEALRC ".bigdealrc"
/* Big Deal's formats when its .bigdealrc has no formats= line, another
 * section coming first included (main.c's default_formats); an empty
 * formats= is no formats at all. */
#define BIGDEALRC_DEFAULT_FORMATS "dup,pbn"

struct bigdealrc {
	char *formats;		/* NULL when not set */
	char *askformats;
	char *owner;		/* bytes, whatever their encoding */
	/* The owner= line ended in CR LF: Big Deal on Unix keeps the CR in
	 * the owner it hashes (the drop-ins do too; the dl tools warn). */
	int owner_crlf;
	int found;		/* the file exists */
	struct dl_warnings warnings;	/* odd lines, for the tool to print */
};

/* 0 when read or when there is no such file (then rc->found is 0); -1
 * with *e on a malformed or unreadable file. */
int bigdealrc_read(const char *path, struct bigdealrc *rc, struct dl_error *e);
void bigdealrc_free(struct bigdealrc *rc);
/* Writes the three keys (NULL as empty), replacing the file atomically. */
int bigdealrc_write(const char *path, const struct bigdealrc *rc, struct dl_error *e);

#endif
