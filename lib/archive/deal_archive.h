/* The archive: every set ever dealt, so that a set is never played twice
 * (docs/archive.md).  A set is its boards' deals with what its stream said
 * of it (event, site, date, generator, headers), where it came from, who
 * archived it and when, and whether it was played.  A board is looked up
 * by its four hands, so that a deal is found under any board number, at
 * any seats, with one or two cards exchanged, and a single hand held
 * before is found too.
 *
 * Two backends: SQLite, one file, the default (archive_sqlite.c), and
 * PostgreSQL, an archive a federation shares (archive_postgres.c), which
 * takes a set whole only once it was played and is asked by short hash
 * prefixes, so that checking a set not yet played does not show it to the
 * server's operator.
 *
 * Threads: an archive is one thread's. */
#ifndef DL_DEAL_ARCHIVE_H
#define DL_DEAL_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "deals/dealnum.h"
#include "base/error.h"
#include "stream/fingerprint.h"

struct archive;

/* The schema this code writes; an older archive is upgraded to it when
 * opened for writing, a newer one refused. */
#define ARCHIVE_SCHEMA 7

/* The bits of a key a shared archive is asked for unless told otherwise
 * (docs/archive.md, "Checks at scale"): for one hand (find hand), 16; for
 * a check of its boards' hands (a shared archive is not asked for halves,
 * nor holds them), as many as the archive's size needs for about
 * ARCHIVE_CANDIDATES_A_PREFIX candidates a prefix, and never so many
 * that a board checked is one of fewer than 2^ARCHIVE_DEALS_LEFT_LOG2
 * deals to the server, who sees every hand's prefix of the check, in
 * order, and cannot tell which go together. */
#define ARCHIVE_SHARED_PREFIX_BITS 16
#define ARCHIVE_CANDIDATES_A_PREFIX 64
#define ARCHIVE_DEALS_LEFT_LOG2 30
/* The bits a check of boards boards asks a shared archive of deals deals
 * for, by that rule (deals < 0: not known, the privacy bound alone). */
unsigned archive_shared_prefix_bits(size_t boards, int64_t deals);

/* archive_open's flags */
#define ARCHIVE_WRITE 1u	/* create it when missing; upgrade its schema */

/* A time as the archive keeps it: "2026-11-25T20:30:00Z". */
#define ARCHIVE_TIME_SIZE 21

struct archive_set {
	int64_t id;				/* its number in the archive */
	unsigned char digest[SET_DIGEST_BYTES];
	char fingerprint[SET_FINGERPRINT_SIZE];
	int64_t first_deal;			/* its deals are first_deal .. */
	unsigned boards;			/*   .. first_deal + boards - 1 */
	unsigned low, high;			/* its lowest and highest board */
	/* what its stream or file said, each NULL when it said nothing */
	char *event, *site, *date, *generator;
	char *headers;		/* its stream's header lines but #P:, each with LF */
	char *source;		/* where it came from: a file's name, a tool */
	char *user;		/* who archived it */
	char archived[ARCHIVE_TIME_SIZE];
	char played[ARCHIVE_TIME_SIZE];		/* "" while not played */
	/* Who played it: the club (a configured name, DL_CLUB) and the user
	 * who marked it played; NULL while not played, or when it was added
	 * played with no club named. */
	char *club, *played_by;
	/* When it reached the shared archive (archive_share): "" while it
	 * has not, in the club's own archive; a shared archive's own sets
	 * keep "". */
	char shared[ARCHIVE_TIME_SIZE];
	/* Its boards' own dealers and vulnerabilities, when some board's
	 * are not its number's (a practice set read from a file): two
	 * characters a board, in the order of its deals, the dealer's letter
	 * (NESW) and the vulnerability's digit (enum dl_vulnerability);
	 * NULL when every board's are its number's.  Computed on adding. */
	char *dv;
	/* On adding: when not 0, the set must be its event's
	 * event_place-th, this one included (the #N: its hand records
	 * print), else it is not added and the add fails with
	 * DL_ERR_CHECK: another set of the event came in between. */
	int64_t event_place;
};

/* A stream's header lines as archive_set's headers keeps them: each
 * with LF, in their order (a new string). */
char *archive_headers_text(char *const *headers, size_t n);
/* The strings of a set, freed and set NULL. */
void archive_set_clear(struct archive_set *set);

/* The archive archive_open opens for spec NULL: $DL_ARCHIVE, else
 * $XDG_DATA_HOME/dl/archive.sqlite, else ~/.local/share/dl/archive.sqlite;
 * allocated.  -1 when none can be named. */
int archive_default(char **spec, struct dl_error *e);

/* The shared archive named by $DL_SHARED_ARCHIVE, allocated, or NULL
 * when none is: a federation's (PostgreSQL), checked beside the club's
 * own archive and sent the club's sets once played. */
int archive_shared_default(char **spec);

/* spec: a file's name (SQLite), or a PostgreSQL connection string
 * ("postgresql://..." or "postgres://...", or "pg:" and a libpq conninfo
 * string "host=... dbname=...").  A missing file is created (mode 0600, its
 * folders 0700) only with ARCHIVE_WRITE. */
int archive_open(struct archive **a, const char *spec, unsigned flags, struct dl_error *e);
void archive_close(struct archive *a);
/* The backend's name, "sqlite" or "postgresql". */
const char *archive_backend(const struct archive *a);
/* 1 for an archive others share (PostgreSQL): a set goes in only once
 * played, and look-ups send short hash prefixes only. */
int archive_is_shared(const struct archive *a);

/* Adding a set: its boards one by one, then its description; the set is
 * in the archive, whole, once archive_add_commit returns 0 (one
 * transaction).  A set already there (the same digest) is not added
 * again: *existing is its id (else 0), and set->id too. */
struct archive_add;
int archive_add_begin(struct archive *a, struct archive_add **add, struct dl_error *e);
/* dealer (enum dl_seat) and vulnerability (enum dl_vulnerability): the
 * board's own, or -1 for its number's. */
int archive_add_board(struct archive_add *add, unsigned board, const unsigned char owner[CARDS],
    int dealer, int vulnerability, struct dl_error *e);
/* set: its description (event ... user, played); the rest is computed:
 * digest, fingerprint, boards, low, high, first_deal, id, and archived
 * unless given (a set moved from another archive, archive_import).
 * add is freed, also on failure (the archive as it was). */
int archive_add_commit(struct archive_add *add, struct archive_set *set, int64_t *existing,
    struct dl_error *e);
void archive_add_abort(struct archive_add *add);
/* How many sets of the event the archive holds, with the archive's write
 * lock taken now and held until the add's commit or abort: nobody adds
 * a set in between, so that the set's event_place can be this plus one
 * for certain.  Every other writer waits meanwhile (the lock is
 * otherwise taken only at the commit). */
int archive_add_count_event(struct archive_add *add, const char *event, int64_t *n,
    struct dl_error *e);

/* How a board matches one archived: the kinds in the order of their
 * weight.  archive_match_kind says what each is called and whether it
 * means the board was dealt before (the first four do). */
enum archive_match {
	ARCHIVE_SAME = 0,	/* the same deal, each hand at its seat */
	ARCHIVE_ROTATED,	/* the same deal turned round the table */
	ARCHIVE_PERMUTED,	/* the same four hands, at other seats */
	ARCHIVE_TWO_HANDS,	/* two hands the same: one or more cards exchanged */
	ARCHIVE_NEAR,		/* at most ARCHIVE_NEAR_CARDS cards at other seats */
	ARCHIVE_ONE_HAND,	/* one hand the same, which chance gives too */
};
#define ARCHIVE_MATCHES 6
/* A near deal: two exchanges of cards, whichever hands they touch, move
 * at most four cards (docs/archive.md, "What a match is"). */
#define ARCHIVE_NEAR_CARDS 4

/* The one place that names a match and says what it means
 * (docs/archive.md, "What a match is"): every tool and page takes its
 * words and its verdict from here. */
struct archive_match_kind {
	const char *name;	/* "same deal turned": a line of dl-archive check */
	const char *words;	/* "the same deal, turned round the table": a page's */
	int dealt_before;	/* the board was dealt before; else chance gives it */
	int same_deal;		/* all four hands the same: the deal, at any seats */
};
const struct archive_match_kind *archive_match_kind(enum archive_match match);

struct archive_hit {
	enum archive_match match;
	/* seat[s]: the seat (enum dl_seat) the board's hand at s held in the
	 * archived deal, -1 when that hand is not the same; for a near deal,
	 * the seat whose hand it is but for the cards exchanged, + 4 when
	 * it is not the same */
	int seat[4];
	int64_t deal, set;			/* set: 0 when no set holds it */
	/* the archived board's number; 0 when not known: a shared
	 * archive's hit of one hand (docs/archive.md, "Privacy") */
	unsigned board;
	unsigned char owner[CARDS];		/* the archived deal */
	/* what its set says of itself, NULL when nothing: read with the
	 * deal, so that no query depends on what matched; valid during
	 * the call that is given the hit */
	const char *event, *date;
	const char *club;	/* the club that played it, NULL: none named */
	int shared;		/* found in the shared archive (archive_check_both) */
};

/* A check's verdict, counted from its hits as they come (board by board):
 * how many of its boards were dealt before. */
struct archive_verdict {
	size_t dealt_before;	/* boards matched by a kind that counts */
	size_t last;		/* the board counted last, + 1 */
};
void archive_verdict_add(struct archive_verdict *v, size_t board, const struct archive_hit *hit);

/* Every archived deal that shares a hand with one of the n boards owner,
 * each pair once, by board, strongest match first; each is given the
 * board's index in owner.  The deals of set skip_set (0: none) are passed
 * over (a set checked against the archive that holds it).  The database
 * is asked for the first prefix_bits bits of each hand's key only (0 or 32:
 * the whole key), and every candidate is compared here.  each returns 0 to
 * go on, or -1 to stop, which archive_check_boards then returns. */
int archive_check_boards(struct archive *a, const unsigned char (*owner)[CARDS], size_t n,
    int64_t skip_set, unsigned prefix_bits,
    int (*each)(size_t board, const struct archive_hit *hit, void *arg), void *arg,
    struct dl_error *e);

/* A check against a club's own archive (local) and the federation's
 * (shared, NULL: none) in one report: each board's hits from both, by
 * board, strongest first, the club's own before the shared one's of the
 * same kind; a deal the club's archive found for a board is not given
 * again from the shared archive (a set the club played is in both).
 * skip_set is local's; shared is asked as archive_check_boards asks a
 * shared archive, by prefixes alone.  local may be NULL with shared not
 * (a club that has dealt nothing yet has no archive of its own). */
int archive_check_both(struct archive *local, struct archive *shared,
    const unsigned char (*owner)[CARDS], size_t n, int64_t skip_set, unsigned prefix_bits,
    int (*each)(size_t board, const struct archive_hit *hit, void *arg), void *arg,
    struct dl_error *e);

/* The deals holding a hand (a 52-bit mask of its cards, bit c for card c
 * of dealnum.h's order), its seat in seat[0], asked as archive_check_boards
 * asks. */
int archive_find_hand(struct archive *a, uint64_t hand, unsigned prefix_bits,
    int (*each)(const struct archive_hit *hit, void *arg), void *arg, struct dl_error *e);

/* The set with this id (1), or 0 when there is none. */
int archive_set_get(struct archive *a, int64_t id, struct archive_set *set, struct dl_error *e);
/* The set of these n boards (numbers, deals, in that order) if the
 * archive holds it and it is not yet played: its id into *id, else 0.  A
 * set checked against the archive it was recorded in when dealt is no
 * set played before until it is (archive_check_boards' skip_set).  A
 * shared archive is not asked (it holds played sets only, and is not
 * sent a digest). */
int archive_unplayed_self(struct archive *a, const unsigned *numbers,
    const unsigned char (*owner)[CARDS], size_t n, int64_t *id, struct dl_error *e);
/* The set whose digest this is, as archive_set_get. */
int archive_set_find(struct archive *a, const unsigned char digest[SET_DIGEST_BYTES],
    struct archive_set *set, struct dl_error *e);
/* Every set, in the order they were archived. */
int archive_sets(struct archive *a, int (*each)(const struct archive_set *set, void *arg),
    void *arg, struct dl_error *e);
/* The dealer and vulnerability of a set's board, the index-th of its
 * deals: its own (set->dv), else its number's. */
void archive_set_board_dv(const struct archive_set *set, size_t index, unsigned board,
    int *dealer, int *vulnerability);
/* A set's boards, in order. */
int archive_set_boards(struct archive *a, const struct archive_set *set,
    int (*each)(unsigned board, const unsigned char owner[CARDS], void *arg), void *arg,
    struct dl_error *e);
/* Marks a set played at time when (NULL: now) by club and user (each
 * NULL: unknown): 1, or 0 when there is no such set; a set played already
 * keeps its time, its club and who marked it. */
int archive_mark_played(struct archive *a, int64_t id, const char *when, const char *club,
    const char *user, struct dl_error *e);
/* A club's name as the archive keeps it: one line of printable UTF-8 of
 * at most ARCHIVE_CLUB_MAX bytes. */
#define ARCHIVE_CLUB_MAX 100
int archive_club_is_valid(const char *club);

/* Sending played sets to the shared archive (docs/archive.md, "The
 * federation's loop").  Each set of local played and not yet shared is
 * added to shared whole, with its club (the club's name, when the set
 * has none of its own), and then marked shared in local: a set reaches
 * the shared archive once, and a send cut short (the server away, a
 * crash between the two commits) is finished by the next, which finds
 * the set there by its digest.  each (NULL: none) is told of every set
 * sent: its number in local, in shared, and whether shared held it
 * already; it returns 0 to go on.  Stops at the first failure (-1); the
 * sets sent before it stay sent.  *sent counts them. */
struct archive_sent {
	int64_t local_id, shared_id;
	int already;		/* shared held it (sent before, or another club's) */
	unsigned boards;
};
int archive_share(struct archive *local, struct archive *shared, const char *club,
    int (*each)(const struct archive_sent *sent, void *arg), void *arg, size_t *sent,
    struct dl_error *e);
/* How many sets of local are played and not yet shared. */
int archive_owed(struct archive *local, size_t *owed, struct dl_error *e);
/* How many sets and deals it holds, and of them played. */
struct archive_counts {
	int64_t sets, deals, played_sets, played_deals;
};
int archive_count(struct archive *a, struct archive_counts *c, struct dl_error *e);
/* The archive rewritten without its free space: the hands' index, which
 * grows all over, packed again (docs/archive.md, "Sizing").  Takes the
 * writer's lock, and as long as a copy of the archive takes to write. */
int archive_compact(struct archive *a, struct dl_error *e);
/* How many sets of this event it holds: a set dealt again and again until
 * one pleases shows (dl-web says so).  Counted by the event's key
 * (event_key.h): a name that only looks different is the same event. */
int archive_count_event(struct archive *a, const char *event, int64_t *n, struct dl_error *e);

/* Moving an archive (export.c, docs/archive.md "Moving an archive"): a
 * set as a deals stream with all the archive knows of it (its header
 * lines, its description, and the archive's record of it in #R:), its
 * boards in its own order; every set as one sets stream.  Write errors
 * show in fp's error flag. */
int archive_export_set(struct archive *a, const struct archive_set *set, FILE *fp,
    struct dl_error *e);
int archive_export_all(struct archive *a, FILE *fp, struct dl_error *e);
/* What became of a set import read. */
struct archive_imported {
	char fingerprint[SET_FINGERPRINT_SIZE];
	unsigned boards;
	int64_t id;				/* its number in this archive */
	int existing;				/* it was here before, as set id */
	int left_out;				/* not played: not sent to a shared archive */
};
/* What export wrote, a set or a sets stream, into this archive, each set
 * as the archive it came from held it: the same deals in their order,
 * description and headers, and the same record (archived, played, user,
 * source), checked as a row is.  A set held already stays as it is; a set
 * not played is left out of a shared archive.  each is called after each
 * set; it returns 0, or -1 to stop. */
int archive_import(struct archive *a, FILE *fp,
    int (*each)(const struct archive_imported *set, void *arg), void *arg, struct dl_error *e);

/* The hands of a deal as masks (bit c for card c), by seat. */
void archive_hands(const unsigned char owner[CARDS], uint64_t hand[4]);
/* A hand's key, the first 32 bits of its BLAKE2b-64 hash (docs/archive.md):
 * what the archive looks it up by. */
uint32_t archive_hand_key(uint64_t hand);
/* A deal's three halves: for each way of pairing its hands, the 26 cards
 * of the pair that holds card 0 (a mask).  Two exchanges between the
 * hands of each pair (North-East and South-West) leave no hand the same
 * but one half. */
void archive_halves(const uint64_t hand[4], uint64_t half[3]);
/* A half's key: as a hand's, over its mask and a byte more, so that the
 * two kinds share the index and never meet. */
uint32_t archive_half_key(uint64_t half);
/* Every key the archive indexes a deal by: its four hands', then its
 * three halves' (a club's own archive; a shared one, its hands' alone:
 * docs/archive.md, "Checks at scale", says why). */
#define ARCHIVE_KEYS 7
void archive_deal_keys(const uint64_t hand[4], uint32_t key[ARCHIVE_KEYS]);
/* Who archives a set (allocated): the user the web server authenticated
 * (REMOTE_USER, for dl-web's sets), else the login's name. */
char *archive_user(void);
/* The time now, as the archive keeps times. */
void archive_now(char when[ARCHIVE_TIME_SIZE]);

#endif
