#include <err.h>
#include <string.h>

#include <sodium.h>

#include "seed.h"

void
seed_record_read(struct stream_in *s, struct seed_record *seed)
{
	size_t len;
	char *line = stream_next_record(s, &len);
	char *fields[3], *save = NULL;
	int n = 0;

	if (line == NULL)
		errx(1, "no seed record in the input");
	for (char *f = strtok_r(line, " ", &save); f != NULL; f = strtok_r(NULL, " ", &save)) {
		if (n == 3)
			stream_fail(s, "garbled seed record");
		fields[n++] = f;
	}
	if (n == 0 || generator_from_name(fields[0], &seed->generator) == -1)
		stream_fail(s, "unknown generator in the seed record");
	if (seed->generator == GENERATOR_DL256) {
		if (n != 2 || hex_to_bytes(fields[1], seed->key, DL256_KEY_BYTES) == -1)
			stream_fail(s, "garbled seed record");
	} else if (n != 3 || hex_to_bytes(fields[1], seed->random, BIGDEAL_SECRET) == -1 ||
	    hex_to_bytes(fields[2], seed->owner, BIGDEAL_SECRET) == -1)
		stream_fail(s, "garbled seed record");
	memset(line, 0, len);	/* the line held the secret in hex */
	if (stream_next_record(s, &len) != NULL)
		stream_fail(s, "more than one seed record");
}

static const char *const generator_names[] = { "bigdeal", "dl256" };

const char *
generator_name(enum generator g)
{
	return generator_names[g];
}

int
generator_from_name(const char *name, enum generator *g)
{
	for (unsigned i = 0; i < sizeof generator_names / sizeof *generator_names; i++)
		if (strcmp(name, generator_names[i]) == 0) {
			*g = (enum generator)i;
			return 0;
		}
	return -1;
}

void
seed_record_format(const struct seed_record *seed, char *record)
{
	char random_hex[2 * BIGDEAL_SECRET + 1], owner_hex[2 * BIGDEAL_SECRET + 1];

	if (seed->generator == GENERATOR_DL256) {
		char key_hex[2 * DL256_KEY_BYTES + 1];
		sodium_bin2hex(key_hex, sizeof key_hex, seed->key, DL256_KEY_BYTES);
		sprintf(record, "dl256 %s\n", key_hex);
		sodium_memzero(key_hex, sizeof key_hex);
		return;
	}

	sodium_bin2hex(random_hex, sizeof random_hex, seed->random, BIGDEAL_SECRET);
	sodium_bin2hex(owner_hex, sizeof owner_hex, seed->owner, BIGDEAL_SECRET);
	sprintf(record, "bigdeal %s %s\n", random_hex, owner_hex);
	sodium_memzero(random_hex, sizeof random_hex);
}
