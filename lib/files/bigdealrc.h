/* Big Deal's settings file .bigdealrc in the current directory: a
 * "[BigDeal]" line and key=value lines (docs/bigdeal-compat.md section 6).
 *
 * Threads: bigdealrc_read and bigdealrc_free may run on several threads at
 * once, each on its own struct; bigdealrc_write is the main flow's, one
 * thread at a time, as it publishes through outfile.h. */
#ifndef DL_BIGDEALRC_H
#define DL_BIGDEALRC_H

#include "base/error.h"

#define BIGDEALRC ".bigdealrc"
/* Big Deal's formats when its .bigdealrc has no formats= line, another
 * section coming first included (main.c's default_formats); an empty
 * formats= is no formats at all. */
#define BIGDEALRC_DEFAULT_FORMATS "dup,pbn"

struct bigdealrc {
	char *formats;		/* NULL when not set */
	char *askformats;
	char *owner;		/* bytes, whatever their encoding */
	/* bigdealrc_read: the owner= line ended in CR LF, which Big Deal on
	 * Unix keeps in the owner it hashes (the dl tools warn and drop it).
	 * bigdealrc_read_bigdeal keeps the CR in the value instead. */
	int owner_crlf;
	int found;		/* the file exists */
	struct dl_warnings warnings;	/* odd lines, for the tool to print */
};

/* dl's reading, for dl-seed, dl-deal and dl-sqd: lines of any length,
 * LF or CR LF, blank lines and # or ; comments skipped, reading stopped
 * at another [section]; a value that is not UTF-8 (the owner excepted) or
 * holds a stray CR refused.  0 when read or when there is no such file
 * (then rc->found is 0); -1 with *e on a malformed or unreadable file. */
int bigdealrc_read(const char *path, struct bigdealrc *rc, struct dl_error *e);
/* Big Deal 2.0's reading (main.c read_init_file), for the drop-ins, which
 * must deal what it deals from the same file: the file is read 119 bytes
 * at a time (fgets into 120), the rest of a longer line being read as a
 * line of its own; only the LF is cut, so a CR LF line keeps its CR in
 * the value, and a "[BigDeal]" header in CR LF is another section, where
 * reading stops: from a file made by a Windows editor nothing is used.
 * Nothing is refused; what is read otherwise than one would think draws
 * a warning.  -1 with *e only when the file cannot be read. */
int bigdealrc_read_bigdeal(const char *path, struct bigdealrc *rc, struct dl_error *e);
void bigdealrc_free(struct bigdealrc *rc);
/* Writes the three keys (NULL as empty), replacing the file atomically. */
int bigdealrc_write(const char *path, const struct bigdealrc *rc, struct dl_error *e);

#endif
