/* A Makefile that makes a SquareDeal tournament's session files: one
 * target a session and format, each running dl-sqd make for its session,
 * so that make -j deals the event in parallel and a second run does
 * nothing.
 *
 * Threads: sqd_makefile_write keeps no state: several threads may call it
 * at once, each writing its own fp. */
#ifndef DL_SQD_MAKEFILE_H
#define DL_SQD_MAKEFILE_H

#include <stdio.h>

#include "base/error.h"
#include "squaredeal/sqd.h"
#include "files/writers.h"

/* Writes the Makefile for the tournament t, read from sqd_path with its
 * keys at sqk_path, to fp.  -1 with *e, before anything is written, for a
 * format no plugin writes; write errors are left on fp for the caller. */
int sqd_makefile_write(FILE *fp, const char *sqd_path, const char *sqk_path,
    const struct sqd *t, const struct format_list *formats, struct dl_error *e);

#endif
