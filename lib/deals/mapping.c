#include <stdlib.h>
#include <string.h>

#include "generator.h"
#include "mapping.h"
#include "pavlicek.h"

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

int
mapping_of_stream(const struct stream_in *in, const struct mapping *given,
    const struct mapping **map, struct dl_error *e)
{
	const char *name = stream_header(in, 'M'), *gen = stream_header(in, 'G');
	const struct generator *g;

	*map = given != NULL ? given : &mappings[0];
	if (stream_kind_of(in) == STREAM_NUMBERS) {
		if (given == NULL && gen != NULL && (g = generator_of_header(gen)) != NULL)
			*map = mapping_find(g->mapping);
		return 0;
	}
	if (name == NULL)
		return 0;
	if ((*map = mapping_find(name)) == NULL)
		return dl_error_set(e, DL_ERR_INPUT,
		    "the deals were mapped with \"%.40s\", which this %s does not know", name, getprogname());
	if (given != NULL && given != *map)
		return dl_error_set(e, DL_ERR_INPUT,
		    "the deals were mapped with \"%s\", not \"%s\" as -m says",
		    (*map)->name, given->name);
	return 0;
}
