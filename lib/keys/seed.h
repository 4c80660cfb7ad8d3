/* The record of a seed stream: the generator's name and its secret in hex
 * fields, "bigdeal RANDOM OWNER" (40 hex digits each) or "dl256 KEY" (64),
 * as the generator table says (generator.h).
 *
 * Threads: seed_record_read (on its stream's thread), seed_record_format
 * and seed_from_hex may be called from several threads at once; seed_make
 * is the main flow's, one thread at a time: it allocates secret memory and
 * may read the keyboard (entropy.h). */
#ifndef DL_SEED_H
#define DL_SEED_H

#include <stdio.h>
#include "base/error.h"
#include "keys/generator.h"
#include "stream/proto.h"

/* The longest record line, with its newline and NUL. */
#define SEED_RECORD_MAX (16 + 2 * SEED_KEY_MAX + 1 + 2 * SEED_OWNER_MAX + 2)

/* Reads the one seed record of s into secret memory the caller owns. */
int seed_record_read(struct stream_in *s, struct seed_record *seed, struct dl_error *e);

/* The record line, with its newline, into record (SEED_RECORD_MAX bytes). */
void seed_record_format(const struct seed_record *seed, char *record);

/* A secret given in hex (dl-seed --hex): its length says which generator
 * it is for (40 digits bigdeal, 64 dl256 unless want says another of that
 * size).  -1 when it fits none. */
int seed_from_hex(const char *hex, const struct generator *want, struct seed_record *seed);

/* How a fresh seed is made: the one place for the rules every tool that
 * makes seeds follows (dl-seed, dl-deal, dl-bigdeal, dl-bigdealx). */
struct seed_source {
	const struct generator *generator;	/* bigdeal or dl256 */
	/* The secret is in the seed already (--hex, bigdealx -h): nothing is
	 * collected. */
	int secret_given;
	/* bigdeal: the entropy given so far (-e, -E), collected Big Deal's
	 * way; NULL for none.  seed_make frees it. */
	struct entropy *entropy;
	int os;			/* add the OS's randomness */
	int keyboard;		/* add typed entropy to ENTROPY_KEYBOARD bits */
	/* The owner was given on the command line (-w, bigdealx -W), not
	 * read from .bigdealrc. */
	int owner_given;
	/* Fewer than ENTROPY_NEEDED bits are accepted: --not-for-play, or
	 * bigdealx -W, which exists to make SquareDeal's known sets. */
	int weak_allowed;
	int no_history;		/* --no-history */
};

/* Makes the secret (dl256: 32 bytes from the OS; bigdeal: the entropy
 * pool's digest; neither when given), refuses fewer than ENTROPY_NEEDED
 * bits unless allowed, and checks and records the seed in the history
 * unless it reproduces a known set: a given secret, or a given owner with
 * only given entropy (SquareDeal's bigdealx -W LEFT -e RIGHT).  *bits:
 * the entropy credited. */
int seed_make(struct seed_record *seed, struct seed_source *src, unsigned long *bits,
    struct dl_error *e);

/* The seed as a seed stream, as dl-seed writes it (#V:, #T:, the event's
 * #I:, #S:, #D: where not NULL, a #W: when weak, then the record): what
 * regenerates a set with dl-stream | dl-map.  bits: the entropy credited,
 * for #W:'s words. */
void seed_stream_write(FILE *fp, const struct seed_record *seed, const char *event,
    const char *site, const char *date, unsigned long bits, int weak);
/* The same with the address where the set's hand record will be published
 * after play (#U:, checked by record_url_check), or NULL. */
void seed_stream_write_url(FILE *fp, const struct seed_record *seed, const char *event,
    const char *site, const char *date, const char *record_url, unsigned long bits,
    int weak);

/* 1 when text holds the seed's secret, or 16 hex digits of it in a row
 * (either case): an address printed on a hand record (#U:) must never
 * carry it.  Else 0. */
#define SEED_SECRET_RUN 16
int seed_text_holds_secret(const struct seed_record *seed, const char *text);

#endif
