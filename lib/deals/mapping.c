#include <stdlib.h>
#include <string.h>

#include "deals/mapping.h"
#include "deals/pavlicek.h"

static void
deals_from_numbers_pavlicek(const u128 *numbers, size_t count, unsigned char (*owner)[CARDS])
{
	for (size_t i = 0; i < count; i++)
		deal_from_number_pavlicek(numbers[i], owner[i]);
}

const struct mapping mappings[] = {
	{ "bigdeal", deal_from_number, number_from_deal, deals_from_numbers },
	{ "pavlicek", deal_from_number_pavlicek, number_from_deal_pavlicek,
	    deals_from_numbers_pavlicek },
};
const size_t nmappings = sizeof mappings / sizeof mappings[0];

const struct mapping *
mapping_find(const char *name)
{
	for (size_t i = 0; i < nmappings; i++)
		if (strcmp(mappings[i].name, name) == 0)
			return &mappings[i];
	return NULL;
}

const char *
mapping_names(void)
{
	static char known[128];

	if (known[0] == '\0')
		for (size_t i = 0; i < nmappings; i++) {
			if (i > 0)
				strlcat(known, ", ", sizeof known);
			strlcat(known, mappings[i].name, sizeof known);
		}
	return known;
}
