/* dl-diff: do two deal files, of any formats with a reader, hold the same
 * boards with the same deals?  A report board by board when not. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "files/readers.h"
#include "tool.h"
#include "base/util.h"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-diff [-q] [-f format] file1 file2\n");
	exit(status);
}

struct board {
	unsigned number;
	unsigned char owner[CARDS];
};

/* One file's boards, and a hash set of their numbers to find a board
 * that comes again as it is read. */
struct file {
	const char *path;
	const char *label;	/* path, or "standard input" */
	char *name;		/* label escaped, for the report */
	struct board *boards;
	size_t n, cap;
	unsigned *seen;		/* open addressing, 0 empty; a power of two */
	size_t nseen;
};

static int quiet;
static const char *format;	/* -f: both files' */

static void
print_warning(const char *msg, void *arg)
{
	(void)arg;
	if (!quiet)
		fprintf(stderr, "%s: %s\n", getprogname(), msg);
}

static size_t
slot(const unsigned *seen, size_t size, unsigned number)
{
	size_t i = (number * 2654435761u) & (size - 1);

	while (seen[i] != 0 && seen[i] != number)
		i = (i + 1) & (size - 1);
	return i;
}

/* 0 when number is new to the file (and now seen), 1 when it came before. */
static int
seen_before(struct file *f, unsigned number)
{
	if (f->nseen == 0 || 2 * (f->n + 1) > f->nseen) {
		size_t size = f->nseen ? 2 * f->nseen : 1024;
		unsigned *seen = xcalloc(size, sizeof *seen);
		for (size_t i = 0; i < f->nseen; i++)
			if (f->seen[i] != 0)
				seen[slot(seen, size, f->seen[i])] = f->seen[i];
		free(f->seen);
		f->seen = seen;
		f->nseen = size;
	}
	size_t i = slot(f->seen, f->nseen, number);
	if (f->seen[i] == number)
		return 1;
	f->seen[i] = number;
	return 0;
}

static int
by_number(const void *a, const void *b)
{
	const struct board *x = a, *y = b;

	return (x->number > y->number) - (x->number < y->number);
}

/* Every board of the file, in the order of their numbers; input errors
 * end the tool (status 2: the files could not be compared). */
static void
read_file(struct file *f)
{
	/* a file that reads two ways holds no one deal to compare */
	struct reader_options opt = {
		.format = format, .flags = DL_IN_STRICT, .warn = print_warning,
	};
	struct deal_reader *r;
	struct dl_board_in b;
	struct dl_error e;
	int got;

	f->label = strcmp(f->path, "-") == 0 ? "standard input" : f->path;
	f->name = text_escaped(f->label);
	if (reader_open(&r, f->path, &opt, &e) == -1)
		tool_die(&e);
	while ((got = reader_next(r, &b, &e)) == 1) {
		if (seen_before(f, b.board)) {
			reader_board_error(r, &e, "board %u again: dl-diff compares files that "
			    "hold each board once", b.board);
			tool_die(&e);
		}
		if (f->n == f->cap) {
			/* deals perhaps not yet played: no old block is freed
			 * unwiped */
			size_t cap = f->cap ? 2 * f->cap : 64;
			f->boards = grow_wiped(f->boards, f->n, f->cap, cap, sizeof *f->boards);
			f->cap = cap;
		}
		f->boards[f->n].number = b.board;
		memcpy(f->boards[f->n++].owner, b.owner, CARDS);
	}
	if (got == -1)
		tool_die(&e);
	if (f->n == 0)
		tool_fail(DL_ERR_INPUT, "no boards in %s", reader_name(r));
	reader_close(r);
	free(f->seen);
	f->seen = NULL;
	qsort(f->boards, f->n, sizeof *f->boards, by_number);
}

/* The turns clockwise that make deal a into deal b (1 to 3), or 0. */
static unsigned
turned(const unsigned char a[CARDS], const unsigned char b[CARDS])
{
	unsigned turns = (b[0] + HANDS - a[0]) % HANDS;

	for (unsigned c = 1; c < CARDS && turns != 0; c++)
		if ((a[c] + turns) % HANDS != b[c])
			return 0;
	return turns;
}

static void
report_deals(const struct board *a, const struct board *b)
{
	static const char seats[] = DL_SEAT_LETTERS;
	char pbn[PBN_DEAL_MAX];
	int differs[HANDS] = { 0 };
	unsigned turns;

	for (unsigned c = 0; c < CARDS; c++)
		if (a->owner[c] != b->owner[c])
			differs[a->owner[c]] = differs[b->owner[c]] = 1;
	printf("board %u: hands differ:", a->number);
	for (unsigned h = 0; h < HANDS; h++)
		if (differs[h])
			printf(" %c", seats[h]);
	if ((turns = turned(a->owner, b->owner)) != 0)
		printf(" (turned %u seat%s clockwise)", turns, turns > 1 ? "s" : "");
	putchar('\n');
	deal_to_pbn(a->owner, pbn);
	printf("< %s\n", pbn);
	deal_to_pbn(b->owner, pbn);
	printf("> %s\n", pbn);
}

/* Boards first to last, in f only: one line for the run. */
static void
report_only(const struct file *f, unsigned first, unsigned last)
{
	if (first == last)
		printf("board %u: only in %s\n", first, f->name);
	else
		printf("boards %u-%u: only in %s\n", first, last, f->name);
}

/* Reports the runs of boards of a (from *i on) that b does not hold,
 * up to board limit (excluded, 0: no limit). */
static unsigned long
only_in(const struct file *a, size_t *i, unsigned limit)
{
	unsigned long boards = 0;

	while (*i < a->n && (limit == 0 || a->boards[*i].number < limit)) {
		size_t j = *i;
		while (j + 1 < a->n && a->boards[j + 1].number == a->boards[j].number + 1 &&
		    (limit == 0 || a->boards[j + 1].number < limit))
			j++;
		if (!quiet)
			report_only(a, a->boards[*i].number, a->boards[j].number);
		boards += j - *i + 1;
		*i = j + 1;
	}
	return boards;
}

/* How the files differ, in boards. */
struct tally {
	unsigned long only1, only2, other;
};

static void
compare(const struct file *f1, const struct file *f2, struct tally *t)
{
	size_t i = 0, j = 0;

	memset(t, 0, sizeof *t);
	while (i < f1->n || j < f2->n) {
		if (j == f2->n) {
			t->only1 += only_in(f1, &i, 0);
			continue;
		}
		if (i == f1->n) {
			t->only2 += only_in(f2, &j, 0);
			continue;
		}
		const struct board *a = &f1->boards[i], *b = &f2->boards[j];
		if (a->number < b->number)
			t->only1 += only_in(f1, &i, b->number);
		else if (b->number < a->number)
			t->only2 += only_in(f2, &j, a->number);
		else {
			if (memcmp(a->owner, b->owner, CARDS) != 0) {
				t->other++;
				if (!quiet)
					report_deals(a, b);
			}
			i++;
			j++;
		}
	}
}

/* "N board(s) only in NAME" and the like, after a comma when not first. */
static void
count(char *out, size_t size, unsigned long n, const char *what, const char *name)
{
	size_t len = strlen(out);

	if (n == 0)
		return;
	snprintf(out + len, size - len, "%s%lu board%s %s%s", len > 0 ? ", " : "", n,
	    n == 1 ? "" : "s", what, name);
}

/* One line on standard error after the report: how many boards differ. */
static void
summary(const struct file *f1, const struct file *f2, const struct tally *t)
{
	char what[3 * DL_ERROR_MAX] = "";

	count(what, sizeof what, t->only1, "only in ", f1->label);
	count(what, sizeof what, t->only2, "only in ", f2->label);
	count(what, sizeof what, t->other, "with other deals", "");
	tool_warn("the files differ: %s", what);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct file f1 = { 0 }, f2 = { 0 };
	struct tally t;
	int ch;

	tool_start();
	/* 1 says the files differ: one that cannot be read is trouble */
	tool_input_status = EXIT_TROUBLE;
	opterr = 0;	/* tool_bad_option says what is wrong */
	while ((ch = getopt_long(argc, argv, "f:hq", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f': format = optarg; break;
		case 'h': usage(stdout, 0);
		case 'q': quiet = 1; break;
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (argc - optind != 2)
		usage(stderr, 2);
	f1.path = argv[optind];
	f2.path = argv[optind + 1];
	if (strcmp(f1.path, "-") == 0 && strcmp(f2.path, "-") == 0)
		tool_fail(DL_ERR_USAGE, "standard input can be one of the files, not both");
	setup_stdout();
	read_file(&f1);
	read_file(&f2);
	compare(&f1, &f2, &t);
	xfflush(stdout, "standard output");
	if (!quiet && t.only1 + t.only2 + t.other > 0)
		summary(&f1, &f2, &t);
	if (f1.boards != NULL)
		sodium_memzero(f1.boards, f1.cap * sizeof *f1.boards);
	if (f2.boards != NULL)
		sodium_memzero(f2.boards, f2.cap * sizeof *f2.boards);
	free(f1.boards);
	free(f2.boards);
	free(f1.name);
	free(f2.name);
	xfclose(stdout, "standard output");
	return t.only1 + t.only2 + t.other == 0 ? 0 : EXIT_REFUSED;
}
