/* dl-sqd: SquareDeal tournaments, whose deals players can check afterwards
 * (docs/squaredeal.md), without the reference's menus.  This file is the
 * command line: each subcommand reads the .sqd, changes or deals it
 * through lib/ (sqd.c the files, sqd_stage.c what each stage allows,
 * sqd_deal.c the session files, sqd_verify.c the check of a played set,
 * sqd_makefile.c the Makefile), and says what happened; messages and
 * statuses go through tool.h. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "files/bigdealrc.h"
#include "files/outfile.h"
#include "files/played.h"
#include "stream/description.h"
#include "stream/proto.h"
#include "session/recording.h"
#include "squaredeal/sqd.h"
#include "squaredeal/sqd_deal.h"
#include "squaredeal/sqd_makefile.h"
#include "squaredeal/sqd_stage.h"
#include "squaredeal/sqd_verify.h"
#include "tool.h"
#include "base/util.h"
#include "files/writers.h"

/* without -f and without ./.bigdealrc: what the .bigdealrc pysquaredeal
 * writes for bigdealx when there is none says (SquareDeal 2.7's bigdealx
 * asks, on its first run, and writes one) */
#define NO_BIGDEALRC_FORMATS "pbn"

static struct options {
	const char *sqk, *name, *di, *formats, *dir, *boards, *deals;
	const char *archive;	/* --archive; NULL: the default */
	int reserve, force, no_archive;
	unsigned given;		/* the OPT_ bits of the options given */
} opt;

/* Each option a bit, so that each command says which it takes. */
enum {
	OPT_SQK = 1 << 0, OPT_NAME = 1 << 1, OPT_DI = 1 << 2, OPT_FORMATS = 1 << 3,
	OPT_DIR = 1 << 4, OPT_BOARDS = 1 << 5, OPT_DEALS = 1 << 6, OPT_RESERVE = 1 << 7,
	OPT_FORCE = 1 << 8, OPT_ARCHIVE = 1 << 9, OPT_NO_ARCHIVE = 1 << 10,
};
static const char *const option_names[] = {
	"--sqk", "--name", "--di", "-f", "-d", "-b", "--deals", "--reserve", "--force",
	"--archive", "--no-archive",
};

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp,
	    "usage: dl-sqd [--sqk path] file.sqd create --name name --di text\n"
	    "       dl-sqd file.sqd set-name name\n"
	    "       dl-sqd file.sqd set-di text\n"
	    "       dl-sqd file.sqd add-phase nsessions boards prefix [description]\n"
	    "       dl-sqd [--sqk path] file.sqd publish [--force]\n"
	    "       dl-sqd file.sqd set-dv value\n"
	    "       dl-sqd [--sqk path] file.sqd make [--force] [--reserve] [-b boards]\n"
	    "              [-d dir] [-f formats] [--archive archive | --no-archive]\n"
	    "              [phase|all [sessions]]\n"
	    "       dl-sqd [--sqk path] file.sqd show\n"
	    "       dl-sqd [--sqk path] file.sqd verify [--reserve] [-b boards]\n"
	    "              [--deals file [phase session]]\n"
	    "       dl-sqd [--sqk path] file.sqd seed [--force] [--reserve] [-b boards]\n"
	    "              phase session\n"
	    "       dl-sqd [--sqk path] file.sqd makefile [-f formats]\n");
	exit(status);
}

static char *default_key_path;

/* Memory still reachable at exit is an error to make memcheck. */
static void
free_key_path(void)
{
	free(default_key_path);
}

static const char *
key_path(const char *sqd_path)
{
	if (opt.sqk != NULL)
		return opt.sqk;
	if (default_key_path == NULL) {
		default_key_path = sqd_key_path(sqd_path);
		atexit(free_key_path);
	}
	return default_key_path;
}

static void
read_sqd(const char *path, struct sqd *t)
{
	struct dl_error e;

	if (sqd_read(path, t, &e) == -1)
		tool_die(&e);
}

static void
write_sqd(const char *path, const struct sqd *t)
{
	struct dl_error e;

	if (sqd_write(path, t, &e) == -1)
		tool_die(&e);
}

static void
read_sqk(const char *path, const struct sqd *t, struct sqk *k)
{
	struct dl_error e;

	if (sqk_read(key_path(path), t, k, &e) == -1)
		tool_die(&e);
}

/* -f, else the formats SquareDeal's bigdealx takes from ./.bigdealrc, read
 * as bigdealx reads it (its formats=, Big Deal's dup,pbn when there is no
 * such line, or when a CR LF "[BigDeal]\r" header ends the reading),
 * else PBN.  An empty formats= has bigdealx make no files, with a word on
 * the terminal only: a make that would make nothing is refused instead. */
static struct format_list
formats(void)
{
	struct format_list list;
	struct bigdealrc rc;
	struct dl_error e;
	const char *text;
	int status;

	if (opt.formats != NULL)
		status = format_list_parse(opt.formats, &list, &e);
	else {
		if (bigdealrc_read_bigdeal(BIGDEALRC, &rc, &e) == -1)
			tool_die(&e);
		tool_print_warnings(&rc.warnings);
		if (!rc.found)
			text = NO_BIGDEALRC_FORMATS;
		else if (rc.formats == NULL)
			text = BIGDEALRC_DEFAULT_FORMATS;
		else
			text = rc.formats;
		if (*text == '\0') {
			bigdealrc_free(&rc);
			tool_fail(DL_ERR_USAGE, "%s has an empty formats=: SquareDeal's bigdealx "
			    "would make no files (give -f, or name formats there)", BIGDEALRC);
		}
		status = format_list_parse(text, &list, &e);
		bigdealrc_free(&rc);
	}
	if (status == -1)
		tool_die(&e);
	return list;
}

static void
require_unpublished(const char *path, const struct sqd *t, const char *what)
{
	if (t->kh != NULL)
		tool_fail(DL_ERR_INPUT, "%s is published: its %s can no longer change", path, what);
}

/* A tournament ready to deal: published, DV known, the matching keys. */
static void
load_for_dealing(const char *path, struct sqd *t, struct sqk *k)
{
	struct dl_error e;

	read_sqd(path, t);
	if (sqd_dealing_keys(path, key_path(path), t, k, &e) == -1)
		tool_die(&e);
}

/* A phase or session number, 1 to max (0: no limit, the sessions of an
 * open-ended phase): 0, or -1. */
static int
number_of(const char *text, unsigned max, unsigned *number)
{
	struct board_range r;
	const char *why;

	if (strchr(text, '-') != NULL || board_range_parse(text, &r, &why) == -1 ||
	    (max != 0 && r.high > max))
		return -1;
	*number = r.high;
	return 0;
}

static unsigned
parse_number(const char *text, unsigned max, const char *what)
{
	unsigned number;

	if (number_of(text, max, &number) == -1)
		tool_fail(DL_ERR_USAGE, "bad %s \"%s\"", what, text);
	return number;
}

/* A .sqd with no phases yet names none: nothing past its phases is read. */
static void
need_phases(const char *path, const struct sqd *t)
{
	if (t->nphases == 0)
		tool_fail(DL_ERR_USAGE, "%s has no phases yet", path);
}

/* PHASE or SESSIONS on the command line: "3", "3-7" or "all". */
static struct board_range
parse_selection(const char *text, unsigned max, const char *what)
{
	struct board_range r = { 1, max };
	const char *why;

	if (text == NULL || strcmp(text, "all") == 0)
		return r;
	if (board_range_parse(text, &r, &why) == -1 || strchr(text, '-') == NULL)
		r.low = r.high = parse_number(text, 0, what);
	if (max != 0 && r.high > max)
		tool_fail(DL_ERR_USAGE, "no %s %u: there %s %u", what, r.high, max == 1 ? "is" : "are", max);
	return r;
}

/* Each session's set goes into the archive (lib/session/recording.c) as it is
 * dealt, unless --no-archive. */
static struct recording *session_recording;

static int
record_begin(void *arg, const struct sqd *t, unsigned phase, unsigned session,
    const char *prefix, struct writers_options *wo, struct dl_error *e)
{
	char *where = xasprintf("dl-sqd make %s%s", prefix, opt.reserve ? " (reserve)" : "");

	(void)arg;
	(void)t;
	(void)phase;
	(void)session;
	session_recording = recording_start(opt.archive, NULL, where, wo, e);
	free(where);
	if (session_recording == NULL) {
		dl_error_prefix(e, "archive");
		return -1;
	}
	return 0;
}

static int
record_end(void *arg, int ok, struct dl_error *e)
{
	const struct sqd *t = arg;
	struct recording *r = session_recording;
	int64_t id;

	session_recording = NULL;
	if (!ok) {
		recording_abort(r);
		return 0;
	}
	/* the set as the tournament names it */
	struct set_description d = { .event = t->name };
	char *headers[SET_DESCRIPTION_LINES];
	size_t n = set_description_lines(&d, headers);
	int status = recording_commit(r, headers, n, &id, e);

	set_description_lines_free(headers, n);
	if (status == -1)
		dl_error_prefix(e, "archive");
	return status;
}

/* The format list is read for each phase, as it always was, so that what
 * is wrong with the command line is told in the same order. */
static void
make_phase(const char *path, const struct sqd *t, const struct sqk *k, unsigned p,
    struct board_range sessions)
{
	struct format_list list = formats();
	struct dl_warnings warnings = { NULL, 0 };
	struct sqd_make_options mo = {
		.formats = &list, .dir = opt.dir, .boards = opt.boards, .reserve = opt.reserve,
		.publish = opt.force ? PUBLISH_REPLACE : PUBLISH_SAME, .force = "--force",
		.report = stdout, .warnings = &warnings, .warn = tool_print_warning,
		.record_begin = opt.no_archive ? NULL : record_begin, .record_end = record_end,
		.record_arg = (void *)t,
	};
	struct dl_error e;
	int status = sqd_make_phase(path, t, k, p, sessions, &mo, &e);

	fflush(stdout);		/* the files made, then what was left out */
	tool_print_warnings(&warnings);
	dl_warnings_free(&warnings);
	if (status == -1)
		tool_die(&e);
	format_list_free(&list);
}

static int
cmd_make(const char *path, int argc, char **argv)
{
	struct sqd t;
	struct sqk k;

	if (argc > 2)
		usage(stderr, 2);
	load_for_dealing(path, &t, &k);
	need_phases(path, &t);
	struct board_range phases = parse_selection(argc > 0 ? argv[0] : NULL,
	    (unsigned)t.nphases, "phase");
	for (unsigned p = phases.low; p <= phases.high; p++) {
		const struct sqd_phase *ph = &t.phases[p - 1];
		if (ph->nsessions == 0 && argc < 2) {
			if (phases.low == phases.high)
				tool_fail(DL_ERR_USAGE, "phase %u is open-ended: name its sessions (e.g. 1-4)", p);
			tool_warn("phase %u is open-ended: not made without sessions", p);
			continue;
		}
		make_phase(path, &t, &k, p, parse_selection(argc > 1 ? argv[1] : NULL,
		    ph->nsessions, "session"));
	}
	sqk_free(&k);
	sqd_free(&t);
	xfclose(stdout, "standard output");
	return 0;
}

static int
cmd_seed(const char *path, int argc, char **argv)
{
	struct sqd t;
	struct sqk k;
	struct seed_record *seed;
	struct board_range r;
	struct dl_error e;
	struct stream_out out;
	char record[128];

	if (argc != 2)
		usage(stderr, 2);
	if (!opt.force && isatty(STDOUT_FILENO))
		tool_fail(DL_ERR_USAGE, "refusing to write a secret seed to a terminal (use --force)");
	load_for_dealing(path, &t, &k);
	need_phases(path, &t);
	unsigned p = parse_number(argv[0], (unsigned)t.nphases, "phase");
	unsigned s = parse_number(argv[1], t.phases[p - 1].nsessions, "session");
	if (sqd_session_boards(&t, p, s, opt.boards, &r, &e) == -1)
		tool_die(&e);
	seed = secret_alloc(sizeof *seed);
	sqd_session_seed(&t, &k, p, s, opt.reserve, seed);
	seed_record_format(seed, record);
	secret_free(seed);
	setup_stdout();
	stream_out_begin(&out, stdout, STREAM_SEED);
	stream_out_header(&out, 'V', DL_VERSION_STRING);
	stream_out_range(&out, r.low, r.high);
	fputs(record, stdout);
	sodium_memzero(record, sizeof record);
	xfclose(stdout, "standard output");
	wipe_stdout_buffer();
	sqk_free(&k);
	sqd_free(&t);
	return 0;
}

/* What a .sqd says, or a file's name, printed: its text may come from
 * anyone, so control bytes are written escaped (text_escaped), on
 * standard output as in messages: a name holding ESC ] 0 ; would retitle
 * the terminal. */
static void
print_text(const char *format, const char *text)
{
	char *shown = text_escaped(text);

	printf(format, shown);
	free(shown);
}

/* The same with two texts. */
static void
print_texts(const char *format, const char *first, const char *second)
{
	char *shown1 = text_escaped(first), *shown2 = text_escaped(second);

	printf(format, shown1, shown2);
	free(shown1);
	free(shown2);
}

static void
show_phase(const struct sqd_phase *ph, unsigned p)
{
	char *desc = sqd_description_pattern(ph->description, ph->nsessions);
	/* an open-ended phase shows how its first two sessions are named */
	unsigned shown = ph->nsessions ? ph->nsessions : 2;

	printf("Phase %u: ", p);
	print_text("%s, ", ph->description);
	if (ph->nsessions == 0)
		printf("open-ended, ");
	else
		printf("%u session%s, ", ph->nsessions, ph->nsessions == 1 ? "" : "s");
	print_text("boards %s\n", ph->boards);
	for (unsigned s = 1; s <= shown; s++) {
		char *name = sqd_session_name(ph, s, 0), *d = sqd_expand(desc, s);
		/* sqd_prefix_check keeps a name printable; escaped all the same,
		 * as everything a .sqd says */
		char *shown_name = text_escaped(name);
		struct board_range r;
		if (sqd_session_range(ph, s, &r) == 0)
			printf("  session %u: %-12s boards %u-%u  ", s, shown_name, r.low, r.high);
		else
			printf("  session %u: %-12s boards chosen when dealing  ", s, shown_name);
		print_text("%s\n", d);
		free(shown_name);
		free(name);
		free(d);
	}
	if (ph->nsessions == 0)
		printf("  ... and so on\n");
	free(desc);
}

static int
cmd_show(const char *path, int argc, char **argv)
{
	struct sqd t;
	struct dl_error e;
	const char *stage;

	(void)argv;
	if (argc != 0)
		usage(stderr, 2);
	read_sqd(path, &t);
	print_text("Tournament: %s\n", t.name ? t.name : "");
	print_text("Delayed information: %s\n", t.di ? t.di : "");
	print_text("Delayed value: %s\n", t.dv ? t.dv : "(not set)");
	if ((stage = sqd_stage(&t, key_path(path), &e)) == NULL)
		tool_die(&e);
	printf("Stage: %s\n", stage);
	for (unsigned p = 1; p <= t.nphases; p++)
		show_phase(&t.phases[p - 1], p);
	sqd_free(&t);
	xfclose(stdout, "standard output");
	return 0;
}

static int
cmd_create(const char *path, int argc, char **argv)
{
	struct dl_error e;

	(void)argv;
	if (argc != 0 || opt.name == NULL || opt.di == NULL)
		usage(stderr, 2);
	if (sqd_create(path, opt.name, opt.di, &e) == -1)
		tool_die(&e);
	return 0;
}

static int
cmd_set_text(const char *path, int argc, char **argv, int name)
{
	struct sqd t;

	if (argc != 1)
		usage(stderr, 2);
	if (!header_value_is_valid(argv[0]))
		tool_fail(DL_ERR_USAGE, "not one line of UTF-8 text");
	read_sqd(path, &t);
	require_unpublished(path, &t, name ? "name" : "delayed information");
	char **slot = name ? &t.name : &t.di;
	free(*slot);
	*slot = xstrdup(argv[0]);
	write_sqd(path, &t);
	sqd_free(&t);
	return 0;
}

static int
cmd_set_name(const char *path, int argc, char **argv)
{
	return cmd_set_text(path, argc, argv, 1);
}

static int
cmd_set_di(const char *path, int argc, char **argv)
{
	return cmd_set_text(path, argc, argv, 0);
}

static int
cmd_add_phase(const char *path, int argc, char **argv)
{
	struct sqd t;
	struct dl_error e;

	if (argc < 3 || argc > 4)
		usage(stderr, 2);
	read_sqd(path, &t);
	if (sqd_add_phase(path, &t, argv[0], argv[1], argv[2], argc == 4 ? argv[3] : NULL,
	    &e) == -1)
		tool_die(&e);
	write_sqd(path, &t);
	const struct sqd_phase *ph = &t.phases[t.nphases - 1];
	/* the prefix and description are the operator's, checked, and
	 * escaped all the same (a backslash as \\) */
	printf("phase %zu: SN %u:%s:", t.nphases, ph->nsessions, ph->boards);
	print_texts("%s:%s\n", ph->prefix, ph->description);
	sqd_free(&t);
	xfclose(stdout, "standard output");
	return 0;
}

static int
cmd_publish(const char *path, int argc, char **argv)
{
	struct sqd t;
	struct dl_error e;

	(void)argv;
	if (argc != 0)
		usage(stderr, 2);
	read_sqd(path, &t);
	if (sqd_publish(path, key_path(path), &t, opt.force, &e) == -1)
		tool_die(&e);
	printf("published: KH %s\n", t.kh);
	print_text("keep %s secret until the event is over\n", key_path(path));
	sqd_free(&t);
	xfclose(stdout, "standard output");
	return 0;
}

static int
cmd_set_dv(const char *path, int argc, char **argv)
{
	struct sqd t;
	struct dl_error e;

	if (argc != 1)
		usage(stderr, 2);
	read_sqd(path, &t);
	if (sqd_set_dv(path, &t, argv[0], &e) == -1)
		tool_die(&e);
	write_sqd(path, &t);
	print_text("DV %s\n", t.dv);
	sqd_free(&t);
	xfclose(stdout, "standard output");
	return 0;
}

static void
print_verdicts(const struct sqd_verify *v, struct board_range r)
{
	for (size_t i = 0; i < v->n; i++) {
		unsigned b = v->boards[i].board;
		switch (v->boards[i].verdict) {
		case SQD_SAME:
			printf("board %u: the same deal\n", b);
			break;
		case SQD_DIFFERENT:
			printf("board %u: DIFFERENT from the session's deal\n", b);
			break;
		case SQD_MISSING:
			printf("board %u: ", b);
			print_text("not in %s\n", opt.deals);
			break;
		default:
			printf("board %u: not a board of the session (%u-%u)\n", b, r.low, r.high);
		}
	}
}

/* The verdict on the whole file, last: matches (status 0) only when every
 * board of the session is there with the session's deal.  A file of
 * some of the boards, all right, is its own verdict: it proves nothing
 * of the boards it does not hold, so the check has not passed (1). */
static int
print_match(const struct sqd_verify *v, unsigned p, unsigned s, struct board_range r)
{
	static const char *const verdicts[] = {
		[SQD_MATCH_WHOLE] = "matches",
		[SQD_MATCH_PART] = "PARTLY MATCHES",
		[SQD_MATCH_NONE] = "DOES NOT MATCH",
	};

	print_text("%s: ", opt.deals);
	printf("%s, session %u,%u (%s), boards %u-%u", verdicts[v->match], p, s,
	    opt.reserve ? "reserve" : "original", r.low, r.high);
	/* how much the verdict rests on: the session's boards the file has */
	printf(": %zu of %lu boards checked", v->count[SQD_SAME] + v->count[SQD_DIFFERENT],
	    (unsigned long)r.high - r.low + 1);
	if (v->count[SQD_DIFFERENT] != 0)
		printf(", %zu different", v->count[SQD_DIFFERENT]);
	if (v->count[SQD_FOREIGN] != 0)
		printf(", %zu not of the session", v->count[SQD_FOREIGN]);
	if (v->count[SQD_MISSING] != 0)
		printf(", %zu missing", v->count[SQD_MISSING]);
	putchar('\n');
	return v->match == SQD_MATCH_WHOLE ? 0 : EXIT_REFUSED;
}

/* The first board of the session verify_deals will check, to number the
 * boards of a file that numbers none (DUP, BER, ...) as the session's: 0
 * when the session is not known, whose error comes after the file's. */
static unsigned
session_first_board(const struct sqd *t, int argc, char **argv)
{
	unsigned p, s;
	int reserve = opt.reserve;
	struct board_range r;
	struct dl_error e;

	if (t->nphases == 0)
		return 0;
	if (argc == 2 ? number_of(argv[0], (unsigned)t->nphases, &p) == -1 ||
	    number_of(argv[1], t->phases[p - 1].nsessions, &s) == -1 :
	    sqd_session_of_file(t, opt.deals, &p, &s, &reserve) == -1)
		return 0;
	return sqd_session_boards(t, p, s, opt.boards, &r, &e) == -1 ? 0 : r.low;
}

/* The session is the one named on the command line, or by the file. */
static int
verify_deals(const char *path, const struct sqd *t, const struct sqk *k, int argc,
    char **argv)
{
	unsigned p, s;
	struct played_board *played;
	size_t n;
	struct board_range r;
	struct sqd_verify v;
	struct dl_error e;

	if (played_read(opt.deals, session_first_board(t, argc, argv), &played, &n, &e) == -1)
		tool_die(&e);
	if (argc == 2) {
		need_phases(path, t);
		p = parse_number(argv[0], (unsigned)t->nphases, "phase");
		s = parse_number(argv[1], t->phases[p - 1].nsessions, "session");
	} else if (sqd_session_of_file(t, opt.deals, &p, &s, &opt.reserve) == -1)
		tool_fail(DL_ERR_USAGE, "%s is not named like a session of %s: give the phase and "
		    "session", opt.deals, path);
	if (sqd_session_boards(t, p, s, opt.boards, &r, &e) == -1 ||
	    sqd_verify_played(t, k, p, s, opt.reserve, r, played, n, &v, &e) == -1)
		tool_die(&e);
	print_verdicts(&v, r);
	int status = print_match(&v, p, s, r);
	sqd_verify_free(&v);
	free(played);
	return status;
}

static int
cmd_verify(const char *path, int argc, char **argv)
{
	struct sqd t;
	struct sqk k;
	int status = 0;

	if (argc != 0 && !(opt.deals != NULL && argc == 2))
		usage(stderr, 2);
	read_sqd(path, &t);
	if (t.kh == NULL)
		tool_fail(DL_ERR_INPUT, "%s is not published: there is nothing to verify yet", path);
	read_sqk(path, &t, &k);
	if (strcmp(k.hash, t.kh) != 0) {
		print_text("%s: SHA-256 ", key_path(path));
		printf("%s\n", k.hash);
		print_text("%s: KH      ", path);
		printf("%s\n", t.kh);
		tool_fail(DL_ERR_INPUT, "%s does not match the KH of %s", key_path(path), path);
	}
	print_texts("%s matches the KH of %s: ", key_path(path), path);
	printf("%zu session keys\n", k.nkeys);
	for (size_t i = 0; i < k.nkeys; i++)
		if (strlen(k.keys[i].key) < SQD_SHORT_KEY)
			tool_warn("warning: the key of session %u,%u has only %zu characters",
			    k.keys[i].phase, k.keys[i].session, strlen(k.keys[i].key));
	if (opt.deals != NULL) {
		if (t.dv == NULL)
			tool_fail(DL_ERR_INPUT, "%s has no delayed value: no deals to compare yet", path);
		status = verify_deals(path, &t, &k, argc, argv);
	}
	sqk_free(&k);
	sqd_free(&t);
	xfclose(stdout, "standard output");
	return status;
}

static int
cmd_makefile(const char *path, int argc, char **argv)
{
	struct sqd t;
	struct format_list list;
	struct dl_error e;

	(void)argv;
	if (argc != 0)
		usage(stderr, 2);
	read_sqd(path, &t);
	list = formats();
	if (sqd_makefile_write(stdout, path, key_path(path), &t, &list, &e) == -1)
		tool_die(&e);
	format_list_free(&list);
	sqd_free(&t);
	xfclose(stdout, "standard output");
	return 0;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "archive", required_argument, NULL, 'a' },
		{ "no-archive", no_argument, NULL, 'A' },
		{ "boards", required_argument, NULL, 'b' },
		{ "dir", required_argument, NULL, 'd' },
		{ "deals", required_argument, NULL, 'D' },
		{ "di", required_argument, NULL, 'I' },
		{ "format", required_argument, NULL, 'f' },
		{ "force", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "name", required_argument, NULL, 'N' },
		{ "reserve", no_argument, NULL, 'r' },
		{ "sqk", required_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	/* lock: what the command holds on the .sqd while it runs */
	enum { NONE, SHARED, EXCLUSIVE };
	static const struct {
		const char *name;
		int (*run)(const char *, int, char **);
		int lock;
		unsigned takes;		/* the options it takes (usage()) */
	} commands[] = {
		{ "create", cmd_create, NONE, OPT_SQK | OPT_NAME | OPT_DI },
		{ "set-name", cmd_set_name, EXCLUSIVE, 0 },
		{ "set-di", cmd_set_di, EXCLUSIVE, 0 },
		{ "add-phase", cmd_add_phase, EXCLUSIVE, 0 },
		{ "publish", cmd_publish, EXCLUSIVE, OPT_SQK | OPT_FORCE },
		{ "set-dv", cmd_set_dv, EXCLUSIVE, 0 },
		{ "make", cmd_make, SHARED, OPT_SQK | OPT_FORCE | OPT_RESERVE | OPT_BOARDS |
		    OPT_DIR | OPT_FORMATS | OPT_ARCHIVE | OPT_NO_ARCHIVE },
		{ "show", cmd_show, SHARED, OPT_SQK },
		{ "verify", cmd_verify, SHARED, OPT_SQK | OPT_RESERVE | OPT_DEALS | OPT_BOARDS },
		{ "seed", cmd_seed, SHARED, OPT_SQK | OPT_FORCE | OPT_RESERVE | OPT_BOARDS },
		{ "makefile", cmd_makefile, SHARED, OPT_SQK | OPT_FORMATS },
	};
	struct dl_error e;
	int ch, fd;

	tool_start();
	/* --archive may hold a PostgreSQL password: out of /proc/PID/cmdline */
	tool_sodium_init();
	tool_hide_secret_arguments(argc, argv, "b:d:f:hr", longopts, "a");
	opterr = 0;	/* tool_bad_option says what is wrong */
	while ((ch = getopt_long(argc, argv, "b:d:f:hr", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a': opt.archive = optarg; opt.given |= OPT_ARCHIVE; break;
		case 'A': opt.no_archive = 1; opt.given |= OPT_NO_ARCHIVE; break;
		case 'b': opt.boards = optarg; opt.given |= OPT_BOARDS; break;
		case 'd': opt.dir = optarg; opt.given |= OPT_DIR; break;
		case 'D': opt.deals = optarg; opt.given |= OPT_DEALS; break;
		case 'I': opt.di = optarg; opt.given |= OPT_DI; break;
		case 'f': opt.formats = optarg; opt.given |= OPT_FORMATS; break;
		case 'F': opt.force = 1; opt.given |= OPT_FORCE; break;
		case 'h': usage(stdout, 0);
		case 'N': opt.name = optarg; opt.given |= OPT_NAME; break;
		case 'r': opt.reserve = 1; opt.given |= OPT_RESERVE; break;
		case 'k': opt.sqk = optarg; opt.given |= OPT_SQK; break;
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		usage(stderr, 2);
	tool_sodium_init();
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (strcmp(argv[1], commands[i].name) == 0) {
			unsigned wrong = opt.given & ~commands[i].takes;
			if (wrong != 0)
				tool_fail(DL_ERR_USAGE, "%s does not take %s (dl-sqd --help shows "
				    "the usage)", commands[i].name,
				    option_names[__builtin_ctz(wrong)]);
			/* held until the command ends, with the process */
			if (commands[i].lock != NONE &&
			    sqd_lock(argv[0], commands[i].lock == EXCLUSIVE, &fd, &e) == -1)
				tool_die(&e);
			return commands[i].run(argv[0], argc - 2, argv + 2);
		}
	tool_fail(DL_ERR_USAGE, "unknown command \"%s\"", argv[1]);
}
