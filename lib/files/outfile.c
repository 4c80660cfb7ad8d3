#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "base/cleanup.h"
#include "files/outfile.h"
#include "base/util.h"

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

#define OUTFILE_BUFFER (64 * 1024)

/* After fclose: the buffer held the file's last bytes. */
static void
free_buffer(struct outfile *of)
{
	if (of->buffer != NULL)
		sodium_memzero(of->buffer, OUTFILE_BUFFER);
	free(of->buffer);
	of->buffer = NULL;
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
	/* mkstemp made it 0600: it keeps that until it is complete, as a
	 * crash or a machine dying can leave it behind with the deals */
	of->mode = mode & ~mask;
	if ((of->fp = fdopen(fd, "w")) == NULL) {
		dl_error_sys(e, "%s", of->tmp);
		close(fd);
		outfile_discard(of);
		return NULL;
	}
	/* a deal file is written in large pieces: a 4 KiB buffer, stdio's
	 * default for a file, costs a system call every few boards (and
	 * glibc keeps its default size when setvbuf is given no buffer) */
	of->buffer = xmalloc(OUTFILE_BUFFER);
	setvbuf(of->fp, of->buffer, _IOFBF, OUTFILE_BUFFER);
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

/* Compares at most what a deal file can hold; a regular file only (the
 * caller has checked): a FIFO would block the open. */
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

/* The temporary file complete on disk, closed. */
static int
finish_writing(struct outfile *of, struct dl_error *e)
{
	int status = 0;

	if (fflush(of->fp) == EOF || ferror(of->fp) ||
	    (!of->scratch && fsync(fileno(of->fp)) == -1) ||
	    fchmod(fileno(of->fp), of->mode) == -1) {
		if (errno == 0)
			errno = EIO;
		dl_error_sys(e, "write error on %s", of->path);
		status = -1;
	}
	if (fclose(of->fp) == EOF && status == 0)
		status = dl_error_sys(e, "write error on %s", of->path);
	of->fp = NULL;
	free_buffer(of);
	return status;
}

/* What publishing will do with one file's final name. */
enum plan { PLAN_CREATE, PLAN_REPLACE, PLAN_KEEP_SAME };

/* A final name that is taken, refused: why, then " (use --force)" where
 * the tool has such an option. */
static int
taken_error(struct dl_error *e, const char *path, const char *why, const char *force)
{
	return dl_error_set(e, DL_ERR_INPUT, "%s %s%s%s%s", path, why,
	    force != NULL ? " (use " : "", force != NULL ? force : "",
	    force != NULL ? ")" : "");
}

#define REFUSE_NEW "exists: refusing to overwrite deal files"

int
outfile_may_publish(const char *path, enum publish_mode how, const char *force,
    struct dl_error *e)
{
	if (how == PUBLISH_NEW && access(path, F_OK) == 0)
		return taken_error(e, path, REFUSE_NEW, force);
	return 0;
}

static int
plan_one(const struct outfile *of, enum publish_mode how, const char *force,
    enum plan *plan, struct dl_error *e)
{
	struct stat st;

	if (lstat(of->path, &st) == -1) {
		if (errno != ENOENT)
			return dl_error_sys(e, "%s", of->path);
		*plan = PLAN_CREATE;
		return 0;
	}
	/* a FIFO would hang a comparison, a directory or a device cannot be
	 * replaced by a deal file, a link would be followed */
	if (!S_ISREG(st.st_mode))
		return dl_error_set(e, DL_ERR_INPUT, "%s exists and is not a regular "
		    "file: refusing to write over it", of->path);
	switch (how) {
	case PUBLISH_NEW:
		return taken_error(e, of->path, REFUSE_NEW, force);
	case PUBLISH_SAME:
		if (!same_contents(of->tmp, of->path))
			return taken_error(e, of->path,
			    "exists with other contents: refusing to overwrite it", force);
		*plan = PLAN_KEEP_SAME;
		return 0;
	case PUBLISH_REPLACE:
		*plan = PLAN_REPLACE;
		return 0;
	}
	return 0;
}

/* Where a replaced file's old contents wait until the whole set is in
 * place: a hard link next to it, named after the temporary file. */
static char *
backup_name(const struct outfile *of)
{
	return xasprintf("%s~", of->tmp);
}

/* Puts file i in place; a replaced file keeps its old contents under its
 * backup name until the set is complete. */
static int
put_in_place(struct outfile *of, enum plan plan, const char *force, struct dl_error *e)
{
	char *backup;

	if (plan == PLAN_CREATE) {
		if (publish_no_replace(of->tmp, of->path) == 0)
			return 0;
		if (errno == EEXIST)	/* it appeared meanwhile */
			return taken_error(e, of->path, REFUSE_NEW, force);
		return dl_error_sys(e, "cannot publish %s", of->path);
	}
	backup = backup_name(of);
	if (link(of->path, backup) == -1) {
		dl_error_sys(e, "cannot replace %s", of->path);
		free(backup);
		return -1;
	}
	if (rename(of->tmp, of->path) == -1) {
		dl_error_sys(e, "cannot publish %s", of->path);
		unlink(backup);
		free(backup);
		return -1;
	}
	free(backup);
	return 0;
}

/* Undoes put_in_place: the old file back, or the new one gone. */
static void
take_back(struct outfile *of, enum plan plan)
{
	char *backup;

	if (plan == PLAN_CREATE) {
		rename(of->path, of->tmp);
		return;
	}
	backup = backup_name(of);
	rename(backup, of->path);
	free(backup);
}

static void
drop_backup(struct outfile *of, enum plan plan)
{
	char *backup;

	if (plan == PLAN_CREATE)
		return;
	backup = backup_name(of);
	unlink(backup);
	free(backup);
}

int
outfile_publish_set(struct outfile *const files[], size_t n, enum publish_mode how,
    const char *force, struct dl_error *e)
{
	enum publish_mode *hows = xcalloc(n, sizeof *hows);
	int status;

	for (size_t i = 0; i < n; i++)
		hows[i] = how;
	status = outfile_publish_each(files, hows, n, force, e);
	free(hows);
	return status;
}

int
outfile_publish_each(struct outfile *const files[], const enum publish_mode hows[],
    size_t n, const char *force, struct dl_error *e)
{
	enum plan *plans = xcalloc(n, sizeof *plans);
	sigset_t all, old;
	size_t placed = 0;
	int status = 0;

	for (size_t i = 0; i < n && status == 0; i++)
		status = finish_writing(files[i], e);
	/* every name checked before any is touched */
	for (size_t i = 0; i < n && status == 0; i++)
		status = plan_one(files[i], hows[i], force, &plans[i], e);
	/* no signal between the first file in place and the last */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (; placed < n && status == 0; placed++)
		status = put_in_place(files[placed], plans[placed], force, e);
	if (status == -1) {
		/* put_in_place failed on files[placed - 1] and undid itself */
		for (size_t i = placed - (placed > 0); i-- > 0;)
			take_back(files[i], plans[i]);
	} else
		for (size_t i = 0; i < n; i++)
			drop_backup(files[i], plans[i]);
	sigprocmask(SIG_SETMASK, &old, NULL);
	for (size_t i = 0; i < n; i++) {
		if (status == -1)
			outfile_discard(files[i]);
		else {
			unlink(files[i]->tmp);	/* a kept same file, or a link() fallback */
			forget_pending(files[i]);
		}
	}
	free(plans);
	return status;
}

int
outfile_publish(struct outfile *of, enum publish_mode how, const char *force,
    struct dl_error *e)
{
	struct outfile *one[] = { of };

	return outfile_publish_set(one, 1, how, force, e);
}

void
outfile_discard(struct outfile *of)
{
	if (of->fp != NULL)
		fclose(of->fp);
	of->fp = NULL;
	free_buffer(of);
	if (of->tmp != NULL)
		unlink(of->tmp);
	forget_pending(of);
}

FILE *
spool_create(struct dl_error *e)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	FILE *fp;
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	if ((size_t)snprintf(path, sizeof path, "%s/dl-spool.XXXXXX", dir) >= sizeof path) {
		dl_error_set(e, DL_ERR_USAGE, "TMPDIR is too long");
		return NULL;
	}
	/* mkstemp makes it 0600 */
	if ((fd = mkstemp(path)) == -1) {
		dl_error_sys(e, "a temporary file in %s", dir);
		return NULL;
	}
	unlink(path);
	if ((fp = fdopen(fd, "w+")) == NULL) {
		dl_error_sys(e, "a temporary file in %s", dir);
		close(fd);
		return NULL;
	}
	return fp;
}
