/* A set's digest: SHA-256 over its deals as .tso records ("BOARD DIGITS\n"
 * each, record_deal_text's), in the order they come.  Its first eight bytes
 * in hex are the set's fingerprint, which the hand records print so that a
 * sheet can be matched with its files; the whole digest names the set in
 * the archive (lib/archive/), where two sets are the same set when their
 * digests are. */
#ifndef DL_FINGERPRINT_H
#define DL_FINGERPRINT_H

#include <sodium.h>

#include "deals/dealnum.h"

#define SET_DIGEST_BYTES crypto_hash_sha256_BYTES
/* 16 hex digits and the NUL */
#define SET_FINGERPRINT_SIZE 17

struct set_digest {
	crypto_hash_sha256_state sha;
};

void set_digest_init(struct set_digest *d);
void set_digest_add(struct set_digest *d, unsigned board, const unsigned char owner[CARDS]);
void set_digest_final(struct set_digest *d, unsigned char digest[SET_DIGEST_BYTES]);
/* The fingerprint of a digest. */
void set_fingerprint(const unsigned char digest[SET_DIGEST_BYTES],
    char fingerprint[SET_FINGERPRINT_SIZE]);

#endif
