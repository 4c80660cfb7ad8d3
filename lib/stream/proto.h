/* The dl line protocol (docs/protocol.md, dl-protocol(5)): a stream is UTF-8
 * text lines, header lines "#K: value" first, beginning with the protocol
 * line "#P: dl/1 KIND", then one record per line.
 *
 * Threads: a struct stream_in is one thread's; different streams may be
 * read on different threads at once (dl-cat reads shards so).  A struct
 * stream_out is one thread's, and so is its FILE while records are written,
 * as they go out through fwrite_unlocked: threads that share one FILE take
 * turns under a lock of their own (dl-stream -j).  The other functions keep
 * no state and may be called from any thread. */
#ifndef DL_PROTO_H
#define DL_PROTO_H

#include <stdio.h>

#include "deals/analysis.h"
#include "deals/dealnum.h"
#include "base/error.h"
#include "base/lines.h"
#include "base/util.h"

#define PROTO_NAME "dl"
#define PROTO_VERSION 1

/* STREAM_ANALYSED: deals with their double-dummy analysis ("deals+dd"),
 * read by the tools that open a deals stream with stream_open_deals.
 * STREAM_SETS: streams of sets one after another, each with its own
 * protocol line (dl-archive export --all, docs/protocol.md). */
enum stream_kind { STREAM_SEED, STREAM_NUMBERS, STREAM_DEALS, STREAM_ANALYSED, STREAM_SETS };

/* The fields are private to proto.c: a tool holds a struct stream_in and
 * asks the functions below what was read (stream_kind_of, stream_range,
 * stream_headers, ...), so that how a stream is kept can change in one
 * place.  t/pipeline.bats fails when a file outside lib/stream/ reads
 * them. */
struct stream_in {
	struct line_reader lines;
	enum stream_kind kind;
	int headed;		/* 0: a plain file without header lines */
	char **headers;		/* every header line but #P, in input order */
	size_t nheaders;
	int has_range;
	struct board_range range;	/* from #B: */
	char *pending;		/* the first record, read with the headers */
	size_t pending_len;
	unsigned boards;	/* records read so far */
	unsigned first_board, next_board;
	unsigned takes;		/* STREAM_TAKES_*: what more a deals reader takes */
	int own_dv;		/* records carry their boards' own dealer and
				 * vulnerability (deals+dv, deals+dv+dd) */
	int dealer, vulnerability;	/* the last deals record's */
	int any_kind;		/* numbers, deals or deals+dd: s->kind says */
	struct dl_analysis analysis;	/* the last record's, in a deals+dd stream */
};

const char *stream_kind_name(enum stream_kind kind);
/* The name on the protocol line: "deals+dv" for deals whose records carry
 * their boards' own dealer and vulnerability (own_dv). */
const char *stream_kind_text(enum stream_kind kind, int own_dv);

/* Reading.  Every function that can fail returns -1 with *e set to an
 * input error at the stream's line (or a read error), and never exits. */

/* Reads the header lines; a missing #P line is allowed (a plain file) and
 * then the stream is taken to be of the expected kind. */
int stream_open(struct stream_in *s, FILE *in, enum stream_kind expected,
    struct dl_error *e);
/* The same for a named file: messages say "NAME:LINE: ...". */
int stream_open_file(struct stream_in *s, FILE *in, const char *name,
    enum stream_kind expected, struct dl_error *e);
/* A deals stream, and what more the tool takes: a deals+dd stream read as
 * deals (STREAM_TAKES_ANALYSED: stream_kind_of says which), and records
 * that carry their boards' own dealer and vulnerability
 * (STREAM_TAKES_OWN_DV: deals+dv, deals+dv+dd).  A tool that does not
 * take them refuses them by name ("expected a deals stream, got a
 * deals+dv stream"): it would lose or misread them. */
#define STREAM_TAKES_ANALYSED 1u
#define STREAM_TAKES_OWN_DV 2u
/* What dl-archive import takes more: a sets stream, whose sets follow it
 * (STREAM_TAKES_SETS: stream_kind_of says STREAM_SETS, and
 * stream_open_next opens each set); a stream of a set among them, which
 * the next set's protocol line ends (STREAM_TAKES_NEXT); and without a
 * #B:, records of any boards in any order, a set's own
 * (STREAM_TAKES_ANY_ORDER). */
#define STREAM_TAKES_SETS 4u
#define STREAM_TAKES_NEXT 8u
#define STREAM_TAKES_ANY_ORDER 16u
int stream_open_deals(struct stream_in *s, FILE *in, unsigned takes, struct dl_error *e);
/* The stream after s, where s ended at its protocol line (a sets stream
 * after its headers, or a set's stream after its records, opened with
 * STREAM_TAKES_NEXT): 1, reading on from s's lines (s is closed as
 * usual, and reads no more); 0 when no stream follows (the input's end);
 * -1 with *e. */
int stream_open_next(struct stream_in *next, struct stream_in *s, enum stream_kind expected,
    unsigned takes, struct dl_error *e);
/* A stream with headers of numbers, deals or deals+dd (with +dv or not),
 * whichever it is (stream_kind_of, stream_own_dv say): for tools that
 * pass records on as they are.  A seed stream is refused. */
int stream_open_any(struct stream_in *s, FILE *in, const char *name, struct dl_error *e);
void stream_close(struct stream_in *s);
/* The next record line in *line: 1; 0 at the end; -1 on an error. */
int stream_next_record(struct stream_in *s, char **line, size_t *len,
    struct dl_error *e);
/* The value of header #key, or NULL. */
const char *stream_header(const struct stream_in *s, char key);

/* What was read, which tools ask here, not of the struct's fields. */
/* The stream's kind: the expected one, or the one its #P: line named
 * (stream_open_deals, stream_open_any). */
enum stream_kind stream_kind_of(const struct stream_in *s);
/* 1 for a plain file, which had no header lines, not even #P:. */
int stream_is_plain(const struct stream_in *s);
/* 1 when the records carry their boards' own dealer and vulnerability. */
int stream_own_dv(const struct stream_in *s);
/* The last deals record's dealer (enum dl_seat) and vulnerability (enum
 * dl_vulnerability): the record's own in a +dv stream, else its board
 * number's. */
void stream_board_dv(const struct stream_in *s, int *dealer, int *vulnerability);
/* The boards the #B: header announced in *range: 1; 0 without a #B:
 * (*range untouched). */
int stream_range(const struct stream_in *s, struct board_range *range);
/* Every header line but #P, "#K: value", in input order: *n of them. */
char *const *stream_headers(const struct stream_in *s, size_t *n);
/* 1 when a and b have the same header lines in the same order, those
 * whose key is in ignore aside (the shards of one run, "BH"); else 0. */
int stream_headers_match(const struct stream_in *a, const struct stream_in *b,
    const char *ignore);
/* The boards of the records read so far in *boards: their number (0: none
 * yet, *boards untouched). */
unsigned stream_boards_read(const struct stream_in *s, struct board_range *boards);

/* An input error at the stream's current line; returns -1. */
int stream_error(const struct stream_in *s, struct dl_error *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A header value is one line of valid UTF-8 without control characters,
 * short enough for "#K: value" to fit in a line. */
int header_value_is_valid(const char *value);

/* An event description (#I:, PBN [Event], DLM Headline=): at most
 * EVENT_MAX_BYTES of printable UTF-8, so that every format takes it and a
 * reader takes it back; no control characters or direction overrides.
 * -1 with a usage error: "not one line of valid UTF-8 text", "longer than
 * 500 bytes". */
#define EVENT_MAX_BYTES 500
int event_text_check(const char *text, struct dl_error *e);
/* The event's date (#D:, PBN [Date]): "YYYY.MM.DD", PBN's form, a part
 * unknown as question marks ("2026.11.??").  -1 with a usage error. */
int date_text_check(const char *text, struct dl_error *e);
/* The address where a set's hand record is published after play (#U:,
 * dl-deal --record-url), printed as a QR code on the hand records and
 * the table cards: "http://" or "https://" (either case), a host, then
 * RFC 3986's characters only (letters, digits, "-._~:/?#[]@!$&'()*+,;="
 * and "%" before two hex digits: no space, control byte or other
 * character), no user or password before the host ("@"), at most
 * RECORD_URL_MAX bytes, so that its QR code stays small enough to scan
 * from a sheet.  -1 with a usage error saying what is wrong. */
#define RECORD_URL_MAX 200
int record_url_check(const char *url, struct dl_error *e);

/* Parse a record "BOARD FIELD" or, in plain files, a bare "FIELD" (boards
 * then count from 1).  Checks that boards follow on from each other and lie
 * in the announced range.  *field is FIELD. */
int record_board(struct stream_in *s, char *line, unsigned *board, char **field,
    struct dl_error *e);
/* The line record_board cut, whole again as it was read, with its LF at
 * line[len] (len as stream_next_record gave it): the bytes to pass a
 * record on as it came.  Returns len + 1. */
size_t record_line_restore(char *line, size_t len, char *field);

/* A deals record, line of len bytes (stream_next_record's): its board and
 * deal; fails on a field that is not one.  A numbers record: its board
 * and deal number, which must be below D. */
int record_deal(struct stream_in *s, char *line, size_t len, unsigned *board,
    unsigned char owner[CARDS], struct dl_error *e);
/* The analysis of the last deals record read, or NULL when the stream is
 * not analysed. */
const struct dl_analysis *stream_analysis(const struct stream_in *s);
int record_number(struct stream_in *s, char *line, unsigned *board, u128 *number,
    struct dl_error *e);

/* At the end of input: there were boards, and all the #B: header announced. */
int stream_check_complete(const struct stream_in *s, struct dl_error *e);

/* A shard: part K of N of a run of boards (dl-stream --shard, dl-cat),
 * said by the header "#H: K/N LOW-HIGH". */
struct stream_shard {
	unsigned part, parts;		/* 0 and 0: no shard */
	struct board_range whole;	/* the run's boards */
};
/* "K/N" in the len bytes at text, 1 <= K <= N <= BOARD_MAX: 0, or -1 with
 * *why ("not K/N (shard K of N)", "not K/N with 1 <= K <= N"). */
int shard_parse(const char *text, size_t len, unsigned *part, unsigned *parts,
    const char **why);
/* The shard's boards: the K-th of N consecutive parts of the run, as
 * equal as whole boards allow; -1 when there are more parts than boards. */
int shard_boards(const struct stream_shard *sh, struct board_range *boards);
/* The #H: header of s in *sh (parts 0 when there is none): 0, or -1 with
 * *e for one that is garbled. */
int stream_shard(const struct stream_in *s, struct stream_shard *sh, struct dl_error *e);

/* Writing: the one place that knows how headers and records look.  Write
 * errors show in the FILE's error flag, which the tool checks on closing
 * (xfclose). */
struct stream_out {
	FILE *fp;
	enum stream_kind kind;
	int own_dv;		/* deals records carry dealer and vulnerability */
};

/* "#P: dl/1 KIND". */
void stream_out_begin(struct stream_out *o, FILE *fp, enum stream_kind kind);
/* The same, a deals kind with own_dv as "deals+dv" ("deals+dv+dd"): its
 * records carry their boards' own dealer and vulnerability. */
void stream_out_begin_dv(struct stream_out *o, FILE *fp, enum stream_kind kind, int own_dv);
/* The same unless in is a plain file (no header lines): a plain file in,
 * a plain file out, records alone.  1 when the output has headers.  A
 * deals kind out is +dv when in is. */
int stream_out_begin_like(struct stream_out *o, FILE *fp, const struct stream_in *in,
    enum stream_kind kind);
/* "#K: value"; value must pass header_value_is_valid. */
void stream_out_header(struct stream_out *o, char key, const char *value);
void stream_out_headerf(struct stream_out *o, char key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Every header of in (none if in is NULL) whose key is not in drop. */
void stream_out_copy_headers(struct stream_out *o, const struct stream_in *in,
    const char *drop);
/* The same, but #B: says boards, the boards going out, in the place of
 * in's #B: or after the other headers when in had none; boards NULL: no
 * #B:.  (dl-board, which renumbers or picks boards; dl-cat, which joins
 * shards.) */
void stream_out_copy_headers_with_range(struct stream_out *o, const struct stream_in *in,
    const char *drop, const struct board_range *boards);
/* "#B: LOW-HIGH". */
void stream_out_range(struct stream_out *o, unsigned low, unsigned high);
/* "#H: K/N LOW-HIGH". */
void stream_out_shard(struct stream_out *o, const struct stream_shard *sh);
/* The same record lines in memory, newline included, at most
 * RECORD_TEXT_MAX bytes: their length. */
#define RECORD_TEXT_MAX (10 + 1 + CARDS + 1)
size_t record_number_text(char *line, unsigned board, u128 number);
size_t record_deal_text(char *line, unsigned board, const unsigned char owner[CARDS]);
/* count of them (text holds count * RECORD_TEXT_MAX bytes), of boards
 * board, board + 1, ... and the deals owner[0], owner[1], ...: faster, as
 * the boards' digits are counted up, not divided out of the number each
 * time. */
size_t records_deal_text(char *text, unsigned board, size_t count,
    const unsigned char (*owner)[CARDS]);
/* "BOARD NUMBER", 24 lowercase hex digits. */
void stream_out_number(struct stream_out *o, unsigned board, u128 number);
/* "BOARD DEAL", 52 digits of .tso. */
void stream_out_deal(struct stream_out *o, unsigned board, const unsigned char owner[CARDS]);
/* " DEALER VULNERABILITY" of a +dv record, at most: " W None". */
#define DV_TEXT_MAX 7
/* "BOARD DEAL DEALER VULNERABILITY" in a +dv stream ("5 ... E None"),
 * else "BOARD DEAL". */
void stream_out_deal_dv(struct stream_out *o, unsigned board, const unsigned char owner[CARDS],
    int dealer, int vulnerability);
/* "BOARD DEAL TRICKS SCORE PAR" in a deals+dd stream, "BOARD DEAL DEALER
 * VULNERABILITY TRICKS SCORE PAR" in a deals+dv+dd one. */
void stream_out_analysed(struct stream_out *o, unsigned board, const unsigned char owner[CARDS],
    int dealer, int vulnerability, const struct dl_analysis *a);

#endif
