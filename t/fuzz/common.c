/* What the harnesses share: the check of a refusal's contract, inputs as
 * streams and files, and a directory of the process's own. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "fuzz.h"
#include "stream/proto.h"

/* Before the first input: a harness may use libsodium at once. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (sodium_init() < 0)
		fuzz_fail("sodium_init failed");
	/* t/fuzz.bats: a fault must fail the run, however it is run */
	if (getenv("DL_FUZZ_SELFTEST") != NULL)
		fuzz_fail("self-test: a fault, as when a property does not hold");
	return 0;
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

void
fuzz_check_message(const char *msg, const char *what)
{
	/* the report must not itself carry what it complains of */
	char shown[4 * DL_ERROR_MAX];
	size_t len = strnlen(msg, DL_ERROR_MAX);

	if (len == DL_ERROR_MAX)
		fuzz_fail("%s: a message without its NUL", what);
	if (len == 0)
		fuzz_fail("%s: an empty message", what);
	for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
		if (*p < 0x20 || *p == 0x7f) {
			escape_text(shown, sizeof shown, msg, len);
			fuzz_fail("%s: byte 0x%02x in the message \"%s\"", what, *p, shown);
		}
}

void
fuzz_check_error(const struct dl_error *e, const char *what)
{
	if (e->kind != DL_ERR_INPUT && e->kind != DL_ERR_CHECK &&
	    e->kind != DL_ERR_USAGE && e->kind != DL_ERR_SYSTEM)
		fuzz_fail("%s: failed with error kind %d", what, (int)e->kind);
	if (e->errnum != 0 && e->kind != DL_ERR_SYSTEM)
		fuzz_fail("%s: errno %d for an error that is not the system's", what,
		    e->errnum);
	fuzz_check_message(e->msg, what);
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

FILE *
fuzz_memfile(const uint8_t *data, size_t size)
{
	/* an empty input may come as NULL, which fmemopen would take for a
	 * buffer of its own to allocate */
	static uint8_t empty;
	FILE *fp;

	/* read only: fmemopen does not write to its buffer in mode "r" */
	if ((fp = fmemopen(size ? (void *)data : &empty, size, "r")) == NULL)
		fuzz_fail("fmemopen: %s", strerror(errno));
	return fp;
}

static char tmpdir[4096];

static int
remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(path) == -1 && errno != ENOENT)
		fuzz_fail("cannot remove %s: %s", path, strerror(errno));
	return 0;
}

void
fuzz_remove_tree(const char *path)
{
	/* depth first, and symbolic links removed, never followed */
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == -1 && errno != ENOENT)
		fuzz_fail("cannot remove %s: %s", path, strerror(errno));
}

static void
remove_tmpdir(void)
{
	fuzz_remove_tree(tmpdir);
}

const char *
fuzz_tmp_dir(void)
{
	const char *base = getenv("TMPDIR");

	if (tmpdir[0] != '\0')
		return tmpdir;
	if (base == NULL || *base == '\0')
		base = "/tmp";
	if ((size_t)snprintf(tmpdir, sizeof tmpdir, "%s/dl-fuzz.XXXXXX", base) >=
	    sizeof tmpdir || mkdtemp(tmpdir) == NULL)
		fuzz_fail("cannot make a directory in %s", base);
	atexit(remove_tmpdir);
	return tmpdir;
}

const char *
fuzz_tmp_path(const char *name)
{
	/* the harnesses use a few fixed names: each path is made once and
	 * kept, so that two of them can be in use at a time */
	static struct { char *name, *path; } paths[16];
	size_t i;

	for (i = 0; i < sizeof paths / sizeof *paths && paths[i].name != NULL; i++)
		if (strcmp(paths[i].name, name) == 0)
			return paths[i].path;
	if (i == sizeof paths / sizeof *paths)
		fuzz_fail("more than %zu temporary names", i);
	if ((paths[i].name = strdup(name)) == NULL ||
	    asprintf(&paths[i].path, "%s/%s", fuzz_tmp_dir(), name) == -1)
		abort();
	return paths[i].path;
}

const char *
fuzz_tmp_file(const char *name, const uint8_t *data, size_t size)
{
	const char *path = fuzz_tmp_path(name);
	size_t done = 0;
	int fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1)
		fuzz_fail("cannot create %s: %s", path, strerror(errno));
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);
		if (n == -1)
			fuzz_fail("cannot write %s: %s", path, strerror(errno));
		done += (size_t)n;
	}
	if (close(fd) == -1)
		fuzz_fail("cannot write %s: %s", path, strerror(errno));
	return path;
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

void
fuzz_stage(const uint8_t *data, size_t size, void *arg,
    int (*stage)(void *arg, FILE *in, FILE *out, struct dl_error *e),
    void (*check)(void *arg, const char *text, size_t size), const char *what)
{
	struct dl_error e = { 0 };
	char *text = NULL;
	size_t text_size = 0;
	FILE *in = fuzz_memfile(data, size), *out = open_memstream(&text, &text_size);
	int status;

	if (out == NULL)
		abort();
	status = stage(arg, in, out, &e);
	fclose(out);
	fclose(in);
	if (status == 0)
		check(arg, text, text_size);
	else {
		fuzz_check_error(&e, what);
		if (e.kind != DL_ERR_INPUT)
			fuzz_fail("a bad stream is not an input error: %s", e.msg);
	}
	free(text);
}
