#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <sodium.h>

#include "base/cleanup.h"
#include "base/util.h"
#include "tool.h"

int tool_input_status = EXIT_REFUSED;

/* Whether standard output is still ours to check at exit: xfclose has
 * checked and closed it, or tool_die has a message of its own to give. */
static int stdout_settled;

int
tool_status(enum dl_error_kind kind)
{
	switch (kind) {
	case DL_ERR_NONE:
		return 0;
	case DL_ERR_INPUT:
		return tool_input_status;
	case DL_ERR_CHECK:
		return EXIT_REFUSED;
	case DL_ERR_USAGE:
	case DL_ERR_SYSTEM:
		break;
	}
	return EXIT_TROUBLE;
}

/* A tool started with standard input, output or error closed would give
 * that number to the first file it opens, and a message or a deal meant
 * for the terminal would land in it.  Each closed one is held by
 * /dev/null opened the wrong way round, so that using it fails (and is
 * reported) as on a closed descriptor, while its number is never reused. */
static void
hold_standard_descriptors(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		int held = open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
		if (held != -1 && held != fd)
			close(held);
	}
}

/* Any way out that left output unwritten (--help into /dev/full or a
 * closed descriptor, a path that exits without xfclose) fails: a tool that
 * could not write its output must not say it did.  It runs after the
 * cleanup's atexit handler (registered later), so _exit skips nothing. */
static void
check_stdout_at_exit(void)
{
	struct dl_error e;

	if (stdout_settled)
		return;
	errno = 0;
	if (fflush(stdout) != EOF && !ferror(stdout))
		return;
	if (errno == EPIPE)
		_exit(tool_input_status);	/* the reader went away: quietly */
	if (errno == 0)
		errno = EIO;
	dl_error_sys(&e, "write error on standard output");
	fprintf(stderr, "%s: %s\n", getprogname(), e.msg);
	_exit(tool_status(e.kind));
}

void
tool_start(void)
{
	struct rlimit none = { 0, 0 };

	hold_standard_descriptors();
	/* every message begins with our name, argv[0]'s last part: a link
	 * named with terminal escapes must not put them on the terminal */
	const char *name = getprogname();
	if (name != NULL && !text_is_printable(name, strlen(name)))
		setprogname(text_escaped(name));
	/* no core file may carry a secret away, whenever one is read, and no
	 * other process of the same user may read our memory (ptrace,
	 * /proc/PID/mem): every tool holds a seed, a key or deals before play */
	setrlimit(RLIMIT_CORE, &none);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	atexit(check_stdout_at_exit);
	cleanup_init();
}

void
tool_sodium_init(void)
{
	if (sodium_init() < 0)
		tool_fail(DL_ERR_SYSTEM, "cannot initialise libsodium");
}

void
tool_die(const struct dl_error *e)
{
	stdout_settled = 1;
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", getprogname(), e->msg);
	exit(tool_status(e->kind));
}

void
tool_fail(enum dl_error_kind kind, const char *fmt, ...)
{
	struct dl_error e;
	va_list ap;

	va_start(ap, fmt);
	dl_error_vset(&e, kind, fmt, ap);
	va_end(ap);
	tool_die(&e);
}

void
tool_fail_sys(const char *fmt, ...)
{
	struct dl_error e;
	char what[DL_ERROR_MAX];
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	errno = saved;
	dl_error_sys(&e, "%s", what);
	tool_die(&e);
}

void
tool_warn(const char *fmt, ...)
{
	struct dl_error e;
	va_list ap;

	va_start(ap, fmt);
	dl_error_vset(&e, DL_ERR_NONE, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", getprogname(), e.msg);
}

void
tool_warn_error(const struct dl_error *e, const char *tail)
{
	/* e->msg is escaped already: as it is */
	fprintf(stderr, "%s: %s%s\n", getprogname(), e->msg, tail);
}

static void __attribute__((noreturn))
write_failed(const char *name)
{
	/* a reader that went away (head, a closed pager): quietly, as for
	 * input that ended the run (2 where 1 means a failed check) */
	if (errno == EPIPE)
		exit(tool_input_status);
	tool_fail_sys("write error on %s", name);
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
	if (fp == stdout)
		stdout_settled = 1;
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
	setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
}

void
wipe_stdout_buffer(void)
{
	sodium_memzero(stdout_buffer, sizeof stdout_buffer);
}

void
tool_print_warning(const char *msg, void *arg)
{
	(void)arg;
	fprintf(stderr, "%s: %s\n", getprogname(), msg);
}

void
tool_print_warnings(const struct dl_warnings *w)
{
	for (size_t i = 0; i < w->n; i++)
		fprintf(stderr, "%s: %s\n", getprogname(), w->msgs[i]);
}

void
tool_bad_option(char *argv[], int index, int option)
{
	const char *arg = index > 0 ? argv[index - 1] : "";
	struct dl_error e;

	if (strncmp(arg, "--", 2) == 0)
		dl_error_set(&e, DL_ERR_USAGE, "unknown, ambiguous or misused option '%.*s' "
		    "(%s --help shows the usage)", (int)strcspn(arg, "="), arg, getprogname());
	else
		dl_error_set(&e, DL_ERR_USAGE, "unknown option or missing argument -- '%c' "
		    "(%s --help shows the usage)", option, getprogname());
	/* the whole argument may be a secret given the wrong way */
	if (index > 0 && strchr(arg, '=') != NULL)
		sodium_memzero(argv[index - 1], strlen(argv[index - 1]));
	tool_die(&e);
}

/* The long option NAME (LEN bytes) may stand for, as getopt_long reads
 * an abbreviation: an exact name, else any it begins; *secret when one
 * of them is secret, *takes when one takes an argument. */
static void
long_option_traits(const struct option *longopts, const char *name, size_t len,
    const char *secret, int *takes, int *is_secret)
{
	*takes = *is_secret = 0;
	for (const struct option *o = longopts; o != NULL && o->name != NULL; o++) {
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (o->has_arg != no_argument) {
			*takes = 1;
			*is_secret |= o->val > 0 && strchr(secret, o->val) != NULL;
		}
		if (strlen(o->name) == len)
			break;	/* exact: none other counts */
	}
}

/* argv[i] replaced by a copy in secret memory, the original blanked. */
static void
hide_argument(char *argv[], int i)
{
	char *copy = secret_strdup(argv[i]);

	scrub_argument(argv[i]);
	argv[i] = copy;
}

void
tool_hide_secret_arguments(int argc, char *argv[], const char *optstring,
    const struct option *longopts, const char *secret)
{
	int takes, is_secret;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (strcmp(arg, "--") == 0)
			break;
		if (strncmp(arg, "--", 2) == 0) {
			size_t len = strcspn(arg + 2, "=");
			long_option_traits(longopts, arg + 2, len, secret, &takes, &is_secret);
			if (!takes)
				continue;
			/* --name=VALUE, or VALUE the next argument */
			if (arg[2 + len] != '=' && i + 1 < argc)
				i++;
			if (is_secret)
				hide_argument(argv, i);
			continue;
		}
		if (arg[0] != '-' || arg[1] == '\0')
			continue;	/* an operand: getopt_long looks past it */
		/* a bundle of letters, up to the first that takes an argument */
		for (size_t j = 1; arg[j] != '\0'; j++) {
			const char *spec = arg[j] != ':' ? strchr(optstring, arg[j]) : NULL;
			if (spec == NULL || spec[1] != ':')
				continue;
			/* -xVALUE, or VALUE the next argument */
			if (arg[j + 1] == '\0' && i + 1 < argc)
				i++;
			if (strchr(secret, arg[j]) != NULL)
				hide_argument(argv, i);
			break;
		}
	}
}

unsigned
tool_threads(const char *arg, unsigned max)
{
	const char *why;
	uint64_t n;

	if (u64_parse(arg, max, &n, &why) == -1)
		tool_fail(DL_ERR_USAGE, "-j %s: %s (1 to %u threads)", arg, why, max);
	if (n == 0)
		tool_fail(DL_ERR_USAGE, "-j %s: no threads (1 to %u threads)", arg, max);
	return (unsigned)n;
}
