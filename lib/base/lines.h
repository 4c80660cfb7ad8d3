/* What a line of text is, in one place, and reading text input a line at a
 * time, with the line number kept for error messages, and hostile input
 * (overlong lines, NUL bytes) refused.
 *
 * Two readers split their input into lines with line_split: line_next
 * below (the stream protocol, .sqd files, .bigdealrc) and the host's
 * in->line for the plugins that read deal files (lib/files/readers.c).
 * They differ only in the struct line_rules they pass, and why is said
 * there.
 *
 * Threads: line_split keeps nothing and may be called from several threads
 * at once.  A struct line_reader is one thread's, and so is its FILE, which
 * line_reader_open makes unbuffered; different readers may read on
 * different threads at once (dl-cat's shards). */
#ifndef DL_LINES_H
#define DL_LINES_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"

/* The longest line of a stream (dl-protocol(5)), .sqd or .bigdealrc: a
 * record is a hundred bytes, a header a line of text; the limit bounds the
 * buffer a hostile stream can make every tool of a pipeline hold. */
#define LINE_MAX_BYTES 65536
/* The longest line of a deal file another program wrote: a PBN commentary
 * or a LIN hand viewer's address may be one long line, but not without
 * end, since a file of one endless line must not take the machine's
 * memory. */
#define FILE_LINE_MAX_BYTES (1u << 20)

struct line_rules {
	/* The longest line in bytes, its line end not counted. */
	size_t max_bytes;
	/* Whether a CR that no LF follows ends a line.  LF and CR LF always
	 * do, and a CR that is the input's last byte ends its line either way.
	 * Deal files: yes, since old Macintosh programs end lines with a CR
	 * alone.  Streams, .sqd, .bigdealrc: no, since dl writes LF and only
	 * a Windows copy adds CRs; a stray CR stays in its line for the parser
	 * to refuse, where ending the line there would hide it (a .bigdealrc
	 * owner "x\ry" would be read as "x", and deal other boards). */
	int lone_cr_ends;
};

/* The rules of line_next (LINE_MAX_BYTES, no lone CR) and of the deal
 * files' reader (FILE_LINE_MAX_BYTES, a lone CR ends a line). */
static const struct line_rules line_rules_stream = { LINE_MAX_BYTES, 0 };
static const struct line_rules line_rules_files = { FILE_LINE_MAX_BYTES, 1 };

enum line_split_result {
	LINE_SPLIT_LINE,	/* a line: *len and *next are set */
	LINE_SPLIT_MORE,	/* no whole line yet: read more, then call again */
	LINE_SPLIT_END,		/* at the end of the input, and no line left */
	LINE_SPLIT_TOO_LONG,	/* a line of more than rules->max_bytes */
	LINE_SPLIT_NUL,		/* a line holding a NUL byte: *len and *next set */
};

/* The first LF or CR in p[0..n), or NULL.  libc has no memchr for either
 * of two bytes, and a loop over the bytes takes one a step: this takes
 * eight, testing each word for a byte equal to either (a zero byte in the
 * word XOR the byte repeated), then the bytes of the word that has one. */
static inline const char *
line_find_lf_or_cr(const char *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101u, highs = ones << 7;
	const uint64_t lfs = ones * '\n', crs = ones * '\r';
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t word;
		memcpy(&word, p + i, sizeof word);
		uint64_t lf = word ^ lfs, cr = word ^ crs;
		if ((((lf - ones) & ~lf) | ((cr - ones) & ~cr)) & highs)
			break;
	}
	for (; i < n; i++)
		if (p[i] == '\n' || p[i] == '\r')
			return p + i;
	return NULL;
}

/* line_split's end for a line buf[0..len) whose end it found. */
static inline enum line_split_result
line_split_whole(const char *buf, size_t len, size_t next, const struct line_rules *rules,
    size_t *lenp, size_t *nextp)
{
	if (len > rules->max_bytes)
		return LINE_SPLIT_TOO_LONG;
	*lenp = len;
	*nextp = next;
	return memchr(buf, '\0', len) != NULL ? LINE_SPLIT_NUL : LINE_SPLIT_LINE;
}

/* The first line of buf[0..avail), by the rules: *len its length without
 * its line end, *next the offset of the line after it.  at_end says that
 * no more bytes will come: the last line then needs no line end.  A line
 * is too long as soon as more than max_bytes of it (and no line end) are
 * in the buffer, before its NUL bytes are looked for: a reader needs room
 * for max_bytes + 2 bytes (a line, its CR and its LF) and never more,
 * since LINE_SPLIT_MORE leaves at most max_bytes + 1.  buf may be NULL
 * when avail is 0.
 *
 * Inline, so that a reader's rules are constants and a line costs no
 * call, and each line scanned once, by memchr or eight bytes a step:
 * dl-map, dl-fmt and dl-read split millions of lines. */
static inline enum line_split_result
line_split(const char *buf, size_t avail, int at_end, const struct line_rules *rules,
    size_t *lenp, size_t *nextp)
{
	size_t next;

	if (avail == 0)
		return at_end ? LINE_SPLIT_END : LINE_SPLIT_MORE;
	if (!rules->lone_cr_ends) {
		const char *lf = memchr(buf, '\n', avail);
		if (lf != NULL) {
			next = (size_t)(lf - buf) + 1;
			return line_split_whole(buf, next - 1 - (lf > buf && lf[-1] == '\r'), next,
			    rules, lenp, nextp);
		}
	} else {
		const char *eol = line_find_lf_or_cr(buf, avail);
		/* a CR that ends what is read may be a CR LF's: read on */
		if (eol != NULL && (*eol == '\n' || eol + 1 < buf + avail || at_end)) {
			next = (size_t)(eol - buf) + 1;
			if (*eol == '\r' && next < avail && buf[next] == '\n')
				next++;
			return line_split_whole(buf, (size_t)(eol - buf), next, rules, lenp, nextp);
		}
	}
	/* no line end: the input's last line (a CR ending the input ends it),
	 * too long already, or a line to read more of */
	size_t len = avail - (buf[avail - 1] == '\r');
	if (at_end)
		return line_split_whole(buf, len, avail, rules, lenp, nextp);
	return len > rules->max_bytes ? LINE_SPLIT_TOO_LONG : LINE_SPLIT_MORE;
}

struct line_reader {
	FILE *in;
	const char *name;	/* file name for messages; NULL: standard input */
	unsigned long lineno;
	char *buf;
	size_t start, end;
	int at_end;		/* the FILE has no more to give */
	int crlf;		/* the last line ended in CR LF */
};

void line_reader_open(struct line_reader *r, FILE *in, const char *name);
void line_reader_close(struct line_reader *r);
/* The next line without its LF or CRLF, NUL-terminated, in *line: 1; at
 * the end of input 0; on an overlong line, a NUL byte or a read error -1
 * with *e set.  The lines are line_split's under line_rules_stream. */
int line_next(struct line_reader *r, char **line, size_t *len, struct dl_error *e);

/* An error made already (its message escaped) placed at the reader's line,
 * as line_error would: -1.  Its message is not escaped a second time. */
int line_error_locate(const struct line_reader *r, struct dl_error *e);
/* An input error at the reader's line: "NAME:N: message", or "line N:
 * message" on standard input.  Returns -1. */
int line_error(const struct line_reader *r, struct dl_error *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int line_verror(const struct line_reader *r, struct dl_error *e, const char *fmt,
    va_list ap) __attribute__((format(printf, 3, 0)));

#endif
