/* A shared object for fuzz_plugin: its dl_plugin is writable and empty,
 * and the harness fills it in with each input's metadata before the host
 * loads it.  Data only: nothing here runs. */
#include "dl/plugin.h"

struct dl_plugin dl_plugin;
