/* A second press of the dealing form is harmless (docs/web.md, "A second
 * press"): the form carries a one-time token (once), 128 random bits, no
 * secret of any set.  A deal that sends one takes an exclusive lock on a
 * file of the lock folder named by a hash of it (and of the user), and
 * writes its response into a private file of TMPDIR as it sends it, kept
 * ONCE_KEEP seconds: a second request with the same token relays that
 * file as it grows while the first deals, or, the first ended, answers
 * with the file, or, that gone, with a page that says which set was
 * dealt for the form and when.  The first request finishes
 * whoever still waits for it: its client gone, it writes on into the file
 * (cleanup_finish_regardless).  A request without a token deals as
 * before. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "base/cleanup.h"
#include "base/util.h"
#include "tool.h"
#include "page.h"

#define ONCE_BYTES 16
/* how long a response is kept for a press again: it holds the set's
 * seed and deals, in TMPDIR's memory (docs/web.md says why no longer) */
#define ONCE_KEEP (10 * 60)
/* how long the lock folder remembers which set a token dealt */
#define ONCE_REMEMBER (24 * 60 * 60)
/* how long a second press waits for the first while it sends nothing,
 * in tenths of a second */
#define ONCE_WAIT (300 * 10)

static const char once_prefix[] = "dl-web-once-";

static int
once_valid(const char *t)
{
	return strlen(t) == 2 * ONCE_BYTES && strspn(t, "0123456789abcdef") == 2 * ONCE_BYTES;
}

/* The token as the form sent it: 32 lowercase hex digits, or NULL. */
static const char *
once_sent(const struct cgi_form *form)
{
	const char *t = text_field(form, "once");

	if (t != NULL && !once_valid(t))
		refuse_logged(400, "Bad Request", "the form's one-time token", "the form's"
		    " one-time token (once) is not one this page gives: load the form again");
	return t;
}

/* The form's hidden field: the token a refused form was sent with, else
 * a new one.  A GET's query never gives it: a link cannot choose the
 * token a director's form will send. */
void
put_once_field(const struct cgi_form *sent)
{
	const char *method = getenv("REQUEST_METHOD");
	const char *t = sent != NULL && method != NULL && strcmp(method, "POST") == 0 ?
	    text_field(sent, "once") : NULL;
	char hex[2 * ONCE_BYTES + 1];

	/* (a page is being written: a token not this page's is not refused
	 * here, but replaced) */
	if (t == NULL || !once_valid(t)) {
		unsigned char bytes[ONCE_BYTES];

		randombytes_buf(bytes, sizeof bytes);
		sodium_bin2hex(hex, sizeof hex, bytes, sizeof bytes);
		t = hex;
	}
	printf("<input type=\"hidden\" name=\"once\" value=\"%s\">\n", t);
}

/* Old files removed: responses kept longer than ONCE_KEEP in TMPDIR (the
 * server user's own, regular), and in the lock folder (locks when not
 * NULL) the tokens remembered longer than ONCE_REMEMBER, each under its
 * lock, so that a request that waits on one is not left holding a file
 * no longer there (it looks again: once_begin). */
static void
sweep(const char *locks)
{
	const char *tmp = getenv("TMPDIR");
	const char *dirs[2] = { tmp != NULL && *tmp == '/' ? tmp : "/tmp", locks };
	time_t now = time(NULL);

	for (int k = 0; k < 2; k++) {
		DIR *d;
		struct dirent *de;

		if (dirs[k] == NULL || (d = opendir(dirs[k])) == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			struct stat st;
			const char *want = k == 0 ? once_prefix : "once-";

			if (strncmp(de->d_name, want, strlen(want)) != 0 ||
			    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1 ||
			    !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
			    now - st.st_mtime < (k == 0 ? ONCE_KEEP : ONCE_REMEMBER))
				continue;
			if (k == 0) {
				unlinkat(dirfd(d), de->d_name, 0);
				continue;
			}
			int fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

			if (fd == -1)
				continue;
			if (flock(fd, LOCK_EX | LOCK_NB) == 0)
				unlinkat(dirfd(d), de->d_name, 0);
			close(fd);
		}
		closedir(d);
	}
}

void
once_sweep(void)
{
	sweep(NULL);
}

/* The first request's: its response, written to standard output (a
 * client gone is no error) and into the file kept for a press again. */
static struct once {
	int lock;		/* held until the process ends */
	char *kept, *part;	/* the response kept, and as it is written */
	int file;		/* part's, -1 when it failed */
	int out;		/* standard output, -1 once its reader is gone */
} once = { -1, NULL, NULL, -1, 1 };

/* the page passes through it: its deals and seed, wiped at the end */
static char tee_buffer[1 << 16];

static int
write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);

		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

static ssize_t
tee_write(void *cookie, const char *buf, size_t n)
{
	struct once *o = cookie;

	if (o->out != -1 && write_all(o->out, buf, n) == -1)
		o->out = -1;
	if (o->file != -1 && write_all(o->file, buf, n) == -1) {
		close(o->file);
		o->file = -1;
	}
	return (ssize_t)n;
}

/* The page for a token that dealt its set, its response no longer kept. */
static void __attribute__((noreturn))
answered_already(long long set_id, time_t when)
{
	char at[16];
	struct tm tm;

	strftime(at, sizeof at, "%H:%M", localtime_r(&when, &tm));
	head(200, "OK", "text/html; charset=utf-8", NULL);
	page_begin("This form was sent already");
	printf("<p>This form was sent already: set %lld was dealt for it at %s. Nothing more"
	    " was dealt.</p>\n", set_id, at);
	page_end();
	xfflush(stdout, "standard output");
	exit(0);
}

/* The response kept, as it was sent, then removed: the press again is
 * answered; 0 when it is not there (or not the server user's own). */
static int
replay(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	char buf[65536];
	ssize_t r;

	if (fd == -1)
		return 0;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077) != 0 || time(NULL) - st.st_mtime >= ONCE_KEEP) {
		close(fd);
		return 0;
	}
	fflush(stdout);
	while ((r = read(fd, buf, sizeof buf)) > 0 || (r == -1 && errno == EINTR))
		if (r > 0 && write_all(STDOUT_FILENO, buf, (size_t)r) == -1)
			break;
	sodium_memzero(buf, sizeof buf);
	close(fd);
	unlink(path);
	return 1;
}

/* A second press while the first deals: the first's response as it is
 * written (its .part, the server user's own), relayed as it grows, so
 * that the second shows the same progress (a browser shows the second
 * press's answer, the first's abandoned).  follow: the file, -1 until it
 * is there; sent: the bytes relayed. */
static void
follow_part(int *follow, off_t *sent)
{
	char buf[65536];
	ssize_t r;

	if (*follow == -1) {
		struct stat st;
		int fd = open(once.part, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

		if (fd == -1)
			return;
		if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
		    (st.st_mode & 077) != 0) {
			close(fd);
			return;
		}
		*follow = fd;
	}
	while ((r = read(*follow, buf, sizeof buf)) > 0 || (r == -1 && errno == EINTR))
		if (r > 0) {
			if (write_all(STDOUT_FILENO, buf, (size_t)r) == -1)
				break;
			*sent += r;
		}
	sodium_memzero(buf, sizeof buf);
}

void
once_begin(const struct cgi_form *form)
{
	const char *token = once_sent(form), *user = getenv("REMOTE_USER");
	unsigned char hash[32];
	char hex[2 * sizeof hash + 1];
	crypto_generichash_state h;

	if (token == NULL)
		return;
	/* the user's token: another user's request with the same one is a
	 * request of its own */
	crypto_generichash_init(&h, NULL, 0, sizeof hash);
	crypto_generichash_update(&h, (const unsigned char *)token, strlen(token));
	crypto_generichash_update(&h, (const unsigned char *)"", 1);
	if (user != NULL)
		crypto_generichash_update(&h, (const unsigned char *)user, strlen(user));
	crypto_generichash_final(&h, hash, sizeof hash);
	sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);

	char *locks = lock_folder();
	char *path = xasprintf("%s/once-%s", locks, hex);
	const char *tmp = getenv("TMPDIR");

	sweep(locks);
	once.kept = xasprintf("%s/%s%s", tmp != NULL && *tmp == '/' ? tmp : "/tmp", once_prefix,
	    hex);
	once.part = xasprintf("%s.part", once.kept);
	int follow = -1;
	off_t sent = 0;

	for (int waited = 0;;) {
		struct stat held, named;
		int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);

		if (fd == -1)
			refuse_logged(500, "Internal Server Error", "the form's lock file cannot be"
			    " opened", "the form's lock file cannot be opened: %s", strerror(errno));
		while (flock(fd, LOCK_EX | LOCK_NB) == -1) {
			/* the first press is dealing: its answer is this one's */
			if (++waited > ONCE_WAIT && sent == 0)
				refuse_logged(503, "Service Unavailable", "the first request of the"
				    " form still dealing", "this form is still being dealt for its first"
				    " press: load this page again in a minute");
			if (waited > ONCE_WAIT)
				exit(EXIT_TROUBLE);	/* its page, as far as it came */
			off_t before = sent;

			follow_part(&follow, &sent);
			/* the bound is on silence: a first that streams (a dot a
			 * second) is followed however long it deals */
			if (sent > before)
				waited = 0;
			usleep(100000);
		}
		/* still the file of that name, not one swept meanwhile */
		if (fstat(fd, &held) == 0 && stat(path, &named) == 0 && held.st_ino == named.st_ino &&
		    held.st_dev == named.st_dev) {
			once.lock = fd;
			break;
		}
		close(fd);
	}
	free(path);
	free(locks);

	/* the first's page relayed in part: the rest of it (the same file,
	 * kept under its name or removed when the first failed: its page then
	 * ends with its failure), and nothing dealt */
	if (sent > 0) {
		follow_part(&follow, &sent);
		close(follow);
		unlink(once.kept);
		exit(0);
	}
	if (follow != -1)
		close(follow);

	char note[64];
	ssize_t n = pread(once.lock, note, sizeof note - 1, 0);
	long long set_id, when;

	if (n > 0) {
		note[n] = '\0';
		if (sscanf(note, "%lld %lld", &set_id, &when) == 2) {
			if (replay(once.kept))
				exit(0);
			answered_already(set_id, (time_t)when);
		}
	}
	/* the first: its response kept as it is written, and finished
	 * whether or not its client waits */
	unlink(once.part);
	once.file = open(once.part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (once.file != -1)
		cleanup_add_file(once.part);
	cleanup_finish_regardless();
	static const cookie_io_functions_t tee = { .write = tee_write };
	FILE *fp = fopencookie(&once, "w", tee);

	if (fp == NULL)
		return;
	fflush(stdout);
	setvbuf(fp, tee_buffer, _IOFBF, sizeof tee_buffer);
	stdout = fp;
}

/* The set dealt for the token: noted, for a press again. */
void
once_dealt(long long set_id)
{
	char note[64];
	int len;

	if (once.lock == -1)
		return;
	len = snprintf(note, sizeof note, "%lld %lld\n", set_id, (long long)time(NULL));
	/* not noted (a full disk): a press again deals a set of its own, as
	 * without a token */
	if (ftruncate(once.lock, 0) == -1 || pwrite(once.lock, note, (size_t)len, 0) != len)
		return;
}

/* The response whole: kept for a press again. */
void
once_end(void)
{
	if (once.lock == -1)
		return;
	fflush(stdout);
	sodium_memzero(tee_buffer, sizeof tee_buffer);
	if (once.file != -1 && close(once.file) == 0 && rename(once.part, once.kept) == 0)
		cleanup_forget_file(once.part);
	once.file = -1;
}
