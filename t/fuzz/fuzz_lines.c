/* What a line is (lib/base/lines.h), the first stage of every parser,
 * against a model that takes a byte at a time:
 *
 * - line_split under each rule set, the real ones and short limits that
 *   small inputs reach, fed the input a few bytes at a time as a reader
 *   is, so that every line end falls on a boundary of what was read: the
 *   same lines, the same refusal at the same line, whatever the pieces;
 * - the stream's line reader (line_next): the input split at LF, one CR
 *   dropped from a line's end (and from the input's end), a line of more
 *   than LINE_MAX_BYTES (its CR not counted) or with a NUL refused with
 *   its number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "base/lines.h"

/* The model of line_split: the line at data[at..size), a byte at a time.
 * A line ends at LF, at CR LF, at a CR the input ends with, and under
 * lone_cr_ends at any CR. */
static enum line_split_result
model_line(const uint8_t *data, size_t size, size_t at, const struct line_rules *rules,
    size_t *len, size_t *next)
{
	size_t i = at;

	if (at == size)
		return LINE_SPLIT_END;
	while (i < size && data[i] != '\n' && !(data[i] == '\r' &&
	    (rules->lone_cr_ends || i + 1 == size || data[i + 1] == '\n')))
		i++;
	*len = i - at;
	if (i == size)
		*next = *len;
	else if (data[i] == '\r' && i + 1 < size && data[i + 1] == '\n')
		*next = *len + 2;
	else
		*next = *len + 1;
	if (*len > rules->max_bytes)
		return LINE_SPLIT_TOO_LONG;
	return memchr(data + at, '\0', *len) != NULL ? LINE_SPLIT_NUL : LINE_SPLIT_LINE;
}

/* The input split by line_split as a reader splits it, given chunk more
 * bytes each time it asks for more. */
static void
check_split(const uint8_t *data, size_t size, const struct line_rules *rules, size_t chunk)
{
	size_t start = 0, fed = chunk < size ? chunk : size, lines = 0;

	for (;;) {
		size_t len = 0, next = 0, want_len = 0, want_next = 0;
		size_t avail = fed - start;
		enum line_split_result got = line_split(avail > 0 ? (const char *)data + start : NULL,
		    avail, fed == size, rules, &len, &next);
		if (got == LINE_SPLIT_MORE) {
			if (fed == size)
				fuzz_fail("line_split asks for more at the end of the input");
			/* the room a reader needs, as promised */
			if (avail > rules->max_bytes + 1)
				fuzz_fail("line_split asks for more with %zu bytes of a line", avail);
			fed = size - fed > chunk ? fed + chunk : size;
			continue;
		}
		enum line_split_result want = model_line(data, size, start, rules, &want_len,
		    &want_next);
		if (got != want)
			fuzz_fail("line %zu (max %zu, lone CR %d, %zu bytes a read): line_split "
			    "says %d, the model %d", lines + 1, rules->max_bytes, rules->lone_cr_ends,
			    chunk, (int)got, (int)want);
		if ((got == LINE_SPLIT_LINE || got == LINE_SPLIT_NUL) &&
		    (len != want_len || next != want_next || next > avail))
			fuzz_fail("line %zu (max %zu, lone CR %d, %zu bytes a read): %zu bytes "
			    "and the next at %zu, not %zu and %zu", lines + 1, rules->max_bytes,
			    rules->lone_cr_ends, chunk, len, next, want_len, want_next);
		if (got != LINE_SPLIT_LINE)
			return;
		start += next;
		lines++;
	}
}

/* The line the reader must refuse, from 1, and the message it must give;
 * 0 when it must read every line. */
static size_t
first_bad_line(const uint8_t *data, size_t size, const char **why)
{
	size_t at = 0, n = 0;

	while (at < size) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t raw = nl ? (size_t)(nl - (data + at)) : size - at;
		size_t line = raw - (raw > 0 && data[at + raw - 1] == '\r');
		n++;
		if (line > LINE_MAX_BYTES) {
			*why = "line too long";
			return n;
		}
		if (memchr(data + at, '\0', raw) != NULL) {
			*why = "NUL byte in line";
			return n;
		}
		at += raw + (nl != NULL);
	}
	return 0;
}

static void
check_reader(const uint8_t *data, size_t size)
{
	const char *why = NULL;
	size_t bad = first_bad_line(data, size, &why), lines = 0, at = 0, len;
	FILE *fp = fuzz_memfile(data, size);
	struct line_reader r;
	struct dl_error e = { 0 };
	char want[64], *line;
	int got;

	line_reader_open(&r, fp, NULL);
	while ((got = line_next(&r, &line, &len, &e)) == 1) {
		if (at >= size)
			fuzz_fail("line %zu read after the end of the input", lines + 1);
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t raw = nl ? (size_t)(nl - (data + at)) : size - at;
		size_t expect = raw;
		if (expect > 0 && data[at + expect - 1] == '\r')
			expect--;
		if (expect > LINE_MAX_BYTES || memchr(data + at, '\0', raw) != NULL)
			fuzz_fail("line %zu accepted: %zu bytes, or a NUL", lines + 1, expect);
		if (len != expect || memcmp(line, data + at, expect) != 0 || line[len] != '\0')
			fuzz_fail("line %zu differs from the input", lines + 1);
		if (r.crlf != (expect < raw))
			fuzz_fail("line %zu: its CR LF said otherwise", lines + 1);
		if (r.lineno != lines + 1)
			fuzz_fail("line %zu numbered %lu", lines + 1, r.lineno);
		lines++;
		at += raw + (nl != NULL);
	}
	if (got == 0) {
		if (bad != 0)
			fuzz_fail("line %zu should have been refused (%s)", bad, why);
		if (at != size)
			fuzz_fail("input ended early, after %zu lines", lines);
		/* the end stays the end */
		if (line_next(&r, &line, &len, &e) != 0)
			fuzz_fail("a line after the end");
	} else {
		fuzz_check_error(&e, "line_next");
		snprintf(want, sizeof want, "line %zu: %s", bad, why ? why : "");
		if (bad == 0 || e.kind != DL_ERR_INPUT ||
		    strncmp(e.msg, want, strlen(want)) != 0)
			fuzz_fail("refused with \"%s\", expected \"%s\"", e.msg, want);
		if (lines != bad - 1)
			fuzz_fail("refused line %zu after reading %zu", bad, lines);
	}
	line_reader_close(&r);
	fclose(fp);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the readers' rules, and limits short enough for any input to pass */
	static const struct line_rules short_lines[] = { { 3, 0 }, { 3, 1 } };
	const struct line_rules *rules[] = {
		&line_rules_stream, &line_rules_files, &short_lines[0], &short_lines[1],
	};
	const size_t chunks[] = { 1, 2, 3, 61, 4093 };

	for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
		/* each read scans the line so far again: under a long limit, a
		 * few bytes at a time only for inputs of a few hundred reads */
		for (size_t j = 0; j < sizeof chunks / sizeof *chunks; j++)
			if (rules[i]->max_bytes < 64 || size <= 256 * chunks[j])
				check_split(data, size, rules[i], chunks[j]);
		check_split(data, size, rules[i], size > 0 ? size : 1);
	}
	check_reader(data, size);
	return 0;
}
