/* SquareDeal's files (docs/squaredeal.md): the tournament description .sqd and
 * the key file .sqk, and how a session's name, boards and seed follow.
 *
 * Threads: sqd_read, sqd_print, sqd_lock, sqd_free and the functions of
 * boards, names and keys (sqd_prefix_check, sqd_parse_boards to
 * sqd_canonical_dv, sqk_key, sqd_key_path) may be called from several
 * threads at once, each on its own struct; sqd_write, sqk_read, sqk_free
 * and sqd_session_seed are the main flow's, one thread at a time: they
 * publish a file (outfile.h) or hold secret memory (util.h). */
#ifndef DL_SQD_H
#define DL_SQD_H

#include <stddef.h>
#include <stdio.h>

#include "base/error.h"
#include "keys/seed.h"
#include "base/util.h"

#define SQD_KEY_CHARS 60	/* of a-z A-Z 0-9: about 357 bits */
#define SQD_SHORT_KEY 40	/* shorter keys deserve a warning */
#define SQD_HASH_HEX 64
/* Sessions (keys) in a tournament: their key file, lines of at most 82
 * bytes, must stay under the 1 MiB that sqk_read takes. */
#define SQD_MAX_KEYS 10000

struct sqd_phase {
	unsigned nsessions;		/* 0: open-ended */
	char *boards;			/* as stored: "16", "1-10,11-20", "?" */
	struct board_range *ranges;	/* parsed; none for "?" */
	size_t nranges;
	char *prefix;			/* as stored */
	char *description;
};

struct sqd {
	char *name, *di, *dv, *kh;	/* NULL while not set */
	struct sqd_phase *phases;
	size_t nphases;
};

/* -1 with *e "FILE:LINE: what is wrong" on a malformed file. */
int sqd_read(const char *path, struct sqd *t, struct dl_error *e);
/* Writes the reference program's layout, atomically. */
int sqd_write(const char *path, const struct sqd *t, struct dl_error *e);
/* Holds the tournament at path for a command: exclusive for one that
 * reads, changes and writes it back (ten add-phase at once must not lose
 * nine phases), shared for one that only reads.  A second command waits.
 * The lock goes with the process, or close(*fd). */
int sqd_lock(const char *path, int exclusive, int *fd, struct dl_error *e);

/* The same layout to fp. */
void sqd_print(FILE *fp, const struct sqd *t);

/* The rule for a phase's file prefix (with its '#' run), the one place it
 * is written: add-phase and every .sqd read keep it, so that a session's
 * files are plain names in the output directory and nothing in a name can
 * run in dl-sqd makefile's Makefile. */
#define SQD_MAX_PREFIX 90
int sqd_prefix_check(const char *pattern, struct dl_error *e);
void sqd_free(struct sqd *t);

/* Board lists: "16", "17-32", "1-10,11-20", with "AxB" for A sessions of B
 * boards, or "?".  Returns the canonical text to store, or NULL. */
char *sqd_parse_boards(const char *text, struct board_range **ranges, size_t *n);
/* The phase's prefix and description with the automatic '#' added. */
char *sqd_prefix_pattern(const char *prefix, unsigned nsessions);
char *sqd_description_pattern(const char *description, unsigned nsessions);
/* Replaces the run of '#' with the session number, zero-padded to the
 * run's length. */
char *sqd_expand(const char *pattern, unsigned session);
char *sqd_session_name(const struct sqd_phase *ph, unsigned session, int reserve);
/* -1 when the phase's boards are "?". */
int sqd_session_range(const struct sqd_phase *ph, unsigned session, struct board_range *r);
/* Finds the phase and session a file name (without suffix) belongs to. */
int sqd_match_name(const struct sqd *t, const char *name, unsigned *phase,
    unsigned *session, int *reserve);
/* The DV as the reference (squaredeal.pl's getDV) tidies what the operator
 * types: Perl's white space trimmed and squeezed to one space, then a '.'
 * or ',' between two digits removed, match after match as Perl's s///g. */
char *sqd_canonical_dv(const char *typed);

/* The key file, held in secret memory. */
struct sqk {
	char *text;		/* the file, NUL-terminated lines, secret */
	size_t size;
	struct sqk_line { unsigned phase, session; const char *key; } *keys;
	size_t nkeys;
	char hash[SQD_HASH_HEX + 1];	/* SHA-256 of the file with CRLF line ends */
};

/* Reads and checks a key file against t: every session has one key. */
int sqk_read(const char *path, const struct sqd *t, struct sqk *k, struct dl_error *e);
void sqk_free(struct sqk *k);
const char *sqk_key(const struct sqk *k, unsigned phase, unsigned session);

/* The seed of a session (phase and session from 1), as SquareDeal's
 * bigdealx -W LEFT -e RIGHT -e BASE64(DV) -e original|reserve [-e sesN]. */
void sqd_session_seed(const struct sqd *t, const struct sqk *k, unsigned phase,
    unsigned session, int reserve, struct seed_record *seed);

/* The .sqk next to a .sqd. */
char *sqd_key_path(const char *sqd_path);

#endif
