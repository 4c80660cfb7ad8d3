/* dl-deal: one safe command for a session: a fresh seed from the OS, Big
 * Deal's stream and mapping, and the formats, in one process. */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "bigdealrc.h"
#include "deal.h"
#include "entropy.h"
#include "history.h"
#include "proto.h"
#include "util.h"
#include "writers.h"

#define DEFAULT_BOARDS "32"
#define SAFE_BOARDS 100		/* as the reference's safe bigdeal */
#define DEFAULT_FORMAT "pbn"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-deal [--crlf] [--many] [-f formats] [-g generator] [-i event]\n"
	    "               [-n boards] [-p prefix]\n");
	exit(status);
}

static void
show_progress(unsigned long done, unsigned long total)
{
	fprintf(stderr, "\rdl-deal: %lu of %lu boards", done, total);
	if (done == total)
		fputc('\n', stderr);
}

/* The header lines a pipeline would carry, for writers that keep them. */
static size_t
make_headers(char *headers[6], const char *event, struct board_range r,
    enum generator g)
{
	char when[32];
	time_t now = time(NULL);
	size_t n = 0;

	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (asprintf(&headers[n++], "#V: %s", DL_VERSION_STRING) == -1 ||
	    asprintf(&headers[n++], "#T: %s", when) == -1 ||
	    (event != NULL && asprintf(&headers[n++], "#I: %s", event) == -1) ||
	    asprintf(&headers[n++], g == GENERATOR_DL256 ? "#G: dl256 event 0 session 0" :
	    "#G: bigdeal") == -1 ||
	    asprintf(&headers[n++], "#B: %u-%u", r.low, r.high) == -1 ||
	    asprintf(&headers[n++], "#M: bigdeal") == -1)
		err(2, "asprintf");
	return n;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "crlf", no_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "generator", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ "event", required_argument, NULL, 'i' },
		{ "many", no_argument, NULL, 'm' },
		{ "prefix", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	const char *boards = DEFAULT_BOARDS, *formats = NULL, *event = NULL, *why;
	struct writers_options wo = { .publish = PUBLISH_NEW };
	struct bigdealrc rc = { 0 };
	struct board_range r;
	enum generator generator = GENERATOR_DL256;
	int many = 0, ch;

	while ((ch = getopt_long(argc, argv, "f:g:hi:n:p:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c': wo.crlf = 1; break;
		case 'f': formats = optarg; break;
		case 'g':
			if (generator_from_name(optarg, &generator) == -1)
				errx(2, "unknown generator \"%s\" (known: bigdeal, dl256)", optarg);
			break;
		case 'h': usage(stdout, 0);
		case 'i': event = optarg; break;
		case 'm': many = 1; break;
		case 'n': boards = optarg; break;
		case 'p': wo.prefix = optarg; break;
		default: usage(stderr, 2);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	if (board_range_parse(boards, &r, &why) == -1)
		errx(2, "-n %s: %s", boards, why);
	if (!many && r.high - r.low + 1 > SAFE_BOARDS)
		errx(2, "%u boards: at most %d without --many", r.high - r.low + 1, SAFE_BOARDS);
	if (event != NULL && !header_value_is_valid(event))
		errx(2, "--event: not one line of valid UTF-8 text");
	if (sodium_init() < 0)
		errx(2, "cannot initialise libsodium");
	bigdealrc_read(BIGDEALRC, &rc);
	if (formats == NULL)
		formats = rc.formats && *rc.formats ? rc.formats : DEFAULT_FORMAT;

	struct writers *ws = writers_open(formats, &wo);
	struct seed_record *seed = secret_alloc(sizeof *seed);
	seed->generator = generator;
	if (generator == GENERATOR_DL256)
		randombytes_buf(seed->key, DL256_KEY_BYTES);
	else {
		struct entropy *e = entropy_new();
		entropy_add_os(e);
		entropy_finish(e, seed->random);
		entropy_free(e);
		ripemd160(rc.owner ? rc.owner : "", rc.owner ? strlen(rc.owner) : 0,
		    seed->owner);
	}
	history_check_and_record(seed);

	char *headers[6];
	size_t nheaders = make_headers(headers, event, r, generator);
	setup_stdout();
	writers_begin(ws, r.low, r.high, event, headers, nheaders);
	deal_boards(seed, r, ws, wo.prefix != NULL && isatty(STDERR_FILENO) &&
	    r.high - r.low >= 10000 ? show_progress : NULL);
	secret_free(seed);
	writers_finish(ws);
	for (size_t i = 0; i < nheaders; i++)
		free(headers[i]);
	bigdealrc_free(&rc);
	xfclose(stdout, "standard output");
	return 0;
}
