/* A session dealt in one process (session.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "session/deal.h"
#include "keys/generator.h"
#include "stream/description.h"
#include "stream/proto.h"
#include "session/recording.h"
#include "session/session.h"
#include "session/set_input.h"
#include "stream/date.h"

int
session_wants_analysis(const struct format_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		if (strcmp(list->names[i], "html") == 0 || strcmp(list->names[i], "pdf") == 0)
			return 1;
	return 0;
}

/* The header lines a pipeline would carry, for writers that keep them:
 * d's, with this program's #V:, the time when the set is dealt now (a
 * hand record without a date says "dealt" that day: never a set read
 * from a file), and with the analysis (by analyser, when not NULL)
 * dl-dd's #A:. */
static size_t
describe(char *headers[SET_DESCRIPTION_LINES], struct set_description d, int dealt_now,
    const struct session_analyser *analyser)
{
	char when[32], solver[64];
	time_t now = time(NULL);
	struct tm tm;

	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	d.version = DL_VERSION_STRING;
	if (dealt_now)
		d.time = when;
	if (analyser != NULL) {
		analyser->name(analyser->ctx, solver, sizeof solver);
		d.solver = solver;
	}
	return set_description_lines(&d, headers);
}

static size_t
make_headers(char *headers[SET_DESCRIPTION_LINES], const struct session *s,
    const struct seed_record *seed)
{
	char generator[128];

	generator_header(seed, generator, sizeof generator);
	return describe(headers, (struct set_description){
		.event = s->event, .site = s->site, .date = s->date, .place = s->sets_of_event,
		.record_url = s->record_url,
		.generator = generator, .boards = s->boards, .mapping = seed->generator->mapping,
	}, 1, s->analysis ? s->analyser : NULL);
}

int
session_deal(struct session *s, struct dl_error *e)
{
	struct recording *recording = NULL;
	int analysing = 0;
	struct writers *ws = NULL;
	struct seed_record *seed;
	char *headers[SET_DESCRIPTION_LINES];
	size_t nheaders = 0;
	int status = -1;

	if (s->record_url != NULL && record_url_check(s->record_url, e) == -1) {
		dl_error_prefix(e, "the hand record's address");
		return -1;
	}
	if (s->record && (recording = recording_start(s->archive, s->shared, s->where, &s->wo,
	    e)) == NULL) {
		dl_error_prefix(e, "archive");
		return -1;
	}
	if (s->count_locked && recording != NULL && s->event != NULL) {
		int64_t before;

		if (recording_count_event(recording, s->event, &before, e) == -1) {
			dl_error_prefix(e, "archive");
			recording_abort(recording);
			return -1;
		}
		s->sets_of_event = before + 1;
	}
	if (writers_open(&ws, s->formats, &s->wo, e) == -1) {
		recording_abort(recording);
		return -1;
	}
	seed = secret_alloc(sizeof *seed);
	if (s->owner != NULL)
		memcpy(seed->owner, s->owner, sizeof seed->owner);
	if (seed_make(seed, &s->source, &s->bits, e) == -1)
		goto fail;
	/* printed on the hand record before play: never a part of the secret */
	if (s->record_url != NULL && seed_text_holds_secret(seed, s->record_url)) {
		dl_error_set(e, DL_ERR_USAGE, "the hand record's address holds the seed's "
		    "secret, which no printed page may carry");
		goto fail;
	}
	nheaders = make_headers(headers, s, seed);
	if (s->analysis) {
		if (s->solved != NULL && s->analyser->watch != NULL)
			s->analyser->watch(s->analyser->ctx, s->solved, s->solved_arg);
		if (s->analyser->start(s->analyser->ctx,
		    (unsigned long)s->boards.high - s->boards.low + 1, s->show_analysis, e) == -1)
			goto fail;
		analysing = 1;
	}
	if (writers_begin(ws, s->boards.low, s->boards.high, s->event, headers, nheaders,
	    s->analysis, 0, e) == -1 ||
	    deal_boards_analysed(seed, s->boards, ws, s->progress, s->analysis ?
	    &(struct deal_analyser){ .analyse = s->analyser->analyse, .ctx = s->analyser->ctx } :
	    NULL, e) == -1)
		goto fail;
	/* in the archive before its files are there: a set published is a
	 * set recorded */
	if (recording != NULL) {
		struct recording *r = recording;

		recording = NULL;
		if (recording_commit(r, headers, nheaders, &s->set_id, e) == -1) {
			dl_error_prefix(e, "archive");
			goto fail;
		}
	}
	status = writers_finish(ws, e);
	ws = NULL;
fail:
	if (analysing)
		s->analyser->stop(s->analyser->ctx);
	if (s->analysis && s->solved != NULL && s->analyser->watch != NULL)
		s->analyser->watch(s->analyser->ctx, NULL, NULL);
	recording_abort(recording);
	if (ws != NULL)
		writers_abort(ws);
	set_description_lines_free(headers, nheaders);
	if (s->keep_seed && status == 0)
		s->seed = seed;
	else
		secret_free(seed);
	return status;
}

/* The boards of a hand record run in a row, each once, as a stream's do
 * (docs/protocol.md): the first board, and the boards' range. */
int
set_boards_range(const struct set_boards *b, struct board_range *range, struct dl_error *e)
{
	for (size_t i = 1; i < b->n; i++) {
		unsigned before = b->numbers[i - 1], board = b->numbers[i];

		if (board == before + 1)
			continue;
		if (board <= before)
			return dl_error_set(e, DL_ERR_INPUT, "board %u after board %u: a hand record's"
			    " boards come in order, each once", board, before);
		if (board == before + 2)
			return dl_error_set(e, DL_ERR_INPUT, "board %u after board %u: board %u is"
			    " missing, and a hand record's boards run in a row", board, before,
			    before + 1);
		return dl_error_set(e, DL_ERR_INPUT, "board %u after board %u: boards %u to %u are"
		    " missing, and a hand record's boards run in a row", board, before, before + 1,
		    board - 1);
	}
	range->low = b->numbers[0];
	range->high = b->numbers[b->n - 1];
	return 0;
}

/* A text of the file's as a stream's header carries it (dl-read's rule):
 * the event's and site's rules, a date PBN's; else none. */
static const char *
header_text(const char *text)
{
	struct dl_error e;

	return text != NULL && event_text_check(text, &e) == 0 ? text : NULL;
}

int
session_hand_record(const struct hand_record *h, struct dl_error *e)
{
	const struct set_boards *b = h->boards;
	struct board_range range;
	struct writers *ws = NULL;
	struct dl_analysis *an = NULL;
	char *headers[SET_DESCRIPTION_LINES], date[DATE_PBN_SIZE];
	struct dl_error ignored;
	size_t nheaders = 0;
	int own_dv = 0, analysing = 0, status = -1;

	if (b->n == 0)
		return dl_error_set(e, DL_ERR_INPUT, "no boards");
	if (set_boards_range(b, &range, e) == -1)
		return -1;
	if (h->record_url != NULL && record_url_check(h->record_url, e) == -1) {
		dl_error_prefix(e, "the hand record's address");
		return -1;
	}
	for (size_t i = 0; i < b->n; i++)
		own_dv |= (b->dealer[i] != -1 && b->dealer[i] != (int)dl_dealer(b->numbers[i])) ||
		    (b->vulnerability[i] != -1 &&
		    b->vulnerability[i] != (int)dl_vulnerability(b->numbers[i]));
	if (writers_open(&ws, h->formats, &h->wo, e) == -1)
		return -1;
	nheaders = describe(headers, (struct set_description){
		.event = header_text(h->event), .site = header_text(h->site),
		.date = h->date != NULL && date_to_pbn(h->date, date, &ignored) == 0 ? date : NULL,
		.record_url = h->record_url, .boards = range,
	}, 0, h->analysis ? h->analyser : NULL);
	if (h->analysis) {
		/* the analyses, as the deals, in secret memory: double-dummy
		 * tricks say much of a hand */
		an = secret_alloc(b->n * sizeof *an);
		if (h->solved != NULL && h->analyser->watch != NULL)
			h->analyser->watch(h->analyser->ctx, h->solved, h->solved_arg);
		if (h->analyser->start(h->analyser->ctx, b->n, 0, e) == -1)
			goto fail;
		analysing = 1;
		if (h->analyser->analyse(h->analyser->ctx, range.low, b->n,
		    (const unsigned char (*)[CARDS])b->owner, b->dealer, b->vulnerability, an,
		    e) == -1) {
			/* the boards were read whole: an analysis that fails is
			 * the server's, never the file's */
			e->kind = DL_ERR_SYSTEM;
			goto fail;
		}
	}
	if (writers_begin(ws, range.low, range.high, header_text(h->event), headers, nheaders,
	    h->analysis, own_dv, e) == -1)
		goto fail;
	for (size_t i = 0; i < b->n; i++)
		if (writers_board(ws, b->numbers[i], b->owner[i], b->dealer[i], b->vulnerability[i],
		    an != NULL ? &an[i] : NULL, e) == -1)
			goto fail;
	status = writers_finish(ws, e);
	ws = NULL;
fail:
	if (analysing)
		h->analyser->stop(h->analyser->ctx);
	if (h->analysis && h->solved != NULL && h->analyser->watch != NULL)
		h->analyser->watch(h->analyser->ctx, NULL, NULL);
	if (ws != NULL)
		writers_abort(ws);
	set_description_lines_free(headers, nheaders);
	secret_free(an);
	return status;
}
