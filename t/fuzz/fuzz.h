/* What the fuzz harnesses share (docs/fuzzing.md).
 *
 * lib/ never exits: a function that refuses its input returns -1 (or NULL)
 * with a struct dl_error.  The harnesses call the shipped functions as the
 * tools do, check that contract on every refusal and the function's own
 * promises on every success.  Nothing is copied from lib/ or cmd/ and
 * nothing is interposed.  The same harnesses build with libFuzzer (make
 * fuzz, clang) and with the standalone replay driver (replay.c, the
 * ordinary compiler), which make check runs over t/fuzz/corpus. */
#ifndef DL_FUZZ_H
#define DL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

/* libFuzzer's entry points: each harness defines the first, common.c the
 * second (libsodium is ready when the first input comes). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A property of the code under test does not hold: say so, and abort, which
 * libFuzzer and the replay driver both report as a failure. */
void fuzz_fail(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));

/* The contract of a refusal (docs/robustness.md): what returned -1 set a
 * kind, errnum only for a system error, and a message of one line that is
 * not empty and holds no control byte (none below 0x20, no DEL).  what
 * names the call in the report. */
void fuzz_check_error(const struct dl_error *e, const char *what);
/* The same rule for a message alone: a warning the tool will print. */
void fuzz_check_message(const char *msg, const char *what);

/* One stage of the pipeline on the input, its output in memory:
 * stage(arg, in, out, e); when it succeeded, check(arg, the output);
 * else the refusal must keep the contract and be an input error (what
 * names the stage). */
void fuzz_stage(const uint8_t *data, size_t size, void *arg,
    int (*stage)(void *arg, FILE *in, FILE *out, struct dl_error *e),
    void (*check)(void *arg, const char *text, size_t size), const char *what);

/* The input as a NUL-terminated string, cut at its first NUL; to free. */
char *fuzz_string(const uint8_t *data, size_t size);

/* Splits data at the first occurrence of sep: the part before it into
 * *first, the part after into *rest.  -1 when sep does not occur. */
int fuzz_split(const uint8_t *data, size_t size, const char *sep,
    const uint8_t **first, size_t *first_size, const uint8_t **rest,
    size_t *rest_size);

/* The bytes as a stream to read (fmemopen), for the functions that take a
 * FILE *; the caller fcloses it.  data must outlive the stream. */
FILE *fuzz_memfile(const uint8_t *data, size_t size);

/* The directory of this process's own, made on first use under $TMPDIR
 * (or /tmp) and removed with all it holds at exit; a run that crashed
 * leaves it behind. */
const char *fuzz_tmp_dir(void);
/* name in that directory: the same string for the same name, for good. */
const char *fuzz_tmp_path(const char *name);
/* Writes data to the file name there, replacing it: its path.  For the
 * functions that take a path. */
const char *fuzz_tmp_file(const char *name, const uint8_t *data, size_t size);
/* Removes path and, for a directory, all it holds; a missing path is
 * fine. */
void fuzz_remove_tree(const char *path);

/* For the protocol harnesses: a stage's output, read by the next stage,
 * must carry the headers of its input whose keys are not in dropped, in
 * their order, then those in added (NULL-terminated). */
struct stream_in;
void fuzz_check_headers(const struct stream_in *in, const char *dropped,
    const char *const *added, const struct stream_in *out);

#endif
