/* A shared object for fuzz_plugin that is no plugin: it loads, and has no
 * dl_plugin symbol. */
int dl_not_a_plugin;
