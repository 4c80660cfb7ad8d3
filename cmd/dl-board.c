/* dl-board: a deals stream in, the same stream out with some of its boards
 * (-b), renumbered (--renumber), turned round the table (--rotate,
 * --keep-dealer). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dl/plugin.h"
#include "stream/proto.h"
#include "tool.h"
#include "base/util.h"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp,
	    "usage: dl-board [-b boards] [--renumber first]\n"
	    "                [--rotate turns | --keep-dealer]\n");
	exit(status);
}

/* How each deal turns: by a fixed number of seats, or so that its dealer's
 * hand stays with the dealer of the board's new number. */
enum turn { TURN_NONE, TURN_FIXED, TURN_KEEP_DEALER };

static struct {
	struct board_list list;
	int listed;
	unsigned renumber;	/* 0: the boards keep their numbers */
	enum turn turn;
	unsigned turns;		/* TURN_FIXED: seats clockwise */
} opt;

/* The first board of the list that does not follow on from the one
 * before it, or 0 when the list is one run of boards. */
static unsigned
list_gap(const struct board_list *list, unsigned *before)
{
	for (size_t i = 1; i < list->n; i++)
		if (list->ranges[i].low != list->ranges[i - 1].high + 1) {
			*before = list->ranges[i - 1].high;
			return list->ranges[i].low;
		}
	return 0;
}

static int
listed(const struct board_list *list, size_t *cursor, unsigned board)
{
	while (*cursor < list->n && list->ranges[*cursor].high < board)
		(*cursor)++;
	return *cursor < list->n && list->ranges[*cursor].low <= board;
}

/* An input error for a board of -b that the input does not hold. */
static int
missing(unsigned board, unsigned low, unsigned high, struct dl_error *e)
{
	return dl_error_set(e, DL_ERR_INPUT, "board %u of -b is not in the input "
	    "(it holds boards %u-%u)", board, low, high);
}

/* Whether the listed boards lie in low-high: 0, or -1 naming the first
 * that does not. */
static int
list_within(const struct board_list *list, unsigned low, unsigned high, struct dl_error *e)
{
	if (list->ranges[0].low < low)
		return missing(list->ranges[0].low, low, high, e);
	for (size_t i = 0; i < list->n; i++)
		if (list->ranges[i].high > high)
			return missing(list->ranges[i].low > high ? list->ranges[i].low : high + 1,
			    low, high, e);
	return 0;
}

static void
rotate(unsigned char owner[CARDS], unsigned turns)
{
	for (unsigned c = 0; c < CARDS; c++)
		owner[c] = (unsigned char)((owner[c] + turns) % HANDS);
}

/* The seats a deal dealt by dealer turns, going out as board out. */
static unsigned
turns_of(int dealer, unsigned out)
{
	switch (opt.turn) {
	case TURN_NONE: return 0;
	case TURN_FIXED: return opt.turns;
	case TURN_KEEP_DEALER: return (dl_dealer(out) + HANDS - (unsigned)dealer) % HANDS;
	}
	return 0;
}

/* A board's own dealer and vulnerability turn with its deal: the dealer's
 * hand is dealer still, and a side's vulnerability goes with its hands
 * (North-South's to East-West after an odd number of seats). */
static void
turn_dv(int *dealer, int *vulnerability, unsigned turns)
{
	*dealer = (int)(((unsigned)*dealer + turns) % HANDS);
	if (turns % 2 == 1 && (*vulnerability == DL_VUL_NS || *vulnerability == DL_VUL_EW))
		*vulnerability = *vulnerability == DL_VUL_NS ? DL_VUL_EW : DL_VUL_NS;
}

/* The boards going out, when they are known before the first record:
 * 1 and *low, *high, else 0. */
static int
out_range(const struct stream_in *in, unsigned *low, unsigned *high, struct dl_error *e)
{
	struct board_range announced;
	int has_range = stream_range(in, &announced);
	unsigned long long count;

	if (opt.listed) {
		if (has_range && list_within(&opt.list, announced.low, announced.high, e) == -1)
			return -1;
		*low = opt.list.ranges[0].low;
		*high = opt.list.ranges[opt.list.n - 1].high;
		count = opt.list.count;
	} else if (has_range) {
		*low = announced.low;
		*high = announced.high;
		count = *high - *low + 1ull;
	} else
		return 0;
	if (opt.renumber != 0) {
		if (opt.renumber + count - 1 > BOARD_MAX)
			return dl_error_set(e, DL_ERR_USAGE, "--renumber %u: %llu boards would "
			    "end past board %u", opt.renumber, count, BOARD_MAX);
		*low = opt.renumber;
		*high = (unsigned)(opt.renumber + count - 1);
	}
	return 1;
}

/* The input's headers in their order, #B: for the boards going out. */
static int
write_headers(const struct stream_in *in, struct stream_out *out, struct dl_error *e)
{
	struct board_range going_out = { 0, 0 };
	int known;

	if ((known = out_range(in, &going_out.low, &going_out.high, e)) == -1)
		return -1;
	if (stream_out_begin_like(out, stdout, in, STREAM_DEALS))
		stream_out_copy_headers_with_range(out, in, "", known ? &going_out : NULL);
	return 0;
}

static int
filter(struct stream_in *in, struct dl_error *e)
{
	struct stream_out out;
	unsigned char owner[CARDS];
	unsigned long long written = 0;
	unsigned board = 0;
	size_t cursor = 0;
	char *line;
	size_t len;
	int got;

	if (write_headers(in, &out, e) == -1)
		return -1;
	while ((got = stream_next_record(in, &line, &len, e)) == 1) {
		if (record_deal(in, line, len, &board, owner, e) == -1)
			return -1;
		if (opt.listed && !listed(&opt.list, &cursor, board))
			continue;
		unsigned number = board;
		if (opt.renumber != 0) {
			if (opt.renumber + written > BOARD_MAX)
				return dl_error_set(e, DL_ERR_USAGE, "--renumber %u: board %u "
				    "would go out past board %u", opt.renumber, board, BOARD_MAX);
			number = (unsigned)(opt.renumber + written);
		}
		/* a board's own dealer and vulnerability (a deals+dv stream) go
		 * out with it, whatever its new number; else its number's */
		int dealer, vulnerability;
		stream_board_dv(in, &dealer, &vulnerability);
		unsigned turns = turns_of(dealer, number);
		rotate(owner, turns);
		turn_dv(&dealer, &vulnerability, turns);
		stream_out_deal_dv(&out, number, owner, dealer, vulnerability);
		written++;
	}
	if (got == -1 || stream_check_complete(in, e) == -1)
		return -1;
	if (opt.listed && written != opt.list.count) {
		struct board_range boards_read;
		stream_boards_read(in, &boards_read);	/* one at least: the check passed */
		return list_within(&opt.list, boards_read.low, boards_read.high, e);
	}
	return 0;
}

static void
set_turn(enum turn turn)
{
	if (opt.turn != TURN_NONE && opt.turn != turn)
		tool_fail(DL_ERR_USAGE, "--rotate and --keep-dealer: one or the other");
	opt.turn = turn;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "boards", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ "keep-dealer", no_argument, NULL, 'k' },
		{ "renumber", required_argument, NULL, 'n' },
		{ "rotate", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	const char *boards = NULL;
	struct stream_in in;
	struct dl_error e;
	long long value;
	unsigned before, gap;
	int ch;

	tool_start();
	opterr = 0;	/* tool_bad_option says what is wrong */
	while ((ch = getopt_long(argc, argv, "b:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'b':
			boards = optarg;
			break;
		case 'h':
			usage(stdout, 0);
		case 'k':
			set_turn(TURN_KEEP_DEALER);
			break;
		case 'n':
			if (board_number_parse(optarg, strlen(optarg), &opt.renumber) == -1)
				tool_fail(DL_ERR_USAGE, "--renumber %s: not a board number (1 to %u)",
				    optarg, BOARD_MAX);
			break;
		case 'r':
			if (decimal_parse(optarg, strlen(optarg), 0, 3, &value) == -1)
				tool_fail(DL_ERR_USAGE, "--rotate %s: not a number of seats "
				    "(0 to 3)", optarg);
			set_turn(TURN_FIXED);
			opt.turns = (unsigned)value;
			break;
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	if (boards != NULL) {
		if (board_list_parse(boards, &opt.list, &e) == -1) {
			dl_error_prefix(&e, "-b %s", boards);
			tool_die(&e);
		}
		opt.listed = 1;
		if (opt.renumber == 0 && (gap = list_gap(&opt.list, &before)) != 0)
			tool_fail(DL_ERR_USAGE, "-b %s: board %u after board %u leaves a gap, "
			    "which a deals stream cannot hold: give --renumber", boards, gap,
			    before);
	}
	setup_stdout();
	if (stream_open_deals(&in, stdin, STREAM_TAKES_OWN_DV, &e) == -1 || filter(&in, &e) == -1)
		tool_die(&e);
	stream_close(&in);
	board_list_free(&opt.list);
	xfclose(stdout, "standard output");
	return 0;
}
