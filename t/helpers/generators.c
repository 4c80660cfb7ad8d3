/* Test helper: the generators' table (lib/keys/generator.c) as the
 * documentation describes it, a line a generator in the table's order:
 *
 *   NAME KEY_DIGITS OWNER_DIGITS FRESH MAPPING COORDINATES SEQUENTIAL
 *
 * FRESH "os", "entropy" or "none" (a key is only given with --hex);
 * COORDINATES "coordinates" or "-"; SEQUENTIAL "sequential" or "any"
 * (any board alone).  t/docs.bats checks the man pages' and docs' lists of
 * generators against it. */
#include <stdio.h>

#include "keys/generator.h"

int
main(void)
{
	static const char *const fresh[] = {
		[FRESH_NONE] = "none", [FRESH_FROM_OS] = "os",
		[FRESH_FROM_ENTROPY] = "entropy",
	};

	for (size_t i = 0; i < ngenerators; i++) {
		const struct generator *g = generators[i];
		printf("%s %zu %zu %s %s %s %s\n", g->name, 2 * g->key_bytes,
		    2 * g->owner_bytes, fresh[g->fresh_keys], g->mapping,
		    g->coordinates ? "coordinates" : "-",
		    g->sequential ? "sequential" : "any");
	}
	return fflush(stdout) == 0 ? 0 : 2;
}
