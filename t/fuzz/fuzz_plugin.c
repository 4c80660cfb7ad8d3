/* Loading a format-writer plugin (lib/files/plugins.h): plugin_load's checks of
 * a struct dl_plugin's metadata (ABI version, structure size, name,
 * suffix, description, kind), the search of the plugin directories, and
 * plugin_each, dl-fmt --list.
 *
 * The plugins are real files in two directories of DL_PLUGIN_PATH under
 * the harness's own temporary directory, made anew for each input: links
 * to stub_plugin.so, whose writable dl_plugin the harness fills in with
 * the input's metadata before the host loads it (the loader hands back the
 * object already loaded), a link to stub_empty.so, which has no dl_plugin,
 * a file that is no shared object, or a directory.  Both stubs are built
 * beside the harness.
 *
 * The input: a flags byte, a byte saying which directories hold the
 * listed names, four 32-bit words (ABI version and structure size, each
 * XORed with the right value so that zeros make a valid plugin; kind;
 * max_board), then NUL-separated strings: the name asked for, the
 * plugin's name, suffix and description, the bytes of the file that is no
 * shared object ("cut:N": the stub's first N bytes), then the names in each plugin directory (those ending in
 * .so are links to stub_plugin.so, the others empty files). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "files/plugins.h"

enum {
	NOT_SHARED = 1 << 0,	/* the plugin asked for: not a shared object */
	NO_SYMBOL = 1 << 1,	/* a shared object without dl_plugin */
	NO_SUFFIX = 1 << 2,
	NO_DESCRIPTION = 1 << 3,
	NO_NAME = 1 << 4,
	A_DIRECTORY = 1 << 5,	/* a directory NAME.so */
	/* bits 6-7: where the plugin asked for is: in a, in b, in both, or
	 * nowhere */
};
enum { IN_A, IN_B, IN_BOTH, NOWHERE };
/* the byte of directories: the listed names are in a, in b */
enum { LIST_A = 1 << 0, LIST_B = 1 << 1 };

#define STRINGS 5
#define MAX_ENTRIES 64

static struct {
	unsigned flags, dirs;
	uint32_t abi_version, struct_size, kind, max_board;
	const char *asked;		/* the name given to plugin_load */
	const char *name, *suffix, *description, *not_shared;
	const char *entries[MAX_ENTRIES];	/* of each directory */
	size_t nentries;
} in;

/* The stubs, the directories, and the loaded stub's dl_plugin. */
static char stub[PATH_MAX], empty_stub[PATH_MAX];
static char dir_a[PATH_MAX], dir_b[PATH_MAX];
static char real_dirs[2][PATH_MAX];	/* next to the program */
static struct dl_plugin *symbol;

/* What plugin_each passed on: names loaded, to see each only once. */
static char *listed[2 * MAX_ENTRIES + 64];
static size_t nlisted;

/* The sanitizers' poisoning, where there are sanitizers. */
void __asan_poison_memory_region(void const volatile *addr, size_t size)
    __attribute__((weak));
void __asan_unpoison_memory_region(void const volatile *addr, size_t size)
    __attribute__((weak));

/* A path into out (PATH_MAX bytes); one too long is the harness's fault. */
static void __attribute__((format(printf, 2, 3)))
path_of(char *out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, PATH_MAX, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= PATH_MAX)
		fuzz_fail("a path too long for PATH_MAX");
}

static uint32_t
word(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* Reads the input into in; text holds the strings. */
static void
parse_input(const uint8_t *data, size_t size, char *text)
{
	uint8_t head[18] = { 0 };
	size_t n = size < sizeof head ? size : sizeof head;
	const char **strings[STRINGS] = { &in.asked, &in.name, &in.suffix,
	    &in.description, &in.not_shared };
	char *p = text, *end;

	memcpy(head, data, n);
	memcpy(text, data + n, size - n);
	text[size - n] = '\0';
	end = text + (size - n);
	memset(&in, 0, sizeof in);
	in.flags = head[0];
	in.dirs = head[1];
	in.abi_version = word(head + 2) ^ DL_PLUGIN_ABI_VERSION;
	in.struct_size = word(head + 6) ^ (uint32_t)sizeof(struct dl_plugin);
	in.kind = word(head + 10);
	in.max_board = word(head + 14);
	/* missing strings are empty: the NUL at end */
	for (int i = 0; i < STRINGS; i++) {
		*strings[i] = p;
		if (p < end)
			p += strlen(p) + 1;
		if (p > end)
			p = end;
	}
	while (p < end && in.nentries < MAX_ENTRIES) {
		in.entries[in.nentries++] = p;
		p += strlen(p) + 1;
	}
}

/* dl-plugin(3)'s rule for names, apart from plugin_name_is_valid. */
static int
valid_name(const char *name)
{
	size_t len = name ? strlen(name) : 0;

	return len >= 1 && len <= 32 && strspn(name, "abcdefghijklmnopqrstuvwxyz"
	    "0123456789_") == len;
}

static void
setup(void)
{
	char exe[PATH_MAX], *d, *path;
	ssize_t len;

	if ((len = readlink("/proc/self/exe", exe, sizeof exe - 1)) <= 0)
		fuzz_fail("cannot find the harness's own file");
	exe[len] = '\0';
	d = dirname(exe);
	path_of(stub, "%s/stub_plugin.so", d);
	path_of(empty_stub, "%s/stub_empty.so", d);
	/* where plugin_dirs looks first, as dl-plugin(3) says */
	path_of(real_dirs[0], "%s/../plugins", d);
	path_of(real_dirs[1], "%s/../lib/dl/plugins", d);
	if (access(stub, R_OK) == -1 || access(empty_stub, R_OK) == -1)
		fuzz_fail("no %s or %s: make builds them", stub, empty_stub);
	path_of(dir_a, "%s/a", fuzz_tmp_dir());
	path_of(dir_b, "%s/b", fuzz_tmp_dir());
	/* entries plugin_dirs must ignore: a relative one, an empty one */
	if (asprintf(&path, "%s:relative::%s", dir_a, dir_b) == -1)
		abort();
	setenv("DL_PLUGIN_PATH", path, 1);
	free(path);
}

static void
make_dir(const char *dir)
{
	if (mkdir(dir, 0700) == -1 && errno != EEXIST)
		fuzz_fail("mkdir %s: %s", dir, strerror(errno));
}

/* The file that is no shared object: the input's bytes, or for "cut:N"
 * the first N bytes of the real stub, a shared object cut short (its
 * header whole, its segments not: dlopen of one died of SIGBUS). */
static int
write_not_shared(int fd)
{
	unsigned long cut;
	char *end, bytes[65536];
	int stub_fd;
	ssize_t got;

	if (strncmp(in.not_shared, "cut:", 4) != 0 ||
	    (cut = strtoul(in.not_shared + 4, &end, 10), *end != '\0'))
		return write(fd, in.not_shared, strlen(in.not_shared)) == -1 ? -1 : 0;
	if (cut > sizeof bytes)
		cut = sizeof bytes;
	if ((stub_fd = open(stub, O_RDONLY)) == -1)
		return -1;
	got = read(stub_fd, bytes, cut);
	close(stub_fd);
	if (got == -1 || (size_t)got == cut)	/* the whole stub: not cut */
		return got == -1 ? -1 : (write(fd, bytes, (size_t)got / 2) == -1 ? -1 : 0);
	return write(fd, bytes, (size_t)got) == -1 ? -1 : 0;
}

/* DIR/NAME.so as the input says it is. */
static void
make_asked(const char *dir)
{
	char path[PATH_MAX];
	int fd;

	make_dir(dir);
	path_of(path, "%s/%s.so", dir, in.asked);
	if (in.flags & A_DIRECTORY)
		make_dir(path);
	else if (in.flags & NOT_SHARED) {
		if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1 ||
		    write_not_shared(fd) == -1 || close(fd) == -1)
			fuzz_fail("%s: %s", path, strerror(errno));
	} else if (symlink((in.flags & NO_SYMBOL) ? empty_stub : stub, path) == -1)
		fuzz_fail("symlink %s: %s", path, strerror(errno));
}

/* The listed names in dir: links to the stub for NAME.so, else files. */
static void
make_entries(const char *dir)
{
	char path[PATH_MAX];
	int fd;

	make_dir(dir);
	for (size_t i = 0; i < in.nentries; i++) {
		const char *name = in.entries[i];
		size_t len = strlen(name);
		/* no file can have such a name */
		if (len == 0 || len > NAME_MAX || strchr(name, '/') != NULL ||
		    strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		path_of(path, "%s/%s", dir, name);
		if (len > 3 && strcmp(name + len - 3, ".so") == 0) {
			if (symlink(stub, path) == -1 && errno != EEXIST)
				fuzz_fail("symlink %s: %s", path, strerror(errno));
		} else if ((fd = open(path, O_WRONLY | O_CREAT, 0600)) != -1)
			close(fd);
		else if (errno != EEXIST && errno != EISDIR)
			fuzz_fail("%s: %s", path, strerror(errno));
	}
}

/* A plugin file's directory is one of the plugin directories. */
static int
in_dir(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	return strncmp(path, dir, len) == 0 && path[len] == '/' &&
	    strchr(path + len + 1, '/') == NULL;
}

/* One of the real plugins next to the program (make's build/plugins for
 * the replay binaries) holds name: plugin_load finds it before ours. */
static int
real_plugin(const char *name)
{
	char path[PATH_MAX];

	for (int i = 0; i < 2; i++) {
		path_of(path, "%s/%s.so", real_dirs[i], name);
		if (access(path, F_OK) == 0)
			return 1;
	}
	return 0;
}


/* dl-plugin(3): version 1 with the structure up to the readers, or the
 * current version with the whole structure. */
static int
abi_accepted(uint32_t version, uint32_t size)
{
	return (version == 1 && size == DL_PLUGIN_V1_SIZE) ||
	    (version == DL_PLUGIN_ABI_VERSION && size == sizeof(struct dl_plugin));
}
/* What a host may rely on in a plugin that loaded. */
static void
check_loaded(const struct loaded_plugin *lp, const char *name)
{
	const struct dl_plugin *p = lp->plugin;
	char line[256];
	size_t len, nlen;

	if (p == NULL || lp->handle == NULL || lp->path == NULL)
		fuzz_fail("a plugin loaded from nowhere");
	if (!abi_accepted(p->abi_version, p->struct_size) ||
	    !valid_name(p->name) || strcmp(p->name, name) != 0 ||
	    !plugin_suffix_is_valid(p->suffix) || p->description == NULL ||
	    (p->kind != DL_TEXT && p->kind != DL_BINARY))
		fuzz_fail("plugin \"%s\" loaded with bad metadata", name);
	/* DIRECTORY/NAME.so, in a plugin directory */
	len = strlen(lp->path);
	nlen = strlen(name);
	if (len < nlen + 4 || strcmp(lp->path + len - 3, ".so") != 0 ||
	    strncmp(lp->path + len - 3 - nlen, name, nlen) != 0 ||
	    lp->path[len - 4 - nlen] != '/' ||
	    !(in_dir(lp->path, dir_a) || in_dir(lp->path, dir_b) ||
	    in_dir(lp->path, real_dirs[0]) || in_dir(lp->path, real_dirs[1])))
		fuzz_fail("plugin \"%s\" loaded from %s", name, lp->path);
	/* ours is the stub the harness filled in */
	/* (the host holds a copy of it: the same bytes, as far as its size) */
	if ((in_dir(lp->path, dir_a) || in_dir(lp->path, dir_b)) &&
	    memcmp(p, symbol, symbol->struct_size) != 0)
		fuzz_fail("plugin \"%s\" is not the one in %s", name, lp->path);
	/* dl-fmt --list */
	snprintf(line, sizeof line, "%-10s .%-5s %-6s %u %s", p->name, p->suffix,
	    p->kind == DL_TEXT ? "text" : "binary", p->max_board, p->description);
}

static void
each(void *unused, const struct loaded_plugin *lp, const struct dl_error *broken)
{
	(void)unused;
	if ((lp == NULL) == (broken == NULL))
		fuzz_fail("plugin_each passed %s", lp ? "a plugin and an error" : "nothing");
	if (broken != NULL) {
		fuzz_check_error(broken, "plugin_each");
		return;
	}
	check_loaded(lp, lp->plugin->name);
	for (size_t i = 0; i < nlisted; i++)
		if (strcmp(listed[i], lp->plugin->name) == 0)
			fuzz_fail("plugin \"%s\" listed twice", listed[i]);
	if (nlisted == sizeof listed / sizeof *listed)
		fuzz_fail("more plugins listed than there are");
	if ((listed[nlisted++] = strdup(lp->plugin->name)) == NULL)
		abort();
}

/* What plugin_load finds for in.asked, in the directories' order: the file
 * the flags say, a link to the stub among the listed names, or nothing. */
enum { NOT_FOUND, AS_FLAGGED, AS_LISTED };

static int
listed_name(const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < in.nentries; i++)
		if (strncmp(in.entries[i], name, len) == 0 &&
		    strcmp(in.entries[i] + len, ".so") == 0)
			return 1;
	return 0;
}

static int
found(unsigned where)
{
	if (!valid_name(in.asked))
		return NOT_FOUND;
	if (where == IN_A || where == IN_BOTH)
		return AS_FLAGGED;
	if ((in.dirs & LIST_A) && listed_name(in.asked))
		return AS_LISTED;
	if (where == IN_B)
		return AS_FLAGGED;
	if ((in.dirs & LIST_B) && listed_name(in.asked))
		return AS_LISTED;
	return NOT_FOUND;
}

/* Whether plugin_load(in.asked) must succeed. */
static int
loads(int how)
{
	return how != NOT_FOUND &&
	    (how == AS_LISTED || !(in.flags & (A_DIRECTORY | NOT_SHARED | NO_SYMBOL))) &&
	    abi_accepted(symbol->abi_version, symbol->struct_size) &&
	    valid_name(symbol->name) &&
	    strcmp(symbol->name, in.asked) == 0 && plugin_suffix_is_valid(symbol->suffix) &&
	    symbol->description != NULL && (in.kind == DL_TEXT || in.kind == DL_BINARY);
}

/* The stub's metadata as the input says, and the bytes past the size it
 * claims out of bounds for the sanitizers until the host has checked it
 * (the first two words every ABI version has). */
static size_t
fill_symbol(void)
{
	size_t size = in.struct_size < sizeof *symbol ? in.struct_size : sizeof *symbol;

	memset(symbol, 0, sizeof *symbol);
	symbol->abi_version = in.abi_version;
	symbol->struct_size = in.struct_size;
	symbol->name = (in.flags & NO_NAME) ? NULL : in.name;
	symbol->suffix = (in.flags & NO_SUFFIX) ? NULL : in.suffix;
	symbol->description = (in.flags & NO_DESCRIPTION) ? NULL : in.description;
	symbol->kind = (enum dl_kind)in.kind;
	symbol->max_board = in.max_board;
	if (size < 2 * sizeof(uint32_t))
		size = 2 * sizeof(uint32_t);
	if (size < sizeof *symbol && __asan_poison_memory_region != NULL)
		__asan_poison_memory_region((char *)symbol + size, sizeof *symbol - size);
	return size;
}

static void
unpoison(void)
{
	/* before anyone else reads it, and before the stub is unloaded: the
	 * marks would outlive the mapping */
	if (__asan_unpoison_memory_region != NULL)
		__asan_unpoison_memory_region(symbol, sizeof *symbol);
}

/* Nothing of the host's may keep a stub open once it is done. */
static void
check_closed(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);

	if (h != NULL)
		fuzz_fail("%s is still open after plugin_load and plugin_each", path);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct loaded_plugin lp = { 0 };
	struct dl_error e = { 0 };
	char *text = malloc(size + 1);
	unsigned where;
	void *own;
	int got;

	if (text == NULL)
		abort();
	if (!ready) {
		setup();
		ready = 1;
	}
	parse_input(data, size, text);
	where = in.flags >> 6;

	fuzz_remove_tree(dir_a);
	fuzz_remove_tree(dir_b);
	if (valid_name(in.asked) && (where == IN_A || where == IN_BOTH))
		make_asked(dir_a);
	if (valid_name(in.asked) && (where == IN_B || where == IN_BOTH))
		make_asked(dir_b);
	if (in.dirs & LIST_A)
		make_entries(dir_a);
	if (in.dirs & LIST_B)
		make_entries(dir_b);

	/* the harness's own hold on the stub, to fill in its dl_plugin */
	if ((own = dlopen(stub, RTLD_NOW | RTLD_LOCAL)) == NULL ||
	    (symbol = dlsym(own, DL_PLUGIN_SYMBOL)) == NULL)
		fuzz_fail("%s: %s", stub, dlerror());
	fill_symbol();
	got = plugin_load(in.asked, &lp, &e);
	unpoison();
	if (got == 0) {
		check_loaded(&lp, in.asked);
		plugin_unload(&lp);
		if (lp.plugin != NULL || lp.path != NULL || lp.handle != NULL)
			fuzz_fail("plugin_unload left the plugin");
	} else {
		fuzz_check_error(&e, "plugin_load");
		if (lp.plugin != NULL || lp.path != NULL || lp.handle != NULL)
			fuzz_fail("plugin_load failed and kept the plugin");
	}
	if (!valid_name(in.asked) || !real_plugin(in.asked)) {
		int how = found(where), want = loads(how);
		if ((got == 0) != want)
			fuzz_fail("plugin \"%.40s\" %s", in.asked, want ?
			    "did not load" : "loaded against the rules");
		/* a bad name, or none found: the command line was wrong; a
		 * plugin found and refused: the system's */
		if (got == -1 && e.kind != (how == NOT_FOUND ? DL_ERR_USAGE : DL_ERR_SYSTEM))
			fuzz_fail("plugin_load: error kind %d for \"%s\"", (int)e.kind, e.msg);
	}
	if (size % 2) {
		fill_symbol();
		plugin_each(each, NULL);
		unpoison();
		for (size_t i = 0; i < nlisted; i++)
			free(listed[i]);
		nlisted = 0;
	}
	if (dlclose(own) != 0)
		fuzz_fail("dlclose: %s", dlerror());
	symbol = NULL;
	check_closed(stub);
	check_closed(empty_stub);
	free(text);
	return 0;
}
