/* schemadigest: for each schema version, the digest of the schema dl's
 * steps make with this SQLite and the one lib/archive/archive_sqlite.c
 * knows, "VERSION MADE KNOWN" a line; exits 1 when one differs (every
 * archive would then be checked the slow way: t/archive-hostile.bats). */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "archive/backend.h"

int
main(void)
{
	int status = 0;

	if (sodium_init() < 0)
		return 2;
	for (int64_t v = 1; v <= ARCHIVE_SCHEMA; v++) {
		char made[SCHEMA_DIGEST_HEX];
		const char *known;

		if (archive_sqlite_schema_digest(v, made, &known) == -1) {
			fprintf(stderr, "schemadigest: schema %lld could not be made\n", (long long)v);
			return 2;
		}
		printf("%lld %s %s\n", (long long)v, made, known);
		status |= strcmp(made, known) != 0;
	}
	return status;
}
