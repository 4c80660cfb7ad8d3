/* err(3) that returns to the harness, files served from memory, and the
 * bookkeeping that tells memory abandoned at "exit" from memory leaked. */
#include <dirent.h>
#include <dlfcn.h>
#include <err.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "fuzz.h"
#include "proto.h"

#define MESSAGE_MAX 4096

int fuzz_exit_status;
char fuzz_message[MESSAGE_MAX];

static jmp_buf exit_jump;
static int inside;		/* in fuzz_call: an exit jumps back */

/*
 * Allocation tracking.  An input that makes a parser exit leaves behind
 * what it had allocated, as the tool would at exit.  That is neither a leak
 * to report nor memory to keep: millions of abandoned 64 KiB line buffers
 * would exhaust the fuzzer.  While fn runs, the sanitizers' malloc hook
 * records every allocation; fuzz_abandon() frees those still live, as exit
 * would.  Without a sanitizer (the plain replay build) the hooks do not
 * exist, nothing is recorded, and the few inputs of a replay just leak.
 */
int __sanitizer_install_malloc_and_free_hooks(
    void (*malloc_hook)(const volatile void *, size_t),
    void (*free_hook)(const volatile void *)) __attribute__((weak));
int __sanitizer_get_ownership(const volatile void *p) __attribute__((weak));

#define TRACK_MAX (1 << 20)
static const volatile void *tracked[TRACK_MAX];
static size_t ntracked;
static int tracking;

static void
on_malloc(const volatile void *p, size_t size)
{
	(void)size;
	if (!tracking)
		return;
	/* the inputs are far too short for this */
	if (ntracked == TRACK_MAX)
		fuzz_fail("over %d allocations in one call", TRACK_MAX);
	tracked[ntracked++] = p;
}

/* The sanitizers want both hooks. */
static void
on_free(const volatile void *p)
{
	(void)p;
}

static FILE *(*real_fopen)(const char *, const char *);
static void close_files(void);

/* Once, before anything is recorded: what the C library and libsodium
 * allocate for good on first use must not be taken for abandoned. */
static int selftest;

static void
setup(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	/* t/fuzz.bats: a fault must fail the replay */
	selftest = getenv("DL_FUZZ_SELFTEST") != NULL;
	if (sodium_init() < 0)
		fuzz_fail("sodium_init failed");
	real_fopen = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
	if (real_fopen == NULL)
		fuzz_fail("no fopen in the C library");
	if (__sanitizer_install_malloc_and_free_hooks != NULL)
		__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
}

/* Before the first input: a harness may use libsodium at once. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setup();
	return 0;
}

void
fuzz_abandon(void)
{
	/* a FILE is on the C library's list of open streams: fclose it */
	close_files();
	/* newest first; an address freed and reused is recorded twice, and
	 * the second time it is no longer owned */
	if (__sanitizer_get_ownership != NULL)
		for (size_t i = ntracked; i-- > 0;)
			if (__sanitizer_get_ownership(tracked[i]))
				free((void *)tracked[i]);
	ntracked = 0;
}

int
fuzz_call(void (*fn)(void *), void *arg)
{
	setup();
	if (selftest)
		fuzz_fail("self-test: a fault, as when a property does not hold");
	ntracked = 0;
	fuzz_exit_status = 0;
	fuzz_message[0] = '\0';
	if (setjmp(exit_jump) != 0) {
		inside = tracking = 0;
		return -1;
	}
	inside = tracking = 1;
	fn(arg);
	inside = tracking = 0;
	return 0;
}

/* Every way out of the program ends here. */
static void __attribute__((noreturn))
leave(int status)
{
	if (!inside) {
		fprintf(stderr, "fuzz: exit outside fuzz_call: %s\n", fuzz_message);
		abort();
	}
	/* docs/robustness.md: one line on standard error, not zero status */
	if (status == 0)
		fuzz_fail("exit status 0 for an error: %s", fuzz_message);
	if (strchr(fuzz_message, '\n') != NULL)
		fuzz_fail("a message of more than one line: %s", fuzz_message);
	fuzz_exit_status = status;
	longjmp(exit_jump, 1);
}

static void
format(char *buf, size_t size, const char *fmt, va_list ap, int with_errno)
{
	int e = errno;
	size_t len = 0;

	buf[0] = '\0';
	if (fmt != NULL) {
		vsnprintf(buf, size, fmt, ap);
		len = strlen(buf);
	}
	if (with_errno)
		snprintf(buf + len, size - len, "%s%s", fmt ? ": " : "", strerror(e));
}

void
verrx(int status, const char *fmt, va_list ap)
{
	format(fuzz_message, sizeof fuzz_message, fmt, ap, 0);
	leave(status);
}

void
errx(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrx(status, fmt, ap);
}

void
verr(int status, const char *fmt, va_list ap)
{
	format(fuzz_message, sizeof fuzz_message, fmt, ap, 1);
	leave(status);
}

void
err(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(status, fmt, ap);
}

/* Warnings are formatted, so that the sanitizers check their arguments,
 * and dropped: millions of them would drown libFuzzer's report. */
void
vwarnx(const char *fmt, va_list ap)
{
	char buf[MESSAGE_MAX];

	format(buf, sizeof buf, fmt, ap, 0);
}

void
warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
}

void
vwarn(const char *fmt, va_list ap)
{
	char buf[MESSAGE_MAX];

	format(buf, sizeof buf, fmt, ap, 1);
}

void
warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

char *
fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

int
fuzz_split(const uint8_t *data, size_t size, const char *sep,
    const uint8_t **first, size_t *first_size, const uint8_t **rest,
    size_t *rest_size)
{
	const uint8_t *at = memmem(data, size, sep, strlen(sep));

	if (at == NULL)
		return -1;
	*first = data;
	*first_size = (size_t)(at - data);
	*rest = at + strlen(sep);
	*rest_size = size - *first_size - strlen(sep);
	return 0;
}

/*
 * Files in memory.  The parsers under test open their input by name; a
 * fopen(3) defined here serves the names given to fuzz_file_add from
 * memory, through fopencookie(3), and hands every other name to the C
 * library's fopen (libFuzzer writes its crash files with it).
 */
static struct memfile {
	char *path;
	const uint8_t *data;
	size_t size, offset;
	FILE *fp;		/* open, or NULL */
} files[FUZZ_FILES];

void
fuzz_file_add(const char *path, const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < FUZZ_FILES; i++)
		if (files[i].path == NULL) {
			files[i] = (struct memfile){ strdup(path), data, size, 0, NULL };
			if (files[i].path == NULL)
				abort();
			return;
		}
	fuzz_fail("more than %d files", FUZZ_FILES);
}

static void
close_files(void)
{
	for (size_t i = 0; i < FUZZ_FILES; i++)
		if (files[i].fp != NULL)
			fclose(files[i].fp);	/* clears files[i].fp */
}

void
fuzz_files_reset(void)
{
	close_files();
	for (size_t i = 0; i < FUZZ_FILES; i++) {
		free(files[i].path);
		files[i] = (struct memfile){ 0 };
	}
}

static ssize_t
memfile_read(void *cookie, char *buf, size_t size)
{
	struct memfile *m = cookie;
	size_t n = m->size - m->offset < size ? m->size - m->offset : size;

	memcpy(buf, m->data + m->offset, n);
	m->offset += n;
	return (ssize_t)n;
}

static int
memfile_close(void *cookie)
{
	struct memfile *m = cookie;

	m->fp = NULL;
	return 0;
}

FILE *
fopen(const char *path, const char *mode)
{
	for (size_t i = 0; i < FUZZ_FILES; i++) {
		struct memfile *m = &files[i];
		if (m->path == NULL || strcmp(m->path, path) != 0)
			continue;
		if (strcmp(mode, "r") != 0)
			fuzz_fail("%s opened with mode \"%s\"", path, mode);
		if (m->fp != NULL)
			fuzz_fail("%s opened twice", path);
		m->offset = 0;
		m->fp = fopencookie(m, "r", (cookie_io_functions_t){
		    .read = memfile_read, .close = memfile_close });
		return m->fp;
	}
	if (real_fopen == NULL)
		setup();
	return real_fopen(path, mode);
}

void
fuzz_check_headers(const struct stream_in *in, const char *dropped,
    const char *const *added, const struct stream_in *out)
{
	size_t o = 0;

	for (size_t i = 0; i < in->nheaders; i++) {
		if (strchr(dropped, in->headers[i][1]) != NULL)
			continue;
		if (o == out->nheaders || strcmp(in->headers[i], out->headers[o]) != 0)
			fuzz_fail("header \"%.60s\" not passed on", in->headers[i]);
		o++;
	}
	for (; added != NULL && *added != NULL; added++, o++)
		if (o == out->nheaders || strcmp(*added, out->headers[o]) != 0)
			fuzz_fail("header \"%.60s\" not added", *added);
	if (o != out->nheaders)
		fuzz_fail("header \"%.60s\" added on the way", out->headers[o]);
}

/* A directory of this process's own, emptied and removed at exit. */
static char tmpdir[64];

static void
remove_tmpdir(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	char path[sizeof tmpdir + 256];

	while (d != NULL && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' || (strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0)) {
			snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name);
			unlink(path);
		}
	if (d != NULL)
		closedir(d);
	rmdir(tmpdir);
}

const char *
fuzz_tmp_path(const char *name)
{
	static char path[sizeof tmpdir + 64];

	if (tmpdir[0] == '\0') {
		/* tmpfs where there is one: sqd_write fsyncs every file */
		const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(tmpdir, sizeof tmpdir, "%s/dl-fuzz.XXXXXX", base);
		if (mkdtemp(tmpdir) == NULL)
			fuzz_fail("cannot make a directory in %s", base);
		atexit(remove_tmpdir);
	}
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	return path;
}
