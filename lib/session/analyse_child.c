/* The double-dummy analysis by dl-dd, the tool, in a process of its own
 * for each chunk of boards: dl-web's (session.h).  dl-web then never
 * loads DDS itself, whose start costs 20 ms, a cost every request would
 * pay, analysed or not.  The deals reach dl-dd as a deals stream in an
 * anonymous memory file (its standard input), never on a disk or a
 * command line, and come back as a deals+dd stream on a pipe. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stream/proto.h"
#include "session/session.h"
#include "base/cleanup.h"
#include "base/util.h"

extern char **environ;

static struct child {
	char *dl_dd;		/* beside this program */
	char name[64];
	/* watched: told each board solved (session.h), of the run's total */
	void (*solved)(void *arg, unsigned long done, unsigned long total);
	void *solved_arg;
	unsigned long done, total;
} child_state;

/* dl-dd beside this program (build/bin, or where both were installed). */
static int
find_dl_dd(struct child *c, struct dl_error *e)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	char *slash;

	if (c->dl_dd != NULL)
		return 0;
	if (n <= 0)
		return dl_error_sys(e, "/proc/self/exe");
	self[n] = '\0';
	slash = strrchr(self, '/');
	*slash = '\0';
	c->dl_dd = xasprintf("%s/dl-dd", self);
	if (access(c->dl_dd, X_OK) == -1)
		return dl_error_sys(e, "%s", c->dl_dd);
	return 0;
}

/* dl-dd -q on the stream in memory (len bytes of text); its output
 * stream's records to each(). */
static int
run_dl_dd(struct child *c, const char *text, size_t len,
    int (*each)(struct stream_in *s, char *line, size_t len, void *arg), void *arg,
    int want_name, struct dl_error *e)
{
	int in = memfd_create("dl-web deals", MFD_CLOEXEC), out[2] = { -1, -1 }, status, r = -1;
	char *argv[] = { "dl-dd", "-q", NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t defaults;
	struct stream_in s;
	pid_t pid;
	FILE *fp;

	if (in == -1 || write(in, text, len) != (ssize_t)len || lseek(in, 0, SEEK_SET) == -1 ||
	    pipe2(out, O_CLOEXEC) == -1) {
		dl_error_sys(e, "dl-dd");
		goto close;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in, STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	/* the run for the name is refused by design ("no boards"): not a
	 * line for the server's log */
	if (want_name)
		posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	/* the signals a caller that must finish ignores (cleanup.h) end
	 * dl-dd as they would: told to end, it ends */
	posix_spawnattr_init(&attr);
	sigemptyset(&defaults);
	sigaddset(&defaults, SIGTERM);
	sigaddset(&defaults, SIGHUP);
	sigaddset(&defaults, SIGPIPE);
	posix_spawnattr_setsigdefault(&attr, &defaults);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	errno = posix_spawn(&pid, c->dl_dd, &fa, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	if (errno != 0) {
		dl_error_sys(e, "%s", c->dl_dd);
		goto close;
	}
	/* ended with us: a request cut off does not leave it solving (a
	 * full registry leaves it to its own CPU limit, DL_WEB_CPU's) */
	cleanup_add_child(pid);
	close(out[1]);
	out[1] = -1;
	/* watched: dl-dd says nothing until its boards are solved (it
	 * writes them at its end); told about once a second meanwhile, the
	 * same number solved, so that a page streaming it shows it alive
	 * (and a web server that drops a response silent for long keeps it) */
	if (!want_name && c->solved != NULL) {
		struct pollfd pfd = { .fd = out[0], .events = POLLIN };
		int ready;

		while ((ready = poll(&pfd, 1, 1000)) == 0 || (ready == -1 && errno == EINTR))
			if (ready == 0)
				c->solved(c->solved_arg, c->done, c->total);
	}
	fp = fdopen(out[0], "r");
	out[0] = -1;
	if (want_name) {
		/* its headers name the solver (#A:), whatever follows */
		struct dl_error ignored;

		if (stream_open_deals(&s, fp, STREAM_TAKES_ANALYSED, &ignored) == 0) {
			const char *solver = stream_header(&s, 'A');

			if (solver != NULL)
				strlcpy(c->name, solver, sizeof c->name);
			stream_close(&s);
		}
		r = 0;
	} else if (stream_open_deals(&s, fp, STREAM_TAKES_ANALYSED | STREAM_TAKES_OWN_DV,
	    e) == 0) {
		char *line;
		size_t n;
		int got;

		while ((got = stream_next_record(&s, &line, &n, e)) == 1)
			if (each(&s, line, n, arg) == -1) {
				got = -1;
				break;
			}
		stream_close(&s);
		r = got == 0 ? 0 : -1;
	}
	fclose(fp);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	cleanup_forget_child(pid);
	if (r == 0 && !want_name && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
		r = dl_error_set(e, DL_ERR_SYSTEM, "dl-dd failed (status %d)",
		    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
close:
	if (in != -1)
		close(in);
	if (out[0] != -1)
		close(out[0]);
	if (out[1] != -1)
		close(out[1]);
	return r;
}

static int
child_start(void *ctx, unsigned long total, int shown, struct dl_error *e)
{
	struct child *c = ctx;

	(void)shown;
	c->done = 0;
	c->total = total;
	return find_dl_dd(c, e);
}

static void
child_watch(void *ctx, void (*solved)(void *arg, unsigned long done, unsigned long total),
    void *arg)
{
	struct child *c = ctx;

	c->solved = solved;
	c->solved_arg = arg;
}

struct results {
	struct child *c;
	unsigned first;
	size_t n;
	struct dl_analysis *analysis;
};

static int
take_result(struct stream_in *s, char *line, size_t len, void *arg)
{
	struct results *r = arg;
	unsigned char owner[CARDS];
	struct dl_error e;
	unsigned board;

	if (record_deal(s, line, len, &board, owner, &e) == -1 || board < r->first ||
	    board - r->first >= r->n || stream_analysis(s) == NULL)
		return -1;
	r->analysis[board - r->first] = *stream_analysis(s);
	if (r->c->solved != NULL)
		r->c->solved(r->c->solved_arg, ++r->c->done, r->c->total);
	return 0;
}

/* A deals stream's head, "#P: dl/1 deals" and boards' #B: (none when
 * NULL), into the cap bytes at text, as every tool writes it: its
 * length (0 when it does not fit). */
static size_t
deals_head(char *text, size_t cap, const struct board_range *boards)
{
	FILE *fp = fmemopen(text, cap, "w");
	struct stream_out o;
	long len;

	if (fp == NULL)
		return 0;
	stream_out_begin(&o, fp, STREAM_DEALS);
	if (boards != NULL)
		stream_out_range(&o, boards->low, boards->high);
	len = ferror(fp) ? -1 : ftell(fp);
	fclose(fp);
	return len > 0 && (size_t)len < cap ? (size_t)len : 0;
}

/* Whether a board of the n has a dealer or vulnerability other than its
 * number's (a set read from a file): its par is for its own. */
static int
own_dv(unsigned first, size_t n, const int dealer[], const int vulnerability[])
{
	for (size_t i = 0; i < n; i++) {
		unsigned board = first + (unsigned)i;

		if ((dealer != NULL && dealer[i] != -1 && dealer[i] != (int)dl_dealer(board)) ||
		    (vulnerability != NULL && vulnerability[i] != -1 &&
		    vulnerability[i] != (int)dl_vulnerability(board)))
			return 1;
	}
	return 0;
}

/* The same boards as a deals+dv stream, each with its own dealer and
 * vulnerability, into the cap bytes at text: its length (0 when it does
 * not fit). */
static size_t
deals_dv_text(char *text, size_t cap, unsigned first, size_t n,
    const unsigned char (*owner)[CARDS], const int dealer[], const int vulnerability[])
{
	FILE *fp = fmemopen(text, cap, "w");
	struct stream_out o;
	long len;

	if (fp == NULL)
		return 0;
	/* the deals, perhaps not yet played, into secret memory alone: no
	 * buffer of stdio's between */
	setvbuf(fp, NULL, _IONBF, 0);
	stream_out_begin_dv(&o, fp, STREAM_DEALS, 1);
	stream_out_range(&o, first, (unsigned)(first + n - 1));
	for (size_t i = 0; i < n; i++) {
		unsigned board = first + (unsigned)i;

		stream_out_deal_dv(&o, board, owner[i],
		    dealer != NULL && dealer[i] != -1 ? dealer[i] : (int)dl_dealer(board),
		    vulnerability != NULL && vulnerability[i] != -1 ? vulnerability[i] :
		    (int)dl_vulnerability(board));
	}
	len = ferror(fp) ? -1 : ftell(fp);
	fclose(fp);
	return len > 0 && (size_t)len < cap ? (size_t)len : 0;
}

/* The n boards from first on through one dl-dd. */
static int
analyse_piece(struct child *c, unsigned first, size_t n, const unsigned char (*owner)[CARDS],
    const int dealer[], const int vulnerability[], struct dl_analysis analysis[],
    struct dl_error *e)
{
	struct results r = { c, first, n, analysis };
	size_t cap = 64 + n * (RECORD_TEXT_MAX + DV_TEXT_MAX), len;
	char *text = secret_alloc(cap);

	struct board_range boards = { first, (unsigned)(first + n - 1) };

	dl_error_clear(e);
	/* a board dealt here, or read with its number's dealer and
	 * vulnerability: a plain deals stream, the fastest written */
	if (own_dv(first, n, dealer, vulnerability))
		len = deals_dv_text(text, cap, first, n, owner, dealer, vulnerability);
	else {
		len = deals_head(text, cap, &boards);
		len += records_deal_text(text + len, first, n, owner);
	}
	if (len == 0 || run_dl_dd(c, text, len, take_result, &r, 0, e) == -1) {
		secret_free(text);
		if (e->kind == DL_ERR_NONE)
			dl_error_set(e, DL_ERR_SYSTEM, "dl-dd's analysis could not be read");
		return -1;
	}
	secret_free(text);
	return 0;
}

/* The boards in one dl-dd; watched, as many at a time as there are cores
 * (session.h), each piece's boards told as they come back. */
static int
child_analyse(void *ctx, unsigned first, size_t n, const unsigned char (*owner)[CARDS],
    const int dealer[], const int vulnerability[], struct dl_analysis analysis[],
    struct dl_error *e)
{
	struct child *c = ctx;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t piece = c->solved == NULL ? n : cores > 0 ? (size_t)cores : 1;

	for (size_t at = 0; at < n; at += piece) {
		size_t k = n - at < piece ? n - at : piece;

		if (analyse_piece(c, first + (unsigned)at, k, owner + at,
		    dealer != NULL ? dealer + at : NULL,
		    vulnerability != NULL ? vulnerability + at : NULL, analysis + at, e) == -1)
			return -1;
	}
	return 0;
}

static void
child_stop(void *ctx)
{
	(void)ctx;
}

/* dl-dd's #A:, from a run on no boards (which it refuses, after its
 * headers). */
static void
child_name(void *ctx, char *buf, size_t size)
{
	struct child *c = ctx;
	struct dl_error e;

	char head[64];
	size_t len;

	if (c->name[0] == '\0' && find_dl_dd(c, &e) == 0 &&
	    (len = deals_head(head, sizeof head, NULL)) > 0)
		run_dl_dd(c, head, len, NULL, NULL, 1, &e);
	snprintf(buf, size, "%s", c->name[0] != '\0' ? c->name : "dds");
}

const struct session_analyser session_dl_dd = {
	.start = child_start, .analyse = child_analyse, .stop = child_stop, .name = child_name,
	.watch = child_watch, .ctx = &child_state,
};
