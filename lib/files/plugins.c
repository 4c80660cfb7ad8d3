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

#include "files/outfile.h"
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
	char part[17];
	size_t n;

	/* PREFIX.SUFFIX is a file name: "../x" or "a/b" would write
	 * elsewhere.  Names as a plugin's, or two of them parted by a dot
	 * ("cards.pdf": the table cards beside the hand record's .pdf) */
	if (suffix == NULL || (n = strlen(suffix)) > 16)
		return 0;
	const char *dot = strchr(suffix, '.');
	if (dot == NULL)
		return plugin_name_is_valid(suffix);
	memcpy(part, suffix, (size_t)(dot - suffix));
	part[dot - suffix] = '\0';
	return plugin_name_is_valid(part) && plugin_name_is_valid(dot + 1);
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
	/* versions 4 and 5 changed struct dl_deal and struct dl_run, not
	 * struct dl_plugin */
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

/* The names of the plugins in dir (NAME of NAME.so, valid names only),
 * sorted, in *names (each and the array the caller's to free); how many. */
static size_t
plugin_names(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *entry;
	size_t n = 0;

	*names = NULL;
	if (d == NULL)
		return 0;
	while ((entry = readdir(d)) != NULL) {
		size_t len = strlen(entry->d_name);
		char *name;

		if (len <= strlen(SO_SUFFIX) ||
		    strcmp(entry->d_name + len - strlen(SO_SUFFIX), SO_SUFFIX) != 0)
			continue;
		name = xstrndup(entry->d_name, len - strlen(SO_SUFFIX));
		if (!plugin_name_is_valid(name)) {
			free(name);
			continue;
		}
		*names = xreallocarray(*names, n + 1, sizeof **names);
		(*names)[n++] = name;
	}
	closedir(d);
	/* a directory without plugins leaves names NULL, which qsort must
	 * not be given even for no elements */
	if (n > 1)
		qsort(*names, n, sizeof **names, compare_names);
	return n;
}

/* The index's first line: its format and version, so that a later one
 * is not misread (it is then not read at all). */
#define INDEX_MAGIC "dl-plugin-index 1"
/* A directory of a few hundred plugins takes some 10 KiB. */
#define INDEX_MAX_BYTES (256 * 1024)

/* What a directory's index says, read. */
struct dir_index {
	struct index_line {
		char *name, *suffix;
		int reads;
	} *lines;
	size_t n;
	struct timespec written;	/* the index's time: a plugin newer than
					 * it is not what it describes */
};

static void
dir_index_free(struct dir_index *ix)
{
	for (size_t i = 0; i < ix->n; i++) {
		free(ix->lines[i].name);
		free(ix->lines[i].suffix);
	}
	free(ix->lines);
	memset(ix, 0, sizeof *ix);
}

/* "NAME SUFFIX reads|writes", each field checked as a plugin's own are:
 * 0 and *l filled, or -1. */
static int
index_line_parse(char *text, struct index_line *l)
{
	char *name = text, *suffix, *role;

	if ((suffix = strchr(name, ' ')) == NULL)
		return -1;
	*suffix++ = '\0';
	if ((role = strchr(suffix, ' ')) == NULL)
		return -1;
	*role++ = '\0';
	if (!plugin_name_is_valid(name) || !plugin_suffix_is_valid(suffix) ||
	    (strcmp(role, "reads") != 0 && strcmp(role, "writes") != 0))
		return -1;
	l->name = xstrdup(name);
	l->suffix = xstrdup(suffix);
	l->reads = strcmp(role, "reads") == 0;
	return 0;
}

/* The index's text, whole: -1 when anything in it is not as dl-read
 * --index writes it (the index is then not read at all). */
static int
dir_index_parse(char *text, struct dir_index *ix)
{
	char *save = NULL, *line;

	if (strncmp(text, INDEX_MAGIC "\n", strlen(INDEX_MAGIC) + 1) != 0)
		return -1;
	for (line = strtok_r(text + strlen(INDEX_MAGIC) + 1, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		struct index_line l;

		if (line[0] == '#')
			continue;
		if (index_line_parse(line, &l) == -1)
			return -1;
		ix->lines = xreallocarray(ix->lines, ix->n + 1, sizeof *ix->lines);
		ix->lines[ix->n++] = l;
		for (size_t i = 0; i + 1 < ix->n; i++)
			if (strcmp(ix->lines[i].name, l.name) == 0)
				return -1;	/* a plugin said twice */
	}
	return 0;
}

/* The index of dir, read when it is there, trusted as a plugin would be
 * (safe_to_load: the same owners and modes, the file and every directory
 * above it) and well formed: 0, or -1 and *ix empty. */
static int
dir_index_read(const char *dir, struct dir_index *ix)
{
	char *path = xasprintf("%s/%s", dir, PLUGIN_INDEX_NAME), *real, *text = NULL;
	struct dl_error ignored;	/* an index is a short cut: without it,
					 * every plugin is asked, as before */
	struct stat st;
	ssize_t got = -1;
	int fd = -1;

	memset(ix, 0, sizeof *ix);
	if ((real = realpath(path, NULL)) == NULL ||
	    path_directories_trusted(path, real, "not reading it", &ignored) == -1 ||
	    (fd = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    path_stat_trusted(path, "the file", &st, "not reading it", &ignored) == -1 ||
	    st.st_size > INDEX_MAX_BYTES)
		goto out;
	text = xmalloc((size_t)st.st_size + 1);
	/* a file of st_size bytes, or it changed under us: not read */
	got = read(fd, text, (size_t)st.st_size + 1);
	if (got == (ssize_t)st.st_size && memchr(text, '\0', (size_t)got) == NULL) {
		text[got] = '\0';
		ix->written = st.st_mtim;
		if (dir_index_parse(text, ix) == 0)
			goto out;
	}
	dir_index_free(ix);
	got = -1;
out:
	if (fd != -1)
		close(fd);
	free(text);
	free(real);
	free(path);
	return got == -1 ? -1 : 0;
}

/* What ix says of the plugin NAME at path: unknown when it says nothing,
 * or when the file is newer than the index (put there since, or rebuilt
 * without the index being made again). */
static enum plugin_role
dir_index_role(const struct dir_index *ix, const char *name, const char *path,
    const char **suffix)
{
	struct stat st;

	*suffix = NULL;
	for (size_t i = 0; i < ix->n; i++) {
		if (strcmp(ix->lines[i].name, name) != 0)
			continue;
		if (stat(path, &st) == -1 || st.st_mtim.tv_sec > ix->written.tv_sec ||
		    (st.st_mtim.tv_sec == ix->written.tv_sec &&
		    st.st_mtim.tv_nsec > ix->written.tv_nsec))
			return PLUGIN_ROLE_UNKNOWN;
		*suffix = ix->lines[i].suffix;
		return ix->lines[i].reads ? PLUGIN_READS : PLUGIN_WRITES_ONLY;
	}
	return PLUGIN_ROLE_UNKNOWN;
}

void
plugin_catalogue_make(struct plugin_catalogue *c, int use_indexes)
{
	char **dirs = plugin_dirs();

	memset(c, 0, sizeof *c);
	for (size_t i = 0; dirs[i] != NULL; i++) {
		struct dir_index ix = { 0 };
		char **names;
		size_t nnames = plugin_names(dirs[i], &names);

		if (nnames > 0 && use_indexes)
			dir_index_read(dirs[i], &ix);
		for (size_t j = 0; j < nnames; j++) {
			struct plugin_entry *entry;
			const char *suffix;
			int seen = 0;

			for (size_t k = 0; k < c->n && !seen; k++)
				seen = strcmp(c->entries[k].name, names[j]) == 0;
			if (seen) {
				free(names[j]);
				continue;
			}
			c->entries = xreallocarray(c->entries, c->n + 1, sizeof *c->entries);
			entry = &c->entries[c->n++];
			entry->name = names[j];
			entry->path = xasprintf("%s/%s%s", dirs[i], names[j], SO_SUFFIX);
			entry->role = dir_index_role(&ix, entry->name, entry->path, &suffix);
			entry->suffix = suffix != NULL ? xstrdup(suffix) : NULL;
		}
		free(names);
		dir_index_free(&ix);
	}
	free_plugin_dirs(dirs);
}

void
plugin_catalogue_free(struct plugin_catalogue *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->entries[i].name);
		free(c->entries[i].path);
		free(c->entries[i].suffix);
	}
	free(c->entries);
	memset(c, 0, sizeof *c);
}

int
plugin_load_entry(const struct plugin_entry *entry, struct loaded_plugin *lp,
    struct dl_error *e)
{
	return load_file(entry->path, entry->name, lp, e);
}

int
plugin_entry_agrees(const struct plugin_entry *entry, const struct loaded_plugin *lp)
{
	const struct dl_plugin *p = lp->plugin;

	switch (entry->role) {
	case PLUGIN_READS:
		return p->read_board != NULL && strcmp(p->suffix, entry->suffix) == 0;
	case PLUGIN_WRITES_ONLY:
		return p->read_board == NULL;
	default:
		return 1;
	}
}

enum plugin_role
plugin_role_of(const char *name)
{
	enum plugin_role role = PLUGIN_ROLE_UNKNOWN;
	char **dirs;
	int found = 0;

	if (!plugin_name_is_valid(name))
		return role;
	dirs = plugin_dirs();
	/* the directory plugin_load would take it from */
	for (size_t i = 0; dirs[i] != NULL && !found; i++) {
		char *path = xasprintf("%s/%s%s", dirs[i], name, SO_SUFFIX);
		struct dir_index ix;
		const char *suffix;

		if (access(path, F_OK) == 0) {
			found = 1;
			if (dir_index_read(dirs[i], &ix) == 0) {
				role = dir_index_role(&ix, name, path, &suffix);
				dir_index_free(&ix);
			}
		}
		free(path);
	}
	free_plugin_dirs(dirs);
	return role;
}

static void
each_in(const struct plugin_catalogue *c, int readers_only,
    void (*fn)(void *arg, const struct loaded_plugin *lp, const struct dl_error *broken),
    void *arg)
{
	for (size_t i = 0; i < c->n; i++) {
		struct loaded_plugin lp;
		struct dl_error e;

		if (readers_only && c->entries[i].role == PLUGIN_WRITES_ONLY)
			continue;
		if (plugin_load_entry(&c->entries[i], &lp, &e) == -1)
			fn(arg, NULL, &e);
		else {
			fn(arg, &lp, NULL);
			plugin_unload(&lp);
		}
	}
}

void
plugin_each(void (*fn)(void *arg, const struct loaded_plugin *lp,
    const struct dl_error *broken), void *arg)
{
	struct plugin_catalogue c;

	/* every plugin is loaded: what an index says changes nothing */
	plugin_catalogue_make(&c, 0);
	each_in(&c, 0, fn, arg);
	plugin_catalogue_free(&c);
}

void
plugin_each_reader(void (*fn)(void *arg, const struct loaded_plugin *lp,
    const struct dl_error *broken), void *arg)
{
	struct plugin_catalogue c;

	plugin_catalogue_make(&c, 1);
	each_in(&c, 1, fn, arg);
	plugin_catalogue_free(&c);
}

int
plugin_index_write(const char *dir, void (*broken)(void *arg, const struct dl_error *e),
    void *arg, struct dl_error *e)
{
	char **names, *path = xasprintf("%s/%s", dir, PLUGIN_INDEX_NAME);
	size_t nnames = plugin_names(dir, &names);
	struct outfile of;
	FILE *fp;
	int status = -1;

	/* 0644 whatever the umask: an index its group may write is not read */
	if ((fp = outfile_create(&of, path, 0644, e)) != NULL) {
		fprintf(fp, "%s\n# NAME SUFFIX reads|writes: made by dl-read --index "
		    "(docs/plugins.md)\n", INDEX_MAGIC);
		for (size_t i = 0; i < nnames; i++) {
			char *so = xasprintf("%s/%s%s", dir, names[i], SO_SUFFIX);
			struct loaded_plugin lp;
			struct dl_error why;

			if (load_file(so, names[i], &lp, &why) == -1) {
				if (broken != NULL)
					broken(arg, &why);
			} else {
				fprintf(fp, "%s %s %s\n", lp.plugin->name, lp.plugin->suffix,
				    lp.plugin->read_board != NULL ? "reads" : "writes");
				plugin_unload(&lp);
			}
			free(so);
		}
		status = outfile_publish(&of, PUBLISH_REPLACE, NULL, e);
	}
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	free(path);
	return status;
}
