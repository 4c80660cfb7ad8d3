/* Collecting the secret as Big Deal does (docs/bigdeal-compat.md section 5):
 * every byte gathered goes into one RIPEMD-160 whose digest is `random`,
 * and each source is credited a number of bits.
 *
 * Threads: a struct entropy is one thread's.  entropy_new and entropy_free
 * (secret memory, util.h) and entropy_add_keyboard (the terminal's
 * descriptor and modes in statics, and the cleanup module's tty) are the
 * main flow's, one thread at a time; the others may run on several threads
 * at once, each on its own pool, once sodium_init has run. */
#ifndef DL_ENTROPY_H
#define DL_ENTROPY_H

#include "keys/bigdeal.h"
#include "base/error.h"
#include "keys/ripemd160.h"

#define ENTROPY_NEEDED 160	/* bits: the size of the secret */
#define ENTROPY_KEYBOARD 213	/* Big Deal's 160 + 33 % for typed entropy */
#define ENTROPY_OS_BYTES 40	/* read from the OS, 8 bits each */
#define ENTROPY_GIVEN_BITS 4	/* per byte of a string or a file */
#define ENTROPY_FILE_MAX (1 << 20)	/* bytes of an entropy file, at most */

struct entropy {
	struct ripemd160 pool;
	unsigned long bits;	/* credited so far */
};

/* In secret memory; entropy_free() wipes it. */
struct entropy *entropy_new(void);
void entropy_free(struct entropy *e);

void entropy_add_os(struct entropy *e);
/* bigdealx -e: the bytes of s, 4 bits each. */
void entropy_add_string(struct entropy *e, const char *s);
/* Bytes credited bits in all: Big Deal's answers to its questions (the
 * board count, 0 bits; the file prefix, 5). */
void entropy_add_bytes(struct entropy *e, const void *bytes, size_t len, unsigned bits);
/* The bytes of a file, 4 bits each (dl-seed --entropy-file). */
int entropy_add_file(struct entropy *e, const char *path, struct dl_error *error);
/* bigdealx -E: every byte of the file as a 4-byte native int, 4 bits each. */
int entropy_add_file_as_ints(struct entropy *e, const char *path, struct dl_error *error);
/* Keystroke timing from /dev/tty until e->bits reaches target; the terminal
 * is restored on every way out, signals included.  -1 when there is no
 * terminal or the typist gives up (end of file). */
int entropy_add_keyboard(struct entropy *e, unsigned long target, struct dl_error *error);
/* Credit for one keystroke after interval microseconds (exposed for tests). */
unsigned keystroke_bits(unsigned long interval);

void entropy_finish(struct entropy *e, unsigned char random[BIGDEAL_SECRET]);

#endif
