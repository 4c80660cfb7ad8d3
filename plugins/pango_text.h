/* Text from the stream (untrusted.h) as Pango and cairo take it, for the
 * pdf and tablecards writers: valid UTF-8 (Pango drops text that is not,
 * with a warning on the terminal; cairo fails the file), a control
 * character as a space, a byte that is not UTF-8 as U+FFFD.  It is drawn
 * as text, never read as markup (to g_free). */
#ifndef DL_PLUGINS_PANGO_TEXT_H
#define DL_PLUGINS_PANGO_TEXT_H

#include <string.h>

#include <pango/pangocairo.h>

#include "untrusted.h"

static inline gchar *
plain_text(const char *s)
{
	GString *text = g_string_sized_new(strlen(s));
	size_t len;

	for (; *s != '\0'; s += len)
		switch (text_char(s, &len)) {
		case TEXT_CHAR: g_string_append_len(text, s, (gssize)len); break;
		case TEXT_SPACE: g_string_append_c(text, ' '); break;
		case TEXT_INVALID: g_string_append(text, TEXT_REPLACEMENT); break;
		}
	return g_string_free(text, FALSE);
}

#endif
