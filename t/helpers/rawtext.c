/* Test helper (t/markup.bats): writers fed text no stream can carry.
 * The host refuses a header that is not one line of printable UTF-8
 * (lib/stream/proto.c), so no tool can hand a writer a control character or a
 * byte that is not UTF-8; this hands them over, past those checks, to try
 * what the writers do should one ever get through.  Writes FORMATS to
 * PREFIX.SUFFIX for the .tso records ("BOARD DIGITS") on standard input,
 * boards 1 to N, with EVENT as the run's event ("" for none) and each
 * HEADER ("#S: ...", "#T: ...") as one of the stream's header lines.
 *   rawtext FORMATS PREFIX EVENT [HEADER...] */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tso_input.h"
#include "files/writers.h"

#define MAX_BOARDS 64

int
main(int argc, char *argv[])
{
	struct writers_options wo = { .publish = PUBLISH_NEW, .threads = 1 };
	unsigned char deals[MAX_BOARDS][CARDS];
	struct format_list list;
	struct writers *ws;
	struct dl_error e;
	unsigned have;

	if (argc < 4)
		errx(2, "usage: rawtext FORMATS PREFIX EVENT [HEADER...]");
	have = (unsigned)tso_input(deals, MAX_BOARDS);
	wo.prefix = argv[2];
	if (format_list_parse(argv[1], &list, &e) == -1 || writers_open(&ws, &list, &wo, &e) == -1)
		errx(1, "%s", e.msg);
	format_list_free(&list);
	if (writers_begin(ws, 1, have, argv[3][0] != '\0' ? argv[3] : NULL, argv + 4,
	    (size_t)(argc - 4), 0, 0, &e) == -1) {
		writers_abort(ws);
		errx(1, "%s", e.msg);
	}
	for (unsigned b = 0; b < have; b++)
		if (writers_board(ws, b + 1, deals[b], -1, -1, NULL, &e) == -1) {
			writers_abort(ws);
			errx(1, "%s", e.msg);
		}
	if (writers_finish(ws, &e) == -1)
		errx(1, "%s", e.msg);
	return 0;
}
