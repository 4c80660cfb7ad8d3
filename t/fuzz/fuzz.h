/* What the fuzz harnesses share (docs/fuzzing.md).
 *
 * The parsers report bad input with errx(3), err(3) or line_fail() and end
 * the program.  common.c defines err(3)'s functions to jump back to the
 * harness instead, so that one process can try millions of inputs; it is
 * linked before libc, so the library is tested exactly as the tools use it.
 * The same harnesses build with libFuzzer (make fuzz, clang) and with the
 * standalone replay driver (replay.c, gcc), which make check runs over the
 * corpus in t/fuzz/corpus. */
#ifndef DL_FUZZ_H
#define DL_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry points: each harness defines the first, common.c the
 * second (libsodium is ready when the first input comes). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Runs fn(arg): 0 when it returns, -1 when it ends the program instead
 * (errx, err, line_fail).  After -1 the harness frees what it must free
 * properly (secret memory), then calls fuzz_abandon(), which closes the
 * files left open and frees what fn allocated and did not free, as exit
 * would.  Memory lost on a path that returns is a leak, and reported. */
int fuzz_call(void (*fn)(void *), void *arg);
void fuzz_abandon(void);

/* The exit status and message of the last ending inside fuzz_call. */
extern int fuzz_exit_status;
extern char fuzz_message[];

/* A property of the code under test does not hold: say so, and abort, which
 * libFuzzer and the replay driver both report as a failure. */
void fuzz_fail(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));

/* The input as a NUL-terminated string, cut at its first NUL; to free. */
char *fuzz_string(const uint8_t *data, size_t size);

/* Files for the parsers that take a name: fopen(path, "r") reads data from
 * memory until fuzz_files_reset(), which also closes what a parser that
 * ended early left open.  At most FUZZ_FILES at a time. */
#define FUZZ_FILES 4
void fuzz_file_add(const char *path, const uint8_t *data, size_t size);
void fuzz_files_reset(void);

/* Splits data at the first occurrence of sep: the part before it into
 * *first, the part after into *rest.  -1 when sep does not occur. */
int fuzz_split(const uint8_t *data, size_t size, const char *sep,
    const uint8_t **first, size_t *first_size, const uint8_t **rest,
    size_t *rest_size);

/* name in a directory of this process's own, removed at exit: for files
 * the code under test writes.  The same static buffer each time. */
const char *fuzz_tmp_path(const char *name);

/* For the protocol harnesses: a stage's output, read by the next stage,
 * must carry the headers of its input whose keys are not in dropped, in
 * their order, then those in added (NULL-terminated). */
struct stream_in;
void fuzz_check_headers(const struct stream_in *in, const char *dropped,
    const char *const *added, const struct stream_in *out);

#endif
