#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugins.h"
#include "util.h"

#define SO_SUFFIX ".so"

/* Directories to search, in order: next to the program (the build tree's
 * build/plugins, an installation's lib/dl/plugins), then the absolute
 * directories of DL_PLUGIN_PATH.  Never the current directory: a relative
 * or empty entry of DL_PLUGIN_PATH is ignored.  A NULL-terminated list
 * for free_plugin_dirs. */
static char **
plugin_dirs(void)
{
	char exe[PATH_MAX];
	size_t n = 0;
	ssize_t len;
	char **dirs = xcalloc(64, sizeof *dirs);

	if ((len = readlink("/proc/self/exe", exe, sizeof exe - 1)) > 0) {
		exe[len] = '\0';
		char *bindir = dirname(exe);
		dirs[n++] = xasprintf("%s/../plugins", bindir);
		dirs[n++] = xasprintf("%s/../lib/dl/plugins", bindir);
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

static void
free_plugin_dirs(char **dirs)
{
	for (size_t i = 0; dirs[i] != NULL; i++)
		free(dirs[i]);
	free(dirs);
}

int
plugin_name_is_valid(const char *name)
{
	if (name == NULL || *name == '\0' || strlen(name) > 32)
		return 0;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

int
plugin_suffix_is_valid(const char *suffix)
{
	/* PREFIX.SUFFIX is a file name: "../x" or "a/b" would write elsewhere */
	return suffix != NULL && plugin_name_is_valid(suffix) && strlen(suffix) <= 16;
}

/* Loading code runs it (a constructor runs at dlopen, before any check of
 * ours): a file anyone may have replaced, or put in a directory anyone
 * may write to, is refused before it is opened. */
static int
safe_to_load(const char *path, struct dl_error *e)
{
	char *copy = xstrdup(path);
	struct stat file, dir;
	int status = 0;

	if (stat(path, &file) == -1 || stat(dirname(copy), &dir) == -1)
		status = dl_error_sys(e, "%s", path);
	else if (file.st_mode & S_IWOTH)
		status = dl_error_set(e, DL_ERR_SYSTEM, "%s: writable by anyone: not "
		    "loading it", path);
	else if (dir.st_mode & S_IWOTH)
		status = dl_error_set(e, DL_ERR_SYSTEM, "%s: in a directory anyone may "
		    "write to: not loading it", path);
	free(copy);
	return status;
}

static size_t
struct_size_of(uint32_t abi_version)
{
	return abi_version == 1 ? DL_PLUGIN_V1_SIZE : abi_version == 2 ? DL_PLUGIN_V2_SIZE :
	    sizeof(struct dl_plugin);
}

static int
load_file(const char *path, const char *name, struct loaded_plugin *lp, struct dl_error *e)
{
	const struct dl_plugin *p;
	void *handle;

	if (safe_to_load(path, e) == -1)
		return -1;
	if ((handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		const char *why = dlerror();
		return dl_error_set(e, DL_ERR_SYSTEM, "%s: cannot load: %s", path,
		    why ? why : "unknown error");
	}
	if ((p = dlsym(handle, DL_PLUGIN_SYMBOL)) == NULL)
		dl_error_set(e, DL_ERR_SYSTEM, "%s: no \"%s\" symbol: not a dl plugin", path,
		    DL_PLUGIN_SYMBOL);
	else if (p->abi_version < 1 || p->abi_version > DL_PLUGIN_ABI_VERSION)
		dl_error_set(e, DL_ERR_SYSTEM,
		    "%s: plugin ABI version %u, this program takes versions 1 to %d",
		    path, p->abi_version, DL_PLUGIN_ABI_VERSION);
	else if (p->struct_size != struct_size_of(p->abi_version))
		dl_error_set(e, DL_ERR_SYSTEM, "%s: plugin structure of %u bytes, ABI "
		    "version %u has %zu (built against another dl/plugin.h)", path,
		    p->struct_size, p->abi_version, struct_size_of(p->abi_version));
	else if (!plugin_name_is_valid(p->name) || !plugin_suffix_is_valid(p->suffix) ||
	    p->description == NULL || (p->kind != DL_TEXT && p->kind != DL_BINARY))
		dl_error_set(e, DL_ERR_SYSTEM, "%s: malformed plugin description", path);
	else if (strcmp(p->name, name) != 0)
		dl_error_set(e, DL_ERR_SYSTEM, "%s: plugin calls itself \"%s\", not \"%s\"",
		    path, p->name, name);
	else {
		/* an older structure ends before the members added since: the
		 * copy reads them as NULL and 0 */
		struct dl_plugin *copy = xcalloc(1, sizeof *copy);

		memcpy(copy, p, p->struct_size);
		lp->plugin = copy;
		lp->handle = handle;
		lp->path = xstrdup(path);
		return 0;
	}
	dlclose(handle);
	return -1;
}

int
plugin_load(const char *name, struct loaded_plugin *lp, struct dl_error *e)
{
	char **dirs, *path;
	int status = -1, found = 0;

	if (!plugin_name_is_valid(name))
		return dl_error_set(e, DL_ERR_USAGE, "bad format name \"%s\"", name);
	dirs = plugin_dirs();
	for (size_t i = 0; dirs[i] != NULL && !found; i++) {
		path = xasprintf("%s/%s%s", dirs[i], name, SO_SUFFIX);
		if (access(path, F_OK) == 0) {
			found = 1;
			status = load_file(path, name, lp, e);
		}
		free(path);
	}
	free_plugin_dirs(dirs);
	if (!found)
		return dl_error_set(e, DL_ERR_USAGE,
		    "unknown format \"%s\" (dl-fmt --list shows the formats)", name);
	return status;
}

void
plugin_unload(struct loaded_plugin *lp)
{
	free(lp->path);
	free((void *)lp->plugin);	/* the copy load_file made */
	if (lp->handle != NULL)
		dlclose(lp->handle);
	memset(lp, 0, sizeof *lp);
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
plugin_each(void (*fn)(const struct loaded_plugin *lp, const struct dl_error *broken))
{
	char **dirs = plugin_dirs(), **seen = NULL;
	size_t nseen = 0;

	for (size_t i = 0; dirs[i] != NULL; i++) {
		DIR *dir = opendir(dirs[i]);
		char **names = NULL;
		size_t nnames = 0;
		struct dirent *entry;
		if (dir == NULL)
			continue;
		while ((entry = readdir(dir)) != NULL) {
			size_t len = strlen(entry->d_name);
			if (len <= strlen(SO_SUFFIX) ||
			    strcmp(entry->d_name + len - strlen(SO_SUFFIX), SO_SUFFIX) != 0)
				continue;
			names = xreallocarray(names, nnames + 1, sizeof *names);
			names[nnames++] = xstrndup(entry->d_name, len - strlen(SO_SUFFIX));
		}
		closedir(dir);
		/* a directory without plugins leaves names NULL, which qsort
		 * must not be given even for no elements */
		if (nnames > 1)
			qsort(names, nnames, sizeof *names, compare_names);
		for (size_t j = 0; j < nnames; j++) {
			struct loaded_plugin lp;
			struct dl_error e;
			char *path;
			int dup = 0;
			for (size_t k = 0; k < nseen; k++)
				dup |= strcmp(seen[k], names[j]) == 0;
			if (dup || !plugin_name_is_valid(names[j])) {
				free(names[j]);
				continue;
			}
			path = xasprintf("%s/%s%s", dirs[i], names[j], SO_SUFFIX);
			if (load_file(path, names[j], &lp, &e) == -1)
				fn(NULL, &e);
			else {
				fn(&lp, NULL);
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
	free_plugin_dirs(dirs);
}
