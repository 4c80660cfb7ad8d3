/* dl-stream: seed record in, one deal number per board out. */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "cleanup.h"
#include "generator.h"
#include "mapping.h"
#include "proto.h"
#include "seed.h"
#include "tool.h"
#include "util.h"

#define DEFAULT_BOARDS "32"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-stream [-d] [-g generator] [-j threads] [-n boards]\n"
	    "                 [--event number] [--session number] [--shard k/n]\n");
	exit(status);
}

static uint64_t
coordinate(const char *text, uint64_t max, const char *what)
{
	const char *why;
	uint64_t value;

	if (u64_parse(text, max, &value, &why) == -1)
		tool_fail(DL_ERR_USAGE, "--%s %s: %s (0 to %llu)", what, text, why,
		    (unsigned long long)max);
	return value;
}

/* --shard K/N: which part. */
static void
shard_option(const char *text, struct stream_shard *sh)
{
	const char *why;

	if (shard_parse(text, strlen(text), &sh->part, &sh->parts, &why) == -1)
		tool_fail(DL_ERR_USAGE, "--shard %s: %s", text, why);
}

/* The boards of that part of the run whole. */
static struct board_range
shard_range(struct stream_shard *sh, struct board_range whole)
{
	struct board_range boards;

	sh->whole = whole;
	if (shard_boards(sh, &boards) == -1)
		tool_fail(DL_ERR_USAGE, "--shard %u/%u: more shards than the %llu boards",
		    sh->part, sh->parts, (unsigned long long)whole.high - whole.low + 1);
	return boards;
}

/* The boards are made CHUNK_BOARDS at a time into memory.  With -j, each
 * thread makes every threads-th chunk and writes it when its turn comes,
 * then makes its next: the writes go in order, and a thread waits only
 * while the one before writes.  A multiple of dl256's 256 boards a call,
 * so no thread makes boards that belong to another's chunk. */
#define CHUNK_BOARDS 4096
#define THREADS_MAX 32	/* each holds a secret: lib/base/cleanup.c keeps 64 */

struct chunk {
	unsigned long first, last;	/* its boards */
	char *text;
	size_t len;
};

/* Whose turn it is to write: the number of the next chunk. */
struct turn {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	unsigned long next;
	/* the first failed write's errno (errno is each thread's own: the
	 * main thread would report EIO); the threads then stop */
	int write_errno;
};

struct maker {
	pthread_t thread;
	struct number_source ns;
	const struct mapping *map;	/* deals; NULL: numbers */
	struct chunk chunk;
	/* with -j: the chunks numbered index, index + threads, ... */
	unsigned index, threads;
	struct board_range range;
	struct turn *turn;
};

/* Deals are made GROUP_BOARDS at a time: the mapping unranks several side
 * by side (map->deals), and their records are written as a run. */
#define GROUP_BOARDS 64

static void
make_chunk(struct maker *m, struct chunk *c)
{
	char *p = c->text;

	if (m->map == NULL) {
		for (unsigned long board = c->first; board <= c->last; board++)
			p += record_number_text(p, (unsigned)board,
			    number_source_board(&m->ns, (unsigned)board));
		c->len = (size_t)(p - c->text);
		return;
	}
	for (unsigned long first = c->first; first <= c->last; first += GROUP_BOARDS) {
		size_t n = c->last - first + 1 < GROUP_BOARDS ? c->last - first + 1 : GROUP_BOARDS;
		u128 numbers[GROUP_BOARDS];
		unsigned char owner[GROUP_BOARDS][CARDS];
		for (size_t i = 0; i < n; i++)
			numbers[i] = number_source_board(&m->ns, (unsigned)(first + i));
		m->map->deals(numbers, n, owner);
		p += records_deal_text(p, (unsigned)first, n, owner);
	}
	c->len = (size_t)(p - c->text);
}

/* Chunk number k of range: 0 when there is none. */
static int
chunk_of(struct chunk *c, unsigned long k, struct board_range range)
{
	unsigned long first = range.low + k * CHUNK_BOARDS;

	if (first > range.high)
		return 0;
	c->first = first;
	c->last = range.high - first < CHUNK_BOARDS ? range.high : first + CHUNK_BOARDS - 1;
	return 1;
}

static void *
maker_thread(void *arg)
{
	struct maker *m = arg;
	struct turn *t = m->turn;

	for (unsigned long k = m->index; chunk_of(&m->chunk, k, m->range); k += m->threads) {
		make_chunk(m, &m->chunk);
		pthread_mutex_lock(&t->lock);
		while (t->next != k)
			pthread_cond_wait(&t->changed, &t->lock);
		int stop = t->write_errno != 0, failed = 0;
		pthread_mutex_unlock(&t->lock);
		if (!stop && fwrite_unlocked(m->chunk.text, 1, m->chunk.len, stdout) <
		    m->chunk.len)
			failed = errno != 0 ? errno : EIO;
		pthread_mutex_lock(&t->lock);
		if (failed != 0 && t->write_errno == 0)
			t->write_errno = failed;
		stop = t->write_errno != 0;
		/* the turn passes on even so: a thread waiting for it stops too */
		t->next = k + 1;
		pthread_cond_broadcast(&t->changed);
		pthread_mutex_unlock(&t->lock);
		if (stop)
			break;
	}
	return NULL;
}

/* The boards of range, made by that many threads, written in order; one
 * thread's are made in the calling thread. */
static void
make_boards(const struct seed_record *seed, struct board_range range,
    const struct mapping *map, unsigned threads)
{
	struct maker *makers = xcalloc(threads, sizeof *makers);
	struct turn turn = { .next = 0 };
	size_t size = (size_t)CHUNK_BOARDS * RECORD_TEXT_MAX;

	if ((errno = pthread_mutex_init(&turn.lock, NULL)) != 0 ||
	    (errno = pthread_cond_init(&turn.changed, NULL)) != 0)
		tool_fail_sys("threads");
	for (unsigned i = 0; i < threads; i++) {
		makers[i] = (struct maker){ .map = map, .index = i, .threads = threads,
		    .range = range, .turn = &turn };
		makers[i].chunk.text = xmalloc(size);
		number_source_init(&makers[i].ns, seed, range.high);
	}
	if (threads == 1)
		maker_thread(&makers[0]);
	for (unsigned i = 0; threads > 1 && i < threads; i++)
		if ((errno = cleanup_thread_create(&makers[i].thread, maker_thread, &makers[i])) != 0)
			tool_fail_sys("a thread");
	for (unsigned i = 0; i < threads; i++) {
		if (threads > 1)
			pthread_join(makers[i].thread, NULL);
		number_source_free(&makers[i].ns);
		/* deal numbers and deals before play */
		sodium_memzero(makers[i].chunk.text, size);
		free(makers[i].chunk.text);
	}
	pthread_mutex_destroy(&turn.lock);
	pthread_cond_destroy(&turn.changed);
	free(makers);
	if (turn.write_errno != 0) {
		errno = turn.write_errno;
		xfclose(stdout, "standard output");	/* reports it, and exits */
	}
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "deals", no_argument, NULL, 'd' },
		{ "event", required_argument, NULL, 'E' },
		{ "generator", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ "threads", required_argument, NULL, 'j' },
		{ "session", required_argument, NULL, 'S' },
		{ "shard", required_argument, NULL, 'K' },
		{ NULL, 0, NULL, 0 },
	};
	const char *boards = NULL, *why, *event = NULL, *session = NULL, *shard = NULL;
	const struct mapping *map = NULL;
	struct stream_shard sh = { 0 };
	unsigned threads = 1;
	int deals = 0;
	const struct generator *wanted = NULL;
	struct board_range range, whole;
	struct stream_in in;
	struct stream_out out;
	struct seed_record *seed;
	struct dl_error e;
	char header[128];
	int ch;

	tool_start();
	opterr = 0;	/* tool_bad_option says what is wrong */
	while ((ch = getopt_long(argc, argv, "dg:hj:n:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd': deals = 1; break;
		case 'E': event = optarg; break;
		case 'g':
			if ((wanted = generator_find(optarg)) == NULL)
				tool_fail(DL_ERR_USAGE, "unknown generator \"%s\" (known: %s)",
				    optarg, generator_names());
			break;
		case 'h': usage(stdout, 0);
		case 'j': threads = tool_threads(optarg, THREADS_MAX); break;
		case 'n': boards = optarg; break;
		case 'S': session = optarg; break;
		case 'K': shard = optarg; break;
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	if (boards != NULL && board_range_parse(boards, &range, &why) == -1)
		tool_fail(DL_ERR_USAGE, "-n %s: %s", boards, why);
	if (shard != NULL)
		shard_option(shard, &sh);
	tool_sodium_init();

	seed = secret_alloc(sizeof *seed);
	if (stream_open(&in, stdin, STREAM_SEED, &e) == -1)
		tool_die(&e);
	/* without -n: the session's boards, when the seed stream announces them */
	if (boards == NULL && !stream_range(&in, &range))
		board_range_parse(DEFAULT_BOARDS, &range, &why);
	if (seed_record_read(&in, seed, &e) == -1)
		tool_die(&e);
	if (wanted != NULL && seed->generator != wanted)
		tool_fail(DL_ERR_INPUT, "the seed is for the %s generator, not %s",
		    seed->generator->name, wanted->name);
	if ((event != NULL || session != NULL) && !seed->generator->coordinates)
		tool_fail(DL_ERR_USAGE, "--event and --session are coordinates of "
		    "generators that take them, not of %s", seed->generator->name);
	if (threads > 1 && seed->generator->sequential)
		tool_fail(DL_ERR_USAGE, "-j %u: the %s generator makes its boards in "
		    "sequence, one after another: one thread makes them", threads,
		    seed->generator->name);
	if (shard != NULL && seed->generator->sequential)
		tool_fail(DL_ERR_USAGE, "--shard: the %s generator makes its boards in "
		    "sequence, one after another: they cannot be made apart",
		    seed->generator->name);
	if (deals)
		map = mapping_find(seed->generator->mapping);
	if (event != NULL)
		seed->event = coordinate(event, seed->generator->max_event, "event");
	if (session != NULL)
		seed->session = (uint32_t)coordinate(session, UINT32_MAX, "session");
	whole = range;
	if (shard != NULL)
		range = shard_range(&sh, whole);

	/* --deals: the headers and records dl-map would make of the numbers */
	setup_stdout();
	stream_out_begin(&out, stdout, deals ? STREAM_DEALS : STREAM_NUMBERS);
	stream_out_copy_headers(&out, &in, deals ? "BGHM" : "BGH");
	generator_header(seed, header, sizeof header);
	stream_out_header(&out, 'G', header);
	stream_out_range(&out, range.low, range.high);
	if (shard != NULL)
		stream_out_shard(&out, &sh);
	if (deals)
		stream_out_header(&out, 'M', map->name);
	stream_close(&in);
	make_boards(seed, range, map, threads);
	secret_free(seed);
	xfclose(stdout, "standard output");
	return 0;
}
