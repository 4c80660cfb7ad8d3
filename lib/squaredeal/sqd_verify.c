/* Comparing a played set with the session's deals, made again with the
 * generator table as dealing makes them: Big Deal's generator from the
 * session's seed, with its natural mapping. */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "keys/generator.h"
#include "deals/mapping.h"
#include "squaredeal/sqd_deal.h"
#include "squaredeal/sqd_verify.h"
#include "base/util.h"

static void
add_verdict(struct sqd_verify *v, unsigned board, enum sqd_verdict verdict)
{
	/* room doubles at each power of two: a million boards, no quadratic
	 * copying */
	if ((v->n & (v->n - 1)) == 0)
		v->boards = xreallocarray(v->boards, v->n ? 2 * v->n : 1, sizeof *v->boards);
	v->boards[v->n++] = (struct sqd_board_verdict){ board, verdict };
	v->count[verdict]++;
}

/* The played boards of the session by their number, found in one step
 * each: checking 100 000 boards is linear.  A board played twice is
 * judged by its first deal (played_read refuses such a file anyway). */
static const struct played_board **
index_played(struct board_range r, const struct played_board *played, size_t nplayed)
{
	const struct played_board **by_board = xcalloc((size_t)r.high - r.low + 1,
	    sizeof *by_board);

	for (size_t i = nplayed; i-- > 0;)
		if (played[i].board >= r.low && played[i].board <= r.high)
			by_board[played[i].board - r.low] = &played[i];
	return by_board;
}

static void
compare_boards(const struct seed_record *seed, struct board_range r,
    const struct played_board *played, size_t nplayed, struct sqd_verify *v)
{
	const struct mapping *map = mapping_find(seed->generator->mapping);
	const struct played_board **by_board = index_played(r, played, nplayed);
	unsigned char owner[CARDS];
	struct number_source ns;

	number_source_init(&ns, seed, r.high);
	for (unsigned long b = r.low; b <= r.high; b++) {
		const struct played_board *found = by_board[b - r.low];
		/* dealt even when not played: Big Deal's boards come in order */
		map->deal(number_source_board(&ns, (unsigned)b), owner);
		if (found == NULL)
			add_verdict(v, (unsigned)b, SQD_MISSING);
		else if (memcmp(found->owner, owner, CARDS) != 0)
			add_verdict(v, (unsigned)b, SQD_DIFFERENT);
		else
			add_verdict(v, (unsigned)b, SQD_SAME);
	}
	number_source_free(&ns);
	free(by_board);
}

int
sqd_verify_played(const struct sqd *t, const struct sqk *k, unsigned phase,
    unsigned session, int reserve, struct board_range r,
    const struct played_board *played, size_t nplayed, struct sqd_verify *v,
    struct dl_error *e)
{
	struct seed_record *seed;

	memset(v, 0, sizeof *v);
	if (sqd_session_check(t, k, phase, session, e) == -1)
		return -1;
	seed = secret_alloc(sizeof *seed);
	sqd_session_seed(t, k, phase, session, reserve, seed);
	compare_boards(seed, r, played, nplayed, v);
	secret_free(seed);
	for (size_t i = 0; i < nplayed; i++)
		if (played[i].board < r.low || played[i].board > r.high)
			add_verdict(v, played[i].board, SQD_FOREIGN);
	if (v->count[SQD_DIFFERENT] != 0 || v->count[SQD_FOREIGN] != 0 || v->count[SQD_SAME] == 0)
		v->match = SQD_MATCH_NONE;
	else
		v->match = v->count[SQD_MISSING] != 0 ? SQD_MATCH_PART : SQD_MATCH_WHOLE;
	return 0;
}

void
sqd_verify_free(struct sqd_verify *v)
{
	free(v->boards);
	memset(v, 0, sizeof *v);
}

int
sqd_session_of_file(const struct sqd *t, const char *path, unsigned *phase,
    unsigned *session, int *reserve)
{
	char *copy = xstrdup(path), *base = basename(copy), *dot = strrchr(base, '.');
	int status;

	if (dot != NULL)
		*dot = '\0';
	status = sqd_match_name(t, base, phase, session, reserve);
	free(copy);
	return status;
}
