/*
 * handlist: an example dl plugin that writes and reads its format, built
 * out of the dl tree:
 *
 *	cc -shared -fPIC $(pkg-config --cflags dl-plugin) handlist.c -o handlist.so
 *	DL_PLUGIN_PATH=$PWD dl-fmt -f handlist -p session < session.tso
 *	DL_PLUGIN_PATH=$PWD dl-read session.hands
 *
 * The format: an optional first line "= EVENT", then one line per board,
 * "BOARD N:SPADES.HEARTS.DIAMONDS.CLUBS ..." (North's hand first, then
 * East, South and West), ranks AKQJT98765432.  Lines beginning with '#'
 * are comments.
 */
#include <string.h>

#include <dl/plugin.h>

static int
handlist_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	(void)state;
	if (run->event != NULL)
		out->print(out, "= %s\n", run->event);
	return 0;
}

static int
handlist_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	(void)run;
	(void)state;
	out->print(out, "%u N:", deal->board);
	for (unsigned seat = 0; seat < 4; seat++) {
		unsigned suit = 0;
		for (unsigned i = 0; i < DL_HAND_CARDS; i++) {
			unsigned card = deal->hand[seat][i];
			while (suit < dl_suit(card)) {
				out->write(out, ".", 1);
				suit++;
			}
			out->write(out, &"AKQJT98765432"[card % 13], 1);
		}
		for (; suit < 3; suit++)
			out->write(out, ".", 1);
		out->write(out, seat < 3 ? " " : "\n", 1);
	}
	return 0;
}

/* Reading.  The state is the event of the first line, kept for every
 * board. */
struct reading {
	char event[512];
};

/* "1 N:" at the start of the first line that is not a comment or the
 * event. */
static int
handlist_sniff(const unsigned char *head, size_t len)
{
	size_t i = 0;

	while (i < len && (head[i] == '#' || head[i] == '=')) {
		const unsigned char *lf = memchr(head + i, '\n', len - i);
		if (lf == NULL)
			return 0;
		i = (size_t)(lf - head) + 1;
	}
	size_t digits = i;
	while (i < len && head[i] >= '0' && head[i] <= '9')
		i++;
	return i > digits && i + 2 < len && memcmp(head + i, " N:", 3) == 0 ? 60 : 0;
}

static int
handlist_read_begin(struct dl_in *in, void **state)
{
	static struct reading reading;	/* one file at a time */

	(void)in;
	reading.event[0] = '\0';
	*state = &reading;
	return 0;
}

static int
parse_hands(struct dl_in *in, const char *p, struct dl_board_in *board)
{
	unsigned seat = 0, suit = 0;
	unsigned char seen[DL_CARDS] = { 0 };

	for (; *p != '\0'; p++) {
		const char *rank = strchr("AKQJT98765432", *p);
		if (*p == '.' && suit < 3) {
			suit++;
		} else if (*p == ' ' && seat < 3) {
			seat++;
			suit = 0;
		} else if (rank != NULL && *p != '\0') {
			unsigned card = suit * 13 + (unsigned)(rank - "AKQJT98765432");
			if (seen[card]++) {
				in->fail(in, "board %u: a card twice", board->board);
				return -1;
			}
			board->owner[card] = (unsigned char)seat;
		} else {
			in->fail(in, "board %u: not a deal", board->board);
			return -1;
		}
	}
	for (unsigned card = 0; card < DL_CARDS; card++)
		if (!seen[card]) {
			in->fail(in, "board %u: not every card dealt", board->board);
			return -1;
		}
	return 0;
}

static int
handlist_read_board(struct dl_in *in, struct dl_board_in *board, void *state)
{
	struct reading *reading = state;
	const char *line;
	size_t len;

	while ((line = in->line(in, &len)) != NULL) {
		if (line[0] == '#' || len == 0)
			continue;
		if (line[0] == '=' && line[1] == ' ') {
			strncpy(reading->event, line + 2, sizeof reading->event - 1);
			if (len - 2 >= sizeof reading->event)
				in->warn(in, "event cut to %zu bytes", sizeof reading->event - 1);
			continue;
		}
		unsigned number = 0;
		while (*line >= '0' && *line <= '9' && number < 100000000)
			number = number * 10 + (unsigned)(*line++ - '0');
		if (number == 0 || strncmp(line, " N:", 3) != 0) {
			in->fail(in, "not a board line");
			return -1;
		}
		board->board = number;
		board->event = reading->event[0] != '\0' ? reading->event : NULL;
		return parse_hands(in, line + 3, board) == -1 ? -1 : 1;
	}
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "handlist",
	.suffix = "hands",
	.description = "one line a board: BOARD N:hands (an example)",
	.kind = DL_TEXT,
	.begin = handlist_begin,
	.board = handlist_board,
	.sniff = handlist_sniff,
	.read_begin = handlist_read_begin,
	.read_board = handlist_read_board,
};
