/* Checked allocation in the style of minisign's x* helpers (running out
 * of memory ends the program: the one exit in lib/), numbers, hex, and
 * memory for secrets.
 *
 * Threads: the x* helpers, scrub_argument and the functions of numbers,
 * text and hex may be called from several threads at once; running out of
 * memory ends the process from whichever thread it happens on.
 * secret_alloc, secret_free and secret_strdup are the main flow's, one
 * thread at a time: they change the cleanup module's registry of secrets
 * (cleanup.h), and the first secret_alloc turns core dumps off under an
 * unguarded flag. */
#ifndef DL_UTIL_H
#define DL_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

#define DL_VERSION_STRING "dl " DL_VERSION

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Writes v in decimal at p, returns the end: printf is too slow for the
 * per-board lines of a million-board stream. */
char *put_unsigned(char *p, unsigned long v);

/* The length of the valid UTF-8 sequence at s (at most n bytes) and its
 * code point; 0 when it is not one (overlong, a surrogate, cut, ...). */
size_t utf8_sequence(const unsigned char *s, size_t n, uint32_t *codepoint);
int utf8_is_valid(const char *s, size_t len);
/* The same for a printable character: not a C0 or C1 control, DEL, or a
 * bidirectional control (which reorders what follows on screen). */
size_t utf8_printable_sequence(const unsigned char *s, size_t n);
/* Valid UTF-8 of printable characters only: text safe to show. */
int text_is_printable(const char *s, size_t len);
/* Printable ASCII only, 0x20 to 0x7e: every byte a record of a stream may
 * hold.  Eight bytes a step, for dl-cat's million-record copies. */
int text_is_plain_ascii(const char *s, size_t len);

/* The len digits at text as a number from min to max: only digits, no
 * sign or blanks (strtonum alone takes those).  0 on success, else -1. */
int decimal_parse(const char *text, size_t len, long long min, long long max,
    long long *value);

/* An unsigned decimal number from 0 to max: digits only.  0, or -1 and *why
 * says what is wrong ("invalid", "too large"), as strtonum does. */
int u64_parse(const char *text, uint64_t max, uint64_t *value, const char **why);

/* One board number, 1 to BOARD_MAX, from the len digits at text. */
int board_number_parse(const char *text, size_t len, unsigned *board);

/* Board ranges: "N" means 1-N, "L-H" means L..H; 1 <= L <= H <= BOARD_MAX. */
#define BOARD_MAX 1000000000u
struct board_range {
	unsigned low, high;
};
/* 0 on success; otherwise -1 and *why says what is wrong. */
int board_range_parse(const char *text, struct board_range *range, const char **why);
/* The same, as Big Deal takes its boards (dl-bigdeal and dl-bigdealx: -n,
 * and the answer to "how many boards"): the reference reads each side
 * with atoi(), so blanks (spaces, tabs) around a number and a plus sign
 * before it are taken, " +17 - 32 " being 17-32.  What atoi() would drop
 * unseen (the "abc" of "16abc", a third side) is refused, and so is
 * board 0 ("0-3", "3-00": "boards are numbered from 1"), which the
 * reference would deal. */
int board_range_parse_bigdeal(const char *text, struct board_range *range, const char **why);
/* The same, as a person types boards into a form (dl-web's), where a
 * phone or a word processor turns the hyphen into a dash: LOW and HIGH
 * joined by a hyphen, an en dash (U+2013), an em dash (U+2014) or a minus
 * sign (U+2212), in UTF-8, with spaces or none around it and around the
 * whole ("1 – 24").  The tools' options and #B: keep board_range_parse's
 * one form. */
int board_range_parse_typed(const char *text, struct board_range *range, const char **why);

/* A list of boards, "1-8,12,17-20": boards and ranges of boards, in
 * increasing order, each board once (dl-board -b). */
struct board_list {
	struct board_range *ranges;
	size_t n;
	unsigned long long count;	/* boards in all */
};
/* 0, or -1 with *e (a usage error: the list is typed) and list empty. */
int board_list_parse(const char *text, struct board_list *list, struct dl_error *e);
void board_list_free(struct board_list *list);

/* Hex string of exactly 2*len digits (either case) into bytes; -1 if not. */
int hex_to_bytes(const char *hex, unsigned char *out, size_t len);

/* mkdir -p of the folders above a file, each made mode 0700: a seed
 * history's, an archive's; -1 with *e naming the folder that failed. */
int make_private_parents(const char *path, struct dl_error *e);

/* Files that run code or decide what a tool believes (a plugin, an
 * archive) are trusted as OpenSSH trusts a key file: the file and every
 * directory of its real path up to / belong to root or to us and are
 * writable by nobody else.  One exception, which OpenSSH does not make: a
 * directory of root's with the sticky bit (/tmp), where nobody but an
 * entry's owner may rename or remove it, so that what lies below it is as
 * safe as its own owner and modes make it.  docs/plugins.md and
 * docs/archive.md say this to their users.
 *
 * path_stat_trusted: st, the file what of path, is root's or ours and
 * writable by nobody else; else -1 with a system error "PATH: WHAT belongs
 * to user N, neither root nor you: REFUSAL" (or "is writable by anyone").
 * path_directories_trusted: every directory above real (path's real
 * name, absolute, without links) is trusted in that way. */
struct stat;
int path_stat_trusted(const char *path, const char *what, const struct stat *st,
    const char *refusal, struct dl_error *e);
int path_directories_trusted(const char *path, const char *real, const char *refusal,
    struct dl_error *e);

/* Secrets live in locked, guarded memory and are wiped when freed. */
void *secret_alloc(size_t size);
void secret_free(void *p);
/* A copy of s in secret memory. */
char *secret_strdup(const char *s);
/* An array of deals held on the heap (too many for locked memory) grown
 * to cap elements of size bytes, its used ones kept, the old block wiped
 * before it is freed (realloc would free it unwiped).  old may be NULL. */
void *grow_wiped(void *old, size_t used, size_t oldcap, size_t cap, size_t size);

/* Overwrite a command-line argument in place so that it no longer shows in
 * /proc/PID/cmdline; the caller has copied it into secret memory. */
void scrub_argument(char *arg);

#endif
