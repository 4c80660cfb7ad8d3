/* The record of a seed stream: "bigdeal RANDOM OWNER", 40 hex digits each. */
#ifndef DL_SEED_H
#define DL_SEED_H

#include "bigdeal.h"
#include "proto.h"

struct seed_record {
	unsigned char random[BIGDEAL_SECRET];
	unsigned char owner[BIGDEAL_SECRET];
};

/* Reads the one seed record of s into secret memory the caller owns. */
void seed_record_read(struct stream_in *s, struct seed_record *seed);

/* "bigdeal RANDOM OWNER\n" into record (at least 100 bytes). */
void seed_record_format(const struct seed_record *seed, char *record);

#endif
