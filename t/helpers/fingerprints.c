/* Test helper: for each generator of the table, its name, its history_id
 * and the seed history's fingerprint of a fixed seed of its (key bytes
 * 0, 1, 2, ..., owner bytes 100, 101, ..., event 7, session 3); then the
 * same fingerprint made from a copy of the generator's descriptor, which
 * is in no table: a fingerprint that depended on where the generator
 * stands would differ.  Exits 1 when two generators share a history_id. */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "keys/generator.h"
#include "keys/history.h"

static void
print_fingerprint(const struct seed_record *seed)
{
	unsigned char fp[HISTORY_FINGERPRINT_BYTES];
	char hex[2 * HISTORY_FINGERPRINT_BYTES + 1];

	history_fingerprint(seed, fp);
	sodium_bin2hex(hex, sizeof hex, fp, sizeof fp);
	printf(" %s", hex);
}

int
main(void)
{
	struct seed_record seed = { .event = 7, .session = 3 };
	int status = 0;

	if (sodium_init() < 0)
		return 2;
	for (size_t i = 0; i < SEED_KEY_MAX; i++)
		seed.key[i] = (unsigned char)i;
	for (size_t i = 0; i < SEED_OWNER_MAX; i++)
		seed.owner[i] = (unsigned char)(100 + i);
	for (size_t i = 0; i < ngenerators; i++) {
		struct generator elsewhere = *generators[i];
		for (size_t j = 0; j < i; j++)
			if (generators[j]->history_id == generators[i]->history_id)
				status = 1;
		printf("%s %u", generators[i]->name, (unsigned)generators[i]->history_id);
		seed.generator = generators[i];
		print_fingerprint(&seed);
		seed.generator = &elsewhere;
		print_fingerprint(&seed);
		printf("\n");
	}
	return status;
}
