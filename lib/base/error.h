/* Errors are values.  A lib/ function that can fail fills a struct
 * dl_error and returns -1 (or NULL); it never prints or exits.  The tool
 * in cmd/ decides the message's prefix and the exit status, by the one
 * table in docs/hacking.md.  Allocation failure is the one exception: the
 * x* helpers of util.h end the process.
 *
 * Threads: every function may be called from several threads at once, each
 * on its own struct dl_error or dl_warnings: nothing is kept between calls,
 * and dl_error_sys's strerror is safe on threads in glibc 2.32 and later
 * and in musl. */
#ifndef DL_ERROR_H
#define DL_ERROR_H

#include <stdarg.h>
#include <stddef.h>

enum dl_error_kind {
	DL_ERR_NONE = 0,
	DL_ERR_INPUT,	/* the input is malformed, or refused by a rule */
	DL_ERR_CHECK,	/* a check ran and found a difference */
	DL_ERR_USAGE,	/* the command line or an option's value is wrong */
	DL_ERR_SYSTEM,	/* the system failed: open, read, write, rename ... */
};

#define DL_ERROR_MAX 1024

/* What failed, when a caller must tell it from the other failures of its
 * kind (never by its message's words). */
enum dl_error_cause {
	DL_CAUSE_NONE = 0,
	DL_CAUSE_FORMAT_UNKNOWN,	/* a file no reader knows the format of */
};

struct dl_error {
	enum dl_error_kind kind;
	int errnum;		/* errno of a system error, else 0 */
	/* One line of text with every control byte, invalid UTF-8 byte and
	 * bidirectional override escaped, so that a message quoting a hostile
	 * file cannot move the cursor or rewrite the terminal. */
	char msg[DL_ERROR_MAX];
	enum dl_error_cause cause;	/* DL_CAUSE_NONE unless set after */
};

/* Each sets *e and returns -1, so that "return dl_error_set(...)" reads
 * as what it does.  e may be NULL (the caller wants no message). */
int dl_error_set(struct dl_error *e, enum dl_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int dl_error_vset(struct dl_error *e, enum dl_error_kind kind, const char *fmt,
    va_list ap) __attribute__((format(printf, 3, 0)));
/* A system error: the message, ": ", strerror(errno). */
int dl_error_sys(struct dl_error *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* An error at a line of a file: "FILE:LINE: message", or "line LINE:
 * message" when file is NULL (standard input). */
int dl_error_at(struct dl_error *e, enum dl_error_kind kind, const char *file,
    unsigned long line, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
int dl_error_vat(struct dl_error *e, enum dl_error_kind kind, const char *file,
    unsigned long line, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));
/* Puts "CONTEXT: " in front of the message, e.g. the file's name. */
void dl_error_prefix(struct dl_error *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void dl_error_clear(struct dl_error *e);

/* Warnings a lib/ function gathers for the tool to print: each one line,
 * escaped like error messages. */
struct dl_warnings {
	char **msgs;
	size_t n;
};
void dl_warn(struct dl_warnings *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void dl_warnings_free(struct dl_warnings *w);

/* Copies len bytes of untrusted text to out (size outsize, NUL-terminated)
 * with control bytes, C1 controls, bidirectional overrides and invalid
 * UTF-8 written as \xNN (a backslash as \\).  Returns the length written;
 * text that does not fit ends in "...". */
size_t escape_text(char *out, size_t outsize, const char *text, size_t len);
/* Untrusted text (a .sqd's names, a file name) as it may be shown: the
 * same escaping, whole, in a new string (to free). */
char *text_escaped(const char *text);

#endif
