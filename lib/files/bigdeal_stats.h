/* bigdealx's stats format (output.c): statistics on a set, PREFIX.txt,
 * for dl-bigdealx -f stats.  A writer built into the drop-ins rather than
 * a plugin: it is Big Deal's report, computed as Big Deal computes it, in
 * 32-bit integers whose percentages wrap past a few thousand boards, for
 * a set not to be judged by (bigdealx prints a warning on standard output
 * with it, which the drop-in prints); dl's statistics are dl-stat's.
 * docs/bigdeal-compat.md section 7 says why.
 *
 * Threads: its callbacks share nothing (DL_CONCURRENT), as a plugin's. */
#ifndef DL_BIGDEAL_STATS_H
#define DL_BIGDEAL_STATS_H

#include "dl/plugin.h"

/* The report divides by 100000000 / boards: Big Deal divides by zero
 * past this many (begin refuses them). */
#define BIGDEAL_STATS_MAX_BOARDS 100000000u

extern const struct dl_plugin bigdeal_stats_writer;

#endif
