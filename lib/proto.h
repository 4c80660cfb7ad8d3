/* The dl line protocol (docs/protocol.md, dl-protocol(5)): a stream is UTF-8
 * text lines, header lines "#K: value" first, beginning with the protocol
 * line "#P: dl/1 KIND", then one record per line. */
#ifndef DL_PROTO_H
#define DL_PROTO_H

#include <stdio.h>

#include "dealnum.h"
#include "lines.h"
#include "util.h"

#define PROTO_NAME "dl"
#define PROTO_VERSION 1

enum stream_kind { STREAM_SEED, STREAM_NUMBERS, STREAM_DEALS };

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
};

const char *stream_kind_name(enum stream_kind kind);

/* Reads the header lines; a missing #P line is allowed (a plain file) and
 * then the stream is taken to be of the expected kind. */
void stream_open(struct stream_in *s, FILE *in, enum stream_kind expected);
void stream_close(struct stream_in *s);
char *stream_next_record(struct stream_in *s, size_t *len);
/* The value of header #key, or NULL. */
const char *stream_header(const struct stream_in *s, char key);
void stream_fail(const struct stream_in *s, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));

/* "#P: dl/1 KIND", then every input header whose key is not in drop. */
void stream_write_headers(FILE *out, enum stream_kind kind,
    const struct stream_in *in, const char *drop);

/* A header value is one line of valid UTF-8 without control characters,
 * short enough for "#K: value" to fit in a line. */
int header_value_is_valid(const char *value);

/* Parse a record "BOARD FIELD" or, in plain files, a bare "FIELD" (boards
 * then count from 1).  Checks that boards follow on from each other and lie
 * in the announced range.  Returns FIELD. */
char *record_board(struct stream_in *s, char *line, unsigned *board);

/* A deals record: its board and deal; fails on a field that is not one.
 * A numbers record: its board and deal number, which must be below D. */
void record_deal(struct stream_in *s, char *line, unsigned *board,
    unsigned char owner[CARDS]);
u128 record_number(struct stream_in *s, char *line, unsigned *board);

/* At the end of input: there were boards, and all the #B: header announced. */
void stream_check_complete(const struct stream_in *s);

#endif
