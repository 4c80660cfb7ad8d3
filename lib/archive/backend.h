/* What archive.c asks of a database (deal_archive.h's backends): rows in and
 * out, nothing of bridge.  Each returns 0 (or a count, where said), or -1
 * with *e set. */
#ifndef DL_ARCHIVE_BACKEND_H
#define DL_ARCHIVE_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "deal_archive.h"

/* A deal as stored: its number in the archive, its board, its Big Deal
 * deal number in 12 bytes (dealnum.h). */
struct deal_row {
	int64_t id;
	unsigned board;
	unsigned char number[DEAL_NUMBER_BYTES];
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
	/* The set, its id into set->id. */
	int (*put_set)(struct archive *a, struct archive_set *set, struct dl_error *e);
	/* A read transaction around a check's look-ups, so that they see one
	 * state of the archive and do not each take the file's lock; NULL
	 * where a statement costs no more alone (PostgreSQL). */
	int (*read_begin)(struct archive *a, struct dl_error *e);
	void (*read_end)(struct archive *a);
	/* Each deal holding a hand whose key is in one of the ranges, once
	 * for each such hand. */
	int (*candidates)(struct archive *a, const struct key_range *ranges, size_t n,
	    int (*each)(const struct deal_row *row, void *arg), void *arg, struct dl_error *e);
	/* A set by id, by digest, or the one holding a deal: 1 found, 0 not. */
	int (*set_by_id)(struct archive *a, int64_t id, struct archive_set *set,
	    struct dl_error *e);
	int (*set_by_digest)(struct archive *a, const unsigned char *digest,
	    struct archive_set *set, struct dl_error *e);
	int (*set_of_deal)(struct archive *a, int64_t deal, struct archive_set *set,
	    struct dl_error *e);
	int (*sets)(struct archive *a, int (*each)(const struct archive_set *set, void *arg),
	    void *arg, struct dl_error *e);
	/* The deals first .. last, in order. */
	int (*deals)(struct archive *a, int64_t first, int64_t last,
	    int (*each)(const struct deal_row *row, void *arg), void *arg, struct dl_error *e);
	/* 1 when the set was there (and is now played), 0 when not. */
	int (*mark_played)(struct archive *a, int64_t id, const char *when, struct dl_error *e);
	int (*count)(struct archive *a, struct archive_counts *c, struct dl_error *e);
	/* The files or tables rewritten without their free space. */
	int (*compact)(struct archive *a, struct dl_error *e);
	/* The sets whose event is this. */
	int (*count_event)(struct archive *a, const char *event, int64_t *n, struct dl_error *e);
	void (*close)(struct archive *a);
};

struct archive {
	const struct archive_ops *ops;
	void *db;
	char *name;		/* for messages: the file, or the server */
};

/* A set's dv column (struct archive_set's dv) as read: a copy, or NULL
 * when NULL or not two characters for each of its boards. */
char *set_dv_from_column(const char *text, unsigned boards);

int archive_sqlite_open(struct archive *a, const char *path, unsigned flags,
    struct dl_error *e);
int archive_postgres_open(struct archive *a, const char *conninfo, unsigned flags,
    struct dl_error *e);

#endif
