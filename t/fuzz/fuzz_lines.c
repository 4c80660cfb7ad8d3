/* The line reader (lib/lines.c), the first stage of every parser, against
 * a model: the input split at LF, one CR dropped from a line's end, a line
 * of more than LINE_MAX_BYTES or with a NUL refused with its number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lines.h"

struct run {
	const uint8_t *data;
	size_t size;
	size_t lines;		/* lines read and checked */
};

static void
read_lines(void *arg)
{
	struct run *run = arg;
	struct line_reader r;
	FILE *fp = fopen("lines", "r");
	size_t at = 0, len;
	char *line;

	line_reader_open(&r, fp, NULL);
	while ((line = line_next(&r, &len)) != NULL) {
		if (at >= run->size)
			fuzz_fail("line %zu read after the end of the input", run->lines + 1);
		const uint8_t *nl = memchr(run->data + at, '\n', run->size - at);
		size_t raw = nl ? (size_t)(nl - (run->data + at)) : run->size - at;
		size_t want = raw;
		if (want > 0 && run->data[at + want - 1] == '\r')
			want--;
		if (raw > LINE_MAX_BYTES || memchr(run->data + at, '\0', raw) != NULL)
			fuzz_fail("line %zu accepted: %zu bytes, or a NUL", run->lines + 1, raw);
		if (len != want || memcmp(line, run->data + at, want) != 0 || line[len] != '\0')
			fuzz_fail("line %zu differs from the input", run->lines + 1);
		if (r.lineno != run->lines + 1)
			fuzz_fail("line %zu numbered %lu", run->lines + 1, r.lineno);
		run->lines++;
		at += raw + (nl != NULL);
	}
	if (at != run->size)
		fuzz_fail("input ended early, after %zu lines", run->lines);
	if (line_next(&r, &len) != NULL)
		fuzz_fail("a line after the end");
	line_reader_close(&r);
	fclose(fp);
}

/* The line the reader must refuse, from 1, and the message it must give. */
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
	struct run run = { data, size, 0 };
	const char *why = NULL;
	size_t bad = first_bad_line(data, size, &why);
	char want[64];

	fuzz_file_add("lines", data, size);
	if (fuzz_call(read_lines, &run) == 0) {
		if (bad != 0)
			fuzz_fail("line %zu should have been refused (%s)", bad, why);
	} else {
		snprintf(want, sizeof want, "line %zu: %s", bad, why ? why : "");
		if (bad == 0 || strncmp(fuzz_message, want, strlen(want)) != 0)
			fuzz_fail("refused with \"%s\", expected \"%s\"", fuzz_message, want);
		if (run.lines != bad - 1)
			fuzz_fail("refused line %zu after reading %zu", bad, run.lines);
		fuzz_abandon();
	}
	fuzz_files_reset();
	return 0;
}
