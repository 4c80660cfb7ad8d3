/* PBN, the "import" subset Big Deal writes (docs/formats.md), with the event
 * description in [Event] when the run has one; and PBN as other programs
 * write it, read (docs/formats-in.md). */
#include <string.h>
#include <strings.h>

#include "analysed.h"
#include "suits.h"
#include "textbuf.h"
#include "reading.h"

static void
add_hand(struct textbuf *tb, const unsigned char cards[DL_HAND_CARDS])
{
	textbuf_wrote(tb, hand_text(textbuf_room(tb, HAND_TEXT_MAX(1)), cards, "....", 1, 1));
}

/* A PBN string escapes '"' and '\' with a backslash. */
static void
add_string(struct textbuf *tb, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			textbuf_char(tb, '\\');
		textbuf_char(tb, *s);
	}
}

/* PBN 2.1's character set is ISO 8859-1 (3.1), and a line holds at most
 * 255 characters (3.3): a text of the stream (UTF-8) goes in as Latin-1,
 * a character Latin-1 lacks (and an invalid byte) as '?', cut where its
 * tag's line would pass 255 characters; room is what the line leaves the
 * value.  The drop-ins' files, Big Deal's byte for byte, have no such text
 * ([Event "?"]); SquareDeal's [Generator] goes as it is (add_string). */
#define PBN_LINE_MAX 255
#define TAG_ROOM(name) (PBN_LINE_MAX - (sizeof "[" name " \"\"]" - 1))

static void
add_text(struct textbuf *tb, const char *s, size_t room)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p != 0) {
		unsigned c = *p, len = 1;
		if (c >= 0x80) {
			unsigned cp;
			len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 :
			    c >= 0xf0 && c <= 0xf4 ? 4 : 1;
			cp = c & (0x7fu >> len);
			for (unsigned i = 1; i < len; i++) {
				if ((p[i] & 0xc0) != 0x80) {
					len = 1;	/* p[i] may be the NUL */
					break;
				}
				cp = cp << 6 | (p[i] & 0x3f);
			}
			/* C1 controls, and overlong forms, are not text either */
			c = len > 1 && cp >= 0xa0 && cp <= 0xff ? cp : '?';
		}
		size_t need = c == '"' || c == '\\' ? 2 : 1;
		if (need > room)
			break;
		room -= need;
		if (need == 2)
			textbuf_char(tb, '\\');
		textbuf_char(tb, (char)c);
		p += len;
	}
}

/* The analysis as Bridge Composer writes it, which PBN 2.1 readers take
 * (docs/analysis.md): [DoubleDummyTricks] 20 hex digits, declarers N S E W
 * each in NT S H D C; [OptimumScore] from the side of the par contract;
 * [ParContract] "NS 4S=; N 3N+1"; the OptimumResultTable section, a row a
 * declarer and strain, its columns aligned. */
static void
print_analysis(struct dl_out *out, const struct dl_analysis *a)
{
	static const unsigned declarers[4] = { DL_NORTH, DL_SOUTH, DL_EAST, DL_WEST };
	static const char *const strains[DL_STRAINS] = { "NT", "S", "H", "D", "C" };
	char digits[4 * DL_STRAINS];
	int wide = 0;

	for (unsigned d = 0; d < 4; d++)
		for (unsigned strain = 0; strain < DL_STRAINS; strain++) {
			unsigned tricks = a->tricks[declarers[d]][strain] % 14;
			digits[d * DL_STRAINS + strain] = "0123456789abcd"[tricks];
			wide |= tricks >= 10;
		}
	out->print(out, "[DoubleDummyTricks \"%.20s\"]\n", digits);
	if (a->ncontracts == 0)
		out->print(out, "[OptimumScore \"NS 0\"]\n[ParContract \"Pass\"]\n");
	else {
		int score;
		const char *side = par_side(a, &score);
		out->print(out, "[OptimumScore \"%s %d\"]\n[ParContract \"", side, score);
	}
	for (unsigned i = 0; i < a->ncontracts && i < DL_PAR_CONTRACTS_MAX; i++) {
		const struct dl_contract *c = &a->contracts[i];
		const char *side = declarers_name(c->declarers);
		out->print(out, "%s%s %u%c%s", i > 0 ? "; " : "", side ? side : "?", c->level,
		    "NSHDC"[c->strain % DL_STRAINS], c->doubled ? "X" : "");
		if (c->result != 0)
			out->print(out, "%+d", c->result);
		else
			out->print(out, "=");
		if (i + 1 == a->ncontracts)
			out->print(out, "\"]\n");
	}
	out->print(out, "[OptimumResultTable \"Declarer;Denomination\\2R;Result\\%dR\"]\n",
	    wide ? 2 : 1);
	for (unsigned d = 0; d < 4; d++)
		for (unsigned strain = 0; strain < DL_STRAINS; strain++)
			out->print(out, "%c %2s %*u\n", DL_SEAT_LETTERS[declarers[d]], strains[strain],
			    wide ? 2 : 1, a->tricks[declarers[d]][strain]);
}

static int
pbn_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	TEXTBUF(tb, out);

	(void)state;
	/* the generator names files, whose names come from a .sqd */
	TEXTBUF_ADD(&tb, "% PBN 2.1\n% EXPORT\n%\n[Generator \"");
	add_string(&tb, run->generator);
	TEXTBUF_ADD(&tb, "\"]\n");
	textbuf_flush(&tb);
	return 0;
}

static int
pbn_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	static const char *const vulnerability[] = { "None", "NS", "EW", "All" };
	TEXTBUF(tb, out);
	const char *vul = vulnerability[deal->vulnerability];

	(void)state;
	TEXTBUF_ADD(&tb, "[Event \"");
	add_text(&tb, run->event != NULL ? run->event : "?", TAG_ROOM("Event"));
	TEXTBUF_ADD(&tb, "\"]\n[Site \"");
	add_text(&tb, run->site != NULL ? run->site : "?", TAG_ROOM("Site"));
	TEXTBUF_ADD(&tb, "\"]\n[Date \"");
	add_text(&tb, run->date != NULL ? run->date : "?", TAG_ROOM("Date"));
	TEXTBUF_ADD(&tb, "\"]\n[Board \"");
	textbuf_unsigned(&tb, deal->board);
	TEXTBUF_ADD(&tb, "\"]\n[West \"?\"]\n[North \"?\"]\n[East \"?\"]\n[South \"?\"]\n"
	    "[Dealer \"");
	textbuf_char(&tb, DL_SEAT_LETTERS[deal->dealer]);
	TEXTBUF_ADD(&tb, "\"]\n[Vulnerable \"");
	textbuf_add(&tb, vul, strlen(vul));
	TEXTBUF_ADD(&tb, "\"]\n[Deal \"N:");
	for (unsigned h = 0; h < 4; h++) {
		if (h > 0)
			textbuf_char(&tb, ' ');
		add_hand(&tb, deal->hand[h]);
	}
	TEXTBUF_ADD(&tb, "\"]\n[Scoring \"?\"]\n[Declarer \"?\"]\n[Contract \"?\"]\n"
	    "[Result \"?\"]\n");
	textbuf_flush(&tb);
	if (deal->analysis != NULL)
		print_analysis(out, deal->analysis);
	out->write(out, "\n", 1);
	return 0;
}

/*
 * Reading.  PBN 2.1 in its "import" form: games parted by semi-empty
 * lines; tag pairs anywhere on a line, several on one line or one over
 * several lines; '%' escape lines; ';' and '{ }' comments; auction, play
 * and table sections passed over; a tag given twice in a game counts
 * once (the first), and a second that says otherwise of the board (its
 * number, deal, dealer, vulnerability) makes the file ambiguous
 * (reading.h), of the rest a warning; "#" and "##" values inherited from
 * the games before.  A game gives a board when it has a [Deal].
 */

enum pbn_tag {
	TAG_EVENT, TAG_SITE, TAG_DATE, TAG_BOARD,
	TAG_NORTH, TAG_EAST, TAG_SOUTH, TAG_WEST,	/* in enum dl_seat order */
	TAG_DEALER, TAG_VULNERABLE, TAG_DEAL,
	NTAGS,
	TAG_OTHER = NTAGS,
};

static const char *const tag_names[NTAGS] = {
	"Event", "Site", "Date", "Board", "North", "East", "South", "West",
	"Dealer", "Vulnerable", "Deal",
};

/* The longest tag name PBN allows: a token is at most 255 characters. */
#define TAG_NAME_MAX 255

struct text {
	char *s;
	size_t len, cap;
	int set;
};

/* Where the scanner is: outside anything, in a { } comment that goes on
 * to the next line, or within a tag pair, which may too. */
enum pbn_scan { SCAN_OUTSIDE, SCAN_COMMENT, SCAN_TAG_OPEN, SCAN_TAG_NAMED, SCAN_TAG_VALUED };

struct pbn_reading {
	enum pbn_scan scan;
	int tag;			/* the tag being read: enum pbn_tag */
	char name[TAG_NAME_MAX + 1];	/* and its name, for messages */
	struct text value;		/* and its value, unescaped */
	int first_line;			/* a UTF-8 byte order mark may begin it */
	int game_over;			/* a game that gave no board ended: the
					 * next board begins after it */

	/* this game */
	struct text given[NTAGS];	/* the tags given, as written */
	int deal_given;			/* owner holds the game's [Deal] */
	int deal_whole;			/* it has 52 cards, 13 a hand */
	unsigned char owner[DL_CARDS];

	/* across games */
	struct text value_of[NTAGS];	/* each tag's value in the last game
					 * that had it: "#" inherits it */
	struct text sticky[NTAGS];	/* set by "##": every game's value
					 * from then on, unless given */
	struct boards_seen seen;	/* by board number */
	struct labels_seen labels;	/* by label and deal (DL_IN_RENUMBER) */
};

/* Room in t for need bytes. */
static int
text_reserve(struct dl_in *in, struct text *t, size_t need)
{
	size_t cap = t->cap != 0 ? t->cap : 32;
	char *grown;

	if (need <= t->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	if ((grown = realloc(t->s, cap)) == NULL) {
		in->fail(in, "out of memory");
		return -1;
	}
	t->s = grown;
	t->cap = cap;
	return 0;
}

static int
text_set(struct dl_in *in, struct text *t, const char *s, size_t len)
{
	if (text_reserve(in, t, len + 1) == -1)
		return -1;
	memmove(t->s, s, len);
	t->s[len] = '\0';
	t->len = len;
	t->set = 1;
	return 0;
}

static int
text_append(struct dl_in *in, struct text *t, const char *s, size_t len)
{
	if (text_reserve(in, t, t->len + len + 1) == -1)
		return -1;
	memcpy(t->s + t->len, s, len);
	t->len += len;
	t->s[t->len] = '\0';
	return 0;
}

static int
pbn_read_begin(struct dl_in *in, void **state)
{
	struct pbn_reading *r = calloc(1, sizeof *r);

	if ((*state = r) == NULL) {
		in->fail(in, "out of memory");
		return -1;
	}
	r->first_line = 1;
	return 0;
}

static void
pbn_read_end(struct dl_in *in, void *state)
{
	struct pbn_reading *r = state;

	(void)in;
	if (r == NULL)
		return;
	free(r->value.s);
	for (int t = 0; t < NTAGS; t++) {
		free(r->given[t].s);
		free(r->value_of[t].s);
		free(r->sticky[t].s);
	}
	boards_seen_free(&r->seen);
	labels_seen_free(&r->labels);
	free(r);
}

static int
seat_of_letter(int c)
{
	switch (c) {
	case 'N': case 'n': return DL_NORTH;
	case 'E': case 'e': return DL_EAST;
	case 'S': case 's': return DL_SOUTH;
	case 'W': case 'w': return DL_WEST;
	default: return -1;
	}
}

static int
is_blank(int c)
{
	return c == ' ' || c == '\t';
}

/* "?" and "" say that the value is not known. */
static const char *
known(const char *value)
{
	return value == NULL || value[0] == '\0' || strcmp(value, "?") == 0 ? NULL : value;
}

/* How a message names the game's board before the game is read whole:
 * by its [Board] if one came before as a plain number, else as
 * otherwise says. */
static const char *
game_label(const struct pbn_reading *r, char label[32], const char *otherwise)
{
	const struct text *board = &r->given[TAG_BOARD];
	size_t digits = board->set ? strspn(board->s, "0123456789") : 0;

	if (digits > 0 && digits < 10 && board->s[digits] == '\0' && board->s[0] != '0')
		snprintf(label, 32, "board %s", board->s);
	else
		snprintf(label, 32, "%s", otherwise);
	return label;
}

/* Why a [Deal] value is no deal, for the message. */
#define DEAL_WHY_MAX 96

/* One hand of a [Deal]: ranks, either case and in any order, with dots
 * between the four suits, into owner; p moves past it.  NULL, or why it
 * is no hand (in why). */
static const char *
deal_hand(const char **p, unsigned char owner[DL_CARDS], unsigned seat, const char *label,
    char why[DEAL_WHY_MAX])
{
	/* a local cursor: the stores into owner, chars, would otherwise make
	 * the compiler load *p again for every card */
	const char *q = *p;
	unsigned suit = 0;
	char name[3];
	int rank;

	for (; *q != '\0' && !is_blank(*q); q++) {
		if (*q == '.') {
			if (++suit > 3) {
				snprintf(why, DEAL_WHY_MAX, "%s: %s has more than four suits",
				    label, seat_names[seat]);
				return why;
			}
		} else if ((rank = rank_of((unsigned char)*q)) >= 0) {
			unsigned card = suit * DL_HAND_CARDS + (unsigned)rank;
			if (owner[card] != NO_SEAT) {
				snprintf(why, DEAL_WHY_MAX, "%s: the %s twice", label,
				    card_name(card, name));
				return why;
			}
			owner[card] = (unsigned char)seat;
		} else {
			snprintf(why, DEAL_WHY_MAX, "%s: %s: '%c' is not a rank", label,
			    seat_names[seat], *q);
			return why;
		}
	}
	*p = q;
	if (suit != 3) {
		snprintf(why, DEAL_WHY_MAX, "%s: %s has %u suits, not 4 (three dots)", label,
		    seat_names[seat], suit + 1);
		return why;
	}
	return NULL;
}

/* A [Deal] value, "F:H H H H": the first hand's seat, then four hands
 * clockwise, "-" for a hand not shown (its cards stay NO_SEAT in owner;
 * *unshown is the first such seat, or -1).  NULL, or why it is no deal:
 * the first [Deal] of a game that is none fails the read, a second one
 * only needs to be told apart from the first. */
static const char *
deal_parse(const char *value, const char *label, unsigned char owner[DL_CARDS],
    int *unshown, char why[DEAL_WHY_MAX])
{
	int first = seat_of_letter((unsigned char)value[0]);
	const char *p = value + 2;

	*unshown = -1;
	if (first < 0 || value[1] != ':') {
		snprintf(why, DEAL_WHY_MAX, "%s: not a deal (\"N:\" and four hands)", label);
		return why;
	}
	deal_clear(owner);
	for (unsigned h = 0; h < 4; h++) {
		unsigned seat = ((unsigned)first + h) % 4;
		while (is_blank(*p))
			p++;
		if (*p == '\0') {
			snprintf(why, DEAL_WHY_MAX, "%s: %u hands, not 4", label, h);
			return why;
		}
		if (*p == '-' && (p[1] == '\0' || is_blank(p[1]))) {
			p++;
			if (*unshown < 0)
				*unshown = (int)seat;
		} else if (deal_hand(&p, owner, seat, label, why) != NULL) {
			return why;
		}
	}
	while (is_blank(*p))
		p++;
	if (*p != '\0') {
		snprintf(why, DEAL_WHY_MAX, "%s: more than four hands", label);
		return why;
	}
	return NULL;
}

/* A [Deal] of four empty hands, "N:... ... ... ...": the placeholder that
 * Bridge Solver Online and Bridge Composer's teaching boards write for a
 * game with no deal, which says no more than "?". */
static int
deal_is_placeholder(const char *value)
{
	const char *p = value + 2;

	if (seat_of_letter((unsigned char)value[0]) < 0 || value[1] != ':')
		return 0;
	for (unsigned h = 0; h < 4; h++) {
		while (is_blank(*p))
			p++;
		if (strncmp(p, "...", 3) != 0 || (p[3] != '\0' && !is_blank(p[3])))
			return 0;
		p += 3;
	}
	while (is_blank(*p))
		p++;
	return *p == '\0';
}

/* The game's [Deal].  "?", "" or the dotted placeholder says no deal
 * (Bridge Composer's title game, a template, a teaching board): the game
 * is no board, and is passed over with a warning.  A deal not whole (an end position, hands not shown) is
 * refused, or with --partial its board passed over: even when three
 * hands are shown whole, the fourth is not guessed. */
static int
pbn_deal(struct dl_in *in, struct pbn_reading *r, const char *value)
{
	char label[32], why[DEAL_WHY_MAX];
	int unshown;

	if (known(value) == NULL || deal_is_placeholder(value)) {
		in->warn(in, "%s: [Deal \"%s\"] gives no deal: passed over",
		    game_label(r, label, "a game"), value);
		return 0;
	}
	game_label(r, label, "[Deal]");
	if (deal_parse(value, label, r->owner, &unshown, why) != NULL) {
		in->fail(in, "%s", why);
		return -1;
	}
	r->deal_given = 1;
	r->deal_whole = unshown < 0 && deal_shortfall(r->owner, why, sizeof why) == NULL;
	if (r->deal_whole)
		return 0;
	if (unshown >= 0)
		snprintf(why, sizeof why, "%s's hand is not shown (\"-\")", seat_names[unshown]);
	if (in->flags & DL_IN_PARTIAL) {
		in->warn(in, "%s: %s: passed over", label, why);
		return 0;
	}
	in->fail(in, "%s: %s (--partial passes such boards over)", label, why);
	return -1;
}

/* Called for every tag of the file: the first letter and the length
 * pick the one name to compare. */
static int
tag_of_name(const char *name, size_t len)
{
	int t;

	switch (name[0]) {
	case 'E': t = len == 5 ? TAG_EVENT : TAG_EAST; break;
	case 'S': t = name[1] == 'i' ? TAG_SITE : TAG_SOUTH; break;
	case 'D':
		t = len == 4 ? (name[2] == 't' ? TAG_DATE : TAG_DEAL) : TAG_DEALER;
		break;
	case 'B': t = TAG_BOARD; break;
	case 'N': t = TAG_NORTH; break;
	case 'W': t = TAG_WEST; break;
	case 'V': t = TAG_VULNERABLE; break;
	default: return TAG_OTHER;
	}
	return len == strlen(tag_names[t]) && memcmp(name, tag_names[t], len) == 0 ?
	    t : TAG_OTHER;
}

/* value without the blanks around it: its start, and its length in *len. */
static const char *
trim_blanks(const char *value, size_t *len)
{
	while (is_blank(*value))
		value++;
	*len = strlen(value);
	while (*len > 0 && is_blank(value[*len - 1]))
		(*len)--;
	return value;
}

/* What a [Board] value is: a number from 1 (in *board, 0 when not known),
 * or which kind of not. */
enum board_value { BOARD_VALUE_NUMBER, BOARD_VALUE_NOT_DIGITS, BOARD_VALUE_TOO_LARGE,
	BOARD_VALUE_NOT_FROM_1 };

static enum board_value
board_value_of(const char *value, unsigned *board)
{
	unsigned long n = 0;
	const char *p = value;

	*board = 0;
	if (known(value) == NULL)
		return BOARD_VALUE_NUMBER;
	while (is_blank(*p))
		p++;
	if (*p < '0' || *p > '9')
		return BOARD_VALUE_NOT_DIGITS;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((n = n * 10 + (unsigned long)(*p - '0')) > 4000000000ul)
			return BOARD_VALUE_TOO_LARGE;
	while (is_blank(*p))
		p++;
	if (*p != '\0' || n == 0)
		return BOARD_VALUE_NOT_FROM_1;
	*board = (unsigned)n;
	return BOARD_VALUE_NUMBER;
}

/* The seat a [Dealer] value names; -1 when it says nothing, -2 when it
 * is no seat. */
static int
dealer_value_of(const char *value)
{
	const char *seat;
	size_t len;

	if (known(value) == NULL)
		return -1;
	seat = trim_blanks(value, &len);
	if (len == 1 && seat_of_letter((unsigned char)seat[0]) >= 0)
		return seat_of_letter((unsigned char)seat[0]);
	return -2;
}

/* The vulnerability a [Vulnerable] value names; -1 when it says nothing,
 * -2 when it is none PBN has. */
static int
vulnerability_value_of(const char *value)
{
	static const struct {
		const char *name;
		int vulnerability;
	} names[] = {
		{ "None", DL_VUL_NONE }, { "Love", DL_VUL_NONE }, { "-", DL_VUL_NONE },
		{ "NS", DL_VUL_NS }, { "EW", DL_VUL_EW },
		{ "All", DL_VUL_ALL }, { "Both", DL_VUL_ALL },
	};
	const char *name;
	size_t len;

	if (known(value) == NULL)
		return -1;
	name = trim_blanks(value, &len);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strlen(names[i].name) == len && strncasecmp(name, names[i].name, len) == 0)
			return names[i].vulnerability;
	return -2;
}

/* Whether two values of tag say the same: "05" and "5" are one board,
 * "n" and "N" one dealer, "Love" and "None" one vulnerability, the same
 * cards in any order or from any first seat one deal (the first's being
 * r->owner). */
static int
same_statement(const struct pbn_reading *r, int tag, const char *first, const char *again)
{
	unsigned char owner[DL_CARDS];
	char why[DEAL_WHY_MAX];
	unsigned a, b;
	int unshown;

	if (strcmp(first, again) == 0 || (known(first) == NULL && known(again) == NULL))
		return 1;
	switch (tag) {
	case TAG_DEAL:
		return r->deal_given && deal_parse(again, "", owner, &unshown, why) == NULL &&
		    memcmp(owner, r->owner, DL_CARDS) == 0;
	case TAG_BOARD:
		return board_value_of(first, &a) == BOARD_VALUE_NUMBER &&
		    board_value_of(again, &b) == BOARD_VALUE_NUMBER && a == b;
	case TAG_DEALER:
		return dealer_value_of(first) >= 0 && dealer_value_of(first) == dealer_value_of(again);
	case TAG_VULNERABLE:
		return vulnerability_value_of(first) >= 0 &&
		    vulnerability_value_of(first) == vulnerability_value_of(again);
	default:
		return 0;
	}
}

/* A tag dl reads, given again in the game: PBN reads the first, so the
 * second matters only when it says something else, which another
 * program may read instead.  What the board is (its number, deal, dealer,
 * vulnerability) said two ways makes the file ambiguous; where and by
 * whom it was played (event, site, date, players) is a warning alone,
 * since no check of the deals depends on it. */
static int
pbn_tag_again(struct dl_in *in, struct pbn_reading *r)
{
	const char *first = r->given[r->tag].s, *again = r->value.s;
	char label[32];

	if (same_statement(r, r->tag, first, again))
		return 0;
	game_label(r, label, "a game");
	switch (r->tag) {
	case TAG_DEAL:
		return ambiguous(in, "the first is read", "%s: two different [Deal] tags", label);
	case TAG_BOARD: case TAG_DEALER: case TAG_VULNERABLE:
		return ambiguous(in, "the first is read", "%s: two different [%s] tags "
		    "(\"%.40s\", \"%.40s\")", label, tag_names[r->tag], first, again);
	default:
		in->warn(in, "%s: two different [%s] tags (\"%.40s\", \"%.40s\"): the first "
		    "is read", label, tag_names[r->tag], first, again);
		return 0;
	}
}

/* A tag pair read whole: kept when dl reads it and it is the first of
 * its name in the game; compared with the first when it is not. */
static int
pbn_tag_done(struct dl_in *in, struct pbn_reading *r)
{
	if (r->tag == TAG_OTHER)
		return 0;
	if (r->given[r->tag].set)
		return pbn_tag_again(in, r);
	if (text_set(in, &r->given[r->tag], r->value.s, r->value.len) == -1)
		return -1;
	if (r->tag == TAG_DEAL)
		return pbn_deal(in, r, r->value.s);
	return 0;
}

/* The tag name after '[', which a line end may not split; p moves past. */
static int
scan_tag_name(struct dl_in *in, struct pbn_reading *r, const char **p, const char *end)
{
	const char *start = *p;
	size_t len;

	while (*p < end && ((**p >= 'A' && **p <= 'Z') || (**p >= 'a' && **p <= 'z') ||
	    (**p >= '0' && **p <= '9') || **p == '_'))
		(*p)++;
	len = (size_t)(*p - start);
	if (len == 0) {
		in->fail(in, "a '[' not followed by a tag name");
		return -1;
	}
	if (len > TAG_NAME_MAX) {
		in->fail(in, "a tag name longer than %d characters", TAG_NAME_MAX);
		return -1;
	}
	memcpy(r->name, start, len);
	r->name[len] = '\0';
	r->tag = tag_of_name(r->name, len);
	r->scan = SCAN_TAG_NAMED;
	return 0;
}

/* The tag value, a string on one line: '\"' and '\\' stand for '"' and
 * '\'.  Values dl does not read are passed over unstored. */
static int
scan_tag_value(struct dl_in *in, struct pbn_reading *r, const char **p, const char *end)
{
	const char *start = *p + 1, *q = start;
	const char *quote = memchr(start, '"', (size_t)(end - start));
	int keep = r->tag != TAG_OTHER;

	if (**p != '"') {
		in->fail(in, "[%s: no value in quotes", r->name);
		return -1;
	}
	if (quote != NULL && memchr(start, '\\', (size_t)(quote - start)) == NULL) {
		/* nothing escaped: the value as it stands (nearly every value) */
		if (keep && text_set(in, &r->value, start, (size_t)(quote - start)) == -1)
			return -1;
		q = quote;
	} else {
		if (keep && text_set(in, &r->value, "", 0) == -1)
			return -1;
		while (q < end && *q != '"') {
			const char *run = q;
			while (q < end && *q != '"' && *q != '\\')
				q++;
			if (q + 1 < end && *q == '\\' && (q[1] == '"' || q[1] == '\\')) {
				/* the run, then the escaped character alone */
				if (keep && (text_append(in, &r->value, run, (size_t)(q - run)) == -1 ||
				    text_append(in, &r->value, q + 1, 1) == -1))
					return -1;
				q += 2;
				continue;
			}
			if (q < end && *q == '\\')
				q++;	/* a backslash that escapes nothing stands for itself */
			if (keep && text_append(in, &r->value, run, (size_t)(q - run)) == -1)
				return -1;
		}
	}
	if (q == end) {
		in->fail(in, "[%s: its value's closing quote is not on the line", r->name);
		return -1;
	}
	*p = q + 1;
	r->scan = SCAN_TAG_VALUED;
	return 0;
}

/* Passes over a string of a section's data ("Smith" in a table row). */
static const char *
skip_string(const char *p, const char *end)
{
	for (p++; p < end && *p != '"'; p++)
		if (*p == '\\' && p + 1 < end)
			p++;
	return p < end ? p + 1 : end;
}

/* Scans the characters [p, end) of one line. */
static int
pbn_scan(struct dl_in *in, struct pbn_reading *r, const char *p, const char *end)
{
	while (p < end) {
		if (r->scan == SCAN_OUTSIDE) {
			switch (*p) {
			case '[':
				r->scan = SCAN_TAG_OPEN;
				p++;
				break;
			case '{': {
				const char *close = memchr(p + 1, '}', (size_t)(end - p - 1));
				if (close == NULL) {
					r->scan = SCAN_COMMENT;
					return 0;
				}
				p = close + 1;
				break;
			}
			case ';':
				return 0;
			case '"':
				p = skip_string(p, end);
				break;
			default:
				p++;	/* a section's data: calls, cards, a table */
			}
			continue;
		}
		if (is_blank(*p)) {
			p++;
			continue;
		}
		switch (r->scan) {
		case SCAN_TAG_OPEN:
			if (scan_tag_name(in, r, &p, end) == -1)
				return -1;
			break;
		case SCAN_TAG_NAMED:
			if (scan_tag_value(in, r, &p, end) == -1)
				return -1;
			break;
		case SCAN_TAG_VALUED:
			if (*p != ']') {
				in->fail(in, "[%s \"...\": no ']' after the value", r->name);
				return -1;
			}
			p++;
			r->scan = SCAN_OUTSIDE;
			if (pbn_tag_done(in, r) == -1)
				return -1;
			break;
		default:
			return 0;
		}
	}
	return 0;
}

/* This game's value of tag after inheritance ("#": the last game's that
 * had it; "##TEXT": TEXT here and in the games after, until given anew),
 * or NULL when the game does not have the tag. */
static const char *
resolve_tag(struct dl_in *in, struct pbn_reading *r, int t, int *failed)
{
	const struct text *given = &r->given[t];
	struct text *last = &r->value_of[t], *sticky = &r->sticky[t];
	const char *value;
	size_t len;

	if (!given->set && !sticky->set)
		return NULL;
	if (!given->set) {
		value = sticky->s, len = sticky->len;
	} else if (strcmp(given->s, "#") == 0) {
		value = last->set ? last->s : "", len = last->set ? last->len : 0;
	} else if (strncmp(given->s, "##", 2) == 0) {
		value = given->s + 2, len = given->len - 2;
		if (text_set(in, sticky, value, len) == -1)
			goto fail;
	} else {
		value = given->s, len = given->len;
		if (sticky->set && text_set(in, sticky, value, len) == -1)
			goto fail;
	}
	if (value != last->s && text_set(in, last, value, len) == -1)
		goto fail;
	return last->s;
fail:
	*failed = 1;
	return NULL;
}

/* The game's board: *board its number (0: the file does not number it),
 * and *label what a copy of it at another table has too (0: none).  A
 * value that is no board number is refused, but under DL_IN_RENUMBER,
 * where board numbers are labels, it is a label. */
static int
board_of_value(struct dl_in *in, const char *value, unsigned *board, uint64_t *label)
{
	enum board_value kind = board_value_of(value, board);
	const char *text;
	size_t len;

	*label = *board;
	if (kind == BOARD_VALUE_NUMBER)
		return 0;
	if (in->flags & DL_IN_RENUMBER) {
		text = trim_blanks(value, &len);
		*label = label_of_text(text, len);
		return 0;
	}
	switch (kind) {
	case BOARD_VALUE_NUMBER:
		return 0;
	case BOARD_VALUE_NOT_DIGITS:
		in->fail(in, "[Board \"%.40s\"]: not a board number%s", value, renumber_hint(in));
		return -1;
	case BOARD_VALUE_TOO_LARGE:
		in->fail(in, "[Board \"%.40s\"]: too large a board number%s", value,
		    renumber_hint(in));
		return -1;
	case BOARD_VALUE_NOT_FROM_1:
		break;
	}
	in->fail(in, "[Board \"%.40s\"]: not a board number (1 and up%s)", value,
	    in->flags & DL_IN_OFFER_RENUMBER ? "; " RENUMBER_HINT : "");
	return -1;
}

static int
dealer_of_value(struct dl_in *in, const char *value)
{
	int seat = dealer_value_of(value);

	if (seat != -2)
		return seat;
	in->warn(in, "[Dealer \"%.40s\"] is not N, E, S or W: left out", value);
	return -1;
}

static int
vulnerability_of_value(struct dl_in *in, const char *value)
{
	int vulnerability = vulnerability_value_of(value);

	if (vulnerability != -2)
		return vulnerability;
	in->warn(in, "[Vulnerable \"%.40s\"] is none of None, NS, EW, All: left out", value);
	return -1;
}

/* Whether the game's board was given before: 1 when it is new, 0 when it
 * is another table's copy of a board read before, -1 after in->fail.  By
 * its number, a board again with another deal is refused (a file of
 * several sets numbered alike is not one set); under DL_IN_RENUMBER, by
 * its label and deal, it is another board. */
static int
pbn_board_again(struct dl_in *in, struct pbn_reading *r, unsigned board, uint64_t label,
    const char *const value[NTAGS])
{
	/* the values quietly: a table's copy passed over warns of nothing */
	int dealer = dealer_value_of(value[TAG_DEALER]);
	int vulnerability = vulnerability_value_of(value[TAG_VULNERABLE]);
	char which[64];

	if (dealer < 0)
		dealer = -1;
	if (vulnerability < 0)
		vulnerability = -1;
	switch (in->flags & DL_IN_RENUMBER ?
	    labels_seen_add(&r->labels, label, r->owner, dealer, vulnerability) :
	    boards_seen_add(&r->seen, board, r->owner, dealer, vulnerability)) {
	case -1:
		in->fail(in, "out of memory");
		return -1;
	case BOARD_OTHER_DEAL:
		in->fail(in, "board %u: given again with another deal%s", board,
		    renumber_hint(in));
		return -1;
	case BOARD_OTHER_DEALER:
		if (board != 0)
			snprintf(which, sizeof which, "board %u", board);
		else
			snprintf(which, sizeof which, "[Board \"%.40s\"]", value[TAG_BOARD]);
		return ambiguous(in, "the first is read", "%s: given again with another "
		    "dealer or vulnerability", which) == -1 ? -1 : 0;
	case BOARD_SAME:
		return 0;	/* another table's result of the same board */
	default:
		return 1;
	}
}

/* The game read whole: 1 and *b filled when it gives a board, 0 when it
 * gives none (no [Deal], a board passed over, a board the file gave
 * before), -1 after in->fail. */
static int
pbn_game_end(struct dl_in *in, struct pbn_reading *r, struct dl_board_in *b)
{
	const char *value[NTAGS];
	int failed = 0, status = 0;

	for (int t = 0; t < NTAGS; t++)
		value[t] = t == TAG_DEAL ? NULL : resolve_tag(in, r, t, &failed);
	if (failed)
		return -1;
	if (r->deal_given && r->deal_whole) {
		uint64_t label;
		status = board_of_value(in, value[TAG_BOARD], &b->board, &label) == -1 ? -1 : 1;
		if (status == 1 && label != 0)
			status = pbn_board_again(in, r, b->board, label, value);
	}
	if (status == 1) {
		memcpy(b->owner, r->owner, DL_CARDS);
		b->dealer = dealer_of_value(in, value[TAG_DEALER]);
		b->vulnerability = vulnerability_of_value(in, value[TAG_VULNERABLE]);
		b->event = known(value[TAG_EVENT]);
		b->site = known(value[TAG_SITE]);
		b->date = known(value[TAG_DATE]);
		for (unsigned seat = DL_NORTH; seat <= DL_WEST; seat++)
			b->players[seat] = known(value[TAG_NORTH + seat]);
	}
	for (int t = 0; t < NTAGS; t++)
		r->given[t].set = 0;
	r->deal_given = r->deal_whole = 0;
	return status;
}

/* A semi-empty line (spaces and tabs alone) ends a game. */
static int
semi_empty(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!is_blank(line[i]))
			return 0;
	return 1;
}

static int
pbn_end_of_file(struct dl_in *in, struct pbn_reading *r, struct dl_board_in *b)
{
	if (r->scan == SCAN_COMMENT) {
		in->fail(in, "a '{' comment never closed");
		return -1;
	}
	if (r->scan != SCAN_OUTSIDE) {
		in->fail(in, "the file ends within a tag pair");
		return -1;
	}
	return pbn_game_end(in, r, b);
}

static int
pbn_read_board(struct dl_in *in, struct dl_board_in *b, void *state)
{
	struct pbn_reading *r = state;
	const char *line;
	size_t len;
	int got;

	for (;;) {
		if ((line = in->line(in, &len)) == NULL)
			return pbn_end_of_file(in, r, b);
		const char *p = line, *end = line + len;
		if (r->first_line) {
			r->first_line = 0;
			if (len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0)
				p += 3;
		}
		/* a board's messages name its own game's first line, not that
		 * of a game before it that gave none (a title, another table's) */
		if (r->game_over && !semi_empty(p, (size_t)(end - p))) {
			r->game_over = 0;
			if (in->board_begins != NULL)
				in->board_begins(in);
		}
		if (r->scan == SCAN_COMMENT) {
			const char *close = memchr(p, '}', len - (size_t)(p - line));
			if (close == NULL)
				continue;
			p = close + 1;
			r->scan = SCAN_OUTSIDE;
		} else if (semi_empty(p, (size_t)(end - p))) {
			if (r->scan != SCAN_OUTSIDE) {
				in->fail(in, "a tag pair cut by an empty line");
				return -1;
			}
			if ((got = pbn_game_end(in, r, b)) != 0)
				return got;
			r->game_over = 1;
			continue;
		} else if (p == line && *p == '%' && r->scan == SCAN_OUTSIDE) {
			continue;	/* an escape line: "% PBN 2.1", a comment */
		}
		if (pbn_scan(in, r, p, end) == -1)
			return -1;
	}
}

/* "% PBN", or a tag pair on one of the first lines ([Deal "...] the
 * surest). */
static int
pbn_sniff(const unsigned char *head, size_t len)
{
	size_t pos = 0, linelen;
	const unsigned char *line;
	int score = 0;

	if (len >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	while ((line = head_line(head, len, &pos, &linelen)) != NULL) {
		if (linelen >= 5 && memcmp(line, "% PBN", 5) == 0)
			return 100;
		if (linelen >= 8 && memcmp(line, "[Deal \"", 7) == 0 &&
		    seat_of_letter(line[7]) >= 0)
			return 95;
		if (linelen >= 4 && line[0] == '[' && line[1] >= 'A' && line[1] <= 'Z' &&
		    memchr(line, '"', linelen) != NULL && line[linelen - 1] == ']')
			score = 60;
	}
	return score;
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
	.sniff = pbn_sniff,
	.read_begin = pbn_read_begin,
	.read_board = pbn_read_board,
	.read_end = pbn_read_end,
	.needs = DL_CONCURRENT | DL_JOINABLE | DL_KEEPS_DEALER,
};
