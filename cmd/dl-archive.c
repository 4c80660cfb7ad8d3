/* dl-archive: every set ever dealt, and no set played twice.  Records sets
 * (deal streams, or files of any format dl-read reads), checks a set
 * against all those recorded, board by board, lists, counts and finds
 * what it holds, moves sets out and into another archive with all it
 * knows of them, and sends the sets played to a federation's shared
 * archive (lib/archive/, docs/archive.md). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/deal_archive.h"
#include "stream/proto.h"
#include "files/readers.h"
#include "session/set_input.h"
#include "tool.h"
#include "stream/tso.h"
#include "base/util.h"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp,
	    "usage: dl-archive [--db archive] add [--played] [-f format] [--renumber] [file ...]\n"
	    "       dl-archive [--db archive] [--shared archive] check [-q] [--prefix-bits n]\n"
	    "                  [-f format] [--renumber] [file ...]\n"
	    "       dl-archive [--db archive] find deal|hand text\n"
	    "       dl-archive [--db archive] sets\n"
	    "       dl-archive [--db archive] count\n"
	    "       dl-archive [--db archive] export set | --all\n"
	    "       dl-archive [--db archive] import [file ...]\n"
	    "       dl-archive [--db archive] [--shared archive] [--club name] played set ...\n"
	    "       dl-archive [--db archive] [--shared archive] [--club name] sync\n"
	    "       dl-archive [--db archive] compact\n");
	exit(status);
}

static const char *db_spec;		/* --db */
static const char *shared_spec;		/* --shared */
static const char *club;		/* --club, else DL_CLUB */
static const char *command_name;	/* the command run */
static int shared_named(void);
static const char *format;		/* -f */
static unsigned reader_flags;		/* --renumber */
static int quiet;			/* -q */
static int played;			/* add --played */
static int export_all;			/* export --all */
static unsigned prefix_bits;		/* check --prefix-bits */

static const char seat_letters[] = DL_SEAT_LETTERS;

static void
print_warning(const char *msg, void *arg)
{
	(void)arg;
	if (!quiet)
		fprintf(stderr, "dl-archive: %s\n", msg);
}

/* What reads the sets: -f and --renumber, warnings unless -q. */
static struct reader_options
reader_options(void)
{
	return (struct reader_options){ .format = format, .flags = reader_flags,
	    .warn = print_warning };
}

static struct archive *
open_archive(unsigned flags)
{
	struct archive *a;
	struct dl_error e;
	char *spec;

	if (db_spec != NULL)
		spec = xstrdup(db_spec);
	else if (archive_default(&spec, &e) == -1)
		tool_die(&e);
	if (archive_open(&a, spec, flags, &e) == -1) {
		/* a club that has dealt nothing yet checks against the
		 * federation's archive alone */
		if (e.errnum == ENOENT && !(flags & ARCHIVE_WRITE) && shared_named() &&
		    strcmp(command_name, "check") == 0) {
			free(spec);
			return NULL;
		}
		tool_die(&e);
	}
	free(spec);
	return a;
}

/* Whether a shared archive is named: --shared, else DL_SHARED_ARCHIVE. */
static int
shared_named(void)
{
	const char *env = getenv("DL_SHARED_ARCHIVE");

	return shared_spec != NULL || (env != NULL && *env != '\0');
}

/* The federation's archive, or NULL when none is named.  prefix: for a
 * failure to reach it, what is left to do. */
static struct archive *
open_shared(unsigned flags, void (*failed)(struct dl_error *e))
{
	struct archive *a;
	struct dl_error e;
	char *spec = NULL;

	if (shared_spec != NULL)
		spec = xstrdup(shared_spec);
	else
		archive_shared_default(&spec);
	if (spec == NULL)
		return NULL;
	if (archive_open(&a, spec, flags, &e) == -1) {
		freezero(spec, strlen(spec));
		if (failed != NULL)
			failed(&e);
		tool_die(&e);
	}
	freezero(spec, strlen(spec));
	if (!archive_is_shared(a))
		tool_fail(DL_ERR_USAGE, "--shared: not a shared archive (PostgreSQL): a club's own"
		    " archive is --db");
	return a;
}

/* add */

static int
add_board(struct set_input *in, unsigned board, const unsigned char owner[CARDS],
    int dealer, int vulnerability, struct dl_error *e)
{
	return archive_add_board(in->arg, board, owner, dealer, vulnerability, e);
}

static void
add_one(struct archive *a, const char *path)
{
	struct set_input in = { .path = path, .reader = reader_options(), .board = add_board };
	struct archive_add *add;
	struct dl_error e;
	int64_t existing;

	if (archive_add_begin(a, &add, &e) == -1) {
		char *label = text_escaped(path != NULL ? path : "standard input");

		dl_error_prefix(&e, "%s", label);
		free(label);
		tool_die(&e);
	}
	in.arg = add;
	if (set_input_read(&in, &e) == -1) {
		archive_add_abort(add);
		tool_die(&e);
	}
	in.set.user = archive_user();
	if (played)
		archive_now(in.set.played);
	if (archive_add_commit(add, &in.set, &existing, &e) == -1) {
		dl_error_prefix(&e, "%s", in.label);
		tool_die(&e);
	}
	if (!quiet) {
		if (existing)
			fprintf(stderr, "dl-archive: %s: archived before, as set %lld\n", in.label,
			    (long long)existing);
		else
			fprintf(stderr, "dl-archive: %s: set %lld, %u boards\n", in.label,
			    (long long)in.set.id, in.set.boards);
	}
	set_input_free(&in);
}

static int
cmd_add(struct archive *a, int argc, char *argv[])
{
	if (argc == 0)
		add_one(a, NULL);
	for (int i = 0; i < argc; i++)
		add_one(a, argv[i]);
	return 0;
}

/* check */

struct checked {
	struct set_boards held;		/* the file's boards */
	struct archive *a;
	const char *label;
	struct archive_verdict verdict;
};

/* " (CLUB, EVENT, DATE)", what a set says of itself and who played it,
 * escaped; each left out when not known. */
static void
print_set_words(FILE *fp, const char *set_club, const char *set_event, const char *set_date)
{
	const char *words[3] = { set_club, set_event, set_date };
	const char *sep = " (";

	for (size_t i = 0; i < 3; i++) {
		char *w;

		if (words[i] == NULL)
			continue;
		w = text_escaped(words[i]);
		fprintf(fp, "%s%s", sep, w);
		free(w);
		sep = ", ";
	}
	if (*sep == ',')
		putc(')', fp);
}

/* " board N", the archived board's number, when known: a shared
 * archive's hit of one hand names its set alone (docs/archive.md,
 * "Privacy"). */
static void
print_board(const struct archive_hit *hit)
{
	if (hit->board != 0)
		printf(" board %u", hit->board);
}

static int
print_hit(size_t index, const struct archive_hit *hit, void *arg)
{
	struct checked *c = arg;
	char seats[5];

	archive_verdict_add(&c->verdict, index, hit);
	if (quiet)
		return 0;
	for (unsigned s = 0; s < 4; s++)
		/* a near deal's hand that changed: its seat in small letters */
		seats[s] = hit->seat[s] < 0 ? '-' : hit->seat[s] < 4 ? seat_letters[hit->seat[s]] :
		    (char)(seat_letters[hit->seat[s] - 4] - 'A' + 'a');
	seats[4] = '\0';
	printf("%s: board %u: %s %s: %sset %lld", c->label, c->held.numbers[index],
	    archive_match_kind(hit->match)->name, seats, hit->shared ? "shared " : "",
	    (long long)hit->set);
	print_board(hit);
	print_set_words(stdout, hit->club, hit->event, hit->date);
	putchar('\n');
	return 0;
}

static int
check_one(struct archive *a, struct archive *shared, const char *path)
{
	struct checked c = { .a = a };
	struct set_input in = { .path = path, .reader = reader_options(),
	    .board = set_boards_take, .arg = &c.held };
	struct dl_error e;
	int64_t skip = 0;

	if (set_input_read(&in, &e) == -1)
		tool_die(&e);
	c.label = in.label;
	/* the set itself, archived when it was dealt, is no set played before
	 * until it is played */
	if (a != NULL && archive_unplayed_self(a, c.held.numbers,
	    (const unsigned char (*)[CARDS])c.held.owner, c.held.n, &skip, &e) == -1)
		tool_die(&e);
	if (skip != 0 && !quiet)
		printf("%s: archived as set %lld, not played: not compared with itself\n", in.label,
		    (long long)skip);
	if (archive_check_both(a, shared, (const unsigned char (*)[CARDS])c.held.owner, c.held.n,
	    skip, prefix_bits, print_hit, &c, &e) == -1)
		tool_die(&e);
	/* as dl-diff, the count on standard error */
	if (c.verdict.dealt_before > 0 && !quiet) {
		xfflush(stdout, "standard output");
		fprintf(stderr, "dl-archive: %s: %zu of %zu boards dealt before\n", in.label,
		    c.verdict.dealt_before, c.held.n);
	}
	set_boards_free(&c.held);	/* a set not yet played is a secret */
	set_input_free(&in);
	return c.verdict.dealt_before > 0;
}

static int
cmd_check(struct archive *a, int argc, char *argv[])
{
	struct archive *shared = open_shared(0, NULL);
	int found = 0;

	if (argc == 0)
		found = check_one(a, shared, NULL);
	for (int i = 0; i < argc; i++)
		found |= check_one(a, shared, argv[i]);
	xfflush(stdout, "standard output");
	if (shared != NULL)
		archive_close(shared);
	return found ? EXIT_REFUSED : 0;
}

/* find */

struct find {
	struct archive *a;
	int found;
};

static int
print_found(const struct archive_hit *hit, void *arg)
{
	struct find *f = arg;

	f->found = 1;
	printf("set %lld", (long long)hit->set);
	print_board(hit);
	printf(" %c", seat_letters[hit->seat[0]]);
	print_set_words(stdout, hit->club, hit->event, hit->date);
	putchar('\n');
	return 0;
}

static int
print_found_deal(size_t index, const struct archive_hit *hit, void *arg)
{
	struct find *f = arg;
	char seats[5];

	(void)index;
	if (!archive_match_kind(hit->match)->same_deal)
		return 0;
	f->found = 1;
	for (unsigned s = 0; s < 4; s++)
		seats[s] = seat_letters[hit->seat[s]];
	seats[4] = '\0';
	printf("set %lld", (long long)hit->set);
	print_board(hit);
	printf(" %s", seats);
	print_set_words(stdout, hit->club, hit->event, hit->date);
	putchar('\n');
	return 0;
}

static int
cmd_find(struct archive *a, int argc, char *argv[])
{
	struct find f = { a, 0 };
	struct dl_error e;

	(void)argc;
	if (strcmp(argv[0], "hand") == 0) {
		uint64_t hand;

		if (hand_from_pbn(argv[1], &hand) == -1)
			tool_fail(DL_ERR_USAGE, "find hand: not a hand of 13 cards as PBN writes it"
			    " (AKQ2.JT9.876.54)");
		if (archive_find_hand(a, hand, 0, print_found, &f, &e) == -1)
			tool_die(&e);
	} else if (strcmp(argv[0], "deal") == 0) {
		unsigned char owner[1][CARDS];

		if (deal_from_pbn(argv[1], owner[0]) == -1 &&
		    deal_from_tso(argv[1], strlen(argv[1]), owner[0]) != NULL)
			tool_fail(DL_ERR_USAGE, "find deal: not a deal as PBN writes it"
			    " (N:AKQ2.JT9.876.54 ...) or as a .tso record's 52 digits");
		if (archive_check_boards(a, (const unsigned char (*)[CARDS])owner, 1, 0, 0,
		    print_found_deal, &f, &e) == -1)
			tool_die(&e);
	} else
		usage(stderr, EXIT_TROUBLE);
	xfflush(stdout, "standard output");
	return f.found ? 0 : EXIT_REFUSED;
}

/* sets, count, export */

static int
print_set(const struct archive_set *set, void *arg)
{
	char *source = set->source ? text_escaped(set->source) : xstrdup("-");
	char *user = set->user ? text_escaped(set->user) : xstrdup("-");

	(void)arg;
	printf("%lld %s %s %u %u-%u %s %s %s", (long long)set->id, set->archived,
	    set->fingerprint, set->boards, set->low, set->high,
	    set->played[0] != '\0' ? set->played : "-", user, source);
	print_set_words(stdout, set->club, set->event, set->date);
	putchar('\n');
	free(source);
	free(user);
	return 0;
}

static int
cmd_sets(struct archive *a, int argc, char *argv[])
{
	struct dl_error e;

	(void)argc;
	(void)argv;
	if (archive_sets(a, print_set, NULL, &e) == -1)
		tool_die(&e);
	xfflush(stdout, "standard output");
	return 0;
}

static int
cmd_count(struct archive *a, int argc, char *argv[])
{
	struct archive_counts c;
	struct dl_error e;

	(void)argc;
	(void)argv;
	if (archive_count(a, &c, &e) == -1)
		tool_die(&e);
	printf("%lld sets, %lld deals; played %lld sets, %lld deals\n", (long long)c.sets,
	    (long long)c.deals, (long long)c.played_sets, (long long)c.played_deals);
	xfflush(stdout, "standard output");
	return 0;
}

/* A set's number on the command line, for command what. */
static int64_t
set_number(const char *what, const char *text)
{
	const char *errstr;
	long long id = strtonum(text, 1, INT64_MAX, &errstr);

	if (errstr != NULL)
		tool_fail(DL_ERR_USAGE, "%s: set number %s", what, errstr);
	return id;
}

/* export SET: the set as a stream of its own; export --all: every set,
 * one sets stream (lib/archive/export.c). */
static int
cmd_export(struct archive *a, int argc, char *argv[])
{
	struct archive_set set = { 0 };
	struct dl_error e;
	long long id;

	if (export_all != (argc == 0))
		usage(stderr, EXIT_TROUBLE);
	if (export_all) {
		if (archive_export_all(a, stdout, &e) == -1)
			tool_die(&e);
		xfflush(stdout, "standard output");
		return 0;
	}
	id = set_number("export", argv[0]);
	switch (archive_set_get(a, id, &set, &e)) {
	case -1:
		tool_die(&e);
	case 0:
		tool_fail(DL_ERR_USAGE, "export: no set %lld", id);
	}
	if (archive_export_set(a, &set, stdout, &e) == -1)
		tool_die(&e);
	archive_set_clear(&set);
	xfflush(stdout, "standard output");
	return 0;
}

/* import */

/* What import did with a set, and how many sets of a file a shared
 * archive was not sent. */
struct imported {
	const char *label;
	size_t left_out, sets;
};

static int
print_imported(const struct archive_imported *set, void *arg)
{
	struct imported *im = arg;

	im->sets++;
	if (set->left_out) {
		im->left_out++;
		return 0;
	}
	if (quiet)
		return 0;
	if (set->existing)
		fprintf(stderr, "dl-archive: %s: %s: archived before, as set %lld\n", im->label,
		    set->fingerprint, (long long)set->id);
	else
		fprintf(stderr, "dl-archive: %s: %s: set %lld, %u boards\n", im->label,
		    set->fingerprint, (long long)set->id, set->boards);
	return 0;
}

static void
import_one(struct archive *a, const char *path)
{
	int from_stdin = path == NULL || strcmp(path, "-") == 0;
	struct imported im = { 0 };
	struct dl_error e;
	char *label = from_stdin ? xstrdup("standard input") : text_escaped(path);
	FILE *fp = from_stdin ? stdin : fopen(path, "r");

	if (fp == NULL)
		tool_fail_sys("%s", label);
	im.label = label;
	if (archive_import(a, fp, print_imported, &im, &e) == -1) {
		dl_error_prefix(&e, "%s", label);
		tool_die(&e);
	}
	/* a shared archive takes a set only once played: the others stay
	 * where they are, counted (docs/archive.md, "Moving an archive") */
	if (im.left_out > 0 && !quiet)
		fprintf(stderr, "dl-archive: %s: %zu of %zu sets not played, left out: a shared"
		    " archive takes a set only once it was played\n", label, im.left_out, im.sets);
	if (!from_stdin)
		fclose(fp);
	free(label);
}

static int
cmd_import(struct archive *a, int argc, char *argv[])
{
	if (argc == 0)
		import_one(a, NULL);
	for (int i = 0; i < argc; i++)
		import_one(a, argv[i]);
	return 0;
}

/* sync, played: what reached the shared archive */
static int
print_sent(const struct archive_sent *sent, void *arg)
{
	(void)arg;
	if (quiet)
		return 0;
	if (sent->already)
		fprintf(stderr, "dl-archive: set %lld: in the shared archive already, as set %lld\n",
		    (long long)sent->local_id, (long long)sent->shared_id);
	else
		fprintf(stderr, "dl-archive: set %lld: sent to the shared archive, set %lld, %u"
		    " boards\n", (long long)sent->local_id, (long long)sent->shared_id,
		    sent->boards);
	return 0;
}

/* The club's own archive, for a failure to send what is owed to say so. */
static struct archive *owing;

/* A failure to send: what stays owed, before the cause. */
static void
say_owed(struct dl_error *e)
{
	struct dl_error ignored;
	size_t owed;

	if (archive_owed(owing, &owed, &ignored) == 0 && owed > 0)
		dl_error_prefix(e, "%zu %s played, not yet in the shared archive (dl-archive sync"
		    " sends %s)", owed, owed == 1 ? "set" : "sets", owed == 1 ? "it" : "them");
}

/* Every set played and not yet shared, to the shared archive: a failure
 * (the server away) leaves them owed, for the next sync. */
static void
share_owed(struct archive *a)
{
	struct archive *shared;
	struct dl_error e;
	size_t sent;

	owing = a;
	shared = open_shared(ARCHIVE_WRITE, say_owed);
	if (archive_share(a, shared, club, print_sent, NULL, &sent, &e) == -1) {
		archive_close(shared);
		say_owed(&e);
		tool_die(&e);
	}
	archive_close(shared);
}

/* The club a set is played at: --club, else DL_CLUB (NULL: none named),
 * checked before anything is written. */
static void
club_read(void)
{
	if (club == NULL && (club = getenv("DL_CLUB")) != NULL && *club == '\0')
		club = NULL;
	if (club != NULL && !archive_club_is_valid(club))
		tool_fail(DL_ERR_USAGE, "--club: one line of printable UTF-8 of at most %d bytes",
		    ARCHIVE_CLUB_MAX);
}

/* The club, needed when a shared archive is named: it is told which club
 * played a set. */
static void
club_needed(void)
{
	club_read();
	if (club == NULL)
		tool_fail(DL_ERR_USAGE, "no club named (--club or DL_CLUB): the shared archive is told"
		    " which club played a set");
}

static int
cmd_played(struct archive *a, int argc, char *argv[])
{
	struct dl_error e;
	char *user = archive_user();
	int64_t *ids = xreallocarray(NULL, (size_t)argc, sizeof *ids);

	club_read();
	for (int i = 0; i < argc; i++)
		ids[i] = set_number("played", argv[i]);
	/* with a shared archive named, the club is needed before any set
	 * is marked: a missing one changes nothing */
	if (shared_named())
		club_needed();
	for (int i = 0; i < argc; i++)
		switch (archive_mark_played(a, ids[i], NULL, club, user, &e)) {
		case -1:
			tool_die(&e);
		case 0:
			tool_fail(DL_ERR_USAGE, "played: no set %lld", (long long)ids[i]);
		}
	free(ids);
	free(user);
	/* marked played whether or not the server is there: sent now, or
	 * by the next played or sync */
	if (shared_named())
		share_owed(a);
	return 0;
}

static int
cmd_sync(struct archive *a, int argc, char *argv[])
{
	(void)argc;
	(void)argv;
	if (!shared_named())
		tool_fail(DL_ERR_USAGE, "sync: no shared archive named (--shared or"
		    " DL_SHARED_ARCHIVE)");
	club_needed();
	share_owed(a);
	return 0;
}

static int
cmd_compact(struct archive *a, int argc, char *argv[])
{
	struct dl_error e;

	(void)argc;
	(void)argv;
	if (archive_compact(a, &e) == -1)
		tool_die(&e);
	return 0;
}

/* Each command, and how many operands it takes (the usage's line): main
 * checks them, so that a command's own code need not. */
#define ANY INT_MAX
static const struct command {
	const char *name;
	unsigned flags;
	int min, max;
	int (*run)(struct archive *a, int argc, char *argv[]);
} commands[] = {
	{ "add", ARCHIVE_WRITE, 0, ANY, cmd_add },
	{ "check", 0, 0, ANY, cmd_check },
	{ "find", 0, 2, 2, cmd_find },
	{ "sets", 0, 0, 0, cmd_sets },
	{ "count", 0, 0, 0, cmd_count },
	{ "export", 0, 0, 1, cmd_export },
	{ "import", ARCHIVE_WRITE, 0, ANY, cmd_import },
	{ "played", ARCHIVE_WRITE, 1, ANY, cmd_played },
	{ "sync", ARCHIVE_WRITE, 0, 0, cmd_sync },
	{ "compact", ARCHIVE_WRITE, 0, 0, cmd_compact },
};

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'D' },
		{ "shared", required_argument, NULL, 'S' },
		{ "club", required_argument, NULL, 'C' },
		{ "all", no_argument, NULL, 'a' },
		{ "played", no_argument, NULL, 'p' },
		{ "prefix-bits", required_argument, NULL, 'b' },
		{ "renumber", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct command *cmd = NULL;
	const char *errstr;
	struct archive *a;
	int ch, status;

	tool_start();
	tool_sodium_init();
	/* --db may hold a password (postgresql://user:password@host/db):
	 * out of /proc/PID/cmdline before anything else runs */
	tool_hide_secret_arguments(argc, argv, "f:hq", longopts, "DS");
	opterr = 0;
	/* options before and after the command's name: "+" stops at it */
	while ((ch = getopt_long(argc, argv, "+f:hq", longopts, NULL)) != -1)
		switch (ch) {
		case 'D': db_spec = optarg; break;
		case 'S': shared_spec = optarg; break;
		case 'C': club = optarg; break;
		case 'h': usage(stdout, 0);
		case 'q': quiet = 1; break;
		default: tool_bad_option(argv, optind, optopt);
		}
	if (optind == argc)
		usage(stderr, EXIT_TROUBLE);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[optind], commands[i].name) == 0)
			cmd = &commands[i];
	if (cmd == NULL)
		usage(stderr, EXIT_TROUBLE);
	argc -= optind;
	argv += optind;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "f:hq", longopts, NULL)) != -1)
		switch (ch) {
		case 'D': db_spec = optarg; break;
		case 'S': shared_spec = optarg; break;
		case 'C': club = optarg; break;
		case 'a': export_all = 1; break;
		case 'f': format = optarg; break;
		case 'h': usage(stdout, 0);
		case 'p': played = 1; break;
		case 'q': quiet = 1; break;
		case 'r': reader_flags |= DL_IN_RENUMBER; break;
		case 'b':
			prefix_bits = (unsigned)strtonum(optarg, 8, 32, &errstr);
			if (errstr != NULL)
				tool_fail(DL_ERR_USAGE, "--prefix-bits: from 8 to 32");
			break;
		default: tool_bad_option(argv, optind, optopt);
		}
	if ((played && strcmp(cmd->name, "add") != 0) ||
	    (prefix_bits && strcmp(cmd->name, "check") != 0) ||
	    (export_all && strcmp(cmd->name, "export") != 0) ||
	    (shared_spec != NULL && strcmp(cmd->name, "check") != 0 &&
	    strcmp(cmd->name, "played") != 0 && strcmp(cmd->name, "sync") != 0) ||
	    (club != NULL && strcmp(cmd->name, "played") != 0 && strcmp(cmd->name, "sync") != 0))
		usage(stderr, EXIT_TROUBLE);
	if (argc - optind < cmd->min || argc - optind > cmd->max)
		usage(stderr, EXIT_TROUBLE);
	/* as dl-diff: check's and find's 1 says a board was seen before (or
	 * found), so input that cannot be read, a damaged archive's too, is
	 * trouble, 2 */
	if (strcmp(cmd->name, "check") == 0 || strcmp(cmd->name, "find") == 0)
		tool_input_status = EXIT_TROUBLE;
	command_name = cmd->name;
	a = open_archive(cmd->flags);
	status = cmd->run(a, argc - optind, argv + optind);
	if (a != NULL)
		archive_close(a);
	return status;
}
