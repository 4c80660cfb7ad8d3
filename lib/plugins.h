/* Finding and loading format-writer plugins (dl-plugin(3)). */
#ifndef DL_PLUGINS_H
#define DL_PLUGINS_H

#include "dl/plugin.h"

struct loaded_plugin {
	const struct dl_plugin *plugin;
	char *path;
	void *handle;
};

/* Loads the plugin NAME from the plugin directories, or exits with a
 * message naming the file and what is wrong with it. */
void plugin_load(const char *name, struct loaded_plugin *lp);
/* The same without exiting: NULL, or the message (to free). */
char *plugin_try_load(const char *name, struct loaded_plugin *lp);
/* Closes a loaded plugin: nothing of it may be used after. */
void plugin_unload(struct loaded_plugin *lp);
/* Calls fn for every loadable plugin, each name once, in directory order;
 * broken plugins are reported on stderr and skipped. */
void plugin_each(void (*fn)(const struct loaded_plugin *lp));

#endif
