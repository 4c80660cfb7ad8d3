#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <sodium.h>

#include "base/cleanup.h"
#include "keys/entropy.h"
#include "base/util.h"

struct entropy *
entropy_new(void)
{
	struct entropy *e = secret_alloc(sizeof *e);

	ripemd160_init(&e->pool);
	e->bits = 0;
	return e;
}

void
entropy_free(struct entropy *e)
{
	secret_free(e);
}

void
entropy_add_os(struct entropy *e)
{
	unsigned char os[ENTROPY_OS_BYTES];

	randombytes_buf(os, sizeof os);
	ripemd160_update(&e->pool, os, sizeof os);
	sodium_memzero(os, sizeof os);
	e->bits += 8 * ENTROPY_OS_BYTES;
}

void
entropy_add_string(struct entropy *e, const char *s)
{
	ripemd160_update(&e->pool, s, strlen(s));
	e->bits += ENTROPY_GIVEN_BITS * strlen(s);
}

void
entropy_add_bytes(struct entropy *e, const void *bytes, size_t len, unsigned bits)
{
	ripemd160_update(&e->pool, bytes, len);
	e->bits += bits;
}

static int
add_file(struct entropy *e, const char *path, int as_ints, struct dl_error *error)
{
	unsigned char buf[4096];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (fp == NULL)
		return dl_error_sys(error, "%s", path);
	setvbuf(fp, NULL, _IONBF, 0);	/* buf, wiped below, is the only copy */
	unsigned long total = 0;

	while ((n = fread(buf, 1, sizeof buf, fp)) > 0) {
		/* a device such as /dev/urandom never ends: a cap, not a hang */
		if ((total += n) > ENTROPY_FILE_MAX) {
			sodium_memzero(buf, sizeof buf);
			fclose(fp);
			return dl_error_set(error, DL_ERR_INPUT, "%s: more than %d MiB of "
			    "entropy: not an entropy file", path, ENTROPY_FILE_MAX >> 20);
		}
		for (size_t i = 0; as_ints && i < n; i++) {
			int value = buf[i];	/* native byte order, as bigdealx */
			ripemd160_update(&e->pool, &value, sizeof value);
		}
		if (!as_ints)
			ripemd160_update(&e->pool, buf, n);
		e->bits += ENTROPY_GIVEN_BITS * n;
	}
	sodium_memzero(buf, sizeof buf);
	if (ferror(fp)) {
		dl_error_sys(error, "%s", path);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	return 0;
}

int
entropy_add_file(struct entropy *e, const char *path, struct dl_error *error)
{
	return add_file(e, path, 0, error);
}

int
entropy_add_file_as_ints(struct entropy *e, const char *path, struct dl_error *error)
{
	return add_file(e, path, 1, error);
}

unsigned
keystroke_bits(unsigned long interval)
{
	unsigned bits = 0;

	/* how often the interval can be shifted right by 2 while it stays
	 * above 3, at most 6; and 2 bits for the key itself */
	while (bits < 6 && (interval >> 2) > 3) {
		interval >>= 2;
		bits++;
	}
	return bits + 2;
}

static int tty_fd = -1;
static struct termios tty_saved;

static void
restore_tty(void)
{
	tcsetattr(tty_fd, TCSAFLUSH, &tty_saved);
	cleanup_clear_tty();
	close(tty_fd);
	tty_fd = -1;
}

/* Raw mode, handed to the cleanup module: restored on every way out, and
 * after a stop (Ctrl-Z) and fg raw again. */
static int
raw_tty(struct dl_error *error)
{
	struct termios raw;

	if ((tty_fd = open("/dev/tty", O_RDWR | O_CLOEXEC)) == -1 || !isatty(tty_fd)) {
		if (tty_fd != -1)
			close(tty_fd);
		tty_fd = -1;
		return dl_error_set(error, DL_ERR_USAGE, "keyboard entropy needs a terminal");
	}
	if (tcgetattr(tty_fd, &tty_saved) == -1) {
		dl_error_sys(error, "/dev/tty");
		close(tty_fd);
		tty_fd = -1;
		return -1;
	}
	raw = tty_saved;
	raw.c_lflag &= (tcflag_t)~(ICANON | ECHO);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	cleanup_set_tty(tty_fd, &tty_saved, &raw, NULL);
	if (tcsetattr(tty_fd, TCSAFLUSH, &raw) == -1) {
		dl_error_sys(error, "/dev/tty");
		restore_tty();
		return -1;
	}
	return 0;
}

int
entropy_add_keyboard(struct entropy *e, unsigned long target, struct dl_error *error)
{
	struct timeval now, before = { 0, 0 };
	unsigned char key, previous = 0;
	int first = 1;

	if (raw_tty(error) == -1)
		return -1;
	dprintf(tty_fd, "Type at random until no more bits are needed.\n");
	while (e->bits < target) {
		int waiting = 0;
		dprintf(tty_fd, "\r%4lu bits still needed ", target - e->bits);
		/* a key already waiting was typed while we were not reading
		 * (stopped, or keys pasted): its timing tells nothing */
		ioctl(tty_fd, FIONREAD, &waiting);
		ssize_t n = read(tty_fd, &key, 1);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			restore_tty();
			return dl_error_set(error, DL_ERR_INPUT,
			    "keyboard entropy ended with %lu of %lu bits", e->bits, target);
		}
		gettimeofday(&now, NULL);
		ripemd160_update(&e->pool, &now, sizeof now);
		if (!first && key == previous)
			continue;	/* a repeated key tells little */
		unsigned long interval = (unsigned long)((now.tv_sec - before.tv_sec) * 1000000L +
		    (now.tv_usec - before.tv_usec));
		ripemd160_update(&e->pool, &key, 1);
		if (!first && waiting == 0)
			e->bits += keystroke_bits(interval);
		first = 0;
		previous = key;
		before = now;
	}
	dprintf(tty_fd, "\r   0 bits still needed: thank you\n");
	sodium_memzero(&key, sizeof key);
	sodium_memzero(&previous, sizeof previous);
	restore_tty();
	return 0;
}

void
entropy_finish(struct entropy *e, unsigned char random[BIGDEAL_SECRET])
{
	ripemd160_final(&e->pool, random);
}
