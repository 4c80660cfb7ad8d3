/* A SquareDeal key file .sqk as dl-sqd reads it (lib/sqd.c sqk_read), for
 * the tournament of a .sqd.  The input is the .sqd, a line "%%", then the
 * .sqk; without the "%%" line all of it is the .sqk, of a built-in
 * tournament.  A key file it accepts has one key for each session, its
 * hash is SHA-256 over its lines ended by CRLF, and every session gets a
 * seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "fuzz.h"
#include "seed.h"
#include "sqd.h"
#include "util.h"

#define SEPARATOR "\n%%\n"

static const char builtin_sqd[] =
    "TN Fuzz Cup\n"
    "DV 3 6 9 13 26 40\n"
    "SN 3:1-10,11-20,21-30:rr##:Round Robin #/3\n"
    "SN 2:12:ko#:Knockout #/2\n"
    "SN 0:1-8:sw##:Swiss #\n";

struct run {
	struct sqd t;
	struct sqk k;
};

static void
read_sqd(void *arg)
{
	struct run *run = arg;

	sqd_read("fuzz.sqd", &run->t);
}

static void
read_sqk(void *arg)
{
	struct run *run = arg;

	sqk_read("fuzz.sqk", &run->t, &run->k);
}

/* The hash as docs/squaredeal.md defines it, computed apart from parse_keys. */
static void
expected_hash(const uint8_t *data, size_t size, char hex[SQD_HASH_HEX + 1])
{
	crypto_hash_sha256_state sha;
	unsigned char digest[crypto_hash_sha256_BYTES];
	size_t at = 0;

	crypto_hash_sha256_init(&sha);
	while (at < size) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (data + at)) : size - at;
		size_t text = len > 0 && data[at + len - 1] == '\r' ? len - 1 : len;
		crypto_hash_sha256_update(&sha, data + at, text);
		crypto_hash_sha256_update(&sha, (const unsigned char *)"\r\n", 2);
		at += len + (nl != NULL);
	}
	crypto_hash_sha256_final(&sha, digest);
	sodium_bin2hex(hex, SQD_HASH_HEX + 1, digest, sizeof digest);
}

static void
check_keys(const struct run *run, const uint8_t *sqk, size_t sqk_size)
{
	char hash[SQD_HASH_HEX + 1];
	size_t sessions = 0;

	expected_hash(sqk, sqk_size, hash);
	if (strcmp(hash, run->k.hash) != 0)
		fuzz_fail("key file hash %s, expected %s", run->k.hash, hash);
	for (unsigned p = 1; p <= run->t.nphases; p++) {
		unsigned n = run->t.phases[p - 1].nsessions;
		for (unsigned s = n == 0 ? 0 : 1; s <= n; s++, sessions++) {
			const char *key = sqk_key(&run->k, p, s);
			if (key == NULL || *key == '\0')
				fuzz_fail("session %u,%u has no key", p, s);
			/* the seed of the session; the first few, they cost hashes */
			if (run->t.dv != NULL && s <= 3) {
				struct seed_record *seed = secret_alloc(sizeof *seed);
				for (int reserve = 0; reserve <= 1; reserve++)
					sqd_session_seed(&run->t, &run->k, p, n == 0 ? 1 : s,
					    reserve, seed);
				secret_free(seed);
			}
		}
	}
	if (sessions != run->k.nkeys)
		fuzz_fail("%zu keys for %zu sessions", run->k.nkeys, sessions);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run run = { 0 };
	const uint8_t *sqd = (const uint8_t *)builtin_sqd, *sqk = data;
	size_t sqd_size = strlen(builtin_sqd), sqk_size = size;

	fuzz_split(data, size, SEPARATOR, &sqd, &sqd_size, &sqk, &sqk_size);
	fuzz_file_add("fuzz.sqd", sqd, sqd_size);
	fuzz_file_add("fuzz.sqk", sqk, sqk_size);
	if (fuzz_call(read_sqd, &run) == -1) {
		fuzz_abandon();
		fuzz_files_reset();
		return 0;
	}
	if (fuzz_call(read_sqk, &run) == 0)
		check_keys(&run, sqk, sqk_size);
	else {
		sqk_free(&run.k);	/* secret memory: not for fuzz_abandon */
		fuzz_abandon();
	}
	sqk_free(&run.k);
	sqd_free(&run.t);
	fuzz_files_reset();
	return 0;
}
