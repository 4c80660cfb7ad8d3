#include <dirent.h>
#include <dlfcn.h>
#include <err.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugins.h"
#include "util.h"

#define SO_SUFFIX ".so"

/* Directories to search, in order: next to the program (the build tree's
 * build/plugins, an installation's lib/dl/plugins), then the absolute
 * directories of DL_PLUGIN_PATH.  Never the current directory: a relative
 * or empty entry of DL_PLUGIN_PATH is ignored. */
static char **plugin_dir_list;

/* The list lives as long as the program; freed at exit all the same, as
 * memory still reachable then is an error to make memcheck. */
static void
free_plugin_dirs(void)
{
	for (size_t i = 0; plugin_dir_list[i] != NULL; i++)
		free(plugin_dir_list[i]);
	free(plugin_dir_list);
	plugin_dir_list = NULL;
}

static char **
plugin_dirs(void)
{
	char exe[PATH_MAX];
	size_t n = 0;
	ssize_t len;

	if (plugin_dir_list != NULL)
		return plugin_dir_list;
	char **dirs = plugin_dir_list = xcalloc(64, sizeof *dirs);
	atexit(free_plugin_dirs);
	if ((len = readlink("/proc/self/exe", exe, sizeof exe - 1)) > 0) {
		exe[len] = '\0';
		char *bindir = dirname(exe);
		if (asprintf(&dirs[n++], "%s/../plugins", bindir) == -1 ||
		    asprintf(&dirs[n++], "%s/../lib/dl/plugins", bindir) == -1)
			err(2, "asprintf");
	}
	const char *env = getenv("DL_PLUGIN_PATH");
	if (env != NULL) {
		char *copy = xstrdup(env), *save = NULL;
		for (char *d = strtok_r(copy, ":", &save); d != NULL && n < 63;
		    d = strtok_r(NULL, ":", &save))
			if (d[0] == '/')
				dirs[n++] = xstrdup(d);
		free(copy);
	}
	return dirs;
}

static int
name_is_valid(const char *name)
{
	if (name == NULL || *name == '\0' || strlen(name) > 32)
		return 0;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

/* NULL on success, else why the file at path is not a usable plugin. */
static char *
load_file(const char *path, const char *name, struct loaded_plugin *lp)
{
	const struct dl_plugin *p;
	char *why = NULL;
	void *handle;

	if ((handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		const char *e = dlerror();
		if (asprintf(&why, "%s: cannot load: %s", path, e ? e : "unknown error") == -1)
			err(2, "asprintf");
		return why;
	}
	if ((p = dlsym(handle, DL_PLUGIN_SYMBOL)) == NULL) {
		if (asprintf(&why, "%s: no \"%s\" symbol: not a dl plugin", path,
		    DL_PLUGIN_SYMBOL) == -1)
			err(2, "asprintf");
	} else if (p->abi_version != DL_PLUGIN_ABI_VERSION) {
		if (asprintf(&why, "%s: plugin ABI version %u, this program needs version %d",
		    path, p->abi_version, DL_PLUGIN_ABI_VERSION) == -1)
			err(2, "asprintf");
	} else if (p->struct_size != sizeof(struct dl_plugin)) {
		if (asprintf(&why, "%s: plugin structure of %u bytes, this program needs %zu "
		    "(built against another dl/plugin.h)", path, p->struct_size,
		    sizeof(struct dl_plugin)) == -1)
			err(2, "asprintf");
	} else if (!name_is_valid(p->name) || p->suffix == NULL || p->description == NULL ||
	    (p->kind != DL_TEXT && p->kind != DL_BINARY)) {
		if (asprintf(&why, "%s: malformed plugin description", path) == -1)
			err(2, "asprintf");
	} else if (strcmp(p->name, name) != 0) {
		if (asprintf(&why, "%s: plugin calls itself \"%s\", not \"%s\"", path,
		    p->name, name) == -1)
			err(2, "asprintf");
	}
	if (why != NULL) {
		dlclose(handle);
		return why;
	}
	lp->plugin = p;
	lp->handle = handle;
	lp->path = xstrdup(path);
	return NULL;
}

char *
plugin_try_load(const char *name, struct loaded_plugin *lp)
{
	char **dirs = plugin_dirs(), *path, *why = NULL;

	if (!name_is_valid(name)) {
		if (asprintf(&why, "bad format name \"%s\"", name) == -1)
			err(2, "asprintf");
		return why;
	}
	for (size_t i = 0; dirs[i] != NULL; i++) {
		if (asprintf(&path, "%s/%s%s", dirs[i], name, SO_SUFFIX) == -1)
			err(2, "asprintf");
		if (access(path, F_OK) == 0) {
			why = load_file(path, name, lp);
			free(path);
			return why;
		}
		free(path);
	}
	if (asprintf(&why, "unknown format \"%s\" (dl-fmt --list shows the formats)",
	    name) == -1)
		err(2, "asprintf");
	return why;
}

void
plugin_unload(struct loaded_plugin *lp)
{
	free(lp->path);
	if (lp->handle != NULL)
		dlclose(lp->handle);
	memset(lp, 0, sizeof *lp);
}

void
plugin_load(const char *name, struct loaded_plugin *lp)
{
	char *why = plugin_try_load(name, lp);

	if (why != NULL)
		errx(2, "%s", why);
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
plugin_each(void (*fn)(const struct loaded_plugin *))
{
	char **dirs = plugin_dirs(), **seen = NULL;
	size_t nseen = 0;

	for (size_t i = 0; dirs[i] != NULL; i++) {
		DIR *dir = opendir(dirs[i]);
		char **names = NULL;
		size_t nnames = 0;
		struct dirent *e;
		if (dir == NULL)
			continue;
		while ((e = readdir(dir)) != NULL) {
			size_t len = strlen(e->d_name);
			if (len <= strlen(SO_SUFFIX) ||
			    strcmp(e->d_name + len - strlen(SO_SUFFIX), SO_SUFFIX) != 0)
				continue;
			names = xreallocarray(names, nnames + 1, sizeof *names);
			names[nnames++] = strndup(e->d_name, len - strlen(SO_SUFFIX));
		}
		closedir(dir);
		/* a directory without plugins leaves names NULL, which qsort
		 * must not be given even for no elements */
		if (nnames > 1)
			qsort(names, nnames, sizeof *names, compare_names);
		for (size_t j = 0; j < nnames; j++) {
			struct loaded_plugin lp;
			char *path, *why;
			int dup = 0;
			for (size_t k = 0; k < nseen; k++)
				dup |= strcmp(seen[k], names[j]) == 0;
			if (dup || !name_is_valid(names[j])) {
				free(names[j]);
				continue;
			}
			if (asprintf(&path, "%s/%s%s", dirs[i], names[j], SO_SUFFIX) == -1)
				err(2, "asprintf");
			if ((why = load_file(path, names[j], &lp)) != NULL) {
				warnx("%s", why);
				free(why);
			} else {
				fn(&lp);
				plugin_unload(&lp);
			}
			free(path);
			seen = xreallocarray(seen, nseen + 1, sizeof *seen);
			seen[nseen++] = names[j];
		}
		free(names);
	}
	for (size_t k = 0; k < nseen; k++)
		free(seen[k]);
	free(seen);
}
