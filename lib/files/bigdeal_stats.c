#include <stdint.h>
#include <stdlib.h>

#include "files/bigdeal_stats.h"
#include "base/util.h"

/* Big Deal's counters are ints, and wrap as ints do on every machine it
 * runs on: they are kept here as uint32_t, and read as int32_t. */
struct stats {
	uint32_t sumsquare;
	uint32_t hcp[4];
	uint32_t hcpfreq[38];		/* 0..37 points a hand */
	uint32_t lsuitfreq[4][14];	/* longest suit, by seat */
	int longestsuit;		/* in the whole set */
};

/* The Bridge Encyclopedia's frequencies (output.c): of points a hand,
 * times 10000, and of the longest suit, times 1000000. */
static const int32_t theory_hcpfreq[38] = {
	3639, 7884, 13561, 24624, 38454, 51862, 65541, 80281, 88922, 93562,
	94051, 89447, 80269, 69143, 56933, 44237, 33109, 23617, 16051, 10362,
	6435, 3779, 2100, 1119, 559, 264, 117, 49, 19, 7,
	2, 1, 1, 1, 1, 1, 1, 1,
};
static const int32_t theory_lsuitfreq[14] = {
	0, 0, 0, 0, 350805, 443596, 165477, 35265, 4668, 370, 16, 0, 0, 0,
};
static const int high_card_points[13] = { 4, 3, 2, 1 };

static int32_t
as_int(uint32_t v)
{
	return (int32_t)v;
}

static int32_t
times(int32_t a, int32_t b)
{
	return as_int((uint32_t)a * (uint32_t)b);
}

static int
stats_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	if (run->nboards > BIGDEAL_STATS_MAX_BOARDS) {
		out->fail(out, "Big Deal's statistics stop at %u boards (its report divides "
		    "by zero past them)", BIGDEAL_STATS_MAX_BOARDS);
		return -1;
	}
	*state = xcalloc(1, sizeof(struct stats));
	return 0;
}

static int
stats_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	struct stats *st = state;

	(void)out;
	(void)run;
	for (int seat = 0; seat < 4; seat++) {
		int length[4] = { 0 }, hcp = 0, longest = 0;
		for (int i = 0; i < DL_HAND_CARDS; i++) {
			int card = deal->hand[seat][i];
			length[card / 13]++;
			hcp += high_card_points[card % 13];
		}
		st->hcp[seat] += (uint32_t)hcp;
		st->hcpfreq[hcp]++;
		for (int suit = 0; suit < 4; suit++) {
			if (length[suit] > longest)
				longest = length[suit];
			st->sumsquare += (uint32_t)(length[suit] * length[suit]);
		}
		if (longest > st->longestsuit)
			st->longestsuit = longest;
		st->lsuitfreq[seat][longest]++;
	}
	return 0;
}

/* output.c's print_avg: sum / divisor rounded, with decimals, in ints */
static void
print_avg(struct dl_out *out, int32_t sum, int32_t divisor, int decimals, const char *term)
{
	int32_t power = 1, result;

	for (int i = 0; i < decimals; i++)
		power *= 10;
	sum = times(sum, power);
	sum = as_int((uint32_t)sum + (uint32_t)(divisor / 2));
	result = sum / divisor;
	out->print(out, "%d", result / power);
	if (decimals) {
		out->print(out, ".");
		for (int i = 0; i < decimals; i++) {
			result -= result / power * power;
			power /= 10;
			out->print(out, "%d", result / power);
		}
	}
	out->print(out, "%s", term);
}

static int
stats_end(struct dl_out *out, const struct dl_run *run, void *state)
{
	struct stats *st = state;
	int32_t n = (int32_t)run->nboards;

	out->print(out, "Number of deals: %d\n", n);
	out->print(out, "Average sum of squares: ");
	print_avg(out, as_int(st->sumsquare), n, 0, "\n");
	out->print(out, "Average points NESW: ");
	for (int seat = 0; seat < 4; seat++)
		print_avg(out, as_int(st->hcp[seat]), n, 2, seat < 3 ? " " : "\n");
	out->print(out, "Frequency of high card points per hand:\n");
	for (int i = 0; i < 38; i++) {
		if (as_int(st->hcpfreq[i]) == 0)
			continue;
		out->print(out, "%2d points: ", i);
		print_avg(out, times(as_int(st->hcpfreq[i]), 100), times(n, 4), 4, "% (");
		print_avg(out, theory_hcpfreq[i], 10000, 4, "%)\n");
	}
	out->print(out, "Frequency of longest suitlength per compass:\n");
	out->print(out, "%8s%8s%8s%8s%8s Theory\n", "Length", "North", "East", "South", "West");
	for (int length = 4; length <= st->longestsuit; length++) {
		out->print(out, "%8d%8d%8d%8d%8d ", length, as_int(st->lsuitfreq[0][length]),
		    as_int(st->lsuitfreq[1][length]), as_int(st->lsuitfreq[2][length]),
		    as_int(st->lsuitfreq[3][length]));
		print_avg(out, 100 * theory_lsuitfreq[length], 100000000 / n, 1, "\n");
	}
	free(st);
	return 0;
}

const struct dl_plugin bigdeal_stats_writer = {
	DL_PLUGIN_HEAD,
	.name = "stats",
	.suffix = "txt",
	.description = "Big Deal's statistics on a set (dl-bigdealx only)",
	.kind = DL_TEXT,
	.needs = DL_CONCURRENT,
	.begin = stats_begin,
	.board = stats_board,
	.end = stats_end,
};
