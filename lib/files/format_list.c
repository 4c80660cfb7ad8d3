#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "files/format_list.h"
#include "base/util.h"

void
format_list_split(const char *text, size_t max, struct format_list *list)
{
	const char *p = text;

	memset(list, 0, sizeof *list);
	for (;;) {
		size_t len = strcspn(p, ",");
		if (list->n == max)
			return;
		list->names = xreallocarray(list->names, list->n + 1, sizeof *list->names);
		list->names[list->n++] = xstrndup(p, len);
		if (p[len] == '\0')
			return;
		p += len + 1;
	}
}

int
format_list_parse(const char *text, struct format_list *list, struct dl_error *e)
{
	format_list_split(text, SIZE_MAX, list);
	for (size_t i = 0; i < list->n; i++)
		if (*list->names[i] == '\0') {
			format_list_free(list);
			return dl_error_set(e, DL_ERR_USAGE, "bad format list \"%s\"", text);
		}
	return 0;
}

void
format_list_free(struct format_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		free(list->names[i]);
	free(list->names);
	list->names = NULL;
	list->n = 0;
}

char *
format_list_text(const struct format_list *list)
{
	size_t size = 1;
	char *text;

	for (size_t i = 0; i < list->n; i++)
		size += strlen(list->names[i]) + 1;
	text = xcalloc(1, size);
	for (size_t i = 0; i < list->n; i++) {
		if (i > 0)
			strlcat(text, ",", size);
		strlcat(text, list->names[i], size);
	}
	return text;
}
