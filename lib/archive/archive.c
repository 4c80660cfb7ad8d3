/* The archive (deal_archive.h): what every backend shares, the hands' keys, the
 * matching of a board against the deals archived, and adding a set in one
 * transaction. */
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "archive/deal_archive.h"
#include "archive/backend.h"
#include "dl/plugin.h"
#include "archive/event_key.h"
#include "stream/proto.h"
#include "base/util.h"

void
archive_set_clear(struct archive_set *set)
{
	free(set->event);
	free(set->site);
	free(set->date);
	free(set->generator);
	free(set->headers);
	free(set->source);
	free(set->user);
	free(set->dv);
	free(set->club);
	free(set->played_by);
	set->event = set->site = set->date = set->generator = NULL;
	set->headers = set->source = set->user = set->dv = NULL;
	set->club = set->played_by = NULL;
}

char *
archive_headers_text(char *const *headers, size_t n)
{
	size_t total = 1, at = 0;
	char *text;

	for (size_t i = 0; i < n; i++)
		total += strlen(headers[i]) + 1;
	text = xmalloc(total);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(headers[i]);

		/* another archive's record of the set (export.c) is no header
		 * of its stream: this archive keeps a record of its own */
		if (archive_record_header(headers[i]))
			continue;

		memcpy(text + at, headers[i], len);
		at += len;
		text[at++] = '\n';
	}
	text[at] = '\0';
	return text;
}

/* struct archive_set's dv: a seat's letter and a vulnerability's digit */
static const char dv_seats[] = DL_SEAT_LETTERS;

char *
set_dv_from_column(const char *text, unsigned boards)
{
	/* a row whose dv is not a seat and a vulnerability a board was not
	 * written by dl: its boards are read as their numbers' */
	if (text == NULL || strlen(text) != 2 * (size_t)boards)
		return NULL;
	for (size_t i = 0; i < boards; i++)
		if (text[2 * i] == '\0' || strchr(dv_seats, text[2 * i]) == NULL ||
		    text[2 * i + 1] < '0' || text[2 * i + 1] > '3')
			return NULL;
	return xstrdup(text);
}

void
column_copy(char *dst, size_t size, const char *src)
{
	if (src != NULL && strlen(src) < size)
		memcpy(dst, src, strlen(src) + 1);
	else
		strlcpy(dst, "!", size);
}

static int
damaged(struct archive *a, const char *what, int64_t id, const char *why, struct dl_error *e)
{
	return dl_error_set(e, DL_ERR_INPUT, "%s: %s %lld: damaged (%s)", a->name, what,
	    (long long)id, why);
}

/* One line of printable UTF-8, as a header's value must be. */
static int
text_is_line(const char *text)
{
	return text == NULL || header_value_is_valid(text);
}

/* "2026-11-25T20:30:00Z", as archive_now writes. */
static int
time_is_valid(const char *t)
{
	static const char form[] = "9999-99-99T99:99:99Z";

	for (size_t i = 0; i < sizeof form; i++)
		if (form[i] == '9' ? !(t[i] >= '0' && t[i] <= '9') : t[i] != form[i])
			return 0;
	return 1;
}

/* Header lines but #P:, "#K: value" each with its LF, as
 * archive_headers_text joins them: what export writes into a stream. */
static int
headers_are_valid(const char *headers)
{
	const char *line = headers;
	int ok = 1;

	if (headers == NULL)
		return 1;
	while (ok && *line != '\0') {
		const char *end = strchr(line, '\n');
		char *value;

		if (end == NULL)
			return 0;
		ok = line[0] == '#' && line[1] >= 'A' && line[1] <= 'Z' && line[1] != 'P' &&
		    line[2] == ':' && line[3] == ' ' && end - line >= 4;
		if (ok) {
			value = xstrndup(line + 4, (size_t)(end - line - 4));
			ok = header_value_is_valid(value);
			free(value);
		}
		line = end + 1;
	}
	return ok;
}

static void
printable_or_escaped(char **text)
{
	char *escaped;

	if (*text == NULL || text_is_line(*text))
		return;
	escaped = text_escaped(*text);
	free(*text);
	*text = escaped;
}

int
archive_deal_row_check(struct archive *a, const struct deal_row *row, struct dl_error *e)
{
	if (row->id < 1)
		return damaged(a, "deal", row->id, "not a deal's number", e);
	/* a shared archive's candidate comes with its set, not its board
	 * (backend.h) */
	if ((row->board < 1 && !(a->ops->shared && row->set > 0 && row->board == 0)) ||
	    row->board > BOARD_MAX)
		return damaged(a, "deal", row->id, "its board number", e);
	/* a number past the last deal would fault deal_from_number */
	if (deal_number_from_bytes(row->number) >= DEAL_COUNT)
		return damaged(a, "deal", row->id, "its deal number is past the last deal", e);
	if (row->set < 0)
		return damaged(a, "deal", row->id, "its set's number", e);
	if (!text_is_line(row->set_event) || !text_is_line(row->set_date) ||
	    !text_is_line(row->set_club))
		return damaged(a, "deal", row->id, "its set's text is not one line of printable"
		    " UTF-8", e);
	return 0;
}

int
archive_set_row_check(struct archive *a, const struct archive_set *set, struct dl_error *e)
{
	const char *why = archive_set_fault(set);

	return why != NULL ? damaged(a, "set", set->id, why, e) : 0;
}

const char *
archive_set_fault(const struct archive_set *set)
{
	char fingerprint[SET_FINGERPRINT_SIZE];
	const char *why = NULL;

	set_fingerprint(set->digest, fingerprint);
	if (set->id < 1)
		why = "not a set's number";
	else if (set->boards < 1 || set->boards > BOARD_MAX || set->low < 1 ||
	    set->low > set->high || set->high > BOARD_MAX)
		why = "its boards";
	else if (set->first_deal < 1 || set->first_deal > INT64_MAX - (int64_t)set->boards)
		why = "its first deal";
	else if (strcmp(set->fingerprint, fingerprint) != 0)
		why = "its fingerprint is not its digest's";
	else if (!text_is_line(set->event) || !text_is_line(set->site) ||
	    !text_is_line(set->date) || !text_is_line(set->generator) ||
	    !text_is_line(set->source) || !text_is_line(set->user) ||
	    !text_is_line(set->club) || !text_is_line(set->played_by))
		why = "a text that is not one line of printable UTF-8";
	else if (!headers_are_valid(set->headers))
		why = "its header lines";
	else if (!time_is_valid(set->archived))
		why = "the time it was archived";
	else if (set->played[0] != '\0' && !time_is_valid(set->played))
		why = "the time it was played";
	else if (set->shared[0] != '\0' && !time_is_valid(set->shared))
		why = "the time it was shared";
	return why;
}

int
archive_event_key(struct event_keyer **k, const char *event, char **key, struct dl_error *e)
{
	if (*k == NULL && (*k = event_keyer_new(e)) == NULL)
		return -1;
	return event_key(*k, event, key, e);
}

int
archive_event_has_key(struct archive *a, struct event_keyer **k, const char *event,
    const char *key, struct dl_error *e)
{
	char *other;
	int same;

	if (event == NULL || !header_value_is_valid(event))
		return dl_error_set(e, DL_ERR_INPUT, "%s: a set's event: damaged (a text that is"
		    " not one line of printable UTF-8)", a->name);
	if (archive_event_key(k, event, &other, e) == -1)
		return -1;
	same = strcmp(other, key) == 0;
	free(other);
	return same;
}

/* The key of an event (allocated), with a keyer of its own: a key is
 * made before the archive's write lock is taken, since the first loads
 * ICU (docs/performance.md). */
static char *
key_of_event(const char *event, struct dl_error *e)
{
	struct event_keyer *k = NULL;
	char *key = NULL;

	archive_event_key(&k, event, &key, e);
	event_keyer_free(k);
	return key;
}

void
archive_set_board_dv(const struct archive_set *set, size_t index, unsigned board, int *dealer,
    int *vulnerability)
{
	const char *seat;

	*dealer = (int)dl_dealer(board);
	*vulnerability = (int)dl_vulnerability(board);
	/* dv is two characters for each of the set's boards
	 * (set_dv_from_column) */
	if (set->dv == NULL || index >= set->boards)
		return;
	seat = set->dv[2 * index] != '\0' ? strchr(dv_seats, set->dv[2 * index]) : NULL;
	if (seat != NULL && set->dv[2 * index + 1] >= '0' && set->dv[2 * index + 1] <= '3') {
		*dealer = (int)(seat - dv_seats);
		*vulnerability = set->dv[2 * index + 1] - '0';
	}
}

int
archive_shared_default(char **spec)
{
	const char *env = getenv("DL_SHARED_ARCHIVE");

	*spec = env != NULL && *env != '\0' ? xstrdup(env) : NULL;
	return 0;
}

int
archive_default(char **spec, struct dl_error *e)
{
	const char *env = getenv("DL_ARCHIVE"), *data, *home;

	if (env != NULL && *env != '\0')
		*spec = xstrdup(env);
	else if ((data = getenv("XDG_DATA_HOME")) != NULL && *data == '/')
		*spec = xasprintf("%s/dl/archive.sqlite", data);
	else if ((home = getenv("HOME")) != NULL && *home != '\0')
		*spec = xasprintf("%s/.local/share/dl/archive.sqlite", home);
	else
		return dl_error_set(e, DL_ERR_USAGE,
		    "no place for the archive: set HOME or DL_ARCHIVE, or give --db");
	return 0;
}

int
archive_open(struct archive **ap, const char *spec, unsigned flags, struct dl_error *e)
{
	struct archive *a = xcalloc(1, sizeof *a);
	int r;

	if (strncmp(spec, "postgresql://", 13) == 0 || strncmp(spec, "postgres://", 11) == 0)
		r = archive_postgres_open(a, spec, flags, e);
	else if (strncmp(spec, "pg:", 3) == 0)
		r = archive_postgres_open(a, spec + 3, flags, e);
	else
		r = archive_sqlite_open(a, spec, flags, e);
	if (r == -1) {
		free(a->name);
		free(a);
		*ap = NULL;
		return -1;
	}
	*ap = a;
	return 0;
}

void
archive_close(struct archive *a)
{
	if (a == NULL)
		return;
	a->ops->close(a);
	free(a->name);
	free(a);
}

const char *
archive_backend(const struct archive *a)
{
	return a->ops->name;
}

int
archive_is_shared(const struct archive *a)
{
	return a->ops->shared;
}

void
archive_hands(const unsigned char owner[CARDS], uint64_t hand[4])
{
	hand[0] = hand[1] = hand[2] = hand[3] = 0;
	for (unsigned c = 0; c < CARDS; c++)
		hand[owner[c] & 3] |= (uint64_t)1 << c;
}

uint32_t
archive_hand_key(uint64_t hand)
{
	unsigned char in[7], out[8];

	for (unsigned i = 0; i < sizeof in; i++)
		in[i] = (unsigned char)(hand >> (8 * i));
	crypto_generichash(out, sizeof out, in, sizeof in, NULL, 0);
	return (uint32_t)out[0] | (uint32_t)out[1] << 8 | (uint32_t)out[2] << 16 |
	    (uint32_t)out[3] << 24;
}

void
archive_halves(const uint64_t hand[4], uint64_t half[3])
{
	const uint64_t all = ((uint64_t)1 << CARDS) - 1;

	/* the half holding card 0, whichever seats hold it: the same halves
	 * at any seats give the same three */
	for (unsigned t = 1; t < 4; t++) {
		uint64_t h = hand[0] | hand[t];

		half[t - 1] = h & 1 ? h : all ^ h;
	}
}

uint32_t
archive_half_key(uint64_t half)
{
	unsigned char in[8], out[8];

	/* eight bytes where a hand's key hashes seven: the two kinds of key
	 * are independent, and share the index */
	for (unsigned i = 0; i < 7; i++)
		in[i] = (unsigned char)(half >> (8 * i));
	in[7] = 'h';
	crypto_generichash(out, sizeof out, in, sizeof in, NULL, 0);
	return (uint32_t)out[0] | (uint32_t)out[1] << 8 | (uint32_t)out[2] << 16 |
	    (uint32_t)out[3] << 24;
}

void
archive_deal_keys(const uint64_t hand[4], uint32_t key[ARCHIVE_KEYS])
{
	uint64_t half[3];

	for (unsigned s = 0; s < 4; s++)
		key[s] = archive_hand_key(hand[s]);
	archive_halves(hand, half);
	for (unsigned t = 0; t < 3; t++)
		key[4 + t] = archive_half_key(half[t]);
}

/* The keys a deal is indexed and looked up by: a club's archive, its
 * hands' and halves'; a shared one, its hands' alone.  A half links two
 * hands: asked of a shared archive, the halves' prefixes would let an
 * operator in league with a player, who knows his own hand, narrow a
 * board checked to a few deals (docs/archive.md, "Checks at scale"). */
static unsigned
keys_a_deal(const struct archive *a)
{
	return a->ops->shared ? 4 : ARCHIVE_KEYS;
}

/* The key as stored: the top bit flipped, so that a signed 32-bit column
 * orders keys as unsigned numbers and holds them in four bytes. */
static int32_t
stored_key(uint32_t key)
{
	return (int32_t)(key ^ 0x80000000u);
}

char *
archive_user(void)
{
	const char *remote = getenv("REMOTE_USER");
	struct passwd *pw;

	if (remote != NULL && *remote != '\0')
		return xstrdup(remote);
	if ((pw = getpwuid(getuid())) != NULL)
		return xstrdup(pw->pw_name);
	return xasprintf("uid %lu", (unsigned long)getuid());
}

/* SOURCE_DATE_EPOCH, the reproducible-builds convention, stands for now
 * where it is set: the tests' archives are then the same every run. */
void
archive_now(char when[ARCHIVE_TIME_SIZE])
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH"), *errstr = NULL;
	time_t now = epoch != NULL ? (time_t)strtonum(epoch, 0, 253402300799LL, &errstr) : 0;
	struct tm tm;

	if (epoch == NULL || errstr != NULL)
		now = time(NULL);
	gmtime_r(&now, &tm);
	strftime(when, ARCHIVE_TIME_SIZE, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Adding.  A set's deals go in as they come, ADD_CHUNK at a time, in the
 * order of their ids, which appends them to their table.  Its hands are
 * held until the commit and go in sorted by key, all of them at once: in
 * key order they fill the index's pages one after another and each page
 * of an index already there is visited once, where sorting a chunk at a
 * time swept the whole index once a chunk (the pages falling out of the
 * cache once the index outgrew it, 74 000 deals/s on 10^7) and split its
 * pages half full (a larger file).  A hand is held in 8 bytes, its key
 * above its deal's place in the set, and the sort takes as much again:
 * 64 bytes a deal at the commit.  A set of more than ADD_SORTED deals goes
 * in as runs of that many, so that memory stays bounded (1 GiB). */
#define ADD_CHUNK 65536
#define ADD_SORTED ((size_t)1 << 24)

struct archive_add {
	struct archive *a;
	int begun;			/* in the archive's write transaction */
	/* the set's first deal; the next one's id; until begun, counted
	 * from 0 (the ids the archive gives are known once it is begun) */
	int64_t first, next;
	int64_t run;			/* the first deal of the hands held */
	struct set_digest digest;
	unsigned boards, low, high;
	struct deal_row *deals;
	size_t ndeals, capdeals;
	uint64_t *hands;		/* key << 32 | deal - run */
	size_t nhands, caphands;
	/* every board's dealer and vulnerability, two bytes a board as
	 * struct archive_set's dv (not flushed with the deals: the set's
	 * row takes them), and whether some are not their numbers' */
	char *dv;
	size_t capdv;
	int own_dv;
};

/* The write transaction is begun only when rows must go in: at the
 * commit, or when a chunk is full.  A session's deals are held until its
 * commit, so that the archive's lock is not held while they are dealt,
 * written and analysed (seconds with the analysis, when every other
 * dealer, dl-web's requests above all, would wait for it). */
int
archive_add_begin(struct archive *a, struct archive_add **addp, struct dl_error *e)
{
	struct archive_add *add = xcalloc(1, sizeof *add);

	(void)e;
	add->a = a;
	set_digest_init(&add->digest);
	*addp = add;
	return 0;
}

/* The transaction begun, and the ids held so far moved from 0 to those
 * the archive gives. */
static int
add_transaction(struct archive_add *add, struct dl_error *e)
{
	int64_t first;

	if (add->begun)
		return 0;
	if (add->a->ops->write_begin(add->a, &first, e) == -1)
		return -1;
	add->begun = 1;
	for (size_t i = 0; i < add->ndeals; i++)
		add->deals[i].id += first;
	add->first += first;
	add->next += first;
	add->run += first;
	return 0;
}

int
archive_add_count_event(struct archive_add *add, const char *event, int64_t *n,
    struct dl_error *e)
{
	char *key = key_of_event(event, e);
	int r;

	if (key == NULL)
		return -1;
	r = add_transaction(add, e) == -1 ? -1 : add->a->ops->count_event(add->a, key, n, e);
	free(key);
	return r;
}

/* The hands sorted by key, the order of their deals kept among equal keys
 * (the index's order, key then deal): a radix sort, three stable passes
 * of 11, 11 and 10 bits of the key.  Returns the sorted array; the other
 * is wiped and freed (the keys of a set not yet played are its secrets
 * as its deals are). */
static uint64_t *
sort_hands(uint64_t *v, size_t n)
{
	uint64_t *from = v, *to = xreallocarray(NULL, n ? n : 1, sizeof *to), *swap;

	for (unsigned shift = 32; shift < 64; shift += 11) {
		size_t place[2048] = { 0 }, sum = 0;

		for (size_t i = 0; i < n; i++)
			place[from[i] >> shift & 2047]++;
		for (unsigned d = 0; d < 2048; d++) {
			size_t c = place[d];

			place[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			to[place[from[i] >> shift & 2047]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	sodium_memzero(to, n * sizeof *to);
	free(to);
	return from;
}

static int
flush_deals(struct archive_add *add, struct dl_error *e)
{
	struct archive *a = add->a;

	if (add->ndeals == 0)
		return 0;
	if (add_transaction(add, e) == -1 ||
	    a->ops->put_deals(a, add->deals, add->ndeals, e) == -1)
		return -1;
	add->ndeals = 0;
	return 0;
}

/* The hands held, sorted, into the index.  Two hands of one deal whose
 * keys are the same (a chance of 6 in 2^32 a deal) make one row: the row
 * is the deal's under that key, and a look-up compares all four hands. */
static int
flush_hands(struct archive_add *add, struct dl_error *e)
{
	struct archive *a = add->a;
	struct hand_row *rows;
	size_t n = 0, cap;
	int r = 0;

	if (add->nhands == 0)
		return 0;
	if (add_transaction(add, e) == -1)
		return -1;
	add->hands = sort_hands(add->hands, add->nhands);
	add->caphands = add->nhands;
	/* as many rows as there are hands, up to a batch: a session's 128
	 * rows are not a 4 MB block to fault in and wipe */
	cap = add->nhands < ARCHIVE_KEYS * ADD_CHUNK ? add->nhands : ARCHIVE_KEYS * ADD_CHUNK;
	rows = xreallocarray(NULL, cap, sizeof *rows);
	for (size_t i = 0; i < add->nhands && r == 0; i++) {
		if (i > 0 && add->hands[i] == add->hands[i - 1])
			continue;
		rows[n].key = stored_key((uint32_t)(add->hands[i] >> 32));
		rows[n].deal = add->run + (int64_t)(add->hands[i] & 0xffffffffu);
		if (++n == cap) {
			r = a->ops->put_hands(a, rows, n, e);
			n = 0;
		}
	}
	if (r == 0 && n > 0)
		r = a->ops->put_hands(a, rows, n, e);
	sodium_memzero(rows, cap * sizeof *rows);
	free(rows);
	add->nhands = 0;
	add->run = add->next;
	return r;
}

/* Schema 6's index of halves, for the deals already archived. */
struct halves_chunk {
	struct hand_row *rows;
	size_t n;
};

static int
halves_of_deal(const struct deal_row *row, void *arg)
{
	struct halves_chunk *h = arg;
	unsigned char owner[CARDS];
	uint64_t hand[4], half[3];

	deal_from_number(deal_number_from_bytes(row->number), owner);
	archive_hands(owner, hand);
	archive_halves(hand, half);
	for (unsigned t = 0; t < 3; t++) {
		h->rows[h->n].key = stored_key(archive_half_key(half[t]));
		h->rows[h->n++].deal = row->id;
	}
	return 0;
}

static int
hand_row_order(const void *pa, const void *pb)
{
	const struct hand_row *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->deal > b->deal) - (a->deal < b->deal);
}

int
archive_index_halves(struct archive *a, struct dl_error *e)
{
	struct halves_chunk h = { xreallocarray(NULL, 3 * ADD_CHUNK, sizeof *h.rows), 0 };
	int r = 0;

	/* deals have ids from 1 without gaps (the writer gives the next);
	 * a chunk at a time, its keys in order as an add puts them */
	for (int64_t first = 1; r == 0; first += ADD_CHUNK) {
		h.n = 0;
		if ((r = a->ops->deals(a, first, first + ADD_CHUNK - 1, halves_of_deal, &h, e)) != 0 ||
		    h.n == 0)
			break;
		qsort(h.rows, h.n, sizeof *h.rows, hand_row_order);
		r = a->ops->put_hands(a, h.rows, h.n, e);
	}
	sodium_memzero(h.rows, 3 * ADD_CHUNK * sizeof *h.rows);
	free(h.rows);
	return r == -1 ? -1 : 0;
}

int
archive_add_board(struct archive_add *add, unsigned board, const unsigned char owner[CARDS],
    int dealer, int vulnerability, struct dl_error *e)
{
	struct deal_row *d;
	uint64_t hand[4];
	uint32_t key[ARCHIVE_KEYS];

	if (dealer < 0 || dealer > 3)
		dealer = (int)dl_dealer(board);
	if (vulnerability < 0 || vulnerability > 3)
		vulnerability = (int)dl_vulnerability(board);
	if (dealer != (int)dl_dealer(board) || vulnerability != (int)dl_vulnerability(board))
		add->own_dv = 1;
	if (2 * ((size_t)add->boards + 1) + 1 > add->capdv) {
		size_t cap = add->capdv ? 2 * add->capdv : 2 * 64 + 1;

		add->dv = xreallocarray(add->dv, cap, 1);
		add->capdv = cap;
	}
	add->dv[2 * add->boards] = dv_seats[dealer];
	add->dv[2 * add->boards + 1] = (char)('0' + vulnerability);
	add->dv[2 * add->boards + 2] = '\0';

	if (add->ndeals == add->capdeals) {
		size_t cap = add->capdeals ? 2 * add->capdeals : 64;

		add->deals = grow_wiped(add->deals, add->ndeals, add->capdeals, cap,
		    sizeof *add->deals);
		add->capdeals = cap;
	}
	d = &add->deals[add->ndeals];
	d->id = add->next++;
	d->board = board;
	deal_number_to_bytes(number_from_deal(owner), d->number);
	archive_hands(owner, hand);
	archive_deal_keys(hand, key);
	if (add->nhands + ARCHIVE_KEYS > add->caphands) {
		size_t cap = add->caphands ? 2 * add->caphands : ARCHIVE_KEYS * 64;

		add->hands = grow_wiped(add->hands, add->nhands, add->caphands, cap,
		    sizeof *add->hands);
		add->caphands = cap;
	}
	for (unsigned k = 0; k < keys_a_deal(add->a); k++)
		add->hands[add->nhands++] = (uint64_t)key[k] << 32 | (uint64_t)(d->id - add->run);
	add->ndeals++;
	set_digest_add(&add->digest, board, owner);
	if (add->boards == 0 || board < add->low)
		add->low = board;
	if (add->boards == 0 || board > add->high)
		add->high = board;
	add->boards++;
	if (add->ndeals == ADD_CHUNK && flush_deals(add, e) == -1)
		return -1;
	if (add->nhands >= keys_a_deal(add->a) * ADD_SORTED && (flush_deals(add, e) == -1 ||
	    flush_hands(add, e) == -1))
		return -1;
	return 0;
}

/* The deals of a set not yet played are secrets: wiped before freed. */
static void
add_free(struct archive_add *add)
{
	if (add->deals != NULL)
		sodium_memzero(add->deals, add->capdeals * sizeof *add->deals);
	if (add->hands != NULL)
		sodium_memzero(add->hands, add->caphands * sizeof *add->hands);
	free(add->deals);
	free(add->hands);
	free(add->dv);
	free(add);
}

void
archive_add_abort(struct archive_add *add)
{
	if (add == NULL)
		return;
	if (add->begun)
		add->a->ops->write_rollback(add->a);
	add_free(add);
}

int
archive_add_commit(struct archive_add *add, struct archive_set *set, int64_t *existing,
    struct dl_error *e)
{
	struct archive *a = add->a;
	struct archive_set old = { 0 };
	char *key = NULL;
	int found;

	*existing = 0;
	if (add->boards == 0) {
		archive_add_abort(add);
		return dl_error_set(e, DL_ERR_INPUT, "no boards");
	}
	/* a shared archive's operator sees what it holds: a set goes there
	 * whole only once it was played (docs/archive.md, "Privacy") */
	if (a->ops->shared && set->played[0] == '\0') {
		archive_add_abort(add);
		return dl_error_set(e, DL_ERR_USAGE, "%s takes a set only once it was played:"
		    " add it with --played after its session", a->name);
	}
	/* what dl writes it must read back (archive_set_row_check): a
	 * file's name and a web server's user are anyone's bytes, kept
	 * escaped when they are not one line of printable text; the texts
	 * a stream or a reader gave are checked already */
	printable_or_escaped(&set->source);
	printable_or_escaped(&set->user);
	printable_or_escaped(&set->played_by);
	if (!text_is_line(set->event) || !text_is_line(set->site) || !text_is_line(set->date) ||
	    !text_is_line(set->generator) || !headers_are_valid(set->headers) ||
	    (set->club != NULL && !archive_club_is_valid(set->club))) {
		dl_error_set(e, DL_ERR_INPUT, "a set's description that is not lines of printable"
		    " UTF-8");
		goto fail;
	}
	/* its event's key, before the write lock is taken */
	if (set->event != NULL && (key = key_of_event(set->event, e)) == NULL)
		goto fail;
	/* the look-up of the digest and the set's rows in one transaction:
	 * nobody adds the same set in between */
	if (add_transaction(add, e) == -1)
		goto fail;
	set_digest_final(&add->digest, set->digest);
	set_fingerprint(set->digest, set->fingerprint);
	set->first_deal = add->first;
	set->boards = add->boards;
	set->low = add->low;
	set->high = add->high;
	/* a set moved from another archive keeps the time it was archived
	 * there (dl-archive import) */
	if (set->archived[0] == '\0')
		archive_now(set->archived);
	free(set->dv);
	set->dv = add->own_dv ? xstrdup(add->dv) : NULL;
	found = a->ops->set_by_digest(a, set->digest, &old, e);
	if (found == -1)
		goto fail;
	if (found == 1) {
		/* the same set again: nothing of this add stays */
		*existing = set->id = old.id;
		archive_set_clear(&old);
		free(key);
		archive_add_abort(add);
		return 0;
	}
	/* counted in the transaction that adds the set: no other set of
	 * the event can come between the count and the set */
	if (set->event_place != 0) {
		int64_t before;

		if (set->event == NULL) {
			dl_error_set(e, DL_ERR_USAGE, "a set's place in its event, but no event");
			goto fail;
		}
		if (a->ops->count_event(a, key, &before, e) == -1)
			goto fail;
		if (before + 1 != set->event_place) {
			dl_error_set(e, DL_ERR_CHECK, "%s holds %lld sets of the event, not %lld:"
			    " another came in meanwhile", a->name, (long long)before,
			    (long long)set->event_place - 1);
			goto fail;
		}
	}
	if (flush_deals(add, e) == -1 || flush_hands(add, e) == -1 ||
	    a->ops->put_set(a, set, key, e) == -1 ||
	    a->ops->write_commit(a, e) == -1)
		goto fail;
	free(key);
	add_free(add);
	return 0;
fail:
	free(key);
	archive_add_abort(add);
	return -1;
}

/* What each match is called and means: two hands the same never come by
 * chance (about 10^-20 a pair of deals), one hand does (about 0.8 a
 * session against 10^9 deals): docs/archive.md has the arithmetic. */
static const struct archive_match_kind match_kinds[ARCHIVE_MATCHES] = {
	[ARCHIVE_SAME] = { "same deal", "the same deal", 1, 1 },
	[ARCHIVE_ROTATED] = { "same deal turned", "the same deal, turned round the table", 1, 1 },
	[ARCHIVE_PERMUTED] = { "same hands", "the same four hands, at other seats", 1, 1 },
	[ARCHIVE_TWO_HANDS] = { "two hands", "two hands the same", 1, 0 },
	[ARCHIVE_NEAR] = { "near deal", "the same deal but for two exchanges of cards", 1, 0 },
	[ARCHIVE_ONE_HAND] = { "one hand", "one hand the same", 0, 0 },
};

const struct archive_match_kind *
archive_match_kind(enum archive_match match)
{
	return &match_kinds[match < ARCHIVE_MATCHES ? match : ARCHIVE_ONE_HAND];
}

void
archive_verdict_add(struct archive_verdict *v, size_t board, const struct archive_hit *hit)
{
	if (!archive_match_kind(hit->match)->dealt_before)
		return;
	/* a board's hits come together: counted once */
	if (v->last != board + 1)
		v->dealt_before++;
	v->last = board + 1;
}

/* Matching.  A hit is a pair of a board asked about and an archived deal
 * that share at least one hand, or a half (two hands' cards): which
 * hands, and at which seats, says how they match. */

/* A deal with one hand the same, or none but a half: the fewest cards at
 * other seats, each hand of mine taken as one of theirs, over the 24 ways
 * of taking them.  At most ARCHIVE_NEAR_CARDS is a near deal, seat[s] the
 * seat of theirs that hand s of mine was, + 4 when it changed; else one
 * hand the same (seat[] as found), or, with none, no hit at all: halves
 * the same with many cards exchanged within each are not rare enough to
 * say (docs/archive.md). */
static enum archive_match
near_or_not(const uint64_t mine[4], const uint64_t theirs[4], unsigned same, int seat[4])
{
	unsigned best = CARDS + 1, map[4], best_map[4] = { 0, 1, 2, 3 };

	for (map[0] = 0; map[0] < 4; map[0]++)
		for (map[1] = 0; map[1] < 4; map[1]++)
			for (map[2] = 0; map[2] < 4; map[2]++) {
				unsigned moved = 0;

				if (map[1] == map[0] || map[2] == map[0] || map[2] == map[1])
					continue;
				map[3] = 6 - map[0] - map[1] - map[2];
				for (unsigned s = 0; s < 4; s++)
					moved += (unsigned)__builtin_popcountll(mine[s] &
					    ~theirs[map[s]]);
				if (moved < best) {
					best = moved;
					memcpy(best_map, map, sizeof map);
				}
			}
	if (best > ARCHIVE_NEAR_CARDS)
		return same == 1 ? ARCHIVE_ONE_HAND : ARCHIVE_MATCHES;
	for (unsigned s = 0; s < 4; s++)
		seat[s] = (int)best_map[s] + (mine[s] == theirs[best_map[s]] ? 0 : 4);
	return ARCHIVE_NEAR;
}

static enum archive_match
classify(const uint64_t mine[4], const uint64_t theirs[4], int seat[4])
{
	unsigned same = 0, rotation;
	int rotated = 1;

	for (unsigned s = 0; s < 4; s++) {
		seat[s] = -1;
		for (unsigned t = 0; t < 4; t++)
			if (mine[s] == theirs[t])
				seat[s] = (int)t;
		same += seat[s] != -1;
	}
	if (same == 4) {
		rotation = (unsigned)seat[0];
		for (unsigned s = 0; s < 4; s++)
			if ((unsigned)seat[s] != (s + rotation) % 4)
				rotated = 0;
		if (rotated)
			return rotation == 0 ? ARCHIVE_SAME : ARCHIVE_ROTATED;
		return ARCHIVE_PERMUTED;
	}
	/* three hands the same make the fourth the same too */
	if (same == 2)
		return ARCHIVE_TWO_HANDS;
	return near_or_not(mine, theirs, same, seat);
}

/* A board's hands as looked up: its prefix, and which board and seat. */
struct asked {
	uint32_t prefix;
	size_t board;
};

struct check {
	struct archive *a;
	const unsigned char (*owner)[CARDS];
	uint64_t (*hands)[4];
	uint64_t (*halves)[3];		/* archive_halves */
	struct asked *asked;		/* by prefix */
	size_t nasked;
	/* the boards' hands and halves by their cards, open addressing (a
	 * hand is never 0, and never a half: 13 cards, not 26):
	 * a candidate's hands are found there whole, without hashing them
	 * again and searching the prefixes (a sixth of a look-up's time) */
	struct hand_slot {
		uint64_t hand;
		size_t board;
	} *slots;
	size_t mask;			/* the slots' number - 1 */
	unsigned shift;			/* 32 - the prefix's bits */
	int64_t skip_set;		/* the set whose deals are passed over */
	struct hit_entry {
		size_t board;
		struct archive_hit hit;
	} *hits;
	size_t nhits, caphits;
};

static int
asked_order(const void *pa, const void *pb)
{
	const struct asked *a = pa, *b = pb;

	if (a->prefix != b->prefix)
		return a->prefix < b->prefix ? -1 : 1;
	return (a->board > b->board) - (a->board < b->board);
}


/* A hit's set words kept past the call that gave them (copies). */
static void
hit_words_keep(struct archive_hit *hit, const char *event, const char *date, const char *club)
{
	hit->event = event != NULL ? xstrdup(event) : NULL;
	hit->date = date != NULL ? xstrdup(date) : NULL;
	hit->club = club != NULL ? xstrdup(club) : NULL;
}

/* Hits kept, their words freed, their deals (perhaps a set's not yet
 * played) wiped. */
static void
hits_free(struct hit_entry *hits, size_t n, size_t cap)
{
	for (size_t i = 0; i < n; i++) {
		free((char *)hits[i].hit.event);
		free((char *)hits[i].hit.date);
		free((char *)hits[i].hit.club);
	}
	if (hits != NULL)
		sodium_memzero(hits, cap * sizeof *hits);
	free(hits);
}
static void
add_hit(struct check *c, size_t board, const struct deal_row *row, const unsigned char owner[CARDS],
    const uint64_t theirs[4])
{
	struct hit_entry *h;
	int seat[4];
	enum archive_match match = classify(c->hands[board], theirs, seat);

	if (match == ARCHIVE_MATCHES)
		return;

	if (c->nhits == c->caphits) {
		c->caphits = c->caphits ? 2 * c->caphits : 64;
		c->hits = xreallocarray(c->hits, c->caphits, sizeof *c->hits);
	}
	h = &c->hits[c->nhits++];
	h->board = board;
	h->hit.match = match;
	memcpy(h->hit.seat, seat, sizeof seat);
	h->hit.deal = row->id;
	h->hit.set = row->set;
	h->hit.board = row->board;
	/* the set's words, as the candidate brought them: no query a hit */
	hit_words_keep(&h->hit, row->set_event, row->set_date, row->set_club);
	h->hit.shared = 0;
	memcpy(h->hit.owner, owner, CARDS);
}

/* Where a hand's search starts: Fibonacci hashing of its cards. */
static size_t
slot_of(const struct check *c, uint64_t hand)
{
	return (size_t)((hand * 0x9e3779b97f4a7c15u) >> 32) & c->mask;
}

static void
slots_make(struct check *c, size_t n)
{
	/* at most two thirds full: a miss probes three slots on average */
	size_t want = ARCHIVE_KEYS * n + ARCHIVE_KEYS * n / 2 + 2, size = 16;

	while (size < want)
		size *= 2;
	c->mask = size - 1;
	c->slots = xcalloc(size, sizeof *c->slots);
	for (size_t b = 0; b < n; b++)
		for (unsigned k = 0; k < keys_a_deal(c->a); k++) {
			uint64_t cards = k < 4 ? c->hands[b][k] : c->halves[b][k - 4];
			size_t i = slot_of(c, cards);

			while (c->slots[i].hand != 0)
				i = (i + 1) & c->mask;
			c->slots[i].hand = cards;
			c->slots[i].board = b;
		}
}

/* A candidate from the database: the boards asked about that hold one of
 * its hands or halves, found whole in the slots (a prefix, or a key,
 * shared by chance is no hit). */
static int
check_candidate(const struct deal_row *row, void *arg)
{
	struct check *c = arg;
	unsigned char owner[CARDS];
	uint64_t theirs[4], cards[ARCHIVE_KEYS];
	size_t first = c->nhits;

	if (c->skip_set != 0 && row->set == c->skip_set)
		return 0;
	deal_from_number(deal_number_from_bytes(row->number), owner);
	archive_hands(owner, theirs);
	memcpy(cards, theirs, sizeof theirs);
	archive_halves(theirs, cards + 4);
	/* a hand or a half the same is a key the same, so its prefix too; a
	 * board that shares several hands or halves with the deal is one hit
	 * of it (the same words: classify sees the whole deal), not one a
	 * key, which made an archived board's every candidate seven hits to
	 * sort and drop */
	for (unsigned k = 0; k < keys_a_deal(c->a); k++)
		for (size_t i = slot_of(c, cards[k]); c->slots[i].hand != 0; i = (i + 1) & c->mask) {
			size_t h = first;

			if (c->slots[i].hand != cards[k])
				continue;
			while (h < c->nhits && c->hits[h].board != c->slots[i].board)
				h++;
			if (h == c->nhits)
				add_hit(c, c->slots[i].board, row, owner, theirs);
		}
	return 0;
}

static int
hit_order(const void *pa, const void *pb)
{
	const struct hit_entry *a = pa, *b = pb;

	if (a->board != b->board)
		return a->board < b->board ? -1 : 1;
	if (a->hit.match != b->hit.match)
		return a->hit.match < b->hit.match ? -1 : 1;
	return (a->hit.deal > b->hit.deal) - (a->hit.deal < b->hit.deal);
}

/* The key ranges of the prefixes asked, each once. */
static struct key_range *
ranges_of(const struct check *c, size_t *n)
{
	struct key_range *r = xreallocarray(NULL, c->nasked ? c->nasked : 1, sizeof *r);
	uint32_t span = c->shift == 32 ? 0xffffffffu : ((uint32_t)1 << c->shift) - 1;

	*n = 0;
	for (size_t i = 0; i < c->nasked; i++) {
		uint32_t lo;

		if (i > 0 && c->asked[i].prefix == c->asked[i - 1].prefix)
			continue;
		lo = c->shift == 32 ? 0 : c->asked[i].prefix << c->shift;
		r[*n].lo = stored_key(lo);
		r[*n].hi = stored_key(lo + span);
		(*n)++;
	}
	return r;
}

/* log2 of the number of deals, D = 52!/(13!)^4 */
#define DEAL_COUNT_LOG2 95.4376

unsigned
archive_shared_prefix_bits(size_t boards, int64_t deals)
{
	/* a board's four hands' keys each among the check's 4 boards
	 * prefixes of b bits: D (4 boards / 2^b)^4 deals are as likely to
	 * the server, at least 2^ARCHIVE_DEALS_LEFT_LOG2 while b is at most
	 * this */
	double most = floor(log2(4.0 * (double)(boards ? boards : 1)) +
	    (DEAL_COUNT_LOG2 - ARCHIVE_DEALS_LEFT_LOG2) / 4);
	double needed = deals < 0 ? 32 :
	    ceil(log2((double)deals * 4 / ARCHIVE_CANDIDATES_A_PREFIX));
	double bits = needed < most ? needed : most;

	return bits < 8 ? 8 : bits > 32 ? 32 : (unsigned)bits;
}

/* A set's deals, their boards for the hits of it that have none. */
struct set_boards_found {
	struct hit_entry *hits;
	size_t from, n;
	int64_t set;
};

static int
board_of_hits(const struct deal_row *row, void *arg)
{
	struct set_boards_found *f = arg;
	unsigned char owner[CARDS];

	deal_from_number(deal_number_from_bytes(row->number), owner);
	for (size_t j = f->from; j < f->n; j++)
		if (f->hits[j].hit.set == f->set && f->hits[j].hit.board == 0 &&
		    archive_match_kind(f->hits[j].hit.match)->dealt_before &&
		    memcmp(f->hits[j].hit.owner, owner, CARDS) == 0)
			f->hits[j].hit.board = row->board;
	sodium_memzero(owner, sizeof owner);
	return 0;
}

/* The most boards of a set read for its hits' boards: a set is a
 * session's, and one of millions (an import's) is not read whole for it. */
#define SET_BOARDS_READ 4096

/* A shared archive's candidates come with their sets' numbers alone
 * (backend.h): asking for the words and boards of the sets a check hit
 * would tell the server which boards matched, and so a hand of a board
 * held by chance (one hand the same, about 0.8 a session at 10^9 deals)
 * of a set about to be played.  They are asked for the boards dealt
 * before alone, which are not played (docs/archive.md, "Privacy"): each
 * such set once, by its number, and its deals, for the boards. */
static int
shared_hits_words(struct check *c, struct dl_error *e)
{
	for (size_t i = 0; i < c->nhits; i++) {
		struct archive_set set;
		int found;

		if (!archive_match_kind(c->hits[i].hit.match)->dealt_before ||
		    c->hits[i].hit.set < 1 || c->hits[i].hit.board != 0)
			continue;
		/* a set asked for already: its hits have their words */
		found = 0;
		for (size_t j = 0; j < i && !found; j++)
			found = c->hits[j].hit.set == c->hits[i].hit.set &&
			    archive_match_kind(c->hits[j].hit.match)->dealt_before;
		if (found)
			continue;
		if ((found = c->a->ops->set_by_id(c->a, c->hits[i].hit.set, &set, e)) == -1)
			return -1;
		if (found == 0)
			continue;
		for (size_t j = i; j < c->nhits; j++)
			if (c->hits[j].hit.set == set.id &&
			    archive_match_kind(c->hits[j].hit.match)->dealt_before)
				hit_words_keep(&c->hits[j].hit, set.event, set.date, set.club);
		if (set.boards <= SET_BOARDS_READ) {
			struct set_boards_found f = { c->hits, i, c->nhits, set.id };

			if (c->a->ops->deals(c->a, set.first_deal,
			    set.first_deal + (int64_t)set.boards - 1, board_of_hits, &f, e) == -1) {
				archive_set_clear(&set);
				return -1;
			}
		}
		archive_set_clear(&set);
	}
	return 0;
}

int
archive_check_boards(struct archive *a, const unsigned char (*owner)[CARDS], size_t n,
    int64_t skip_set, unsigned prefix_bits,
    int (*each)(size_t board, const struct archive_hit *hit, void *arg), void *arg,
    struct dl_error *e)
{
	struct check c = { .a = a, .owner = owner, .skip_set = skip_set };
	struct key_range *ranges = NULL;
	int reading = 0;
	size_t nranges;
	int r = -1;

	if ((prefix_bits == 0 || prefix_bits > 32) && !a->ops->shared)
		prefix_bits = 32;
	else if (prefix_bits == 0 || prefix_bits > 32) {
		int64_t deals = -1;

		if (a->ops->deal_estimate != NULL && a->ops->deal_estimate(a, &deals, e) == -1)
			return -1;
		prefix_bits = archive_shared_prefix_bits(n, deals);
	}
	c.shift = 32 - prefix_bits;
	c.hands = xreallocarray(NULL, n ? n : 1, sizeof *c.hands);
	c.halves = xreallocarray(NULL, n ? n : 1, sizeof *c.halves);
	c.asked = xreallocarray(NULL, n ? keys_a_deal(a) * n : 1, sizeof *c.asked);
	for (size_t b = 0; b < n; b++) {
		uint32_t key[ARCHIVE_KEYS];

		archive_hands(owner[b], c.hands[b]);
		archive_halves(c.hands[b], c.halves[b]);
		archive_deal_keys(c.hands[b], key);
		for (unsigned k = 0; k < keys_a_deal(a); k++) {
			c.asked[c.nasked].prefix = key[k] >> c.shift;
			c.asked[c.nasked++].board = b;
		}
	}
	qsort(c.asked, c.nasked, sizeof *c.asked, asked_order);
	ranges = ranges_of(&c, &nranges);
	free(c.asked);
	c.asked = NULL;
	slots_make(&c, n);
	if (a->ops->read_begin != NULL && a->ops->read_begin(a, e) == -1)
		goto out;
	reading = a->ops->read_end != NULL;
	if (a->ops->candidates(a, ranges, nranges, check_candidate, &c, e) == -1)
		goto out;
	if (c.nhits > 0)
		qsort(c.hits, c.nhits, sizeof *c.hits, hit_order);
	if (a->ops->shared && shared_hits_words(&c, e) == -1)
		goto out;
	r = 0;
	for (size_t i = 0; i < c.nhits && r == 0; i++) {
		/* a deal sharing two or four hands with a board came for each */
		if (i > 0 && c.hits[i].board == c.hits[i - 1].board &&
		    c.hits[i].hit.deal == c.hits[i - 1].hit.deal)
			continue;
		r = each(c.hits[i].board, &c.hits[i].hit, arg);
	}
out:
	if (reading)
		a->ops->read_end(a);
	free(ranges);
	sodium_memzero(c.hands, (n ? n : 1) * sizeof *c.hands);
	free(c.hands);
	sodium_memzero(c.halves, (n ? n : 1) * sizeof *c.halves);
	free(c.halves);
	free(c.asked);
	if (c.slots != NULL)
		sodium_memzero(c.slots, (c.mask + 1) * sizeof *c.slots);
	free(c.slots);
	hits_free(c.hits, c.nhits, c.caphits);
	return r;
}

/* Both archives' hits, kept until both were asked. */
struct both {
	struct hit_entry *hits;
	size_t n, cap;
	int shared;		/* the archive being asked */
};

static int
keep_hit(size_t board, const struct archive_hit *hit, void *arg)
{
	struct both *b = arg;
	struct hit_entry *h;

	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 32;
		b->hits = xreallocarray(b->hits, b->cap, sizeof *b->hits);
	}
	h = &b->hits[b->n++];
	h->board = board;
	h->hit = *hit;
	h->hit.shared = b->shared;
	hit_words_keep(&h->hit, hit->event, hit->date, hit->club);
	return 0;
}

/* The club's own archive's hit first, then the shared one's. */
static int
both_order(const void *pa, const void *pb)
{
	const struct hit_entry *a = pa, *b = pb;
	int r = hit_order(pa, pb);

	if (a->board == b->board && a->hit.match == b->hit.match && a->hit.shared != b->hit.shared)
		return a->hit.shared - b->hit.shared;
	return r;
}

int
archive_check_both(struct archive *local, struct archive *shared,
    const unsigned char (*owner)[CARDS], size_t n, int64_t skip_set, unsigned prefix_bits,
    int (*each)(size_t board, const struct archive_hit *hit, void *arg), void *arg,
    struct dl_error *e)
{
	struct both b = { 0 };
	size_t nlocal;
	int r = -1;

	if (shared == NULL)
		return archive_check_boards(local, owner, n, skip_set, prefix_bits, each, arg, e);
	if (local != NULL &&
	    archive_check_boards(local, owner, n, skip_set, prefix_bits, keep_hit, &b, e) == -1)
		goto out;
	nlocal = b.n;
	b.shared = 1;
	/* the shared archive holds no set of the club's not yet played:
	 * nothing to pass over, and it is not told what was checked */
	if (archive_check_boards(shared, owner, n, 0, prefix_bits, keep_hit, &b, e) == -1)
		goto out;
	/* a set the club played is in both: the shared archive's copy of a
	 * deal the club's own archive found for the board is not said twice */
	for (size_t i = nlocal; i < b.n; i++)
		for (size_t j = 0; j < nlocal; j++)
			if (b.hits[j].board == b.hits[i].board &&
			    b.hits[j].hit.match == b.hits[i].hit.match &&
			    memcmp(b.hits[j].hit.owner, b.hits[i].hit.owner, CARDS) == 0) {
				b.hits[i].hit.deal = -1;
				break;
			}
	if (b.n > 0)
		qsort(b.hits, b.n, sizeof *b.hits, both_order);
	r = 0;
	for (size_t i = 0; i < b.n && r == 0; i++)
		if (b.hits[i].hit.deal != -1)
			r = each(b.hits[i].board, &b.hits[i].hit, arg);
out:
	hits_free(b.hits, b.n, b.cap);
	return r;
}

struct find {
	uint64_t hand;
	int (*each)(const struct archive_hit *hit, void *arg);
	void *arg;
	int64_t last;
};

static int
find_candidate(const struct deal_row *row, void *arg)
{
	struct find *f = arg;
	struct archive_hit hit = { .match = ARCHIVE_ONE_HAND, .deal = row->id, .board = row->board,
	    .set = row->set, .event = row->set_event, .date = row->set_date,
	    .club = row->set_club };
	uint64_t theirs[4];

	if (row->id == f->last)
		return 0;
	deal_from_number(deal_number_from_bytes(row->number), hit.owner);
	archive_hands(hit.owner, theirs);
	hit.seat[0] = hit.seat[1] = hit.seat[2] = hit.seat[3] = -1;
	for (unsigned t = 0; t < 4; t++)
		if (theirs[t] == f->hand)
			hit.seat[0] = (int)t;
	if (hit.seat[0] == -1)
		return 0;
	f->last = row->id;
	return f->each(&hit, f->arg);
}

int
archive_find_hand(struct archive *a, uint64_t hand, unsigned prefix_bits,
    int (*each)(const struct archive_hit *hit, void *arg), void *arg, struct dl_error *e)
{
	struct find f = { hand, each, arg, 0 };
	unsigned shift;

	if (prefix_bits == 0 || prefix_bits > 32)
		prefix_bits = a->ops->shared ? ARCHIVE_SHARED_PREFIX_BITS : 32;
	shift = 32 - prefix_bits;
	uint32_t lo = shift == 0 ? archive_hand_key(hand) : archive_hand_key(hand) >> shift << shift;
	struct key_range range = { stored_key(lo), stored_key(lo | (((uint32_t)1 << shift) - 1)) };

	return a->ops->candidates(a, &range, 1, find_candidate, &f, e);
}

int
archive_set_get(struct archive *a, int64_t id, struct archive_set *set, struct dl_error *e)
{
	return a->ops->set_by_id(a, id, set, e);
}

int
archive_unplayed_self(struct archive *a, const unsigned *numbers,
    const unsigned char (*owner)[CARDS], size_t n, int64_t *id, struct dl_error *e)
{
	struct archive_set self = { 0 };
	struct set_digest sd;
	unsigned char digest[SET_DIGEST_BYTES];
	int found;

	*id = 0;
	if (a->ops->shared)
		return 0;
	set_digest_init(&sd);
	for (size_t i = 0; i < n; i++)
		set_digest_add(&sd, numbers[i], owner[i]);
	set_digest_final(&sd, digest);
	if ((found = a->ops->set_by_digest(a, digest, &self, e)) == -1)
		return -1;
	if (found == 1 && self.played[0] == '\0')
		*id = self.id;
	archive_set_clear(&self);
	return 0;
}

int
archive_set_find(struct archive *a, const unsigned char digest[SET_DIGEST_BYTES],
    struct archive_set *set, struct dl_error *e)
{
	return a->ops->set_by_digest(a, digest, set, e);
}

int
archive_sets(struct archive *a, int (*each)(const struct archive_set *set, void *arg),
    void *arg, struct dl_error *e)
{
	return a->ops->sets(a, each, arg, e);
}

struct set_boards {
	int (*each)(unsigned board, const unsigned char owner[CARDS], void *arg);
	void *arg;
};

static int
set_board(const struct deal_row *row, void *arg)
{
	struct set_boards *sb = arg;
	unsigned char owner[CARDS];

	deal_from_number(deal_number_from_bytes(row->number), owner);
	return sb->each(row->board, owner, sb->arg);
}

int
archive_set_boards(struct archive *a, const struct archive_set *set,
    int (*each)(unsigned board, const unsigned char owner[CARDS], void *arg), void *arg,
    struct dl_error *e)
{
	struct set_boards sb = { each, arg };

	return a->ops->deals(a, set->first_deal, set->first_deal + set->boards - 1, set_board,
	    &sb, e);
}

int
archive_mark_played(struct archive *a, int64_t id, const char *when, const char *club,
    const char *user, struct dl_error *e)
{
	char now[ARCHIVE_TIME_SIZE];
	char *by = user != NULL ? xstrdup(user) : NULL;
	int r;

	if (when == NULL || *when == '\0') {
		archive_now(now);
		when = now;
	}
	if (club != NULL && !archive_club_is_valid(club)) {
		free(by);
		return dl_error_set(e, DL_ERR_USAGE, "a club's name must be one line of printable"
		    " UTF-8 of at most %d bytes", ARCHIVE_CLUB_MAX);
	}
	/* a web server's user is anyone's bytes: kept escaped, as on adding */
	printable_or_escaped(&by);
	r = a->ops->mark_played(a, id, when, club, by, e);
	free(by);
	return r;
}

int
archive_club_is_valid(const char *club)
{
	return club != NULL && *club != '\0' && strlen(club) <= ARCHIVE_CLUB_MAX &&
	    text_is_line(club);
}

/* The numbers of the sets keep() keeps (NULL: every set). */
struct set_ids {
	int (*keep)(const struct archive_set *set);
	int64_t *id;
	size_t n, cap;
};

static int
collect_set_id(const struct archive_set *set, void *arg)
{
	struct set_ids *ids = arg;

	if (ids->keep != NULL && !ids->keep(set))
		return 0;
	if (ids->n == ids->cap) {
		ids->cap = ids->cap ? 2 * ids->cap : 64;
		ids->id = xreallocarray(ids->id, ids->cap, sizeof *ids->id);
	}
	ids->id[ids->n++] = set->id;
	return 0;
}

int
archive_set_ids(struct archive *a, int (*keep)(const struct archive_set *set), int64_t **id,
    size_t *n, struct dl_error *e)
{
	struct set_ids ids = { .keep = keep };
	int r = a->ops->sets(a, collect_set_id, &ids, e);

	if (r == -1) {
		free(ids.id);
		ids.id = NULL;
		ids.n = 0;
	}
	*id = ids.id;
	*n = ids.n;
	return r == -1 ? -1 : 0;
}

/* A club's set owed to the shared archive: played, not yet shared. */
static int
is_owed(const struct archive_set *set)
{
	return set->played[0] != '\0' && set->shared[0] == '\0';
}

int
archive_owed(struct archive *local, size_t *owed, struct dl_error *e)
{
	int64_t *id;
	int r = archive_set_ids(local, is_owed, &id, owed, e);

	free(id);
	return r;
}

/* A set's boards on their way from one archive to another. */
struct passing {
	const struct archive_set *set;
	struct archive_add *add;
	size_t index;
	struct dl_error *e;
};

static int
pass_board(unsigned board, const unsigned char owner[CARDS], void *arg)
{
	struct passing *p = arg;
	int dealer, vulnerability;

	archive_set_board_dv(p->set, p->index++, board, &dealer, &vulnerability);
	return archive_add_board(p->add, board, owner, dealer, vulnerability, p->e);
}

/* One set of local into shared, whole, then marked shared in local. */
static int
share_one(struct archive *local, struct archive *shared, int64_t id, const char *club,
    struct archive_sent *sent, struct dl_error *e)
{
	struct archive_set set = { 0 }, copy = { 0 };
	struct passing p = { .set = &set, .e = e };
	char now[ARCHIVE_TIME_SIZE];
	int64_t existing;
	int r = -1;

	switch (local->ops->set_by_id(local, id, &set, e)) {
	case -1:
		return -1;
	case 0:
		return dl_error_set(e, DL_ERR_INPUT, "%s: set %lld: gone while being sent",
		    local->name, (long long)id);
	}
	if (set.club == NULL && club == NULL) {
		dl_error_set(e, DL_ERR_USAGE, "set %lld: no club named to send it as: the shared"
		    " archive must know who played it (DL_CLUB)", (long long)id);
		goto out;
	}
	if (archive_add_begin(shared, &p.add, e) == -1)
		goto out;
	if (archive_set_boards(local, &set, pass_board, &p, e) == -1) {
		archive_add_abort(p.add);
		goto out;
	}
	/* what the club's archive knows of it, and who played it */
	copy.event = set.event ? xstrdup(set.event) : NULL;
	copy.site = set.site ? xstrdup(set.site) : NULL;
	copy.date = set.date ? xstrdup(set.date) : NULL;
	copy.generator = set.generator ? xstrdup(set.generator) : NULL;
	copy.headers = set.headers ? xstrdup(set.headers) : NULL;
	copy.source = set.source ? xstrdup(set.source) : NULL;
	copy.user = set.user ? xstrdup(set.user) : NULL;
	copy.played_by = set.played_by ? xstrdup(set.played_by) : NULL;
	copy.club = xstrdup(set.club != NULL ? set.club : club);
	memcpy(copy.played, set.played, sizeof copy.played);
	if (archive_add_commit(p.add, &copy, &existing, e) == -1)
		goto out;
	archive_now(now);
	if (local->ops->mark_shared(local, id, now, e) == -1)
		goto out;
	*sent = (struct archive_sent){ .local_id = id, .shared_id = copy.id,
	    .already = existing != 0, .boards = set.boards };
	r = 0;
out:
	archive_set_clear(&set);
	archive_set_clear(&copy);
	return r;
}

int
archive_share(struct archive *local, struct archive *shared, const char *club,
    int (*each)(const struct archive_sent *sent, void *arg), void *arg, size_t *sent,
    struct dl_error *e)
{
	int64_t *owed;
	size_t nowed;
	int r = 0;

	*sent = 0;
	if (!shared->ops->shared)
		return dl_error_set(e, DL_ERR_USAGE, "%s: not a shared archive (PostgreSQL)",
		    shared->name);
	if (local->ops->shared)
		return dl_error_set(e, DL_ERR_USAGE, "%s: a shared archive is not a club's own",
		    local->name);
	if (club != NULL && !archive_club_is_valid(club))
		return dl_error_set(e, DL_ERR_USAGE, "a club's name must be one line of printable"
		    " UTF-8 of at most %d bytes", ARCHIVE_CLUB_MAX);
	if (archive_set_ids(local, is_owed, &owed, &nowed, e) == -1)
		return -1;
	for (size_t i = 0; i < nowed && r == 0; i++) {
		struct archive_sent one;

		if ((r = share_one(local, shared, owed[i], club, &one, e)) == 0) {
			(*sent)++;
			if (each != NULL && each(&one, arg) != 0)
				break;
		}
	}
	free(owed);
	return r;
}

int
archive_count(struct archive *a, struct archive_counts *c, struct dl_error *e)
{
	memset(c, 0, sizeof *c);
	return a->ops->count(a, c, e);
}

int
archive_count_event(struct archive *a, const char *event, int64_t *n, struct dl_error *e)
{
	char *key = key_of_event(event, e);
	int r;

	*n = 0;
	if (key == NULL)
		return -1;
	r = a->ops->count_event(a, key, n, e);
	free(key);
	return r;
}

/* archive_hand_keys_fn: what a shared archive's buckets are made by. */
static void
hand_keys_of_number(const unsigned char number[DEAL_NUMBER_BYTES], uint32_t key[4])
{
	unsigned char owner[CARDS];
	uint64_t hand[4];

	deal_from_number(deal_number_from_bytes(number), owner);
	archive_hands(owner, hand);
	for (unsigned s = 0; s < 4; s++)
		key[s] = archive_hand_key(hand[s]);
}

int
archive_compact(struct archive *a, struct dl_error *e)
{
	return a->ops->compact(a, hand_keys_of_number, e);
}
