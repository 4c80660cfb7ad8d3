#include <string.h>
#include <strings.h>
#include <time.h>

#include <sodium.h>

#include "keys/entropy.h"
#include "keys/history.h"
#include "stream/proto.h"
#include "keys/seed.h"
#include "base/util.h"

int
seed_record_read(struct stream_in *s, struct seed_record *seed, struct dl_error *e)
{
	char *line, *fields[3], *save = NULL;
	const struct generator *g;
	size_t len;
	int n = 0, got;

	if ((got = stream_next_record(s, &line, &len, e)) == -1)
		return -1;
	if (got == 0)
		return dl_error_set(e, DL_ERR_INPUT, "no seed record in the input");
	for (char *f = strtok_r(line, " ", &save); f != NULL; f = strtok_r(NULL, " ", &save)) {
		if (n == 3)
			goto garbled;
		fields[n++] = f;
	}
	if (n == 0 || (g = generator_find(fields[0])) == NULL) {
		sodium_memzero(line, len);
		return stream_error(s, e, "unknown generator in the seed record");
	}
	seed->generator = g;
	if (n != (g->owner_bytes ? 3 : 2) ||
	    hex_to_bytes(fields[1], seed->key, g->key_bytes) == -1 ||
	    (g->owner_bytes && hex_to_bytes(fields[2], seed->owner, g->owner_bytes) == -1))
		goto garbled;
	sodium_memzero(line, len);	/* the line held the secret in hex */
	if ((got = stream_next_record(s, &line, &len, e)) == -1)
		return -1;
	if (got == 1)
		return stream_error(s, e, "more than one seed record");
	return 0;
garbled:
	sodium_memzero(line, len);
	return stream_error(s, e, "garbled seed record");
}

void
seed_record_format(const struct seed_record *seed, char *record)
{
	const struct generator *g = seed->generator;
	char *p = record;

	p = stpcpy(p, g->name);
	*p++ = ' ';
	sodium_bin2hex(p, 2 * g->key_bytes + 1, seed->key, g->key_bytes);
	p += 2 * g->key_bytes;
	if (g->owner_bytes) {
		*p++ = ' ';
		sodium_bin2hex(p, 2 * g->owner_bytes + 1, seed->owner, g->owner_bytes);
		p += 2 * g->owner_bytes;
	}
	*p++ = '\n';
	*p = '\0';
}

int
seed_from_hex(const char *hex, const struct generator *want, struct seed_record *seed)
{
	const struct generator *g = want;

	if (g == NULL) {
		/* the default of each length: bigdeal's 20 bytes, dl256's 32 */
		for (size_t i = 0; i < ngenerators && g == NULL; i++)
			if (strlen(hex) == 2 * generators[i]->key_bytes)
				g = generators[i];
		if (g == NULL)
			return -1;
	}
	if (hex_to_bytes(hex, seed->key, g->key_bytes) == -1)
		return -1;
	seed->generator = g;
	return 0;
}

static int
reproduces_known_set(const struct seed_source *src)
{
	return src->secret_given || (src->owner_given && !src->os && !src->keyboard);
}

static int
collect_secret(struct seed_record *seed, struct seed_source *src, unsigned long *bits,
    struct dl_error *e)
{
	struct entropy *pool = src->entropy;

	*bits = 0;
	if (src->secret_given)
		return 0;
	if (seed->generator->fresh_keys != FRESH_FROM_ENTROPY) {
		randombytes_buf(seed->key, seed->generator->key_bytes);
		*bits = 8 * seed->generator->key_bytes;
		return 0;
	}
	if (pool == NULL)
		pool = src->entropy = entropy_new();
	if (src->os)
		entropy_add_os(pool);
	if (src->keyboard && entropy_add_keyboard(pool, ENTROPY_KEYBOARD, e) == -1)
		return -1;
	*bits = pool->bits;
	if (pool->bits < ENTROPY_NEEDED && !src->weak_allowed)
		return dl_error_set(e, DL_ERR_INPUT, "only %lu bits of entropy, %d needed: "
		    "give more --entropy (4 bits a character) or drop --only-given",
		    pool->bits, ENTROPY_NEEDED);
	entropy_finish(pool, seed->key);
	return 0;
}

int
seed_make(struct seed_record *seed, struct seed_source *src, unsigned long *bits,
    struct dl_error *e)
{
	int status;

	seed->generator = src->generator;
	status = collect_secret(seed, src, bits, e);
	if (src->entropy != NULL) {
		entropy_free(src->entropy);
		src->entropy = NULL;
	}
	if (status == 0 && !src->no_history && !reproduces_known_set(src))
		status = history_check_and_record(seed, e);
	return status;
}

void
seed_stream_write(FILE *fp, const struct seed_record *seed, const char *event,
    const char *site, const char *date, unsigned long bits, int weak)
{
	seed_stream_write_url(fp, seed, event, site, date, NULL, bits, weak);
}

void
seed_stream_write_url(FILE *fp, const struct seed_record *seed, const char *event,
    const char *site, const char *date, const char *record_url, unsigned long bits,
    int weak)
{
	char record[SEED_RECORD_MAX], when[32];
	time_t now = time(NULL);
	struct tm tm;
	struct stream_out out;

	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	stream_out_begin(&out, fp, STREAM_SEED);
	stream_out_header(&out, 'V', DL_VERSION_STRING);
	stream_out_header(&out, 'T', when);
	if (event != NULL)
		stream_out_header(&out, 'I', event);
	if (site != NULL)
		stream_out_header(&out, 'S', site);
	if (date != NULL)
		stream_out_header(&out, 'D', date);
	if (record_url != NULL)
		stream_out_header(&out, 'U', record_url);
	if (weak)
		stream_out_headerf(&out, 'W', "not for play: the seed has only %lu bits "
		    "of entropy", bits);
	seed_record_format(seed, record);
	fprintf(fp, "%s", record);
	sodium_memzero(record, sizeof record);
}

int
seed_text_holds_secret(const struct seed_record *seed, const char *text)
{
	static const char digits[] = "0123456789abcdef";
	size_t n = seed->generator->key_bytes, len = strlen(text);
	char hex[2 * SEED_KEY_MAX];
	int found = 0;

	for (size_t i = 0; i < n; i++) {
		hex[2 * i] = digits[seed->key[i] >> 4];
		hex[2 * i + 1] = digits[seed->key[i] & 15];
	}
	/* every run of SEED_SECRET_RUN digits of the key, at every place of
	 * the text: a few thousand comparisons for an address */
	for (size_t at = 0; at + SEED_SECRET_RUN <= 2 * n && !found; at++)
		for (size_t t = 0; t + SEED_SECRET_RUN <= len && !found; t++)
			found = strncasecmp(text + t, hex + at, SEED_SECRET_RUN) == 0;
	sodium_memzero(hex, sizeof hex);
	return found;
}
