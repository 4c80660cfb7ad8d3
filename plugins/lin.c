/* Bridge Base Online LIN: one line a board.  LIN lists the hands from
 * South clockwise and leaves out East, which follows from the others. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "reading.h"
#include "suits.h"
#include "textbuf.h"

static void
lin_hand(struct textbuf *tb, const struct dl_deal *deal, unsigned seat)
{
	textbuf_wrote(tb, hand_text(textbuf_room(tb, HAND_TEXT_MAX(1)), deal->hand[seat],
	    "SHDC", 1, 0));
}

static int
lin_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	/* LIN numbers the seats 1 = S, 2 = W, 3 = N, 4 = E. */
	unsigned dealer = ((unsigned)deal->dealer + 2) % 4 + 1;
	TEXTBUF(tb, out);

	(void)run;
	(void)state;
	TEXTBUF_ADD(&tb, "qx|o");
	textbuf_unsigned(&tb, deal->board);
	TEXTBUF_ADD(&tb, "|md|");
	textbuf_char(&tb, (char)('0' + dealer));
	lin_hand(&tb, deal, DL_SOUTH);
	textbuf_char(&tb, ',');
	lin_hand(&tb, deal, DL_WEST);
	textbuf_char(&tb, ',');
	lin_hand(&tb, deal, DL_NORTH);
	TEXTBUF_ADD(&tb, "|rh||ah|Board ");
	textbuf_unsigned(&tb, deal->board);
	TEXTBUF_ADD(&tb, "|sv|");
	textbuf_char(&tb, "0neb"[deal->vulnerability]);
	TEXTBUF_ADD(&tb, "|pg||\n");
	textbuf_flush(&tb);
	return 0;
}


/* Reading.  A LIN file is a run of "key|value|" pairs, on one line or
 * over many; a line end is no part of a key or value.  Of the pairs, vg|
 * (the event), pn| (the players), qx| and ah| (the board number), md|
 * (the dealer and the deal) and sv| (the vulnerability) are read; the
 * rest (auction, play, commentary) is passed over.  Nothing marks a
 * board's end: a board ends where the next one begins, at qx|, or at pn|,
 * st|, vg| or md| after its md|, or at an ah| or sv| given twice
 * (docs/formats-in.md).  Vugraph files give each board once a room: the
 * same deal again is read once.  Where a file says two things about a
 * board (qx| and ah| with two numbers; ah| or sv| twice before its md|, or
 * after it with no deal to go with them; a second md| without a number of
 * its own after a numbered board's; a room's copy with another dealer or
 * vulnerability), the reader reads one and the file is ambiguous
 * (reading.h). */

#define LIN_VALUE_MAX 4096	/* a longer value of a pair that is read is refused */

enum lin_key { KEY_OTHER, KEY_VG, KEY_PN, KEY_QX, KEY_MD, KEY_AH, KEY_SV, KEY_ST };

/* The board being read. */
struct lin_board {
	int has_md, has_ah, has_sv;
	enum lin_key begun_by;		/* the key given again that began it, or KEY_OTHER */
	unsigned from_ah, from_qx;	/* its number, 0 when not given */
	int closed_room;		/* qx|c..|: the last four of eight names */
	int whole;			/* md| gave every card */
	int dealer, vulnerability;	/* -1 when not given */
	unsigned char owner[DL_CARDS];
};

struct lin_reading {
	const char *cur, *end;		/* what is left of the line being read */
	int lines;			/* lines read */
	int has_pending;		/* a key read that began the next board */
	int pairs_begun;		/* a key begun: no comment line after it */
	enum lin_key pending;
	char key[3];			/* the key being read, for messages */
	char value[LIN_VALUE_MAX + 1];
	size_t value_len;
	char event[LIN_VALUE_MAX + 1];	/* vg|'s first field; "" when none */
	char names[LIN_VALUE_MAX + 1];	/* pn|, as given */
	char board_names[LIN_VALUE_MAX + 1];	/* split up, for the board returned */
	struct lin_board b;
	/* the board before, read whole: what a key given again after its md|
	 * may contradict */
	unsigned before_number;		/* from ah| or qx|; 0 when it had none */
	int before_vulnerability;
	struct boards_seen seen;	/* by board number */
	struct labels_seen labels;	/* by number and deal (DL_IN_RENUMBER) */
};

static void
lin_board_clear(struct lin_board *b)
{
	memset(b, 0, sizeof *b);
	b->dealer = b->vulnerability = -1;
	deal_clear(b->owner);
}

static int
lin_read_begin(struct dl_in *in, void **state)
{
	struct lin_reading *r = calloc(1, sizeof *r);

	if ((*state = r) == NULL) {
		in->fail(in, "out of memory");
		return -1;
	}
	lin_board_clear(&r->b);
	r->before_vulnerability = -1;
	return 0;
}

static void
lin_read_end(struct dl_in *in, void *state)
{
	struct lin_reading *r = state;

	(void)in;
	if (r != NULL) {
		boards_seen_free(&r->seen);
		labels_seen_free(&r->labels);
	}
	free(r);
}

/* Makes sure some of the line is left: 1, or 0 at the end of the file. */
static int
more_input(struct dl_in *in, struct lin_reading *r)
{
	size_t len;
	const char *line;

	while (r->cur == r->end) {
		if ((line = in->line(in, &len)) == NULL)
			return 0;
		r->cur = line;
		r->end = line + len;
		if (r->lines++ == 0 && len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0)
			r->cur += 3;	/* a byte order mark */
		/* PbnToLin heads its files with lines of "%" comments (what
		 * it converted, the PBN's [Date] and [Event]); before the
		 * first pair a line beginning "%" is one and passed over */
		if (!r->pairs_begun && r->cur < r->end && *r->cur == '%')
			r->cur = r->end;
	}
	return 1;
}

static enum lin_key
key_of(const char key[2])
{
	static const struct {
		char name[3];
		enum lin_key key;
	} keys[] = {
		{ "vg", KEY_VG }, { "pn", KEY_PN }, { "qx", KEY_QX }, { "md", KEY_MD },
		{ "ah", KEY_AH }, { "sv", KEY_SV }, { "st", KEY_ST },
	};

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (tolower((unsigned char)key[0]) == keys[i].name[0] &&
		    tolower((unsigned char)key[1]) == keys[i].name[1])
			return keys[i].key;
	return KEY_OTHER;
}

/* The next key, up to its '|': 1, 0 at the end of the file, -1 after
 * in->fail.  Blanks around a key are no part of it; a key is two
 * letters. */
static int
read_key(struct dl_in *in, struct lin_reading *r, enum lin_key *key)
{
	char got[3];
	size_t n = 0;

	for (;;) {
		if (!more_input(in, r)) {
			if (n == 0)
				return 0;
			in->fail(in, "the file ends within a key (\"%.*s\")", (int)n, got);
			return -1;
		}
		unsigned char c = (unsigned char)*r->cur++;
		if (c == '|')
			break;
		if (c == ' ' || c == '\t')
			continue;
		r->pairs_begun = 1;
		if (!isalpha(c) || n == 2) {
			in->fail(in, "not LIN: a key is two letters and a '|' (\"%.*s%c\")",
			    (int)n, got, c);
			return -1;
		}
		got[n++] = (char)c;
	}
	if (n != 2) {
		in->fail(in, "not LIN: a key is two letters and a '|' (\"%.*s|\")", (int)n, got);
		return -1;
	}
	memcpy(r->key, got, 2);
	r->key[2] = '\0';
	*key = key_of(got);
	return 1;
}

/* The value up to its '|', kept in r->value when keep: 1, or -1 after
 * in->fail. */
static int
read_value(struct dl_in *in, struct lin_reading *r, int keep)
{
	r->value_len = 0;
	for (;;) {
		if (!more_input(in, r)) {
			in->fail(in, "the file ends within %s|'s value (no '|' after it)", r->key);
			return -1;
		}
		const char *bar = memchr(r->cur, '|', (size_t)(r->end - r->cur));
		const char *stop = bar != NULL ? bar : r->end;
		size_t len = (size_t)(stop - r->cur);
		if (keep) {
			if (len > LIN_VALUE_MAX - r->value_len) {
				in->fail(in, "%s|: a value longer than %d bytes", r->key,
				    LIN_VALUE_MAX);
				return -1;
			}
			memcpy(r->value + r->value_len, r->cur, len);
			r->value_len += len;
		}
		r->cur = bar != NULL ? bar + 1 : r->end;
		if (bar != NULL)
			break;
	}
	r->value[r->value_len] = '\0';
	return 1;
}

/* Whether this key begins another board than the one being read. */
static int
begins_board(const struct lin_board *b, enum lin_key key)
{
	switch (key) {
	case KEY_QX: case KEY_PN: case KEY_ST: case KEY_VG: case KEY_MD:
		return b->has_md;
	case KEY_AH:
		return b->has_md && b->has_ah;
	case KEY_SV:
		return b->has_md && b->has_sv;
	default:
		return 0;
	}
}

/* The board number at the start of digits (after blanks), 0 when there
 * is none; -1 after in->fail when it passes 10^9.  key names the pair. */
static int
board_number(struct dl_in *in, const char *key, const char *digits, unsigned *number)
{
	const char *s = digits;
	long n = 0;

	while (*s == ' ')
		s++;
	for (; isdigit((unsigned char)*s); s++)
		if ((n = n * 10 + (*s - '0')) > 1000000000) {
			in->fail(in, "%s|%.40s|: too large a board number", key, digits);
			return -1;
		}
	*number = (unsigned)n;
	return 0;
}

/* qx|o12| or qx|c12|: the room, then the board (more may follow a comma). */
static int
read_qx(struct dl_in *in, struct lin_board *b, const char *value)
{
	if (*value == 'c' || *value == 'C')
		b->closed_room = 1;
	if (isalpha((unsigned char)*value))
		value++;
	return board_number(in, "qx", value, &b->from_qx);
}

/* ah|Board 12|: the board's number, as BBO writes it.  A second ah| before
 * the board's md| replaces the first. */
static int
read_ah(struct dl_in *in, struct lin_board *b, const char *value)
{
	unsigned before = b->from_ah;
	int again = b->has_ah;

	b->has_ah = 1;
	while (*value != '\0' && !isdigit((unsigned char)*value))
		value++;
	if (board_number(in, "ah", value, &b->from_ah) == -1)
		return -1;
	if (again && b->from_ah != before)
		return ambiguous(in, "the last is read", "ah|: board %u, then board %u",
		    before, b->from_ah);
	return 0;
}

/* The vulnerability sv| names, or -1 (with a warning). */
static int
sv_vulnerability(struct dl_in *in, const char *value)
{
	size_t len = strlen(value);

	while (len > 0 && value[len - 1] == ' ')
		len--;
	while (*value == ' ')
		value++, len--;
	if (len == 1) {
		switch (tolower((unsigned char)*value)) {
		case 'o': case '0': case '-': return DL_VUL_NONE;
		case 'n': return DL_VUL_NS;
		case 'e': return DL_VUL_EW;
		case 'b': return DL_VUL_ALL;
		}
	}
	in->warn(in, "sv|%.40s| is none of o, n, e, b: left out", value);
	return -1;
}

/* sv|: a second one before the board's md| replaces the first. */
static int
read_sv(struct dl_in *in, struct lin_board *b, const char *value)
{
	static const char letters[] = "oneb";
	int before = b->vulnerability, again = b->has_sv;

	b->has_sv = 1;
	b->vulnerability = sv_vulnerability(in, value);
	if (again && before != -1 && b->vulnerability != -1 && b->vulnerability != before)
		return ambiguous(in, "the last is read", "sv|%c|, then sv|%c|", letters[before],
		    letters[b->vulnerability]);
	return 0;
}

/* The board md| is read for, as its messages name it. */
static const char *
md_label(const struct lin_board *b, char *label, size_t size)
{
	unsigned n = b->from_ah != 0 ? b->from_ah : b->from_qx;

	if (n == 0)
		return "md|";
	snprintf(label, size, "board %u", n);
	return label;
}

/* One hand of md|: suit letters, each followed by its ranks ("10" for
 * the ten too); the number of cards, or -1 after in->fail. */
static int
md_hand(struct dl_in *in, struct lin_board *b, const char *label, unsigned seat,
    const char *hand, size_t len)
{
	/* a suit's index is its place in this one string (two equal
	 * literals need not be one object) */
	static const char suits[] = "SHDC";
	int suit = -1, cards = 0;
	char name[3];

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)hand[i];
		const char *letter = strchr(suits, toupper(c));
		int rank;

		if (c == ' ')
			continue;
		if (c != '\0' && letter != NULL) {
			suit = (int)(letter - suits);
			continue;
		}
		if (c == '1' && i + 1 < len && hand[i + 1] == '0') {
			rank = 4;	/* "10", the ten */
			i++;
		} else if ((rank = rank_of(c)) < 0) {
			in->fail(in, "%s: %s: '%c' is neither a suit nor a rank", label,
			    seat_names[seat], c);
			return -1;
		}
		if (suit < 0) {
			in->fail(in, "%s: %s: a rank before any suit letter", label,
			    seat_names[seat]);
			return -1;
		}
		unsigned card = (unsigned)suit * 13 + (unsigned)rank;
		if (b->owner[card] != NO_SEAT) {
			in->fail(in, "%s: the %s twice", label, card_name(card, name));
			return -1;
		}
		b->owner[card] = (unsigned char)seat;
		cards++;
	}
	return cards;
}

/* Why md|'s deal is not whole, or NULL: every hand holds 13 cards.  East,
 * left out or empty, holds the cards no one else does. */
static const char *
md_shortfall(struct lin_board *b, const int held[4], const int given[4], char *why,
    size_t size)
{
	static const unsigned lin_order[4] = { DL_SOUTH, DL_WEST, DL_NORTH, DL_EAST };

	for (unsigned i = 0; i < 4; i++) {
		unsigned seat = lin_order[i];
		if (seat == DL_EAST && !given[i])
			continue;
		if (!given[i]) {
			snprintf(why, size, "%s's hand is not given", seat_names[seat]);
			return why;
		}
		if (held[i] != DL_HAND_CARDS) {
			snprintf(why, size, "%s holds %d cards, not 13", seat_names[seat],
			    held[i]);
			return why;
		}
	}
	if (!given[3])
		for (unsigned card = 0; card < DL_CARDS; card++)
			if (b->owner[card] == NO_SEAT)
				b->owner[card] = DL_EAST;
	return NULL;
}

/* md|DSOUTH,WEST,NORTH,EAST|: the dealer (1 South, 2 West, 3 North, 4
 * East) and the hands from South round, East's perhaps left out. */
static int
read_md(struct dl_in *in, struct lin_board *b, const char *value)
{
	static const unsigned lin_order[4] = { DL_SOUTH, DL_WEST, DL_NORTH, DL_EAST };
	int held[4] = { 0 }, given[4] = { 0 };
	char label[32], why[64];
	const char *l = md_label(b, label, sizeof label), *p = value;

	b->has_md = 1;
	while (*p == ' ')
		p++;
	if (isdigit((unsigned char)*p)) {
		if (*p >= '1' && *p <= '4')
			b->dealer = (int)lin_order[*p - '1'];
		else
			in->warn(in, "%s: dealer %c is not 1 to 4: left out", l, *p);
		p++;
	}
	for (unsigned i = 0; *p != '\0' || i == 0; i++) {
		size_t len = strcspn(p, ",");
		if (i >= 4) {
			if (p[strspn(p, " ,")] != '\0') {
				in->fail(in, "%s: more than four hands", l);
				return -1;
			}
			break;
		}
		if ((held[i] = md_hand(in, b, l, lin_order[i], p, len)) == -1)
			return -1;
		given[i] = held[i] > 0;
		p += len;
		if (*p == ',')
			p++;
		else
			break;
	}
	if (md_shortfall(b, held, given, why, sizeof why) == NULL) {
		b->whole = 1;
		return 0;
	}
	if (in->flags & DL_IN_PARTIAL) {
		in->warn(in, "%s: %s: passed over", l, why);
		return 0;
	}
	in->fail(in, "%s: %s (--partial passes such boards over)", l, why);
	return -1;
}

/* The names of pn| for this board: South, West, North, East, and in a
 * vugraph file four more, for the other room. */
static void
board_players(struct lin_reading *r, struct dl_board_in *board)
{
	static const unsigned lin_order[4] = { DL_SOUTH, DL_WEST, DL_NORTH, DL_EAST };
	char *names[8], *p = r->board_names;
	unsigned n = 0;

	memcpy(r->board_names, r->names, sizeof r->names);
	if (*p == '\0')
		return;
	for (;;) {
		names[n++] = p;
		p = strchr(p, ',');
		if (p == NULL || n == 8)
			break;
		*p++ = '\0';
	}
	if (p != NULL)
		*p = '\0';	/* more than eight names: the rest is nobody's */
	unsigned first = r->b.closed_room && n == 8 ? 4 : 0;
	for (unsigned i = 0; i < 4 && first + i < n; i++)
		if (names[first + i][0] != '\0')
			board->players[lin_order[i]] = names[first + i];
}

/* How messages name the board before the one being read. */
static const char *
before_label(const struct lin_reading *r, char label[32])
{
	if (r->before_number == 0)
		return "the board before";
	snprintf(label, 32, "board %u", r->before_number);
	return label;
}

/* A board that ends without a deal, at qx| or the file's end, is passed
 * over.  When an ah| or sv| given again after the md| of the board before
 * began it, that key may be read as the board before's by another program:
 * the file is ambiguous when it says something else. */
static int
lin_board_dropped(struct dl_in *in, struct lin_reading *r)
{
	const struct lin_board *b = &r->b;
	char label[32];

	if (b->has_md || (b->begun_by != KEY_AH && b->begun_by != KEY_SV))
		return 0;
	if (b->has_ah && b->from_ah != r->before_number)
		return ambiguous(in, "it is passed over", "%s: ah| again after its md| (board "
		    "%u), with no md| to go with it", before_label(r, label), b->from_ah);
	if (b->has_sv && b->vulnerability != -1 && r->before_vulnerability != -1 &&
	    b->vulnerability != r->before_vulnerability)
		return ambiguous(in, "it is passed over", "%s: another sv| after its md|, with "
		    "no md| to go with it", before_label(r, label));
	return 0;
}

/* The board read whole: 1 with *board filled, 0 when it gives none (a
 * board --partial passes over, the other room's copy), -1 after
 * in->fail. */
static int
lin_board_end(struct dl_in *in, struct lin_reading *r, struct dl_board_in *board)
{
	struct lin_board *b = &r->b;
	unsigned number = b->from_ah != 0 ? b->from_ah : b->from_qx;
	int status = b->whole;
	char label[32];

	if (b->from_ah != 0 && b->from_qx != 0 && b->from_ah != b->from_qx &&
	    ambiguous(in, "ah| is read", "board %u: qx| says board %u, ah| board %u",
	    b->from_ah, b->from_qx, b->from_ah) == -1)
		return -1;
	/* md| again begins another board: one that no number of its own
	 * follows may be the numbered board before's, read twice */
	if (b->begun_by == KEY_MD && number == 0 && r->before_number != 0 &&
	    ambiguous(in, "it is read as the next board", "%s: md| again, with no board "
	    "number of its own", before_label(r, label)) == -1)
		return -1;
	/* a board again with another deal: refused, or under DL_IN_RENUMBER
	 * another board (sets numbered alike) */
	if (status == 1 && number != 0) {
		switch (in->flags & DL_IN_RENUMBER ?
		    labels_seen_add(&r->labels, number, b->owner, b->dealer, b->vulnerability) :
		    boards_seen_add(&r->seen, number, b->owner, b->dealer, b->vulnerability)) {
		case -1:
			in->fail(in, "out of memory");
			return -1;
		case BOARD_OTHER_DEAL:
			in->fail(in, "board %u: given again with another deal%s", number,
			    renumber_hint(in));
			return -1;
		case BOARD_OTHER_DEALER:
			if (ambiguous(in, "the first is read", "board %u: given again with another "
			    "dealer or vulnerability", number) == -1)
				return -1;
			status = 0;
			break;
		case BOARD_SAME:
			status = 0;	/* the other room's, or another table's */
			break;
		}
	}
	if (status == 1) {
		board->board = number;
		memcpy(board->owner, b->owner, DL_CARDS);
		board->dealer = b->dealer;
		board->vulnerability = b->vulnerability;
		board->event = r->event[0] != '\0' ? r->event : NULL;
		board_players(r, board);
	}
	r->before_number = number;
	r->before_vulnerability = b->vulnerability;
	lin_board_clear(b);
	return status;
}

/* What a pair read says. */
static int
lin_pair(struct dl_in *in, struct lin_reading *r, enum lin_key key)
{
	if (read_value(in, r, key != KEY_OTHER && key != KEY_ST) == -1)
		return -1;
	switch (key) {
	case KEY_VG:
		/* the event, the segment, ...: the first field names the event */
		memcpy(r->event, r->value, strcspn(r->value, ","));
		r->event[strcspn(r->value, ",")] = '\0';
		return 0;
	case KEY_PN:
		memcpy(r->names, r->value, r->value_len + 1);
		return 0;
	case KEY_QX:
		/* a board in a room: whatever came before is none */
		if (lin_board_dropped(in, r) == -1)
			return -1;
		lin_board_clear(&r->b);
		return read_qx(in, &r->b, r->value);
	case KEY_MD:
		return read_md(in, &r->b, r->value);
	case KEY_AH:
		return read_ah(in, &r->b, r->value);
	case KEY_SV:
		return read_sv(in, &r->b, r->value);
	default:
		return 0;
	}
}

static int
lin_read_board(struct dl_in *in, struct dl_board_in *board, void *state)
{
	struct lin_reading *r = state;
	enum lin_key key;
	int got;

	for (;;) {
		if (r->has_pending) {
			/* the board begins on the line where its first key was read */
			if (in->board_begins != NULL)
				in->board_begins(in);
			key = r->pending;
			r->has_pending = 0;
			/* a key given again began it: what it says may be the
			 * board before's (lin_board_end, lin_board_dropped) */
			if (key == KEY_MD || key == KEY_AH || key == KEY_SV)
				r->b.begun_by = key;
		} else {
			if ((got = read_key(in, r, &key)) == -1)
				return -1;
			if (got == 0 && r->b.has_md)
				return lin_board_end(in, r, board);
			if (got == 0)
				return lin_board_dropped(in, r);
			if (begins_board(&r->b, key)) {
				r->pending = key;
				r->has_pending = 1;
				if ((got = lin_board_end(in, r, board)) != 0)
					return got;
				continue;
			}
		}
		if (lin_pair(in, r, key) == -1)
			return -1;
	}
}

/* A file that begins with "xx|" pairs, after PbnToLin's "%" lines if
 * any; surely LIN when one is md|. */
static int
lin_sniff(const unsigned char *head, size_t len)
{
	size_t i = 0;

	if (len >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	for (;;) {
		while (i < len && isspace(head[i]))
			i++;
		if (i == len || head[i] != '%')
			break;
		while (i < len && head[i] != '\n' && head[i] != '\r')
			i++;
	}
	if (len - i < 3 || !isalpha(head[i]) || !isalpha(head[i + 1]) || head[i + 2] != '|')
		return 0;
	for (size_t j = i; j + 4 < len; j++)
		if ((j == i || head[j - 1] == '|' || head[j - 1] == '\n') &&
		    tolower(head[j]) == 'm' && tolower(head[j + 1]) == 'd' && head[j + 2] == '|')
			return 90;
	return 50;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = "lin",
	.suffix = "lin",
	.description = "Bridge Base Online LIN",
	.kind = DL_TEXT,
	.max_board = 0,
	.begin = NULL,
	.board = lin_board,
	.end = NULL,
	.sniff = lin_sniff,
	.read_begin = lin_read_begin,
	.read_board = lin_read_board,
	.read_end = lin_read_end,
	.needs = DL_CONCURRENT | DL_KEEPS_DEALER,
};
