/* Format lists as users write them: "pbn,lin,dup".  The one parser of
 * format lists, for -f, .bigdealrc's formats= and dl-sqd.
 *
 * Threads: no state; any thread. */
#ifndef DL_FORMAT_LIST_H
#define DL_FORMAT_LIST_H

#include <stddef.h>

#include "base/error.h"

struct format_list {
	char **names;
	size_t n;
};
/* Refuses an empty list or an empty entry ("pbn,", "a,,b"): -1, *e. */
int format_list_parse(const char *text, struct format_list *list, struct dl_error *e);
void format_list_free(struct format_list *list);
/* The entries as written, empty ones too, at most max of them (the rest
 * ignored): for readers as lenient as Big Deal, which decide entry by
 * entry. */
void format_list_split(const char *text, size_t max, struct format_list *list);
/* The list joined with commas (to free). */
char *format_list_text(const struct format_list *list);

#endif
