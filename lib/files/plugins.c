#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files/plugins.h"
#include "base/util.h"

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
	const char *env = getenv("DL_PLUGIN_PATH");
	size_t n = 0, most = 3;
	ssize_t len;
	char **dirs;

	/* as many as the path has entries (none is cut off), the two next
	 * to the program, and the NULL at the end */
	for (const char *p = env; p != NULL && *p != '\0'; p++)
		most += *p == ':';
	dirs = xcalloc(most + (env != NULL), sizeof *dirs);
	if ((len = readlink("/proc/self/exe", exe, sizeof exe - 1)) > 0) {
		exe[len] = '\0';
		char *bindir = dirname(exe);
		dirs[n++] = xasprintf("%s/../plugins", bindir);
		dirs[n++] = xasprintf("%s/../lib/dl/plugins", bindir);
	}
	if (env != NULL) {
		char *copy = xstrdup(env), *save = NULL;
		for (char *d = strtok_r(copy, ":", &save); d != NULL;
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

/* What a truncated or foreign file would do to dlopen (SIGBUS on a page
 * past the end, a refusal at best) is found before: the file is a shared
 * object of this machine's kind whose header and segments lie within it. */
static int
is_whole_shared_object(int fd, off_t size)
{
	extern const ElfW(Ehdr) __ehdr_start;	/* our own program's header */
	ElfW(Ehdr) eh;
	ElfW(Phdr) ph;

	if (size < (off_t)sizeof eh || pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh)
		return 0;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != __ehdr_start.e_ident[EI_CLASS] ||
	    eh.e_ident[EI_DATA] != __ehdr_start.e_ident[EI_DATA] ||
	    eh.e_machine != __ehdr_start.e_machine || eh.e_type != ET_DYN ||
	    eh.e_phentsize != sizeof ph || eh.e_phnum == 0)
		return 0;
	if (eh.e_phoff > (uintmax_t)size ||
	    (uintmax_t)eh.e_phnum * sizeof ph > (uintmax_t)size - eh.e_phoff)
		return 0;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof ph, eh.e_phoff + (off_t)i * sizeof ph) !=
		    (ssize_t)sizeof ph)
			return 0;
		if (ph.p_offset > (uintmax_t)size || ph.p_filesz > (uintmax_t)size - ph.p_offset)
			return 0;
	}
	if (eh.e_shnum != 0 && (eh.e_shoff > (uintmax_t)size ||
	    (uintmax_t)eh.e_shnum * eh.e_shentsize > (uintmax_t)size - eh.e_shoff))
		return 0;
	return 1;
}

/* 0 when path may be loaded: its real name in *real (to pass to dlopen,
 * so that no link is followed again), checked as above. */
static int
safe_to_load(const char *path, char **real, struct dl_error *e)
{
	struct stat st;
	int fd, status = 0;

	if ((*real = realpath(path, NULL)) == NULL)
		return dl_error_sys(e, "%s", path);
	/* loading code runs it (a constructor runs at dlopen, before any
	 * check of ours): only a file of a trusted path (util.h) */
	if (path_directories_trusted(path, *real, "not loading it", e) == -1)
		status = -1;
	/* O_NONBLOCK: a FIFO named x.so must not hang us at the open */
	else if ((fd = open(*real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) == -1)
		status = dl_error_sys(e, "%s", path);
	else {
		if (fstat(fd, &st) == -1)
			status = dl_error_sys(e, "%s", path);
		else if (!S_ISREG(st.st_mode))
			status = dl_error_set(e, DL_ERR_SYSTEM, "%s: not a regular file: not "
			    "loading it", path);
		else if (path_stat_trusted(path, "the file", &st, "not loading it", e) == -1)
			status = -1;
		else if (!is_whole_shared_object(fd, st.st_size))
			status = dl_error_set(e, DL_ERR_SYSTEM, "%s: not a whole shared object "
			    "for this machine (truncated, or built for another): not loading "
			    "it", path);
		close(fd);
	}
	if (status == -1) {
		free(*real);
		*real = NULL;
	}
	return status;
}

static size_t
struct_size_of(uint32_t abi_version)
{
	/* version 4 changed struct dl_deal, not struct dl_plugin */
	return abi_version == 1 ? DL_PLUGIN_V1_SIZE : abi_version == 2 ? DL_PLUGIN_V2_SIZE :
	    sizeof(struct dl_plugin);
}

static int
load_file(const char *path, const char *name, struct loaded_plugin *lp, struct dl_error *e)
{
	const struct dl_plugin *p;
	void *handle;
	char *real;

	if (safe_to_load(path, &real, e) == -1)
		return -1;
	handle = dlopen(real, RTLD_NOW | RTLD_LOCAL);
	free(real);
	if (handle == NULL) {
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

int
plugin_load_builtin(const char *name, const struct dl_plugin *const *builtins,
    struct loaded_plugin *lp)
{
	for (size_t i = 0; builtins != NULL && builtins[i] != NULL; i++)
		if (strcmp(builtins[i]->name, name) == 0) {
			struct dl_plugin *copy = xmalloc(sizeof *copy);

			*copy = *builtins[i];
			lp->plugin = copy;
			lp->handle = NULL;
			lp->path = xstrdup("(built in)");
			return 0;
		}
	return -1;
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
plugin_each(void (*fn)(void *arg, const struct loaded_plugin *lp,
    const struct dl_error *broken), void *arg)
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
				fn(arg, NULL, &e);
			else {
				fn(arg, &lp, NULL);
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
