#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "outfile.h"
#include "util.h"

/* Published or discarded: the caller may free it, so it leaves the list. */
static void
forget_pending(struct outfile *of)
{
	if (of->tmp != NULL)
		cleanup_forget_file(of->tmp);
	free(of->tmp);
	of->tmp = NULL;
	free(of->path);
	of->path = NULL;
}

FILE *
outfile_create(struct outfile *of, const char *path, mode_t mode, struct dl_error *e)
{
	char *copy = xstrdup(path), *copy2 = xstrdup(path);
	mode_t mask = umask(0);
	sigset_t all, old;
	int fd;

	umask(mask);
	memset(of, 0, sizeof *of);
	of->path = xstrdup(path);
	of->tmp = xasprintf("%s/.%s.XXXXXX", dirname(copy), basename(copy2));
	free(copy);
	free(copy2);
	/* no signal between the file's birth and its registration */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	fd = mkstemp(of->tmp);
	if (fd != -1 && cleanup_add_file(of->tmp) == -1) {
		unlink(of->tmp);
		close(fd);
		fd = -1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd == -1) {
		dl_error_sys(e, "cannot create a file next to %s", path);
		free(of->tmp);
		of->tmp = NULL;
		free(of->path);
		of->path = NULL;
		return NULL;
	}
	if (fchmod(fd, mode & ~mask) == -1 || (of->fp = fdopen(fd, "w")) == NULL) {
		dl_error_sys(e, "%s", of->tmp);
		close(fd);
		outfile_discard(of);
		return NULL;
	}
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

int
outfile_publish(struct outfile *of, enum publish_mode how, struct dl_error *e)
{
	int status;

	if (fflush(of->fp) == EOF || ferror(of->fp) || fsync(fileno(of->fp)) == -1) {
		int saved = errno ? errno : EIO;
		errno = saved;
		dl_error_sys(e, "write error on %s", of->path);
		outfile_discard(of);
		return -1;
	}
	status = fclose(of->fp);
	of->fp = NULL;
	if (status == EOF) {
		dl_error_sys(e, "write error on %s", of->path);
		outfile_discard(of);
		return -1;
	}
	if (how == PUBLISH_REPLACE)
		status = rename(of->tmp, of->path);
	else {
		status = publish_no_replace(of->tmp, of->path);
		if (status == -1 && errno == EEXIST && how == PUBLISH_SAME) {
			if (!same_contents(of->tmp, of->path)) {
				dl_error_set(e, DL_ERR_INPUT, "%s exists with other contents: "
				    "refusing to overwrite it (use --force)", of->path);
				outfile_discard(of);
				return -1;
			}
			status = rename(of->tmp, of->path);
		}
	}
	if (status == -1) {
		if (errno == EEXIST)
			dl_error_set(e, DL_ERR_INPUT,
			    "%s exists: refusing to overwrite deal files (use --force)", of->path);
		else
			dl_error_sys(e, "cannot publish %s", of->path);
		outfile_discard(of);
		return -1;
	}
	forget_pending(of);
	return 0;
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
