/* dl-web's settings file (/etc/dl/dl-web.conf): lines KEY = VALUE, each
 * key one of the environment variables dl-web reads (web_config_keys),
 * comments from a # that begins a line.  dl-web reads it at the start of
 * every request and sets each key in its environment that the web server
 * did not set there: the server's environment wins.  dl-web(1),
 * "CONFIGURATION"; docs/web.md.
 *
 * The file is refused whole, with the reason, when it is not root's (or
 * the user's running dl-web: a test, make serve), when a user but its
 * owner may write it or any user outside its group may read it (a shared
 * archive's connection string may hold a password), or when a line is not
 * KEY = VALUE, names a key not in web_config_keys or one given before.  A
 * message never quotes a value.
 *
 * Threads: the main flow's, one thread at a time (it changes the
 * process's environment). */
#ifndef DL_WEB_CONFIG_H
#define DL_WEB_CONFIG_H

#include "base/error.h"

/* read when DL_WEB_CONFIG is not set (set and empty: no file is read) */
#define WEB_CONFIG_PATH "/etc/dl/dl-web.conf"
/* a longer file is refused */
#define WEB_CONFIG_MAX (64 * 1024)

/* The keys a file may set, NULL-terminated. */
extern const char *const web_config_keys[];

/* The file DL_WEB_CONFIG names (which must exist), else WEB_CONFIG_PATH
 * when it exists, else none: 0, with each of its keys the environment
 * does not hold (or holds empty) set there.  -1 and e: nothing set. */
int web_config_load(struct dl_error *e);

/* The same for the file at path, which must exist. */
int web_config_load_file(const char *path, struct dl_error *e);

#endif
