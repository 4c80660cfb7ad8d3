/* A set dealt, recorded in the archive (recording.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "archive/deal_archive.h"
#include "session/recording.h"
#include "session/set_input.h"
#include "stream/description.h"
#include "base/util.h"

struct recording {
	struct archive *archive;
	struct archive_add *add;
	char *source;
	/* the federation's archive the set is checked against before it is
	 * committed (NULL: none named), and the set's boards for that check
	 * (secret memory's rules: wiped before freed) */
	char *shared;
	struct set_boards boards;
};

static int
tap_board(void *arg, unsigned board, const unsigned char owner[CARDS], struct dl_error *e)
{
	struct recording *r = arg;

	if (r->shared != NULL) {
		struct set_input held = { .arg = &r->boards };

		if (set_boards_take(&held, board, owner, -1, -1, e) == -1)
			return -1;
	}
	/* a dealing tool's boards have their numbers' dealers and
	 * vulnerabilities */
	return archive_add_board(r->add, board, owner, -1, -1, e);
}

struct recording *
recording_start(const char *spec, const char *shared, const char *source,
    struct writers_options *wo, struct dl_error *e)
{
	struct recording *r = xcalloc(1, sizeof *r);
	char *name = NULL;

	if (shared != NULL)
		r->shared = xstrdup(shared);
	else
		archive_shared_default(&r->shared);

	if (spec == NULL && archive_default(&name, e) == -1)
		goto fail;
	if (archive_open(&r->archive, spec != NULL ? spec : name, ARCHIVE_WRITE, e) == -1)
		goto fail;
	/* a shared archive takes the set once played: dl-archive add --played */
	if (archive_is_shared(r->archive)) {
		dl_error_set(e, DL_ERR_USAGE, "the archive to record in is shared, and takes a"
		    " set only once it was played: name a local one (--archive FILE)");
		goto fail;
	}
	if (archive_add_begin(r->archive, &r->add, e) == -1)
		goto fail;
	free(name);
	r->source = xstrdup(source);
	wo->tap = tap_board;
	wo->tap_arg = r;
	return r;
fail:
	free(name);
	archive_close(r->archive);
	if (r->shared != NULL)
		freezero(r->shared, strlen(r->shared));
	free(r);
	return NULL;
}

/* The first board a check found dealt before, for the message. */
struct seen_before {
	const unsigned *numbers;
	struct archive_verdict verdict;
	unsigned board;
	struct archive_hit first;
	char *club;
};

static int
seen_before(size_t index, const struct archive_hit *hit, void *arg)
{
	struct seen_before *s = arg;
	size_t before = s->verdict.dealt_before;

	archive_verdict_add(&s->verdict, index, hit);
	if (before == 0 && s->verdict.dealt_before == 1) {
		s->board = s->numbers[index];
		s->first = *hit;
		s->club = hit->club != NULL ? xstrdup(hit->club) : NULL;
	}
	return 0;
}

/* The set against the club's archive and the federation's, before it is
 * committed: a set whose board was dealt before (a seed used again, at
 * this club or another) is not published.  Chance never does it: two
 * hands the same come about 10^-20 a pair of deals (docs/archive.md). */
static int
check_shared(struct recording *r, struct dl_error *e)
{
	struct seen_before s = { .numbers = r->boards.numbers };
	struct archive *shared;
	int64_t skip;
	int rc;

	/* the same set made again (dl-sqd make --force), archived and not
	 * yet played, is not compared with itself, as dl-archive check
	 * does not */
	if (archive_unplayed_self(r->archive, r->boards.numbers,
	    (const unsigned char (*)[CARDS])r->boards.owner, r->boards.n, &skip, e) == -1)
		return -1;
	if (archive_open(&shared, r->shared, 0, e) == -1)
		return -1;
	if (!archive_is_shared(shared)) {
		archive_close(shared);
		return dl_error_set(e, DL_ERR_USAGE, "the shared archive named is not a shared one"
		    " (PostgreSQL)");
	}
	rc = archive_check_both(r->archive, shared, (const unsigned char (*)[CARDS])r->boards.owner,
	    r->boards.n, skip, 0, seen_before, &s, e);
	archive_close(shared);
	if (rc == 0 && s.verdict.dealt_before > 0) {
		char board[24] = "";

		/* not known for a set of a shared archive too large to read
		 * (archive.c's SET_BOARDS_READ) */
		if (s.first.board != 0)
			snprintf(board, sizeof board, " board %u", s.first.board);
		rc = dl_error_set(e, DL_ERR_INPUT, "board %u was dealt before (%s, %sset %lld%s%s%s):"
		    " %zu of %zu boards; nothing published", s.board,
		    archive_match_kind(s.first.match)->words, s.first.shared ? "shared " : "",
		    (long long)s.first.set, board, s.club != NULL ? ", " : "",
		    s.club != NULL ? s.club : "", s.verdict.dealt_before, r->boards.n);
	}
	free(s.club);
	return rc;
}

int
recording_count_event(struct recording *r, const char *event, int64_t *n, struct dl_error *e)
{
	return archive_add_count_event(r->add, event, n, e);
}

int
recording_commit(struct recording *r, char *const *headers, size_t nheaders, int64_t *id,
    struct dl_error *e)
{
	struct archive_set set = { 0 };
	struct set_description d;
	int64_t existing;
	int rc;

	set_description_read(&d, headers, nheaders);
	set.event = d.event != NULL ? xstrdup(d.event) : NULL;
	set.site = d.site != NULL ? xstrdup(d.site) : NULL;
	set.date = d.date != NULL ? xstrdup(d.date) : NULL;
	set.generator = d.generator != NULL ? xstrdup(d.generator) : NULL;
	/* #N: is what the hand records print: the archive makes it true or
	 * refuses the set */
	set.event_place = d.place;
	set.headers = archive_headers_text(headers, nheaders);
	set.source = r->source;
	r->source = NULL;
	set.user = archive_user();
	if (r->shared != NULL && check_shared(r, e) == -1) {
		archive_set_clear(&set);
		recording_abort(r);
		return -1;
	}
	rc = archive_add_commit(r->add, &set, &existing, e);
	r->add = NULL;
	*id = set.id;
	archive_set_clear(&set);
	recording_abort(r);
	return rc;
}

void
recording_abort(struct recording *r)
{
	if (r == NULL)
		return;
	archive_add_abort(r->add);
	archive_close(r->archive);
	free(r->source);
	if (r->shared != NULL)
		freezero(r->shared, strlen(r->shared));
	set_boards_free(&r->boards);
	free(r);
}
