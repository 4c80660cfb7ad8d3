/* The dealing tools' record of every set they deal, in the archive
 * (lib/archive/, docs/archive.md): dl-deal, dl-sqd make, and the Big Deal
 * drop-ins when an archive is named.  The set's boards reach the archive
 * as they reach the writers (struct writers_options's tap), in one
 * transaction that is committed before the files are published: a set
 * whose files exist is in the archive. */
#ifndef DL_RECORDING_H
#define DL_RECORDING_H

#include <stdint.h>

#include "base/error.h"
#include "files/writers.h"

struct recording;

/* Opens the archive (spec, or NULL: the default) and begins the set;
 * sets wo's tap.  shared: the federation's archive (NULL: the one
 * DL_SHARED_ARCHIVE names, if any), against which and the club's own the
 * set is checked before it is committed: a board dealt before (a seed
 * used again, here or at another club) fails the commit, nothing
 * published.  source says where the set went ("dl-deal -p club").
 * NULL with *e set when the archive cannot be written. */
struct recording *recording_start(const char *spec, const char *shared, const char *source,
    struct writers_options *wo, struct dl_error *e);
/* The sets of the event the archive holds, *n, the archive locked
 * from now to the commit (archive_add_count_event): the set's #N: is
 * then *n + 1 for certain. */
int recording_count_event(struct recording *r, const char *event, int64_t *n,
    struct dl_error *e);
/* The set is in the archive, with what its stream's header lines say
 * (#I, #S, #D, #G and the lines themselves); *id its number there. */
int recording_commit(struct recording *r, char *const *headers, size_t nheaders, int64_t *id,
    struct dl_error *e);
/* Nothing of the set stays: the run failed.  r may be NULL. */
void recording_abort(struct recording *r);

#endif
