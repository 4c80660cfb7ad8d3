/* PBN, the "import" subset Big Deal writes (docs/formats.md), with the event
 * description in [Event] when the run has one. */
#include <string.h>

#include "dl/plugin.h"

static void
print_hand(struct dl_out *out, const unsigned char cards[DL_HAND_CARDS])
{
	char text[DL_HAND_CARDS + 4];
	size_t n = 0;
	unsigned suit = 0;

	for (unsigned i = 0; i < DL_HAND_CARDS; i++) {
		for (; suit < dl_suit(cards[i]); suit++)
			text[n++] = '.';
		text[n++] = dl_rank_char(cards[i]);
	}
	for (; suit < 3; suit++)
		text[n++] = '.';
	out->write(out, text, n);
}

/* A PBN string escapes '"' and '\' with a backslash. */
static void
print_string(struct dl_out *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			out->write(out, "\\", 1);
		out->write(out, s, 1);
	}
}

static int
pbn_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	(void)state;
	/* the generator names files, whose names come from a .sqd */
	out->print(out, "%% PBN 2.1\n%% EXPORT\n%%\n[Generator \"");
	print_string(out, run->generator);
	out->print(out, "\"]\n");
	return 0;
}

static int
pbn_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	static const char *const vulnerability[] = { "None", "NS", "EW", "All" };

	(void)state;
	out->print(out, "[Event \"");
	print_string(out, run->event != NULL ? run->event : "?");
	out->print(out, "\"]\n[Site \"?\"]\n[Date \"?\"]\n[Board \"%u\"]\n"
	    "[West \"?\"]\n[North \"?\"]\n[East \"?\"]\n[South \"?\"]\n"
	    "[Dealer \"%c\"]\n[Vulnerable \"%s\"]\n[Deal \"N:",
	    deal->board, "NESW"[dl_dealer(deal->board)],
	    vulnerability[dl_vulnerability(deal->board)]);
	for (unsigned h = 0; h < 4; h++) {
		if (h > 0)
			out->write(out, " ", 1);
		print_hand(out, deal->hand[h]);
	}
	out->print(out, "\"]\n[Scoring \"?\"]\n[Declarer \"?\"]\n[Contract \"?\"]\n"
	    "[Result \"?\"]\n\n");
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "pbn",
	.suffix = "pbn",
	.description = "Portable Bridge Notation",
	.kind = DL_TEXT,
	.max_board = 0,
	.begin = pbn_begin,
	.board = pbn_board,
	.end = NULL,
};
