#include <stdio.h>
#include <string.h>

#include "generator.h"
#include "util.h"

/* The first is the default of a seed record that names none: none does. */
const struct generator *const generators[] = {
	&generator_bigdeal, &generator_dl256, &generator_wwdeal,
};
const size_t ngenerators = sizeof generators / sizeof generators[0];

const struct generator *
generator_find(const char *name)
{
	for (size_t i = 0; i < ngenerators; i++)
		if (strcmp(generators[i]->name, name) == 0)
			return generators[i];
	return NULL;
}

const char *
generator_names(void)
{
	static char known[128];

	if (known[0] == '\0')
		for (size_t i = 0; i < ngenerators; i++) {
			if (i > 0)
				strlcat(known, ", ", sizeof known);
			strlcat(known, generators[i]->name, sizeof known);
		}
	return known;
}

const char *
generator_fresh_names(void)
{
	static char names[128];
	size_t n = 0, written = 0;

	for (size_t i = 0; i < ngenerators; i++)
		n += generators[i]->fresh_keys != FRESH_NONE;
	if (names[0] == '\0')
		for (size_t i = 0; i < ngenerators; i++) {
			if (generators[i]->fresh_keys == FRESH_NONE)
				continue;
			if (written > 0)
				strlcat(names, written + 1 < n ? ", " : " or ", sizeof names);
			strlcat(names, generators[i]->name, sizeof names);
			written++;
		}
	return names;
}

void
generator_header(const struct seed_record *seed, char *out, size_t size)
{
	const struct generator *g = seed->generator;

	if (g->coordinates)
		snprintf(out, size, "%s event %llu session %lu", g->name,
		    (unsigned long long)seed->event, (unsigned long)seed->session);
	else
		snprintf(out, size, "%s", g->name);
}

const struct generator *
generator_of_header(const char *value)
{
	size_t len = strcspn(value, " ");

	for (size_t i = 0; i < ngenerators; i++)
		if (strlen(generators[i]->name) == len &&
		    strncmp(generators[i]->name, value, len) == 0)
			return generators[i];
	return NULL;
}

void
number_source_init(struct number_source *ns, const struct seed_record *seed,
    unsigned last_board)
{
	ns->generator = seed->generator;
	ns->state = secret_alloc(seed->generator->state_size);
	ns->generator->start(ns->state, seed, last_board);
}

u128
number_source_board(struct number_source *ns, unsigned board)
{
	return ns->generator->board(ns->state, board);
}

void
number_source_free(struct number_source *ns)
{
	if (ns->state != NULL)
		secret_free(ns->state);
	ns->state = NULL;
}
