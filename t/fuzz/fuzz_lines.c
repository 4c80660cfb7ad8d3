/* The line reader (lib/base/lines.c), the first stage of every parser, against
 * a model: the input split at LF, one CR dropped from a line's end, a line
 * of more than LINE_MAX_BYTES or with a NUL refused with its number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lines.h"

/* The line the reader must refuse, from 1, and the message it must give;
 * 0 when it must read every line. */
static size_t
first_bad_line(const uint8_t *data, size_t size, const char **why)
{
	size_t at = 0, n = 0;

	while (at < size) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t raw = nl ? (size_t)(nl - (data + at)) : size - at;
		n++;
		if (raw > LINE_MAX_BYTES) {
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
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
		if (raw > LINE_MAX_BYTES || memchr(data + at, '\0', raw) != NULL)
			fuzz_fail("line %zu accepted: %zu bytes, or a NUL", lines + 1, raw);
		if (len != expect || memcmp(line, data + at, expect) != 0 || line[len] != '\0')
			fuzz_fail("line %zu differs from the input", lines + 1);
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
	return 0;
}
