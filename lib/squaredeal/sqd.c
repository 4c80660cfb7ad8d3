#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "base/lines.h"
#include "files/outfile.h"
#include "keys/ripemd160.h"
#include "squaredeal/sqd.h"

#define SQK_MAX_BYTES (1 << 20)

static int
parse_count(const char *s, size_t len, unsigned *value)
{
	long long v;

	if (decimal_parse(s, len, 0, 999999999, &v) == -1)
		return -1;
	*value = (unsigned)v;
	return 0;
}

/* The ranges of a phase, written out as its .sqd line stores them ("1-1,"
 * is four characters), fit in a line; more could not be read back, and
 * "999999999x1" would ask for gigabytes. */
#define SQD_MAX_RANGES (LINE_MAX_BYTES / 4)

static void
append_range(struct board_range **ranges, size_t *n, unsigned low, unsigned high)
{
	/* room doubles at each power of two: "16384x1" must not cost a copy
	 * of the list per range */
	if ((*n & (*n - 1)) == 0)
		*ranges = xreallocarray(*ranges, *n ? 2 * *n : 1, sizeof **ranges);
	(*ranges)[(*n)++] = (struct board_range){ low, high };
}

char *
sqd_parse_boards(const char *text, struct board_range **ranges, size_t *n)
{
	char *copy = xstrdup(text), *save = NULL, *canon = NULL;
	size_t len = 0;

	*ranges = NULL;
	*n = 0;
	if (strcmp(text, "?") == 0) {
		free(copy);
		return xstrdup("?");
	}
	for (char *item = strtok_r(copy, ",", &save); item != NULL;
	    item = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*item))
			item++;
		size_t l = strlen(item);
		while (l > 0 && isspace((unsigned char)item[l - 1]))
			item[--l] = '\0';
		char *x = strchr(item, 'x');
		unsigned count, size;
		struct board_range r;
		const char *why;
		if (x != NULL && parse_count(item, (size_t)(x - item), &count) == 0 &&
		    parse_count(x + 1, strlen(x + 1), &size) == 0 && count > 0 &&
		    size > 0 && (unsigned long)count * size <= BOARD_MAX &&
		    *n + count <= SQD_MAX_RANGES) {
			for (unsigned i = 0; i < count; i++)
				append_range(ranges, n, i * size + 1, (i + 1) * size);
		} else if (board_range_parse(item, &r, &why) == 0)
			append_range(ranges, n, r.low, r.high);
		else
			goto bad;
	}
	if (*n == 0 || *n > SQD_MAX_RANGES || text[strlen(text) - 1] == ',')
		goto bad;
	free(copy);
	canon = xcalloc(*n, 24);
	for (size_t i = 0; i < *n; i++)
		len += (size_t)sprintf(canon + len, i ? ",%u-%u" : "%u-%u",
		    (*ranges)[i].low, (*ranges)[i].high);
	/* a plain count stays as typed, as the reference stores it */
	if (*n == 1 && (*ranges)[0].low == 1 && strchr(text, '-') == NULL &&
	    strchr(text, 'x') == NULL)
		sprintf(canon, "%u", (*ranges)[0].high);
	return canon;
bad:
	free(copy);
	free(*ranges);
	*ranges = NULL;
	*n = 0;
	return NULL;
}

static unsigned
digits(unsigned n)
{
	unsigned d = 1;

	while (n >= 10)
		n /= 10, d++;
	return d;
}

char *
sqd_prefix_pattern(const char *prefix, unsigned nsessions)
{
	if (strchr(prefix, '#') != NULL || nsessions == 1)
		return xstrdup(prefix);
	/* an open-ended phase gets two digits, room for 99 sessions */
	unsigned n = nsessions == 0 ? 2 : digits(nsessions);
	return xasprintf("%s%.*s", prefix, (int)n, "#########");
}

char *
sqd_description_pattern(const char *description, unsigned nsessions)
{
	if (strchr(description, '#') != NULL || nsessions == 1)
		return xstrdup(description);
	if (nsessions == 0)
		return xasprintf("%s%s#", description, *description ? " " : "");
	return xasprintf("%s%s#/%u", description, *description ? " " : "", nsessions);
}

char *
sqd_expand(const char *pattern, unsigned session)
{
	const char *run = strchr(pattern, '#');
	size_t width = 0;

	if (run == NULL)
		return xstrdup(pattern);
	while (run[width] == '#')
		width++;
	return xasprintf("%.*s%0*u%s", (int)(run - pattern), pattern, (int)width,
	    session, run + width);
}

char *
sqd_session_name(const struct sqd_phase *ph, unsigned session, int reserve)
{
	char *pattern = sqd_prefix_pattern(ph->prefix, ph->nsessions);
	char *name = sqd_expand(pattern, session);
	char *full = xasprintf("%s%s", name, reserve ? "reserve" : "");

	free(pattern);
	free(name);
	return full;
}

int
sqd_session_range(const struct sqd_phase *ph, unsigned session, struct board_range *r)
{
	if (ph->nranges == 0)
		return -1;
	*r = ph->ranges[(session - 1) % ph->nranges];
	return 0;
}

int
sqd_match_name(const struct sqd *t, const char *name, unsigned *phase,
    unsigned *session, int *reserve)
{
	for (size_t p = 0; p < t->nphases; p++) {
		const struct sqd_phase *ph = &t->phases[p];
		char *pattern = sqd_prefix_pattern(ph->prefix, ph->nsessions);
		char *run = strchr(pattern, '#');
		for (int res = 0; res <= 1; res++) {
			size_t len = strlen(name), tail = res ? strlen("reserve") : 0;
			if (res && (len < tail || strcmp(name + len - tail, "reserve") != 0))
				continue;
			len -= tail;
			if (run == NULL) {
				if (strlen(pattern) == len && strncmp(name, pattern, len) == 0) {
					*phase = (unsigned)p + 1, *session = 1, *reserve = res;
					free(pattern);
					return 0;
				}
				continue;
			}
			size_t head = (size_t)(run - pattern), width = strspn(run, "#");
			const char *after = run + width;
			size_t after_len = strlen(after);
			unsigned s;
			if (len < head + width + after_len || strncmp(name, pattern, head) != 0 ||
			    strncmp(name + len - after_len, after, after_len) != 0)
				continue;
			/* a run of 24 '#' pads past what parse_count reads */
			const char *number = name + head;
			size_t ndigits = len - head - after_len;
			while (ndigits > 1 && *number == '0')
				number++, ndigits--;
			if (parse_count(number, ndigits, &s) == -1 ||
			    s == 0 || (ph->nsessions != 0 && s > ph->nsessions))
				continue;
			char *expect = sqd_expand(pattern, s);
			int same = strlen(expect) == len && strncmp(expect, name, len) == 0;
			free(expect);
			if (same) {
				*phase = (unsigned)p + 1, *session = s, *reserve = res;
				free(pattern);
				return 0;
			}
		}
		free(pattern);
	}
	return -1;
}

/* Perl's \s on the bytes SquareDeal reads (no locale, no UTF-8): space,
 * tab, LF, vertical tab, form feed, CR; whatever the C library's locale. */
static int
perl_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static int
ascii_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* squaredeal.pl's getDV, one substitution after the other:
 *	s/^\s+//; s/\s+$//; s/\s+/ /g; s/([0-9])[\,\.]([0-9])/$1$2/g;
 * The last is a global match: each match starts where the one before
 * ended, so the digit after a removed separator is not matched again
 * ("1.2.3.4" gives "12.34", "7,5.3" gives "75.3"). */
char *
sqd_canonical_dv(const char *typed)
{
	char *out = xmalloc(strlen(typed) + 1);
	size_t n = 0, m = 0;

	for (const char *p = typed; *p;) {
		if (!perl_space(*p)) {
			out[n++] = *p++;
			continue;
		}
		while (perl_space(*p))
			p++;
		if (n > 0 && *p != '\0')
			out[n++] = ' ';
	}
	/* in place: what is kept never runs ahead of what is read */
	for (size_t i = 0; i < n;) {
		if (i + 2 < n && ascii_digit(out[i]) && (out[i + 1] == '.' || out[i + 1] == ',') &&
		    ascii_digit(out[i + 2])) {
			out[m++] = out[i];
			out[m++] = out[i + 2];
			i += 3;
		} else
			out[m++] = out[i++];
	}
	out[m] = '\0';
	return out;
}

/* Letters, digits and ". _ + -", or printable non-ASCII text; not first
 * a '.' (a hidden file) or a '-' (an option to whatever gets the name). */
static int
prefix_char_is_safe(const unsigned char *p, size_t left, size_t *len)
{
	if (*p >= 0x80)
		return (*len = utf8_printable_sequence(p, left)) != 0;
	*len = 1;
	return (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	    (*p >= '0' && *p <= '9') || strchr("._+-#", *p) != NULL;
}

int
sqd_prefix_check(const char *pattern, struct dl_error *e)
{
	const unsigned char *p = (const unsigned char *)pattern;
	size_t left = strlen(pattern), len;
	const char *run = strchr(pattern, '#');

	if (*pattern == '\0')
		return dl_error_set(e, DL_ERR_USAGE, "empty file prefix");
	if (run != NULL && strchr(run + strspn(run, "#"), '#') != NULL)
		return dl_error_set(e, DL_ERR_USAGE, "a file prefix may hold one run of '#' only");
	if (strlen(pattern) > SQD_MAX_PREFIX || *pattern == '.' || *pattern == '-')
		goto bad;
	for (; left > 0; p += len, left -= len)
		if (!prefix_char_is_safe(p, left, &len))
			goto bad;
	return 0;
bad:
	return dl_error_set(e, DL_ERR_USAGE, "bad file prefix \"%s\": letters, digits, "
	    "'.', '_', '+', '-' and one run of '#', not first a '.' or '-', at most %d "
	    "characters", pattern, SQD_MAX_PREFIX);
}

static int
parse_fields(struct line_reader *r, char *p, struct sqd_phase *ph, struct dl_error *e)
{
	char *fields[4];

	for (int i = 0; i < 3; i++) {
		char *colon = strchr(p, ':');
		if (colon == NULL)
			return line_error(r, e, "SN needs NSESSIONS:BOARDS:PREFIX:DESCRIPTION");
		*colon = '\0';
		fields[i] = p;
		p = colon + 1;
	}
	fields[3] = p;
	if (strchr(fields[3], ':') != NULL)
		return line_error(r, e, "a phase description may not hold ':'");
	/* checked as TN and DI are: show prints it */
	if (!utf8_is_valid(fields[3], strlen(fields[3])))
		return line_error(r, e, "a phase description is not valid UTF-8");
	if (parse_count(fields[0], strlen(fields[0]), &ph->nsessions) == -1)
		return line_error(r, e, "bad number of sessions \"%s\"", fields[0]);
	ph->boards = sqd_parse_boards(fields[1], &ph->ranges, &ph->nranges);
	if (ph->boards == NULL)
		return line_error(r, e, "bad boards \"%s\"", fields[1]);
	free(ph->boards);
	ph->boards = xstrdup(fields[1]);	/* kept exactly as stored */
	if (*fields[2] == '\0')
		return line_error(r, e, "empty file prefix");
	/* the rule add-phase keeps: a hostile .sqd's prefix would name files
	 * elsewhere, or run commands from dl-sqd makefile's Makefile */
	if (sqd_prefix_check(fields[2], e) == -1)
		return line_error_locate(r, e);
	ph->prefix = xstrdup(fields[2]);
	ph->description = xstrdup(fields[3]);
	return 0;
}

static int
parse_phase(struct line_reader *r, const char *text, struct sqd_phase *ph,
    struct dl_error *e)
{
	char *copy = xstrdup(text);
	int status = parse_fields(r, copy, ph, e);

	free(copy);
	return status;
}

static int
set_once(struct line_reader *r, char **slot, const char *tag, const char *value,
    struct dl_error *e)
{
	if (*slot != NULL)
		return line_error(r, e, "%s given twice", tag);
	if (!utf8_is_valid(value, strlen(value)))
		return line_error(r, e, "%s is not valid UTF-8", tag);
	*slot = xstrdup(value);
	return 0;
}

static int
parse_line(struct line_reader *r, char *line, struct sqd *t, struct dl_error *e)
{
	if (line[0] == '#')
		return 0;
	/* SquareDeal 2.7 strips Perl's white space from the end of each line
	 * (readtourn: chomp; s/\r$//; s/\s*$//): "DV 7 11 25 \f" is the DV
	 * "7 11 25", and hashing the rest would deal other boards.  Python's
	 * strip() takes more (docs/squaredeal.md); the Perl program's files
	 * are the ones published. */
	for (size_t n = strlen(line); n > 0 && perl_space(line[n - 1]);)
		line[--n] = '\0';
	if (line[0] == '\0')
		return 0;
	/* a CR left inside a line: Perl keeps it in the value, Python ends
	 * the line there; dl refuses a file the two read differently */
	if (strchr(line, '\r') != NULL)
		return line_error(r, e, "stray CR");
	if (strlen(line) < 2 || (line[2] != ' ' && line[2] != '\0'))
		return line_error(r, e, "expected a tag (TN, DI, DV, SN, KH) and a space");
	/* and every space after the tag: readtourn removes the tag with any
	 * run of spaces after it, so "DV  7" is the DV "7" */
	const char *value = line + 2;
	while (*value == ' ')
		value++;
	/* an empty DV is how pysquaredeal writes one not set yet */
	if (strncmp(line, "DV", 2) == 0 && *value == '\0')
		return 0;
	if (strncmp(line, "TN", 2) == 0)
		return set_once(r, &t->name, "TN", value, e);
	if (strncmp(line, "DI", 2) == 0)
		return set_once(r, &t->di, "DI", value, e);
	if (strncmp(line, "DV", 2) == 0)
		return set_once(r, &t->dv, "DV", value, e);
	if (strncmp(line, "KH", 2) == 0) {
		if (set_once(r, &t->kh, "KH", value, e) == -1)
			return -1;
		for (char *c = t->kh; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		if (strlen(t->kh) != SQD_HASH_HEX ||
		    strspn(t->kh, "0123456789abcdef") != SQD_HASH_HEX)
			return line_error(r, e, "KH is not 64 hex digits");
		return 0;
	}
	if (strncmp(line, "SN", 2) == 0) {
		t->phases = xreallocarray(t->phases, t->nphases + 1, sizeof *t->phases);
		memset(&t->phases[t->nphases], 0, sizeof *t->phases);
		return parse_phase(r, value, &t->phases[t->nphases++], e);
	}
	return line_error(r, e, "unknown tag \"%.2s\"", line);
}

int
sqd_read(const char *path, struct sqd *t, struct dl_error *e)
{
	struct line_reader r;
	FILE *fp;
	char *line;
	int got;

	memset(t, 0, sizeof *t);
	if ((fp = fopen(path, "r")) == NULL)
		return dl_error_sys(e, "%s", path);
	line_reader_open(&r, fp, path);
	while ((got = line_next(&r, &line, NULL, e)) == 1)
		if (parse_line(&r, line, t, e) == -1) {
			got = -1;
			break;
		}
	line_reader_close(&r);
	fclose(fp);
	if (got == -1) {
		sqd_free(t);
		return -1;
	}
	return 0;
}

void
sqd_print(FILE *fp, const struct sqd *t)
{
	fprintf(fp, "# Description file of tournament for program SquareDeal 2.7\n#\n");
	fprintf(fp, "TN %s\nDI %s\n", t->name ? t->name : "", t->di ? t->di : "");
	if (t->dv != NULL)
		fprintf(fp, "DV %s\n", t->dv);
	fprintf(fp, "# Description of phases of tournament\n"
	    "# Per phase a line with SN nessions:nboards:filename:description\n");
	for (size_t p = 0; p < t->nphases; p++) {
		const struct sqd_phase *ph = &t->phases[p];
		fprintf(fp, "SN %u:%s:%s:%s\n", ph->nsessions, ph->boards, ph->prefix,
		    ph->description);
	}
	if (t->kh != NULL)
		fprintf(fp, "KH %s\n", t->kh);
	fprintf(fp, "#\n# Never edit this file\n");
}

int
sqd_write(const char *path, const struct sqd *t, struct dl_error *e)
{
	struct outfile of;
	FILE *fp = outfile_create(&of, path, 0666, e);

	if (fp == NULL)
		return -1;
	sqd_print(fp, t);
	return outfile_publish(&of, PUBLISH_REPLACE, NULL, e);
}

void
sqd_free(struct sqd *t)
{
	for (size_t p = 0; p < t->nphases; p++) {
		free(t->phases[p].boards);
		free(t->phases[p].ranges);
		free(t->phases[p].prefix);
		free(t->phases[p].description);
	}
	free(t->phases);
	free(t->name);
	free(t->di);
	free(t->dv);
	free(t->kh);
	memset(t, 0, sizeof *t);
}

char *
sqd_key_path(const char *sqd_path)
{
	size_t len = strlen(sqd_path);

	if (len > 4 && strcmp(sqd_path + len - 4, ".sqd") == 0)
		return xasprintf("%.*s.sqk", (int)(len - 4), sqd_path);
	return xasprintf("%s.sqk", sqd_path);
}

/* Reads the whole key file into secret memory. */
static int
slurp_secret(const char *path, struct sqk *k, struct dl_error *e)
{
	FILE *fp = fopen(path, "r");
	size_t got;

	if (fp == NULL)
		return dl_error_sys(e, "%s", path);
	k->text = secret_alloc(SQK_MAX_BYTES + 1);
	setvbuf(fp, NULL, _IONBF, 0);	/* no copy of the keys in stdio's buffer */
	got = fread(k->text, 1, SQK_MAX_BYTES + 1, fp);
	if (ferror(fp)) {
		dl_error_sys(e, "%s", path);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	if (got > SQK_MAX_BYTES)
		return dl_error_set(e, DL_ERR_INPUT, "%s: larger than a key file can be", path);
	k->text[got] = '\0';
	k->size = got;
	return 0;
}

/* Each line: "PHASE,SESSION:KEY", ended by CRLF or LF.  The hash is over
 * the lines as the reference writes them, ended by CRLF. */
static int
parse_keys(const char *path, struct sqk *k, struct dl_error *e)
{
	crypto_hash_sha256_state sha;
	unsigned char digest[crypto_hash_sha256_BYTES];
	char *p = k->text, *end = k->text + k->size;
	unsigned lineno = 0;

	crypto_hash_sha256_init(&sha);
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *line = p;
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		p += len + (nl != NULL);
		lineno++;
		if (len > 0 && line[len - 1] == '\r')
			len--;
		if (memchr(line, '\0', len) != NULL || memchr(line, '\r', len) != NULL)
			return dl_error_at(e, DL_ERR_INPUT, path, lineno, "stray NUL or CR");
		line[len] = '\0';
		crypto_hash_sha256_update(&sha, (unsigned char *)line, len);
		crypto_hash_sha256_update(&sha, (const unsigned char *)"\r\n", 2);
		if (len == 0)
			continue;
		char *comma = strchr(line, ','), *colon = strchr(line, ':');
		struct sqk_line kl;
		if (comma == NULL || colon == NULL || comma > colon ||
		    parse_count(line, (size_t)(comma - line), &kl.phase) == -1 ||
		    parse_count(comma + 1, (size_t)(colon - comma - 1), &kl.session) == -1)
			return dl_error_at(e, DL_ERR_INPUT, path, lineno,
			    "expected PHASE,SESSION:KEY");
		kl.key = colon + 1;
		if (*kl.key == '\0')
			return dl_error_at(e, DL_ERR_INPUT, path, lineno, "empty key");
		for (const char *c = kl.key; *c; c++)
			if ((unsigned char)*c < 0x21 || (unsigned char)*c > 0x7e)
				return dl_error_at(e, DL_ERR_INPUT, path, lineno, "key holds a "
				    "character that is not printable ASCII");
		k->keys = xreallocarray(k->keys, k->nkeys + 1, sizeof *k->keys);
		k->keys[k->nkeys++] = kl;
	}
	crypto_hash_sha256_final(&sha, digest);
	sodium_bin2hex(k->hash, sizeof k->hash, digest, sizeof digest);
	return 0;
}

const char *
sqk_key(const struct sqk *k, unsigned phase, unsigned session)
{
	for (size_t i = 0; i < k->nkeys; i++)
		if (k->keys[i].phase == phase && k->keys[i].session == session)
			return k->keys[i].key;
	return NULL;
}

static int
check_keys(const char *path, const struct sqd *t, const struct sqk *k, struct dl_error *e)
{
	for (size_t i = 0; i < k->nkeys; i++) {
		const struct sqk_line *kl = &k->keys[i];
		int known = kl->phase >= 1 && kl->phase <= t->nphases &&
		    (t->phases[kl->phase - 1].nsessions == 0 ? kl->session == 0 :
		    kl->session >= 1 && kl->session <= t->phases[kl->phase - 1].nsessions);
		if (!known)
			return dl_error_set(e, DL_ERR_INPUT, "%s: key for session %u,%u, "
			    "which the tournament does not have", path, kl->phase, kl->session);
		for (size_t j = 0; j < i; j++)
			if (k->keys[j].phase == kl->phase && k->keys[j].session == kl->session)
				return dl_error_set(e, DL_ERR_INPUT, "%s: two keys for session "
				    "%u,%u", path, kl->phase, kl->session);
	}
	for (unsigned p = 1; p <= t->nphases; p++) {
		unsigned n = t->phases[p - 1].nsessions;
		for (unsigned s = n == 0 ? 0 : 1; s <= n; s++)
			if (sqk_key(k, p, s) == NULL)
				return dl_error_set(e, DL_ERR_INPUT, "%s: no key for session "
				    "%u,%u", path, p, s);
	}
	return 0;
}

int
sqk_read(const char *path, const struct sqd *t, struct sqk *k, struct dl_error *e)
{
	memset(k, 0, sizeof *k);
	if (slurp_secret(path, k, e) == -1 || parse_keys(path, k, e) == -1 ||
	    check_keys(path, t, k, e) == -1) {
		sqk_free(k);
		return -1;
	}
	return 0;
}

void
sqk_free(struct sqk *k)
{
	if (k->text != NULL)
		secret_free(k->text);
	free(k->keys);
	memset(k, 0, sizeof *k);
}

void
sqd_session_seed(const struct sqd *t, const struct sqk *k, unsigned phase,
    unsigned session, int reserve, struct seed_record *seed)
{
	const struct sqd_phase *ph = &t->phases[phase - 1];
	const char *key = sqk_key(k, phase, ph->nsessions == 0 ? 0 : session);
	size_t len = strlen(key), left = len / 2;
	size_t dvlen = strlen(t->dv), b64len = sodium_base64_encoded_len(dvlen,
	    sodium_base64_VARIANT_ORIGINAL);
	char *b64 = xmalloc(b64len), tail[32];
	struct ripemd160 *ctx = secret_alloc(sizeof *ctx);

	sodium_bin2base64(b64, b64len, (const unsigned char *)t->dv, dvlen,
	    sodium_base64_VARIANT_ORIGINAL);
	ripemd160(key, left, seed->owner);
	ripemd160_init(ctx);
	ripemd160_update(ctx, key + left, len - left);
	ripemd160_update(ctx, b64, strlen(b64));
	snprintf(tail, sizeof tail, "%s", reserve ? "reserve" : "original");
	ripemd160_update(ctx, tail, strlen(tail));
	if (ph->nsessions == 0) {
		snprintf(tail, sizeof tail, "ses%u", session);
		ripemd160_update(ctx, tail, strlen(tail));
	}
	ripemd160_final(ctx, seed->key);
	seed->generator = &generator_bigdeal;
	secret_free(ctx);
	free(b64);
}

int
sqd_lock(const char *path, int exclusive, int *fdp, struct dl_error *e)
{
	for (;;) {
		struct stat held, now;
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

		if (fd == -1)
			return dl_error_sys(e, "%s", path);
		if (flock(fd, exclusive ? LOCK_EX : LOCK_SH) == -1 || fstat(fd, &held) == -1) {
			dl_error_sys(e, "%s", path);
			close(fd);
			return -1;
		}
		/* another command may have replaced the file (its write is a
		 * rename) while we waited: then the lock is on the old one */
		if (stat(path, &now) == 0 && now.st_dev == held.st_dev &&
		    now.st_ino == held.st_ino) {
			*fdp = fd;
			return 0;
		}
		close(fd);
	}
}
