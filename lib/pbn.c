#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "pbn.h"
#include "proto.h"
#include "util.h"

static const char ranks[] = "AKQJT98765432", seats[] = "NESW";

/* Exactly "S:h h h h" with S one of NESW and each hand four suits split
 * by three dots: a fifth hand, a missing dot or a stray character is not
 * a deal, whatever the cards add up to.  Ends at the NUL or a '"'. */
int
deal_from_pbn(const char *text, unsigned char owner[CARDS])
{
	const char *seat = text[0] != '\0' ? strchr(seats, text[0]) : NULL;
	unsigned h, hands = 1, suit = 0;
	const char *p;

	if (seat == NULL || text[1] != ':')
		return -1;
	memset(owner, 9, CARDS);
	h = (unsigned)(seat - seats);
	for (p = text + 2; *p && *p != '"'; p++) {
		const char *r;
		if (*p == '.') {
			if (++suit > 3)
				return -1;
		} else if (*p == ' ') {
			if (suit != 3 || ++hands > 4)
				return -1;
			h = (h + 1) % 4, suit = 0;
		} else if ((r = strchr(ranks, *p)) != NULL) {
			unsigned card = suit * 13 + (unsigned)(r - ranks);
			if (owner[card] != 9)
				return -1;	/* a card twice */
			owner[card] = (unsigned char)h;
		} else
			return -1;
	}
	if (hands != 4 || suit != 3)
		return -1;
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

/* The value of a tag line [NAME "VALUE"] and nothing after it: VALUE with
 * its closing quote replaced by a NUL, or NULL. */
static char *
tag_value(char *line, const char *name)
{
	size_t len = strlen(name), end;

	if (line[0] != '[' || strncmp(line + 1, name, len) != 0 ||
	    strncmp(line + 1 + len, " \"", 2) != 0)
		return NULL;
	line += len + 3;
	end = strcspn(line, "\"");
	if (strcmp(line + end, "\"]") != 0)
		return NULL;
	line[end] = '\0';
	return line;
}

/* The boards seen so far, an open-addressing set kept at most half full,
 * so that a file of a million boards is checked in linear time. */
struct board_set {
	unsigned *slots;	/* 0: empty (board numbers start at 1) */
	size_t size;
	size_t count;
};

static size_t
slot_of(const struct board_set *set, unsigned board)
{
	size_t i = (board * 2654435761u) & (set->size - 1);

	while (set->slots[i] != 0 && set->slots[i] != board)
		i = (i + 1) & (set->size - 1);
	return i;
}

/* 1 when board was in the set already; else adds it, 0. */
static int
board_set_add(struct board_set *set, unsigned board)
{
	if (2 * (set->count + 1) > set->size) {
		struct board_set bigger = { NULL, set->size ? 2 * set->size : 64, 0 };
		bigger.slots = xcalloc(bigger.size, sizeof *bigger.slots);
		for (size_t i = 0; i < set->size; i++)
			if (set->slots[i] != 0)
				bigger.slots[slot_of(&bigger, set->slots[i])] = set->slots[i];
		bigger.count = set->count;
		free(set->slots);
		*set = bigger;
	}
	size_t i = slot_of(set, board);
	if (set->slots[i] == board)
		return 1;
	set->slots[i] = board;
	set->count++;
	return 0;
}

static int
read_pbn(FILE *fp, const char *path, struct played_board **all, size_t *n,
    struct dl_error *e)
{
	unsigned char owner[CARDS];
	struct board_set seen = { NULL, 0, 0 };
	struct line_reader r;
	long board = -1;
	char *line, *value;
	int got;

	line_reader_open(&r, fp, path);
	while ((got = line_next(&r, &line, NULL, e)) == 1) {
		if (line[0] == '\0')
			board = -1;
		else if (strncmp(line, "[Board ", 7) == 0) {
			unsigned number;
			if ((value = tag_value(line, "Board")) == NULL ||
			    board_number_parse(value, strlen(value), &number) == -1) {
				got = line_error(&r, e, "bad [Board] tag");
				break;
			}
			board = number;
		} else if (strncmp(line, "[Deal ", 6) == 0) {
			if (board < 0) {
				got = line_error(&r, e, "[Deal] without a [Board] before it");
				break;
			}
			if ((value = tag_value(line, "Deal")) == NULL ||
			    deal_from_pbn(value, owner) == -1) {
				got = line_error(&r, e, "not a complete deal");
				break;
			}
			/* a second deal for a board would let a file both match
			 * and hold another deal */
			if (board_set_add(&seen, (unsigned)board)) {
				got = line_error(&r, e, "board %ld appears twice", board);
				break;
			}
			add_board(all, n, (unsigned)board, owner);
		}
	}
	line_reader_close(&r);
	free(seen.slots);
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
