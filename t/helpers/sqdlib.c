/* Test helper: lib/squaredeal/sqd_deal.c and lib/squaredeal/sqd_verify.c called as dl-sqd never
 * calls them, for the refusals its own checks keep it from reaching: a
 * phase or session the tournament lacks, sessions backwards, no DV, no
 * key (t/sqd.bats).
 *
 *   sqdlib SQD SQK make PHASE FIRST LAST      the session files, here, PBN
 *   sqdlib SQD SQK verify PHASE SESSION       against a set of no boards
 *   sqdlib SQD SQK boards PHASE SESSION       the session's boards
 *
 * SQK "-" stands for a key file of no keys.  A refusal prints the
 * library's message and exits 1.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "squaredeal/sqd.h"
#include "squaredeal/sqd_deal.h"
#include "squaredeal/sqd_verify.h"
#include "files/writers.h"

static unsigned
number(const char *text)
{
	return (unsigned)strtoul(text, NULL, 10);
}

static int
make(const char *path, const struct sqd *t, const struct sqk *k, char **argv,
    struct dl_error *e)
{
	char *pbn[] = { "pbn" };
	struct format_list formats = { pbn, 1 };
	struct sqd_make_options opt = {
		.formats = &formats, .dir = ".", .publish = PUBLISH_SAME, .report = stdout,
	};
	struct board_range sessions = { number(argv[1]), number(argv[2]) };

	return sqd_make_phase(path, t, k, number(argv[0]), sessions, &opt, e);
}

static int
verify(const struct sqd *t, const struct sqk *k, char **argv, struct dl_error *e)
{
	unsigned p = number(argv[0]), s = number(argv[1]);
	struct board_range r = { 1, 10 };
	struct sqd_verify v;

	if (sqd_verify_played(t, k, p, s, 0, r, NULL, 0, &v, e) == -1)
		return -1;
	printf("%zu same, %zu different, %zu missing, %zu foreign: %s\n",
	    v.count[SQD_SAME], v.count[SQD_DIFFERENT], v.count[SQD_MISSING],
	    v.count[SQD_FOREIGN], v.match == SQD_MATCH_WHOLE ? "matches" :
	    v.match == SQD_MATCH_PART ? "partly matches" : "does not match");
	sqd_verify_free(&v);
	return 0;
}

static int
boards(const struct sqd *t, char **argv, struct dl_error *e)
{
	struct board_range r;

	if (sqd_session_boards(t, number(argv[0]), number(argv[1]), NULL, &r, e) == -1)
		return -1;
	printf("%u-%u\n", r.low, r.high);
	return 0;
}

int
main(int argc, char *argv[])
{
	struct sqd t;
	struct sqk k = { 0 };
	struct dl_error e;
	int status;

	if (argc < 6 || (strcmp(argv[3], "make") == 0 && argc != 7))
		errx(2, "usage: sqdlib SQD SQK make|verify|boards PHASE SESSION [LAST]");
	if (sodium_init() < 0)
		errx(2, "cannot initialise libsodium");
	if (sqd_read(argv[1], &t, &e) == -1 ||
	    (strcmp(argv[2], "-") != 0 && sqk_read(argv[2], &t, &k, &e) == -1))
		errx(2, "%s", e.msg);
	if (strcmp(argv[3], "make") == 0)
		status = make(argv[1], &t, &k, argv + 4, &e);
	else if (strcmp(argv[3], "verify") == 0)
		status = verify(&t, &k, argv + 4, &e);
	else
		status = boards(&t, argv + 4, &e);
	if (status == -1)
		printf("%s\n", e.msg);
	sqk_free(&k);
	sqd_free(&t);
	return status == -1 ? 1 : 0;
}
