#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "deals/dealnum.h"
#include "deals/stats.h"

#define MAX_ITERATIONS 100000
#define EPSILON 1e-15

/* P(a, x), the regularised lower incomplete gamma function, by its power
 * series: converges quickly for x < a + 1. */
static double
gamma_lower_series(double a, double x)
{
	double term = 1.0 / a, sum = term;

	for (int n = 1; n < MAX_ITERATIONS; n++) {
		term *= x / (a + n);
		sum += term;
		if (fabs(term) < fabs(sum) * EPSILON)
			break;
	}
	return sum * exp(-x + a * log(x) - lgamma(a));
}

/* Q(a, x) = 1 - P(a, x) by its continued fraction, evaluated with Lentz's
 * method: converges quickly for x >= a + 1, where the series would lose
 * the small tail to rounding. */
static double
gamma_upper_fraction(double a, double x)
{
	double b = x + 1 - a, c = 1 / DBL_MIN, d = 1 / b, h = d;

	for (int i = 1; i < MAX_ITERATIONS; i++) {
		double an = -i * (i - a), delta;
		b += 2;
		d = an * d + b;
		if (fabs(d) < DBL_MIN)
			d = DBL_MIN;
		c = b + an / c;
		if (fabs(c) < DBL_MIN)
			c = DBL_MIN;
		d = 1 / d;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1) < EPSILON)
			break;
	}
	return exp(-x + a * log(x) - lgamma(a)) * h;
}

double
chi_square_upper(double x, double df)
{
	double a = df / 2, half = x / 2;

	if (x <= 0)
		return 1;
	if (half < a + 1)
		return 1 - gamma_lower_series(a, half);
	return gamma_upper_fraction(a, half);
}

double
normal_two_sided(double z)
{
	return erfc(fabs(z) / sqrt(2));
}

void
hcp_distribution(double prob[HCP_MAX + 1])
{
	/* ways[k][p]: ways to pick k of the cards seen so far with p points
	 * (the caller's stack: several threads may ask) */
	uint64_t ways[HAND_CARDS + 1][HCP_MAX + 1];

	memset(ways, 0, sizeof ways);
	ways[0][0] = 1;
	for (unsigned c = 0; c < CARDS; c++) {
		unsigned points = card_points(c);
		for (unsigned k = HAND_CARDS; k > 0; k--)
			for (unsigned p = points; p <= HCP_MAX; p++)
				ways[k][p] += ways[k - 1][p - points];
	}
	for (unsigned p = 0; p <= HCP_MAX; p++)
		prob[p] = (double)ways[HAND_CARDS][p] / (double)binomial(CARDS, HAND_CARDS);
}

/* Made once, by whichever thread asks first. */
static struct hand_pattern patterns[HAND_PATTERNS];
static unsigned char pattern_of[14][14][14];	/* by the three longest */
static pthread_once_t patterns_once = PTHREAD_ONCE_INIT;

static int
by_probability(const void *a, const void *b)
{
	const struct hand_pattern *x = a, *y = b;

	return (x->probability < y->probability) - (x->probability > y->probability);
}

/* Ways to hold suit lengths a >= b >= c >= d in some order: the distinct
 * assignments of the lengths to the four suits times the choice of cards. */
static double
pattern_ways(const unsigned len[4])
{
	double ways = 24;	/* 4!, divided by the repeats of each length */
	unsigned run = 1;

	for (unsigned i = 1; i <= 4; i++) {
		if (i < 4 && len[i] == len[i - 1]) {
			ways /= ++run;
			continue;
		}
		run = 1;
	}
	for (unsigned i = 0; i < 4; i++)
		ways *= (double)binomial(13, len[i]);
	return ways;
}

static void
fill_patterns(void)
{
	size_t n = 0;

	for (int a = 13; a >= 0; a--)
		for (int b = a; b >= 0; b--)
			for (int c = b; c >= 0; c--) {
				int d = 13 - a - b - c;
				if (d < 0 || d > c)
					continue;
				unsigned len[4] = { (unsigned)a, (unsigned)b, (unsigned)c, (unsigned)d };
				for (unsigned i = 0; i < 4; i++)
					patterns[n].length[i] = (unsigned char)len[i];
				patterns[n++].probability = pattern_ways(len) /
				    (double)binomial(CARDS, HAND_CARDS);
			}
	qsort(patterns, n, sizeof patterns[0], by_probability);
	for (unsigned i = 0; i < n; i++)
		pattern_of[patterns[i].length[0]][patterns[i].length[1]][patterns[i].length[2]] =
		    (unsigned char)i;
}

const struct hand_pattern *
hand_patterns(void)
{
	pthread_once(&patterns_once, fill_patterns);
	return patterns;
}

unsigned
hand_pattern_index(const unsigned length[4])
{
	unsigned s[4];

	memcpy(s, length, sizeof s);
	/* four values: a sorting network, longest first */
	for (unsigned i = 0; i < 3; i++)
		for (unsigned j = 0; j < 3 - i; j++)
			if (s[j] < s[j + 1]) {
				unsigned t = s[j];
				s[j] = s[j + 1];
				s[j + 1] = t;
			}
	hand_patterns();
	return pattern_of[s[0]][s[1]][s[2]];
}

struct bin {
	double observed, expected;
};

/* Ordered categories: each bin takes categories until it expects enough;
 * what is left at the end joins the last bin. */
static size_t
pool_ordered(const unsigned long observed[], const double expected[], size_t k,
    struct bin bins[])
{
	size_t n = 0;
	struct bin open = { 0, 0 };

	for (size_t i = 0; i < k; i++) {
		open.observed += (double)observed[i];
		open.expected += expected[i];
		if (open.expected >= MIN_EXPECTED) {
			bins[n++] = open;
			open.observed = open.expected = 0;
		}
	}
	if (n == 0)
		bins[n++] = open;
	else {
		bins[n - 1].observed += open.observed;
		bins[n - 1].expected += open.expected;
	}
	return n;
}

/* Unordered categories: the rare ones are pooled into one bin, which joins
 * the least expected of the others if it is still too rare. */
static size_t
pool_unordered(const unsigned long observed[], const double expected[], size_t k,
    struct bin bins[])
{
	size_t n = 0, smallest = 0;
	struct bin rare = { 0, 0 };

	for (size_t i = 0; i < k; i++) {
		if (expected[i] < MIN_EXPECTED) {
			rare.observed += (double)observed[i];
			rare.expected += expected[i];
			continue;
		}
		bins[n].observed = (double)observed[i];
		bins[n].expected = expected[i];
		if (bins[n].expected < bins[smallest].expected)
			smallest = n;
		n++;
	}
	if (rare.expected >= MIN_EXPECTED || n == 0)
		bins[n++] = rare;
	else if (rare.expected > 0) {
		bins[smallest].observed += rare.observed;
		bins[smallest].expected += rare.expected;
	}
	return n;
}

struct chi_square
chi_square_counts(const unsigned long observed[], const double prob[], size_t k,
    int ordered)
{
	double *expected = calloc(k, sizeof *expected), total = 0;
	struct bin *bins = calloc(k + 1, sizeof *bins);
	struct chi_square result = { 0, 0, 1 };
	size_t n;

	if (expected == NULL || bins == NULL)
		abort();
	for (size_t i = 0; i < k; i++)
		total += (double)observed[i];
	for (size_t i = 0; i < k; i++)
		expected[i] = total * prob[i];
	n = ordered ? pool_ordered(observed, expected, k, bins) :
	    pool_unordered(observed, expected, k, bins);
	for (size_t i = 0; i < n; i++) {
		double diff = bins[i].observed - bins[i].expected;
		if (bins[i].expected > 0)
			result.statistic += diff * diff / bins[i].expected;
	}
	if (n > 1 && bins[0].expected >= MIN_EXPECTED) {
		result.df = (unsigned)(n - 1);
		result.p = chi_square_upper(result.statistic, result.df);
	}
	free(expected);
	free(bins);
	return result;
}
