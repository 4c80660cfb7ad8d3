/* dl-cat: the shards of a run (streams of numbers, deals or analysed deals
 * for consecutive board ranges) put back together as the one stream the
 * whole run would have made.  Shards that come through pipes are read all
 * at once, each by a thread of its own into a temporary file while the
 * ones before it are written: the processes making them all run. */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/cleanup.h"
#include "files/outfile.h"
#include "stream/proto.h"
#include "tool.h"
#include "base/util.h"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-cat file ...\n");
	exit(status);
}

struct shard {
	const char *name;
	FILE *fp;
	struct stream_in in;
	struct board_range boards;	/* its #B: */
	struct stream_shard of;		/* its #H:, parts 0 without one */
	/* a pipe after the first: its records, checked, wait here */
	FILE *spool;
	pthread_t reader;
	int reading;			/* its thread is not joined yet */
	int failed;
	struct dl_error error;
};

static int
open_shard(struct shard *sh, const char *name, struct dl_error *e)
{
	sh->name = name;
	if (strcmp(name, "-") == 0)
		sh->fp = stdin;
	else if ((sh->fp = fopen(name, "r")) == NULL)
		return dl_error_sys(e, "%s", name);
	if (stream_open_any(&sh->in, sh->fp, name, e) == -1)
		return -1;
	if (!stream_range(&sh->in, &sh->boards))
		return dl_error_set(e, DL_ERR_INPUT, "%s: no #B: header: a shard must say "
		    "its boards", name);
	return stream_shard(&sh->in, &sh->of, e);
}

/* Every header but #B: and #H: as the first shard's, in the same order. */
static int
headers_agree(const struct shard *first, const struct shard *sh, struct dl_error *e)
{
	enum stream_kind kind = stream_kind_of(&sh->in);
	enum stream_kind first_kind = stream_kind_of(&first->in);
	int own_dv = stream_own_dv(&sh->in), first_own_dv = stream_own_dv(&first->in);

	if (kind != first_kind || own_dv != first_own_dv)
		return dl_error_set(e, DL_ERR_INPUT, "%s: a %s stream, but %s is a %s stream",
		    sh->name, stream_kind_text(kind, own_dv), first->name,
		    stream_kind_text(first_kind, first_own_dv));
	if (!stream_headers_match(&first->in, &sh->in, "BH"))
		return dl_error_set(e, DL_ERR_INPUT, "%s: its headers are not those "
		    "of %s (a shard of another run?)", sh->name, first->name);
	return 0;
}

/* The shards follow on from each other, and when they say they are shards
 * (#H:) they are all of one run, in order, and none is missing. */
static int
check_shards(const struct shard *sh, size_t n, struct board_range *whole, struct dl_error *e)
{
	whole->low = sh[0].boards.low;
	whole->high = sh[n - 1].boards.high;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && headers_agree(&sh[0], &sh[i], e) == -1)
			return -1;
		if (i > 0 && sh[i].boards.low != sh[i - 1].boards.high + 1)
			return dl_error_set(e, DL_ERR_INPUT, "%s: boards %u-%u do not follow "
			    "on from %s's %u-%u", sh[i].name, sh[i].boards.low,
			    sh[i].boards.high, sh[i - 1].name, sh[i - 1].boards.low,
			    sh[i - 1].boards.high);
		if ((sh[i].of.parts != 0) != (sh[0].of.parts != 0))
			return dl_error_set(e, DL_ERR_INPUT, "%s: %s #H: header, as %s %s",
			    sh[i].name, sh[i].of.parts ? "has a" : "has no", sh[0].name,
			    sh[0].of.parts ? "has" : "has not");
		if (sh[i].of.parts == 0)
			continue;
		if (sh[i].of.parts != sh[0].of.parts || sh[i].of.whole.low != sh[0].of.whole.low ||
		    sh[i].of.whole.high != sh[0].of.whole.high)
			return dl_error_set(e, DL_ERR_INPUT, "%s: shard of another run (#H: "
			    "%u/%u %u-%u, %s says %u/%u %u-%u)", sh[i].name, sh[i].of.part,
			    sh[i].of.parts, sh[i].of.whole.low, sh[i].of.whole.high, sh[0].name,
			    sh[0].of.part, sh[0].of.parts, sh[0].of.whole.low, sh[0].of.whole.high);
		if (sh[i].of.part != i + 1)
			return dl_error_set(e, DL_ERR_INPUT, "%s: shard %u of %u where shard "
			    "%zu belongs", sh[i].name, sh[i].of.part, sh[i].of.parts, i + 1);
	}
	if (sh[0].of.parts != 0 && (n != sh[0].of.parts || whole->low != sh[0].of.whole.low ||
	    whole->high != sh[0].of.whole.high))
		return dl_error_set(e, DL_ERR_INPUT, "%zu of %u shards, boards %u-%u of "
		    "%u-%u: shards are missing", n, sh[0].of.parts, whole->low, whole->high,
		    sh[0].of.whole.low, sh[0].of.whole.high);
	return 0;
}

static void
write_headers(const struct shard *first, struct board_range whole)
{
	struct stream_out out;

	stream_out_begin_dv(&out, stdout, stream_kind_of(&first->in), stream_own_dv(&first->in));
	stream_out_copy_headers_with_range(&out, &first->in, "H", &whole);
}

/* The records as they are, to out: the next tool checks their fields;
 * here each must carry the next board of its shard's range, and hold
 * nothing but printable ASCII, which every record is: the copy goes to
 * standard output unescaped, where a shard's ESC ] 0 ; would retitle a
 * terminal. */
/* Set when the run fails: the readers still reading stop at their next
 * record, so that the tool ends with no thread of its own left. */
static atomic_int stopping;

static int
copy_records(struct shard *sh, FILE *out, struct dl_error *e)
{
	unsigned board;
	char *line, *field;
	size_t len;
	int got;

	while ((got = stream_next_record(&sh->in, &line, &len, e)) == 1) {
		if (atomic_load_explicit(&stopping, memory_order_relaxed))
			return 0;
		if (record_board(&sh->in, line, &board, &field, e) == -1)
			return -1;
		if (!text_is_plain_ascii(field, len - (size_t)(field - line)))
			return stream_error(&sh->in, e, "board %u: a control character or "
			    "non-ASCII byte in its record", board);
		/* the line goes out whole, as it came */
		fwrite_unlocked(line, 1, record_line_restore(line, len, field), out);
	}
	if (got == -1)
		return -1;
	if (stream_check_complete(&sh->in, e) == -1) {
		dl_error_prefix(e, "%s", sh->name);
		return -1;
	}
	return 0;
}

static void *
drain(void *arg)
{
	struct shard *sh = arg;

	if (copy_records(sh, sh->spool, &sh->error) == -1)
		sh->failed = 1;
	else if (fflush(sh->spool) == EOF || ferror(sh->spool)) {
		dl_error_sys(&sh->error, "the temporary file of %s", sh->name);
		sh->failed = 1;
	}
	return NULL;
}

/* The run has failed: every reader still reading stops and is joined,
 * then the tool ends with e (a thread still writing its spool, or
 * standard output, when exit runs the cleanup would find them taken away
 * under it). */
static struct shard *all_shards;
static size_t nall_shards;

static void
join_readers(void)
{
	atomic_store(&stopping, 1);
	for (size_t i = 0; i < nall_shards; i++)
		if (all_shards[i].reading) {
			pthread_join(all_shards[i].reader, NULL);
			all_shards[i].reading = 0;
		}
}

static void __attribute__((noreturn))
die_joined(const struct dl_error *e)
{
	struct dl_error kept = *e;	/* e may be a reader's */

	join_readers();
	tool_die(&kept);
}

/* Pipes after the first shard are read now, in threads; files wait. */
static void
start_draining(struct shard *shards, size_t n)
{
	struct dl_error e;
	struct stat st;

	for (size_t i = 1; i < n; i++) {
		struct shard *sh = &shards[i];
		if (fstat(fileno(sh->fp), &st) == 0 && S_ISREG(st.st_mode))
			continue;
		if ((sh->spool = spool_create(&e)) == NULL)
			die_joined(&e);
		if ((errno = cleanup_thread_create(&sh->reader, drain, sh)) != 0) {
			dl_error_sys(&e, "a thread to read %s", sh->name);
			die_joined(&e);
		}
		sh->reading = 1;
	}
}

/* A shard's records onto standard output: straight from its file, or
 * from its spool once its thread is done. */
static void
write_shard(struct shard *sh)
{
	struct dl_error e;
	char buf[65536];
	size_t got;

	if (sh->spool == NULL) {
		if (copy_records(sh, stdout, &e) == -1)
			die_joined(&e);
		return;
	}
	if ((errno = pthread_join(sh->reader, NULL)) != 0)
		tool_fail_sys("the thread reading %s", sh->name);
	sh->reading = 0;
	if (sh->failed)
		die_joined(&sh->error);
	rewind(sh->spool);
	while ((got = fread(buf, 1, sizeof buf, sh->spool)) > 0)
		fwrite_unlocked(buf, 1, got, stdout);
	if (ferror(sh->spool)) {
		dl_error_sys(&e, "the temporary file of %s", sh->name);
		die_joined(&e);
	}
	fclose(sh->spool);
	sh->spool = NULL;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct board_range whole;
	struct shard *shards;
	struct dl_error e;
	size_t n, stdin_uses = 0;
	int ch;

	tool_start();
	opterr = 0;	/* tool_bad_option says what is wrong */
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h': usage(stdout, 0);
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (optind == argc)
		usage(stderr, 2);
	n = (size_t)(argc - optind);
	shards = xcalloc(n, sizeof *shards);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(argv[optind + i], "-") == 0 && ++stdin_uses > 1)
			tool_fail(DL_ERR_USAGE, "standard input (-) named twice");
		if (open_shard(&shards[i], argv[optind + i], &e) == -1)
			tool_die(&e);
	}
	if (check_shards(shards, n, &whole, &e) == -1)
		tool_die(&e);
	setup_stdout();
	write_headers(&shards[0], whole);
	all_shards = shards;
	nall_shards = n;
	start_draining(shards, n);
	for (size_t i = 0; i < n; i++) {
		write_shard(&shards[i]);
		stream_close(&shards[i].in);
		if (shards[i].fp != stdin)
			fclose(shards[i].fp);
	}
	free(shards);
	xfclose(stdout, "standard output");
	return 0;
}
