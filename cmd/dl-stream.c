/* dl-stream: seed record in, one deal number per board out. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "base/cleanup.h"
#include "keys/generator.h"
#include "deals/mapping.h"
#include "stream/proto.h"
#include "base/ring.h"
#include "keys/seed.h"
#include "tool.h"
#include "base/util.h"

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

/* The boards are made CHUNK_BOARDS at a time into memory.  With -j, by
 * that many threads, each chunk by whichever is free (lib/base/ring.h),
 * while this thread writes them out in order.  A multiple of dl256's 256
 * boards a call, so no thread makes boards that belong to another's
 * chunk.  Two chunks a thread: one made while the other waits its turn. */
#define CHUNK_BOARDS 4096
#define THREADS_MAX 32	/* each holds a secret: lib/base/cleanup.c keeps 64 */

struct chunk {
	char *text;
	size_t len;
};

struct makers {
	const struct mapping *map;	/* deals; NULL: numbers */
	struct board_range range;
	struct number_source *ns;	/* each thread's */
	struct chunk *chunk;		/* by slot */
};

/* Deals are made GROUP_BOARDS at a time: the mapping unranks several side
 * by side (map->deals), and their records are written as a run. */
#define GROUP_BOARDS 64

/* The ring's maker: chunk number item of the range as text, into its
 * slot, with the deal numbers of worker's own number source. */
static void
make_chunk(void *ctx, unsigned worker, unsigned long item, size_t slot)
{
	struct makers *m = ctx;
	struct number_source *ns = &m->ns[worker];
	struct chunk *c = &m->chunk[slot];
	unsigned long low = m->range.low + item * CHUNK_BOARDS;
	unsigned long high = m->range.high - low < CHUNK_BOARDS ? m->range.high :
	    low + CHUNK_BOARDS - 1;
	char *p = c->text;

	if (m->map == NULL) {
		for (unsigned long board = low; board <= high; board++)
			p += record_number_text(p, (unsigned)board,
			    number_source_board(ns, (unsigned)board));
		c->len = (size_t)(p - c->text);
		return;
	}
	for (unsigned long first = low; first <= high; first += GROUP_BOARDS) {
		size_t n = high - first + 1 < GROUP_BOARDS ? high - first + 1 : GROUP_BOARDS;
		u128 numbers[GROUP_BOARDS];
		unsigned char owner[GROUP_BOARDS][CARDS];
		for (size_t i = 0; i < n; i++)
			numbers[i] = number_source_board(ns, (unsigned)(first + i));
		m->map->deals(numbers, n, owner);
		p += records_deal_text(p, (unsigned)first, n, owner);
	}
	c->len = (size_t)(p - c->text);
}

/* The boards of range, made by that many threads (one: in this thread),
 * written in order. */
static void
make_boards(const struct seed_record *seed, struct board_range range,
    const struct mapping *map, unsigned threads)
{
	struct makers m = { .map = map, .range = range };
	unsigned long boards = (unsigned long)range.high - range.low + 1;
	size_t size = (size_t)CHUNK_BOARDS * RECORD_TEXT_MAX, slots = 2 * (size_t)threads;
	struct ring *ring;
	int write_errno = 0;
	size_t slot;

	m.ns = xcalloc(threads, sizeof *m.ns);
	m.chunk = xcalloc(slots, sizeof *m.chunk);
	for (unsigned i = 0; i < threads; i++)
		number_source_init(&m.ns[i], seed, range.high);
	for (size_t i = 0; i < slots; i++)
		m.chunk[i].text = xmalloc(size);
	ring = ring_start(&(struct ring_work){ .ctx = &m, .slots = slots,
	    .make = make_chunk, .items = (boards + CHUNK_BOARDS - 1) / CHUNK_BOARDS },
	    threads > 1 ? threads : 0);
	while (ring_take(ring, &slot) == 1) {
		if (fwrite_unlocked(m.chunk[slot].text, 1, m.chunk[slot].len, stdout) <
		    m.chunk[slot].len) {
			write_errno = errno != 0 ? errno : EIO;
			break;
		}
		ring_taken(ring);
	}
	ring_free(ring);
	for (unsigned i = 0; i < threads; i++)
		number_source_free(&m.ns[i]);
	for (size_t i = 0; i < slots; i++) {
		/* deal numbers and deals before play */
		sodium_memzero(m.chunk[i].text, size);
		free(m.chunk[i].text);
	}
	free(m.chunk);
	free(m.ns);
	if (write_errno != 0) {
		errno = write_errno;
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
