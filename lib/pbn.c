#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "pbn.h"
#include "proto.h"
#include "util.h"

static const char ranks[] = "AKQJT98765432", seats[] = "NESW";

int
deal_from_pbn(const char *text, unsigned char owner[CARDS])
{
	const char *seat = strchr(seats, text[0]);
	unsigned h, suit = 0;

	if (text[0] == '\0' || seat == NULL || text[1] != ':')
		return -1;
	memset(owner, 9, CARDS);
	h = (unsigned)(seat - seats);
	for (const char *p = text + 2; *p && *p != '"'; p++) {
		const char *r;
		if (*p == '.')
			suit++;
		else if (*p == ' ')
			h = (h + 1) % 4, suit = 0;
		else if ((r = strchr(ranks, *p)) != NULL && *p && suit < 4)
			owner[suit * 13 + (unsigned)(r - ranks)] = (unsigned char)h;
		else
			return -1;
	}
	return deal_is_complete(owner) ? 0 : -1;
}

void
deal_to_pbn(const unsigned char owner[CARDS], char *out)
{
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
	*out = '\0';
}

static void
add_board(struct played_board **all, size_t *n, unsigned board,
    const unsigned char owner[CARDS])
{
	*all = xreallocarray(*all, *n + 1, sizeof **all);
	(*all)[*n].board = board;
	memcpy((*all)[*n].owner, owner, CARDS);
	(*n)++;
}

static int
read_tso(FILE *fp, const char *path, struct played_board **all, size_t *n,
    struct dl_error *e)
{
	unsigned char owner[CARDS];
	struct stream_in in;
	unsigned board;
	char *line;
	size_t len;
	int got;

	if (stream_open_file(&in, fp, path, STREAM_DEALS, e) == -1)
		goto fail;
	while ((got = stream_next_record(&in, &line, &len, e)) == 1) {
		if (record_deal(&in, line, &board, owner, e) == -1)
			goto fail;
		add_board(all, n, board, owner);
	}
	if (got == -1 || stream_check_complete(&in, e) == -1)
		goto fail;
	stream_close(&in);
	return 0;
fail:
	stream_close(&in);
	return -1;
}

static int
read_pbn(FILE *fp, const char *path, struct played_board **all, size_t *n,
    struct dl_error *e)
{
	unsigned char owner[CARDS];
	struct line_reader r;
	long board = -1;
	char *line;
	int got;

	line_reader_open(&r, fp, path);
	while ((got = line_next(&r, &line, NULL, e)) == 1) {
		if (line[0] == '\0')
			board = -1;
		else if (strncmp(line, "[Board \"", 8) == 0) {
			char *end;
			board = strtol(line + 8, &end, 10);
			if (end == line + 8 || strcmp(end, "\"]") != 0 || board < 1 ||
			    board > (long)BOARD_MAX) {
				got = line_error(&r, e, "bad [Board] tag");
				break;
			}
		} else if (strncmp(line, "[Deal \"", 7) == 0) {
			if (board < 0) {
				got = line_error(&r, e, "[Deal] without a [Board] before it");
				break;
			}
			if (deal_from_pbn(line + 7, owner) == -1) {
				got = line_error(&r, e, "not a complete deal");
				break;
			}
			add_board(all, n, (unsigned)board, owner);
		}
	}
	line_reader_close(&r);
	return got == -1 ? -1 : 0;
}

int
played_read(const char *path, struct played_board **boards, size_t *n,
    struct dl_error *e)
{
	FILE *fp = fopen(path, "r");
	size_t len = strlen(path);
	int status;

	*boards = NULL;
	*n = 0;
	if (fp == NULL)
		return dl_error_sys(e, "%s", path);
	if (len > 4 && strcmp(path + len - 4, ".tso") == 0)
		status = read_tso(fp, path, boards, n, e);
	else
		status = read_pbn(fp, path, boards, n, e);
	fclose(fp);
	if (status == -1) {
		free(*boards);
		*boards = NULL;
		*n = 0;
	}
	return status;
}
