/* The Makefile of dl-sqd FILE makefile: the session files are its
 * targets, the .sqd and .sqk their prerequisites, so that a changed
 * tournament is dealt again.  Phases whose sessions are not all known
 * (open-ended, or boards chosen when dealing) are named in a comment. */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "plugins.h"
#include "sqd_makefile.h"
#include "util.h"

/* The file suffix of each format: loaded first, so that an unknown
 * format leaves no half a Makefile behind. */
static int
format_suffixes(const struct format_list *formats, char ***suffixes, struct dl_error *e)
{
	struct loaded_plugin lp;

	*suffixes = xcalloc(formats->n, sizeof **suffixes);
	for (size_t i = 0; i < formats->n; i++) {
		if (plugin_load(formats->names[i], &lp, e) == -1) {
			for (size_t j = 0; j < i; j++)
				free((*suffixes)[j]);
			free(*suffixes);
			return -1;
		}
		(*suffixes)[i] = xstrdup(lp.plugin->suffix);
		plugin_unload(&lp);
	}
	return 0;
}

/* "" for a .sqd in the current directory, else its directory and '/'. */
static char *
file_dir(const char *sqd_path)
{
	char *copy = xstrdup(sqd_path), *dir = dirname(copy), *out;

	out = strcmp(dir, ".") == 0 ? xstrdup("") : xasprintf("%s/", dir);
	free(copy);
	return out;
}

static void
write_phase(FILE *fp, const char *dir, const char *suffix, const char *sqd_path,
    const char *sqk_path, const struct sqd *t, unsigned p)
{
	const struct sqd_phase *ph = &t->phases[p - 1];

	if (ph->nsessions == 0 || ph->nranges == 0) {
		fprintf(fp, "# phase %u: %s, not listed\n\n", p, ph->nsessions == 0 ?
		    "open-ended" : "boards chosen when dealing");
		return;
	}
	for (unsigned s = 1; s <= ph->nsessions; s++) {
		char *name = sqd_session_name(ph, s, 0);
		fprintf(fp, "all-sessions: %s%s.%s\n", dir, name, suffix);
		fprintf(fp, "%s%s.%s: %s %s\n\t$(DL_SQD) %s make -f %s %u %u\n", dir, name,
		    suffix, sqd_path, sqk_path, sqd_path, suffix, p, s);
		free(name);
	}
	fputc('\n', fp);
}

int
sqd_makefile_write(FILE *fp, const char *sqd_path, const char *sqk_path,
    const struct sqd *t, const struct format_list *formats, struct dl_error *e)
{
	char **suffixes, *dir;

	if (format_suffixes(formats, &suffixes, e) == -1)
		return -1;
	dir = file_dir(sqd_path);
	fprintf(fp, "# Made by dl-sqd from %s: one target per session file.\n"
	    "# Run it with make -f FILE -j, or include it in a Makefile.\n"
	    "DL_SQD ?= dl-sqd\n\nall-sessions:\n\n", sqd_path);
	for (size_t i = 0; i < formats->n; i++) {
		for (unsigned p = 1; p <= t->nphases; p++)
			write_phase(fp, dir, suffixes[i], sqd_path, sqk_path, t, p);
		free(suffixes[i]);
	}
	fprintf(fp, ".PHONY: all-sessions\n");
	free(suffixes);
	free(dir);
	return 0;
}
