/* What dl-stat tests against: the exact distributions of bridge hands,
 * computed here rather than typed from a book, and the tail probabilities
 * of the chi-square and normal distributions.
 *
 * Threads: every function may be called from several threads at once: the
 * hand patterns are made once (pthread_once), the HCP table on the caller's
 * stack.  chi_square_upper's lgamma also stores a sign in the global
 * signgam: a race on a value nothing reads. */
#ifndef DL_STATS_H
#define DL_STATS_H

#include <stddef.h>

#define HCP_MAX 37		/* AKQJ AKQJ AKQJ A */
#define HAND_PATTERNS 39	/* 4-3-3-3 ... 13-0-0-0 */
/* Pearson's test wants every expected count at least this; rarer
 * categories are pooled. */
#define MIN_EXPECTED 5.0

/* P(X >= x) for X chi-square with df degrees of freedom. */
double chi_square_upper(double x, double df);
/* P(|Z| >= |z|) for Z standard normal. */
double normal_two_sided(double z);

/* prob[p]: the probability that a hand holds p high-card points. */
void hcp_distribution(double prob[HCP_MAX + 1]);

/* A hand pattern: suit lengths, longest first, and its probability. */
struct hand_pattern {
	unsigned char length[4];
	double probability;
};
/* The 39 patterns, most probable first. */
const struct hand_pattern *hand_patterns(void);
/* The index in hand_patterns() of a hand with these suit lengths. */
unsigned hand_pattern_index(const unsigned length[4]);

struct chi_square {
	double statistic;
	unsigned df;		/* 0: too few observations for a test */
	double p;
};

/* Pearson's test of k counts against probabilities prob[] (summing to 1).
 * Categories expected fewer than MIN_EXPECTED times are pooled: ordered
 * categories with their neighbours, unordered ones together. */
struct chi_square chi_square_counts(const unsigned long observed[],
    const double prob[], size_t k, int ordered);

#endif
