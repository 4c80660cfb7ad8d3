/* Loading a format-writer plugin (lib/plugins.c): the checks of a struct
 * dl_plugin's metadata (ABI version, structure size, name, suffix,
 * description, kind), the search of the plugin directories, and the
 * listing of every plugin, dl-fmt --list.
 *
 * lib/plugins.c is compiled here, with dlopen(3), dlsym(3), access(2) and
 * readdir(3) replaced by fakes that serve what the input describes, so
 * that the checks meet any metadata without a shared object per input.
 * The input: a flags byte, a byte of directory bits, four 32-bit words
 * (ABI version and structure size, each XORed with the right value so
 * that zeros make a valid plugin; kind; max_board), then NUL-separated
 * strings: the name asked for, the plugin's name, suffix and description,
 * dlerror's message, and the names in each plugin directory. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static void *fake_dlopen(const char *path, int flags);
static void *fake_dlsym(void *handle, const char *symbol);
static int fake_dlclose(void *handle);
static char *fake_dlerror(void);
static int fake_access(const char *path, int mode);
static DIR *fake_opendir(const char *path);
static struct dirent *fake_readdir(DIR *dir);
static int fake_closedir(DIR *dir);

#define dlopen fake_dlopen
#define dlsym fake_dlsym
#define dlclose fake_dlclose
#define dlerror fake_dlerror
#define access fake_access
#define opendir fake_opendir
#define readdir fake_readdir
#define closedir fake_closedir
#include "../../lib/plugins.c"
#undef dlopen
#undef dlsym
#undef dlclose
#undef dlerror
#undef access
#undef opendir
#undef readdir
#undef closedir

enum {
	DLOPEN_FAILS = 1 << 0,
	NO_SYMBOL = 1 << 1,
	NO_SUFFIX = 1 << 2,
	NO_DESCRIPTION = 1 << 3,
	NO_NAME = 1 << 4,
	NO_DLERROR = 1 << 5,
	/* bits 6-7: the directory holding the plugin asked for */
};

#define STRINGS 5
#define MAX_ENTRIES 64

static struct {
	unsigned flags, dirs;
	uint32_t abi_version, struct_size, kind, max_board;
	const char *asked;		/* the name given to plugin_try_load */
	const char *name, *suffix, *description, *dlerror;
	const char *entries[MAX_ENTRIES];	/* of each directory */
	size_t nentries;
	/* the plugin as its shared object would export it: no bigger than it
	 * says, so that a field read before its size is checked shows */
	struct dl_plugin *symbol;
	int handles;			/* dlopen'ed and not dlclose'd */
	int loaded;			/* passed to the callback by plugin_each */
} in;

static char handle_token, dir_tokens[4];
static size_t next_entry;

/* The index of the plugin directory path is in, or -1. */
static int
dir_index(const char *path)
{
	char **dirs = plugin_dirs();

	for (int i = 0; dirs[i] != NULL && i < 4; i++) {
		size_t len = strlen(dirs[i]);
		if (strncmp(path, dirs[i], len) == 0 && (path[len] == '/' || path[len] == '\0'))
			return i;
	}
	return -1;
}

static void *
fake_dlopen(const char *path, int flags)
{
	(void)flags;
	if (dir_index(path) == -1)
		fuzz_fail("dlopen of \"%s\", outside the plugin directories", path);
	if (in.flags & DLOPEN_FAILS)
		return NULL;
	in.handles++;
	return &handle_token;
}

static void *
fake_dlsym(void *handle, const char *symbol)
{
	if (handle != &handle_token)
		fuzz_fail("dlsym on a handle dlopen did not give");
	if (strcmp(symbol, DL_PLUGIN_SYMBOL) != 0 || (in.flags & NO_SYMBOL))
		return NULL;
	return in.symbol;
}

static int
fake_dlclose(void *handle)
{
	if (handle != &handle_token || in.handles == 0)
		fuzz_fail("dlclose of a handle not open");
	in.handles--;
	return 0;
}

static char *
fake_dlerror(void)
{
	return (in.flags & NO_DLERROR) ? NULL : (char *)in.dlerror;
}

static int
fake_access(const char *path, int mode)
{
	(void)mode;
	if (dir_index(path) != (int)(in.flags >> 6)) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

static DIR *
fake_opendir(const char *path)
{
	int i = dir_index(path);

	if (i == -1 || !(in.dirs & 1u << i))
		return NULL;
	next_entry = 0;
	return (DIR *)&dir_tokens[i];
}

static struct dirent *
fake_readdir(DIR *dir)
{
	static struct dirent e;

	(void)dir;
	/* a directory holds no name with a '/', and none longer than NAME_MAX */
	while (next_entry < in.nentries) {
		const char *name = in.entries[next_entry++];
		if (*name == '\0' || strchr(name, '/') != NULL || strlen(name) >= sizeof e.d_name)
			continue;
		memset(&e, 0, sizeof e);
		strcpy(e.d_name, name);
		return &e;
	}
	return NULL;
}

static int
fake_closedir(DIR *dir)
{
	(void)dir;
	return 0;
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
	    &in.description, &in.dlerror };
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

/* The symbol: a copy of the metadata in a block of the size it claims
 * (at least the two words every ABI version begins with). */
static struct dl_plugin *
make_symbol(void)
{
	struct dl_plugin p = {
		.abi_version = in.abi_version,
		.struct_size = in.struct_size,
		.name = (in.flags & NO_NAME) ? NULL : in.name,
		.suffix = (in.flags & NO_SUFFIX) ? NULL : in.suffix,
		.description = (in.flags & NO_DESCRIPTION) ? NULL : in.description,
		.kind = (enum dl_kind)in.kind,
		.max_board = in.max_board,
	};
	size_t size = in.struct_size < sizeof p ? in.struct_size : sizeof p;
	struct dl_plugin *copy;

	if (size < 2 * sizeof(uint32_t))
		size = 2 * sizeof(uint32_t);
	if ((copy = malloc(size)) == NULL)
		abort();
	memcpy(copy, &p, size);
	return copy;
}

/* What a host may rely on in a plugin that loaded. */
static void
check_loaded(const struct loaded_plugin *lp, const char *name)
{
	const struct dl_plugin *p = lp->plugin;
	char line[256];
	size_t len, nlen;

	if (p != in.symbol || lp->handle != &handle_token || lp->path == NULL)
		fuzz_fail("a plugin loaded from nowhere");
	if (p->abi_version != DL_PLUGIN_ABI_VERSION || p->struct_size != sizeof *p ||
	    !name_is_valid(p->name) || strcmp(p->name, name) != 0 ||
	    p->suffix == NULL || p->description == NULL ||
	    (p->kind != DL_TEXT && p->kind != DL_BINARY))
		fuzz_fail("plugin \"%s\" loaded with bad metadata", name);
	/* DIRECTORY/NAME.so */
	len = strlen(lp->path);
	nlen = strlen(name);
	if (len < nlen + 4 || strcmp(lp->path + len - 3, ".so") != 0 ||
	    strncmp(lp->path + len - 3 - nlen, name, nlen) != 0 ||
	    lp->path[len - 4 - nlen] != '/' || dir_index(lp->path) == -1)
		fuzz_fail("plugin \"%s\" loaded from %s", name, lp->path);
	/* dl-fmt --list */
	snprintf(line, sizeof line, "%-10s .%-5s %-6s %u %s", p->name, p->suffix,
	    p->kind == DL_TEXT ? "text" : "binary", p->max_board, p->description);
}

static void
each_loaded(const struct loaded_plugin *lp)
{
	in.loaded++;
	check_loaded(lp, lp->plugin->name);
}

struct run {
	int listed;
};

static void
load(void *arg)
{
	struct run *run = arg;
	struct loaded_plugin lp = { 0 };
	char *why = plugin_try_load(in.asked, &lp);

	if (why == NULL) {
		check_loaded(&lp, in.asked);
		plugin_unload(&lp);
	} else if (*why == '\0')
		fuzz_fail("plugin_try_load failed without a message");
	if (in.handles != 0)
		fuzz_fail("a plugin is still open after %s", why ? "failing" : "plugin_unload");
	free(why);
	if (run->listed) {
		plugin_each(each_loaded);
		/* a plugin that failed is closed; one listed may stay open */
		if (in.handles > in.loaded)
			fuzz_fail("%d plugins listed, %d left open", in.loaded, in.handles);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct run run = { size % 2 };
	char *text = malloc(size + 1);

	if (!ready) {
		/* two absolute directories, and entries plugin_dirs ignores */
		setenv("DL_PLUGIN_PATH", "/fuzz/a:relative::/fuzz/b", 1);
		plugin_dirs();	/* kept for good: made before any call */
		ready = 1;
	}
	if (text == NULL)
		abort();
	parse_input(data, size, text);
	in.symbol = make_symbol();
	if (fuzz_call(load, &run) == -1)
		fuzz_fail("plugin loading ended the program: %s", fuzz_message);
	free(in.symbol);
	free(text);
	return 0;
}
