/* dl-seed: make the seed record that starts a dealing pipeline. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "files/bigdealrc.h"
#include "keys/entropy.h"
#include "keys/history.h"
#include "base/lines.h"
#include "files/outfile.h"
#include "stream/proto.h"
#include "keys/seed.h"
#include "owner.h"
#include "tool.h"
#include "base/util.h"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp,
	    "usage: dl-seed [-fko] [-e string]... [-E file]... [-g generator] [-i event]\n"
	    "               [-w owner] [-x hex | -X file] [-c file] [--no-history]\n"
	    "               [--not-for-play] [--site site] [--date YYYY.MM.DD]\n"
	    "               [--record-url url]\n"
	    "       dl-seed -V commitment [-f]\n");
	exit(status);
}

static struct {
	const char *event, *site, *date, *record_url, *owner, *commit, *verify, *hex_file, *hex;
	const struct generator *generator;	/* -g */
	int force, only_given, keyboard, given_hex, given_entropy, not_for_play, no_history;
} opt;

/* 40 hex digits are Big Deal's random, 64 a dl256 key unless -g names
 * another generator of 32-byte keys (wwdeal). */
static void
set_hex(const char *hex, struct seed_record *seed, const char *from)
{
	if (seed_from_hex(hex, opt.generator, seed) == -1) {
		if (opt.generator != NULL)
			tool_fail(DL_ERR_USAGE, "%s: a %s secret is %zu hex digits", from,
			    opt.generator->name, 2 * opt.generator->key_bytes);
		tool_fail(DL_ERR_USAGE, "%s: not 40 hex digits (bigdeal) or 64 (dl256)", from);
	}
}

/* The commitment to a seed and its event: SHA-256 of these lines, so that
 * anyone can recompute it with sha256sum (docs/commitments.md). */
static void
commitment(const char *event, const struct seed_record *seed, char hex[65])
{
	crypto_hash_sha256_state sha;
	unsigned char digest[crypto_hash_sha256_BYTES];
	char record[SEED_RECORD_MAX];

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
	seed_stream_write_url(fp, seed, opt.event, opt.site, opt.date, opt.record_url, bits,
	    weak);
}

/* --hex-file: the secret from a file (or - for standard input), so that it
 * never stands on a command line. */
static void
read_hex_file(const char *path, struct seed_record *seed)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *hex = secret_alloc(128);

	if (fp == NULL)
		tool_fail_sys("%s", path);
	setvbuf(fp, NULL, _IONBF, 0);	/* hex, wiped, is the only copy */
	if (fgets(hex, 128, fp) == NULL)
		tool_fail(DL_ERR_INPUT, "%s: no hex digits", path);
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
	struct stream_out out;
	struct seed_record *seed = secret_alloc(sizeof *seed);
	struct dl_error e;
	char hex[65];

	if (stream_open(&in, stdin, STREAM_SEED, &e) == -1 ||
	    seed_record_read(&in, seed, &e) == -1)
		tool_die(&e);
	commitment(stream_header(&in, 'I'), seed, hex);
	/* the length first: sodium_compare reads 64 bytes of both */
	if (strlen(opt.verify) != 64 ||
	    sodium_compare((unsigned char *)hex, (const unsigned char *)opt.verify, 64) != 0)
		tool_fail(DL_ERR_CHECK, "the seed and event do NOT match the commitment");
	fprintf(stderr, "dl-seed: the seed and event match the commitment\n");
	if (!isatty(STDOUT_FILENO) || opt.force) {
		/* hand the published seed on, for dl-stream */
		setup_stdout();
		stream_out_begin(&out, stdout, STREAM_SEED);
		stream_out_copy_headers(&out, &in, "");
		char record[SEED_RECORD_MAX];
		seed_record_format(seed, record);
		fputs(record, stdout);
		xfclose(stdout, "standard output");
	}
	stream_close(&in);
	secret_free(seed);
	return 0;
}

static void
parse_options(int argc, char *argv[], struct entropy *pool)
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
		{ "site", required_argument, NULL, 'S' },
		{ "date", required_argument, NULL, 'D' },
		{ "record-url", required_argument, NULL, 'U' },
		{ NULL, 0, NULL, 0 },
	};
	struct dl_error e;
	int ch, given = 0;

	static const char optstring[] = "c:e:E:fg:hi:koV:w:x:X:";

	/* the entropy phrase, the owner, the key */
	tool_hide_secret_arguments(argc, argv, optstring, longopts, "ewx");
	opterr = 0;	/* tool_bad_option: never echo a secret argument */
	while ((ch = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (ch) {
		case 'c': opt.commit = optarg; break;
		case 'e':
			entropy_add_string(pool, optarg);
			scrub_argument(optarg);
			given = 1;
			break;
		case 'E':
			if (entropy_add_file(pool, optarg, &e) == -1)
				tool_die(&e);
			given = 1;
			break;
		case 'f': opt.force = 1; break;
		case 'g':
			if ((opt.generator = generator_find(optarg)) == NULL)
				tool_fail(DL_ERR_USAGE, "unknown generator \"%s\" (known: %s)",
				    optarg, generator_names());
			break;
		case 'h': usage(stdout, 0);
		case 'i': opt.event = optarg; break;
		case 'k': opt.keyboard = 1; break;
		case 'o': opt.only_given = 1; break;
		case 'V': opt.verify = optarg; break;
		case 'w':
			/* half a SquareDeal key: copied, then blanked in argv */
			opt.owner = secret_strdup(optarg);
			scrub_argument(optarg);
			break;
		case 'x':
			/* read once -g is known: copied to secret memory first */
			opt.hex = optarg;
			opt.given_hex = 1;
			break;
		case 'X': opt.hex_file = optarg; opt.given_hex = 1; break;
		case 'H': opt.no_history = 1; break;
		case 'N': opt.not_for_play = 1; break;
		case 'S': opt.site = optarg; break;
		case 'D': opt.date = optarg; break;
		case 'U': opt.record_url = optarg; break;
		default: tool_bad_option(argv, optind, optopt);
		}
	}
	if (optind != argc)
		usage(stderr, 2);
	if (opt.event != NULL && event_text_check(opt.event, &e) == -1) {
		dl_error_prefix(&e, "--event");
		tool_die(&e);
	}
	if (opt.site != NULL && event_text_check(opt.site, &e) == -1) {
		dl_error_prefix(&e, "--site");
		tool_die(&e);
	}
	if (opt.date != NULL && date_text_check(opt.date, &e) == -1) {
		dl_error_prefix(&e, "--date");
		tool_die(&e);
	}
	if (opt.record_url != NULL && record_url_check(opt.record_url, &e) == -1) {
		dl_error_prefix(&e, "--record-url");
		tool_die(&e);
	}
	if (opt.given_hex && (given || opt.only_given || opt.keyboard))
		tool_fail(DL_ERR_USAGE, "--hex gives the secret itself: it takes no other entropy");
	opt.given_entropy = given || opt.only_given || opt.keyboard;
}

/* New seeds are dl256 keys from the OS; entropy collected Big Deal's way
 * (-e, -E, -k, -o) makes Big Deal's random, as does -g bigdeal.  Other
 * generators' keys are given with --hex. */
static const struct generator *
choose_generator(const struct seed_record *seed)
{
	const struct generator *g = opt.generator;

	if (opt.given_hex)
		return seed->generator;
	if (g == NULL)
		return opt.given_entropy ? &generator_bigdeal : &generator_dl256;
	if (g->fresh_keys == FRESH_NONE)
		tool_fail(DL_ERR_USAGE, "%s keys are not made here: give one with --hex "
		    "(%zu digits)", g->name, 2 * g->key_bytes);
	if (g->fresh_keys == FRESH_FROM_OS && opt.given_entropy)
		tool_fail(DL_ERR_USAGE, "%s keys come from the OS's randomness, or "
		    "--hex with %zu digits", g->name, 2 * g->key_bytes);
	return g;
}

int
main(int argc, char *argv[])
{
	struct bigdealrc rc = { 0 };
	struct seed_record *seed;
	struct seed_source source = { 0 };
	struct dl_error e;
	unsigned long bits;

	tool_start();
	tool_sodium_init();
	seed = secret_alloc(sizeof *seed);
	source.entropy = entropy_new();
	parse_options(argc, argv, source.entropy);
	if (opt.verify != NULL)
		return verify_commitment();
	if (!opt.force && opt.commit == NULL && isatty(STDOUT_FILENO))
		tool_fail(DL_ERR_USAGE, "refusing to write a secret seed to a terminal "
		    "(use --force)");
	if (opt.hex != NULL) {
		char *hex = secret_alloc(strlen(opt.hex) + 1);
		memcpy(hex, opt.hex, strlen(opt.hex) + 1);
		scrub_argument((char *)opt.hex);
		set_hex(hex, seed, "--hex");
		secret_free(hex);
	}
	if (opt.hex_file != NULL)
		read_hex_file(opt.hex_file, seed);
	source.owner_given = opt.owner != NULL;
	if (opt.owner == NULL) {
		if (bigdealrc_read(BIGDEALRC, &rc, &e) == -1)
			tool_die(&e);
		tool_print_warnings(&rc.warnings);
		owner_from_bigdealrc(&rc, 0, seed->owner);
	} else {
		/* whole, as bigdealx hashes -W: --owner L deals as -W L does
		 * (docs/bigdeal-compat.md); only .bigdealrc's owner line is cut */
		bigdeal_owner_hash_whole(opt.owner, seed->owner);
		secret_free((char *)opt.owner);	/* a copy in secret memory */
		opt.owner = NULL;
	}

	source.generator = choose_generator(seed);
	source.secret_given = opt.given_hex;
	source.os = !opt.only_given;
	source.keyboard = opt.keyboard;
	source.weak_allowed = opt.not_for_play;
	source.no_history = opt.no_history;
	if (seed_make(seed, &source, &bits, &e) == -1)
		tool_die(&e);

	/* printed on the hand records before play: never a part of the secret */
	if (opt.record_url != NULL && seed_text_holds_secret(seed, opt.record_url))
		tool_fail(DL_ERR_USAGE, "--record-url: the address holds the seed's secret, "
		    "which no printed page may carry");
	int weak = !opt.given_hex && bits < ENTROPY_NEEDED;
	if (opt.commit != NULL) {
		struct outfile of;
		char hex[65];
		FILE *fp = outfile_create(&of, opt.commit, 0600, &e);
		if (fp == NULL)
			tool_die(&e);
		write_seed(fp, seed, bits, weak);
		if (outfile_publish(&of, PUBLISH_NEW, NULL, &e) == -1)
			tool_die(&e);
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
