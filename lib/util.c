#include <err.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <sodium.h>

#include "util.h"

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		err(2, "malloc");
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		err(2, "calloc");
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	p = reallocarray(p, n ? n : 1, size ? size : 1);
	if (p == NULL)
		err(2, "realloc");
	return p;
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		err(2, "strdup");
	return p;
}

/* Runs before main, before anything opens a file.
 *
 * A tool started with a standard descriptor closed (tool >&-) would hand
 * that number to the next file it opens: the temporary of a deal file
 * would become standard output, and whatever stdout held could end up in
 * it.  Each closed one is held by /dev/null opened the wrong way round, so
 * that using it still fails as on a closed descriptor (EBADF, and that is
 * reported) while its number is never given to another file.
 *
 * Past a file size limit (ulimit -f) SIGXFSZ would kill the tool in the
 * middle of a write, leaving temporary files and half lines behind: with
 * it ignored the write fails with EFBIG and is reported and cleaned up
 * like a full disk. */
static void __attribute__((constructor))
robust_start(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		/* the lowest free number: fd itself */
		int held = open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
		if (held != -1 && held != fd)
			close(held);
	}
	signal(SIGXFSZ, SIG_IGN);
}

static void
write_failed(const char *name)
{
	if (errno == EPIPE)
		exit(1);
	err(1, "write error on %s", name);
}

void
xfflush(FILE *fp, const char *name)
{
	if (fflush(fp) == EOF || ferror(fp))
		write_failed(name);
}

void
xfclose(FILE *fp, const char *name)
{
	if (ferror(fp)) {
		errno = errno ? errno : EIO;
		write_failed(name);
	}
	if (fclose(fp) == EOF)
		write_failed(name);
}

static char stdout_buffer[1 << 16];

void
setup_stdout(void)
{
	/* A larger pipe lets both ends of a pipeline run at once instead of
	 * taking turns on 64 KiB; failure (not a pipe, a limit) is harmless. */
	fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
	signal(SIGPIPE, SIG_DFL);
	setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
}

void
wipe_stdout_buffer(void)
{
	sodium_memzero(stdout_buffer, sizeof stdout_buffer);
}

char *
put_unsigned(char *p, unsigned long v)
{
	char digits[20];
	int n = 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		*p++ = digits[--n];
	return p;
}

int
utf8_is_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	while (p < end) {
		unsigned c = *p++, need;
		uint32_t cp;
		if (c < 0x80)
			continue;
		if (c >= 0xc2 && c <= 0xdf)
			need = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			need = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			need = 3, cp = c & 0x07;
		else
			return 0;
		if ((size_t)(end - p) < need)
			return 0;
		for (unsigned i = 0; i < need; i++, p++) {
			if ((*p & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (*p & 0x3f);
		}
		/* overlong forms, surrogates, beyond U+10FFFF */
		if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			return 0;
	}
	return 1;
}

int
decimal_parse(const char *text, size_t len, long long min, long long max,
    long long *value)
{
	char digits[24];
	const char *why;

	if (len == 0 || len >= sizeof digits || strspn(text, "0123456789") < len)
		return -1;
	memcpy(digits, text, len);
	digits[len] = '\0';
	*value = strtonum(digits, min, max, &why);
	return why == NULL ? 0 : -1;
}

int
board_number_parse(const char *text, size_t len, unsigned *board)
{
	unsigned long value = 0;

	/* a plain digit loop: this runs for every record of a stream */
	if (len == 0 || len > 10)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			return -1;
		value = value * 10 + (unsigned long)(text[i] - '0');
	}
	if (value < 1 || value > BOARD_MAX)
		return -1;
	*board = (unsigned)value;
	return 0;
}

int
board_range_parse(const char *text, struct board_range *range, const char **why)
{
	const char *dash = strchr(text, '-');
	unsigned low, high;

	*why = "not a board count or range (N or LOW-HIGH, boards 1 to 1000000000)";
	if (dash == NULL) {
		if (board_number_parse(text, strlen(text), &high) == -1)
			return -1;
		low = 1;
	} else {
		if (board_number_parse(text, (size_t)(dash - text), &low) == -1 ||
		    board_number_parse(dash + 1, strlen(dash + 1), &high) == -1)
			return -1;
		if (low > high) {
			*why = "board range runs backwards";
			return -1;
		}
	}
	range->low = low;
	range->high = high;
	*why = NULL;
	return 0;
}

int
hex_to_bytes(const char *hex, unsigned char *out, size_t len)
{
	size_t hexlen = strlen(hex), got = 0;
	const char *end;

	if (hexlen != 2 * len)
		return -1;
	if (sodium_hex2bin(out, len, hex, hexlen, NULL, &got, &end) != 0 ||
	    got != len || *end != '\0')
		return -1;
	return 0;
}

/* Live secrets, so that an exit through err(3) wipes them too. */
struct secret {
	struct secret *next;
	void *p;
};
static struct secret *secrets;

static void
wipe_secrets(void)
{
	while (secrets != NULL) {
		struct secret *s = secrets;
		secrets = s->next;
		sodium_free(s->p);	/* wipes before unmapping */
		free(s);
	}
}

void *
secret_alloc(size_t size)
{
	static int first = 1;
	struct secret *s = xmalloc(sizeof *s);
	void *p;

	if (first) {
		/* no core file may carry a secret away */
		struct rlimit none = { 0, 0 };
		setrlimit(RLIMIT_CORE, &none);
		atexit(wipe_secrets);
		first = 0;
	}
	if ((p = sodium_malloc(size)) == NULL)	/* guarded and locked */
		err(2, "sodium_malloc");
	memset(p, 0, size);
	s->p = p;
	s->next = secrets;
	secrets = s;
	return p;
}

void
secret_free(void *p)
{
	for (struct secret **sp = &secrets; *sp != NULL; sp = &(*sp)->next)
		if ((*sp)->p == p) {
			struct secret *s = *sp;
			*sp = s->next;
			free(s);
			break;
		}
	sodium_free(p);
}

void
scrub_argument(char *arg)
{
	sodium_memzero(arg, strlen(arg));
}
