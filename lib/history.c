#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "history.h"

#define FINGERPRINT_BYTES 16
/* BLAKE2b keyed with a fixed label: a fingerprint says nothing about the
 * seed, and fingerprints of dl's history match nothing else. */
static const char fingerprint_key[] = "dl seed history, version 1";

static char *cached_path;

/* Memory still reachable at exit is an error to make memcheck. */
static void
free_path(void)
{
	free(cached_path);
}

const char *
history_path(void)
{
	const char *env = getenv("DL_SEED_HISTORY"), *state, *home;

	if (cached_path != NULL)
		return cached_path;
	if (env != NULL && strcmp(env, "off") == 0)
		return NULL;
	if (env != NULL && *env != '\0')
		cached_path = strdup(env);
	else if ((state = getenv("XDG_STATE_HOME")) != NULL && *state == '/') {
		if (asprintf(&cached_path, "%s/dl/seed-history", state) == -1)
			cached_path = NULL;
	} else if ((home = getenv("HOME")) != NULL && *home != '\0') {
		if (asprintf(&cached_path, "%s/.local/state/dl/seed-history",
		    home) == -1)
			cached_path = NULL;
	}
	if (cached_path == NULL)
		errx(1, "no place for the seed history: set HOME or DL_SEED_HISTORY");
	atexit(free_path);
	return cached_path;
}

/* mkdir -p, mode 0700: the history is nobody else's business. */
static void
make_parents(const char *path)
{
	char *copy = strdup(path);

	if (copy == NULL)
		err(2, "strdup");
	for (char *p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0700) == -1 && errno != EEXIST)
			err(1, "%s", copy);
		*p = '/';
	}
	free(copy);
}

void
history_check_and_record(const struct seed_record *seed)
{
	const char *path = history_path();
	unsigned char fp[FINGERPRINT_BYTES];
	char hex[2 * FINGERPRINT_BYTES + 2], line[sizeof hex + 2];
	FILE *f;
	int fd;

	if (path == NULL)
		return;
	crypto_generichash(fp, sizeof fp, (const unsigned char *)seed, sizeof *seed,
	    (const unsigned char *)fingerprint_key, sizeof fingerprint_key - 1);
	sodium_bin2hex(hex, sizeof hex, fp, sizeof fp);
	make_parents(path);
	if ((fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600)) == -1)
		err(1, "%s", path);
	if (flock(fd, LOCK_EX) == -1 || (f = fdopen(fd, "a+")) == NULL)
		err(1, "%s", path);
	rewind(f);
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, hex, 2 * FINGERPRINT_BYTES) == 0)
			errx(1, "this seed was made before (it is in %s): "
			    "refusing to deal the same series again", path);
	off_t before = lseek(fd, 0, SEEK_END);
	if (fprintf(f, "%s\n", hex) < 0 || fflush(f) == EOF || fsync(fd) == -1) {
		/* a full disk may take part of the line: the next one would be
		 * appended to that part and never be found again */
		int saved = errno;
		int cut = before != -1 && ftruncate(fd, before) == 0;
		errno = saved;
		err(1, cut ? "%s" : "%s (part of a line may be left in it)", path);
	}
	fclose(f);		/* and the lock with it */
}
