#include <err.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "tso.h"

static const char *const kind_names[] = { "seed", "numbers", "deals" };

const char *
stream_kind_name(enum stream_kind kind)
{
	return kind_names[kind];
}

void
stream_fail(const struct stream_in *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line_vfail(&s->lines, fmt, ap);
}

int
header_value_is_valid(const char *value)
{
	/* "#K: value" must fit in a line, or no reader takes it back: the
	 * stream after dl-seed --event, the .sqd after dl-sqd set-dv */
	if (strlen(value) > LINE_MAX_BYTES - 4)
		return 0;
	for (const unsigned char *p = (const unsigned char *)value; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return utf8_is_valid(value, strlen(value));
}

static void
parse_protocol_line(struct stream_in *s, const char *line, enum stream_kind expected)
{
	const char *p = line + 4;
	size_t namelen = strlen(PROTO_NAME);
	char *end;

	if (strncmp(p, PROTO_NAME "/", namelen + 1) != 0)
		stream_fail(s, "not a dl stream (expected \"#P: dl/%d %s\")",
		    PROTO_VERSION, stream_kind_name(expected));
	p += namelen + 1;
	/* digits only: strtol alone would take "dl/ 1" or "dl/+1" for dl/1 */
	long version = strtol(p, &end, 10);
	if (!(*p >= '0' && *p <= '9') || *end != ' ')
		stream_fail(s, "garbled protocol line");
	if (version != PROTO_VERSION)
		stream_fail(s, "unsupported protocol version dl/%.*s (this tool reads dl/%d)",
		    (int)(end - p < 20 ? end - p : 20), p, PROTO_VERSION);
	for (unsigned k = 0; k < sizeof kind_names / sizeof kind_names[0]; k++)
		if (strcmp(end + 1, kind_names[k]) == 0) {
			if (k != expected)
				stream_fail(s, "expected a %s stream, got a %s stream",
				    stream_kind_name(expected), kind_names[k]);
			return;
		}
	stream_fail(s, "unknown stream kind \"%.40s\"", end + 1);
}

static void
add_header(struct stream_in *s, const char *line)
{
	char key = line[1];

	if (!(key >= 'A' && key <= 'Z') || line[2] != ':' || line[3] != ' ')
		stream_fail(s, "garbled header line (expected \"#K: value\")");
	if (key == 'P')
		stream_fail(s, "protocol line #P: out of place");
	if (!header_value_is_valid(line + 4))
		stream_fail(s, "header #%c: is not one line of valid UTF-8 text", key);
	if (key != 'W' && stream_header(s, key) != NULL)
		stream_fail(s, "header #%c: given twice", key);
	if (key == 'B') {
		const char *why;
		if (board_range_parse(line + 4, &s->range, &why) == -1)
			stream_fail(s, "#B: %s", why);
		s->has_range = 1;
	}
	s->headers = xreallocarray(s->headers, s->nheaders + 1, sizeof *s->headers);
	s->headers[s->nheaders++] = xstrdup(line);
}

void
stream_open(struct stream_in *s, FILE *in, enum stream_kind expected)
{
	char *line;
	size_t len;

	memset(s, 0, sizeof *s);
	line_reader_open(&s->lines, in, NULL);
	s->kind = expected;
	line = line_next(&s->lines, &len);
	if (line == NULL)
		errx(input_error_status, "empty input (expected a %s stream)", stream_kind_name(expected));
	if (strncmp(line, "#P: ", 4) == 0) {
		parse_protocol_line(s, line, expected);
		s->headed = 1;
		while ((line = line_next(&s->lines, &len)) != NULL && line[0] == '#')
			add_header(s, line);
	} else if (line[0] == '#')
		stream_fail(s, "a stream with headers must begin with \"#P: dl/%d %s\"",
		    PROTO_VERSION, stream_kind_name(expected));
	s->pending = line;
	s->pending_len = len;
}

void
stream_close(struct stream_in *s)
{
	for (size_t i = 0; i < s->nheaders; i++)
		free(s->headers[i]);
	free(s->headers);
	line_reader_close(&s->lines);
}

char *
stream_next_record(struct stream_in *s, size_t *len)
{
	char *line;

	if (s->pending != NULL) {
		line = s->pending;
		*len = s->pending_len;
		s->pending = NULL;
	} else {
		line = line_next(&s->lines, len);
		if (line == NULL)
			return NULL;
	}
	if (line[0] == '#')
		stream_fail(s, "header line after the first record");
	return line;
}

const char *
stream_header(const struct stream_in *s, char key)
{
	for (size_t i = 0; i < s->nheaders; i++)
		if (s->headers[i][1] == key)
			return s->headers[i] + 4;
	return NULL;
}

void
stream_write_headers(FILE *out, enum stream_kind kind, const struct stream_in *in,
    const char *drop)
{
	fprintf(out, "#P: %s/%d %s\n", PROTO_NAME, PROTO_VERSION, stream_kind_name(kind));
	for (size_t i = 0; in != NULL && i < in->nheaders; i++)
		if (strchr(drop, in->headers[i][1]) == NULL)
			fprintf(out, "%s\n", in->headers[i]);
}

char *
record_board(struct stream_in *s, char *line, unsigned *board)
{
	char *space = strchr(line, ' ');
	char *field = line;

	if (s->boards == 0)
		s->first_board = s->next_board = s->has_range ? s->range.low : 1;
	if (space == NULL) {
		if (s->headed)
			stream_fail(s, "record without a board number");
	} else {
		struct board_range one;
		*space = '\0';
		if (board_number_parse(line, (size_t)(space - line), &one.high) == -1)
			stream_fail(s, "bad board number \"%.20s\"", line);
		/* a plain file may start at any board (a uids list of 17-32) */
		if (s->boards == 0 && !s->has_range)
			s->first_board = s->next_board = one.high;
		if (s->has_range && (one.high < s->range.low || one.high > s->range.high))
			stream_fail(s, "board %u outside the range %u-%u of the header",
			    one.high, s->range.low, s->range.high);
		if (one.high != s->next_board)
			stream_fail(s, "board %u out of order (expected board %u)",
			    one.high, s->next_board);
		field = space + 1;
	}
	if (s->next_board > BOARD_MAX)
		stream_fail(s, "too many boards (at most %u)", BOARD_MAX);
	*board = s->next_board++;
	s->boards++;
	return field;
}

void
record_deal(struct stream_in *s, char *line, unsigned *board, unsigned char owner[CARDS])
{
	char *field = record_board(s, line, board);
	const char *why = deal_from_tso(field, strlen(field), owner);

	if (why != NULL)
		stream_fail(s, "%s", why);
}

u128
record_number(struct stream_in *s, char *line, unsigned *board)
{
	u128 number;

	if (deal_number_from_hex(record_board(s, line, board), &number) == -1)
		stream_fail(s, "deal number is not 24 lowercase hex digits");
	if (number >= DEAL_COUNT)
		stream_fail(s, "deal number out of range");
	return number;
}

void
stream_check_complete(const struct stream_in *s)
{
	if (s->boards == 0)
		errx(input_error_status, "no boards in the input");
	if (s->has_range && s->next_board != s->range.high + 1)
		errx(input_error_status, "input ends after board %u, but its header announced boards %u-%u",
		    s->next_board - 1, s->range.low, s->range.high);
}
