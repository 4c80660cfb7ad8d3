#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <sodium.h>

#include "bigdeal.h"
#include "bigdeal_cli.h"
#include "bigdealrc.h"
#include "deal.h"
#include "entropy.h"
#include "plugins.h"
#include "ripemd160.h"
#include "seed.h"
#include "tool.h"
#include "util.h"
#include "writers.h"

static const char *const program_names[] = { "dl-bigdeal", "dl-bigdealx" };

static struct {
	enum bigdeal_program which;
	const char *boards, *prefix, *formats;
	int only_given, wizard, given_hash, reinit;
	int risky;		/* -e, -E, -h or -o: the reference warns */
	unsigned long given_bits;	/* entropy credited to -e and -E */
	struct seed_record *seed;	/* secret memory */
	struct entropy *entropy;	/* secret memory */
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
 * count them.  -W runs (SquareDeal's) never have any. */
static void
banner(void)
{
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
	xfclose(stdout, "standard output");
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

/* The answer, without its line end, or NULL at the end of the input.
 * The question is shown escaped: the defaults it quotes come from
 * .bigdealrc, which need not be the user's own, and go to a terminal. */
static char * __attribute__((format(printf, 1, 2)))
ask(const char *fmt, ...)
{
	char *line = NULL;
	size_t cap = 0;
	va_list ap;

	if (on_terminal()) {
		va_start(ap, fmt);
		int len = vsnprintf(NULL, 0, fmt, ap);
		va_end(ap);
		char *question = xmalloc(len > 0 ? (size_t)len + 1 : 1), *shown;
		va_start(ap, fmt);
		vsnprintf(question, len > 0 ? (size_t)len + 1 : 1, fmt, ap);
		va_end(ap);
		shown = tool_escaped(question);
		fputs(shown, stderr);
		free(shown);
		free(question);
	}
	if (getline(&line, &cap, stdin) == -1) {
		if (ferror(stdin))
			tool_fail_sys("standard input");
		free(line);
		return NULL;
	}
	line[strcspn(line, "\r\n")] = '\0';
	return line;
}

/* A wrong answer: said, to be asked again on a terminal; the end of the
 * run from a pipe.  Frees the answer. */
static void
wrong_answer(const char *question, char *answer, const char *why)
{
	if (on_terminal()) {
		fprintf(stderr, "%s\n", why);
		free(answer);
		return;
	}
	struct dl_error e = { .kind = DL_ERR_INPUT };

	/* why is escaped already, the answer not yet */
	strlcpy(e.msg, why, sizeof e.msg);
	dl_error_prefix(&e, "standard input: \"%s\" as %s", answer, question);
	tool_die(&e);
}

/* Whether the writers take this list; if not, why in *why (a static
 * buffer). */
static int
formats_are_usable(const char *formats, const char **why)
{
	static struct dl_error e;
	struct format_list list;
	int status;

	if ((status = format_list_parse(formats, &list, &e)) == 0) {
		status = writers_check(&list, &e);
		format_list_free(&list);
	}
	*why = e.msg;
	return status == 0;
}

/* The list, the default for an empty answer or (*answered stays 0) for no
 * answer at all. */
static char *
ask_formats(const char *question, const char *dflt, int *answered)
{
	const char *why;

	for (;;) {
		char *answer = ask("%s [%s] ", question, dflt);
		if (answer == NULL)
			return xstrdup(dflt);
		*answered = 1;
		if (*answer == '\0') {
			free(answer);
			answer = xstrdup(dflt);
		}
		if (formats_are_usable(answer, &why))
			return answer;
		wrong_answer("the formats", answer, why);
	}
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
	char description[256];

	escape_text(description, sizeof description, lp->plugin->description,
	    strlen(lp->plugin->description));
	fprintf(stderr, "  %-10s .%-5s %s\n", lp->plugin->name, lp->plugin->suffix,
	    description);
}

/* Big Deal's first-run questions; the current values are the defaults,
 * taken too when the input has ended.  Whether anything was answered. */
static int
ask_settings(struct bigdealrc *rc)
{
	int answered = 0;
	char *answer;

	if (on_terminal()) {
		fprintf(stderr, "Deals can be written in these formats, one or more per run:\n");
		plugin_each(list_format, NULL);
	}
	replace(&rc->formats, ask_formats("Formats usually wanted, separated by commas:",
	    rc->formats, &answered));
	answer = ask("Ask for the formats at every run? (yes/no) [%s] ", rc->askformats);
	if (answer != NULL) {
		answered = 1;
		if (*answer != '\0')
			replace(&rc->askformats,
			    xstrdup(*answer == 'y' || *answer == 'Y' ? "yes" : "no"));
		free(answer);
	}
	if (on_terminal())
		fprintf(stderr, "With an owner identification, nobody with another one can "
		    "make the same deals.\n");
	answer = ask("Owner identification: [%s] ", rc->owner);
	if (answer != NULL && *answer != '\0')
		replace(&rc->owner, answer);
	else
		free(answer);
	return answered || answer != NULL;
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

static void
get_boards(struct board_range *r)
{
	const char *why;

	if (run.boards != NULL) {
		boards_problem(run.boards, r);	/* checked already */
		return;
	}
	for (;;) {
		char *answer = ask("Boards to deal (a number, or a range such as 17-32): ");
		if (answer == NULL)
			tool_fail(DL_ERR_USAGE, "no -n: give the boards on the command line "
			    "or on standard input");
		if ((why = boards_problem(answer, r)) == NULL) {
			free(answer);
			return;
		}
		wrong_answer("the boards", answer, why);
	}
}

static char *
get_prefix(void)
{
	const char *why;

	if (run.prefix != NULL)
		return xstrdup(run.prefix);
	for (;;) {
		char *answer = ask("Output file name, without suffix: ");
		if (answer == NULL)
			tool_fail(DL_ERR_USAGE, "no -p: give the file prefix on the command line "
			    "or on standard input");
		if ((why = prefix_problem(answer)) == NULL)
			return answer;
		wrong_answer("the file prefix", answer, why);
	}
}

static char *
get_formats(const struct bigdealrc *rc)
{
	char *answer;

	if (run.formats != NULL)
		return xstrdup(run.formats);
	/* in wizard mode (SquareDeal) Big Deal never stops to ask; the
	 * answer is read as -f is, each bad entry left out with a warning */
	if (!run.wizard && strcmp(rc->askformats, "yes") == 0) {
		answer = ask("Formats for this run: [%s] ", rc->formats);
		if (answer != NULL && *answer != '\0')
			return answer;
		free(answer);
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
	struct loaded_plugin lp, other;
	struct dl_error e;
	int fits = 1;

	if (*list->names[i] == '\0') {
		tool_warn("an empty format name in \"-f\": ignored");
		return 0;
	}
	if (plugin_load(list->names[i], &lp, &e) == -1) {
		tool_warn_error(&e, ": ignored");
		return 0;
	}
	for (size_t j = 0; j < kept->n && fits; j++)
		if (plugin_load(kept->names[j], &other, &e) == 0) {
			if (strcmp(other.plugin->suffix, lp.plugin->suffix) == 0) {
				tool_warn("format %s: a .%s file is written already: ignored",
				    list->names[i], lp.plugin->suffix);
				fits = 0;
			}
			plugin_unload(&other);
		}
	if (fits && writer_holds(lp.plugin, high, 1, &e) == -1) {
		char tail[64];
		snprintf(tail, sizeof tail, ": no .%s file", lp.plugin->suffix);
		tool_warn_error(&e, tail);
		fits = 0;
	}
	plugin_unload(&lp);
	return fits;
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
 * then the OS's unless -o, -W or -h; the history as every tool keeps it
 * (seed_make): -h and -W exist to make known sets again. */
static void
make_seed(const struct bigdealrc *rc)
{
	struct seed_source source = {
		.generator = &generator_bigdeal,
		.secret_given = run.given_hash,
		.entropy = run.entropy,
		.os = !run.only_given,
		.owner_given = run.wizard,
		/* -W reproduces SquareDeal's sets; -o alone was checked */
		.weak_allowed = 1,
	};
	struct dl_error e;
	unsigned long bits;

	if (!run.wizard)
		tool_owner_hash_rc(rc, 1, run.seed->owner);
	run.entropy = NULL;	/* seed_make frees it */
	if (seed_make(run.seed, &source, &bits, &e) == -1)
		tool_die(&e);
}

static struct writers *
open_writers(const char *prefix, const char *formats, unsigned high)
{
	struct writers_options opt = {
		.prefix = prefix, .publish = PUBLISH_REPLACE, .past_limit = 1,
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
	if (writers_open(&ws, &fit, &opt, &e) == -1)
		tool_die(&e);
	format_list_free(&fit);
	return ws;
}

static void
deal(struct writers *ws, struct board_range r)
{
	/* for the tso format, which keeps the stream's headers */
	static char *headers[] = {
		"#V: " DL_VERSION_STRING, "#G: bigdeal", "#M: bigdeal",
	};
	struct dl_error e;

	if (writers_begin(ws, r.low, r.high, NULL, headers, sizeof headers / sizeof *headers,
	    0, &e) == -1 || deal_boards(run.seed, r, ws, NULL, &e) == -1) {
		writers_abort(ws);
		tool_die(&e);
	}
	if (writers_finish(ws, &e) == -1)
		tool_die(&e);
}

static void
deal_run(const struct bigdealrc *rc)
{
	struct board_range range;
	struct writers *ws;
	char *prefix, *formats;

	get_boards(&range);
	prefix = get_prefix();
	formats = get_formats(rc);
	/* a mistyped format must not cost a given secret its first use */
	ws = open_writers(prefix, formats, range.high);
	if (ws != NULL) {
		make_seed(rc);
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
	return 0;
}
