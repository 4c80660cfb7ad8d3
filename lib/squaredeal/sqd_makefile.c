/* The Makefile of dl-sqd FILE makefile: the session files are its
 * targets, the .sqd and .sqk their prerequisites, so that a changed
 * tournament is dealt again.  Phases whose sessions are not all known
 * (open-ended, or boards chosen when dealing) are named in a comment. */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "files/plugins.h"
#include "squaredeal/sqd_makefile.h"
#include "base/util.h"

/* Characters a make rule cannot hold in a file name, even escaped (a ':'
 * or '=' is read as the rule's own, '%' makes a pattern, '*?[' a glob, a
 * backslash and control bytes have no sure escape).  Spaces, '$' and '#'
 * are escaped instead, so that a directory with spaces works. */
static int
check_path(const char *path, struct dl_error *e)
{
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if (*p < 0x20 || *p == 0x7f || strchr("\\:;=%*?[]|", *p) != NULL)
			return dl_error_set(e, DL_ERR_USAGE, "%s: a Makefile cannot name a file "
			    "whose path holds '%c'", path, *p < 0x20 || *p == 0x7f ? '?' : *p);
	return 0;
}

/* A name as a target or prerequisite: space as "\ ", '$' as "$$", '#' as
 * "\#" (to free). */
static char *
make_word(const char *s)
{
	char *out = xmalloc(3 * strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (*s == ' ' || *s == '#')
			*o++ = '\\';
		else if (*s == '$')
			*o++ = '$';
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

/* A word of the recipe, for the shell: in single quotes (a quote as
 * '\''), and '$' as "$$" for make (to free). */
static char *
shell_word(const char *s)
{
	char *out = xmalloc(4 * strlen(s) + 3), *o = out;

	*o++ = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
			continue;
		}
		if (*s == '$')
			*o++ = '$';
		*o++ = *s;
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

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

/* The words every rule uses, escaped once. */
struct words {
	char *dir;		/* for targets: "" or "DIR/" */
	char *sqd, *sqk;	/* for prerequisites */
	char *sqd_arg, *sqk_arg;	/* for the recipe */
};

static void
write_phase(FILE *fp, const struct words *w, const char *format, const char *suffix,
    const struct sqd *t, unsigned p)
{
	const struct sqd_phase *ph = &t->phases[p - 1];

	if (ph->nsessions == 0 || ph->nranges == 0) {
		fprintf(fp, "# phase %u: %s, not listed\n\n", p, ph->nsessions == 0 ?
		    "open-ended" : "boards chosen when dealing");
		return;
	}
	for (unsigned s = 1; s <= ph->nsessions; s++) {
		/* a plain name: sqd_prefix_check holds for every phase read */
		char *name = sqd_session_name(ph, s, 0);
		fprintf(fp, "all-sessions: %s%s.%s\n", w->dir, name, suffix);
		fprintf(fp, "%s%s.%s: %s %s\n\t$(DL_SQD) --sqk %s %s make -f %s %u %u\n",
		    w->dir, name, suffix, w->sqd, w->sqk, w->sqk_arg, w->sqd_arg, format, p, s);
		free(name);
	}
	fputc('\n', fp);
}

int
sqd_makefile_write(FILE *fp, const char *sqd_path, const char *sqk_path,
    const struct sqd *t, const struct format_list *formats, struct dl_error *e)
{
	struct words w;
	char **suffixes, *dir;

	if (check_path(sqd_path, e) == -1 || check_path(sqk_path, e) == -1 ||
	    format_suffixes(formats, &suffixes, e) == -1)
		return -1;
	dir = file_dir(sqd_path);
	w = (struct words){ make_word(dir), make_word(sqd_path), make_word(sqk_path),
	    shell_word(sqd_path), shell_word(sqk_path) };
	fprintf(fp, "# Made by dl-sqd from %s: one target per session file.\n"
	    "# Run it with make -f FILE -j, or include it in a Makefile.\n"
	    "DL_SQD ?= dl-sqd\n\nall-sessions:\n\n", sqd_path);
	for (size_t i = 0; i < formats->n; i++) {
		for (unsigned p = 1; p <= t->nphases; p++)
			write_phase(fp, &w, formats->names[i], suffixes[i], t, p);
		free(suffixes[i]);
	}
	fprintf(fp, ".PHONY: all-sessions\n");
	free(suffixes);
	free(dir);
	free(w.dir);
	free(w.sqd);
	free(w.sqk);
	free(w.sqd_arg);
	free(w.sqk_arg);
	return 0;
}
