/* Test helper for the ww-deal generator (docs/wwdeal.md).
 *   wwdeal gimli   the Gimli permutation of its published test state
 *   wwdeal         "key event session board" lines on standard input (#
 *                  comments and blank lines skipped) to "key event session
 *                  board NUMBER DEAL", the deal as ww-deal's reference
 *                  prints it: PBN, the board's dealer first.
 * Parses its input itself rather than with lib/base/util.c, so that it checks
 * the generator alone. */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "deals/dealnum.h"
#include "keys/gimli.h"
#include "deals/pavlicek.h"
#include "keys/wwdeal.h"

#define FIELDS 4
#define SEATS "NESW"
#define RANKS "AKQJT98765432"

static void
print_gimli_vector(void)
{
	uint32_t state[GIMLI_WORDS];

	/* the state the Gimli paper's test vector starts from */
	for (uint32_t i = 0; i < GIMLI_WORDS; i++)
		state[i] = i * i * i + i * 0x9e3779b9u;
	gimli_permute(state);
	for (unsigned i = 0; i < GIMLI_WORDS; i++)
		printf("%s%08" PRIx32, i > 0 ? " " : "", state[i]);
	printf("\n");
}

static int
parse_key(const char *text, unsigned char key[WWDEAL_KEY_BYTES])
{
	size_t n;

	if (strlen(text) != 2 * WWDEAL_KEY_BYTES ||
	    sodium_hex2bin(key, WWDEAL_KEY_BYTES, text, strlen(text), NULL, &n, NULL) != 0 ||
	    n != WWDEAL_KEY_BYTES)
		return -1;
	return 0;
}

/* Decimal digits only: strtoull alone would take a sign or blanks. */
static int
parse_unsigned(const char *text, uint64_t max, uint64_t *value)
{
	char *end;

	if (text[0] < '0' || text[0] > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	if (errno != 0 || *end != '\0' || v > max)
		return -1;
	*value = v;
	return 0;
}

/* The next blank-separated field of *rest, NUL-terminated in place; NULL
 * at the end of the line.  strsep(3) alone would give empty fields for runs
 * of blanks. */
static char *
next_field(char **rest)
{
	char *start = *rest + strspn(*rest, " \t");
	char *end = start + strcspn(start, " \t");

	if (*start == '\0')
		return NULL;
	*rest = *end != '\0' ? end + 1 : end;
	*end = '\0';
	return start;
}

/* "N:S.H.D.C S.H.D.C ..." with the hand of seat first first, then the
 * others clockwise; void suits are empty between the dots. */
static void
print_deal(u128 number, unsigned first)
{
	unsigned char owner[CARDS], hand[HANDS][HAND_CARDS];

	deal_from_number_pavlicek(number, owner);
	deal_hands(owner, hand);
	printf("%c:", SEATS[first]);
	for (unsigned h = 0; h < HANDS; h++) {
		const unsigned char *cards = hand[(first + h) % HANDS];
		unsigned i = 0;

		for (unsigned suit = 0; suit < 4; suit++) {
			if (suit > 0)
				putchar('.');
			for (; i < HAND_CARDS && cards[i] / 13 == suit; i++)
				putchar(RANKS[cards[i] % 13]);
		}
		putchar(h + 1 < HANDS ? ' ' : '\n');
	}
}

static void
deal_lines(void)
{
	char *line = NULL, *field[FIELDS];
	size_t size = 0;
	ssize_t len;
	unsigned long lineno = 0;

	while ((len = getline(&line, &size, stdin)) != -1) {
		unsigned char key[WWDEAL_KEY_BYTES];
		uint64_t event, session, board;
		char *rest = line, *extra;
		unsigned n;

		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || line[strspn(line, " \t")] == '\0')
			continue;
		for (n = 0; n < FIELDS; n++)
			if ((field[n] = next_field(&rest)) == NULL)
				break;
		extra = next_field(&rest);
		if (n < FIELDS || extra != NULL)
			errx(1, "line %lu: not \"key event session board\"", lineno);
		if (parse_key(field[0], key) == -1)
			errx(1, "line %lu: the key is not 64 hex digits", lineno);
		if (parse_unsigned(field[1], UINT64_MAX, &event) == -1 ||
		    parse_unsigned(field[2], UINT32_MAX, &session) == -1 ||
		    parse_unsigned(field[3], UINT32_MAX, &board) == -1)
			errx(1, "line %lu: event, session or board out of range",
			    lineno);

		char hex[DEAL_NUMBER_HEX + 1];
		u128 number = wwdeal_number(key, event, (uint32_t)session,
		    (uint32_t)board);

		deal_number_to_hex(number, hex);
		for (unsigned i = 0; i < WWDEAL_KEY_BYTES; i++)
			printf("%02x", key[i]);
		printf(" %" PRIu64 " %" PRIu64 " %" PRIu64 " %s ", event,
		    session, board, hex);
		/* board 1 is dealt by North, 2 by East, and so on round the
		 * table; board 0 (not in the vectors) would be West's */
		print_deal(number, (unsigned)((board + 3) % HANDS));
	}
	if (ferror(stdin))
		err(1, "stdin");
	free(line);
}

int
main(int argc, char *argv[])
{
	if (argc == 2 && strcmp(argv[1], "gimli") == 0)
		print_gimli_vector();
	else if (argc == 1)
		deal_lines();
	else {
		fprintf(stderr, "usage: wwdeal [gimli] < lines\n");
		return 2;
	}
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return 0;
}
