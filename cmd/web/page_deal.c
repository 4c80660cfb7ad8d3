/* POST, the dealing form: every field checked before anything is dealt,
 * the set dealt by lib/session/session.c (as dl-deal deals), recorded in
 * the archive before its files are published, and answered with its hand
 * record and its downloads, or the zip alone. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "archive/deal_archive.h"
#include "files/plugins.h"
#include "files/writers.h"
#include "keys/entropy.h"
#include "keys/generator.h"
#include "keys/seed.h"
#include "session/session.h"
#include "stream/date.h"
#include "stream/description.h"
#include "base/util.h"
#include "owner.h"
#include "tool.h"
#include "page.h"

/* The formats asked for, once each: given once a format, or
 * comma-separated, or both, and the machine's and the scoring program's;
 * -1 when they are refused (errs says why). */
static int
chosen_formats(const struct cgi_form *form, struct format_list *list, struct form_errors *errs)
{
	struct dl_error e;
	char *text = xstrdup("");
	size_t before = errs->n;

	for (size_t i = 0; i < form->n; i++) {
		if (strcmp(form->fields[i].name, deal_fields[F_FORMATS].name) != 0 ||
		    form->fields[i].filename != NULL || form->fields[i].len == 0)
			continue;
		char *more = xasprintf("%s%s%s", text, *text ? "," : "", form->fields[i].value);
		free(text);
		text = more;
	}
	/* the dealing machine's and the scoring program's, as the club
	 * names them */
	const struct club_choice *chosen[2] = {
		choice_sent(form, F_MACHINE, "machine", "not one this page offers", errs),
		choice_sent(form, F_SCORING, "scoring", "not one this page offers", errs),
	};
	for (size_t i = 0; i < 2; i++)
		if (chosen[i] != NULL && chosen[i]->format != NULL) {
			char *more = xasprintf("%s%s%s", text, *text ? "," : "", chosen[i]->format);

			free(text);
			text = more;
		}
	if (errs->n > before) {
		free(text);
		return -1;
	}
	if (*text == '\0') {
		/* the form sent, with nothing chosen: said, not guessed */
		if (cgi_field(form, "form") != NULL) {
			field_error(errs, F_FORMATS, "the formats: none chosen", 0, "no file chosen:"
			    " choose the dealing machine, the scoring program, the hand record to"
			    " print, or a format under \"Every format\"");
			free(text);
			return -1;
		}
		/* a script that names none: PBN and the PDF hand record */
		free(text);
		text = xstrdup("pbn,pdf");
	}
	if (format_list_parse(text, list, &e) == -1) {
		field_error(errs, F_FORMATS, "the formats", 0, "%s", e.msg);
		free(text);
		return -1;
	}
	free(text);
	for (size_t i = 0; i < list->n; i++) {
		struct loaded_plugin lp;

		if (plugin_load(list->names[i], &lp, &e) == -1) {
			field_error(errs, F_FORMATS, "the formats: one not here", 0,
			    "no format %s here", list->names[i]);
			return -1;
		}
		if (lp.plugin->board == NULL && lp.plugin->end == NULL)
			field_error(errs, F_FORMATS, "the formats: one dl reads only", 0,
			    "%s is a format dl reads, not one it writes", list->names[i]);
		plugin_unload(&lp);
		if (errs->n > before)
			return -1;
	}
	return 0;
}

/* How many sets the archive holds of this event: dealing again and again
 * until a set pleases shows. */
static int64_t
sets_of_event(const char *event)
{
	struct archive *a;
	struct dl_error e;
	char *spec;
	int64_t n = 0;

	if (event == NULL || archive_default(&spec, &e) == -1)
		return 0;
	if (archive_open(&a, spec, 0, &e) == 0) {
		archive_count_event(a, event, &n, &e);
		archive_close(a);
	}
	free(spec);
	return n;
}

/* What the page of a set dealt says above its hand record. */
struct dealt_aside {
	const struct cgi_form *form;
	const char *event, *prefix;
	int64_t set_id, dealt;
	const void *zip;
	size_t zip_size;
	const char *seed_name, *seed_text;
	size_t seed_len;
};

static void
put_dealt_aside(void *arg)
{
	const struct dealt_aside *d = arg;
	char *zip_name = xasprintf("%s.zip", d->prefix);

	printf("<p>Recorded as set %lld of the archive of every set dealt here",
	    (long long)d->set_id);
	if (d->event != NULL) {
		printf(": %lld set%s dealt for ", (long long)d->dealt, d->dealt == 1 ? "" : "s");
		put_html(stdout, d->event);
	}
	printf(".</p>\n<p>");
	put_data_link("application/zip", zip_name, d->zip, d->zip_size);
	printf("Download the files (");
	put_html(stdout, zip_name);
	printf(": for the dealing machine, the scoring program and the printer)</a>."
	    " Print this page for the hand record.</p>\n<p>");
	put_data_link("text/plain", d->seed_name, d->seed_text, d->seed_len);
	printf("Download the seed (");
	put_html(stdout, d->seed_name);
	printf(")</a>: <strong>keep it apart, and secret, until the session is"
	    " played.</strong> It makes every board of the set again, for a check"
	    " afterwards; whoever has it before the session knows the hands.</p>\n");
	put_again_link(d->form);
	printf("<form method=\"post\"><input type=\"hidden\" name=\"action\" value=\"played\">"
	    "<input type=\"hidden\" name=\"set\" value=\"%lld\"><button type=\"submit\">"
	    "After the session: mark set %lld played</button></form>\n",
	    (long long)d->set_id, (long long)d->set_id);
	free(zip_name);
}

void
deal(const struct cgi_form *form)
{
	const char *event = deal_value(form, F_EVENT), *site = deal_value(form, F_SITE);
	const char *date = deal_value(form, F_DATE), *session_no = deal_value(form, F_SESSION);
	const char *boards = deal_value(form, F_BOARDS), *entropy = deal_value(form, F_ENTROPY);
	const char *prefix = deal_value(form, F_PREFIX), *dd = deal_value(form, F_DD);
	const char *download = text_field(form, "download");
	struct form_errors errs = { .table = &deal_form };
	struct format_list list = { 0 };
	struct board_range r;
	struct dl_error e;
	const char *why;
	char *full_event = NULL, date_pbn[DATE_PBN_SIZE];

	/* every field read and checked, each refusal its field's */
	if (prefix != NULL && !prefix_is_valid(prefix))
		field_error(&errs, F_PREFIX, "the file name (prefix)", 1, "letters, digits, '.',"
		    " '_' and '-' only, at most %d, not beginning with '.' or '-'", PREFIX_MAX);
	if (session_no != NULL) {
		const char *errstr;
		long long n = strtonum(session_no, 1, 9999, &errstr);

		if (errstr != NULL)
			field_error(&errs, F_SESSION, "the session", 1, "a number from 1 to 9999");
		else {
			full_event = event != NULL ? xasprintf("%s, session %lld", event, n) :
			    xasprintf("Session %lld", n);
			event = full_event;
		}
	}
	if (event != NULL && event_text_check(event, &e) == -1)
		field_error(&errs, F_EVENT, "the event", 1, "%s", e.msg);
	if (site != NULL && event_text_check(site, &e) == -1)
		field_error(&errs, F_SITE, "the site", 1, "%s", e.msg);
	if (date != NULL) {
		if (date_typed_to_pbn(date, date_pbn, &e) == -1) {
			field_error(&errs, F_DATE, "the date", 1, "%s", e.msg);
			date = NULL;
		} else
			date = date_pbn;
	}
	int boards_ok = 0;
	if (board_range_parse_typed(boards != NULL ? boards : "1-32", &r, &why) == -1)
		field_error(&errs, F_BOARDS, "the boards", 1, "%s; at most %d boards", why,
		    BOARDS_MAX);
	else if (r.high - r.low + 1 > BOARDS_MAX)
		field_error(&errs, F_BOARDS, "the boards: more than a session", 0,
		    "%u boards: at most %d a request (a session)", r.high - r.low + 1, BOARDS_MAX);
	else
		boards_ok = 1;
	const struct club_choice *paper = choice_sent(form, F_PAPER, "the paper", "a4 or letter",
	    &errs);
	const struct club_choice *per_page = choice_sent(form, F_PER_PAGE, "the boards a page",
	    "6, 4 or 1", &errs);
	struct format_list all = { 0 };
	if (chosen_formats(form, &list, &errs) == 0) {
		for (size_t i = 0; i < list.n; i++)
			add_format(&all, list.names[i]);
		/* the page is the html hand record; a zip alone needs none */
		if (download == NULL || strcmp(download, "zip") != 0)
			add_format(&all, "html");
		/* a format that cannot hold the boards refuses them before
		 * anything is dealt or recorded */
		for (size_t i = 0; i < all.n && boards_ok; i++) {
			struct loaded_plugin lp;

			if (plugin_load(all.names[i], &lp, &e) == -1)
				field_error(&errs, F_FORMATS, "the formats: one not here", 0, "%s",
				    e.msg);
			else {
				if (writer_holds(lp.plugin, r.high, 0, &e) == -1)
					field_error(&errs, F_BOARDS, "the boards: more than a format"
					    " holds", 0, "%s", e.msg);
				plugin_unload(&lp);
			}
		}
	}
	if (errs.n > 0)
		refuse_fields(400, "Bad Request", form, &errs, NULL);
	/* a second press of the form waits for the first, and gets its
	 * answer (once.c); the first goes on from here whoever waits */
	once_begin(form);

	/* no name given: the event's and the date's */
	char derived_prefix[PREFIX_MAX + 1];
	if (prefix == NULL) {
		file_name_of_event(event, date, derived_prefix);
		prefix = derived_prefix;
	}
	setenv("PAPERSIZE", paper != NULL ? paper->value : "a4", 1);
	setenv("DL_PER_PAGE", per_page != NULL ? per_page->value : "6", 1);
	int analysis = dd != NULL && strcmp(dd, "on") == 0;
	if (analysis && !take_analysis_slot()) {
		/* the form again, as it was sent, to press again or to deal
		 * without the analysis */
		field_error(&errs, F_DD, "every core is analysing another session: try again in half"
		    " a minute, or deal without the analysis", 0, "every core is analysing another"
		    " session: try again in half a minute, or deal without the analysis");
		refuse_fields(503, "Service Unavailable", form, &errs, "Nothing was dealt yet: the"
		    " server is busy");
	}

	int zip_alone = download != NULL && strcmp(download, "zip") == 0;
	int streamed = analysis && !zip_alone;
	struct progress_page progress = { r.low, 0 };

	make_workdir();
	char *base = work_file(prefix);
	/* every file the writers publish, and the seed and the zip */
	char *paths[66];
	const char *names[66];
	size_t nfiles = 0;
	int html_asked = 0;
	for (size_t i = 0; i < list.n; i++)
		html_asked |= strcmp(list.names[i], "html") == 0;
	for (size_t i = 0; i < all.n && nfiles < 64; i++) {
		char *name;
		char *path = format_work_file(all.names[i], prefix, &name);

		/* the html is the page, and the zip's only when asked for */
		if (strcmp(all.names[i], "html") == 0 && !html_asked) {
			free(path);
			free(name);
			continue;
		}
		paths[nfiles] = path;
		names[nfiles++] = name;
	}

	struct session s = {
		.formats = &all, .event = event, .site = site, .date = date, .boards = r,
		.analysis = analysis, .analyser = &session_dl_dd, .record = 1, .where = "dl-web", .keep_seed = 1,
	};
	s.wo.prefix = base;
	s.wo.publish = PUBLISH_NEW;
	s.wo.threads = 1;
	/* zipped and removed before the answer: no fsync forces the deals
	 * onto a disk (docs/web.md: TMPDIR best in memory all the same) */
	s.wo.scratch = 1;
	s.source.os = 1;
	s.source.no_history = 1;	/* each request is a process of its own */
	/* where its hand record is published after play, printed on it and
	 * on the table cards as a QR code (#U:) */
	char token[RECORD_TOKEN_SIZE];
	record_token_new(token);
	/* its folder sound before anything is dealt */
	free(published_folder());
	char *address = record_address(token);
	if (address != NULL && record_url_check(address, &e) == -1) {
		tool_warn("the page's public address (DL_WEB_PUBLIC_URL, or the request's): %s",
		    e.msg);
		refuse(500, "Internal Server Error", "the page's public address (DL_WEB_PUBLIC_URL)"
		    " is not one a hand record can print: the server's administrator must set it"
		    " (docs/web.md)");
	}
	s.record_url = address;
	if (streamed) {
		stream_top(event != NULL ? event : "Hand record", "Dealing and solving",
		    (unsigned long)r.high - r.low + 1);
		s.solved = put_solved;
		s.solved_arg = &progress;
	}
	unsigned char owner[20] = { 0 };
	/* this set among those of its event: the ones before, and itself.
	 * The archive adds the set only if that is still so when it does
	 * (another request for the event may come in between): else the set,
	 * which nobody has seen, is dealt again, with the archive locked from
	 * the count to the commit, when no other can come in between. */
	int64_t dealt = 0;
	for (int tries = 1;; tries++) {
		s.count_locked = tries > 1 && event != NULL;
		if (entropy != NULL) {
			/* the director's text, Big Deal's way, beside the OS's
			 * (seed_make takes the pool) */
			s.source.generator = &generator_bigdeal;
			s.source.entropy = entropy_new();
			entropy_add_string(s.source.entropy, entropy);
		} else
			s.source.generator = &generator_dl256;
		if (s.source.generator->owner_bytes != 0) {
			owner_from_identification(NULL, owner);
			s.owner = owner;
		}
		s.sets_of_event = event != NULL && !s.count_locked ? sets_of_event(event) + 1 : 0;
		if (session_deal(&s, &e) == 0) {
			dealt = s.sets_of_event;
			if (address != NULL)
				record_token_keep(token, s.set_id);
			break;
		}
		if (e.kind == DL_ERR_CHECK && event != NULL && tries == 1) {
			if (streamed) {
				printf("<p>Dealt again: another set of the event was recorded"
				    " meanwhile.</p>\n");
				fflush(stdout);
				progress.shown = 0;
			}
			continue;
		}
		/* what the request asked that cannot be (a format that holds
		 * fewer boards) is the request's fault; anything else the
		 * server's.  Once the page streams, every field was taken
		 * (writer_holds among them): a writer that fails then is the
		 * server's */
		refuse_at(!streamed && (e.kind == DL_ERR_INPUT || e.kind == DL_ERR_USAGE) ? 400 : 500,
		    "dealing the set", &e);
	}

	once_dealt(s.set_id);
	if (streamed)
		stream_done("Done: the hand record follows.", 1);

	/* The seed, which regenerates the set.  The page gives it as its own
	 * download, apart from the zip a volunteer copies whole onto the
	 * dealing machine's stick (FAT keeps no permissions); a zip asked for
	 * alone (download=zip, a script's) holds it, the one answer there
	 * is. */
	char *seed_name = xasprintf("%s.seed", prefix);
	char *seed_text = NULL;
	size_t seed_len = 0;
	FILE *fp = open_memstream(&seed_text, &seed_len);
	if (fp == NULL)
		refuse(500, "Internal Server Error", "the seed could not be written");
	seed_stream_write_url(fp, s.seed, event, site, date, address, s.bits, 0);
	if (fclose(fp) != 0)
		refuse(500, "Internal Server Error", "the seed could not be written");
	secret_free(s.seed);
	if (zip_alone) {
		char *seed_path = work_file(seed_name);
		int fd = open(seed_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		if (fd == -1 || write(fd, seed_text, seed_len) != (ssize_t)seed_len || close(fd) != 0)
			refuse(500, "Internal Server Error", "the seed could not be written");
		paths[nfiles] = seed_path;
		names[nfiles++] = xstrdup(seed_name);
	}

	size_t zip_size;
	void *zip = zip_files(paths, names, nfiles, &zip_size);

	if (zip_alone) {
		char *disposition = xasprintf("Content-Disposition: attachment; filename=\"%s.zip\"\r\n"
		    "Content-Length: %zu\r\n", prefix, zip_size);
		head(200, "OK", "application/zip", disposition);
		free(disposition);
		fwrite(zip, 1, zip_size, stdout);
	} else {
		/* the hand record as the page, with what the director needs
		 * above it (not printed) */
		struct dealt_aside d = {
			.form = form, .event = event, .prefix = prefix, .set_id = s.set_id,
			.dealt = dealt, .zip = zip, .zip_size = zip_size, .seed_name = seed_name,
			.seed_text = seed_text, .seed_len = seed_len,
		};
		char *html_path = xasprintf("%s.html", base);

		put_hand_record_page(html_path, "This set", put_dealt_aside, &d, streamed);
		free(html_path);
	}
	sodium_memzero(zip, zip_size);
	free(zip);
	sodium_memzero(seed_text, seed_len);
	free(seed_text);
	free(seed_name);
	for (size_t i = 0; i < nfiles; i++) {
		free(paths[i]);
		free((char *)names[i]);
	}
	free(base);
	free(address);
	format_list_free(&list);
	format_list_free(&all);
	free(full_event);
	/* the response whole: kept for a press again */
	once_end();
}
