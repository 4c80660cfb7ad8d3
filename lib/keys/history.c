#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "keys/history.h"
#include "base/util.h"

#define FINGERPRINT_BYTES HISTORY_FINGERPRINT_BYTES
/* BLAKE2b keyed with a fixed label: a fingerprint says nothing about the
 * seed, and fingerprints of dl's history match nothing else. */
static const char fingerprint_key[] = "dl seed history, version 1";

int
history_path(char **path, struct dl_error *e)
{
	const char *env = getenv("DL_SEED_HISTORY"), *state, *home;

	*path = NULL;
	if (env != NULL && strcmp(env, "off") == 0)
		return 0;
	if (env != NULL && *env != '\0')
		*path = xstrdup(env);
	else if ((state = getenv("XDG_STATE_HOME")) != NULL && *state == '/')
		*path = xasprintf("%s/dl/seed-history", state);
	else if ((home = getenv("HOME")) != NULL && *home != '\0')
		*path = xasprintf("%s/.local/state/dl/seed-history", home);
	else
		return dl_error_set(e, DL_ERR_USAGE,
		    "no place for the seed history: set HOME or DL_SEED_HISTORY");
	return 0;
}

/* The bytes a fingerprint is made of.  They are the memory image the seed
 * record had in the first versions (a 4-byte generator number, 0 bigdeal
 * and 1 dl256; random, owner and key; padding; event; session; padding),
 * so that histories written then still refuse their seeds. */
void
history_fingerprint(const struct seed_record *seed, unsigned char fp[FINGERPRINT_BYTES])
{
	unsigned char image[96] = { 0 };
	/* the generator's own number, never its place in the table */
	uint32_t number = seed->generator->history_id;

	memcpy(image, &number, 4);
	if (seed->generator->owner_bytes)
		memcpy(image + 4, seed->key, seed->generator->key_bytes);
	else
		memcpy(image + 44, seed->key, seed->generator->key_bytes);
	/* the owner's hash always had its place: dl-seed made it for dl256
	 * seeds too */
	memcpy(image + 24, seed->owner, SEED_OWNER_MAX);
	memcpy(image + 80, &seed->event, 8);
	memcpy(image + 88, &seed->session, 4);
	crypto_generichash(fp, FINGERPRINT_BYTES, image, sizeof image,
	    (const unsigned char *)fingerprint_key, sizeof fingerprint_key - 1);
	sodium_memzero(image, sizeof image);
}

/* A history whose last line lacks its newline (an editor, a copy cut
 * short) would glue the next fingerprint to it, and that one would never
 * be found again: end the line first. */
static int
end_last_line(FILE *f, int fd)
{
	off_t size = lseek(fd, 0, SEEK_END);
	char last;

	if (size <= 0)
		return size;
	if (pread(fd, &last, 1, size - 1) != 1)
		return -1;
	if (last == '\n')
		return 0;
	if (fputc('\n', f) == EOF || fflush(f) == EOF)
		return -1;
	return 0;
}

static int
check_and_record(const char *path, const char *hex, struct dl_error *e)
{
	char line[2 * FINGERPRINT_BYTES + 4];
	FILE *f;
	int fd;

	struct stat st;

	if (make_private_parents(path, e) == -1)
		return -1;
	/* O_NONBLOCK: a FIFO put there must not hang us before fstat says
	 * what it is */
	if ((fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK,
	    0600)) == -1)
		return dl_error_sys(e, "%s", path);
	/* /dev/zero would be read for ever, /dev/full never keep a line */
	if (fstat(fd, &st) == -1) {
		dl_error_sys(e, "%s", path);
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return dl_error_set(e, DL_ERR_USAGE, "%s: the seed history must be a "
		    "regular file", path);
	}
	/* held while the history is read and appended to: two tools making
	 * the same seed at once must not both find it new */
	if (fcntl(fd, F_SETFL, O_APPEND) == -1 || flock(fd, LOCK_EX) == -1 ||
	    (f = fdopen(fd, "a+")) == NULL) {
		dl_error_sys(e, "%s", path);
		close(fd);
		return -1;
	}
	if (end_last_line(f, fd) == -1) {
		dl_error_sys(e, "%s", path);
		fclose(f);
		return -1;
	}
	rewind(f);
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, hex, 2 * FINGERPRINT_BYTES) == 0) {
			fclose(f);
			return dl_error_set(e, DL_ERR_INPUT, "this seed was made before (it "
			    "is in %s): refusing to deal the same series again", path);
		}
	off_t before = lseek(fd, 0, SEEK_END);
	if (fprintf(f, "%s\n", hex) < 0 || fflush(f) == EOF || fsync(fd) == -1) {
		/* a full disk may take part of the line: the next one would be
		 * appended to that part and never be found again */
		int saved = errno;
		int cut = before != -1 && ftruncate(fd, before) == 0;
		errno = saved;
		dl_error_sys(e, cut ? "%s" : "%s (part of a line may be left in it)", path);
		fclose(f);
		return -1;
	}
	if (fclose(f) == EOF)		/* and the lock with it */
		return dl_error_sys(e, "%s", path);
	return 0;
}

int
history_check_and_record(const struct seed_record *seed, struct dl_error *e)
{
	unsigned char fp[FINGERPRINT_BYTES];
	char hex[2 * FINGERPRINT_BYTES + 1], *path;
	int status;

	if (history_path(&path, e) == -1)
		return -1;
	if (path == NULL)
		return 0;
	history_fingerprint(seed, fp);
	sodium_bin2hex(hex, sizeof hex, fp, sizeof fp);
	status = check_and_record(path, hex, e);
	free(path);
	return status;
}
