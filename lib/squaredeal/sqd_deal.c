/* Dealing a SquareDeal tournament's sessions to files, as the reference
 * names and combines them.  Every session is dealt by Big Deal's
 * generator from the seed sqd_session_seed makes, through deal_boards. */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "session/deal.h"
#include "files/plugins.h"
#include "squaredeal/sqd_deal.h"
#include "base/util.h"

/* The files one run of writers makes: a session's, or a combined file's. */
struct run {
	unsigned phase, first, last;	/* sessions first..last of phase */
	const struct format_list *formats;
	char *prefix;			/* the files are PREFIX.SUFFIX */
	char *generator;		/* for generator tags; NULL: this program */
};

static int
check_phase(const struct sqd *t, unsigned phase, unsigned session, struct dl_error *e)
{
	unsigned n;

	if (phase == 0 || phase > t->nphases)
		return dl_error_set(e, DL_ERR_USAGE, "no phase %u: there %s %zu", phase,
		    t->nphases == 1 ? "is" : "are", t->nphases);
	n = t->phases[phase - 1].nsessions;
	if (session == 0 || (n != 0 && session > n))
		return dl_error_set(e, DL_ERR_USAGE, "no session %u in phase %u", session, phase);
	return 0;
}

int
sqd_session_check(const struct sqd *t, const struct sqk *k, unsigned phase,
    unsigned session, struct dl_error *e)
{
	if (check_phase(t, phase, session, e) == -1)
		return -1;
	if (t->dv == NULL)
		return dl_error_set(e, DL_ERR_INPUT, "the tournament has no delayed value yet");
	/* an open-ended phase has one key, session 0 */
	if (sqk_key(k, phase, t->phases[phase - 1].nsessions == 0 ? 0 : session) == NULL)
		return dl_error_set(e, DL_ERR_INPUT, "no key for session %u,%u", phase, session);
	return 0;
}

int
sqd_session_boards(const struct sqd *t, unsigned phase, unsigned session,
    const char *boards, struct board_range *r, struct dl_error *e)
{
	const char *why;

	if (check_phase(t, phase, session, e) == -1)
		return -1;
	if (sqd_session_range(&t->phases[phase - 1], session, r) == 0)
		return 0;
	if (boards == NULL)
		return dl_error_set(e, DL_ERR_USAGE, "phase %u has its boards chosen when "
		    "dealing: give them with -b", phase);
	if (board_range_parse(boards, r, &why) == -1)
		return dl_error_set(e, DL_ERR_USAGE, "-b %s: %s", boards, why);
	return 0;
}

static char *
output_prefix(const char *sqd_path, const char *dir, const char *name)
{
	char *copy = xstrdup(sqd_path), *prefix;

	prefix = xasprintf("%s/%s", dir != NULL ? dir : dirname(copy), name);
	free(copy);
	return prefix;
}

/* One session's boards (or some of them) into the writers. */
static int
deal_session(const struct sqd *t, const struct sqk *k, unsigned phase, unsigned session,
    int reserve, struct board_range r, struct writers *ws, struct dl_error *e)
{
	struct seed_record *seed = secret_alloc(sizeof *seed);
	int status;

	sqd_session_seed(t, k, phase, session, reserve, seed);
	status = deal_boards(seed, r, ws, NULL, e);
	secret_free(seed);
	return status;
}

/* From the first board of the run's first session to the last of its last. */
static int
run_boards(const struct sqd *t, const struct run *run, const char *boards,
    struct board_range *all, struct dl_error *e)
{
	struct board_range last;

	if (sqd_session_boards(t, run->phase, run->first, boards, all, e) == -1 ||
	    sqd_session_boards(t, run->phase, run->last, boards, &last, e) == -1)
		return -1;
	all->high = last.high;
	return 0;
}

/* The formats of the list that hold board high; SquareDeal leaves out,
 * with a word, a format that cannot hold a phase's boards (DUP beyond 99)
 * and makes the others. */
static int
formats_holding(const struct format_list *formats, unsigned high, const char *prefix,
    struct format_list *kept, struct dl_warnings *warnings, struct dl_error *e)
{
	struct loaded_plugin lp;

	kept->names = xcalloc(formats->n, sizeof *kept->names);
	kept->n = 0;
	for (size_t i = 0; i < formats->n; i++) {
		if (plugin_load(formats->names[i], &lp, e) == -1) {
			format_list_free(kept);
			return -1;
		}
		struct dl_error why;
		if (writer_holds(lp.plugin, high, 0, &why) == -1)
			dl_warn(warnings, "%s: no %s.%s", why.msg, prefix, lp.plugin->suffix);
		else
			kept->names[kept->n++] = xstrdup(formats->names[i]);
		plugin_unload(&lp);
	}
	return 0;
}

/* The writers are opened before the boards are looked for, so that a bad
 * format is named before a missing -b, as it always was. */
static int
write_run(const struct sqd *t, const struct sqk *k, const struct run *run,
    const struct sqd_make_options *opt, struct dl_error *e)
{
	struct writers_options wo = {
		.prefix = run->prefix, .generator = run->generator,
		.publish = opt->publish, .report = opt->report, .force = opt->force,
		.warn = opt->warn,
	};
	struct format_list holding;
	struct writers *ws;
	struct board_range all, r;
	/* a session's own set is recorded, not the files combining sessions */
	int recording = opt->record_begin != NULL && run->first == run->last &&
	    run->generator == NULL;

	if (recording && opt->record_begin(opt->record_arg, t, run->phase, run->first, run->prefix,
	    &wo, e) == -1)
		return -1;
	if (writers_open(&ws, run->formats, &wo, e) == -1) {
		if (recording)
			opt->record_end(opt->record_arg, 0, NULL);
		return -1;
	}
	if (run_boards(t, run, opt->boards, &all, e) == -1)
		goto fail;
	if (formats_holding(run->formats, all.high, run->prefix, &holding, opt->warnings,
	    e) == -1)
		goto fail;
	if (holding.n < run->formats->n) {
		writers_abort(ws);
		ws = NULL;
		if (holding.n > 0 && writers_open(&ws, &holding, &wo, e) == -1) {
			format_list_free(&holding);
			return -1;
		}
	}
	format_list_free(&holding);
	if (ws == NULL) {
		/* no format holds these boards: nothing to make */
		if (recording)
			opt->record_end(opt->record_arg, 0, NULL);
		return 0;
	}
	if (writers_begin(ws, all.low, all.high, NULL, NULL, 0, 0, 0, e) == -1)
		goto fail;
	for (unsigned s = run->first; s <= run->last; s++)
		if (sqd_session_boards(t, run->phase, s, opt->boards, &r, e) == -1 ||
		    deal_session(t, k, run->phase, s, opt->reserve, r, ws, e) == -1)
			goto fail;
	if (recording) {
		recording = 0;
		if (opt->record_end(opt->record_arg, 1, e) == -1)
			goto fail;
	}
	return writers_finish(ws, e);
fail:
	if (recording)
		opt->record_end(opt->record_arg, 0, NULL);
	writers_abort(ws);
	return -1;
}

static int
make_session(const char *sqd_path, const struct sqd *t, const struct sqk *k,
    unsigned phase, unsigned session, const struct sqd_make_options *opt,
    struct dl_error *e)
{
	struct run run = {
		.phase = phase, .first = session, .last = session, .formats = opt->formats,
	};
	char *name;
	int status;

	if (sqd_session_check(t, k, phase, session, e) == -1)
		return -1;
	name = sqd_session_name(&t->phases[phase - 1], session, opt->reserve);
	run.prefix = output_prefix(sqd_path, opt->dir, name);
	status = write_run(t, k, &run, opt, e);
	free(run.prefix);
	free(name);
	return status;
}

/* The formats SquareDeal combines, as the plugins say (DL_JOINABLE):
 * PBN with a fresh header, and the headerless ones by plain
 * concatenation.  -1 when a plugin cannot be loaded. */
static int
combinable_formats(const struct format_list *formats, struct format_list *out,
    struct dl_error *e)
{
	struct loaded_plugin lp;

	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < formats->n; i++) {
		if (plugin_load(formats->names[i], &lp, e) == -1) {
			format_list_free(out);
			return -1;
		}
		if (lp.plugin->needs & DL_JOINABLE) {
			out->names = xreallocarray(out->names, out->n + 1, sizeof *out->names);
			out->names[out->n++] = xstrdup(formats->names[i]);
		}
		plugin_unload(&lp);
	}
	return 0;
}

/* The prefix with the sessions' numbers as a range: rr01-03. */
static char *
combined_name(const struct sqd_phase *ph, unsigned first, unsigned last, int reserve)
{
	char *pattern = sqd_prefix_pattern(ph->prefix, ph->nsessions), *name;
	const char *run = strchr(pattern, '#');
	int width = (int)strspn(run, "#");

	name = xasprintf("%.*s%0*u-%0*u%s%s", (int)(run - pattern), pattern, width, first,
	    width, last, run + width, reserve ? "reserve" : "");
	free(pattern);
	return name;
}

/* The reference's generator tag names the session files combined. */
static char *
combined_generator(const struct sqd_phase *ph, unsigned first, unsigned last, int reserve)
{
	char *generator = xasprintf("%s, combining", DL_VERSION_STRING);

	for (unsigned s = first; s <= last; s++) {
		char *session = sqd_session_name(ph, s, reserve), *longer;
		longer = xasprintf("%s %s.pbn", generator, session);
		free(generator);
		free(session);
		generator = longer;
	}
	return generator;
}

static int
continues(const struct sqd_phase *ph, unsigned s)
{
	struct board_range a, b;

	if (ph->nranges == 0 || sqd_session_range(ph, s, &a) == -1 ||
	    sqd_session_range(ph, s + 1, &b) == -1)
		return 0;
	return b.low == a.high + 1;
}

/* Sessions first..last, which continue each other, in one more file. */
static int
make_combined(const char *sqd_path, const struct sqd *t, const struct sqk *k,
    unsigned phase, unsigned first, unsigned last, const struct sqd_make_options *opt,
    struct dl_error *e)
{
	const struct sqd_phase *ph = &t->phases[phase - 1];
	struct format_list formats;
	struct run run = { .phase = phase, .first = first, .last = last, .formats = &formats };
	char *name;
	int status;

	if (combinable_formats(opt->formats, &formats, e) == -1)
		return -1;
	if (formats.n == 0) {
		format_list_free(&formats);
		return 0;
	}
	name = combined_name(ph, first, last, opt->reserve);
	run.prefix = output_prefix(sqd_path, opt->dir, name);
	run.generator = combined_generator(ph, first, last, opt->reserve);
	status = write_run(t, k, &run, opt, e);
	free(run.generator);
	free(run.prefix);
	free(name);
	format_list_free(&formats);
	return status;
}

static int
check_sessions(const struct sqd *t, const struct sqk *k, unsigned phase,
    struct board_range sessions, struct dl_error *e)
{
	if (sessions.low > sessions.high)
		return dl_error_set(e, DL_ERR_USAGE, "sessions %u-%u run backwards",
		    sessions.low, sessions.high);
	if (sqd_session_check(t, k, phase, sessions.low, e) == -1 ||
	    sqd_session_check(t, k, phase, sessions.high, e) == -1)
		return -1;
	return 0;
}

int
sqd_make_phase(const char *sqd_path, const struct sqd *t, const struct sqk *k,
    unsigned phase, struct board_range sessions, const struct sqd_make_options *opt,
    struct dl_error *e)
{
	const struct sqd_phase *ph;

	if (check_sessions(t, k, phase, sessions, e) == -1)
		return -1;
	ph = &t->phases[phase - 1];
	for (unsigned s = sessions.low; s <= sessions.high; s++)
		if (make_session(sqd_path, t, k, phase, s, opt, e) == -1)
			return -1;
	for (unsigned s = sessions.low; s < sessions.high; s++) {
		unsigned last = s;
		while (last < sessions.high && continues(ph, last))
			last++;
		if (last > s && make_combined(sqd_path, t, k, phase, s, last, opt, e) == -1)
			return -1;
		s = last;
	}
	return 0;
}
