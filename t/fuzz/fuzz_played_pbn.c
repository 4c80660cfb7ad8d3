/* The played deals a player gives dl-sqd verify --deals (cmd/dl-sqd.c
 * read_played, deal_from_pbn): a PBN file's [Board] and [Deal] tags.
 * cmd/dl-sqd.c is compiled here, its main renamed, to reach its static
 * reader.  Each deal it accepts is complete, and written back as PBN it
 * reads as the same deal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int dl_sqd_main(int argc, char *argv[]);
#define main dl_sqd_main
#include "../../cmd/dl-sqd.c"
#undef main

struct run {
	struct played *played;
	size_t n;
};

static void
read_file(void *arg)
{
	struct run *run = arg;

	run->n = read_played("played.pbn", &run->played);
}

/* A deal as PBN writes it: "N:" then each hand from North, suits by dots. */
static void
to_pbn(const unsigned char owner[CARDS], char *out)
{
	static const char ranks[] = "AKQJT98765432";

	*out++ = 'N';
	*out++ = ':';
	for (unsigned h = 0; h < HANDS; h++) {
		if (h > 0)
			*out++ = ' ';
		for (unsigned suit = 0; suit < 4; suit++) {
			if (suit > 0)
				*out++ = '.';
			for (unsigned c = suit * 13; c < suit * 13 + 13; c++)
				if (owner[c] == h)
					*out++ = ranks[c % 13];
		}
	}
	*out++ = '"';
	*out = '\0';
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run run = { NULL, 0 };

	fuzz_file_add("played.pbn", data, size);
	if (fuzz_call(read_file, &run) == 0) {
		for (size_t i = 0; i < run.n; i++) {
			const struct played *p = &run.played[i];
			unsigned char again[CARDS];
			char text[2 + CARDS + 3 * 4 + 3 + 2];
			if (p->board < 1 || p->board > BOARD_MAX || !deal_is_complete(p->owner))
				fuzz_fail("played board %u accepted incomplete or out of range",
				    p->board);
			to_pbn(p->owner, text);
			if (deal_from_pbn(text, again) == -1 || memcmp(again, p->owner, CARDS) != 0)
				fuzz_fail("board %u reads back as another deal", p->board);
		}
		free(run.played);
	} else
		fuzz_abandon();
	fuzz_files_reset();
	return 0;
}
