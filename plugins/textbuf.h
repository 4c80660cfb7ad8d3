/* A board's text gathered in a buffer and handed to the host in one write:
 * the host's write and print calls cost more than the bytes they carry
 * when a board is a few dozen of them (docs/performance.md). */
#ifndef DL_PLUGINS_TEXTBUF_H
#define DL_PLUGINS_TEXTBUF_H

#include <string.h>

#include "dl/plugin.h"

#define TEXTBUF_SIZE 2048

struct textbuf {
	struct dl_out *out;
	size_t n;
	char *text;		/* TEXTBUF_SIZE bytes */
};

/* Declares textbuf NAME writing to out, its bytes apart and left
 * uninitialised: zeroing 2 KiB would cost more than writing a board. */
#define TEXTBUF(name, o)						\
	char name##_text[TEXTBUF_SIZE];					\
	struct textbuf name = { .out = (o), .n = 0, .text = name##_text }

static inline void
textbuf_flush(struct textbuf *tb)
{
	if (tb->n > 0)
		tb->out->write(tb->out, tb->text, tb->n);
	tb->n = 0;
}

static inline void
textbuf_add(struct textbuf *tb, const char *bytes, size_t len)
{
	if (len > TEXTBUF_SIZE - tb->n) {
		textbuf_flush(tb);
		if (len > TEXTBUF_SIZE) {
			tb->out->write(tb->out, bytes, len);
			return;
		}
	}
	memcpy(tb->text + tb->n, bytes, len);
	tb->n += len;
}

/* Room for len bytes (at most TEXTBUF_SIZE) written in place, then
 * counted by textbuf_wrote. */
static inline char *
textbuf_room(struct textbuf *tb, size_t len)
{
	if (len > TEXTBUF_SIZE - tb->n)
		textbuf_flush(tb);
	return tb->text + tb->n;
}

static inline void
textbuf_wrote(struct textbuf *tb, size_t len)
{
	tb->n += len;
}

/* a string literal */
#define TEXTBUF_ADD(tb, literal) textbuf_add((tb), (literal), sizeof(literal) - 1)

static inline void
textbuf_char(struct textbuf *tb, char c)
{
	if (tb->n == TEXTBUF_SIZE)
		textbuf_flush(tb);
	tb->text[tb->n++] = c;
}

static inline void
textbuf_unsigned(struct textbuf *tb, unsigned long v)
{
	char digits[20];
	size_t n = sizeof digits;

	do
		digits[--n] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	textbuf_add(tb, digits + n, sizeof digits - n);
}

/* count copies of byte: the fixed padding of the binary formats */
static inline void
textbuf_fill(struct textbuf *tb, char byte, size_t count)
{
	while (count > 0) {
		size_t n = TEXTBUF_SIZE - tb->n;
		if (n == 0) {
			textbuf_flush(tb);
			continue;
		}
		if (n > count)
			n = count;
		memset(tb->text + tb->n, byte, n);
		tb->n += n;
		count -= n;
	}
}

/* Two digits, with a leading zero: "07". */
static inline void
textbuf_two_digits(struct textbuf *tb, unsigned v)
{
	char two[2] = { (char)('0' + v / 10 % 10), (char)('0' + v % 10) };

	textbuf_add(tb, two, 2);
}

#endif
