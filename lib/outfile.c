#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "util.h"

static struct outfile *pending;

static void
remove_pending(void)
{
	for (struct outfile *of = pending; of != NULL; of = of->next)
		if (of->tmp != NULL)
			unlink(of->tmp);
}

static void
remove_pending_on_signal(int sig)
{
	remove_pending();	/* unlink is async-signal-safe */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
watch_pending(struct outfile *of)
{
	static int installed;

	if (!installed) {
		atexit(remove_pending);
		signal(SIGINT, remove_pending_on_signal);
		signal(SIGTERM, remove_pending_on_signal);
		signal(SIGHUP, remove_pending_on_signal);
		installed = 1;
	}
	of->next = pending;
	pending = of;
}

/* Published or discarded: the caller may free it, so it leaves the list. */
static void
forget_pending(struct outfile *of)
{
	for (struct outfile **p = &pending; *p != NULL; p = &(*p)->next)
		if (*p == of) {
			*p = of->next;
			break;
		}
	free(of->tmp);
	of->tmp = NULL;
	free(of->path);
	of->path = NULL;
}

FILE *
outfile_create(struct outfile *of, const char *path, mode_t mode)
{
	char *copy = xstrdup(path), *copy2 = xstrdup(path);
	mode_t mask = umask(0);
	int fd;

	umask(mask);
	memset(of, 0, sizeof *of);
	of->path = xstrdup(path);
	if (asprintf(&of->tmp, "%s/.%s.XXXXXX", dirname(copy), basename(copy2)) == -1)
		err(2, "asprintf");
	free(copy);
	free(copy2);
	if ((fd = mkstemp(of->tmp)) == -1)
		err(1, "cannot create a file next to %s", path);
	watch_pending(of);
	if (fchmod(fd, mode & ~mask) == -1 || (of->fp = fdopen(fd, "w")) == NULL)
		err(1, "%s", of->tmp);
	return of->fp;
}

static int
publish_no_replace(const char *tmp, const char *path)
{
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* file systems without RENAME_NOREPLACE: link() refuses to replace too */
	if (link(tmp, path) == -1)
		return -1;
	unlink(tmp);
	return 0;
}

static int
same_contents(const char *a, const char *b)
{
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	int same = fa != NULL && fb != NULL;

	while (same) {
		int ca = getc(fa), cb = getc(fb);
		if (ca != cb)
			same = 0;
		else if (ca == EOF)
			break;
	}
	if (fa != NULL)
		fclose(fa);
	if (fb != NULL)
		fclose(fb);
	return same;
}

void
outfile_publish(struct outfile *of, enum publish_mode how)
{
	int status;

	if (fflush(of->fp) == EOF || ferror(of->fp) || fsync(fileno(of->fp)) == -1) {
		int saved = errno ? errno : EIO;
		fclose(of->fp);
		errno = saved;
		err(1, "write error on %s", of->path);
	}
	if (fclose(of->fp) == EOF)
		err(1, "write error on %s", of->path);
	of->fp = NULL;
	if (how == PUBLISH_REPLACE)
		status = rename(of->tmp, of->path);
	else {
		status = publish_no_replace(of->tmp, of->path);
		if (status == -1 && errno == EEXIST && how == PUBLISH_SAME) {
			if (!same_contents(of->tmp, of->path))
				errx(1, "%s exists with other contents: refusing to "
				    "overwrite it (use --force)", of->path);
			status = rename(of->tmp, of->path);
		}
	}
	if (status == -1) {
		if (errno == EEXIST)
			errx(1, "%s exists: refusing to overwrite deal files (use --force)",
			    of->path);
		err(1, "cannot publish %s", of->path);
	}
	forget_pending(of);
}

void
outfile_discard(struct outfile *of)
{
	if (of->fp != NULL)
		fclose(of->fp);
	of->fp = NULL;
	if (of->tmp != NULL)
		unlink(of->tmp);
	forget_pending(of);
}
