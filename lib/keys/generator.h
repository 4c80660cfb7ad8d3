/* The generators, as a table like the mappings': each generator is one
 * file in lib/ that defines a struct generator (its name, the fields of its
 * seed record, whether it takes coordinates, its natural mapping, how it
 * makes deal numbers), and generator.c lists them.  Every tool finds a
 * generator through this table (docs/hacking.md says how to add one).
 *
 * Threads: generator_find, generator_header, generator_of_header and
 * number_source_board may be called from several threads at once, a struct
 * number_source being one thread's (a board may move it on), and so may
 * generator_names and generator_fresh_names (their text is made once,
 * under pthread_once).  number_source_init and number_source_free allocate
 * and free secret memory (util.h): these are the main flow's, one thread
 * at a time. */
#ifndef DL_GENERATOR_H
#define DL_GENERATOR_H

#include <stddef.h>
#include <stdint.h>

#include "deals/dealnum.h"
#include "base/error.h"

#define SEED_KEY_MAX 32		/* bytes of the largest first field */
#define SEED_OWNER_MAX 20	/* bytes of the largest second field */

struct generator;

/* A seed: which generator, its secret, and the run's coordinates.  Lives
 * in secret memory (secret_alloc), zeroed before use. */
struct seed_record {
	const struct generator *generator;
	/* The record's hex fields: bigdeal's "random" and owner hash, or the
	 * key of dl256 and wwdeal. */
	unsigned char key[SEED_KEY_MAX];
	unsigned char owner[SEED_OWNER_MAX];
	/* coordinates (not secret), for generators that take them */
	uint64_t event;
	uint32_t session;
};

/* How dl-seed and dl-deal make a fresh key of a generator's. */
enum fresh_keys {
	FRESH_NONE,		/* none: a key is given (--hex), as the
				 * reference program made it */
	FRESH_FROM_OS,		/* the OS's randomness alone */
	FRESH_FROM_ENTROPY,	/* an entropy pool: given entropy, keyboard
				 * and the OS's randomness */
};

struct generator {
	const char *name;	/* in seed records, -g and #G: */
	/* Its number in the seed history's fingerprints (lib/keys/history.c):
	 * fixed for ever once a generator is released, since a history
	 * refuses a seed only while it fingerprints as before.  bigdeal 0
	 * and dl256 1 (the first versions' numbers), wwdeal 102 (its place
	 * in the table plus 100, as numbered until 2026-11-25); a new
	 * generator takes one no other has (t/seed.bats checks). */
	uint32_t history_id;
	enum fresh_keys fresh_keys;
	const char *mapping;	/* its natural mapping: dl-map's when the
				 * stream has no #M: and no -m is given */
	size_t key_bytes;	/* the seed record's first hex field */
	size_t owner_bytes;	/* a second hex field, or 0 */
	int coordinates;	/* takes --event and --session */
	uint64_t max_event;	/* the largest event it takes */
	/* Boards must be made in order from the first of the run (a stream
	 * such as Big Deal's); else any board alone, in any order. */
	int sequential;
	size_t state_size;	/* secret: allocated, wiped when freed */
	void (*start)(void *state, const struct seed_record *seed, unsigned last_board);
	u128 (*board)(void *state, unsigned board);
};

extern const struct generator generator_bigdeal, generator_dl256, generator_wwdeal;

extern const struct generator *const generators[];
extern const size_t ngenerators;

/* NULL for an unknown name. */
const struct generator *generator_find(const char *name);
/* "bigdeal, dl256, wwdeal": for messages. */
const char *generator_names(void);
/* "bigdeal or dl256": those whose keys dl-seed and dl-deal make. */
const char *generator_fresh_names(void);

/* The #G: header's value: "NAME", or "NAME event E session S". */
void generator_header(const struct seed_record *seed, char *out, size_t size);
/* The generator a #G: value names, or NULL. */
const struct generator *generator_of_header(const char *value);

/* The mapping that goes with a stream.  Deals: the one its #M: header
 * names, with which given (-m, or NULL) must agree.  Numbers: given, else
 * the natural mapping of the generator its #G: header names.  Else the
 * default.  -1 with *e set for an unknown or disagreeing mapping.  Here,
 * with the generators, since it needs them and a stream's headers, which
 * lib/deals/ (below both) does not know; may be called from several
 * threads at once. */
struct mapping;
struct stream_in;
int mapping_of_stream(const struct stream_in *in, const struct mapping *given,
    const struct mapping **map, struct dl_error *e);

/* Deal numbers board by board.  last_board is the run's last board: a
 * generator may make boards ahead, never past it. */
struct number_source {
	const struct generator *generator;
	void *state;
};
void number_source_init(struct number_source *ns, const struct seed_record *seed,
    unsigned last_board);
u128 number_source_board(struct number_source *ns, unsigned board);
void number_source_free(struct number_source *ns);

#endif
