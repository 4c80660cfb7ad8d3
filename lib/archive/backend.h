/* What archive.c asks of a database (deal_archive.h's backends): rows in and
 * out, nothing of bridge.  Each returns 0 (or a count, where said), or -1
 * with *e set. */
#ifndef DL_ARCHIVE_BACKEND_H
#define DL_ARCHIVE_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "archive/deal_archive.h"

/* A deal as stored: its number in the archive, its board, its Big Deal
 * deal number in 12 bytes (dealnum.h).  A candidate (candidates) comes
 * with the set holding it: its id (0: none) and, from a club's archive,
 * what it says of itself, its event, date and club (NULL: nothing),
 * valid during the call; a shared archive's come with the set's id alone
 * (the candidates op below; docs/archive.md, "Privacy"). */
struct deal_row {
	int64_t id;
	unsigned board;
	unsigned char number[DEAL_NUMBER_BYTES];
	int64_t set;
	const char *set_event, *set_date, *set_club;
};

/* A hand as indexed: its key (archive_hand_key, stored as a signed 32-bit
 * number, the key with its top bit flipped, so that the database's order
 * is the key's) and the deal holding it. */
struct hand_row {
	int32_t key;
	int64_t deal;
};

/* The keys from lo to hi (stored form), both included. */
struct key_range {
	int32_t lo, hi;
};

/* The keys (archive_hand_key) of the four hands of the deal of this
 * number, which must be below DEAL_COUNT. */
typedef void archive_hand_keys_fn(const unsigned char number[DEAL_NUMBER_BYTES], uint32_t key[4]);

struct archive_ops {
	const char *name;
	int shared;
	/* The one writer: waits for another to finish (then fails clearly),
	 * and gives the id the set's first deal takes. */
	int (*write_begin)(struct archive *a, int64_t *next_deal, struct dl_error *e);
	int (*write_commit)(struct archive *a, struct dl_error *e);
	void (*write_rollback)(struct archive *a);
	int (*put_deals)(struct archive *a, const struct deal_row *rows, size_t n,
	    struct dl_error *e);
	/* rows in the keys' order */
	int (*put_hands)(struct archive *a, const struct hand_row *rows, size_t n,
	    struct dl_error *e);
	/* The set, its id into set->id; event_key: its event's key
	 * (event_key.h), NULL when it has no event. */
	int (*put_set)(struct archive *a, struct archive_set *set, const char *event_key,
	    struct dl_error *e);
	/* A read transaction around a check's look-ups, so that they see one
	 * state of the archive and do not each take the file's lock; NULL
	 * where a statement costs no more alone (PostgreSQL). */
	int (*read_begin)(struct archive *a, struct dl_error *e);
	void (*read_end)(struct archive *a);
	/* Each deal holding a hand whose key is in one of the ranges, with
	 * its set (struct deal_row), at least once, and perhaps deals of
	 * other keys too (a shared archive's buckets are read whole): the
	 * caller compares each whole.  What the database is sent depends on
	 * the ranges alone.  A shared archive's candidates come with their
	 * sets' numbers alone, no words and no board (0), and with an id
	 * that is not the deal's but tells it from the other deals of its
	 * set (the set's number and the deal number's last 30 bits): a
	 * check tells deals apart by it and no more. */
	int (*candidates)(struct archive *a, const struct key_range *ranges, size_t n,
	    int (*each)(const struct deal_row *row, void *arg), void *arg, struct dl_error *e);
	/* A set by id or by digest: 1 found, 0 not. */
	int (*set_by_id)(struct archive *a, int64_t id, struct archive_set *set,
	    struct dl_error *e);
	int (*set_by_digest)(struct archive *a, const unsigned char *digest,
	    struct archive_set *set, struct dl_error *e);
	int (*sets)(struct archive *a, int (*each)(const struct archive_set *set, void *arg),
	    void *arg, struct dl_error *e);
	/* The deals first .. last, in order. */
	int (*deals)(struct archive *a, int64_t first, int64_t last,
	    int (*each)(const struct deal_row *row, void *arg), void *arg, struct dl_error *e);
	/* 1 when the set was there (and is now played), 0 when not; club
	 * and user NULL when unknown. */
	int (*mark_played)(struct archive *a, int64_t id, const char *when, const char *club,
	    const char *user, struct dl_error *e);
	/* The set reached the shared archive at time when: 1, 0 when there
	 * is no such set. */
	int (*mark_shared)(struct archive *a, int64_t id, const char *when, struct dl_error *e);
	int (*count)(struct archive *a, struct archive_counts *c, struct dl_error *e);
	/* About how many deals it holds, cheaply (a shared archive's
	 * statistics), for the bits a check asks for; NULL: not needed (a
	 * local archive is asked by whole keys). */
	int (*deal_estimate)(struct archive *a, int64_t *deals, struct dl_error *e);
	/* The files or tables rewritten without their free space; a
	 * shared archive's buckets of hands sized to it, their deals'
	 * hands' keys made by hand_keys. */
	int (*compact)(struct archive *a, archive_hand_keys_fn *hand_keys, struct dl_error *e);
	/* The sets whose event's key is this (event_key.h). */
	int (*count_event)(struct archive *a, const char *key, int64_t *n, struct dl_error *e);
	void (*close)(struct archive *a);
};

struct archive {
	const struct archive_ops *ops;
	void *db;
	char *name;		/* for messages: the file, or the server */
};

/* A set's dv column (struct archive_set's dv) as read: a copy, or NULL
 * when NULL or not a seat's letter and a vulnerability's digit for each
 * of its boards. */
char *set_dv_from_column(const char *text, unsigned boards);

/* What a database holds is input, as a file is: a damaged file, a shared
 * archive's operator.  Each backend checks every row it reads with these
 * before anything uses it: -1 with an input error "ARCHIVE: set N: damaged
 * (what)" when a value is not one dl writes (a deal number past the last
 * deal, a board out of range, text that is not one line of printable
 * UTF-8, a time that is not one, a fingerprint not its digest's). */
int archive_deal_row_check(struct archive *a, const struct deal_row *row, struct dl_error *e);
int archive_set_row_check(struct archive *a, const struct archive_set *set, struct dl_error *e);
/* What archive_set_row_check finds wrong with a set, in the words of its
 * "damaged (what)", or NULL: the same checks for a set read from another
 * archive's export (export.c). */
const char *archive_set_fault(const struct archive_set *set);
/* 1 for a header line that is an archive's record of a set, #R:
 * (export.c), which no set's headers keep. */
int archive_record_header(const char *line);
/* A fixed-size text column (a time, a fingerprint) into dst: a copy when
 * it fits, else "!", which no check passes (never cut to fit). */
void column_copy(char *dst, size_t size, const char *src);
/* The key of an event (event_key.h) into *key, allocated: what a set's
 * event_key column holds (an upgrade to schema 4 fills it with this).
 * *k is a keyer made on the first call (NULL before it), for the caller
 * to free with event_keyer_free. */
struct event_keyer;
int archive_event_key(struct event_keyer **k, const char *event, char **key,
    struct dl_error *e);
/* For an archive of schema 3 read as it is (no event_key column): 1 when
 * event, as a set's row holds it (NULL: none), has the key key, 0 when
 * not, -1 with *e for an event that is no line of printable UTF-8. */
int archive_event_has_key(struct archive *a, struct event_keyer **k, const char *event,
    const char *key, struct dl_error *e);

/* The numbers of the sets keep() keeps (NULL: all), in the order they
 * were archived, into *id (allocated; the caller frees it) and *n: a list
 * taken before they are read one by one (sent, exported), so that no
 * query of the sets is open meanwhile. */
int archive_set_ids(struct archive *a, int (*keep)(const struct archive_set *set),
    int64_t **id, size_t *n, struct dl_error *e);

/* Schema 6: the keys of the halves (archive_halves) of every deal the
 * archive holds, put in its index; within the caller's transaction. */
int archive_index_halves(struct archive *a, struct dl_error *e);

int archive_sqlite_open(struct archive *a, const char *path, unsigned flags,
    struct dl_error *e);
/* For the tests: the digest of the schema dl's steps to version make with
 * this SQLite (made), and the one archive_sqlite.c knows (known): when
 * they differ, every archive opened is checked the slow way. */
#define SCHEMA_DIGEST_HEX 65
int archive_sqlite_schema_digest(int64_t version, char made[SCHEMA_DIGEST_HEX],
    const char **known);
int archive_postgres_open(struct archive *a, const char *conninfo, unsigned flags,
    struct dl_error *e);

#endif
