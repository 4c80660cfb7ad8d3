/* Every reader (lib/readers.c and the reader plugins, linked in under
 * the names dl_plugin_NAME) on hostile bytes.  The input's first byte
 * picks the reader, and its high bit asks for --partial; the rest is the
 * file.  A refusal keeps the error contract; a board accepted holds a
 * complete deal, a board number in range and printable text fields; the
 * boards a file does not number follow on; warnings are one line each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "readers.h"
#include "util.h"

#define READER(name) extern const struct dl_plugin dl_plugin_##name;
#include "fuzz_read_list.h"
#undef READER

static const struct dl_plugin *const readers[] = {
#define READER(name) &dl_plugin_##name,
#include "fuzz_read_list.h"
#undef READER
};
#define NREADERS (sizeof readers / sizeof *readers)

static void
check_warning(const char *msg, void *arg)
{
	(void)arg;
	fuzz_check_message(msg, "a reader's warning");
}

static void
check_board(const struct dl_board_in *b, const char *format)
{
	const char *const fields[] = {
		b->event, b->site, b->date,
		b->players[0], b->players[1], b->players[2], b->players[3],
	};

	if (b->board < 1 || b->board > BOARD_MAX || !deal_is_complete(b->owner))
		fuzz_fail("%s: board %u accepted incomplete or out of range", format, b->board);
	if (b->dealer < -1 || b->dealer > 3 || b->vulnerability < -1 || b->vulnerability > 3)
		fuzz_fail("%s: board %u: dealer %d, vulnerability %d", format, b->board,
		    b->dealer, b->vulnerability);
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
		if (fields[i] != NULL && (*fields[i] == '\0' ||
		    !text_is_printable(fields[i], strlen(fields[i]))))
			fuzz_fail("%s: board %u: text field %zu not printable", format,
			    b->board, i);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	const struct dl_plugin *plugin = readers[(data[0] & 0x7f) % NREADERS];
	struct reader_options opt = {
		.flags = data[0] & 0x80 ? DL_IN_PARTIAL : 0, .warn = check_warning,
	};
	if (plugin->read_board == NULL)
		return 0;
	const char *path = fuzz_tmp_file("deals", data + 1, size - 1);
	struct deal_reader *r;
	struct dl_board_in b;
	struct dl_error e = { 0 };
	int got;

	if (reader_open_plugin(&r, path, plugin, &opt, &e) == -1)
		fuzz_fail("%s: a file written cannot be opened: %s", plugin->name, e.msg);
	while ((got = reader_next(r, &b, &e)) == 1)
		check_board(&b, plugin->name);
	if (got == -1)
		fuzz_check_error(&e, plugin->name);
	reader_close(r);
	return 0;
}
