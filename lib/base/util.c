#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <unistd.h>

#include <sodium.h>

#include "base/cleanup.h"
#include "base/util.h"

/* The one way lib/ ends the process: no tool can go on without memory,
 * and every caller checking would hide the real work. */
static void __attribute__((noreturn))
out_of_memory(void)
{
	fputs("out of memory\n", stderr);
	exit(2);
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	p = reallocarray(p, n ? n : 1, size ? size : 1);
	if (p == NULL)
		out_of_memory();
	return p;
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		out_of_memory();
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		out_of_memory();
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n == -1)
		out_of_memory();
	return p;
}

/* Two digits a division: board numbers are printed millions of times. */
char *
put_unsigned(char *p, unsigned long v)
{
	static const char pairs[] =
	    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	    "8081828384858687888990919293949596979899";
	char digits[20];
	int n = sizeof digits;

	while (v >= 100) {
		unsigned pair = (unsigned)(v % 100);
		v /= 100;
		digits[--n] = pairs[2 * pair + 1];
		digits[--n] = pairs[2 * pair];
	}
	if (v >= 10) {
		digits[--n] = pairs[2 * v + 1];
		digits[--n] = pairs[2 * v];
	} else
		digits[--n] = (char)('0' + v);
	memcpy(p, digits + n, sizeof digits - (size_t)n);
	return p + sizeof digits - n;
}

size_t
utf8_sequence(const unsigned char *s, size_t n, uint32_t *codepoint)
{
	size_t need;
	uint32_t cp;

	if (n == 0)
		return 0;
	if (s[0] < 0x80) {
		*codepoint = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 1, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		need = 2, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		need = 3, cp = s[0] & 0x07;
	else
		return 0;
	if (n - 1 < need)
		return 0;
	for (size_t i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	*codepoint = cp;
	return need + 1;
}

int
utf8_is_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;

	for (size_t i = 0, n; i < len; i += n)
		if ((n = utf8_sequence(p + i, len - i, &cp)) == 0)
			return 0;
	return 1;
}

size_t
utf8_printable_sequence(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len = utf8_sequence(s, n, &cp);

	/* C0 and C1 controls, DEL; the bidirectional embeddings, overrides,
	 * isolates and marks, which reorder what follows them on screen */
	if (len == 0 || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	    cp == 0x200e || cp == 0x200f || cp == 0x061c)
		return 0;
	return len;
}

int
text_is_printable(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0, n; i < len; i += n)
		if ((n = utf8_printable_sequence(p + i, len - i)) == 0)
			return 0;
	return 1;
}

int
text_is_plain_ascii(const char *s, size_t len)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t bad = 0, x, del;
	size_t i = 0;

	/* per byte b: the high bit of b itself (0x80 and up), of b - 0x20
	 * where b has none (below 0x20), and of the zero test of b ^ 0x7f
	 * (DEL).  A borrow out of one byte can mark the byte above it, but
	 * only when that byte below is bad already: the word's answer is
	 * exact, which is all that is asked. */
	for (; i + 8 <= len; i += 8) {
		memcpy(&x, s + i, 8);
		del = x ^ (0x7f * ones);
		bad |= x | ((x - 0x20 * ones) & ~x) | ((del - ones) & ~del);
	}
	for (; i < len; i++)
		bad |= (unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e ? highs : 0;
	return (bad & highs) == 0;
}

int
decimal_parse(const char *text, size_t len, long long min, long long max,
    long long *value)
{
	char digits[24];
	const char *why;

	if (len == 0 || len >= sizeof digits || strspn(text, "0123456789") < len)
		return -1;
	memcpy(digits, text, len);
	digits[len] = '\0';
	*value = strtonum(digits, min, max, &why);
	return why == NULL ? 0 : -1;
}

int
u64_parse(const char *text, uint64_t max, uint64_t *value, const char **why)
{
	uint64_t v = 0;
	const char *p = text;

	if (*p == '\0') {
		*why = "invalid";
		return -1;
	}
	if (*p == '-' && p[1] >= '0' && p[1] <= '9' && p[strspn(p + 1, "0123456789") + 1] == '\0') {
		*why = "too small";
		return -1;
	}
	for (; *p != '\0'; p++) {
		if (*p < '0' || *p > '9') {
			*why = "invalid";
			return -1;
		}
		unsigned digit = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - digit) / 10 || v * 10 + digit > max) {
			*why = "too large";
			return -1;
		}
		v = v * 10 + digit;
	}
	*value = v;
	*why = NULL;
	return 0;
}

int
board_number_parse(const char *text, size_t len, unsigned *board)
{
	unsigned long value = 0;

	/* a plain digit loop: this runs for every record of a stream */
	if (len == 0 || len > 10)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			return -1;
		value = value * 10 + (unsigned long)(text[i] - '0');
	}
	if (value < 1 || value > BOARD_MAX)
		return -1;
	*board = (unsigned)value;
	return 0;
}

int
board_list_parse(const char *text, struct board_list *list, struct dl_error *e)
{
	const char *p = text;

	memset(list, 0, sizeof *list);
	for (;;) {
		const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
		const char *dash = memchr(p, '-', (size_t)(end - p));
		struct board_range r;

		if (board_number_parse(p, (size_t)((dash ? dash : end) - p), &r.low) == -1 ||
		    (dash != NULL && board_number_parse(dash + 1, (size_t)(end - dash - 1),
		    &r.high) == -1)) {
			dl_error_set(e, DL_ERR_USAGE, "\"%.*s\" is not a board or a range of "
			    "boards (1 to %u)", (int)(end - p), p, BOARD_MAX);
			break;
		}
		if (dash == NULL)
			r.high = r.low;
		if (r.high < r.low) {
			dl_error_set(e, DL_ERR_USAGE, "range %u-%u runs backwards", r.low, r.high);
			break;
		}
		if (list->n > 0 && r.low <= list->ranges[list->n - 1].high) {
			dl_error_set(e, DL_ERR_USAGE, "board %u after board %u: list the boards "
			    "in increasing order, each once", r.low, list->ranges[list->n - 1].high);
			break;
		}
		list->ranges = xreallocarray(list->ranges, list->n + 1, sizeof *list->ranges);
		list->ranges[list->n++] = r;
		list->count += r.high - r.low + 1ull;
		if (comma == NULL)
			return 0;
		p = comma + 1;
	}
	board_list_free(list);
	return -1;
}

void
board_list_free(struct board_list *list)
{
	free(list->ranges);
	memset(list, 0, sizeof *list);
}

/* The range of board_range_parse from its numbers' digits,
 * low_text[0..low_len) and high_text[0..high_len); low_text NULL for "N",
 * which is 1-N; not_a_range the words for text that is none. */
static int
board_range_of(const char *low_text, size_t low_len, const char *high_text, size_t high_len,
    struct board_range *range, const char *not_a_range, const char **why)
{
	unsigned low = 1, high;

	*why = not_a_range;
	if ((low_text != NULL && board_number_parse(low_text, low_len, &low) == -1) ||
	    board_number_parse(high_text, high_len, &high) == -1)
		return -1;
	if (low > high) {
		*why = "board range runs backwards";
		return -1;
	}
	range->low = low;
	range->high = high;
	*why = NULL;
	return 0;
}

#define NOT_A_RANGE "not a board count or range (N or LOW-HIGH, boards 1 to 1000000000)"

int
board_range_parse(const char *text, struct board_range *range, const char **why)
{
	const char *dash = strchr(text, '-');

	if (dash == NULL)
		return board_range_of(NULL, 0, text, strlen(text), range, NOT_A_RANGE, why);
	return board_range_of(text, (size_t)(dash - text), dash + 1, strlen(dash + 1), range,
	    NOT_A_RANGE, why);
}

/* The length of the dash at p that a person may type between two boards:
 * the hyphen, or in UTF-8 the en dash (U+2013, a phone's long press), the
 * em dash (U+2014) and the minus sign (U+2212); 0 for none. */
static size_t
typed_dash(const char *p)
{
	if (*p == '-')
		return 1;
	if ((unsigned char)p[0] == 0xe2 && (((unsigned char)p[1] == 0x80 &&
	    ((unsigned char)p[2] == 0x93 || (unsigned char)p[2] == 0x94)) ||
	    ((unsigned char)p[1] == 0x88 && (unsigned char)p[2] == 0x92)))
		return 3;
	return 0;
}

int
board_range_parse_typed(const char *text, struct board_range *range, const char **why)
{
	static const char not_a_range[] = "not a board count or range (N, or LOW-HIGH as 1-24)";
	const char *p = text + strspn(text, " "), *low = p, *dash = NULL;
	size_t low_len = 0, dash_len = 0;

	for (; *p != '\0'; p++)
		if ((dash_len = typed_dash(p)) > 0) {
			dash = p;
			break;
		}
	if (dash != NULL)
		for (low_len = (size_t)(dash - low); low_len > 0 && low[low_len - 1] == ' '; low_len--)
			;
	const char *high = dash == NULL ? low : dash + dash_len;
	high += strspn(high, " ");
	size_t high_len = strcspn(high, " ");
	/* after the last number only blanks */
	if (high[high_len + strspn(high + high_len, " ")] != '\0') {
		*why = not_a_range;
		return -1;
	}
	if (dash == NULL)
		return board_range_of(NULL, 0, high, high_len, range, not_a_range, why);
	return board_range_of(low, low_len, high, high_len, range, not_a_range, why);
}

int
board_range_parse_bigdeal(const char *text, struct board_range *range, const char **why)
{
	const char *digits[2];
	size_t len[2], sides = 0;
	int zero = 0;

	/* each side as atoi() reads it: blanks, a plus sign, the digits, and
	 * here the blanks after them */
	for (;;) {
		text += strspn(text, " \t");
		text += *text == '+';
		digits[sides] = text;
		len[sides] = strspn(text, "0123456789");
		text += len[sides];
		text += strspn(text, " \t");
		if (len[sides] == 0) {
			*why = "not a board count or range (N or LOW-HIGH)";
			return -1;
		}
		zero |= strspn(digits[sides], "0") >= len[sides];
		sides++;
		if (sides == 2 || *text != '-')
			break;
		text++;
	}
	/* what atoi() would drop unseen, and board 0, which does not exist */
	if (*text != '\0') {
		*why = "not a board count or range (N or LOW-HIGH)";
		return -1;
	}
	if (zero) {
		*why = "boards are numbered from 1";
		return -1;
	}
	if (sides == 1)
		return board_range_of(NULL, 0, digits[0], len[0], range, NOT_A_RANGE, why);
	return board_range_of(digits[0], len[0], digits[1], len[1], range, NOT_A_RANGE, why);
}

int
hex_to_bytes(const char *hex, unsigned char *out, size_t len)
{
	size_t hexlen = strlen(hex), got = 0;
	const char *end;

	if (hexlen != 2 * len)
		return -1;
	if (sodium_hex2bin(out, len, hex, hexlen, NULL, &got, &end) != 0 ||
	    got != len || *end != '\0')
		return -1;
	return 0;
}

/* Secrets live in guarded, locked memory (sodium_malloc), registered with
 * the cleanup module so that a signal wipes them too.  No core file may
 * carry one away: tool_start() turns core dumps off first thing, and the
 * first secret does it again for programs that are not tools. */
void *
secret_alloc(size_t size)
{
	static int first = 1;
	void *p;

	if (first) {
		struct rlimit none = { 0, 0 };
		setrlimit(RLIMIT_CORE, &none);
		first = 0;
	}
	if ((p = sodium_malloc(size)) == NULL)
		out_of_memory();
	memset(p, 0, size);
	cleanup_add_secret(p, size);
	return p;
}

void
secret_free(void *p)
{
	if (p == NULL)
		return;
	cleanup_forget_secret(p);
	sodium_free(p);		/* wipes before unmapping */
}

char *
secret_strdup(const char *s)
{
	char *copy = secret_alloc(strlen(s) + 1);

	memcpy(copy, s, strlen(s) + 1);
	return copy;
}

void *
grow_wiped(void *old, size_t used, size_t oldcap, size_t cap, size_t size)
{
	void *p = xreallocarray(NULL, cap, size);

	if (old != NULL) {
		memcpy(p, old, used * size);
		sodium_memzero(old, oldcap * size);
		free(old);
	}
	return p;
}

void
scrub_argument(char *arg)
{
	sodium_memzero(arg, strlen(arg));
}

int
make_private_parents(const char *path, struct dl_error *e)
{
	char *copy = xstrdup(path);

	for (char *p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0700) == -1 && errno != EEXIST) {
			dl_error_sys(e, "%s", copy);
			free(copy);
			return -1;
		}
		*p = '/';
	}
	free(copy);
	return 0;
}

static int
owner_is_trusted(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

int
path_stat_trusted(const char *path, const char *what, const struct stat *st,
    const char *refusal, struct dl_error *e)
{
	if (!owner_is_trusted(st->st_uid))
		return dl_error_set(e, DL_ERR_SYSTEM, "%s: %s belongs to user %ju, neither "
		    "root nor you: %s", path, what, (uintmax_t)st->st_uid, refusal);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return dl_error_set(e, DL_ERR_SYSTEM, "%s: %s is writable by %s: %s", path,
		    what, st->st_mode & S_IWOTH ? "anyone" : "its group", refusal);
	return 0;
}

int
path_directories_trusted(const char *path, const char *real, const char *refusal,
    struct dl_error *e)
{
	char *dir = xstrdup(real);
	int status = 0;

	for (char *slash = strrchr(dir, '/'); slash != NULL && status == 0;
	    slash = strrchr(dir, '/')) {
		struct stat st;
		if (slash == dir)
			slash[1] = '\0';	/* "/" itself, the last */
		else
			*slash = '\0';
		if (stat(dir, &st) == -1)
			status = dl_error_sys(e, "%s: %s", path, dir);
		else if (!S_ISDIR(st.st_mode))
			status = dl_error_set(e, DL_ERR_SYSTEM, "%s: %s is not a directory",
			    path, dir);
		else if (st.st_uid == 0 && (st.st_mode & S_ISVTX))
			;	/* /tmp: what is below it is judged on its own */
		else
			status = path_stat_trusted(path, dir, &st, refusal, e);
		if (slash == dir)
			break;
	}
	free(dir);
	return status;
}
