/* Moving an archive (deal_archive.h, docs/archive.md "Moving an archive"):
 * a set out as a stream of its own with all the archive knows of it, every
 * set out as one sets stream, and either read back into another archive
 * as it was: the same deals in the same order, the same description, and
 * the same record (who archived it, when, from where, when it was played).
 *
 * A set's stream is its deals stream (deals+dv when its boards have
 * dealers or vulnerabilities of their own), its header lines as it came
 * with them (made from its description when it came from a file), and
 * the archive's record of it in one header, #R:, of fields "name=value"
 * (docs/protocol.md): what no other header says.  A set whose boards do
 * not run in a row (a file's boards 10, 1, 14, or 1300 down to 1001) has
 * no #B:, and its records come in its own order, which only
 * dl-archive import reads; the fingerprint in #R: then says that none is
 * missing. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "archive/deal_archive.h"
#include "archive/backend.h"
#include "stream/proto.h"
#include "base/util.h"

/* The archive's record of a set: each field of struct archive_set that
 * export writes and import reads back, and its name in #R:.  A field a
 * stream header says (header: its key) is in #R: only when the set's
 * headers do not say it as the archive holds it (a file's date in a form
 * of its own, which no #D: takes).  A new field of struct archive_set is
 * a line here.  size: a char array's; 0 for a char pointer. */
static const struct record_field {
	const char *name;
	char header;
	size_t offset, size;
} record_fields[] = {
	{ "archived", 0, offsetof(struct archive_set, archived), ARCHIVE_TIME_SIZE },
	{ "played", 0, offsetof(struct archive_set, played), ARCHIVE_TIME_SIZE },
	{ "user", 0, offsetof(struct archive_set, user), 0 },
	{ "source", 0, offsetof(struct archive_set, source), 0 },
	{ "fingerprint", 0, offsetof(struct archive_set, fingerprint), SET_FINGERPRINT_SIZE },
	{ "club", 0, offsetof(struct archive_set, club), 0 },
	{ "played_by", 0, offsetof(struct archive_set, played_by), 0 },
	{ "shared", 0, offsetof(struct archive_set, shared), ARCHIVE_TIME_SIZE },
	{ "event", 'I', offsetof(struct archive_set, event), 0 },
	{ "site", 'S', offsetof(struct archive_set, site), 0 },
	{ "date", 'D', offsetof(struct archive_set, date), 0 },
	{ "generator", 'G', offsetof(struct archive_set, generator), 0 },
};
#define RECORD_FIELDS (sizeof record_fields / sizeof record_fields[0])
#define RECORD_KEY 'R'

int
archive_record_header(const char *line)
{
	return line[0] == '#' && line[1] == RECORD_KEY && line[2] == ':';
}

/* The field's value in set: NULL when it has none ("" in an array). */
static const char *
field_get(const struct archive_set *set, const struct record_field *f)
{
	const char *at = (const char *)set + f->offset;

	if (f->size != 0)
		return *at != '\0' ? at : NULL;
	return *(char *const *)(const void *)at;
}

/* An array's value is copied only when it fits, else it is "!", which no
 * check passes: archive_set_fault refuses it as it refuses a row's. */
static void
field_set(struct archive_set *set, const struct record_field *f, const char *value)
{
	char *at = (char *)set + f->offset;

	if (f->size != 0)
		column_copy(at, f->size, value);
	else {
		free(*(char **)(void *)at);
		*(char **)(void *)at = xstrdup(value);
	}
}

/* The value of header key in headers ("#K: value\n" lines), allocated,
 * or NULL. */
static char *
header_in(const char *headers, char key)
{
	for (const char *line = headers; line != NULL && *line != '\0';) {
		const char *end = strchr(line, '\n');

		if (end == NULL)
			break;
		if (line[1] == key && end - line >= 4)
			return xstrndup(line + 4, (size_t)(end - line - 4));
		line = end + 1;
	}
	return NULL;
}

static int
header_says(const char *headers, char key)
{
	char *value = header_in(headers, key);
	int says = value != NULL;

	free(value);
	return says;
}

/* Whether a description's value can be said by its stream header, whose
 * rules are narrower than a row's: an event or site of at most 500 bytes,
 * a date in PBN's form. */
static int
header_takes(char key, const char *value)
{
	struct dl_error e;

	switch (key) {
	case 'I':
	case 'S':
		return event_text_check(value, &e) == 0;
	case 'D':
		return date_text_check(value, &e) == 0;
	default:
		return header_value_is_valid(value);
	}
}

/* The header lines of a set that came from a file, which kept none: its
 * description, as far as the headers take it, and its #B: when its boards
 * run in a row (allocated). */
static char *
headers_made(const struct archive_set *set, int in_row)
{
	char *text = xstrdup(""), *more;

	for (size_t i = 0; i < RECORD_FIELDS; i++) {
		const struct record_field *f = &record_fields[i];
		const char *value = field_get(set, f);

		if (f->header == 0 || value == NULL || !header_takes(f->header, value))
			continue;
		more = xasprintf("%s#%c: %s\n", text, f->header, value);
		free(text);
		text = more;
	}
	if (in_row) {
		more = xasprintf("%s#B: %u-%u\n", text, set->low, set->high);
		free(text);
		text = more;
	}
	return text;
}

/* The header lines export writes: the set's own, but a record of the
 * archive's (kept by an archive of before, which took any #R: a stream
 * had), and its #B: when its boards run in a row and it has none. */
static char *
headers_out(const struct archive_set *set, int in_row)
{
	char *text, *at;

	if (set->headers == NULL)
		return headers_made(set, in_row);
	text = xstrdup(set->headers);
	for (char *line = text; (at = strchr(line, '\n')) != NULL;) {
		if (archive_record_header(line))
			memmove(line, at + 1, strlen(at + 1) + 1);
		else
			line = at + 1;
	}
	if (in_row && !header_says(text, 'B')) {
		at = xasprintf("%s#B: %u-%u\n", text, set->low, set->high);
		free(text);
		text = at;
	}
	return text;
}

/* The value in #R: with '%' and ' ' as %25 and %20, so that the fields
 * part at spaces. */
static void
put_escaped(char **text, const char *name, const char *value)
{
	size_t len = strlen(*text), need = len + strlen(name) + 3 * strlen(value) + 3;
	char *p;

	*text = xreallocarray(*text, need, 1);
	p = *text + len;
	p += sprintf(p, "%s%s=", len > 0 ? " " : "", name);
	for (; *value != '\0'; value++)
		if (*value == '%' || *value == ' ')
			p += sprintf(p, "%%%02X", (unsigned char)*value);
		else
			*p++ = *value;
	*p = '\0';
}

/* The value of #R: for set, whose stream says headers (allocated). */
static char *
record_text(const struct archive_set *set, const char *headers)
{
	char *text = xstrdup("");

	for (size_t i = 0; i < RECORD_FIELDS; i++) {
		const struct record_field *f = &record_fields[i];
		const char *value = field_get(set, f);
		char *said;
		int same;

		if (value == NULL)
			continue;
		if (f->header != 0) {
			said = header_in(headers, f->header);
			same = said != NULL && strcmp(said, value) == 0;
			free(said);
			if (same)
				continue;
		}
		put_escaped(&text, f->name, value);
	}
	return text;
}

/* Whether a set's boards run in a row, low to high: a first pass over its
 * deals, which decides its stream's #B: before any record is written. */
struct row_check {
	unsigned next;
	int in_row;
};

static int
row_board(unsigned board, const unsigned char owner[CARDS], void *arg)
{
	struct row_check *r = arg;

	(void)owner;
	if (board != r->next)
		r->in_row = 0;
	r->next = board + 1;
	return 0;
}

struct export_out {
	const struct archive_set *set;
	struct stream_out out;
	size_t done;
};

static int
export_board(unsigned board, const unsigned char owner[CARDS], void *arg)
{
	struct export_out *x = arg;
	int dealer, vulnerability;

	archive_set_board_dv(x->set, x->done++, board, &dealer, &vulnerability);
	stream_out_deal_dv(&x->out, board, owner, dealer, vulnerability);
	return 0;
}

int
archive_export_set(struct archive *a, const struct archive_set *set, FILE *fp,
    struct dl_error *e)
{
	struct row_check row = { set->low, set->high - set->low + 1 == set->boards };
	struct export_out x = { .set = set };
	char *headers, *record;
	int r;

	if (row.in_row && archive_set_boards(a, set, row_board, &row, e) == -1)
		return -1;
	headers = headers_out(set, row.in_row);
	record = record_text(set, headers);
	if (!row.in_row && header_says(headers, 'B'))
		r = dl_error_set(e, DL_ERR_INPUT, "%s: set %lld: damaged (a #B: its boards do"
		    " not follow)", a->name, (long long)set->id);
	else if (!header_value_is_valid(record))
		r = dl_error_set(e, DL_ERR_INPUT, "%s: set %lld: its record is longer than a"
		    " header line takes", a->name, (long long)set->id);
	else {
		/* boards with their own dealers or vulnerabilities go out as
		 * a deals+dv stream, as dl-read wrote them */
		stream_out_begin_dv(&x.out, fp, STREAM_DEALS, set->dv != NULL);
		fputs(headers, fp);
		stream_out_header(&x.out, RECORD_KEY, record);
		r = archive_set_boards(a, set, export_board, &x, e);
	}
	free(headers);
	free(record);
	return r;
}

int
archive_export_all(struct archive *a, FILE *fp, struct dl_error *e)
{
	struct stream_out out;
	int64_t *id;
	size_t n;
	int r = 0;

	/* the sets first, so that #Q: counts them before they go out: sets
	 * archived meanwhile are not in this export */
	if (archive_set_ids(a, NULL, &id, &n, e) == -1)
		return -1;
	stream_out_begin(&out, fp, STREAM_SETS);
	stream_out_header(&out, 'V', DL_VERSION_STRING);
	stream_out_headerf(&out, 'Q', "%zu", n);
	for (size_t i = 0; i < n && r == 0; i++) {
		struct archive_set set = { 0 };

		switch (archive_set_get(a, id[i], &set, e)) {
		case -1:
			r = -1;
			break;
		case 0:
			r = dl_error_set(e, DL_ERR_INPUT, "%s: set %lld: gone while it was"
			    " exported", a->name, (long long)id[i]);
			break;
		default:
			r = archive_export_set(a, &set, fp, e);
		}
		archive_set_clear(&set);
	}
	free(id);
	return r;
}

/* Importing. */

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* "%XX" back to its byte; -1 when a '%' is not followed by two hex
 * digits. */
static int
unescape(char *value)
{
	char *to = value;

	for (char *p = value; *p != '\0'; p++) {
		int high, low;

		if (*p != '%') {
			*to++ = *p;
			continue;
		}
		if ((high = hex_digit(p[1])) == -1 || (low = hex_digit(p[2])) == -1)
			return -1;
		*to++ = (char)(high << 4 | low);
		p += 2;
	}
	*to = '\0';
	return 0;
}

/* #R: into set: each field once, known by name.  A field whose value is
 * no line of printable text (an escaped control byte) is refused here;
 * the rest is archive_set_fault's, after the deals. */
static int
record_read(size_t place, const char *record, struct archive_set *set,
    int given[RECORD_FIELDS], struct dl_error *e)
{
	char *text = xstrdup(record), *last = NULL;
	int r = 0;

	for (char *item = strtok_r(text, " ", &last); item != NULL && r == 0;
	    item = strtok_r(NULL, " ", &last)) {
		char *eq = strchr(item, '=');
		size_t i;

		if (eq == NULL) {
			r = dl_error_set(e, DL_ERR_INPUT, "set %zu: #R: \"%.40s\" is not name=value",
			    place, item);
			break;
		}
		*eq = '\0';
		for (i = 0; i < RECORD_FIELDS; i++)
			if (strcmp(item, record_fields[i].name) == 0)
				break;
		if (i == RECORD_FIELDS)
			r = dl_error_set(e, DL_ERR_INPUT, "set %zu: #R: a field this dl does not"
			    " know, \"%.40s\"", place, item);
		else if (given[i])
			r = dl_error_set(e, DL_ERR_INPUT, "set %zu: #R: %s given twice", place, item);
		else if (unescape(eq + 1) == -1)
			r = dl_error_set(e, DL_ERR_INPUT, "set %zu: #R: %s has a %% that two hex"
			    " digits do not follow", place, item);
		else if (!header_value_is_valid(eq + 1))
			r = dl_error_set(e, DL_ERR_INPUT, "set %zu: #R: %s is not one line of printable"
			    " UTF-8", place, item);
		else {
			given[i] = 1;
			field_set(set, &record_fields[i], eq + 1);
		}
	}
	free(text);
	return r;
}

struct import_set {
	struct archive_add *add;	/* NULL: the set is left out */
	struct set_digest digest;
	unsigned boards, low, high, next;
	int in_row;
};

static int
import_board(struct import_set *im, unsigned board, const unsigned char owner[CARDS],
    int dealer, int vulnerability, struct dl_error *e)
{
	set_digest_add(&im->digest, board, owner);
	if (im->boards == 0 || board < im->low)
		im->low = board;
	if (im->boards == 0 || board > im->high)
		im->high = board;
	if (im->boards > 0 && board != im->next)
		im->in_row = 0;
	im->next = board + 1;
	im->boards++;
	return im->add != NULL ?
	    archive_add_board(im->add, board, owner, dealer, vulnerability, e) : 0;
}

/* One set's stream, opened: its record and description, its deals, then
 * the checks a row gets, and the set in the archive (or left out). */
static int
import_one(struct archive *a, struct stream_in *s, size_t place, struct archive_imported *got,
    struct dl_error *e)
{
	struct import_set im = { .in_row = 1 };
	struct archive_set set = { 0 };
	int given[RECORD_FIELDS] = { 0 };
	const char *record = stream_header(s, RECORD_KEY), *why;
	char *const *headers;
	size_t nheaders, len;
	char *line, *made;
	int r, more;

	memset(got, 0, sizeof *got);
	if (record == NULL)
		return dl_error_set(e, DL_ERR_INPUT, "set %zu: no #R: header, the archive's"
		    " record of a set that export writes (dl-archive add adds a set as a new"
		    " one)", place);
	if (record_read(place, record, &set, given, e) == -1)
		goto fail;
	/* what #R: does not say, the set's headers do */
	for (size_t i = 0; i < RECORD_FIELDS; i++) {
		const struct record_field *f = &record_fields[i];
		const char *said = f->header != 0 ? stream_header(s, f->header) : NULL;

		if (!given[i] && said != NULL)
			field_set(&set, f, said);
	}
	headers = stream_headers(s, &nheaders);
	set.headers = archive_headers_text(headers, nheaders);
	/* a shared archive's operator sees what it holds: a set not played
	 * is read, and checked, but never sent (docs/archive.md) */
	got->left_out = archive_is_shared(a) && set.played[0] == '\0';
	if (!got->left_out && archive_add_begin(a, &im.add, e) == -1)
		goto fail;
	set_digest_init(&im.digest);
	while ((more = stream_next_record(s, &line, &len, e)) == 1) {
		unsigned board;
		unsigned char owner[CARDS];
		int dealer, vulnerability;

		if (record_deal(s, line, len, &board, owner, e) == -1)
			break;
		stream_board_dv(s, &dealer, &vulnerability);
		if (import_board(&im, board, owner, dealer, vulnerability, e) == -1)
			break;
	}
	if (more != 0 || stream_check_complete(s, e) == -1)
		goto fail;
	set_digest_final(&im.digest, set.digest);
	set.boards = im.boards;
	set.low = im.low;
	set.high = im.high;
	/* the checks of a row, for what this stream says its archive held;
	 * its number and first deal are this archive's, to come */
	set.id = (int64_t)place;
	set.first_deal = 1;
	if ((why = archive_set_fault(&set)) != NULL) {
		dl_error_set(e, DL_ERR_INPUT, "set %zu: damaged (%s)", place, why);
		goto fail;
	}
	memcpy(got->fingerprint, set.fingerprint, sizeof got->fingerprint);
	got->boards = set.boards;
	/* headers that say no more than export makes of a set's
	 * description were made so: the set came from a file, and keeps
	 * none, as in the archive it came from */
	made = headers_made(&set, im.in_row);
	if (strcmp(made, set.headers) == 0) {
		free(set.headers);
		set.headers = NULL;
	}
	free(made);
	if (got->left_out) {
		archive_set_clear(&set);
		return 0;
	}
	r = archive_add_commit(im.add, &set, &got->id, e);
	im.add = NULL;
	if (r == 0 && got->id == 0)
		got->id = set.id;
	else if (r == 0)
		got->existing = 1;
	archive_set_clear(&set);
	return r;
fail:
	archive_add_abort(im.add);
	archive_set_clear(&set);
	return -1;
}

#define IMPORT_TAKES (STREAM_TAKES_OWN_DV | STREAM_TAKES_ANY_ORDER)

int
archive_import(struct archive *a, FILE *fp,
    int (*each)(const struct archive_imported *set, void *arg), void *arg, struct dl_error *e)
{
	struct stream_in outer, set, next;
	struct archive_imported got;
	const char *count, *errstr;
	size_t place = 0;
	long long announced;
	int r;

	if (stream_open_deals(&outer, fp, IMPORT_TAKES | STREAM_TAKES_SETS, e) == -1) {
		stream_close(&outer);
		return -1;
	}
	if (stream_kind_of(&outer) != STREAM_SETS) {
		/* one set, as export SET writes it */
		r = import_one(a, &outer, 1, &got, e);
		stream_close(&outer);
		return r == 0 ? each(&got, arg) : -1;
	}
	if ((count = stream_header(&outer, 'Q')) == NULL) {
		r = stream_error(&outer, e, "a sets stream without its #Q: header");
		stream_close(&outer);
		return r;
	}
	announced = strtonum(count, 0, INT64_MAX, &errstr);
	if (errstr != NULL) {
		r = stream_error(&outer, e, "#Q: not a number of sets");
		stream_close(&outer);
		return r;
	}
	r = stream_open_next(&set, &outer, STREAM_DEALS, IMPORT_TAKES | STREAM_TAKES_NEXT, e);
	stream_close(&outer);
	while (r == 1) {
		if ((long long)place++ == announced) {
			r = dl_error_set(e, DL_ERR_INPUT, "more sets than the %lld its #Q: announced",
			    announced);
			break;
		}
		if (import_one(a, &set, place, &got, e) == -1 || each(&got, arg) == -1) {
			r = -1;
			break;
		}
		r = stream_open_next(&next, &set, STREAM_DEALS, IMPORT_TAKES | STREAM_TAKES_NEXT,
		    e);
		stream_close(&set);
		set = next;
	}
	stream_close(&set);
	if (r == 0 && (long long)place < announced)
		r = dl_error_set(e, DL_ERR_INPUT, "input ends after %zu of the %lld sets its #Q:"
		    " announced", place, announced);
	return r;
}
