#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stream/proto.h"
#include "stream/tso.h"

static const char *const kind_names[] = { "seed", "numbers", "deals", "deals+dd", "sets" };
/* The same kinds of deals whose records carry each board's own dealer and
 * vulnerability ("+dv"); NULL: no such kind. */
static const char *const own_dv_kind_names[] = { NULL, NULL, "deals+dv", "deals+dv+dd", NULL };

const char *
stream_kind_name(enum stream_kind kind)
{
	return kind_names[kind];
}

int
stream_error(const struct stream_in *s, struct dl_error *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line_verror(&s->lines, e, fmt, ap);
	va_end(ap);
	return -1;
}

int
header_value_is_valid(const char *value)
{
	/* "#K: value" must fit in a line, or no reader takes it back: the
	 * stream after dl-seed --event, the .sqd after dl-sqd set-dv */
	if (strlen(value) > LINE_MAX_BYTES - 4)
		return 0;
	return text_is_printable(value, strlen(value));
}

int
event_text_check(const char *text, struct dl_error *e)
{
	if (!header_value_is_valid(text))
		return dl_error_set(e, DL_ERR_USAGE, "not one line of valid UTF-8 text");
	if (strlen(text) > EVENT_MAX_BYTES)
		return dl_error_set(e, DL_ERR_USAGE, "longer than %d bytes", EVENT_MAX_BYTES);
	return 0;
}

int
date_text_check(const char *text, struct dl_error *e)
{
	static const char form[] = "9999.99.99";

	for (size_t i = 0; i < sizeof form; i++) {
		char c = text[i];
		if (form[i] == '\0' ? c != '\0' : form[i] == '.' ? c != '.' :
		    !((c >= '0' && c <= '9') || c == '?'))
			return dl_error_set(e, DL_ERR_USAGE, "not YYYY.MM.DD (PBN's form, "
			    "? for a part not known)");
		if (c == '\0')
			break;
	}
	return 0;
}

int
record_url_check(const char *url, struct dl_error *e)
{
	static const char allowed[] = "-._~:/?#[]@!$&'()*+,;=%";
	size_t len = strlen(url), scheme, host;

	if (len > RECORD_URL_MAX)
		return dl_error_set(e, DL_ERR_USAGE, "longer than %d bytes (a QR code that "
		    "large is hard to scan from paper)", RECORD_URL_MAX);
	if (strncasecmp(url, "http://", 7) == 0)
		scheme = 7;
	else if (strncasecmp(url, "https://", 8) == 0)
		scheme = 8;
	else
		return dl_error_set(e, DL_ERR_USAGE, "not an http:// or https:// address");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)url[i];
		if (c == ' ')
			return dl_error_set(e, DL_ERR_USAGE, "a space at byte %zu (write it "
			    "%%20)", i + 1);
		if (c < 0x21 || c > 0x7e)
			return dl_error_set(e, DL_ERR_USAGE, "byte %zu is not a printable ASCII "
			    "character (write it %%XX)", i + 1);
		if (!isalnum(c) && strchr(allowed, c) == NULL)
			return dl_error_set(e, DL_ERR_USAGE, "'%c' at byte %zu is not a "
			    "character of an address (write it %%%02X)", c, i + 1, c);
		if (c == '%' && !(isxdigit((unsigned char)url[i + 1]) &&
		    isxdigit((unsigned char)url[i + 2])))
			return dl_error_set(e, DL_ERR_USAGE, "'%%' at byte %zu is not followed "
			    "by two hex digits", i + 1);
	}
	host = strcspn(url + scheme, "/?#");
	if (host == 0)
		return dl_error_set(e, DL_ERR_USAGE, "no host after %.*s", (int)scheme, url);
	if (memchr(url + scheme, '@', host) != NULL)
		return dl_error_set(e, DL_ERR_USAGE, "a user or password before the host "
		    "('@'): a printed address carries none");
	return 0;
}

/* The kind a message says was expected. */
static const char *
wanted_kind(const struct stream_in *s, enum stream_kind expected)
{
	return s->any_kind ? "numbers, deals or deals+dd" : stream_kind_name(expected);
}

const char *
stream_kind_text(enum stream_kind kind, int own_dv)
{
	return own_dv && own_dv_kind_names[kind] != NULL ? own_dv_kind_names[kind] :
	    kind_names[kind];
}

/* The kind named by name: 0 with *kind and *own_dv, or -1. */
static int
kind_by_name(const char *name, enum stream_kind *kind, int *own_dv)
{
	for (unsigned k = 0; k < sizeof kind_names / sizeof kind_names[0]; k++) {
		*kind = (enum stream_kind)k;
		if ((*own_dv = 0, strcmp(name, kind_names[k]) == 0) ||
		    (*own_dv = 1, own_dv_kind_names[k] != NULL &&
		    strcmp(name, own_dv_kind_names[k]) == 0))
			return 0;
	}
	return -1;
}

static int
parse_protocol_line(struct stream_in *s, const char *line, enum stream_kind expected,
    struct dl_error *e)
{
	const char *p = line + 4;
	size_t namelen = strlen(PROTO_NAME);
	char *end;

	if (strncmp(p, PROTO_NAME "/", namelen + 1) != 0)
		return stream_error(s, e, "not a dl stream (expected \"#P: dl/%d %s\")",
		    PROTO_VERSION, wanted_kind(s, expected));
	p += namelen + 1;
	/* digits only: strtol alone would take "dl/ 1" or "dl/+1" for dl/1 */
	long version = strtol(p, &end, 10);
	if (!(*p >= '0' && *p <= '9') || *end != ' ')
		return stream_error(s, e, "garbled protocol line");
	if (version != PROTO_VERSION)
		return stream_error(s, e,
		    "unsupported protocol version dl/%.*s (this tool reads dl/%d)",
		    (int)(end - p < 20 ? end - p : 20), p, PROTO_VERSION);
	enum stream_kind k;
	int own_dv;
	if (kind_by_name(end + 1, &k, &own_dv) == 0) {
		/* a board's own dealer and vulnerability, for the tools that
		 * keep them: the others refuse the stream by its name */
		int dv_taken = !own_dv || s->any_kind || (s->takes & STREAM_TAKES_OWN_DV);
		if (dv_taken && s->any_kind && k != STREAM_SEED && k != STREAM_SETS) {
			s->kind = k;
			s->own_dv = own_dv;
			return 0;
		}
		/* a sets stream (dl-archive export --all) where a set is
		 * read: its sets follow, stream_open_next opens each */
		if (k == STREAM_SETS && expected == STREAM_DEALS && (s->takes & STREAM_TAKES_SETS)) {
			s->kind = STREAM_SETS;
			return 0;
		}
		if (dv_taken && k == STREAM_ANALYSED && expected == STREAM_DEALS &&
		    (s->takes & STREAM_TAKES_ANALYSED)) {
			s->kind = STREAM_ANALYSED;
			s->own_dv = own_dv;
			return 0;
		}
		if (!dv_taken || k != expected)
			return stream_error(s, e, "expected a %s stream, got a %s stream",
			    wanted_kind(s, expected), stream_kind_text(k, own_dv));
		s->own_dv = own_dv;
		return 0;
	}
	return stream_error(s, e, "unknown stream kind \"%.40s\"", end + 1);
}

static int
add_header(struct stream_in *s, const char *line, struct dl_error *e)
{
	char key = line[1];

	if (!(key >= 'A' && key <= 'Z') || line[2] != ':' || line[3] != ' ')
		return stream_error(s, e, "garbled header line (expected \"#K: value\")");
	if (key == 'P')
		return stream_error(s, e, "protocol line #P: out of place");
	if (!header_value_is_valid(line + 4))
		return stream_error(s, e, "header #%c: is not one line of valid UTF-8 text", key);
	if ((key == 'I' || key == 'S') && strlen(line + 4) > EVENT_MAX_BYTES)
		return stream_error(s, e, "header #%c: longer than %d bytes", key, EVENT_MAX_BYTES);
	if (key == 'D' && date_text_check(line + 4, e) == -1) {
		dl_error_prefix(e, "header #D");
		return line_error_locate(&s->lines, e);
	}
	if (key == 'U' && record_url_check(line + 4, e) == -1) {
		dl_error_prefix(e, "header #U");
		return line_error_locate(&s->lines, e);
	}
	if (key != 'W' && stream_header(s, key) != NULL)
		return stream_error(s, e, "header #%c: given twice", key);
	if (key == 'B') {
		const char *why;
		if (board_range_parse(line + 4, &s->range, &why) == -1)
			return stream_error(s, e, "#B: %s", why);
		s->has_range = 1;
	}
	s->headers = xreallocarray(s->headers, s->nheaders + 1, sizeof *s->headers);
	s->headers[s->nheaders++] = xstrdup(line);
	return 0;
}

int
stream_open(struct stream_in *s, FILE *in, enum stream_kind expected, struct dl_error *e)
{
	return stream_open_file(s, in, NULL, expected, e);
}

static int stream_open_kinds(struct stream_in *s, FILE *in, const char *name,
    enum stream_kind expected, unsigned takes, struct dl_error *e);
static int stream_open_headed(struct stream_in *s, FILE *in, const char *name,
    enum stream_kind expected, struct dl_error *e);
static int stream_read_head(struct stream_in *s, char *line, size_t len,
    enum stream_kind expected, struct dl_error *e);

/* In a sets stream, or a stream of one (STREAM_TAKES_NEXT), a protocol
 * line after the headers or the records is where the next stream begins. */
static int
next_stream_begins(const struct stream_in *s, const char *line)
{
	return (s->kind == STREAM_SETS || (s->takes & STREAM_TAKES_NEXT)) &&
	    strncmp(line, "#P: ", 4) == 0;
}

int
stream_open_file(struct stream_in *s, FILE *in, const char *name, enum stream_kind expected,
    struct dl_error *e)
{
	return stream_open_kinds(s, in, name, expected, 0, e);
}

int
stream_open_deals(struct stream_in *s, FILE *in, unsigned takes, struct dl_error *e)
{
	return stream_open_kinds(s, in, NULL, STREAM_DEALS, takes, e);
}

int
stream_open_any(struct stream_in *s, FILE *in, const char *name, struct dl_error *e)
{
	memset(s, 0, sizeof *s);
	s->any_kind = 1;
	if (stream_open_headed(s, in, name, STREAM_NUMBERS, e) == -1)
		return -1;
	if (!s->headed)
		return stream_error(s, e, "a stream with headers must begin with "
		    "\"#P: dl/%d KIND\"", PROTO_VERSION);
	return 0;
}

static int
stream_open_kinds(struct stream_in *s, FILE *in, const char *name, enum stream_kind expected,
    unsigned takes, struct dl_error *e)
{
	memset(s, 0, sizeof *s);
	s->takes = takes;
	return stream_open_headed(s, in, name, expected, e);
}

static int
stream_open_headed(struct stream_in *s, FILE *in, const char *name, enum stream_kind expected,
    struct dl_error *e)
{
	char *line;
	size_t len;
	int got;

	line_reader_open(&s->lines, in, name);
	s->kind = expected;
	if ((got = line_next(&s->lines, &line, &len, e)) == -1)
		return -1;
	if (got == 0)
		return name != NULL ? dl_error_set(e, DL_ERR_INPUT, "%s: empty (expected a %s "
		    "stream)", name, wanted_kind(s, expected)) : dl_error_set(e, DL_ERR_INPUT,
		    "empty input (expected a %s stream)", wanted_kind(s, expected));
	return stream_read_head(s, line, len, expected, e);
}

/* A stream's protocol line, line, and its headers after it: the line
 * after them is held for stream_next_record (s->pending). */
static int
stream_read_head(struct stream_in *s, char *line, size_t len, enum stream_kind expected,
    struct dl_error *e)
{
	int got;

	if (strncmp(line, "#P: ", 4) == 0) {
		if (parse_protocol_line(s, line, expected, e) == -1)
			return -1;
		s->headed = 1;
		while ((got = line_next(&s->lines, &line, &len, e)) == 1 && line[0] == '#') {
			/* a sets stream's headers end where its first set begins */
			if (next_stream_begins(s, line))
				break;
			if (add_header(s, line, e) == -1)
				return -1;
		}
		if (got == -1)
			return -1;
		if (got == 0)
			line = NULL;
	} else if (line[0] == '#')
		return stream_error(s, e, "a stream with headers must begin with \"#P: dl/%d %s\"",
		    PROTO_VERSION, wanted_kind(s, expected));
	s->pending = line;
	s->pending_len = line != NULL ? len : 0;
	return 0;
}

int
stream_open_next(struct stream_in *next, struct stream_in *s, enum stream_kind expected,
    unsigned takes, struct dl_error *e)
{
	char *line = s->pending;
	size_t len = s->pending_len;

	memset(next, 0, sizeof *next);
	next->takes = takes;
	next->kind = expected;
	if (line == NULL)
		return 0;
	/* a sets stream holds streams only, each from its protocol line */
	if (!next_stream_begins(s, line))
		return stream_error(s, e, "expected a set's \"#P: dl/%d deals\" line",
		    PROTO_VERSION);
	/* the lines go on from where s stopped: one reader, handed on */
	next->lines = s->lines;
	s->lines.buf = NULL;
	s->pending = NULL;
	if (stream_read_head(next, line, len, expected, e) == -1)
		return -1;
	return 1;
}

void
stream_close(struct stream_in *s)
{
	for (size_t i = 0; i < s->nheaders; i++)
		free(s->headers[i]);
	free(s->headers);
	s->headers = NULL;
	s->nheaders = 0;
	if (s->lines.buf != NULL)
		line_reader_close(&s->lines);
}

int
stream_next_record(struct stream_in *s, char **linep, size_t *len, struct dl_error *e)
{
	char *line;

	if (s->pending != NULL) {
		/* the next stream's protocol line stays for stream_open_next */
		if (next_stream_begins(s, s->pending))
			return 0;
		line = s->pending;
		*len = s->pending_len;
		s->pending = NULL;
	} else {
		int got = line_next(&s->lines, &line, len, e);
		if (got <= 0)
			return got;
	}
	if (line[0] == '#') {
		if (next_stream_begins(s, line)) {
			s->pending = line;
			s->pending_len = *len;
			return 0;
		}
		return stream_error(s, e, "header line after the first record");
	}
	*linep = line;
	return 1;
}

const char *
stream_header(const struct stream_in *s, char key)
{
	for (size_t i = 0; i < s->nheaders; i++)
		if (s->headers[i][1] == key)
			return s->headers[i] + 4;
	return NULL;
}

enum stream_kind
stream_kind_of(const struct stream_in *s)
{
	return s->kind;
}

int
stream_own_dv(const struct stream_in *s)
{
	return s->own_dv;
}

void
stream_board_dv(const struct stream_in *s, int *dealer, int *vulnerability)
{
	*dealer = s->dealer;
	*vulnerability = s->vulnerability;
}

int
stream_is_plain(const struct stream_in *s)
{
	return !s->headed;
}

int
stream_range(const struct stream_in *s, struct board_range *range)
{
	if (!s->has_range)
		return 0;
	*range = s->range;
	return 1;
}

char *const *
stream_headers(const struct stream_in *s, size_t *n)
{
	*n = s->nheaders;
	return s->headers;
}

int
stream_headers_match(const struct stream_in *a, const struct stream_in *b,
    const char *ignore)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < a->nheaders && strchr(ignore, a->headers[i][1]) != NULL)
			i++;
		while (j < b->nheaders && strchr(ignore, b->headers[j][1]) != NULL)
			j++;
		if (i == a->nheaders || j == b->nheaders)
			return i == a->nheaders && j == b->nheaders;
		if (strcmp(a->headers[i], b->headers[j]) != 0)
			return 0;
		i++;
		j++;
	}
}

unsigned
stream_boards_read(const struct stream_in *s, struct board_range *boards)
{
	if (s->boards > 0) {
		boards->low = s->first_board;
		boards->high = s->next_board - 1;
	}
	return s->boards;
}

/* The common record, "BOARD FIELD" with a valid board number: the digits
 * are found without strchr's pass over the whole line, which took a tenth
 * of dl-map's time.  The space after the board, and its number; or NULL,
 * and the general code says what is wrong, if anything. */
static char *
board_and_space(char *line, unsigned *board)
{
	size_t i = 0;

	/* one digit more than a board number has stops the scan */
	while (i <= 10 && line[i] >= '0' && line[i] <= '9')
		i++;
	if (line[i] != ' ' || board_number_parse(line, i, board) == -1)
		return NULL;
	return line + i;
}

int
record_board(struct stream_in *s, char *line, unsigned *board, char **fieldp,
    struct dl_error *e)
{
	unsigned number;
	char *space = board_and_space(line, &number);
	int parsed = space != NULL;
	char *field = line;

	if (!parsed)
		space = strchr(line, ' ');
	if (s->boards == 0)
		s->first_board = s->next_board = s->has_range ? s->range.low : 1;
	if (space == NULL) {
		if (s->headed)
			return stream_error(s, e, "record without a board number");
	} else {
		*space = '\0';
		if (!parsed && board_number_parse(line, (size_t)(space - line), &number) == -1)
			return stream_error(s, e, "bad board number \"%.20s\"", line);
		/* a plain file may start at any board (a uids list of 17-32) */
		if (s->boards == 0 && !s->has_range)
			s->first_board = s->next_board = number;
		if (s->has_range && (number < s->range.low || number > s->range.high))
			return stream_error(s, e, "board %u outside the range %u-%u of the header",
			    number, s->range.low, s->range.high);
		/* a set's own order (dl-archive import): any boards, in any
		 * order, when no #B: announces a run of them */
		if ((s->takes & STREAM_TAKES_ANY_ORDER) && !s->has_range)
			s->next_board = number;
		if (number != s->next_board)
			return stream_error(s, e, "board %u out of order (expected board %u)",
			    number, s->next_board);
		field = space + 1;
	}
	if (s->next_board > BOARD_MAX)
		return stream_error(s, e, "too many boards (at most %u)", BOARD_MAX);
	*board = s->next_board++;
	s->boards++;
	*fieldp = field;
	return 0;
}

size_t
record_line_restore(char *line, size_t len, char *field)
{
	/* a plain record has no board: nothing was cut before its field */
	if (field > line)
		field[-1] = ' ';
	line[len] = '\n';
	return len + 1;
}

/* A board's dealer and vulnerability in a +dv record: a seat letter and
 * PBN's word. */
static const char dealer_letters[] = DL_SEAT_LETTERS;
static const char *const vulnerability_words[] = { "None", "NS", "EW", "All" };

/* "DEALER VULNERABILITY" at text, ended by a space or the end: the
 * position after it, or NULL. */
static char *
dv_parse(char *text, int *dealer, int *vulnerability)
{
	const char *seat = text[0] != '\0' ? strchr(dealer_letters, text[0]) : NULL;

	if (seat == NULL || text[1] != ' ')
		return NULL;
	text += 2;
	for (int v = 0; v < 4; v++) {
		size_t len = strlen(vulnerability_words[v]);
		if (strncmp(text, vulnerability_words[v], len) == 0 &&
		    (text[len] == ' ' || text[len] == '\0')) {
			*dealer = (int)(seat - dealer_letters);
			*vulnerability = v;
			return text + len;
		}
	}
	return NULL;
}

int
record_deal(struct stream_in *s, char *line, size_t len, unsigned *board,
    unsigned char owner[CARDS], struct dl_error *e)
{
	char *field, *end = line + len, *rest;
	const char *why;

	if (record_board(s, line, board, &field, e) == -1)
		return -1;
	s->dealer = (int)dl_dealer(*board);
	s->vulnerability = (int)dl_vulnerability(*board);
	if (s->kind != STREAM_ANALYSED && !s->own_dv) {
		/* a line holds no NUL: the field is the rest of it */
		if ((why = deal_from_tso(field, len - (size_t)(field - line), owner)) != NULL)
			return stream_error(s, e, "%s", why);
		return 0;
	}
	char *space = strchr(field, ' ');
	if (space == NULL)
		return stream_error(s, e, s->own_dv ? "a %s record without its dealer and "
		    "vulnerability" : "a %s record without its analysis",
		    stream_kind_text(s->kind, s->own_dv));
	if ((why = deal_from_tso(field, (size_t)(space - field), owner)) != NULL)
		return stream_error(s, e, "%s", why);
	rest = space + 1;
	if (s->own_dv) {
		if ((rest = dv_parse(rest, &s->dealer, &s->vulnerability)) == NULL)
			return stream_error(s, e, "board %u: not a dealer and vulnerability "
			    "(N, E, S or W, then None, NS, EW or All)", *board);
		if (s->kind != STREAM_ANALYSED) {
			if (rest != end)
				return stream_error(s, e, "board %u: more after the dealer and "
				    "vulnerability", *board);
			return 0;
		}
		if (*rest != ' ')
			return stream_error(s, e, "a %s record without its analysis",
			    stream_kind_text(s->kind, s->own_dv));
		rest++;
	}
	if ((why = analysis_parse(rest, (unsigned)s->vulnerability, &s->analysis)) != NULL)
		return stream_error(s, e, "%s", why);
	return 0;
}

const struct dl_analysis *
stream_analysis(const struct stream_in *s)
{
	return s->kind == STREAM_ANALYSED ? &s->analysis : NULL;
}

int
record_number(struct stream_in *s, char *line, unsigned *board, u128 *number,
    struct dl_error *e)
{
	char *field;

	if (record_board(s, line, board, &field, e) == -1)
		return -1;
	if (deal_number_from_hex(field, number) == -1)
		return stream_error(s, e, "deal number is not 24 lowercase hex digits");
	if (*number >= DEAL_COUNT)
		return stream_error(s, e, "deal number out of range");
	return 0;
}

int
stream_check_complete(const struct stream_in *s, struct dl_error *e)
{
	if (s->boards == 0)
		return dl_error_set(e, DL_ERR_INPUT, "no boards in the input");
	if (s->has_range && s->next_board != s->range.high + 1)
		return dl_error_set(e, DL_ERR_INPUT,
		    "input ends after board %u, but its header announced boards %u-%u",
		    s->next_board - 1, s->range.low, s->range.high);
	return 0;
}

void
stream_out_begin(struct stream_out *o, FILE *fp, enum stream_kind kind)
{
	stream_out_begin_dv(o, fp, kind, 0);
}

void
stream_out_begin_dv(struct stream_out *o, FILE *fp, enum stream_kind kind, int own_dv)
{
	o->fp = fp;
	o->kind = kind;
	o->own_dv = own_dv && own_dv_kind_names[kind] != NULL;
	fprintf(fp, "#P: %s/%d %s\n", PROTO_NAME, PROTO_VERSION,
	    stream_kind_text(kind, o->own_dv));
}

int
stream_out_begin_like(struct stream_out *o, FILE *fp, const struct stream_in *in,
    enum stream_kind kind)
{
	if (stream_is_plain(in)) {
		o->fp = fp;
		o->kind = kind;
		o->own_dv = 0;
		return 0;
	}
	/* a deals stream out keeps the boards' own dealers and vulnerability */
	stream_out_begin_dv(o, fp, kind, in->own_dv);
	return 1;
}

void
stream_out_header(struct stream_out *o, char key, const char *value)
{
	fprintf(o->fp, "#%c: %s\n", key, value);
}

void
stream_out_headerf(struct stream_out *o, char key, const char *fmt, ...)
{
	va_list ap;

	fprintf(o->fp, "#%c: ", key);
	va_start(ap, fmt);
	vfprintf(o->fp, fmt, ap);
	va_end(ap);
	putc('\n', o->fp);
}

void
stream_out_copy_headers(struct stream_out *o, const struct stream_in *in, const char *drop)
{
	for (size_t i = 0; in != NULL && i < in->nheaders; i++)
		if (strchr(drop, in->headers[i][1]) == NULL)
			fprintf(o->fp, "%s\n", in->headers[i]);
}

void
stream_out_copy_headers_with_range(struct stream_out *o, const struct stream_in *in,
    const char *drop, const struct board_range *boards)
{
	int ranged = 0;

	for (size_t i = 0; i < in->nheaders; i++) {
		const char *h = in->headers[i];
		if (h[1] != 'B') {
			if (strchr(drop, h[1]) == NULL)
				fprintf(o->fp, "%s\n", h);
		} else if (boards != NULL) {
			stream_out_range(o, boards->low, boards->high);
			ranged = 1;
		}
	}
	if (boards != NULL && !ranged)
		stream_out_range(o, boards->low, boards->high);
}

void
stream_out_range(struct stream_out *o, unsigned low, unsigned high)
{
	fprintf(o->fp, "#B: %u-%u\n", low, high);
}

void
stream_out_shard(struct stream_out *o, const struct stream_shard *sh)
{
	fprintf(o->fp, "#H: %u/%u %u-%u\n", sh->part, sh->parts, sh->whole.low, sh->whole.high);
}

int
shard_parse(const char *text, size_t len, unsigned *part, unsigned *parts, const char **why)
{
	const char *slash = memchr(text, '/', len);
	char number[16];
	uint64_t k, n;
	size_t klen = slash != NULL ? (size_t)(slash - text) : 0;

	const char *unused;
	int ok;

	if (slash == NULL || klen >= sizeof number || len - klen - 1 >= sizeof number) {
		*why = "not K/N (shard K of N)";
		return -1;
	}
	memcpy(number, text, klen);
	number[klen] = '\0';
	ok = u64_parse(number, BOARD_MAX, &k, &unused) == 0;
	memcpy(number, slash + 1, len - klen - 1);
	number[len - klen - 1] = '\0';
	ok = ok && u64_parse(number, BOARD_MAX, &n, &unused) == 0 && k > 0 && n > 0 && k <= n;
	if (!ok) {
		*why = "not K/N with 1 <= K <= N";
		return -1;
	}
	*part = (unsigned)k;
	*parts = (unsigned)n;
	return 0;
}

int
shard_boards(const struct stream_shard *sh, struct board_range *boards)
{
	uint64_t size = (uint64_t)sh->whole.high - sh->whole.low + 1;

	if (sh->parts > size)
		return -1;
	boards->low = (unsigned)(sh->whole.low + (sh->part - 1) * size / sh->parts);
	boards->high = (unsigned)(sh->whole.low + sh->part * size / sh->parts - 1);
	return 0;
}

int
stream_shard(const struct stream_in *s, struct stream_shard *sh, struct dl_error *e)
{
	const char *value = stream_header(s, 'H'), *space, *why;

	memset(sh, 0, sizeof *sh);
	if (value == NULL)
		return 0;
	if ((space = strchr(value, ' ')) == NULL ||
	    shard_parse(value, (size_t)(space - value), &sh->part, &sh->parts, &why) == -1) {
		memset(sh, 0, sizeof *sh);
		return stream_error(s, e, "#H: not \"K/N LOW-HIGH\" (shard K of N)");
	}
	if (board_range_parse(space + 1, &sh->whole, &why) == -1) {
		memset(sh, 0, sizeof *sh);
		return stream_error(s, e, "#H: %s", why);
	}
	return 0;
}

/* The record lines by hand: printf is too slow for millions of boards. */
size_t
record_number_text(char *line, unsigned board, u128 number)
{
	char *p = put_unsigned(line, board);

	*p++ = ' ';
	deal_number_to_hex(number, p);
	p[DEAL_NUMBER_HEX] = '\n';
	return (size_t)(p + DEAL_NUMBER_HEX + 1 - line);
}

/* The decimal digits of board + 1 from those of board, len of them: their
 * number, one more when all were nines. */
static size_t
count_up(char *digits, size_t len)
{
	size_t i = len;

	while (i > 0 && digits[i - 1] == '9')
		digits[--i] = '0';
	if (i > 0) {
		digits[i - 1]++;
		return len;
	}
	digits[0] = '1';
	digits[len] = '0';
	return len + 1;
}

size_t
records_deal_text(char *text, unsigned board, size_t count,
    const unsigned char (*owner)[CARDS])
{
	char digits[16];	/* BOARD_MAX has 10 */
	size_t len = (size_t)(put_unsigned(digits, board) - digits);
	char *p = text;

	for (size_t i = 0; i < count; i++) {
		/* all 16 bytes: a copy of fixed length is a move or two, and
		 * the record, longer, overwrites what follows the digits */
		memcpy(p, digits, sizeof digits);
		p += len;
		*p++ = ' ';
		deal_to_tso(owner[i], p);
		p[TSO_DIGITS] = '\n';
		p += TSO_DIGITS + 1;
		len = count_up(digits, len);
	}
	return (size_t)(p - text);
}

size_t
record_deal_text(char *line, unsigned board, const unsigned char owner[CARDS])
{
	return records_deal_text(line, board, 1, (const unsigned char (*)[CARDS])owner);
}

void
stream_out_number(struct stream_out *o, unsigned board, u128 number)
{
	char line[RECORD_TEXT_MAX];

	fwrite_unlocked(line, 1, record_number_text(line, board, number), o->fp);
}

void
stream_out_deal(struct stream_out *o, unsigned board, const unsigned char owner[CARDS])
{
	char line[RECORD_TEXT_MAX];

	fwrite_unlocked(line, 1, record_deal_text(line, board, owner), o->fp);
}

/* " DEALER VULNERABILITY" at p, in a +dv stream: past it. */
static char *
put_dv(const struct stream_out *o, char *p, int dealer, int vulnerability)
{
	if (!o->own_dv)
		return p;
	*p++ = ' ';
	*p++ = dealer_letters[dealer];
	*p++ = ' ';
	strcpy(p, vulnerability_words[vulnerability]);
	return p + strlen(p);
}

void
stream_out_deal_dv(struct stream_out *o, unsigned board, const unsigned char owner[CARDS],
    int dealer, int vulnerability)
{
	char line[RECORD_TEXT_MAX + DV_TEXT_MAX], *p;

	if (!o->own_dv) {
		stream_out_deal(o, board, owner);
		return;
	}
	p = line + record_deal_text(line, board, owner) - 1;	/* over its LF */
	p = put_dv(o, p, dealer, vulnerability);
	*p++ = '\n';
	fwrite_unlocked(line, 1, (size_t)(p - line), o->fp);
}

void
stream_out_analysed(struct stream_out *o, unsigned board, const unsigned char owner[CARDS],
    int dealer, int vulnerability, const struct dl_analysis *a)
{
	char line[16 + TSO_DIGITS + DV_TEXT_MAX + 1 + ANALYSIS_TEXT_MAX + 1];
	char *p = put_unsigned(line, board);

	*p++ = ' ';
	deal_to_tso(owner, p);
	p += TSO_DIGITS;
	p = put_dv(o, p, dealer, vulnerability);
	*p++ = ' ';
	analysis_format(a, p);
	p += strlen(p);
	*p++ = '\n';
	fwrite_unlocked(line, 1, (size_t)(p - line), o->fp);
}
