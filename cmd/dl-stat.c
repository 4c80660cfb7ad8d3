/* dl-stat: a stream of deals in, a battery of statistical tests out: is it
 * what dealing every deal with the same probability gives? */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deals/dealnum.h"
#include "deals/mapping.h"
#include "keys/generator.h"
#include "stream/proto.h"
#include "deals/stats.h"
#include "tool.h"
#include "base/util.h"

#define DEFAULT_ALPHA "0.01"
#define PAIRS (CARDS * (CARDS - 1) / 2)
#define NUMBER_BINS 256
#define FEW_BOARDS 10000
#define STATUS_FAIL 1
#define STATUS_ERROR 2

static const char seats[] = DL_SEAT_LETTERS;

struct tally {
	unsigned long boards;
	unsigned long holder[CARDS][HANDS];
	unsigned long hcp[HANDS][HCP_MAX + 1];
	unsigned long pattern[HANDS][HAND_PATTERNS];
	unsigned long longest[HANDS][HAND_CARDS + 1];
	unsigned long same_hand[PAIRS];
	/* from one board to the next: by how many seats clockwise each card
	 * moved (0: the same hand), per card and in all */
	unsigned long moved[CARDS][HANDS];
	unsigned long moves[HANDS];
	unsigned long number_bin[NUMBER_BINS];
	unsigned char previous[CARDS];
};

struct result {
	char name[16];
	const char *what;
	double statistic;
	unsigned df;		/* 0 for the largest-|z| tests */
	unsigned cells;		/* their number of cells */
	double p, adjusted;
	int applicable;
};

#define MAX_RESULTS 32

struct battery {
	struct result r[MAX_RESULTS];
	size_t n;
};

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-stat [-nq] [-a alpha]\n"
	    "       dl-stat -t\n");
	exit(status);
}

/* The exact distributions the battery tests against, for auditors. */
static void
print_tables(void)
{
	const struct hand_pattern *patterns = hand_patterns();
	double hcp[HCP_MAX + 1];

	hcp_distribution(hcp);
	printf("high-card points of a hand\n");
	for (unsigned p = 0; p <= HCP_MAX; p++)
		printf("%2u %.10e\n", p, hcp[p]);
	printf("hand patterns\n");
	for (unsigned i = 0; i < HAND_PATTERNS; i++)
		printf("%u-%u-%u-%u %.10e\n", patterns[i].length[0], patterns[i].length[1],
		    patterns[i].length[2], patterns[i].length[3], patterns[i].probability);
}

static unsigned
pair_index(unsigned a, unsigned b)
{
	return a * CARDS - a * (a + 1) / 2 + (b - a - 1);
}

static void
tally_hands(struct tally *t, const unsigned char owner[CARDS])
{
	unsigned char hand[HANDS][HAND_CARDS];

	deal_hands(owner, hand);
	for (unsigned h = 0; h < HANDS; h++) {
		unsigned points = 0, length[4] = { 0 }, longest = 0;
		for (unsigned i = 0; i < HAND_CARDS; i++) {
			unsigned c = hand[h][i];
			points += card_points(c);
			length[c / 13]++;
			for (unsigned j = i + 1; j < HAND_CARDS; j++)
				t->same_hand[pair_index(c, hand[h][j])]++;
		}
		for (unsigned s = 0; s < 4; s++)
			if (length[s] > longest)
				longest = length[s];
		t->hcp[h][points]++;
		t->pattern[h][hand_pattern_index(length)]++;
		t->longest[h][longest]++;
	}
}

static void
tally_deal(struct tally *t, const unsigned char owner[CARDS], u128 number)
{
	for (unsigned c = 0; c < CARDS; c++) {
		t->holder[c][owner[c]]++;
		if (t->boards > 0) {
			unsigned moved = (owner[c] - t->previous[c]) & 3;
			t->moved[c][moved]++;
			t->moves[moved]++;
		}
	}
	tally_hands(t, owner);
	/* number * 256 < 2^104: no overflow */
	t->number_bin[(unsigned)(number * NUMBER_BINS / DEAL_COUNT)]++;
	memcpy(t->previous, owner, CARDS);
	t->boards++;
}

static struct result *
add_result(struct battery *b, const char *name, const char *what)
{
	struct result *r = &b->r[b->n++];

	memset(r, 0, sizeof *r);
	strlcpy(r->name, name, sizeof r->name);
	r->what = what;
	r->applicable = 1;
	return r;
}

static void
add_chi_square(struct battery *b, const char *name, const char *what,
    struct chi_square cs)
{
	struct result *r = add_result(b, name, what);

	r->statistic = cs.statistic;
	r->df = cs.df;
	r->p = cs.p;
	r->applicable = cs.df > 0;
}

/* The largest |z| of cells each Binomial(n, p) under the hypothesis;
 * Bonferroni over the cells makes its p-value valid whatever their
 * dependence. */
static void
add_largest_z(struct battery *b, const char *name, const char *what,
    const unsigned long *counts, size_t cells, unsigned long n, double p)
{
	struct result *r = add_result(b, name, what);
	double mean = (double)n * p, sd = sqrt((double)n * p * (1 - p)), largest = 0;

	for (size_t i = 0; i < cells; i++) {
		double z = fabs(((double)counts[i] - mean) / sd);
		if (z > largest)
			largest = z;
	}
	r->statistic = largest;
	r->cells = (unsigned)cells;
	r->p = fmin(1, (double)cells * normal_two_sided(largest));
	r->applicable = mean >= MIN_EXPECTED;
}

/* Each deal's 52 x 4 table of holders has both margins fixed (one holder a
 * card, 13 cards a hand); Pearson's statistic over n deals is then
 * 52/51 times a chi-square with 51 x 3 degrees of freedom. */
static void
test_holders(struct battery *b, const struct tally *t)
{
	struct result *r = add_result(b, "holders", "who holds each card, 52 x 4, chi-square x 51/52");
	double expected = (double)t->boards / HANDS, sum = 0;

	for (unsigned c = 0; c < CARDS; c++)
		for (unsigned h = 0; h < HANDS; h++) {
			double diff = (double)t->holder[c][h] - expected;
			sum += diff * diff / expected;
		}
	r->statistic = sum * (CARDS - 1) / CARDS;
	r->df = (CARDS - 1) * (HANDS - 1);
	r->p = chi_square_upper(r->statistic, r->df);
	r->applicable = expected >= MIN_EXPECTED;
	add_largest_z(b, "holders-max", "who holds each card: the largest deviation",
	    &t->holder[0][0], CARDS * HANDS, t->boards, 1.0 / HANDS);
}

static void
test_hands(struct battery *b, const struct tally *t)
{
	static double hcp[HCP_MAX + 1], longest[HAND_CARDS + 1], pattern[HAND_PATTERNS];
	const struct hand_pattern *patterns = hand_patterns();
	char name[16];

	hcp_distribution(hcp);
	for (unsigned i = 0; i < HAND_PATTERNS; i++) {
		pattern[i] = patterns[i].probability;
		longest[patterns[i].length[0]] += patterns[i].probability;
	}
	for (unsigned h = 0; h < HANDS; h++) {
		snprintf(name, sizeof name, "hcp-%c", seats[h]);
		add_chi_square(b, name, "high-card points of the hand",
		    chi_square_counts(t->hcp[h], hcp, HCP_MAX + 1, 1));
	}
	for (unsigned h = 0; h < HANDS; h++) {
		snprintf(name, sizeof name, "pattern-%c", seats[h]);
		add_chi_square(b, name, "hand pattern (4-4-3-2, 5-3-3-2, ...)",
		    chi_square_counts(t->pattern[h], pattern, HAND_PATTERNS, 0));
	}
	for (unsigned h = 0; h < HANDS; h++) {
		snprintf(name, sizeof name, "longest-%c", seats[h]);
		add_chi_square(b, name, "length of the longest suit",
		    chi_square_counts(t->longest[h], longest, HAND_CARDS + 1, 1));
	}
	add_largest_z(b, "pairs-max", "two cards in the same hand, all 1326 pairs",
	    t->same_hand, PAIRS, t->boards, 12.0 / 51);
}

/* From one board to the next, M_d cards move d seats clockwise (M_0 stay).
 * For independent deals each M_d has mean 13, and the vector has the
 * covariance (676/51)(I - J/4), the same for every pair of consecutive
 * boards and uncorrelated between pairs (docs/statistics.md): the sum over
 * the pairs is a chi-square with 3 degrees of freedom. */
static void
test_next_board(struct battery *b, const struct tally *t)
{
	struct result *r = add_result(b, "next-board",
	    "cards moving 0-3 seats from one board to the next");
	double pairs = t->boards > 0 ? (double)(t->boards - 1) : 0, sum = 0;

	for (unsigned d = 0; d < HANDS; d++) {
		double diff = (double)t->moves[d] - 13 * pairs;
		sum += diff * diff / (pairs * 676 / 51);
	}
	r->statistic = sum;
	r->df = HANDS - 1;
	r->p = chi_square_upper(sum, r->df);
	r->applicable = pairs >= 1;
	add_largest_z(b, "next-board-max", "one card moving d seats: the largest deviation",
	    &t->moved[0][0], CARDS * HANDS, t->boards - (t->boards > 0), 1.0 / HANDS);
}

static void
test_numbers(struct battery *b, const struct tally *t)
{
	static double uniform[NUMBER_BINS];

	for (unsigned i = 0; i < NUMBER_BINS; i++)
		uniform[i] = 1.0 / NUMBER_BINS;
	add_chi_square(b, "numbers", "deal numbers in 256 equal ranges",
	    chi_square_counts(t->number_bin, uniform, NUMBER_BINS, 1));
}

static int
by_p(const void *x, const void *y)
{
	const struct result *a = *(struct result *const *)x, *b = *(struct result *const *)y;

	return (a->p > b->p) - (a->p < b->p);
}

/* Holm's step-down correction: the battery keeps its significance level
 * however many tests it runs. */
static void
adjust_holm(struct battery *b)
{
	struct result *sorted[MAX_RESULTS];
	size_t m = 0;
	double running = 0;

	for (size_t i = 0; i < b->n; i++)
		if (b->r[i].applicable)
			sorted[m++] = &b->r[i];
	qsort(sorted, m, sizeof sorted[0], by_p);
	for (size_t i = 0; i < m; i++) {
		running = fmax(running, fmin(1, (double)(m - i) * sorted[i]->p));
		sorted[i]->adjusted = running;
	}
}

static int
report(const struct battery *b, unsigned long boards, double alpha, int quiet)
{
	char failed[256] = "";
	size_t tests = 0;

	for (size_t i = 0; i < b->n; i++)
		tests += b->r[i].applicable;
	if (!quiet) {
		printf("%lu boards; %zu tests; significance %g for the battery (Holm)\n",
		    boards, tests, alpha);
		printf("%-15s %-50s %10s %6s %10s %9s\n", "test", "what", "statistic",
		    "df", "p-value", "adjusted");
	}
	for (size_t i = 0; i < b->n; i++) {
		const struct result *r = &b->r[i];
		char df[16];
		int fail = r->applicable && r->adjusted < alpha;
		if (r->df > 0)
			snprintf(df, sizeof df, "%u", r->df);
		else
			snprintf(df, sizeof df, "|z|/%u", r->cells);
		if (fail) {
			if (failed[0] != '\0')
				strlcat(failed, ", ", sizeof failed);
			strlcat(failed, r->name, sizeof failed);
		}
		if (quiet)
			continue;
		if (!r->applicable)
			printf("%-15s %-50s %10s %6s %10s %9s  too few boards\n", r->name,
			    r->what, "-", "-", "-", "-");
		else
			printf("%-15s %-50s %10.3f %6s %10.4g %9.4g  %s\n", r->name, r->what,
			    r->statistic, df, r->p, r->adjusted, fail ? "FAIL" : "pass");
	}
	if (failed[0] != '\0') {
		printf("battery: FAIL (%s)\n", failed);
		return STATUS_FAIL;
	}
	printf("battery: pass\n");
	return 0;
}

/* Deals are tallied with their numbers under the stream's mapping, and
 * numbers with their deals under it. */
static int
read_records(struct stream_in *in, const struct mapping *map, struct tally *t,
    struct dl_error *e)
{
	unsigned char owner[CARDS];
	unsigned board;
	u128 number;
	char *line;
	size_t len;
	int got;

	while ((got = stream_next_record(in, &line, &len, e)) == 1) {
		if (stream_kind_of(in) == STREAM_NUMBERS) {
			if (record_number(in, line, &board, &number, e) == -1)
				return -1;
			map->deal(number, owner);
		} else {
			if (record_deal(in, line, len, &board, owner, e) == -1)
				return -1;
			number = map->number(owner);
		}
		tally_deal(t, owner, number);
	}
	if (got == -1)
		return -1;
	return stream_check_complete(in, e);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "alpha", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ "numbers", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "tables", no_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	const char *alpha_text = DEFAULT_ALPHA;
	int numbers = 0, quiet = 0, tables = 0, ch, status;
	struct battery battery = { .n = 0 };
	const struct mapping *map;
	struct stream_in in;
	struct dl_error e;
	struct tally *t;
	double alpha;
	char *end;

	tool_start();
	tool_input_status = STATUS_ERROR;
	opterr = 0;	/* tool_bad_option says what is wrong */
	while ((ch = getopt_long(argc, argv, "a:hnqt", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a': alpha_text = optarg; break;
		case 'h': usage(stdout, 0);
		case 'n': numbers = 1; break;
		case 'q': quiet = 1; break;
		case 't': tables = 1; break;
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (optind != argc)
		usage(stderr, STATUS_ERROR);
	if (tables) {
		print_tables();
		xfclose(stdout, "standard output");
		return 0;
	}
	alpha = strtod(alpha_text, &end);
	if (*end != '\0' || end == alpha_text || !(alpha > 0 && alpha < 1))
		tool_fail(DL_ERR_USAGE, "-a %s: not a significance level between 0 and 1",
		    alpha_text);

	t = xcalloc(1, sizeof *t);
	if ((numbers ? stream_open(&in, stdin, STREAM_NUMBERS, &e) :
	    stream_open_deals(&in, stdin,
	    STREAM_TAKES_ANALYSED | STREAM_TAKES_OWN_DV, &e)) == -1 ||
	    mapping_of_stream(&in, NULL, &map, &e) == -1 ||
	    read_records(&in, map, t, &e) == -1)
		tool_die(&e);
	stream_close(&in);
	if (t->boards < FEW_BOARDS)
		tool_warn("%lu boards are too few for these tests to mean much", t->boards);

	setup_stdout();
	test_holders(&battery, t);
	test_hands(&battery, t);
	test_next_board(&battery, t);
	test_numbers(&battery, t);
	adjust_holm(&battery);
	status = report(&battery, t->boards, alpha, quiet);
	free(t);
	xfclose(stdout, "standard output");
	return status;
}
