/* What the readers of dl's own formats share (docs/formats-in.md): a deal
 * filled card by card and checked whole, ranks and suits, records of fixed
 * size, the boards that --partial passes over.  Header-only: every plugin
 * is one shared object, and a plugin calls nothing in the host but its
 * struct dl_in. */
#ifndef DL_PLUGINS_READING_H
#define DL_PLUGINS_READING_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "dl/plugin.h"

#define NO_SEAT 0xff	/* a card not dealt yet */
#define RANKS "AKQJT98765432"

static const char *const seat_names[4] = { "North", "East", "South", "West" };

/* Starts a deal with no card dealt. */
static inline void
deal_clear(unsigned char owner[DL_CARDS])
{
	memset(owner, NO_SEAT, DL_CARDS);
}

/* The rank (0 = ace .. 12 = two) of a rank letter, either case; -1 if the
 * character is none. */
static inline int
rank_of(int c)
{
	switch (c) {
	case 'A': case 'a': return 0;
	case 'K': case 'k': return 1;
	case 'Q': case 'q': return 2;
	case 'J': case 'j': return 3;
	case 'T': case 't': return 4;
	case '9': return 5;
	case '8': return 6;
	case '7': return 7;
	case '6': return 8;
	case '5': return 9;
	case '4': return 10;
	case '3': return 11;
	case '2': return 12;
	default: return -1;
	}
}

/* "AS", "TH", "2C": a card for messages. */
static inline const char *
card_name(unsigned card, char name[3])
{
	name[0] = RANKS[card % 13];
	name[1] = "SHDC"[card / 13];
	name[2] = '\0';
	return name;
}

/* Gives card to seat; a card dealt twice fails the board. */
static inline int
deal_card(struct dl_in *in, unsigned board, unsigned char owner[DL_CARDS], unsigned card,
    unsigned seat)
{
	char name[3];

	if (owner[card] != NO_SEAT) {
		in->fail(in, "board %u: the %s twice", board, card_name(card, name));
		return -1;
	}
	owner[card] = (unsigned char)seat;
	return 0;
}

/* Deals the rank letters ranks[0..len) of suit to seat. */
static inline int
deal_ranks(struct dl_in *in, unsigned board, unsigned char owner[DL_CARDS], unsigned seat,
    unsigned suit, const char *ranks, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		int rank = rank_of((unsigned char)ranks[i]);
		if (rank < 0) {
			in->fail(in, "board %u: %s: '%c' is not a rank", board, seat_names[seat],
			    ranks[i]);
			return -1;
		}
		if (deal_card(in, board, owner, suit * 13 + (unsigned)rank, seat) == -1)
			return -1;
	}
	return 0;
}

/* Why the deal is not whole ("West holds 12 cards, not 13", "the 2C is
 * in no hand"), or NULL when every seat holds 13 cards. */
static inline const char *
deal_shortfall(const unsigned char owner[DL_CARDS], char *why, size_t size)
{
	unsigned held[4] = { 0 };
	char name[3];

	for (unsigned card = 0; card < DL_CARDS; card++) {
		if (owner[card] > DL_WEST) {
			snprintf(why, size, "the %s is in no hand", card_name(card, name));
			return why;
		}
		held[owner[card]]++;
	}
	for (unsigned seat = DL_NORTH; seat <= DL_WEST; seat++)
		if (held[seat] != DL_HAND_CARDS) {
			snprintf(why, size, "%s holds %u cards, not 13", seat_names[seat],
			    held[seat]);
			return why;
		}
	return NULL;
}

/* A deal read whole: 1 when it is complete; when it is not, 0 after a
 * warning with --partial (the board is passed over), else -1 after
 * in->fail. */
static inline int
deal_finish(struct dl_in *in, unsigned board, const unsigned char owner[DL_CARDS])
{
	char why[64];

	if (deal_shortfall(owner, why, sizeof why) == NULL)
		return 1;
	if (in->flags & DL_IN_PARTIAL) {
		in->warn(in, "board %u: %s: passed over", board, why);
		return 0;
	}
	in->fail(in, "board %u: %s (--partial passes such boards over)", board, why);
	return -1;
}

/* The file says two different things about one board (two [Deal] tags in
 * a PBN game, LIN's qx| and ah| numbering it differently): the reader has
 * read one of them by its format's rule, which the warning names ("the
 * first is read"), and another program may read the other.  Under
 * DL_IN_STRICT the read fails instead: a check must not pass on a file
 * that reads two ways.  0, or -1 after in->fail. */
static inline int ambiguous(struct dl_in *in, const char *which, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static inline int
ambiguous(struct dl_in *in, const char *which, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (in->flags & DL_IN_STRICT) {
		in->fail(in, "%s: the file is ambiguous", what);
		return -1;
	}
	in->warn(in, "%s: %s", what, which);
	return 0;
}

/* The next record of a binary format: 1 and buf filled, 0 at the end of
 * the file, -1 after in->fail for a record cut short. */
static inline int
read_record(struct dl_in *in, unsigned board, void *buf, size_t size)
{
	size_t got = in->read(in, buf, size);

	if (got == 0)
		return 0;
	if (got < size) {
		in->fail(in, "board %u: cut short: %zu of its %zu bytes", board, got, size);
		return -1;
	}
	return 1;
}

/* The state of a reader whose file numbers no boards: they count from
 * the host's first board (1 unless told otherwise), and messages name
 * them so. */
struct counting {
	unsigned board;		/* the board being read, first - 1 before the first */
};

static inline int
counting_begin(struct dl_in *in, void **state)
{
	struct counting *r;

	if ((*state = r = calloc(1, sizeof(struct counting))) == NULL) {
		in->fail(in, "out of memory");
		return -1;
	}
	r->board = in->first_board - 1;
	return 0;
}

static inline void
counting_end(struct dl_in *in, void *state)
{
	(void)in;
	free(state);
}

/* What a format of counted records knows: the deal of one record, read
 * into owner.  0, or -1 after in->fail. */
typedef int record_deal_read(struct dl_in *in, unsigned board, const unsigned char *record,
    unsigned char owner[DL_CARDS]);

/* read_board for a file of records of size bytes, a board each, that
 * numbers no boards (BER, BRI, DGE, and KOPS after its header): the
 * next record, read into record[0..size), its deal by deal_read; a board
 * deal_finish passes over (--partial) is not returned, the next one is.
 * Boards count in *r from the host's first board.  1, 0 at the end of the
 * file, -1 after in->fail. */
static inline int
counted_records_read_board(struct dl_in *in, struct dl_board_in *board, struct counting *r,
    unsigned char *record, size_t size, record_deal_read *deal_read)
{
	int got;

	for (;;) {
		r->board++;
		if ((got = read_record(in, r->board, record, size)) != 1)
			return got;
		if (deal_read(in, r->board, record, board->owner) == -1)
			return -1;
		if ((got = deal_finish(in, r->board, board->owner)) != 0)
			return got;
	}
}

/* Whether bytes[0..len) all equal c. */
static inline int
all_bytes(const unsigned char *bytes, size_t len, unsigned char c)
{
	for (size_t i = 0; i < len; i++)
		if (bytes[i] != c)
			return 0;
	return 1;
}

/* Every seat holds 13 of the 52 seat numbers seats[0..51] (sniffing). */
static inline int
thirteen_each(const unsigned char seats[DL_CARDS])
{
	unsigned held[4] = { 0 };

	for (unsigned c = 0; c < DL_CARDS; c++) {
		if (seats[c] > DL_WEST)
			return 0;
		held[seats[c]]++;
	}
	return held[0] == 13 && held[1] == 13 && held[2] == 13 && held[3] == 13;
}

/* The line of head[0..len) beginning at *pos, without its line end (LF,
 * CR LF): its start and *linelen; *pos moves past it.  NULL when no whole
 * line is left (sniffing sees only the file's beginning). */
static inline const unsigned char *
head_line(const unsigned char *head, size_t len, size_t *pos, size_t *linelen)
{
	const unsigned char *start = head + *pos;
	const unsigned char *lf;

	if (*pos >= len || (lf = memchr(start, '\n', len - *pos)) == NULL)
		return NULL;
	*linelen = (size_t)(lf - start);
	if (*linelen > 0 && start[*linelen - 1] == '\r')
		(*linelen)--;
	*pos = (size_t)(lf - head) + 1;
	return start;
}

/* The deals already returned, for formats that may hold a board more than
 * once (a PBN or LIN file of results gives the deal for every table that
 * played it).  A window of board numbers, direct-mapped, so that memory
 * stays bounded however long the file: board b is remembered until a
 * board b + k * BOARDS_SEEN_SLOTS replaces it.  Each deal packed in 13
 * bytes, 2 bits a card; its dealer and vulnerability beside it (in what
 * would be the entry's padding), since a table's copy that gives another
 * says two things about the board as surely as another deal does. */
#define BOARDS_SEEN_SLOTS 65536u

struct board_entry {
	unsigned board;			/* 0: an empty slot */
	unsigned char packed[13];
	signed char dealer, vulnerability;	/* -1: no copy has said */
};

struct boards_seen {
	struct board_entry *slots;	/* BOARDS_SEEN_SLOTS, allocated at first use */
};

static inline void
deal_pack(const unsigned char owner[DL_CARDS], unsigned char packed[13])
{
	memset(packed, 0, 13);
	for (unsigned c = 0; c < DL_CARDS; c++)
		packed[c / 4] |= (unsigned char)((owner[c] & 3) << (2 * (c % 4)));
}

enum board_seen {
	BOARD_NEW,		/* not remembered; it is from now on */
	BOARD_SAME,		/* the same deal, dealer and vulnerability */
	BOARD_OTHER_DEAL,	/* another deal */
	BOARD_OTHER_DEALER,	/* the same deal, another dealer or vulnerability */
};

/* Whether board (not 0) is remembered, and how this copy compares; -1
 * out of memory.  dealer and vulnerability are -1 when this copy does not
 * say; a copy that says nothing agrees with any, and what a later copy
 * says is remembered for the copies after it. */
static inline int
boards_seen_add(struct boards_seen *seen, unsigned board, const unsigned char owner[DL_CARDS],
    int dealer, int vulnerability)
{
	unsigned char packed[13];
	struct board_entry *slot;

	if (seen->slots == NULL &&
	    (seen->slots = calloc(BOARDS_SEEN_SLOTS, sizeof *seen->slots)) == NULL)
		return -1;
	slot = &seen->slots[board % BOARDS_SEEN_SLOTS];
	deal_pack(owner, packed);
	if (slot->board != board) {
		slot->board = board;
		memcpy(slot->packed, packed, sizeof packed);
		slot->dealer = (signed char)dealer;
		slot->vulnerability = (signed char)vulnerability;
		return BOARD_NEW;
	}
	if (memcmp(slot->packed, packed, sizeof packed) != 0)
		return BOARD_OTHER_DEAL;
	if ((dealer != -1 && slot->dealer != -1 && dealer != slot->dealer) ||
	    (vulnerability != -1 && slot->vulnerability != -1 &&
	    vulnerability != slot->vulnerability))
		return BOARD_OTHER_DEALER;
	if (slot->dealer == -1)
		slot->dealer = (signed char)dealer;
	if (slot->vulnerability == -1)
		slot->vulnerability = (signed char)vulnerability;
	return BOARD_SAME;
}

static inline void
boards_seen_free(struct boards_seen *seen)
{
	free(seen->slots);
	seen->slots = NULL;
}

/* What a refusal that DL_IN_RENUMBER would lift adds when the host offers
 * it (DL_IN_OFFER_RENUMBER), in words dl-read's own refusals use. */
#define RENUMBER_HINT "--renumber numbers the boards 1, 2, ... as they come"

static inline const char *
renumber_hint(const struct dl_in *in)
{
	return in->flags & DL_IN_OFFER_RENUMBER ? " (" RENUMBER_HINT ")" : "";
}

/* Under DL_IN_RENUMBER a board number is a label, which sets numbered
 * alike give to several deals: a board is the one before again only when
 * its label and its deal are both the same (another table's copy).  The
 * last LABELS_SEEN_MAX boards are remembered, each label with each of its
 * deals, in the order first seen (a ring, the oldest forgotten first),
 * found again through a keyed hash of label and deal: 2.25 MiB at most,
 * however long the file.  A label is the board number, or a hash of a
 * label that is no number, its top bit set (label_of_text). */
#define LABELS_SEEN_MAX 65536u

struct label_entry {
	uint64_t label;
	unsigned char packed[13];
	signed char dealer, vulnerability;	/* -1: no copy has said */
	uint32_t next;		/* the next entry of its bucket, + 1; 0: none */
};

struct labels_seen {
	struct label_entry *ring;	/* LABELS_SEEN_MAX, allocated at first use */
	uint32_t *buckets;	/* LABELS_SEEN_MAX: the first entry, + 1; 0: none */
	unsigned long added;	/* entries ever added */
	uint64_t key;		/* label_bucket's, random */
};

/* A label that is no board number ("1-1", "spacer"), as a label: FNV-1a
 * of its bytes, the top bit set so that no board number is the same. */
static inline uint64_t
label_of_text(const char *text, size_t len)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
	return h | 1ull << 63;
}

/* splitmix64's finalizer: every bit of x stirred into every bit. */
static inline uint64_t
mix64(uint64_t x)
{
	x = (x ^ x >> 30) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ x >> 27) * 0x94d049bb133111ebull;
	return x ^ x >> 31;
}

/* The bucket of a label and deal, under the table's key: a file made to
 * fill one bucket (every lookup a walk of the whole ring) would need the
 * key, which is random, so the time stays linear; the boards read do not
 * depend on it. */
static inline uint32_t
label_bucket(uint64_t key, uint64_t label, const unsigned char packed[13])
{
	uint64_t a = 0, b = 0;

	memcpy(&a, packed, 8);
	memcpy(&b, packed + 8, 5);
	return (uint32_t)(mix64(mix64(mix64(label ^ key) ^ a) ^ b) % LABELS_SEEN_MAX);
}

static inline void
labels_seen_free(struct labels_seen *seen)
{
	free(seen->ring);
	free(seen->buckets);
	seen->ring = NULL;
	seen->buckets = NULL;
}

/* Whether label (not 0) came before with this deal, and how this copy
 * compares (BOARD_NEW, BOARD_SAME, BOARD_OTHER_DEALER, as
 * boards_seen_add; never BOARD_OTHER_DEAL); -1 out of memory. */
static inline int
labels_seen_add(struct labels_seen *seen, uint64_t label, const unsigned char owner[DL_CARDS],
    int dealer, int vulnerability)
{
	unsigned char packed[13];
	struct label_entry *e;
	uint32_t bucket, i;

	if (seen->ring == NULL) {
		seen->ring = calloc(LABELS_SEEN_MAX, sizeof *seen->ring);
		seen->buckets = calloc(LABELS_SEEN_MAX, sizeof *seen->buckets);
		if (seen->ring == NULL || seen->buckets == NULL) {
			labels_seen_free(seen);
			return -1;
		}
		if (getrandom(&seen->key, sizeof seen->key, GRND_NONBLOCK) != sizeof seen->key)
			seen->key = mix64((uint64_t)(uintptr_t)seen->ring);
	}
	deal_pack(owner, packed);
	bucket = label_bucket(seen->key, label, packed);
	for (i = seen->buckets[bucket]; i != 0; i = seen->ring[i - 1].next) {
		e = &seen->ring[i - 1];
		if (e->label != label || memcmp(e->packed, packed, sizeof packed) != 0)
			continue;
		if ((dealer != -1 && e->dealer != -1 && dealer != e->dealer) ||
		    (vulnerability != -1 && e->vulnerability != -1 &&
		    vulnerability != e->vulnerability))
			return BOARD_OTHER_DEALER;
		if (e->dealer == -1)
			e->dealer = (signed char)dealer;
		if (e->vulnerability == -1)
			e->vulnerability = (signed char)vulnerability;
		return BOARD_SAME;
	}
	/* the oldest entry's place, unlinked from its bucket once the ring is full */
	i = (uint32_t)(seen->added % LABELS_SEEN_MAX);
	e = &seen->ring[i];
	if (seen->added >= LABELS_SEEN_MAX) {
		uint32_t *link = &seen->buckets[label_bucket(seen->key, e->label, e->packed)];
		while (*link != i + 1)
			link = &seen->ring[*link - 1].next;
		*link = e->next;
	}
	e->label = label;
	memcpy(e->packed, packed, sizeof packed);
	e->dealer = (signed char)dealer;
	e->vulnerability = (signed char)vulnerability;
	e->next = seen->buckets[bucket];
	seen->buckets[bucket] = i + 1;
	seen->added++;
	return BOARD_NEW;
}

#endif
