/* Text from the stream in pages for people (html, pdf).  Whatever a header
 * says (#I:, #S:, #D:, #T:, ...) was written by someone else: the host
 * checks only that it is one line of printable UTF-8, so it may hold any
 * character markup gives a meaning to, and a writer that sets it in
 * markup escapes it there.  A writer that shows part of a value (the
 * first ten characters of #T:) cuts it between characters, never inside
 * one.  And should anything else ever get through (a check the host
 * missed, a value a writer cut wrongly), text_char() makes it harmless:
 * a control character shows as a space, a byte that is not UTF-8 as
 * U+FFFD, so a header is never dropped whole, as Pango drops markup that
 * is not valid UTF-8.  Header-only, as plugins call nothing in the
 * host. */
#ifndef DL_PLUGINS_UNTRUSTED_H
#define DL_PLUGINS_UNTRUSTED_H

#include <stddef.h>
#include <string.h>

#include "dl/plugin.h"

/* U+FFFD, the replacement character, in UTF-8 */
#define TEXT_REPLACEMENT "\xef\xbf\xbd"

enum text_kind {
	TEXT_CHAR,	/* a printable character: set it as it is */
	TEXT_SPACE,	/* set a space instead */
	TEXT_INVALID,	/* a byte that begins no UTF-8 character: set U+FFFD */
};

/* What the character at s (not the NUL that ends s) is, its length in
 * *len.  TEXT_SPACE for a control character (C0, DEL, C1), for U+2028
 * and U+2029 (a header is one line: Pango would break it there and run it
 * into what is drawn below) and for the bidirectional controls, which
 * would reorder the text after them; TEXT_INVALID, length 1, for a byte
 * that is not the start of a shortest-form UTF-8 sequence of a character
 * (U+D800 to U+DFFF and past U+10FFFF are none). */
static inline enum text_kind
text_char(const char *s, size_t *len)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned long cp;
	size_t need;

	*len = 1;
	if (p[0] < 0x80)
		return p[0] < 0x20 || p[0] == 0x7f ? TEXT_SPACE : TEXT_CHAR;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		need = 1;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		need = 2;
		cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		need = 3;
		cp = p[0] & 0x07;
	} else
		return TEXT_INVALID;
	/* the NUL at the end is no continuation byte: never read past it */
	for (size_t i = 1; i <= need; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return TEXT_INVALID;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return TEXT_INVALID;
	*len = need + 1;
	if ((cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	    cp == 0x200e || cp == 0x200f || cp == 0x061c)
		return TEXT_SPACE;
	return TEXT_CHAR;
}

/* The day the deals were made, from "#T: 2026-11-24T19:30:00Z": the
 * first ten characters of the value (a byte that is not UTF-8 counting as
 * one), when it has as many; else "".  As the stream has it: whoever sets
 * it in markup escapes it. */
#define DEALT_DAY_CHARS 10
#define DEALT_DAY_MAX (4 * DEALT_DAY_CHARS + 1)
static inline void
dealt_day(const struct dl_run *run, char day[DEALT_DAY_MAX])
{
	day[0] = '\0';
	for (size_t i = 0; i < run->nheaders; i++) {
		const char *value, *end;
		unsigned chars = 0;
		size_t len;

		if (strncmp(run->headers[i], "#T: ", 4) != 0)
			continue;
		value = end = run->headers[i] + 4;
		for (; *end != '\0' && chars < DEALT_DAY_CHARS; end += len, chars++)
			text_char(end, &len);
		if (chars == DEALT_DAY_CHARS) {
			memcpy(day, value, (size_t)(end - value));
			day[end - value] = '\0';
		}
	}
}

#endif
