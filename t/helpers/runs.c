/* Test helper: the KG-style sample for dl-stat, RUNS runs of BOARDS boards
 * (Shufflix and the Danish KG used 4000 x 40), each run from its own fixed
 * seed, as one deals stream numbered 1 to RUNS x BOARDS.  It uses the
 * library the tools use; t/stat.bats checks runs against the real commands.
 *
 *   runs bigdeal|dl256 RUNS BOARDS     the deals stream
 *   runs bigdeal|dl256 seed RUN        run RUN's seed stream (RUN from 1)
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "keys/bigdeal.h"
#include "session/deal.h"
#include "keys/dl256.h"
#include "keys/seed.h"
#include "deals/dealnum.h"
#include "stream/tso.h"
#include "base/util.h"

static void
fill_from_label(unsigned char *out, size_t len, const char *label, unsigned run)
{
	unsigned char hash[crypto_hash_sha256_BYTES];
	char text[64];

	snprintf(text, sizeof text, "dl-stat battery: %s %u", label, run);
	crypto_hash_sha256(hash, (const unsigned char *)text, strlen(text));
	memcpy(out, hash, len);
}

/* bigdeal: a secret of its own each run; dl256: one key, session = run */
static void
seed_of_run(struct seed_record *seed, const struct generator *g, unsigned run)
{
	memset(seed, 0, sizeof *seed);
	seed->generator = g;
	if (g == &generator_bigdeal) {
		fill_from_label(seed->key, BIGDEAL_SECRET, "random", run);
		fill_from_label(seed->owner, BIGDEAL_SECRET, "owner", 0);
	} else {
		fill_from_label(seed->key, DL256_KEY_BYTES, "key", 0);
		seed->session = run;
	}
}

static void
print_seed(const struct seed_record *seed)
{
	char record[SEED_RECORD_MAX];

	printf("#P: dl/1 seed\n");
	seed_record_format(seed, record);
	fputs(record, stdout);
}

int
main(int argc, char *argv[])
{
	struct seed_record seed;
	const struct generator *g;
	const char *why;
	unsigned long runs, boards, n = 0;

	if (argc != 4 || ((g = generator_find(argv[1])) != &generator_bigdeal &&
	    g != &generator_dl256))
		errx(2, "usage: runs bigdeal|dl256 RUNS BOARDS | runs bigdeal|dl256 seed RUN");
	if (sodium_init() < 0)
		errx(2, "cannot initialise libsodium");
	if (strcmp(argv[2], "seed") == 0) {
		seed_of_run(&seed, g, (unsigned)strtonum(argv[3], 1, 100000000, &why));
		if (why != NULL)
			errx(2, "run %s: %s", argv[3], why);
		print_seed(&seed);
		return 0;
	}
	runs = (unsigned long)strtonum(argv[2], 1, 100000000, &why);
	if (why == NULL)
		boards = (unsigned long)strtonum(argv[3], 1, 100000000, &why);
	if (why != NULL)
		errx(2, "runs and boards: %s", why);
	printf("#P: dl/1 deals\n#B: 1-%lu\n#M: bigdeal\n", runs * boards);
	for (unsigned long r = 1; r <= runs; r++) {
		struct number_source ns;
		unsigned char owner[CARDS];
		char tso[TSO_DIGITS + 1] = "";
		seed_of_run(&seed, g, (unsigned)r);
		number_source_init(&ns, &seed, (unsigned)boards);
		for (unsigned long b = 1; b <= boards; b++) {
			deal_from_number(number_source_board(&ns, (unsigned)b), owner);
			deal_to_tso(owner, tso);
			printf("%lu %s\n", ++n, tso);
		}
		number_source_free(&ns);
	}
	return 0;
}
