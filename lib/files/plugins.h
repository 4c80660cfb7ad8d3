/* Finding and loading format-writer plugins (dl-plugin(3)).
 *
 * Threads: every function may be called from several threads at once:
 * nothing is kept between calls, and dlopen, dlerror (whose message is the
 * thread's) and strtok_r are safe there.  Whether a loaded plugin's
 * callbacks may run on several threads is the plugin's to say
 * (DL_CONCURRENT, dl/plugin.h). */
#ifndef DL_PLUGINS_H
#define DL_PLUGINS_H

#include "dl/plugin.h"
#include "base/error.h"

struct loaded_plugin {
	const struct dl_plugin *plugin;
	char *path;
	void *handle;
};

/* Loads the plugin NAME from the plugin directories; -1 with *e naming
 * the file and what is wrong with it. */
int plugin_load(const char *name, struct loaded_plugin *lp, struct dl_error *e);
/* A writer built into the program (the drop-ins' bigdeal_stats.h) by the
 * name NAME in builtins (NULL-terminated; NULL for none), loaded as a
 * plugin is, for plugin_unload: 0, or -1 when there is none by that name
 * (plugin_load's to find). */
int plugin_load_builtin(const char *name, const struct dl_plugin *const *builtins,
    struct loaded_plugin *lp);
/* A plugin's name: 1 to 32 of a-z, 0-9 and '_'. */
int plugin_name_is_valid(const char *name);
/* A plugin's suffix, at most 16 bytes: a name as above, or two parted by
 * one dot ("cards.pdf"): part of a file name, never "..", "/" or a dot
 * first or last. */
int plugin_suffix_is_valid(const char *suffix);
/* Closes a loaded plugin: nothing of it may be used after. */
void plugin_unload(struct loaded_plugin *lp);
/* Calls fn for every plugin, each name once, in directory order, with arg:
 * with the loaded plugin, or for a broken one with lp NULL and what is
 * wrong. */
void plugin_each(void (*fn)(void *arg, const struct loaded_plugin *lp,
    const struct dl_error *broken), void *arg);
/* The same, passing over (never loading) the plugins a directory's index
 * says are writers alone: fn still sees a plugin that does not read when
 * no index knows it. */
void plugin_each_reader(void (*fn)(void *arg, const struct loaded_plugin *lp,
    const struct dl_error *broken), void *arg);

/* The index of a plugin directory (docs/plugins.md, "The index"): the file
 * PLUGIN_INDEX_NAME beside the plugins, made by dl-read --index, which
 * says of each plugin its suffix and whether it reads, so that telling a
 * file's format need not load every plugin, writers with their libraries
 * among them.  It is only ever a short cut: a plugin it does not name, or
 * one newer than it, is loaded to be asked, and an index that is not
 * trusted as a plugin is (the same owners and modes) or not well formed
 * is not read at all. */
#define PLUGIN_INDEX_NAME "plugins.index"

enum plugin_role {
	PLUGIN_ROLE_UNKNOWN,	/* no index says: loaded to be asked */
	PLUGIN_READS,		/* reads its format (and may write it) */
	PLUGIN_WRITES_ONLY,	/* a writer alone: never loaded to read */
};

/* A plugin found, not loaded. */
struct plugin_entry {
	char *name;
	char *path;		/* DIR/NAME.so */
	enum plugin_role role;
	char *suffix;		/* the index's when role is known, else NULL */
};

/* Every plugin of the directories as plugin_each visits them: each name
 * once (the first directory's), in directory order, sorted by name within
 * a directory. */
struct plugin_catalogue {
	struct plugin_entry *entries;
	size_t n;
};

/* The catalogue, with what the directories' indexes say when
 * use_indexes, else every role PLUGIN_ROLE_UNKNOWN. */
void plugin_catalogue_make(struct plugin_catalogue *c, int use_indexes);
void plugin_catalogue_free(struct plugin_catalogue *c);
/* Loads an entry as plugin_load loads a plugin: 0, or -1 with *e. */
int plugin_load_entry(const struct plugin_entry *entry, struct loaded_plugin *lp,
    struct dl_error *e);
/* Whether the loaded plugin is what its index said it is (always, for a
 * role PLUGIN_ROLE_UNKNOWN): when not, the index is out of date and a
 * caller must not trust what it says of the others either. */
int plugin_entry_agrees(const struct plugin_entry *entry, const struct loaded_plugin *lp);
/* What the index of the directory plugin_load would load NAME from says
 * of it. */
enum plugin_role plugin_role_of(const char *name);
/* Writes DIR's index from its plugins, each loaded (with every check
 * plugin_load makes) and asked; a plugin that cannot be loaded is left
 * out, so that the tools load it and refuse it as before, and passed to
 * broken with what is wrong (NULL: nothing said).  0, or -1 with *e when
 * the index cannot be written. */
int plugin_index_write(const char *dir, void (*broken)(void *arg, const struct dl_error *e),
    void *arg, struct dl_error *e);

#endif
