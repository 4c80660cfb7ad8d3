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

int
session_wants_analysis(const struct format_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		if (strcmp(list->names[i], "html") == 0 || strcmp(list->names[i], "pdf") == 0)
			return 1;
	return 0;
}

/* The header lines a pipeline would carry, for writers that keep them;
 * with the analysis, dl-dd's #A:. */
static size_t
make_headers(char *headers[SET_DESCRIPTION_LINES], const struct session *s,
    const struct seed_record *seed)
{
	char when[32], generator[128], solver[64];
	time_t now = time(NULL);
	struct tm tm;
	struct set_description d = {
		.version = DL_VERSION_STRING, .time = when, .event = s->event, .site = s->site,
		.date = s->date, .place = s->sets_of_event, .generator = generator,
		.boards = s->boards, .mapping = seed->generator->mapping,
	};

	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	generator_header(seed, generator, sizeof generator);
	if (s->analysis) {
		s->analyser->name(s->analyser->ctx, solver, sizeof solver);
		d.solver = solver;
	}
	return set_description_lines(&d, headers);
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
	nheaders = make_headers(headers, s, seed);
	if (s->analysis) {
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
