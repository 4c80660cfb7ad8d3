#include <libgen.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "base/cleanup.h"
#include "stream/fingerprint.h"
#include "files/outfile.h"
#include "files/plugins.h"
#include "stream/proto.h"
#include "stream/tso.h"
#include "base/util.h"
#include "files/writers.h"
#include "stream/description.h"
#include "stream/description.h"

struct writer {
	struct loaded_plugin lp;
	struct dl_out out;
	FILE *fp;
	char *name;		/* for messages */
	struct outfile file;
	int to_stdout;		/* standard output, not a file */
	int crlf;
	void *state;
	/* begin succeeded (or there is none): end() is owed exactly once,
	 * after a failure too, so that the writer frees what begin made;
	 * then (discarding) what it writes is thrown away */
	int begun, discarding;
	char *failure;
	void (*warn)(const char *msg, void *arg);	/* the tool's, or NULL */
	void *warn_arg;
	int write_errno;	/* of the first short write, which may be a thread's */
	/* On the pool's threads (DL_CONCURRENT), as a lane of its ring; its
	 * end() has run (read once the ring's threads are done). */
	int pooled;
	int ended;
};

/* The writers that say they may run beside the others (DL_CONCURRENT)
 * are fed batches of boards through a ring (ring.h) by threads, one a
 * core: each writer, a lane, writes every batch in order, one thread at a
 * time, while the others write theirs and the calling thread reads the
 * next boards.  A run then costs its slowest writer, or the sum of the
 * writers over the cores, whichever is more, instead of the sum. */
#define BATCH_BOARDS 512
#define BATCH_SLOTS 4

struct batch {
	struct dl_deal deals[BATCH_BOARDS];
	struct dl_analysis *analyses;	/* BATCH_BOARDS of them, or NULL */
	size_t n;
};

struct pool {
	struct ring *ring;
	struct writer **lane;		/* the pooled writers, by lane */
	struct batch slot[BATCH_SLOTS];
	size_t filling;			/* the slot the caller fills */
};

struct writers {
	struct writer *w;
	size_t n;
	struct pool *pool;		/* NULL: every writer in the caller's thread */
	struct writers_options opt;
	struct dl_run run;
	int need_number;	/* some writer uses Big Deal's deal number */
	int need_fingerprint;	/* some writer prints the set's fingerprint */
	struct set_digest records;	/* the set's digest, for its fingerprint */
	char fingerprint[SET_FINGERPRINT_SIZE];
};

static void pool_free(struct writers *ws);

/* The stream's error flag says that a write failed; errno, which is per
 * thread, why: kept for writers_finish's message. */
static void
sink_bytes(struct writer *w, const void *bytes, size_t len)
{
	if (w->discarding)
		return;
	if (fwrite_unlocked(bytes, 1, len, w->fp) != len && w->write_errno == 0)
		w->write_errno = errno ? errno : EIO;
}

static void
sink_write(struct dl_out *out, const void *bytes, size_t len)
{
	struct writer *w = out->host;
	const char *p = bytes, *end = p + len, *nl;

	if (!w->crlf) {
		sink_bytes(w, bytes, len);
		return;
	}
	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		sink_bytes(w, p, (size_t)(nl - p));
		sink_bytes(w, "\r\n", 2);
		p = nl + 1;
	}
	sink_bytes(w, p, (size_t)(end - p));
}

static void
sink_print(struct dl_out *out, const char *fmt, ...)
{
	char buf[1024], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof buf) {
		sink_write(out, buf, (size_t)n);
		return;
	}
	va_start(ap, fmt);
	n = vasprintf(&big, fmt, ap);
	va_end(ap);
	if (n < 0) {
		/* out of memory: the writer fails, nothing is published */
		struct writer *w = out->host;
		if (w->failure == NULL)
			w->failure = xstrdup("out of memory");
		return;
	}
	sink_write(out, big, (size_t)n);
	free(big);
}

static void
sink_fail(struct dl_out *out, const char *fmt, ...)
{
	struct writer *w = out->host;
	char msg[DL_ERROR_MAX];
	va_list ap;

	if (w->failure != NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	w->failure = xstrdup(msg);
}

/* A writer's warning: to the tool's callback, escaped, after the
 * format's name; none from a writer whose output is thrown away. */
static void
sink_warn(struct dl_out *out, const char *fmt, ...)
{
	struct writer *w = out->host;
	char msg[DL_ERROR_MAX], escaped[sizeof msg * 4], *shown;
	va_list ap;

	if (w->discarding || w->warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	escape_text(escaped, sizeof escaped, msg, strlen(msg));
	shown = xasprintf("%s: %s", w->lp.plugin->name, escaped);
	w->warn(shown, w->warn_arg);
	free(shown);
}

/* A callback returned -1, or returned 0 after out->fail(). */
static int
callback_failed(const struct writer *w, int status)
{
	return status != 0 || w->failure != NULL;
}

/* A plugin callback failed: nothing is published.  The plugin's message
 * is its text: escaped like any untrusted text. */
static int
check_callback(struct writer *w, int status, struct dl_error *e)
{
	if (!callback_failed(w, status))
		return 0;
	return dl_error_set(e, DL_ERR_INPUT, "%s: %s", w->lp.plugin->name,
	    w->failure ? w->failure : "format writer failed");
}

static void
free_formats(struct writers *ws)
{
	pool_free(ws);
	/* a failed run: each writer begun and not ended still gets its end(),
	 * to free what begin made; its output is thrown away (the files are
	 * discarded, and standard output must not look complete) */
	for (size_t i = 0; i < ws->n; i++) {
		struct writer *w = &ws->w[i];
		if (w->begun && !w->ended && w->lp.plugin->end != NULL) {
			w->discarding = 1;
			w->ended = 1;
			w->lp.plugin->end(&w->out, &ws->run, w->state);
		}
	}
	for (size_t i = 0; i < ws->n; i++) {
		free(ws->w[i].name);
		free(ws->w[i].failure);
		plugin_unload(&ws->w[i].lp);
	}
	free(ws->w);
	free(ws);
}

/* Loads the plugins of a format list into ws. */
static int
load_formats(struct writers *ws, const struct format_list *formats, struct dl_error *e)
{
	ws->w = xcalloc(formats->n, sizeof *ws->w);
	for (size_t i = 0; i < formats->n; i++) {
		struct writer *w = &ws->w[ws->n];
		if (plugin_load_builtin(formats->names[i], ws->opt.builtins, &w->lp) == -1 &&
		    plugin_load(formats->names[i], &w->lp, e) == -1)
			return -1;
		ws->n++;
		w->to_stdout = ws->opt.prefix == NULL ||
		    (ws->opt.last_to_stdout && i + 1 == formats->n);
		/* standard output is no file: its suffix is nobody's */
		for (size_t j = 0; j + 1 < ws->n && !(ws->opt.prefix && w->to_stdout); j++)
			if (strcmp(ws->w[j].lp.plugin->suffix, w->lp.plugin->suffix) == 0)
				return dl_error_set(e, DL_ERR_USAGE,
				    "formats %s and %s both write .%s files",
				    ws->w[j].lp.plugin->name, w->lp.plugin->name,
				    w->lp.plugin->suffix);
	}
	return 0;
}

int
writers_open(struct writers **wsp, const struct format_list *formats,
    const struct writers_options *opt, struct dl_error *e)
{
	struct writers *ws = xcalloc(1, sizeof *ws);

	*wsp = NULL;
	ws->opt = *opt;
	set_digest_init(&ws->records);
	if (load_formats(ws, formats, e) == -1)
		goto fail;
	if (opt->prefix == NULL && ws->n != 1) {
		dl_error_set(e, DL_ERR_USAGE, "several formats need a file prefix (-p)");
		goto fail;
	}
	if (opt->prefix != NULL && *opt->prefix == '\0') {
		dl_error_set(e, DL_ERR_USAGE, "empty file prefix");
		goto fail;
	}
	for (size_t i = 0; i < ws->n; i++) {
		struct writer *w = &ws->w[i];
		const struct dl_plugin *p = w->lp.plugin;
		w->crlf = opt->crlf && p->kind == DL_TEXT;
		w->out = (struct dl_out){ sink_write, sink_print, sink_fail, w, sink_warn };
		w->warn = opt->warn;
		w->warn_arg = opt->warn_arg;
		if (w->to_stdout) {
			if (p->kind == DL_BINARY && isatty(STDOUT_FILENO)) {
				dl_error_set(e, DL_ERR_USAGE,
				    "%s is a binary format: not writing it to a terminal", p->name);
				goto fail;
			}
			w->name = xstrdup("standard output");
			continue;
		}
		w->name = xasprintf("%s.%s", opt->prefix, p->suffix);
		if (outfile_may_publish(w->name, opt->publish, opt->force, e) == -1)
			goto fail;
	}
	*wsp = ws;
	return 0;
fail:
	free_formats(ws);
	return -1;
}

/* The number of processors this process may run on. */
static unsigned
usable_cores(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

static int
write_batch(struct writers *ws, struct writer *w, const struct batch *b)
{
	const struct dl_plugin *p = w->lp.plugin;
	size_t n = b->n;

	for (size_t i = 0; p->board != NULL && i < n; i++)
		if (callback_failed(w, p->board(&w->out, &ws->run, &b->deals[i], w->state)))
			return -1;
	return 0;
}

/* The ring's callbacks: a lane's batch, a lane's end. */
static int
pool_take(void *ctx, size_t lane, unsigned long item, size_t slot)
{
	struct writers *ws = ctx;

	(void)item;
	return write_batch(ws, ws->pool->lane[lane], &ws->pool->slot[slot]);
}

static int
pool_finish(void *ctx, size_t lane)
{
	struct writers *ws = ctx;
	struct writer *w = ws->pool->lane[lane];
	const struct dl_plugin *p = w->lp.plugin;

	w->ended = 1;
	if (p->end == NULL)
		return 0;
	return callback_failed(w, p->end(&w->out, &ws->run, w->state)) ? -1 : 0;
}

/* The error of the writer that failed. */
static int
pool_failure(struct writers *ws, struct dl_error *e)
{
	long lane = ring_failed_lane(ws->pool->ring);

	if (lane == -1)
		return dl_error_set(e, DL_ERR_INPUT, "format writer failed");
	return check_callback(ws->pool->lane[lane], -1, e);
}

/* A writer that said it may run beside the others (DL_CONCURRENT, which
 * a plugin before version 3 cannot say). */
static int
writer_concurrent(const struct writer *w)
{
	return w->lp.plugin->abi_version >= 3 && (w->lp.plugin->needs & DL_CONCURRENT);
}

/* Threads for the writers that may run beside the others, when there are
 * cores to run them: as many as the writers, or the cores.  One writer
 * alone gets a thread too, and is written while the caller reads and
 * prepares the next boards.  Otherwise (or when no thread starts) no
 * pool: every writer is called in the caller's thread. */
static void
pool_start(struct writers *ws)
{
	unsigned threads = ws->opt.threads ? ws->opt.threads : usable_cores();
	size_t pooled = 0;
	struct pool *pool;

	for (size_t i = 0; i < ws->n; i++)
		pooled += writer_concurrent(&ws->w[i]);
	if (threads < 2 || pooled == 0)
		return;
	if (threads > pooled)
		threads = (unsigned)pooled;
	pool = ws->pool = xcalloc(1, sizeof *pool);
	pool->lane = xcalloc(pooled, sizeof *pool->lane);
	for (size_t i = 0, lane = 0; i < ws->n; i++)
		if (writer_concurrent(&ws->w[i]))
			pool->lane[lane++] = &ws->w[i];
	pool->ring = ring_start(&(struct ring_work){ .ctx = ws, .slots = BATCH_SLOTS,
	    .take = pool_take, .finish = pool_finish, .lanes = pooled }, threads);
	if (ring_threads(pool->ring) == 0) {
		pool_free(ws);
		return;
	}
	for (size_t i = 0; i < pooled; i++)
		pool->lane[i]->pooled = 1;
}

/* Stops the threads, if any are left, and frees the pool. */
static void
pool_free(struct writers *ws)
{
	struct pool *pool = ws->pool;

	if (pool == NULL)
		return;
	ring_free(pool->ring);
	for (unsigned i = 0; i < BATCH_SLOTS; i++)
		free(pool->slot[i].analyses);
	free(pool->lane);
	free(pool);
	ws->pool = NULL;
}

/* The batch being filled, to the threads; the next is filled once every
 * writer has written what was in its slot. */
static int
pool_hand(struct writers *ws, struct dl_error *e)
{
	struct pool *pool = ws->pool;

	/* after a failure a writer may still be writing the next slot */
	if (ring_hand(pool->ring, &pool->filling) == -1)
		return pool_failure(ws, e);
	pool->slot[pool->filling].n = 0;
	return 0;
}

const char *
writers_without_dealer(const struct writers *ws, size_t *i)
{
	while (*i < ws->n) {
		const struct dl_plugin *p = ws->w[(*i)++].lp.plugin;
		if (p->abi_version < 4 || !(p->needs & DL_KEEPS_DEALER))
			return p->name;
	}
	return NULL;
}

int
writer_holds(const struct dl_plugin *p, unsigned high, int past_limit, struct dl_error *e)
{
	if (p->max_board == 0 || high <= p->max_board ||
	    (past_limit && (p->needs & DL_WRAPS_PAST_MAX)))
		return 0;
	return dl_error_set(e, DL_ERR_INPUT, "format %s holds boards up to %u, not board %u",
	    p->name, p->max_board, high);
}

int
writers_begin(struct writers *ws, unsigned low, unsigned high, const char *event,
    char *const *headers, size_t nheaders, int analysed, int own_dv, struct dl_error *e)
{
	ws->run = (struct dl_run){
		.low = low, .high = high, .nboards = high - low + 1,
		.event = event,
		.generator = ws->opt.generator ? ws->opt.generator : DL_VERSION_STRING,
		.headers = (const char *const *)headers, .nheaders = nheaders,
		.analysed = analysed,
		.own_dv = own_dv,
	};
	/* where and when, from the stream's headers */
	struct set_description d;
	set_description_read(&d, headers, nheaders);
	ws->run.site = d.site;
	ws->run.date = d.date;
	ws->run.record_url = d.record_url;
	set_digest_init(&ws->records);
	for (size_t i = 0; i < ws->n; i++) {
		const struct dl_plugin *p = ws->w[i].lp.plugin;
		/* plugins before version 3 may read the number without saying */
		if (p->abi_version < 3 || (p->needs & DL_NEEDS_DEAL_NUMBER))
			ws->need_number = 1;
		if (p->needs & DL_NEEDS_FINGERPRINT)
			ws->need_fingerprint = 1;
		if (writer_holds(p, high, ws->opt.past_limit, e) == -1) {
			/* its message, then what follows from it */
			strlcat(e->msg, ": no files written", sizeof e->msg);
			return -1;
		}
	}
	for (size_t i = 0; i < ws->n; i++) {
		struct writer *w = &ws->w[i];
		if (w->to_stdout)
			w->fp = stdout;
		else if ((w->fp = outfile_create(&w->file, w->name, 0666, e)) == NULL)
			return -1;
		else
			w->file.scratch = ws->opt.scratch;
		if (w->lp.plugin->begin != NULL &&
		    check_callback(w, w->lp.plugin->begin(&w->out, &ws->run, &w->state), e) == -1)
			return -1;
		w->begun = 1;
	}
	pool_start(ws);
	return 0;
}

/* Where the board goes: the batch being filled, or (without threads) a
 * deal of the caller's. */
static struct dl_deal *
board_place(struct writers *ws, struct dl_deal *local, const struct dl_analysis **analysis)
{
	struct batch *b;

	if (ws->pool == NULL)
		return local;
	b = &ws->pool->slot[ws->pool->filling];
	if (*analysis != NULL) {
		/* the caller's analysis is overwritten by the next board's */
		if (b->analyses == NULL)
			b->analyses = xcalloc(BATCH_BOARDS, sizeof *b->analyses);
		b->analyses[b->n] = **analysis;
		*analysis = &b->analyses[b->n];
	}
	return &b->deals[b->n];
}

int
writers_board(struct writers *ws, unsigned board, const unsigned char owner[CARDS],
    int dealer, int vulnerability, const struct dl_analysis *analysis, struct dl_error *e)
{
	struct dl_deal local, *deal;

	if (ws->opt.tap != NULL && ws->opt.tap(ws->opt.tap_arg, board, owner, e) == -1)
		return -1;
	deal = board_place(ws, &local, &analysis);
	deal->board = board;
	deal->dealer = dealer != -1 ? dealer : (int)dl_dealer(board);
	deal->vulnerability = vulnerability != -1 ? vulnerability : (int)dl_vulnerability(board);
	memcpy(deal->owner, owner, CARDS);
	deal_hands(owner, deal->hand);
	/* the number costs more than the rest of the board: only on demand */
	if (ws->need_number)
		deal_number_to_bytes(number_from_deal(owner), deal->number);
	else
		memset(deal->number, 0, sizeof deal->number);
	deal->analysis = analysis;
	if (ws->need_fingerprint)
		set_digest_add(&ws->records, board, owner);
	for (size_t i = 0; i < ws->n; i++) {
		struct writer *w = &ws->w[i];
		if (!w->pooled && w->lp.plugin->board != NULL && check_callback(w,
		    w->lp.plugin->board(&w->out, &ws->run, deal, w->state), e) == -1)
			return -1;
	}
	if (ws->pool != NULL && ++ws->pool->slot[ws->pool->filling].n == BATCH_BOARDS)
		return pool_hand(ws, e);
	return 0;
}

/* The files appear as a set: every name is claimed or checked before any
 * is replaced (outfile_publish_set), so a run never publishes part of its
 * files, nor mixes them with another run's. */
static int
publish_all(struct writers *ws, struct dl_error *e)
{
	struct outfile **files = xcalloc(ws->n, sizeof *files);
	size_t n = 0;
	int status;

	for (size_t i = 0; i < ws->n; i++)
		if (!ws->w[i].to_stdout)
			files[n++] = &ws->w[i].file;
	status = outfile_publish_set(files, n, ws->opt.publish, ws->opt.force, e);
	free(files);
	for (size_t i = 0; status == 0 && ws->opt.report != NULL && i < ws->n; i++)
		if (!ws->w[i].to_stdout)
			fprintf(ws->opt.report, "%s\n", basename(ws->w[i].name));
	return status;
}

/* The last boards to the threads, and back when every writer has written
 * them: the run's fingerprint is set for end() only once no thread can be
 * reading the run.  -1 when a pooled writer failed. */
static int
pool_drain(struct writers *ws, struct dl_error *e)
{
	struct pool *pool = ws->pool;

	if (pool->slot[pool->filling].n > 0 && pool_hand(ws, e) == -1)
		return -1;
	return ring_drain(pool->ring) == -1 ? pool_failure(ws, e) : 0;
}

/* The pooled writers' ends, on the threads, which then stop. */
static int
pool_end(struct writers *ws, struct dl_error *e)
{
	return ring_close(ws->pool->ring) == -1 ? pool_failure(ws, e) : 0;
}

int
writers_finish(struct writers *ws, struct dl_error *e)
{
	unsigned char digest[SET_DIGEST_BYTES];

	if (ws->pool != NULL && pool_drain(ws, e) == -1)
		goto fail;
	if (ws->need_fingerprint) {
		set_digest_final(&ws->records, digest);
		set_fingerprint(digest, ws->fingerprint);
		ws->run.fingerprint = ws->fingerprint;
	}
	if (ws->pool != NULL && pool_end(ws, e) == -1)
		goto fail;
	for (size_t i = 0; i < ws->n; i++) {
		struct writer *w = &ws->w[i];
		if (!w->pooled && w->lp.plugin->end != NULL) {
			w->ended = 1;
			if (check_callback(w, w->lp.plugin->end(&w->out, &ws->run, w->state),
			    e) == -1)
				goto fail;
		}
		errno = 0;
		if (fflush(w->fp) == EOF || ferror(w->fp)) {
			if (w->write_errno != 0)
				errno = w->write_errno;
			else if (errno == 0)
				errno = EIO;
			dl_error_sys(e, "write error on %s", w->name);
			goto fail;
		}
	}
	if (ws->opt.prefix != NULL && publish_all(ws, e) == -1) {
		free_formats(ws);
		return -1;
	}
	free_formats(ws);
	return 0;
fail:
	writers_abort(ws);
	return -1;
}

void
writers_abort(struct writers *ws)
{
	struct dl_error ignored;

	/* standard output gets the boards before the failure, as without
	 * threads: a pipe's reader sees where the run stopped */
	if (ws->pool != NULL && ws->opt.prefix == NULL)
		pool_drain(ws, &ignored);
	pool_free(ws);
	for (size_t i = 0; ws->opt.prefix != NULL && i < ws->n; i++)
		if (ws->w[i].file.tmp != NULL)
			outfile_discard(&ws->w[i].file);
	free_formats(ws);
}
