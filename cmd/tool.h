/* What every tool does alike: its start, its messages and its exit
 * statuses, by the one policy of docs/hacking.md:
 *
 *	0  done; a check passed
 *	1  the input was refused, or a check found a difference
 *	2  usage error, or the system failed (files, memory, terminal)
 *
 * A tool whose 1 means only "the check failed" (dl-stat) sets
 * tool_input_status to 2, so that input it could not check is not taken
 * for a failed check. */
#ifndef DL_TOOL_H
#define DL_TOOL_H

#include <stdarg.h>
#include <stdio.h>

#include "base/error.h"

#define EXIT_REFUSED 1
#define EXIT_TROUBLE 2

extern int tool_input_status;

/* First thing in main: standard descriptors held open, core dumps off
 * (before any secret is read), cleanup of temporary files on every signal. */
void tool_start(void);

/* The exit status for an error of this kind. */
int tool_status(enum dl_error_kind kind);

/* "dl-NAME: message" on standard error, then exit by the policy. */
void tool_die(const struct dl_error *e) __attribute__((noreturn));
/* The same for messages of the tool's own making; untrusted text in them
 * is escaped all the same. */
void tool_fail(enum dl_error_kind kind, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
void tool_fail_sys(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));
/* After getopt_long returned '?' (every tool sets opterr to 0): says in
 * one line which option was wrong, without quoting its argument (getopt's
 * own message would quote a whole "--he=SECRET"), blanks it in argv, and
 * exits with the usage status. */
void tool_bad_option(char *argv[], int index, int option) __attribute__((noreturn));

/* First thing after tool_start in a tool whose options carry secrets: the
 * values of the options in secret (their short letters; a long option by
 * its val) are moved to secret memory and blanked in argv, before any
 * option is parsed, so that none stays in /proc/PID/cmdline while an
 * earlier option runs or after one that ends the run (--help, a wrong
 * option).  getopt_long then reads the same text from the copies. */
struct option;
void tool_hide_secret_arguments(int argc, char *argv[], const char *optstring,
    const struct option *longopts, const char *secret);

/* libsodium started, or the tool ends: a system error, in every tool. */
void tool_sodium_init(void);

/* Flush or close a stream, ending the tool with a message on a write
 * error.  A reader that went away (EPIPE) ends it quietly, status 1. */
void xfflush(FILE *fp, const char *name);
void xfclose(FILE *fp, const char *name);

/* Standard output with a large buffer (and pipe). */
void setup_stdout(void);
/* After standard output is closed: its buffer held a secret. */
void wipe_stdout_buffer(void);

/* -j's argument: a number of threads from 1 to max, or a usage error. */
unsigned tool_threads(const char *arg, unsigned max);
void tool_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A gathered error as a warning, TAIL (plain text) after its message. */
void tool_warn_error(const struct dl_error *e, const char *tail);

/* Each gathered warning as "dl-NAME: warning". */
void tool_print_warnings(const struct dl_warnings *w);
/* One warning, escaped already, as "PROGRAM: msg": the callback of the
 * readers' and writers' options (any thread: one fprintf). */
void tool_print_warning(const char *msg, void *arg);

#endif
