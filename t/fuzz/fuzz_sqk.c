/* A SquareDeal key file .sqk as dl-sqd reads it (lib/squaredeal/sqd.c sqk_read), for
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
#include "keys/seed.h"
#include "squaredeal/sqd.h"
#include "base/util.h"

#define SEPARATOR "\n%%\n"

static const char builtin_sqd[] =
    "TN Fuzz Cup\n"
    "DV 3 6 9 13 26 40\n"
    "SN 3:1-10,11-20,21-30:rr##:Round Robin #/3\n"
    "SN 2:12:ko#:Knockout #/2\n"
    "SN 0:1-8:sw##:Swiss #\n";

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
check_keys(const struct sqd *t, const struct sqk *k, const uint8_t *sqk, size_t sqk_size)
{
	char hash[SQD_HASH_HEX + 1];
	size_t sessions = 0;

	expected_hash(sqk, sqk_size, hash);
	if (strcmp(hash, k->hash) != 0)
		fuzz_fail("key file hash %s, expected %s", k->hash, hash);
	for (unsigned p = 1; p <= t->nphases; p++) {
		unsigned n = t->phases[p - 1].nsessions;
		for (unsigned s = n == 0 ? 0 : 1; s <= n; s++, sessions++) {
			const char *key = sqk_key(k, p, s);
			if (key == NULL || *key == '\0')
				fuzz_fail("session %u,%u has no key", p, s);
			/* the seed of the session; the first few, they cost hashes */
			if (t->dv != NULL && s <= 3) {
				struct seed_record *seed = secret_alloc(sizeof *seed);
				for (int reserve = 0; reserve <= 1; reserve++)
					sqd_session_seed(t, k, p, n == 0 ? 1 : s,
					    reserve, seed);
				secret_free(seed);
			}
		}
	}
	if (sessions != k->nkeys)
		fuzz_fail("%zu keys for %zu sessions", k->nkeys, sessions);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sqd = (const uint8_t *)builtin_sqd, *sqk = data;
	size_t sqd_size = strlen(builtin_sqd), sqk_size = size;
	struct dl_error e = { 0 };
	struct sqd t;
	struct sqk k;

	fuzz_split(data, size, SEPARATOR, &sqd, &sqd_size, &sqk, &sqk_size);
	if (sqd_read(fuzz_tmp_file("fuzz.sqd", sqd, sqd_size), &t, &e) == -1) {
		fuzz_check_error(&e, "sqd_read");
		return 0;
	}
	if (sqk_read(fuzz_tmp_file("fuzz.sqk", sqk, sqk_size), &t, &k, &e) == 0) {
		check_keys(&t, &k, sqk, sqk_size);
		sqk_free(&k);
	} else {
		fuzz_check_error(&e, "sqk_read");
		/* the secret memory is wiped and freed already */
		if (k.text != NULL || k.keys != NULL || k.nkeys != 0)
			fuzz_fail("sqk_read refused the file and kept the keys");
	}
	sqd_free(&t);
	return 0;
}
