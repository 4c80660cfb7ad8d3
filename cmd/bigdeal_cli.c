#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <sodium.h>

#include "keys/bigdeal.h"
#include "bigdeal_cli.h"
#include "files/bigdeal_stats.h"
#include "files/bigdealrc.h"
#include "session/deal.h"
#include "keys/entropy.h"
#include "files/plugins.h"
#include "session/recording.h"
#include "stream/description.h"
#include "keys/ripemd160.h"
#include "keys/seed.h"
#include "owner.h"
#include "tool.h"
#include "base/util.h"
#include "files/writers.h"

static const char *const program_names[] = { "dl-bigdeal", "dl-bigdealx" };

static struct {
	enum bigdeal_program which;
	const char *boards, *prefix, *formats;
	int only_given, wizard, given_hash, reinit;
	int risky;		/* -e, -E, -h or -o: the reference warns */
	/* bigdealx's formats stdout (PBN on standard output) and stats
	 * (a warning there) are written: the banner comes first */
	int to_stdout, stats;
	int banner_printed;
	unsigned long given_bits;	/* entropy credited to -e and -E */
	struct seed_record *seed;	/* secret memory */
	struct entropy *entropy;	/* secret memory */
	struct recording *recording;	/* the set, into the archive DL_ARCHIVE names */
} run;

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	if (run.which == BIGDEAL_SAFE)
		fprintf(fp, "usage: dl-bigdeal [-n boards] [-p prefix] [-f formats] [-R]\n");
	else
		fprintf(fp, "usage: dl-bigdealx [-n boards] [-p prefix] [-f formats] "
		    "[-e str]... [-E file]\n"
		    "                   [-o] [-W str] [-h hash] [-R]\n");
	exit(status);
}

/* The two lines SquareDeal counts, and after them as many warning lines
 * as the reference prints on standard output in the same mode: front ends
 * count them.  -W runs (SquareDeal's) never have any.  Printed at the end
 * of a run, or before its boards when they go to standard output too. */
static void
banner(void)
{
	if (run.banner_printed)
		return;
	run.banner_printed = 1;
	printf("%s (%s), compatible with Big Deal version %s\n\n",
	    program_names[run.which], DL_VERSION_STRING, BIGDEAL_COMPATIBLE);
	if (!run.wizard && run.only_given && run.given_bits < ENTROPY_KEYBOARD)
		printf("WARNING: only %lu bits of entropy given on the command line; "
		    "Big Deal wants %d.\n",
		    run.given_bits, ENTROPY_KEYBOARD);
	if (!run.wizard && run.risky)
		printf("WARNING: -e, -E, -h or -o can make a set of deals that is not new:\n"
		    "the same entropy, or the same hash, gives the same deals again.\n"
		    "Play these deals only with the permission of your national authority.\n\n");
	/* bigdealx's warning with its stats, eight lines there too */
	if (run.stats)
		printf("\nStatistics of the set are written to the .txt file beside the deals.\n"
		    "Deciding from them whether or when to play the set goes\n"
		    "against the spirit of the Laws of Duplicate Contract\n"
		    "Bridge.\n\n"
		    "The statistics are for display only.\n\n");
}

/* bigdealx -E: a file that cannot be opened is passed over with a warning,
 * as the reference passes it over (the OS entropy, or the check on -o,
 * still stands); one that breaks while read is an error. */
static void
add_entropy_file(const char *path)
{
	struct dl_error e;
	FILE *fp = fopen(path, "r");

	if (fp == NULL) {
		tool_warn("-E %s: %s: dealing without it", path, strerror(errno));
		return;
	}
	fclose(fp);
	if (entropy_add_file_as_ints(run.entropy, path, &e) == -1)
		tool_die(&e);
}

static void
set_hash(char *hex)
{
	size_t len = strlen(hex);
	int bad = hex_to_bytes(hex, run.seed->key, BIGDEAL_SECRET) == -1;

	scrub_argument(hex);
	if (len != 2 * BIGDEAL_SECRET)
		tool_fail(DL_ERR_USAGE, "-h: a hash is %d hex digits, not %zu", 2 * BIGDEAL_SECRET, len);
	if (bad)
		tool_fail(DL_ERR_USAGE, "-h: a hash is %d hex digits, 0-9 and A-F", 2 * BIGDEAL_SECRET);
	run.given_hash = run.only_given = 1;
}

/* Secrets are blanked in argv as soon as they are read; of -W only its
 * hash is kept. */
static void
parse_options(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	const char *optstring = run.which == BIGDEAL_SAFE ? "f:hn:p:R" : "e:E:f:h:n:op:RW:";
	int ch;

	/* the entropy phrase, the hash, the wizard's owner */
	tool_hide_secret_arguments(argc, argv, optstring, longopts, "ehW");
	opterr = 0;	/* tool_bad_option: never echo a secret argument */
	/* alone, -h asks for help; bigdealx's -h otherwise takes a hash */
	if (argc == 2 && strcmp(argv[1], "-h") == 0)
		usage(stdout, 0);
	while ((ch = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (ch) {
		case 'e':
			entropy_add_string(run.entropy, optarg);
			scrub_argument(optarg);
			run.risky = 1;
			break;
		case 'E':
			add_entropy_file(optarg);
			run.risky = 1;
			break;
		case 'f': run.formats = optarg; break;
		case 'h':
			if (run.which == BIGDEAL_SAFE)
				usage(stdout, 0);
			set_hash(optarg);
			run.risky = 1;
			break;
		case 'n': run.boards = optarg; break;
		case 'o': run.only_given = run.risky = 1; break;
		case 'p': run.prefix = optarg; break;
		case 'R': run.reinit = 1; break;
		case 'W':
			/* whole, as Big Deal hashes it: SquareDeal's wizard
			 * strings may be longer than .bigdealrc's 113 bytes */
			bigdeal_owner_hash_whole(optarg, run.seed->owner);
			scrub_argument(optarg);
			run.wizard = run.only_given = 1;
			break;
		case 'H': usage(stdout, 0);
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	run.given_bits = run.entropy->bits;
}

static const char *
boards_problem(const char *text, struct board_range *r)
{
	const char *why;

	if (board_range_parse_bigdeal(text, r, &why) == -1)
		return why;
	if (run.which == BIGDEAL_SAFE && r->high - r->low >= BIGDEAL_SAFE_BOARDS)
		return "at most 100 boards a run (dl-bigdealx deals more)";
	return NULL;
}

/* Big Deal's rule on Unix, with room for a longer name. */
static const char *
prefix_problem(const char *prefix)
{
	if (*prefix == '\0')
		return "the file prefix is empty";
	if (strchr(prefix, '/') != NULL)
		return "a file prefix has no '/': the files go to the current directory";
	if (strchr(prefix, ' ') != NULL)
		return "a file prefix has no spaces";
	if (strlen(prefix) > BIGDEAL_PREFIX_MAX)
		return "a file prefix has at most 100 characters";
	return NULL;
}

/* bigdealx's formats that bigdeal has not (output.c, BIGDEALX): goedel,
 * and two that are no plugins: stats, a writer built in here, and
 * stdout, PBN on standard output. */
#define STDOUT_FORMAT "stdout"
static const struct dl_plugin *const builtins[] = { &bigdeal_stats_writer, NULL };

static int
extended_only(const char *name)
{
	return strcmp(name, "goedel") == 0 || strcmp(name, "stats") == 0 ||
	    strcmp(name, STDOUT_FORMAT) == 0;
}

static int
load_format(const char *name, struct loaded_plugin *lp, struct dl_error *e)
{
	if (run.which == BIGDEAL_SAFE && extended_only(name))
		return dl_error_set(e, DL_ERR_USAGE, "unknown format \"%s\" (dl-bigdealx "
		    "writes it, as bigdealx)", name);
	if (run.which == BIGDEAL_EXTENDED && plugin_load_builtin(name, builtins, lp) == 0)
		return 0;
	return plugin_load(name, lp, e);
}

static int
is_stdout(const char *name)
{
	return run.which == BIGDEAL_EXTENDED && strcmp(name, STDOUT_FORMAT) == 0;
}

/* Why the format name cannot be written in a run beside the formats kept
 * (Big Deal's reasons: an empty or unknown name, a suffix written
 * already), or NULL; with high, not 0, also a format that cannot hold
 * board high.  The message, escaped, in a static buffer; *tail is what a
 * warning adds to it. */
static const char *
format_problem(const char *name, const struct format_list *kept, unsigned high,
    const char **tail)
{
	static struct dl_error e;
	static char suffix_tail[64];
	struct loaded_plugin lp, other;
	int fits = 1;

	*tail = ": ignored";
	if (*name == '\0') {
		dl_error_set(&e, DL_ERR_USAGE, "an empty format name in \"-f\"");
		return e.msg;
	}
	/* standard output has no suffix: only another stdout clashes */
	if (is_stdout(name)) {
		for (size_t j = 0; j < kept->n; j++)
			if (strcmp(kept->names[j], STDOUT_FORMAT) == 0) {
				dl_error_set(&e, DL_ERR_USAGE, "format %s: standard output is "
				    "written already", name);
				return e.msg;
			}
		return NULL;
	}
	if (load_format(name, &lp, &e) == -1)
		return e.msg;
	for (size_t j = 0; j < kept->n && fits; j++)
		if (!is_stdout(kept->names[j]) && load_format(kept->names[j], &other, &e) == 0) {
			if (strcmp(other.plugin->suffix, lp.plugin->suffix) == 0) {
				dl_error_set(&e, DL_ERR_USAGE, "format %s: a .%s file is "
				    "written already", name, lp.plugin->suffix);
				fits = 0;
			}
			plugin_unload(&other);
		}
	if (fits && high != 0 && writer_holds(lp.plugin, high, 1, &e) == -1) {
		snprintf(suffix_tail, sizeof suffix_tail, ": no .%s file", lp.plugin->suffix);
		*tail = suffix_tail;
		fits = 0;
	}
	plugin_unload(&lp);
	return fits ? NULL : e.msg;
}

/* Everything the command line says is checked before anything is written
 * or asked. */
static void
check_command_line(void)
{
	struct board_range r;
	const char *why;

	if (run.boards != NULL && (why = boards_problem(run.boards, &r)) != NULL)
		tool_fail(DL_ERR_USAGE, "-n %s: %s", run.boards, why);
	if (run.prefix != NULL && (why = prefix_problem(run.prefix)) != NULL)
		tool_fail(DL_ERR_USAGE, "-p: %s", why);
	/* -W and -h reproduce known sets: what they give is what it is */
	if (run.only_given && !run.wizard && !run.given_hash &&
	    run.entropy->bits < ENTROPY_NEEDED)
		tool_fail(DL_ERR_INPUT, "only %lu bits of entropy, %d needed: give longer -e strings "
		    "(4 bits a character) or drop -o", run.entropy->bits, ENTROPY_NEEDED);
}

/* Questions are asked as the reference asks them, in its order, and the
 * answers read from standard input, a terminal or not (scripts pipe them
 * in).  Only on a terminal is there someone to see the questions and to
 * answer again after a wrong answer; from a pipe a wrong answer ends the
 * run at once, where the reference would ask for ever. */
static int
on_terminal(void)
{
	return isatty(STDIN_FILENO);
}

/* Big Deal reads an answer with fgets into MESSLEN = 100 bytes (main.c
 * readline): at most 99 bytes at a time, the rest of a longer line being
 * the answer to the next question, and only the LF is cut (a CR stays).
 * At the end of the input fgets reads nothing, and the buffer keeps what
 * the answer before left in it, which Big Deal then takes for this answer
 * too: the first-run questions share one buffer (write_init_file's buf1),
 * the run's questions another (main's message). */
#define ANSWER_MAX 99

struct answers {
	char text[ANSWER_MAX + 1];
	int filled;		/* an answer has been read into it */
};

enum answer {
	ANSWER_READ,		/* a new answer in text */
	ANSWER_KEPT,		/* the input has ended: text holds the one before */
	ANSWER_NONE,		/* the input has ended and the buffer was never
				 * filled (Big Deal would read what its stack held) */
};

/* The next answer into a; the question is shown escaped, on a terminal:
 * the defaults it quotes come from .bigdealrc, which need not be the
 * user's own. */
static enum answer __attribute__((format(printf, 2, 3)))
ask(struct answers *a, const char *fmt, ...)
{
	static int cr_said;
	va_list ap;
	char *lf;

	if (on_terminal()) {
		va_start(ap, fmt);
		int len = vsnprintf(NULL, 0, fmt, ap);
		va_end(ap);
		char *question = xmalloc(len > 0 ? (size_t)len + 1 : 1), *shown;
		va_start(ap, fmt);
		vsnprintf(question, len > 0 ? (size_t)len + 1 : 1, fmt, ap);
		va_end(ap);
		shown = text_escaped(question);
		fputs(shown, stderr);
		free(shown);
		free(question);
	}
	/* at the end of the input fgets leaves the buffer as it was */
	if (fgets(a->text, sizeof a->text, stdin) == NULL) {
		if (ferror(stdin))
			tool_fail_sys("standard input");
		return a->filled ? ANSWER_KEPT : ANSWER_NONE;
	}
	a->filled = 1;
	if ((lf = strchr(a->text, '\n')) != NULL)
		*lf = '\0';
	if (strchr(a->text, '\r') != NULL && !cr_said) {
		tool_warn("standard input has CR LF line ends: Big Deal keeps the CR in an "
		    "answer, and so does %s (in a file prefix, a format, an owner)",
		    getprogname());
		cr_said = 1;
	}
	return ANSWER_READ;
}

/* The input ended after an answer, which Big Deal takes again. */
static void
kept_answer(const char *question, const char *text)
{
	tool_warn("standard input has ended: the answer to %s is the one before, \"%s\", "
	    "as Big Deal takes it", question, text);
}

/* A wrong answer: said, to be asked again on a terminal; the end of the
 * run from a pipe. */
static void
wrong_answer(const char *question, const char *answer, const char *why)
{
	if (on_terminal()) {
		fprintf(stderr, "%s\n", why);
		return;
	}
	struct dl_error e = { .kind = DL_ERR_INPUT };

	/* why is escaped already, the answer not yet */
	strlcpy(e.msg, why, sizeof e.msg);
	dl_error_prefix(&e, "standard input: \"%s\" as %s", answer, question);
	tool_die(&e);
}

/* Why a list is no answer to the first-run question (Big Deal asks again
 * while an entry is unknown or shares a suffix), or NULL. */
static const char *
formats_problem(const char *formats)
{
	static struct dl_error e;
	struct format_list list, kept = { 0 };
	const char *why = NULL, *tail;

	if (format_list_parse(formats, &list, &e) == -1)
		return e.msg;
	kept.names = xcalloc(list.n, sizeof *kept.names);
	for (size_t i = 0; i < list.n && why == NULL; i++)
		if ((why = format_problem(list.names[i], &kept, 0, &tail)) == NULL)
			kept.names[kept.n++] = list.names[i];
	free(kept.names);
	format_list_free(&list);
	return why;
}

static void
replace(char **slot, char *value)
{
	free(*slot);
	*slot = value;
}

static void
list_format(void *unused, const struct loaded_plugin *lp, const struct dl_error *broken)
{
	(void)unused;
	if (broken != NULL) {
		tool_warn_error(broken, "");
		return;
	}
	if (run.which == BIGDEAL_SAFE && extended_only(lp->plugin->name))
		return;
	char description[256];

	escape_text(description, sizeof description, lp->plugin->description,
	    strlen(lp->plugin->description));
	fprintf(stderr, "  %-10s .%-5s %s\n", lp->plugin->name, lp->plugin->suffix,
	    description);
}

/* Big Deal's first-run questions (write_init_file); the current values are
 * the defaults, taken too when the input has ended before any answer.
 * Whether anything was answered. */
static int
ask_settings(struct bigdealrc *rc)
{
	struct answers a = { .filled = 0 };
	int answered = 0;
	enum answer got;
	const char *why;

	if (on_terminal()) {
		fprintf(stderr, "Deals can be written in these formats, one or more per run:\n");
		plugin_each(list_format, NULL);
		if (run.which == BIGDEAL_EXTENDED) {
			fprintf(stderr, "  %-10s .%-5s %s\n", bigdeal_stats_writer.name,
			    bigdeal_stats_writer.suffix, bigdeal_stats_writer.description);
			fprintf(stderr, "  %-10s %-6s %s\n", STDOUT_FORMAT, "",
			    "Portable Bridge Notation on standard output");
		}
	}
	for (;;) {
		got = ask(&a, "Formats usually wanted, separated by commas: [%s] ", rc->formats);
		if (got == ANSWER_NONE)
			break;
		answered |= got == ANSWER_READ;
		/* an empty answer is the default, which the buffer then holds */
		const char *formats = a.text[0] != '\0' ? a.text : rc->formats;
		if ((why = formats_problem(formats)) == NULL) {
			replace(&rc->formats, xstrdup(formats));
			if (a.text[0] == '\0')
				strlcpy(a.text, rc->formats, sizeof a.text);
			break;
		}
		if (got == ANSWER_KEPT)
			tool_fail(DL_ERR_USAGE, "standard input has ended after a wrong answer "
			    "to the formats (Big Deal would ask for ever)");
		wrong_answer("the formats", formats, why);
	}
	/* only a y is a yes; at the end of the input the answer before (the
	 * formats: no) */
	got = ask(&a, "Ask for the formats at every run? (yes/no) [%s] ", rc->askformats);
	answered |= got == ANSWER_READ;
	if (got != ANSWER_NONE && a.text[0] != '\0') {
		if (got == ANSWER_KEPT)
			kept_answer("whether to ask for the formats", a.text);
		replace(&rc->askformats, xstrdup(a.text[0] == 'y' ? "yes" : "no"));
	}
	if (on_terminal())
		fprintf(stderr, "With an owner identification, nobody with another one can "
		    "make the same deals.\n");
	got = ask(&a, "Owner identification: [%s] ", rc->owner);
	answered |= got == ANSWER_READ;
	if (got != ANSWER_NONE && a.text[0] != '\0') {
		if (got == ANSWER_KEPT)
			kept_answer("the owner identification", a.text);
		replace(&rc->owner, xstrdup(a.text));
	}
	return answered;
}

static void
fill_defaults(struct bigdealrc *rc)
{
	if (rc->formats == NULL)
		rc->formats = xstrdup(BIGDEALRC_DEFAULT_FORMATS);
	if (rc->askformats == NULL)
		rc->askformats = xstrdup("no");
	/* the reference's default, which a new .bigdealrc stores */
	if (rc->owner == NULL)
		rc->owner = xstrdup(BIGDEAL_DEFAULT_OWNER);
}

/* ./.bigdealrc, made on the first run (and with -R) as Big Deal does; with
 * nobody to ask, from the defaults. */
static void
settings(struct bigdealrc *rc)
{
	struct dl_error e;
	int found;

	/* as Big Deal reads it: the same file, the same settings */
	if (bigdealrc_read_bigdeal(BIGDEALRC, rc, &e) == -1)
		tool_die(&e);
	tool_print_warnings(&rc->warnings);
	found = rc->found;

	fill_defaults(rc);
	if (found && !run.reinit)
		return;
	if (!ask_settings(rc)) {
		if (run.reinit)
			tool_fail(DL_ERR_USAGE, "-R: no answers to its questions on standard input");
		tool_warn("no %s here and no answers on standard input: writing one with "
		    "formats=%s and the default owner (-R changes it)", BIGDEALRC, rc->formats);
	}
	if (bigdealrc_write(BIGDEALRC, rc, &e) == -1)
		tool_die(&e);
}

/* An answer goes into the secret as Big Deal collects it (main.c): with
 * the OS's randomness only, after it, right or wrong. */
static void
collect_answer(const char *text, unsigned bits)
{
	if (!run.only_given)
		entropy_add_bytes(run.entropy, text, strlen(text), bits);
}

static void
get_boards(struct answers *a, struct board_range *r)
{
	char answer[ANSWER_MAX + 1];
	const char *why;
	size_t len;

	if (run.boards != NULL) {
		boards_problem(run.boards, r);	/* checked already */
		return;
	}
	for (;;) {
		/* after a wrong answer Big Deal would ask for ever */
		if (ask(a, "Boards to deal (a number, or a range such as 17-32): ") != ANSWER_READ)
			tool_fail(DL_ERR_USAGE, "no -n: give the boards on the command line "
			    "or on standard input");
		strlcpy(answer, a->text, sizeof answer);
		/* setboards() cuts its buffer at the dash: of 17-32 Big Deal
		 * collects 17, and a question after the input's end gets it */
		a->text[strcspn(a->text, "-")] = '\0';
		collect_answer(a->text, 0);
		/* atoi() stops at a CR */
		for (len = strlen(answer); len > 0 && answer[len - 1] == '\r'; len--)
			answer[len - 1] = '\0';
		if ((why = boards_problem(answer, r)) == NULL)
			return;
		wrong_answer("the boards", answer, why);
	}
}

static char *
get_prefix(struct answers *a)
{
	enum answer got;
	const char *why;

	if (run.prefix != NULL)
		return xstrdup(run.prefix);
	for (;;) {
		got = ask(a, "Output file name, without suffix: ");
		if (got == ANSWER_NONE)
			tool_fail(DL_ERR_USAGE, "no -p: give the file prefix on the command line "
			    "or on standard input");
		collect_answer(a->text, 5);
		why = prefix_problem(a->text);
		if (got == ANSWER_KEPT && why != NULL)
			tool_fail(DL_ERR_USAGE, "no -p: standard input has ended, and the "
			    "answer before, \"%s\", which Big Deal would take, is no file "
			    "prefix: %s", a->text, why);
		if (got == ANSWER_KEPT)
			kept_answer("the file prefix", a->text);
		if (why == NULL)
			return xstrdup(a->text);
		wrong_answer("the file prefix", a->text, why);
	}
}

static char *
get_formats(struct answers *a, const struct bigdealrc *rc)
{
	enum answer got;

	if (run.formats != NULL)
		return xstrdup(run.formats);
	/* in wizard mode (SquareDeal) Big Deal never stops to ask; the
	 * answer is read as -f is, each bad entry left out with a warning */
	if (!run.wizard && strcmp(rc->askformats, "yes") == 0) {
		got = ask(a, "Formats for this run: [%s] ", rc->formats);
		if (got != ANSWER_NONE && a->text[0] != '\0') {
			if (got == ANSWER_KEPT)
				kept_answer("the formats of this run", a->text);
			return xstrdup(a->text);
		}
	}
	return xstrdup(rc->formats);
}

/* Whether entry i of a format list is one to write: Big Deal warns of a
 * bad entry (empty, unknown, written already, upper case or padded names
 * being unknown) and of a format that cannot hold the run's boards, and
 * writes the others; dl-fmt refuses the whole run instead. */
static int
format_fits(const struct format_list *list, size_t i, const struct format_list *kept,
    unsigned high)
{
	const char *tail;
	const char *why = format_problem(list->names[i], kept, high, &tail);

	if (why == NULL)
		return 1;
	fprintf(stderr, "%s: %s%s\n", getprogname(), why, tail);
	return 0;
}

/* Big Deal reads at most ten formats a run. */
#define BIGDEAL_FORMATS_MAX 10

static void
formats_that_fit(const char *formats, unsigned high, struct format_list *kept)
{
	struct format_list list;

	format_list_split(formats, BIGDEAL_FORMATS_MAX, &list);
	kept->names = xcalloc(list.n, sizeof *kept->names);
	kept->n = 0;
	for (size_t i = 0; i < list.n; i++)
		if (format_fits(&list, i, kept, high))
			kept->names[kept->n++] = xstrdup(list.names[i]);
	format_list_free(&list);
}

/* random and owner as docs/bigdeal-compat.md section 5: given entropy first,
 * then the OS's unless -o, -W or -h, then the answers (deal_run adds the
 * last two); the history as every tool keeps it (seed_make): -h and -W
 * exist to make known sets again. */
static void
make_seed(const struct bigdealrc *rc)
{
	struct seed_source source = {
		.generator = &generator_bigdeal,
		.secret_given = run.given_hash,
		.entropy = run.entropy,
		.os = 0,	/* in the pool already, before the answers */
		.owner_given = run.wizard,
		/* -W reproduces SquareDeal's sets; -o alone was checked */
		.weak_allowed = 1,
	};
	struct dl_error e;
	unsigned long bits;

	if (!run.wizard)
		owner_from_bigdealrc(rc, 1, run.seed->owner);
	run.entropy = NULL;	/* seed_make frees it */
	if (seed_make(run.seed, &source, &bits, &e) == -1)
		tool_die(&e);
}

static struct writers *
open_writers(const char *prefix, const char *formats, unsigned high)
{
	struct writers_options opt = {
		.prefix = prefix, .publish = PUBLISH_REPLACE, .past_limit = 1,
		.warn = tool_print_warning,
	};
	struct format_list fit;
	struct writers *ws;
	struct dl_error e;

	formats_that_fit(formats, high, &fit);
	/* as the reference: nothing to write is no failure; the banner
	 * still says the run is done */
	if (fit.n == 0) {
		format_list_free(&fit);
		return NULL;
	}
	/* stdout is the pbn writer, last, to standard output */
	for (size_t i = 0; i < fit.n; i++)
		run.stats |= strcmp(fit.names[i], bigdeal_stats_writer.name) == 0;
	for (size_t i = 0; i < fit.n; i++) {
		if (is_stdout(fit.names[i])) {
			free(fit.names[i]);
			memmove(&fit.names[i], &fit.names[i + 1], (fit.n - i - 1) * sizeof *fit.names);
			fit.names[fit.n - 1] = xstrdup("pbn");
			run.to_stdout = opt.last_to_stdout = 1;
			break;
		}
	}
	if (run.which == BIGDEAL_EXTENDED)
		opt.builtins = builtins;
	/* the reference keeps no archive: a set goes into one only when
	 * DL_ARCHIVE names it */
	if (getenv("DL_ARCHIVE") != NULL && *getenv("DL_ARCHIVE") != '\0') {
		char *where = xasprintf("%s -p %s", getprogname(), prefix);

		run.recording = recording_start(NULL, NULL, where, &opt, &e);
		free(where);
		if (run.recording == NULL) {
			dl_error_prefix(&e, "archive");
			tool_die(&e);
		}
	}
	if (writers_open(&ws, &fit, &opt, &e) == -1) {
		recording_abort(run.recording);
		tool_die(&e);
	}
	format_list_free(&fit);
	return ws;
}

static void
deal(struct writers *ws, struct board_range r)
{
	/* for the tso format, which keeps the stream's headers */
	static const struct set_description d = {
		.version = DL_VERSION_STRING, .generator = "bigdeal", .mapping = "bigdeal",
	};
	char *headers[SET_DESCRIPTION_LINES];
	size_t nheaders = set_description_lines(&d, headers);
	struct dl_error e;
	int64_t id;

	if (writers_begin(ws, r.low, r.high, NULL, headers, nheaders, 0, 0, &e) == -1 ||
	    deal_boards(run.seed, r, ws, NULL, &e) == -1) {
		recording_abort(run.recording);
		writers_abort(ws);
		tool_die(&e);
	}
	/* in the archive before its files are there */
	if (run.recording != NULL) {
		struct recording *rec = run.recording;

		run.recording = NULL;
		if (recording_commit(rec, headers, nheaders, &id, &e) == -1) {
			dl_error_prefix(&e, "archive");
			writers_abort(ws);
			tool_die(&e);
		}
	}
	if (writers_finish(ws, &e) == -1)
		tool_die(&e);
	set_description_lines_free(headers, nheaders);
}

static void
deal_run(const struct bigdealrc *rc)
{
	struct board_range range;
	struct writers *ws;
	char *prefix, *formats;

	/* the run's questions share Big Deal's buffer */
	struct answers answers = { .filled = 0 };

	/* as Big Deal: the OS's bytes, then what is answered */
	if (!run.only_given)
		entropy_add_os(run.entropy);
	get_boards(&answers, &range);
	prefix = get_prefix(&answers);
	formats = get_formats(&answers, rc);
	/* a mistyped format must not cost a given secret its first use */
	ws = open_writers(prefix, formats, range.high);
	if (ws != NULL) {
		make_seed(rc);
		/* the reference's order there: banner, warnings, boards */
		if (run.to_stdout)
			banner();
		deal(ws, range);
	}
	free(prefix);
	free(formats);
}

int
bigdeal_cli_main(int argc, char *argv[], enum bigdeal_program which)
{
	struct bigdealrc rc;

	tool_start();
	tool_sodium_init();
	run.which = which;
	run.seed = secret_alloc(sizeof *run.seed);
	run.entropy = entropy_new();
	parse_options(argc, argv);
	check_command_line();
	settings(&rc);
	if (!run.reinit)
		deal_run(&rc);
	if (run.entropy != NULL)
		entropy_free(run.entropy);
	secret_free(run.seed);
	bigdealrc_free(&rc);
	banner();
	xfclose(stdout, "standard output");
	return 0;
}
