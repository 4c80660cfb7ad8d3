#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/lines.h"
#include "files/plugins.h"
#include "files/readers.h"
#include "base/util.h"

/* What a line is, and how long it may be, are lines.h's (line_rules_files);
 * host_line's message names the limit. */
_Static_assert(FILE_LINE_MAX_BYTES == 1u << 20, "the message says a line is at most 1 MiB");
#define READER_CHUNK 65536
#define SNIFF_BYTES 4096

enum read_mode { MODE_NONE, MODE_LINES, MODE_BYTES };

/* The text fields of struct dl_board_in, as checked copies. */
enum { FIELD_EVENT, FIELD_SITE, FIELD_DATE, FIELD_PLAYER, NFIELDS = FIELD_PLAYER + 4 };

struct deal_reader {
	struct loaded_plugin lp;
	struct reader_options opt;
	struct dl_in in;
	void *state;
	int begun;

	int fd, own_fd;
	char *name;		/* for messages */
	unsigned char *buf;	/* buf[start..end) not yet consumed */
	size_t cap, start, end;
	int eof;
	enum read_mode mode;
	unsigned long lineno;	/* lines handed out */
	unsigned long long offset;	/* bytes handed out by read() */

	int failed;		/* the plugin called fail(), or the input did */
	struct dl_error error;

	unsigned last_board;
	unsigned long board_line;	/* where the current board began, or 0 */
	int has_position;	/* a board has been read: at_line, at_byte */
	unsigned long at_line;
	unsigned long long at_byte;
	char *position;		/* reader_position's words for them */
	char *fields[NFIELDS];
};

/* The host side of struct dl_in: its callbacks find the reader again. */
static struct deal_reader *
reader_of(struct dl_in *in)
{
	return in->host;
}

static void
input_failed(struct deal_reader *r, enum dl_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The first failure is the one reported. */
static void
input_vfailed(struct deal_reader *r, enum dl_error_kind kind, const char *fmt, va_list ap)
{
	if (r->failed)
		return;
	r->failed = 1;
	if (r->mode == MODE_LINES)
		dl_error_vat(&r->error, kind, r->name, r->lineno, fmt, ap);
	else if (r->mode == MODE_BYTES) {
		char what[DL_ERROR_MAX];

		vsnprintf(what, sizeof what, fmt, ap);
		dl_error_set(&r->error, kind, "%s: byte %llu: %s", r->name, r->offset, what);
	} else {
		char what[DL_ERROR_MAX];

		vsnprintf(what, sizeof what, fmt, ap);
		dl_error_set(&r->error, kind, "%s: %s", r->name, what);
	}
}

static void
input_failed(struct deal_reader *r, enum dl_error_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	input_vfailed(r, kind, fmt, ap);
	va_end(ap);
}

/* More bytes after buf[end]: 1, or 0 at the end of the file (or after a
 * read error, which fails the read). */
static int
refill(struct deal_reader *r)
{
	if (r->eof || r->failed)
		return 0;
	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->cap - r->end < READER_CHUNK) {
		r->cap = r->end + READER_CHUNK;
		r->buf = xreallocarray(r->buf, r->cap, 1);
	}
	for (;;) {
		ssize_t got = read(r->fd, r->buf + r->end, r->cap - r->end);
		if (got > 0) {
			r->end += (size_t)got;
			return 1;
		}
		if (got == 0) {
			r->eof = 1;
			return 0;
		}
		if (errno != EINTR) {
			input_failed(r, DL_ERR_SYSTEM, "read error: %s", strerror(errno));
			return 0;
		}
	}
}

static const char *
host_line(struct dl_in *in, size_t *lenp)
{
	struct deal_reader *r = reader_of(in);
	enum line_split_result found;
	size_t len, next;

	if (r->mode == MODE_BYTES) {
		input_failed(r, DL_ERR_INPUT, "the %s reader read lines after bytes",
		    r->lp.plugin->name);
		return NULL;
	}
	r->mode = MODE_LINES;
	if (r->failed)
		return NULL;
	/* nothing read yet (buf NULL): pointer arithmetic on NULL is undefined */
	while ((found = r->buf == NULL ? LINE_SPLIT_MORE :
	    line_split((const char *)r->buf + r->start, r->end - r->start, r->eof,
	    &line_rules_files, &len, &next)) == LINE_SPLIT_MORE)
		if (!refill(r) && r->failed)
			return NULL;
	if (found == LINE_SPLIT_END)
		return NULL;
	r->lineno++;
	if (found == LINE_SPLIT_TOO_LONG) {
		input_failed(r, DL_ERR_INPUT, "a line longer than 1 MiB");
		return NULL;
	}
	if (found == LINE_SPLIT_NUL) {
		input_failed(r, DL_ERR_INPUT, "a NUL byte: not a text file");
		return NULL;
	}
	/* a board begins at the first line with something on it */
	if (r->board_line == 0 && len > 0)
		r->board_line = r->lineno;
	/* the line end (or the byte after the buffer's data) becomes the NUL */
	if (r->start + next == r->end && r->end == r->cap)
		r->buf = xreallocarray(r->buf, ++r->cap, 1);
	char *line = (char *)r->buf + r->start;
	line[len] = '\0';
	r->start += next;
	*lenp = len;
	return line;
}

static size_t
host_read(struct dl_in *in, void *out, size_t len)
{
	struct deal_reader *r = reader_of(in);
	size_t done = 0;

	if (r->mode == MODE_LINES) {
		input_failed(r, DL_ERR_INPUT, "the %s reader read bytes after lines",
		    r->lp.plugin->name);
		return 0;
	}
	r->mode = MODE_BYTES;
	while (done < len && !r->failed) {
		if (r->start == r->end && !refill(r))
			break;
		size_t n = r->end - r->start;
		if (n > len - done)
			n = len - done;
		memcpy((char *)out + done, r->buf + r->start, n);
		r->start += n;
		done += n;
		r->offset += n;
	}
	return done;
}

static void __attribute__((format(printf, 2, 3)))
host_fail(struct dl_in *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	input_vfailed(reader_of(in), DL_ERR_INPUT, fmt, ap);
	va_end(ap);
}

static void
host_board_begins(struct dl_in *in)
{
	struct deal_reader *r = reader_of(in);

	r->board_line = r->lineno;
}

static void __attribute__((format(printf, 2, 3)))
host_warn(struct dl_in *in, const char *fmt, ...)
{
	struct deal_reader *r = reader_of(in);
	char what[DL_ERROR_MAX];
	struct dl_error e;
	va_list ap;

	if (r->opt.warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (r->mode == MODE_BYTES)
		dl_error_set(&e, DL_ERR_NONE, "%s: byte %llu: %s", r->name, r->offset, what);
	else
		dl_error_at(&e, DL_ERR_NONE, r->name, r->lineno, "%s", what);
	r->opt.warn(e.msg, r->opt.warn_arg);
}

static int
open_input(struct deal_reader *r, const char *path, struct dl_error *e)
{
	if (path == NULL || strcmp(path, "-") == 0) {
		r->fd = STDIN_FILENO;
		r->name = xstrdup("standard input");
		return 0;
	}
	r->name = xstrdup(path);
	if ((r->fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return dl_error_sys(e, "%s", path);
	r->own_fd = 1;
	return 0;
}

/* The lower-case suffix of a file name, or NULL. */
static char *
suffix_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash != NULL ? slash + 1 : path;
	const char *dot = strrchr(base, '.');

	if (dot == NULL || dot == base || dot[1] == '\0')
		return NULL;
	char *suffix = xstrdup(dot + 1);
	for (char *p = suffix; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return suffix;
}

/* A reader that may be the file's: a plugin found (not yet loaded, when its
 * directory's index says what it is), and how well it fits the file. */
struct candidate {
	const struct plugin_entry *entry;
	const char *suffix;		/* the index's, or the loaded plugin's */
	struct loaded_plugin lp;
	int loaded;
	int broken;			/* refused when loaded: not asked again */
	int score;			/* its sniff's, once loaded */
};

/* How a file's format is told, from what the catalogue says and what the
 * plugins loaded say. */
struct telling {
	struct plugin_catalogue catalogue;
	struct candidate *c;		/* the readers, by name */
	size_t n;
	const char *suffix;		/* the file's, or NULL */
	const unsigned char *head;	/* its first bytes, for sniff */
	size_t head_len;
	int stale;			/* an index said what a plugin is not */
};

static int
compare_candidates(const void *a, const void *b)
{
	return strcmp(((const struct candidate *)a)->entry->name,
	    ((const struct candidate *)b)->entry->name);
}

/* Loads a candidate and asks its sniff: 0, or -1 when it is broken (passed
 * over, as a refused plugin always was) or not what its index said (the
 * whole telling is then stale). */
static int
candidate_load(struct telling *t, struct candidate *c)
{
	struct dl_error ignored;

	if (c->loaded)
		return 0;
	if (c->broken || plugin_load_entry(c->entry, &c->lp, &ignored) == -1) {
		c->broken = 1;
		return -1;
	}
	c->loaded = 1;
	if (!plugin_entry_agrees(c->entry, &c->lp)) {
		t->stale = 1;
		return -1;
	}
	c->score = t->head != NULL && c->lp.plugin->sniff != NULL ?
	    c->lp.plugin->sniff(t->head, t->head_len) : 0;
	return 0;
}

/* The readers among the plugins: those the indexes say read, not loaded,
 * and those no index knows, loaded to be asked (and kept when they read).
 * A plugin an index says writes alone is never opened. */
static void
gather_readers(struct telling *t)
{
	for (size_t i = 0; i < t->catalogue.n; i++) {
		const struct plugin_entry *entry = &t->catalogue.entries[i];
		struct candidate c = { .entry = entry };

		if (entry->role == PLUGIN_WRITES_ONLY)
			continue;
		if (entry->role == PLUGIN_ROLE_UNKNOWN) {
			if (candidate_load(t, &c) == -1)
				continue;
			if (c.lp.plugin->read_board == NULL) {
				plugin_unload(&c.lp);
				continue;
			}
			c.suffix = c.lp.plugin->suffix;
		} else
			c.suffix = entry->suffix;
		t->c = xreallocarray(t->c, t->n + 1, sizeof *t->c);
		t->c[t->n++] = c;
	}
	if (t->n > 1)
		qsort(t->c, t->n, sizeof *t->c, compare_candidates);
}

/* Among the readers whose suffix is the file's (by_suffix), or else among
 * all of them, the one whose sniff is surest, ties going to the first by
 * name (by content only one that knows the file: a score above 0): only
 * the readers asked are loaded.  Its index, or -1. */
static long
surest(struct telling *t, int by_suffix)
{
	long best = -1;
	int best_score = -1;

	for (size_t i = 0; i < t->n && !t->stale; i++) {
		struct candidate *c = &t->c[i];

		if (by_suffix && strcmp(c->suffix, t->suffix) != 0)
			continue;
		if (candidate_load(t, c) == -1)
			continue;
		if (c->score > best_score && (by_suffix || c->score > 0)) {
			best = (long)i;
			best_score = c->score;
		}
	}
	return t->stale ? -1 : best;
}

static void
telling_free(struct telling *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->c[i].loaded)
			plugin_unload(&t->c[i].lp);
	free(t->c);
	plugin_catalogue_free(&t->catalogue);
	t->c = NULL;
	t->n = 0;
}

/* The reader of the file, loaded into *lp: 0, or -1 when none knows it.
 * With the indexes (use_indexes) a file whose suffix is one reader's
 * loads that reader alone, and one told by its content the readers
 * alone; an index found out of date (t->stale) is the caller's to drop. */
static int
tell(struct telling *t, int use_indexes, struct loaded_plugin *lp)
{
	long best = -1;

	plugin_catalogue_make(&t->catalogue, use_indexes);
	gather_readers(t);
	if (t->suffix != NULL)
		best = surest(t, 1);
	if (best == -1 && !t->stale)
		best = surest(t, 0);
	if (best == -1)
		return -1;
	/* the reader chosen is kept loaded, not loaded again */
	*lp = t->c[best].lp;
	t->c[best].loaded = 0;
	return 0;
}

/* The format of the file: among the readers whose suffix is the file's,
 * or else among all, the one whose sniff is surest (ties: the first by
 * name); 0 and r->lp loaded, or -1.  Writers a directory's index names
 * are never loaded; should an index prove out of date, the file is told
 * again without any, every plugin loaded to be asked, as before there
 * were indexes, so that an index can cost time but never change the
 * format a file is read as. */
static int
detect_format(struct deal_reader *r, const char *path, struct dl_error *e)
{
	char *suffix = path != NULL && strcmp(path, "-") != 0 ? suffix_of(path) : NULL;
	struct telling t = { .suffix = suffix };
	int status;

	while (r->end - r->start < SNIFF_BYTES && refill(r))
		continue;
	if (r->failed) {
		free(suffix);
		*e = r->error;
		return -1;
	}
	t.head = r->buf + r->start;
	t.head_len = r->end - r->start < SNIFF_BYTES ? r->end - r->start : SNIFF_BYTES;
	status = tell(&t, 1, &r->lp);
	if (t.stale) {
		telling_free(&t);
		t.stale = 0;
		status = tell(&t, 0, &r->lp);
	}
	telling_free(&t);
	free(suffix);
	if (status == -1) {
		dl_error_set(e, DL_ERR_INPUT, "%s: cannot tell its format "
		    "(give -f; dl-read --list shows the formats it reads)", r->name);
		if (e != NULL)
			e->cause = DL_CAUSE_FORMAT_UNKNOWN;
		return -1;
	}
	return 0;
}

static int
choose_format(struct deal_reader *r, const char *path, struct dl_error *e)
{
	static const char no_reader[] = "format %s has no reader (dl-read --list shows "
	    "the formats it reads)";

	if (r->opt.format == NULL)
		return detect_format(r, path, e);
	/* a writer alone is not loaded only to be refused */
	if (plugin_role_of(r->opt.format) == PLUGIN_WRITES_ONLY)
		return dl_error_set(e, DL_ERR_USAGE, no_reader, r->opt.format);
	if (plugin_load(r->opt.format, &r->lp, e) == -1)
		return -1;
	if (r->lp.plugin->read_board == NULL)
		return dl_error_set(e, DL_ERR_USAGE, no_reader, r->opt.format);
	return 0;
}

static struct deal_reader *
reader_new(const struct reader_options *opt)
{
	struct deal_reader *r = xcalloc(1, sizeof *r);

	r->opt = *opt;
	r->fd = -1;
	r->in.line = host_line;
	r->in.read = host_read;
	r->in.fail = host_fail;
	r->in.warn = host_warn;
	r->in.board_begins = host_board_begins;
	r->in.flags = opt->flags;
	r->in.host = r;
	r->in.first_board = opt->first != 0 ? opt->first : 1;
	/* the boards the file does not number count from there */
	r->last_board = r->in.first_board - 1;
	return r;
}

int
reader_open_plugin(struct deal_reader **rp, const char *path, const struct dl_plugin *plugin,
    const struct reader_options *opt, struct dl_error *e)
{
	struct deal_reader *r = reader_new(opt);

	if (open_input(r, path, e) == -1) {
		reader_close(r);
		return -1;
	}
	/* as plugin_load would hold it: a copy, and no handle to close */
	struct dl_plugin *copy = xmalloc(sizeof *copy);
	memcpy(copy, plugin, sizeof *copy);
	r->lp.plugin = copy;
	*rp = r;
	return 0;
}

int
reader_open(struct deal_reader **rp, const char *path, const struct reader_options *opt,
    struct dl_error *e)
{
	struct deal_reader *r = reader_new(opt);

	if (open_input(r, path, e) == -1 || choose_format(r, path, e) == -1) {
		reader_close(r);
		return -1;
	}
	*rp = r;
	return 0;
}

const char *
reader_format(const struct deal_reader *r)
{
	return r->lp.plugin->name;
}

const char *
reader_name(const struct deal_reader *r)
{
	return r->name;
}

const char *
reader_position(struct deal_reader *r)
{
	if (!r->has_position)
		return r->name;
	free(r->position);
	if (r->mode == MODE_BYTES)
		r->position = xasprintf("%s: byte %llu", r->name, r->at_byte);
	else
		r->position = xasprintf("%s:%lu", r->name, r->at_line);
	return r->position;
}

int
reader_board_error(struct deal_reader *r, struct dl_error *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dl_error_vset(e, DL_ERR_INPUT, fmt, ap);
	va_end(ap);
	dl_error_prefix(e, "%s", reader_position(r));
	return -1;
}

/* Text as a stream may carry it: valid UTF-8 is kept, anything else read
 * as Latin-1 (what PBN 1.0 prescribes and old files hold); control
 * characters become spaces and the ends are trimmed. */
static char *
clean_text(const char *text)
{
	size_t len = strlen(text), n = 0;
	char *out;

	if (utf8_is_valid(text, len)) {
		out = xstrdup(text);
		n = len;
	} else {
		out = xmalloc(2 * len + 1);
		for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
			if (*p < 0x80) {
				out[n++] = (char)*p;
			} else {
				out[n++] = (char)(0xc0 | (*p >> 6));
				out[n++] = (char)(0x80 | (*p & 0x3f));
			}
		}
		out[n] = '\0';
	}
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			out[i] = ' ';
	/* C1 controls (U+0080..U+009F, Latin-1 bytes 0x80..0x9f) likewise */
	for (size_t i = 0; i + 1 < n; i++)
		if ((unsigned char)out[i] == 0xc2 && (unsigned char)out[i + 1] < 0xa0) {
			out[i] = ' ';
			memmove(out + i + 1, out + i + 2, n - i - 1);
			n--;
		}
	while (n > 0 && out[n - 1] == ' ')
		out[--n] = '\0';
	size_t lead = strspn(out, " ");
	memmove(out, out + lead, n - lead + 1);
	if (!text_is_printable(out, strlen(out)) || *out == '\0') {
		free(out);
		return NULL;
	}
	return out;
}

static void
clean_fields(struct deal_reader *r, struct dl_board_in *b)
{
	const char **slots[NFIELDS] = {
		&b->event, &b->site, &b->date,
		&b->players[0], &b->players[1], &b->players[2], &b->players[3],
	};

	for (int i = 0; i < NFIELDS; i++) {
		free(r->fields[i]);
		r->fields[i] = NULL;
		if (*slots[i] != NULL)
			r->fields[i] = clean_text(*slots[i]);
		*slots[i] = r->fields[i];
	}
}

static int
check_board(struct deal_reader *r, struct dl_board_in *b, struct dl_error *e)
{
	/* a board number is a label the host renumbers: past dl's numbers too */
	if (b->board > BOARD_MAX && (r->opt.flags & DL_IN_RENUMBER))
		b->board = 0;
	if (b->board == 0) {
		if (r->last_board >= BOARD_MAX)
			return reader_board_error(r, e, "board %u: more boards than dl numbers", r->last_board + 1);
		b->board = r->last_board + 1;
	}
	if (b->board > BOARD_MAX)
		return reader_board_error(r, e, "board %u: board numbers go up to %u%s", b->board,
		    BOARD_MAX, r->opt.flags & DL_IN_OFFER_RENUMBER ? " (--renumber numbers the "
		    "boards 1, 2, ... as they come)" : "");
	if (!deal_is_complete(b->owner))
		return reader_board_error(r, e, "board %u: the %s reader gave no complete deal",
		    b->board, r->lp.plugin->name);
	if (b->dealer < -1 || b->dealer > 3)
		b->dealer = -1;
	if (b->vulnerability < -1 || b->vulnerability > 3)
		b->vulnerability = -1;
	clean_fields(r, b);
	r->last_board = b->board;
	return 0;
}

int
reader_next(struct deal_reader *r, struct dl_board_in *b, struct dl_error *e)
{
	int status;

	if (r->failed) {
		*e = r->error;
		return -1;
	}
	if (!r->begun) {
		r->begun = 1;
		if (r->lp.plugin->read_begin != NULL &&
		    r->lp.plugin->read_begin(&r->in, &r->state) == -1 && !r->failed)
			input_failed(r, DL_ERR_INPUT, "the %s reader failed", r->lp.plugin->name);
		if (r->failed) {
			*e = r->error;
			return -1;
		}
	}
	memset(b, 0, sizeof *b);
	b->dealer = b->vulnerability = -1;
	r->board_line = 0;
	unsigned long long start_offset = r->offset;
	status = r->lp.plugin->read_board(&r->in, b, r->state);
	if (status == -1 && !r->failed)
		input_failed(r, DL_ERR_INPUT, "the %s reader failed", r->lp.plugin->name);
	if (r->failed) {
		*e = r->error;
		return -1;
	}
	if (status == 0)
		return 0;
	/* where the board began, put in words only when a message needs it */
	r->at_line = r->board_line != 0 ? r->board_line : r->lineno;
	r->at_byte = start_offset;
	r->has_position = 1;
	if (check_board(r, b, e) == -1)
		return -1;
	return 1;
}

void
reader_close(struct deal_reader *r)
{
	if (r == NULL)
		return;
	if (r->begun && r->lp.plugin != NULL && r->lp.plugin->read_end != NULL)
		r->lp.plugin->read_end(&r->in, r->state);
	if (r->lp.plugin != NULL)
		plugin_unload(&r->lp);
	if (r->own_fd && r->fd != -1)
		close(r->fd);
	for (int i = 0; i < NFIELDS; i++)
		free(r->fields[i]);
	free(r->buf);
	free(r->name);
	free(r->position);
	free(r);
}
