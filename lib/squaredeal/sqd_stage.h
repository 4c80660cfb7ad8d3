/* A SquareDeal tournament's stages (squaredeal.md) and the changes each
 * allows: prepared, its name, DI and phases change; published, its keys
 * are made and their hash (KH) fixed; then the delayed value (DV) is set,
 * once, and the sessions can be dealt.  Each change is made to a struct
 * sqd the caller read, and refused, -1 with *e naming the .sqd at path,
 * when the stage no longer (or not yet) allows it; the caller writes the
 * .sqd back.
 *
 * Threads: sqd_key_count, sqd_add_phase and sqd_set_dv may be called from
 * several threads at once, each on its own struct sqd; sqd_create,
 * sqd_publish, sqd_dealing_keys and sqd_stage are the main flow's, one
 * thread at a time: they publish files (outfile.h) or read keys into secret
 * memory (util.h). */
#ifndef DL_SQD_STAGE_H
#define DL_SQD_STAGE_H

#include "base/error.h"
#include "squaredeal/sqd.h"

/* A new tournament at path, with its name and the delayed information
 * (DI) that will say what the DV is: never over an existing file, nor
 * over one that appears meanwhile (of several creates at once, one
 * succeeds; the others are refused, DL_ERR_INPUT). */
int sqd_create(const char *path, const char *name, const char *di, struct dl_error *e);

/* The keys a tournament needs: one a session, one an open-ended phase. */
unsigned long sqd_key_count(const struct sqd *t);

/* Adds a phase as the operator typed it: NSESSIONS (0: open-ended),
 * BOARDS (as sqd_parse_boards reads them), the file PREFIX and a
 * DESCRIPTION (NULL: none), the automatic '#' added to the last two.  t
 * is unchanged when it is refused. */
int sqd_add_phase(const char *path, struct sqd *t, const char *nsessions,
    const char *boards, const char *prefix, const char *description,
    struct dl_error *e);

/* Publishes t: a fresh key for every session in a key file at sqk_path
 * (mode 0600), its hash as t's KH, and the .sqd at path written with it;
 * both appear together or neither does.  An existing key file is refused
 * unless replace_keys (t has no KH: nobody saw those keys published). */
int sqd_publish(const char *path, const char *sqk_path, struct sqd *t, int replace_keys,
    struct dl_error *e);

/* Sets t's DV from the text typed (sqd_canonical_dv): after publishing,
 * and once. */
int sqd_set_dv(const char *path, struct sqd *t, const char *typed, struct dl_error *e);

/* The keys to deal t with, from sqk_path: t must be published, its DV
 * known, and the key file the one its KH names. */
int sqd_dealing_keys(const char *path, const char *sqk_path, const struct sqd *t,
    struct sqk *k, struct dl_error *e);

/* The stage in words, for show; whether the key file at sqk_path is the
 * published one once the DV is known.  NULL with *e for a key file that
 * is there but malformed. */
const char *sqd_stage(const struct sqd *t, const char *sqk_path, struct dl_error *e);

#endif
