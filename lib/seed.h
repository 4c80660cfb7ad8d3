/* The record of a seed stream: "bigdeal RANDOM OWNER", 40 hex digits each,
 * or "dl256 KEY", 64 hex digits. */
#ifndef DL_SEED_H
#define DL_SEED_H

#include "bigdeal.h"
#include "dl256.h"
#include "proto.h"

enum generator { GENERATOR_BIGDEAL, GENERATOR_DL256 };

struct seed_record {
	enum generator generator;	/* 0, bigdeal, in zeroed memory */
	unsigned char random[BIGDEAL_SECRET];
	unsigned char owner[BIGDEAL_SECRET];
	unsigned char key[DL256_KEY_BYTES];
	/* dl256's coordinates of the run (not secret); 0 unless given */
	uint64_t event;
	uint32_t session;
};

const char *generator_name(enum generator g);
/* -1 for an unknown name. */
int generator_from_name(const char *name, enum generator *g);

/* Reads the one seed record of s into secret memory the caller owns. */
void seed_record_read(struct stream_in *s, struct seed_record *seed);

/* The record line, with its newline, into record (at least 100 bytes). */
void seed_record_format(const struct seed_record *seed, char *record);

#endif
