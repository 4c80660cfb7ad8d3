/* dl-seed: make the seed record that starts a dealing pipeline. */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "bigdeal.h"
#include "bigdealrc.h"
#include "proto.h"
#include "ripemd160.h"
#include "util.h"

#define BITS_NEEDED 160		/* the size of Big Deal's secret */
#define OS_BYTES 40		/* what Big Deal reads from the OS, credited 8 bits each */
#define BITS_PER_GIVEN_BYTE 4

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp,
	    "usage: dl-seed [-fo] [-e string]... [-i event] [-w owner] [-x hex40]\n"
	    "               [--not-for-play]\n");
	exit(status);
}

struct seed {
	unsigned char random[BIGDEAL_SECRET];
	unsigned char owner[BIGDEAL_SECRET];
	struct ripemd160 pool;	/* the entropy collected so far */
};

static void
collect(struct seed *seed, const void *bytes, size_t len)
{
	ripemd160_update(&seed->pool, bytes, len);
}

static void
write_seed(const struct seed *seed, const char *event, unsigned long bits, int weak)
{
	char random_hex[2 * BIGDEAL_SECRET + 1], owner_hex[2 * BIGDEAL_SECRET + 1];
	char when[32];
	time_t now = time(NULL);

	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	stream_write_headers(stdout, STREAM_SEED, NULL, "");
	printf("#V: %s\n#T: %s\n", DL_VERSION_STRING, when);
	if (event != NULL)
		printf("#I: %s\n", event);
	if (weak)
		printf("#W: not for play: the seed has only %lu bits of entropy\n", bits);
	sodium_bin2hex(random_hex, sizeof random_hex, seed->random, BIGDEAL_SECRET);
	sodium_bin2hex(owner_hex, sizeof owner_hex, seed->owner, BIGDEAL_SECRET);
	printf("bigdeal %s %s\n", random_hex, owner_hex);
	sodium_memzero(random_hex, sizeof random_hex);
	xfflush(stdout, "standard output");
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "entropy", required_argument, NULL, 'e' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "event", required_argument, NULL, 'i' },
		{ "only-given", no_argument, NULL, 'o' },
		{ "owner", required_argument, NULL, 'w' },
		{ "hex", required_argument, NULL, 'x' },
		{ "not-for-play", no_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 },
	};
	const char *event = NULL, *owner = NULL;
	struct bigdealrc rc = { 0 };
	int force = 0, only_given = 0, given_hex = 0, not_for_play = 0, ch;
	unsigned long bits = 0;
	struct seed *seed;

	if (sodium_init() < 0)
		errx(2, "cannot initialise libsodium");
	seed = secret_alloc(sizeof *seed);
	ripemd160_init(&seed->pool);
	while ((ch = getopt_long(argc, argv, "e:fhi:ow:x:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'e':
			collect(seed, optarg, strlen(optarg));
			bits += BITS_PER_GIVEN_BYTE * strlen(optarg);
			scrub_argument(optarg);
			break;
		case 'f':
			force = 1;
			break;
		case 'h':
			usage(stdout, 0);
		case 'i':
			event = optarg;
			break;
		case 'o':
			only_given = 1;
			break;
		case 'w':
			owner = optarg;
			break;
		case 'x':
			if (hex_to_bytes(optarg, seed->random, BIGDEAL_SECRET) == -1)
				errx(2, "--hex: not 40 hex digits");
			scrub_argument(optarg);
			given_hex = 1;
			break;
		case 'N':
			not_for_play = 1;
			break;
		default:
			usage(stderr, 2);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	if (event != NULL && !header_value_is_valid(event))
		errx(2, "--event: not one line of valid UTF-8 text");
	if (given_hex && (bits > 0 || only_given))
		errx(2, "--hex gives the secret itself: it takes no --entropy or --only-given");
	if (!force && isatty(STDOUT_FILENO))
		errx(2, "refusing to write a secret seed to a terminal (use --force)");

	if (owner == NULL && bigdealrc_read(BIGDEALRC, &rc) == 0 && rc.owner != NULL)
		owner = rc.owner;
	ripemd160(owner ? owner : "", owner ? strlen(owner) : 0, seed->owner);

	if (!given_hex) {
		if (!only_given) {
			unsigned char os[OS_BYTES];
			randombytes_buf(os, sizeof os);
			collect(seed, os, sizeof os);
			sodium_memzero(os, sizeof os);
			bits += 8 * OS_BYTES;
		}
		if (bits < BITS_NEEDED && !not_for_play)
			errx(1, "only %lu bits of entropy, %d needed: give more --entropy "
			    "(4 bits a character) or drop --only-given", bits, BITS_NEEDED);
		ripemd160_final(&seed->pool, seed->random);
	}
	setup_stdout();
	write_seed(seed, event, bits, !given_hex && bits < BITS_NEEDED);
	secret_free(seed);
	bigdealrc_free(&rc);
	xfclose(stdout, "standard output");
	wipe_stdout_buffer();
	return 0;
}
