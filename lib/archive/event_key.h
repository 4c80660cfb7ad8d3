/* An event's key: what the archive counts an event's sets by, so that
 * "Tuesday Pairs" is one event however it is typed: with spaces before,
 * after or doubled, a non-breaking or zero-width space, other capitals, a
 * Cyrillic letter that looks Latin, a fullwidth form (event_key.c says
 * how).  The name as typed is kept and shown; the key only counts.
 *
 * Threads: a keyer is one thread's. */
#ifndef DL_EVENT_KEY_H
#define DL_EVENT_KEY_H

#include "base/error.h"

struct event_keyer;

struct event_keyer *event_keyer_new(struct dl_error *e);
void event_keyer_free(struct event_keyer *k);
/* The key of event (UTF-8) into *key, allocated. */
int event_key(struct event_keyer *k, const char *event, char **key, struct dl_error *e);

#endif
