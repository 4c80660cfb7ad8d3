/* A set dealt, recorded in the archive (recording.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "archive/deal_archive.h"
#include "session/recording.h"
#include "stream/description.h"
#include "base/util.h"

struct recording {
	struct archive *archive;
	struct archive_add *add;
	char *source;
};

static int
tap_board(void *arg, unsigned board, const unsigned char owner[CARDS], struct dl_error *e)
{
	struct recording *r = arg;

	/* a dealing tool's boards have their numbers' dealers and
	 * vulnerabilities */
	return archive_add_board(r->add, board, owner, -1, -1, e);
}

struct recording *
recording_start(const char *spec, const char *source, struct writers_options *wo,
    struct dl_error *e)
{
	struct recording *r = xcalloc(1, sizeof *r);
	char *name = NULL;

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
	free(r);
	return NULL;
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
	rc = archive_add_commit(r->add, &set, &existing, e);
	r->add = NULL;
	*id = set.id;
	archive_set_clear(&set);
	archive_close(r->archive);
	free(r);
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
	free(r);
}
