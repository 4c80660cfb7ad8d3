#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deals/mapping.h"
#include "keys/generator.h"
#include "stream/proto.h"
#include "base/util.h"

/* Every generator, in the order messages list them.  The order is
 * behaviour: dl-seed --hex without -g takes the first generator whose key
 * has the hex's length, so a new generator goes at the end. */
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

/* The names, made once, sized to the table. */
static char *all_names, *fresh_names;
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

/* The names joined by ", ", of every generator or (fresh_only) of those
 * whose keys the tools make, the last of those after " or ". */
static char *
names_joined(int fresh_only)
{
	size_t size = 1, n = 0, written = 0;
	char *text;

	for (size_t i = 0; i < ngenerators; i++)
		if (!fresh_only || generators[i]->fresh_keys != FRESH_NONE) {
			size += strlen(generators[i]->name) + 4;
			n++;
		}
	text = xcalloc(1, size);
	for (size_t i = 0; i < ngenerators; i++) {
		if (fresh_only && generators[i]->fresh_keys == FRESH_NONE)
			continue;
		if (written > 0)
			strlcat(text, !fresh_only || written + 1 < n ? ", " : " or ", size);
		strlcat(text, generators[i]->name, size);
		written++;
	}
	return text;
}

static void
make_names(void)
{
	all_names = names_joined(0);
	fresh_names = names_joined(1);
}

const char *
generator_names(void)
{
	pthread_once(&names_once, make_names);
	return all_names;
}

const char *
generator_fresh_names(void)
{
	pthread_once(&names_once, make_names);
	return fresh_names;
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
