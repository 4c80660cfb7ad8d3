/* dl-deal: one safe command for a session: a fresh seed from the OS, Big
 * Deal's stream and mapping, and the formats, in one process; with the
 * hand records (html, pdf) the double-dummy analysis too, as dl-dd makes
 * it (lib/deals/solve.c). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "files/bigdealrc.h"
#include "keys/entropy.h"
#include "stream/date.h"
#include "stream/proto.h"
#include "session/session.h"
#include "keys/seed.h"
#include "owner.h"
#include "layout.h"
#include "tool.h"
#include "base/util.h"
#include "files/writers.h"

#define DEFAULT_BOARDS "32"
#define SAFE_BOARDS 100		/* as the reference's safe bigdeal */
#define DEFAULT_FORMAT "pbn"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-deal [--analysis | --no-analysis] [--archive archive | --no-archive]\n"
	    "               [--shared archive] [--crlf] [--many] [-f formats] [-g generator]\n"
	    "               [-i event] [--site site] [--date date] [--record-url url]\n"
	    "               [-n boards] [-p prefix] [--paper a4 | letter]\n"
	    "               [--per-page 6 | 4 | 1]\n");
	exit(status);
}

static void
show_progress(unsigned long done, unsigned long total)
{
	fprintf(stderr, "\rdl-deal: %lu of %lu boards", done, total);
	if (done == total)
		fputc('\n', stderr);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "analysis", no_argument, NULL, 'a' },
		{ "no-analysis", no_argument, NULL, 'A' },
		{ "archive", required_argument, NULL, 'r' },
		{ "no-archive", no_argument, NULL, 'R' },
		{ "shared", required_argument, NULL, 'S' },
		{ "crlf", no_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "generator", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ "event", required_argument, NULL, 'i' },
		{ "site", required_argument, NULL, 's' },
		{ "date", required_argument, NULL, 'd' },
		{ "record-url", required_argument, NULL, 'u' },
		{ "many", no_argument, NULL, 'm' },
		{ "paper", required_argument, NULL, 'P' },
		{ "per-page", required_argument, NULL, 'G' },
		{ "prefix", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	const char *boards = DEFAULT_BOARDS, *formats = NULL, *event = NULL, *why;
	/* where and when the session is played, for the hand record's head
	 * and PBN's [Site] and [Date]; the date as typed, then as PBN's */
	const char *site = NULL, *date = NULL;
	/* where the hand record is published after play: its QR code */
	const char *record_url = NULL;
	char date_pbn[DATE_PBN_SIZE];
	struct writers_options wo = { .publish = PUBLISH_NEW, .warn = tool_print_warning };
	struct seed_source source = { .generator = &generator_dl256, .os = 1 };
	struct format_list list;
	struct bigdealrc rc;
	struct board_range r;
	unsigned char owner[20];
	struct dl_error e;
	/* -1: as the formats say */
	int many = 0, analysis = -1, ch;
	/* the archive the set is recorded in: NULL, the default */
	const char *archive = NULL;
	/* the federation's, checked before the set is published: NULL, DL_SHARED_ARCHIVE's */
	const char *shared = NULL;
	int record = 1;

	tool_start();
	/* --archive and --shared may hold a PostgreSQL password: out of
	 * /proc/PID/cmdline */
	tool_sodium_init();
	tool_hide_secret_arguments(argc, argv, "f:g:hi:n:p:", longopts, "rS");
	opterr = 0;	/* tool_bad_option says what is wrong */
	while ((ch = getopt_long(argc, argv, "f:g:hi:n:p:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a': analysis = 1; break;
		case 'A': analysis = 0; break;
		case 'r': archive = optarg; record = 1; break;
		case 'R': archive = NULL; record = 0; break;
		case 'S': shared = optarg; break;
		case 'c': wo.crlf = 1; break;
		case 'f': formats = optarg; break;
		case 'g':
			source.generator = generator_find(optarg);
			/* the others' keys are not fresh seeds: given with --hex */
			if (source.generator == NULL ||
			    source.generator->fresh_keys == FRESH_NONE)
				tool_fail(DL_ERR_USAGE, "-g %s: dl-deal makes fresh seeds of "
				    "%s", optarg, generator_fresh_names());
			break;
		case 'h': usage(stdout, 0);
		case 'i': event = optarg; break;
		case 's': site = optarg; break;
		case 'd': date = optarg; break;
		case 'u': record_url = optarg; break;
		case 'm': many = 1; break;
		case 'n': boards = optarg; break;
		case 'p': wo.prefix = optarg; break;
		case 'P': layout_paper(optarg); break;
		case 'G': layout_per_page(optarg); break;
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	if (board_range_parse(boards, &r, &why) == -1)
		tool_fail(DL_ERR_USAGE, "-n %s: %s", boards, why);
	if (!many && r.high - r.low + 1 > SAFE_BOARDS)
		tool_fail(DL_ERR_USAGE, "%u boards: at most %d without --many",
		    r.high - r.low + 1, SAFE_BOARDS);
	if (event != NULL && event_text_check(event, &e) == -1) {
		dl_error_prefix(&e, "--event");
		tool_die(&e);
	}
	if (site != NULL && event_text_check(site, &e) == -1) {
		dl_error_prefix(&e, "--site");
		tool_die(&e);
	}
	if (record_url != NULL && record_url_check(record_url, &e) == -1) {
		dl_error_prefix(&e, "--record-url");
		tool_die(&e);
	}
	/* typed by a director: the forms dl-web's form takes, not only PBN's */
	if (date != NULL) {
		if (date_typed_to_pbn(date, date_pbn, &e) == -1) {
			dl_error_prefix(&e, "--date");
			tool_die(&e);
		}
		date = date_pbn;
	}
	tool_sodium_init();
	if (bigdealrc_read(BIGDEALRC, &rc, &e) == -1)
		tool_die(&e);
	tool_print_warnings(&rc.warnings);
	if (formats == NULL)
		formats = rc.formats && *rc.formats ? rc.formats : DEFAULT_FORMAT;

	if (format_list_parse(formats, &list, &e) == -1)
		tool_die(&e);
	/* hand records are analysed, but not a run of --many boards unless
	 * asked: DDS solves a few boards a second */
	if (analysis == -1) {
		analysis = session_wants_analysis(&list) && !many;
		if (many && session_wants_analysis(&list))
			tool_warn("--many: the hand records go without the analysis "
			    "(--analysis solves every board)");
	}
	if (source.generator->owner_bytes != 0)	/* Big Deal's owner, from .bigdealrc */
		owner_from_bigdealrc(&rc, 0, owner);
	struct session s = {
		.formats = &list, .wo = wo, .event = event, .site = site, .date = date,
		.record_url = record_url,
		.boards = r, .analysis = analysis,
		.analyser = &session_dds, .show_analysis = isatty(STDERR_FILENO), .source = source,
		.owner = source.generator->owner_bytes != 0 ? owner : NULL,
		.progress = wo.prefix != NULL && isatty(STDERR_FILENO) &&
		    r.high - r.low >= 10000 ? show_progress : NULL,
		/* every set dealt goes into the archive; a run of --many boards
		 * (a simulation, not a session) only when one is named */
		.record = record && (!many || archive != NULL), .archive = archive,
		.shared = shared,
	};
	char *where = wo.prefix != NULL ? xasprintf("dl-deal -p %s", wo.prefix) :
	    xstrdup("dl-deal");

	s.where = where;
	setup_stdout();
	if (session_deal(&s, &e) == -1)
		tool_die(&e);
	free(where);
	format_list_free(&list);
	bigdealrc_free(&rc);
	xfclose(stdout, "standard output");
	return 0;
}
