/* A set's digest and fingerprint (fingerprint.h). */
#include "stream/fingerprint.h"
#include "stream/proto.h"

void
set_digest_init(struct set_digest *d)
{
	crypto_hash_sha256_init(&d->sha);
}

void
set_digest_add(struct set_digest *d, unsigned board, const unsigned char owner[CARDS])
{
	char record[RECORD_TEXT_MAX];
	size_t len = record_deal_text(record, board, owner);

	crypto_hash_sha256_update(&d->sha, (const unsigned char *)record, len);
}

void
set_digest_final(struct set_digest *d, unsigned char digest[SET_DIGEST_BYTES])
{
	crypto_hash_sha256_final(&d->sha, digest);
}

void
set_fingerprint(const unsigned char digest[SET_DIGEST_BYTES],
    char fingerprint[SET_FINGERPRINT_SIZE])
{
	sodium_bin2hex(fingerprint, SET_FINGERPRINT_SIZE, digest, 8);
}
