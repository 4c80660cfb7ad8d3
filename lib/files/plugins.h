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
/* A plugin's suffix: the same characters, at most 16: part of a file name. */
int plugin_suffix_is_valid(const char *suffix);
/* Closes a loaded plugin: nothing of it may be used after. */
void plugin_unload(struct loaded_plugin *lp);
/* Calls fn for every plugin, each name once, in directory order, with arg:
 * with the loaded plugin, or for a broken one with lp NULL and what is
 * wrong. */
void plugin_each(void (*fn)(void *arg, const struct loaded_plugin *lp,
    const struct dl_error *broken), void *arg);

#endif
