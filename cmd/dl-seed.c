/* dl-seed: make the seed record that starts a dealing pipeline. */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "bigdealrc.h"
#include "entropy.h"
#include "history.h"
#include "lines.h"
#include "outfile.h"
#include "proto.h"
#include "seed.h"
#include "util.h"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp,
	    "usage: dl-seed [-fko] [-e string]... [-E file]... [-g generator] [-i event]\n"
	    "               [-w owner] [-x hex | -X file] [-c file] [--no-history]\n"
	    "               [--not-for-play]\n"
	    "       dl-seed -V commitment [-f]\n");
	exit(status);
}

static struct {
	const char *event, *owner, *commit, *verify, *hex_file, *generator;
	int force, only_given, keyboard, given_hex, given_entropy, not_for_play, no_history;
} opt;

/* 40 hex digits are Big Deal's random, 64 a dl256 key. */
static void
set_hex(const char *hex, struct seed_record *seed, const char *from)
{
	if (hex_to_bytes(hex, seed->random, BIGDEAL_SECRET) == 0)
		seed->generator = GENERATOR_BIGDEAL;
	else if (hex_to_bytes(hex, seed->key, DL256_KEY_BYTES) == 0)
		seed->generator = GENERATOR_DL256;
	else
		errx(2, "%s: not 40 hex digits (bigdeal) or 64 (dl256)", from);
}

/* The commitment to a seed and its event: SHA-256 of these lines, so that
 * anyone can recompute it with sha256sum (docs/commitments.md). */
static void
commitment(const char *event, const struct seed_record *seed, char hex[65])
{
	crypto_hash_sha256_state sha;
	unsigned char digest[crypto_hash_sha256_BYTES];
	char record[2 * 2 * BIGDEAL_SECRET + 16];

	seed_record_format(seed, record);
	crypto_hash_sha256_init(&sha);
	crypto_hash_sha256_update(&sha, (const unsigned char *)"dl commitment 1\n", 16);
	crypto_hash_sha256_update(&sha, (const unsigned char *)(event ? event : ""),
	    event ? strlen(event) : 0);
	crypto_hash_sha256_update(&sha, (const unsigned char *)"\n", 1);
	crypto_hash_sha256_update(&sha, (const unsigned char *)record, strlen(record));
	crypto_hash_sha256_final(&sha, digest);
	sodium_memzero(record, sizeof record);
	sodium_bin2hex(hex, 65, digest, sizeof digest);
}

static void
write_seed(FILE *fp, const struct seed_record *seed, unsigned long bits, int weak)
{
	char record[2 * 2 * BIGDEAL_SECRET + 16], when[32];
	time_t now = time(NULL);

	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	stream_write_headers(fp, STREAM_SEED, NULL, "");
	fprintf(fp, "#V: %s\n#T: %s\n", DL_VERSION_STRING, when);
	if (opt.event != NULL)
		fprintf(fp, "#I: %s\n", opt.event);
	if (weak)
		fprintf(fp, "#W: not for play: the seed has only %lu bits of entropy\n", bits);
	seed_record_format(seed, record);
	fprintf(fp, "%s", record);
	sodium_memzero(record, sizeof record);
}

/* --hex-file: the secret from a file (or - for standard input), so that it
 * never stands on a command line. */
static void
read_hex_file(const char *path, struct seed_record *seed)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *hex = secret_alloc(128);

	if (fp == NULL)
		err(1, "%s", path);
	if (fgets(hex, 128, fp) == NULL)
		errx(1, "%s: no hex digits", path);
	hex[strcspn(hex, "\r\n")] = '\0';
	set_hex(hex, seed, path);
	secret_free(hex);
	if (fp != stdin)
		fclose(fp);
}

static int
verify_commitment(void)
{
	struct stream_in in;
	struct seed_record *seed = secret_alloc(sizeof *seed);
	char hex[65];

	stream_open(&in, stdin, STREAM_SEED);
	seed_record_read(&in, seed);
	commitment(stream_header(&in, 'I'), seed, hex);
	if (sodium_compare((unsigned char *)hex, (const unsigned char *)opt.verify, 64) != 0 ||
	    strlen(opt.verify) != 64)
		errx(1, "the seed and event do NOT match the commitment");
	fprintf(stderr, "dl-seed: the seed and event match the commitment\n");
	if (!isatty(STDOUT_FILENO) || opt.force) {
		/* hand the published seed on, for dl-stream */
		setup_stdout();
		stream_write_headers(stdout, STREAM_SEED, &in, "");
		char record[2 * 2 * BIGDEAL_SECRET + 16];
		seed_record_format(seed, record);
		fputs(record, stdout);
		xfclose(stdout, "standard output");
	}
	stream_close(&in);
	secret_free(seed);
	return 0;
}

static void
parse_options(int argc, char *argv[], struct entropy *e, struct seed_record *seed)
{
	static const struct option longopts[] = {
		{ "commit", required_argument, NULL, 'c' },
		{ "entropy", required_argument, NULL, 'e' },
		{ "entropy-file", required_argument, NULL, 'E' },
		{ "force", no_argument, NULL, 'f' },
		{ "generator", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ "event", required_argument, NULL, 'i' },
		{ "keyboard", no_argument, NULL, 'k' },
		{ "only-given", no_argument, NULL, 'o' },
		{ "verify", required_argument, NULL, 'V' },
		{ "owner", required_argument, NULL, 'w' },
		{ "hex", required_argument, NULL, 'x' },
		{ "hex-file", required_argument, NULL, 'X' },
		{ "no-history", no_argument, NULL, 'H' },
		{ "not-for-play", no_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, given = 0;

	while ((ch = getopt_long(argc, argv, "c:e:E:fg:hi:koV:w:x:X:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c': opt.commit = optarg; break;
		case 'e':
			entropy_add_string(e, optarg);
			scrub_argument(optarg);
			given = 1;
			break;
		case 'E':
			entropy_add_file(e, optarg);
			given = 1;
			break;
		case 'f': opt.force = 1; break;
		case 'g': opt.generator = optarg; break;
		case 'h': usage(stdout, 0);
		case 'i': opt.event = optarg; break;
		case 'k': opt.keyboard = 1; break;
		case 'o': opt.only_given = 1; break;
		case 'V': opt.verify = optarg; break;
		case 'w': opt.owner = optarg; break;
		case 'x':
			set_hex(optarg, seed, "--hex");
			scrub_argument(optarg);
			opt.given_hex = 1;
			break;
		case 'X': opt.hex_file = optarg; opt.given_hex = 1; break;
		case 'H': opt.no_history = 1; break;
		case 'N': opt.not_for_play = 1; break;
		default: usage(stderr, 2);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	if (opt.event != NULL && !header_value_is_valid(opt.event))
		errx(2, "--event: not one line of valid UTF-8 text");
	if (opt.given_hex && (given || opt.only_given || opt.keyboard))
		errx(2, "--hex gives the secret itself: it takes no other entropy");
	opt.given_entropy = given || opt.only_given || opt.keyboard;
}

/* New seeds are dl256 keys from the OS; entropy collected Big Deal's way
 * (-e, -E, -k, -o) makes Big Deal's random, as does -g bigdeal. */
static void
choose_generator(struct seed_record *seed)
{
	enum generator g;

	if (opt.generator == NULL) {
		if (!opt.given_hex)
			seed->generator = opt.given_entropy ? GENERATOR_BIGDEAL : GENERATOR_DL256;
		return;
	}
	if (generator_from_name(opt.generator, &g) == -1)
		errx(2, "unknown generator \"%s\" (known: bigdeal, dl256)", opt.generator);
	if (opt.given_hex && g != seed->generator)
		errx(2, "--hex gives a %s secret, not a %s one",
		    generator_name(seed->generator), opt.generator);
	if (g == GENERATOR_DL256 && opt.given_entropy)
		errx(2, "dl256 keys come from the OS's randomness, or --hex with 64 digits");
	seed->generator = g;
}

/* A seed that merely reproduces a known set is exempt from the history, as
 * in Big Deal: a given secret (--hex), or given entropy with a given owner
 * (bigdealx -W, which SquareDeal uses). */
static int
reproduces_known_set(void)
{
	return opt.given_hex || (opt.only_given && opt.owner != NULL && !opt.keyboard);
}

int
main(int argc, char *argv[])
{
	struct bigdealrc rc = { 0 };
	struct seed_record *seed;
	struct entropy *e;
	unsigned long bits;

	if (sodium_init() < 0)
		errx(2, "cannot initialise libsodium");
	seed = secret_alloc(sizeof *seed);
	e = entropy_new();
	parse_options(argc, argv, e, seed);
	if (opt.verify != NULL)
		return verify_commitment();
	if (!opt.force && opt.commit == NULL && isatty(STDOUT_FILENO))
		errx(2, "refusing to write a secret seed to a terminal (use --force)");
	if (opt.owner == NULL && bigdealrc_read(BIGDEALRC, &rc) == 0 && rc.owner != NULL)
		opt.owner = rc.owner;
	ripemd160(opt.owner ? opt.owner : "", opt.owner ? strlen(opt.owner) : 0, seed->owner);

	if (opt.hex_file != NULL)
		read_hex_file(opt.hex_file, seed);
	choose_generator(seed);
	if (!opt.given_hex && seed->generator == GENERATOR_DL256) {
		randombytes_buf(seed->key, DL256_KEY_BYTES);
		e->bits = 8 * DL256_KEY_BYTES;
	} else if (!opt.given_hex) {
		if (!opt.only_given)
			entropy_add_os(e);
		if (opt.keyboard)
			entropy_add_keyboard(e, ENTROPY_KEYBOARD);
		if (e->bits < ENTROPY_NEEDED && !opt.not_for_play)
			errx(1, "only %lu bits of entropy, %d needed: give more --entropy "
			    "(4 bits a character) or drop --only-given", e->bits, ENTROPY_NEEDED);
		entropy_finish(e, seed->random);
	}
	bits = e->bits;
	entropy_free(e);
	if (!opt.no_history && !reproduces_known_set())
		history_check_and_record(seed);

	int weak = !opt.given_hex && bits < ENTROPY_NEEDED;
	if (opt.commit != NULL) {
		struct outfile of;
		char hex[65];
		write_seed(outfile_create(&of, opt.commit, 0600), seed, bits, weak);
		outfile_publish(&of, PUBLISH_NEW);
		commitment(opt.event, seed, hex);
		printf("commitment %s\n", hex);
	} else {
		setup_stdout();
		write_seed(stdout, seed, bits, weak);
	}
	secret_free(seed);
	bigdealrc_free(&rc);
	xfclose(stdout, "standard output");
	wipe_stdout_buffer();
	return 0;
}
