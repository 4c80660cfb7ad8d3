/* dl-sqd: SquareDeal tournaments, whose deals players can check afterwards
 * (docs/squaredeal.md), without the reference's menus. */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "bigdeal.h"
#include "deal.h"
#include "outfile.h"
#include "plugins.h"
#include "proto.h"
#include "sqd.h"
#include "tso.h"
#include "util.h"
#include "writers.h"

static const char key_alphabet[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

static struct options {
	const char *sqk, *name, *di, *formats, *dir, *boards, *deals;
	int reserve, force;
} opt;

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp,
	    "usage: dl-sqd [--sqk path] file.sqd create --name name --di text\n"
	    "       dl-sqd file.sqd set-name name\n"
	    "       dl-sqd file.sqd set-di text\n"
	    "       dl-sqd file.sqd add-phase nsessions boards prefix [description]\n"
	    "       dl-sqd [--sqk path] file.sqd publish\n"
	    "       dl-sqd file.sqd set-dv value\n"
	    "       dl-sqd [--sqk path] file.sqd make [--force] [--reserve] [-b boards]\n"
	    "              [-d dir] [-f formats] [phase|all [sessions]]\n"
	    "       dl-sqd [--sqk path] file.sqd show\n"
	    "       dl-sqd [--sqk path] file.sqd verify [--reserve] [--deals file\n"
	    "              [phase session]]\n"
	    "       dl-sqd [--sqk path] file.sqd seed [--force] [--reserve] [-b boards]\n"
	    "              phase session\n"
	    "       dl-sqd file.sqd makefile [-f formats]\n");
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
require_unpublished(const char *path, const struct sqd *t, const char *what)
{
	if (t->kh != NULL)
		errx(1, "%s is published: its %s can no longer change", path, what);
}

/* A tournament ready to deal: published, DV known, the matching keys. */
static void
load_for_dealing(const char *path, struct sqd *t, struct sqk *k)
{
	sqd_read(path, t);
	if (t->kh == NULL)
		errx(1, "%s is not published yet: run 'dl-sqd %s publish' first", path, path);
	if (t->dv == NULL)
		errx(1, "%s has no delayed value yet: run 'dl-sqd %s set-dv VALUE' "
		    "once it is known", path, path);
	if (access(key_path(path), R_OK) == -1)
		err(1, "%s: the session keys are needed to deal", key_path(path));
	sqk_read(key_path(path), t, k);
	if (strcmp(k->hash, t->kh) != 0)
		errx(1, "%s does not match the KH of %s: not this tournament's key file, "
		    "or changed", key_path(path), path);
}

static unsigned
parse_number(const char *text, unsigned max, const char *what)
{
	struct board_range r;
	const char *why;

	if (strchr(text, '-') != NULL || board_range_parse(text, &r, &why) == -1 ||
	    (max != 0 && r.high > max))
		errx(2, "bad %s \"%s\"", what, text);
	return r.high;
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
		errx(2, "no %s %u: there %s %u", what, r.high, max == 1 ? "is" : "are", max);
	return r;
}

static void
session_boards(const struct sqd_phase *ph, unsigned p, unsigned s, struct board_range *r)
{
	const char *why;

	if (sqd_session_range(ph, s, r) == 0)
		return;
	if (opt.boards == NULL)
		errx(2, "phase %u has its boards chosen when dealing: give them with -b", p);
	if (board_range_parse(opt.boards, r, &why) == -1)
		errx(2, "-b %s: %s", opt.boards, why);
}

/* One session's boards (or some of them) into the writers. */
static void
deal_session(const struct sqd *t, const struct sqk *k, unsigned p, unsigned s,
    struct board_range r, struct writers *ws)
{
	struct seed_record *seed = secret_alloc(sizeof *seed);

	sqd_session_seed(t, k, p, s, opt.reserve, seed);
	deal_boards(seed, r, ws, NULL);
	secret_free(seed);
}

static char *
output_prefix(const char *sqd_path, const char *name)
{
	char *copy = xstrdup(sqd_path), *prefix;
	const char *dir = opt.dir ? opt.dir : dirname(copy);

	if (asprintf(&prefix, "%s/%s", dir, name) == -1)
		err(2, "asprintf");
	free(copy);
	return prefix;
}

static void
make_session(const char *path, const struct sqd *t, const struct sqk *k, unsigned p,
    unsigned s)
{
	const struct sqd_phase *ph = &t->phases[p - 1];
	char *name = sqd_session_name(ph, s, opt.reserve);
	char *prefix = output_prefix(path, name);
	struct writers_options wo = {
		.prefix = prefix, .publish = opt.force ? PUBLISH_REPLACE : PUBLISH_SAME,
		.report = stdout,
	};
	struct writers *ws = writers_open(opt.formats, &wo);
	struct board_range r;

	session_boards(ph, p, s, &r);
	writers_begin(ws, r.low, r.high, NULL, NULL, 0);
	deal_session(t, k, p, s, r, ws);
	writers_finish(ws);
	free(prefix);
	free(name);
}

/* The formats SquareDeal combines: PBN with a fresh header, and the
 * headerless ones by plain concatenation. */
static char *
combinable_formats(void)
{
	static const char *const combinable[] = { "pbn", "bri", "dge", "ber" };
	char *list = xstrdup(opt.formats), *save = NULL, *out = xcalloc(1, strlen(opt.formats) + 1);

	for (char *f = strtok_r(list, ",", &save); f; f = strtok_r(NULL, ",", &save))
		for (size_t i = 0; i < sizeof combinable / sizeof *combinable; i++)
			if (strcmp(f, combinable[i]) == 0) {
				if (*out)
					strcat(out, ",");
				strcat(out, f);
			}
	free(list);
	return out;
}

/* Sessions first..last continue each other's boards: one more file with all. */
static void
make_combined(const char *path, const struct sqd *t, const struct sqk *k, unsigned p,
    unsigned first, unsigned last)
{
	const struct sqd_phase *ph = &t->phases[p - 1];
	char *formats = combinable_formats(), *pattern, *run, *name, *prefix;
	char *generator = NULL;
	size_t width;

	if (*formats == '\0') {
		free(formats);
		return;
	}
	pattern = sqd_prefix_pattern(ph->prefix, ph->nsessions);
	run = strchr(pattern, '#');
	width = strspn(run, "#");
	if (asprintf(&name, "%.*s%0*u-%0*u%s%s", (int)(run - pattern), pattern,
	    (int)width, first, (int)width, last, run + width,
	    opt.reserve ? "reserve" : "") == -1)
		err(2, "asprintf");
	if (asprintf(&generator, "%s, combining", DL_VERSION_STRING) == -1)
		err(2, "asprintf");
	for (unsigned s = first; s <= last; s++) {
		char *session = sqd_session_name(ph, s, opt.reserve), *longer;
		if (asprintf(&longer, "%s %s.pbn", generator, session) == -1)
			err(2, "asprintf");
		free(generator);
		free(session);
		generator = longer;
	}
	prefix = output_prefix(path, name);
	struct writers_options wo = {
		.prefix = prefix, .generator = generator, .report = stdout,
		.publish = opt.force ? PUBLISH_REPLACE : PUBLISH_SAME,
	};
	struct writers *ws = writers_open(formats, &wo);
	struct board_range r, all;
	sqd_session_range(ph, first, &all);
	sqd_session_range(ph, last, &r);
	all.high = r.high;
	writers_begin(ws, all.low, all.high, NULL, NULL, 0);
	for (unsigned s = first; s <= last; s++) {
		sqd_session_range(ph, s, &r);
		deal_session(t, k, p, s, r, ws);
	}
	writers_finish(ws);
	free(prefix);
	free(name);
	free(generator);
	free(pattern);
	free(formats);
}

static int
continues(const struct sqd_phase *ph, unsigned s)
{
	struct board_range a, b;

	if (ph->nranges == 0 || sqd_session_range(ph, s, &a) == -1 ||
	    sqd_session_range(ph, s + 1, &b) == -1)
		return 0;
	return b.low == a.high + 1;
}

static void
make_phase(const char *path, const struct sqd *t, const struct sqk *k, unsigned p,
    struct board_range sessions)
{
	const struct sqd_phase *ph = &t->phases[p - 1];

	for (unsigned s = sessions.low; s <= sessions.high; s++)
		make_session(path, t, k, p, s);
	for (unsigned s = sessions.low; s < sessions.high; s++) {
		unsigned last = s;
		while (last < sessions.high && continues(ph, last))
			last++;
		if (last > s)
			make_combined(path, t, k, p, s, last);
		s = last;
	}
}

static int
cmd_make(const char *path, int argc, char **argv)
{
	struct sqd t;
	struct sqk k;

	if (argc > 2)
		usage(stderr, 2);
	load_for_dealing(path, &t, &k);
	struct board_range phases = parse_selection(argc > 0 ? argv[0] : NULL,
	    (unsigned)t.nphases, "phase");
	for (unsigned p = phases.low; p <= phases.high; p++) {
		const struct sqd_phase *ph = &t.phases[p - 1];
		if (ph->nsessions == 0 && argc < 2) {
			if (phases.low == phases.high)
				errx(2, "phase %u is open-ended: name its sessions (e.g. 1-4)", p);
			warnx("phase %u is open-ended: not made without sessions", p);
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
	char record[128];

	if (argc != 2)
		usage(stderr, 2);
	if (!opt.force && isatty(STDOUT_FILENO))
		errx(2, "refusing to write a secret seed to a terminal (use --force)");
	load_for_dealing(path, &t, &k);
	unsigned p = parse_number(argv[0], (unsigned)t.nphases, "phase");
	const struct sqd_phase *ph = &t.phases[p - 1];
	unsigned s = parse_number(argv[1], ph->nsessions, "session");
	session_boards(ph, p, s, &r);
	seed = secret_alloc(sizeof *seed);
	sqd_session_seed(&t, &k, p, s, opt.reserve, seed);
	seed_record_format(seed, record);
	secret_free(seed);
	setup_stdout();
	stream_write_headers(stdout, STREAM_SEED, NULL, "");
	printf("#V: %s\n#B: %u-%u\n%s", DL_VERSION_STRING, r.low, r.high, record);
	sodium_memzero(record, sizeof record);
	xfclose(stdout, "standard output");
	wipe_stdout_buffer();
	sqk_free(&k);
	sqd_free(&t);
	return 0;
}

static const char *
stage(const char *path, const struct sqd *t)
{
	struct sqk k;

	if (t->kh == NULL)
		return "prepared (not published: phases can still change)";
	if (t->dv == NULL)
		return "published (waiting for the delayed value)";
	if (access(key_path(path), R_OK) == -1)
		return errno == ENOENT ? "delayed value set (no key file here)" :
		    "delayed value set (the key file here cannot be read)";
	sqk_read(key_path(path), t, &k);
	int match = strcmp(k.hash, t->kh) == 0;
	sqk_free(&k);
	return match ? "keys available (the key file matches KH)" :
	    "delayed value set (the key file here does NOT match KH)";
}

static int
cmd_show(const char *path, int argc, char **argv)
{
	struct sqd t;

	(void)argv;
	if (argc != 0)
		usage(stderr, 2);
	sqd_read(path, &t);
	printf("Tournament: %s\n", t.name ? t.name : "");
	printf("Delayed information: %s\n", t.di ? t.di : "");
	printf("Delayed value: %s\n", t.dv ? t.dv : "(not set)");
	printf("Stage: %s\n", stage(path, &t));
	for (unsigned p = 1; p <= t.nphases; p++) {
		const struct sqd_phase *ph = &t.phases[p - 1];
		char *desc = sqd_description_pattern(ph->description, ph->nsessions);
		if (ph->nsessions == 0)
			printf("Phase %u: %s, open-ended, boards %s\n", p, ph->description,
			    ph->boards);
		else
			printf("Phase %u: %s, %u session%s, boards %s\n", p, ph->description,
			    ph->nsessions, ph->nsessions == 1 ? "" : "s", ph->boards);
		unsigned shown = ph->nsessions ? ph->nsessions : 2;
		for (unsigned s = 1; s <= shown; s++) {
			char *name = sqd_session_name(ph, s, 0), *d = sqd_expand(desc, s);
			struct board_range r;
			if (sqd_session_range(ph, s, &r) == 0)
				printf("  session %u: %-12s boards %u-%u  %s\n", s, name,
				    r.low, r.high, d);
			else
				printf("  session %u: %-12s boards chosen when dealing  %s\n", s,
				    name, d);
			free(name);
			free(d);
		}
		if (ph->nsessions == 0)
			printf("  ... and so on\n");
		free(desc);
	}
	sqd_free(&t);
	xfclose(stdout, "standard output");
	return 0;
}

static int
cmd_create(const char *path, int argc, char **argv)
{
	struct sqd t = { 0 };

	(void)argv;
	if (argc != 0 || opt.name == NULL || opt.di == NULL)
		usage(stderr, 2);
	if (access(path, F_OK) == 0)
		errx(1, "%s exists: not making a new tournament over it", path);
	if (!header_value_is_valid(opt.name) || !header_value_is_valid(opt.di))
		errx(2, "the name and the delayed information are one line of UTF-8 text");
	t.name = xstrdup(opt.name);
	t.di = xstrdup(opt.di);
	sqd_write(path, &t);
	sqd_free(&t);
	return 0;
}

static int
cmd_set_text(const char *path, int argc, char **argv, int name)
{
	struct sqd t;

	if (argc != 1)
		usage(stderr, 2);
	if (!header_value_is_valid(argv[0]))
		errx(2, "not one line of UTF-8 text");
	sqd_read(path, &t);
	require_unpublished(path, &t, name ? "name" : "delayed information");
	char **slot = name ? &t.name : &t.di;
	free(*slot);
	*slot = xstrdup(argv[0]);
	sqd_write(path, &t);
	sqd_free(&t);
	return 0;
}

/* The keys a tournament needs: one a session, one for an open-ended phase. */
static unsigned long
key_count(const struct sqd *t)
{
	unsigned long n = 0;

	for (size_t p = 0; p < t->nphases; p++)
		n += t->phases[p].nsessions == 0 ? 1 : t->phases[p].nsessions;
	return n;
}

static void
check_prefix(const char *pattern)
{
	const char *run = strchr(pattern, '#');

	if (run != NULL && strchr(run + strspn(run, "#"), '#') != NULL)
		errx(2, "a file prefix may hold one run of '#' only");
	if (strlen(pattern) > 90 || strpbrk(pattern, "/: \t\\") != NULL)
		errx(2, "bad file prefix \"%s\": no '/', ':', spaces, at most 90 "
		    "characters", pattern);
}

static int
cmd_add_phase(const char *path, int argc, char **argv)
{
	struct sqd t;
	struct sqd_phase ph = { 0 };

	if (argc < 3 || argc > 4)
		usage(stderr, 2);
	sqd_read(path, &t);
	require_unpublished(path, &t, "phases");
	ph.nsessions = strcmp(argv[0], "0") == 0 ? 0 : parse_number(argv[0], 0, "number of sessions");
	ph.boards = sqd_parse_boards(argv[1], &ph.ranges, &ph.nranges);
	if (ph.boards == NULL)
		errx(2, "bad boards \"%s\" (16, 17-32, 1-10,11-20, 3x7 or ?)", argv[1]);
	if (*argv[2] == '\0')
		errx(2, "empty file prefix");
	ph.prefix = sqd_prefix_pattern(argv[2], ph.nsessions);
	check_prefix(ph.prefix);
	const char *desc = argc == 4 ? argv[3] : "";
	if (strchr(desc, ':') != NULL || !header_value_is_valid(desc))
		errx(2, "a phase description is one line of text without ':'");
	ph.description = sqd_description_pattern(desc, ph.nsessions);
	t.phases = xreallocarray(t.phases, t.nphases + 1, sizeof *t.phases);
	t.phases[t.nphases++] = ph;
	if (key_count(&t) > SQD_MAX_KEYS)
		errx(2, "%lu sessions in all: a tournament has at most %d", key_count(&t),
		    SQD_MAX_KEYS);
	sqd_write(path, &t);
	printf("phase %zu: SN %u:%s:%s:%s\n", t.nphases, ph.nsessions, ph.boards,
	    ph.prefix, ph.description);
	sqd_free(&t);
	xfclose(stdout, "standard output");
	return 0;
}

/* A key file published whose KH the .sqd does not hold yet. */
static const char *unrecorded_keys;

static void
remove_unrecorded_keys(void)
{
	if (unrecorded_keys != NULL)
		unlink(unrecorded_keys);
}

static int
cmd_publish(const char *path, int argc, char **argv)
{
	struct sqd t;
	struct outfile of;
	struct sqk k;

	(void)argv;
	if (argc != 0)
		usage(stderr, 2);
	sqd_read(path, &t);
	if (t.kh != NULL)
		errx(1, "%s is published already", path);
	if (t.name == NULL || *t.name == '\0' || t.di == NULL || *t.di == '\0')
		errx(1, "%s needs a name and the delayed information before publishing",
		    path);
	if (t.nphases == 0)
		errx(1, "%s has no phases: add them before publishing", path);
	/* checked before a key is written: a hand-made SN 999999999 would
	 * otherwise fill the disk with a key file nothing can read */
	if (key_count(&t) > SQD_MAX_KEYS)
		errx(1, "%s has %lu sessions in all: a tournament has at most %d", path,
		    key_count(&t), SQD_MAX_KEYS);
	FILE *fp = outfile_create(&of, key_path(path), 0600);
	char *key = secret_alloc(SQD_KEY_CHARS + 1);
	for (unsigned p = 1; p <= t.nphases; p++) {
		unsigned n = t.phases[p - 1].nsessions;
		for (unsigned s = n == 0 ? 0 : 1; s <= n; s++) {
			for (int i = 0; i < SQD_KEY_CHARS; i++)
				key[i] = key_alphabet[randombytes_uniform(sizeof key_alphabet - 1)];
			fprintf(fp, "%u,%u:%s\r\n", p, s, key);
		}
	}
	secret_free(key);
	/* the stdio buffer held the keys: flush it into the file, then wipe */
	outfile_publish(&of, PUBLISH_NEW);
	/* Until the .sqd holds its KH the new key file is nobody's: if that
	 * fails (a full disk, a read-only directory) it goes again, so that
	 * publish can be run again rather than refuse to overwrite it. */
	unrecorded_keys = key_path(path);
	atexit(remove_unrecorded_keys);
	sqk_read(key_path(path), &t, &k);
	t.kh = xstrdup(k.hash);
	sqk_free(&k);
	sqd_write(path, &t);
	unrecorded_keys = NULL;
	printf("published: KH %s\nkeep %s secret until the event is over\n", t.kh,
	    key_path(path));
	sqd_free(&t);
	xfclose(stdout, "standard output");
	return 0;
}

static int
cmd_set_dv(const char *path, int argc, char **argv)
{
	struct sqd t;

	if (argc != 1)
		usage(stderr, 2);
	sqd_read(path, &t);
	if (t.kh == NULL)
		errx(1, "%s is not published yet: the delayed value comes after "
		    "publishing", path);
	if (t.dv != NULL)
		errx(1, "%s has its delayed value already (%s): it cannot change", path, t.dv);
	t.dv = sqd_canonical_dv(argv[0]);
	if (*t.dv == '\0' || !header_value_is_valid(t.dv))
		errx(2, "the delayed value is one line of text, not empty");
	sqd_write(path, &t);
	printf("DV %s\n", t.dv);
	sqd_free(&t);
	xfclose(stdout, "standard output");
	return 0;
}

/* The boards of a PBN file: [Board] and [Deal] tags, block by block. */
struct played {
	unsigned board;
	unsigned char owner[CARDS];
};

static int
deal_from_pbn(const char *text, unsigned char owner[CARDS])
{
	static const char ranks[] = "AKQJT98765432", seats[] = "NESW";
	const char *seat = strchr(seats, text[0]);
	unsigned h, suit = 0;

	if (text[0] == '\0' || seat == NULL || text[1] != ':')
		return -1;
	memset(owner, 9, CARDS);
	h = (unsigned)(seat - seats);
	for (const char *p = text + 2; *p && *p != '"'; p++) {
		const char *r;
		if (*p == '.')
			suit++;
		else if (*p == ' ')
			h = (h + 1) % 4, suit = 0;
		else if ((r = strchr(ranks, *p)) != NULL && *p && suit < 4)
			owner[suit * 13 + (unsigned)(r - ranks)] = (unsigned char)h;
		else
			return -1;
	}
	return deal_is_complete(owner) ? 0 : -1;
}

static size_t
read_played(const char *file, struct played **out)
{
	FILE *fp = fopen(file, "r");
	struct line_reader r;
	struct played *all = NULL;
	size_t n = 0;
	char *line;
	long board = -1;
	size_t len = strlen(file);

	if (fp == NULL)
		err(1, "%s", file);
	if (len > 4 && strcmp(file + len - 4, ".tso") == 0) {
		struct stream_in in;
		unsigned b;
		stream_open(&in, fp, STREAM_DEALS);
		while ((line = stream_next_record(&in, &len)) != NULL) {
			all = xreallocarray(all, n + 1, sizeof *all);
			record_deal(&in, line, &b, all[n].owner);
			all[n++].board = b;
		}
		stream_close(&in);
		fclose(fp);
		*out = all;
		return n;
	}
	line_reader_open(&r, fp, file);
	while ((line = line_next(&r, NULL)) != NULL) {
		if (line[0] == '\0')
			board = -1;
		else if (strncmp(line, "[Board \"", 8) == 0) {
			char *end;
			board = strtol(line + 8, &end, 10);
			if (end == line + 8 || strcmp(end, "\"]") != 0 || board < 1 ||
			    board > (long)BOARD_MAX)
				line_fail(&r, "bad [Board] tag");
		}
		else if (strncmp(line, "[Deal \"", 7) == 0) {
			if (board < 0)
				line_fail(&r, "[Deal] without a [Board] before it");
			all = xreallocarray(all, n + 1, sizeof *all);
			if (deal_from_pbn(line + 7, all[n].owner) == -1)
				line_fail(&r, "not a complete deal");
			all[n++].board = (unsigned)board;
		}
	}
	line_reader_close(&r);
	fclose(fp);
	*out = all;
	return n;
}

static int
verify_deals(const char *path, const struct sqd *t, const struct sqk *k, int argc,
    char **argv)
{
	unsigned p, s, bad = 0;
	struct played *played;
	size_t n = read_played(opt.deals, &played);
	struct board_range r;

	if (argc == 2) {
		p = parse_number(argv[0], (unsigned)t->nphases, "phase");
		s = parse_number(argv[1], t->phases[p - 1].nsessions, "session");
	} else {
		char *copy = xstrdup(opt.deals), *base = basename(copy), *dot = strrchr(base, '.');
		if (dot != NULL)
			*dot = '\0';
		if (sqd_match_name(t, base, &p, &s, &opt.reserve) == -1)
			errx(2, "%s is not named like a session of %s: give the phase and "
			    "session", opt.deals, path);
		free(copy);
	}
	session_boards(&t->phases[p - 1], p, s, &r);
	struct seed_record *seed = secret_alloc(sizeof *seed);
	struct bigdeal_stream *stream = secret_alloc(sizeof *stream);
	sqd_session_seed(t, k, p, s, opt.reserve, seed);
	bigdeal_stream_init(stream, seed->random, seed->owner);
	secret_free(seed);
	for (unsigned long b = r.low; b <= r.high; b++) {
		unsigned char owner[CARDS];
		const struct played *found = NULL;
		deal_from_number(bigdeal_next(stream), owner);
		for (size_t i = 0; i < n && found == NULL; i++)
			if (played[i].board == b)
				found = &played[i];
		if (found == NULL)
			printf("board %lu: not in %s\n", b, opt.deals);
		else if (memcmp(found->owner, owner, CARDS) != 0)
			printf("board %lu: DIFFERENT from the session's deal\n", b), bad++;
		else
			printf("board %lu: the same deal\n", b);
	}
	secret_free(stream);
	for (size_t i = 0; i < n; i++)
		if (played[i].board < r.low || played[i].board > r.high)
			printf("board %u: not a board of the session (%u-%u)\n",
			    played[i].board, r.low, r.high), bad++;
	printf("%s: %s, session %u,%u (%s), boards %u-%u\n", opt.deals,
	    bad ? "DOES NOT MATCH" : "matches", p, s,
	    opt.reserve ? "reserve" : "original", r.low, r.high);
	free(played);
	return bad ? 1 : 0;
}

static int
cmd_verify(const char *path, int argc, char **argv)
{
	struct sqd t;
	struct sqk k;
	int status = 0;

	if (argc != 0 && !(opt.deals != NULL && argc == 2))
		usage(stderr, 2);
	sqd_read(path, &t);
	if (t.kh == NULL)
		errx(1, "%s is not published: there is nothing to verify yet", path);
	sqk_read(key_path(path), &t, &k);
	if (strcmp(k.hash, t.kh) != 0) {
		printf("%s: SHA-256 %s\n%s: KH      %s\n", key_path(path), k.hash, path, t.kh);
		errx(1, "%s does not match the KH of %s", key_path(path), path);
	}
	printf("%s matches the KH of %s: %zu session keys\n", key_path(path), path, k.nkeys);
	for (size_t i = 0; i < k.nkeys; i++)
		if (strlen(k.keys[i].key) < SQD_SHORT_KEY)
			warnx("warning: the key of session %u,%u has only %zu characters",
			    k.keys[i].phase, k.keys[i].session, strlen(k.keys[i].key));
	if (opt.deals != NULL) {
		if (t.dv == NULL)
			errx(1, "%s has no delayed value: no deals to compare yet", path);
		status = verify_deals(path, &t, &k, argc, argv);
	}
	sqk_free(&k);
	sqd_free(&t);
	xfclose(stdout, "standard output");
	return status;
}

static void
makefile_target(const char *dir, const char *name, const char *suffix, const char *sqd,
    const char *sqk, const char *what)
{
	printf("%s%s.%s: %s %s\n\t$(DL_SQD) %s make -f %s %s\n", dir, name, suffix, sqd, sqk,
	    sqd, suffix, what);
}

static int
cmd_makefile(const char *path, int argc, char **argv)
{
	struct sqd t;
	char *copy = xstrdup(path), *dir = dirname(copy), *formats, *save = NULL;
	char *prefix_dir = strcmp(dir, ".") == 0 ? xstrdup("") : NULL;

	(void)argv;
	if (argc != 0)
		usage(stderr, 2);
	if (prefix_dir == NULL && asprintf(&prefix_dir, "%s/", dir) == -1)
		err(2, "asprintf");
	sqd_read(path, &t);
	printf("# Made by dl-sqd from %s: one target per session file.\n"
	    "# Run it with make -f FILE -j, or include it in a Makefile.\n"
	    "DL_SQD ?= dl-sqd\n\nall-sessions:\n\n", path);
	formats = xstrdup(opt.formats);
	for (char *f = strtok_r(formats, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		struct loaded_plugin lp;
		plugin_load(f, &lp);
		for (unsigned p = 1; p <= t.nphases; p++) {
			const struct sqd_phase *ph = &t.phases[p - 1];
			if (ph->nsessions == 0 || ph->nranges == 0) {
				printf("# phase %u: %s, not listed\n\n", p, ph->nsessions == 0 ?
				    "open-ended" : "boards chosen when dealing");
				continue;
			}
			for (unsigned s = 1; s <= ph->nsessions; s++) {
				char *name = sqd_session_name(ph, s, 0), *what;
				if (asprintf(&what, "%u %u", p, s) == -1)
					err(2, "asprintf");
				printf("all-sessions: %s%s.%s\n", prefix_dir, name, lp.plugin->suffix);
				makefile_target(prefix_dir, name, lp.plugin->suffix, path,
				    key_path(path), what);
				free(what);
				free(name);
			}
			putchar('\n');
		}
		plugin_unload(&lp);
	}
	printf(".PHONY: all-sessions\n");
	free(formats);
	free(prefix_dir);
	free(copy);
	sqd_free(&t);
	xfclose(stdout, "standard output");
	return 0;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
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
	static const struct {
		const char *name;
		int (*run)(const char *, int, char **);
	} commands[] = {
		{ "create", cmd_create }, { "add-phase", cmd_add_phase },
		{ "publish", cmd_publish }, { "set-dv", cmd_set_dv },
		{ "make", cmd_make }, { "show", cmd_show }, { "verify", cmd_verify },
		{ "seed", cmd_seed }, { "makefile", cmd_makefile },
	};
	int ch;

	opt.formats = "pbn";
	while ((ch = getopt_long(argc, argv, "b:d:f:hr", longopts, NULL)) != -1) {
		switch (ch) {
		case 'b': opt.boards = optarg; break;
		case 'd': opt.dir = optarg; break;
		case 'D': opt.deals = optarg; break;
		case 'I': opt.di = optarg; break;
		case 'f': opt.formats = optarg; break;
		case 'F': opt.force = 1; break;
		case 'h': usage(stdout, 0);
		case 'N': opt.name = optarg; break;
		case 'r': opt.reserve = 1; break;
		case 'k': opt.sqk = optarg; break;
		default: usage(stderr, 2);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		usage(stderr, 2);
	if (sodium_init() < 0)
		errx(2, "cannot initialise libsodium");
	if (strcmp(argv[1], "set-name") == 0 || strcmp(argv[1], "set-di") == 0)
		return cmd_set_text(argv[0], argc - 2, argv + 2, argv[1][4] == 'n');
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argv[0], argc - 2, argv + 2);
	errx(2, "unknown command \"%s\"", argv[1]);
}
