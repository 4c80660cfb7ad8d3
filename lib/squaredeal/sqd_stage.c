/* The rules of a tournament's stages: what may change while it is
 * prepared, what publishing makes, and the one setting of the DV.  The
 * messages are dl-sqd's, and name the .sqd the operator gave. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "base/cleanup.h"
#include "files/outfile.h"
#include "stream/proto.h"
#include "squaredeal/sqd_stage.h"
#include "base/util.h"


static const char key_alphabet[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

static int
tournament_exists(const char *path, struct dl_error *e)
{
	return dl_error_set(e, DL_ERR_INPUT, "%s exists: not making a new tournament over it",
	    path);
}

int
sqd_create(const char *path, const char *name, const char *di, struct dl_error *e)
{
	struct sqd t = { 0 };
	struct outfile of;
	FILE *fp;
	int status;

	/* the usual case told before anything is written; the publish below
	 * is what decides */
	if (access(path, F_OK) == 0)
		return tournament_exists(path, e);
	if (!header_value_is_valid(name) || !header_value_is_valid(di))
		return dl_error_set(e, DL_ERR_USAGE, "the name and the delayed information are "
		    "one line of UTF-8 text");
	if ((fp = outfile_create(&of, path, 0666, e)) == NULL)
		return -1;
	t.name = xstrdup(name);
	t.di = xstrdup(di);
	sqd_print(fp, &t);
	sqd_free(&t);
	/* Never over a file, even one that appeared since access(): ten
	 * creates at once all pass that check, and a rename that replaces
	 * would let each report success while one file survives.  Without
	 * replace the name is claimed atomically (renameat2 RENAME_NOREPLACE,
	 * else link), so exactly one create succeeds; for the others the name
	 * is taken, which outfile_publish says as an input error. */
	status = outfile_publish(&of, PUBLISH_NEW, NULL, e);
	if (status == -1 && e->kind == DL_ERR_INPUT)
		return tournament_exists(path, e);
	return status;
}

unsigned long
sqd_key_count(const struct sqd *t)
{
	unsigned long n = 0;

	for (size_t p = 0; p < t->nphases; p++)
		n += t->phases[p].nsessions == 0 ? 1 : t->phases[p].nsessions;
	return n;
}

static int
parse_sessions(const char *text, unsigned *n, struct dl_error *e)
{
	struct board_range r;
	const char *why;

	if (strcmp(text, "0") == 0) {
		*n = 0;
		return 0;
	}
	if (strchr(text, '-') != NULL || board_range_parse(text, &r, &why) == -1)
		return dl_error_set(e, DL_ERR_USAGE, "bad number of sessions \"%s\"", text);
	*n = r.high;
	return 0;
}

/* The phase's fields in the order the operator is told what is wrong. */
static int
make_phase(struct sqd_phase *ph, const char *nsessions, const char *boards,
    const char *prefix, const char *description, struct dl_error *e)
{
	if (parse_sessions(nsessions, &ph->nsessions, e) == -1)
		return -1;
	ph->boards = sqd_parse_boards(boards, &ph->ranges, &ph->nranges);
	if (ph->boards == NULL)
		return dl_error_set(e, DL_ERR_USAGE, "bad boards \"%s\" (16, 17-32, "
		    "1-10,11-20, 3x7 or ?)", boards);
	if (*prefix == '\0')
		return dl_error_set(e, DL_ERR_USAGE, "empty file prefix");
	ph->prefix = sqd_prefix_pattern(prefix, ph->nsessions);
	if (sqd_prefix_check(ph->prefix, e) == -1)
		return -1;
	/* the .sqd's SN line is split at ':' */
	if (strchr(description, ':') != NULL || !header_value_is_valid(description))
		return dl_error_set(e, DL_ERR_USAGE, "a phase description is one line of "
		    "text without ':'");
	ph->description = sqd_description_pattern(description, ph->nsessions);
	return 0;
}

static void
free_phase(struct sqd_phase *ph)
{
	free(ph->boards);
	free(ph->ranges);
	free(ph->prefix);
	free(ph->description);
}

int
sqd_add_phase(const char *path, struct sqd *t, const char *nsessions,
    const char *boards, const char *prefix, const char *description,
    struct dl_error *e)
{
	struct sqd_phase ph = { 0 };
	unsigned long keys;

	if (t->kh != NULL)
		return dl_error_set(e, DL_ERR_INPUT, "%s is published: its phases can no "
		    "longer change", path);
	if (make_phase(&ph, nsessions, boards, prefix, description ? description : "",
	    e) == -1) {
		free_phase(&ph);
		return -1;
	}
	keys = sqd_key_count(t) + (ph.nsessions == 0 ? 1 : ph.nsessions);
	if (keys > SQD_MAX_KEYS) {
		free_phase(&ph);
		return dl_error_set(e, DL_ERR_USAGE, "%lu sessions in all: a tournament has "
		    "at most %d", keys, SQD_MAX_KEYS);
	}
	t->phases = xreallocarray(t->phases, t->nphases + 1, sizeof *t->phases);
	t->phases[t->nphases++] = ph;
	return 0;
}

static int
check_publishable(const char *path, const struct sqd *t, struct dl_error *e)
{
	if (t->kh != NULL)
		return dl_error_set(e, DL_ERR_INPUT, "%s is published already", path);
	if (t->name == NULL || *t->name == '\0' || t->di == NULL || *t->di == '\0')
		return dl_error_set(e, DL_ERR_INPUT, "%s needs a name and the delayed "
		    "information before publishing", path);
	if (t->nphases == 0)
		return dl_error_set(e, DL_ERR_INPUT, "%s has no phases: add them before "
		    "publishing", path);
	/* checked before a key is written: a hand-made SN 999999999 would
	 * otherwise fill the disk with a key file nothing can read */
	if (sqd_key_count(t) > SQD_MAX_KEYS)
		return dl_error_set(e, DL_ERR_INPUT, "%s has %lu sessions in all: a "
		    "tournament has at most %d", path, sqd_key_count(t), SQD_MAX_KEYS);
	return 0;
}

/* A fresh key for every session, the reference's layout: "PHASE,SESSION:KEY"
 * and CRLF, session 0 for an open-ended phase.  The KH is the SHA-256 of
 * exactly these bytes (sqk_read hashes the lines ended by CRLF). */
static void
write_keys(FILE *fp, const struct sqd *t, char kh[SQD_HASH_HEX + 1])
{
	crypto_hash_sha256_state sha;
	unsigned char digest[crypto_hash_sha256_BYTES];
	char *line = secret_alloc(64 + SQD_KEY_CHARS);

	crypto_hash_sha256_init(&sha);
	for (unsigned p = 1; p <= t->nphases; p++) {
		unsigned n = t->phases[p - 1].nsessions;
		for (unsigned s = n == 0 ? 0 : 1; s <= n; s++) {
			int len = snprintf(line, 64, "%u,%u:", p, s);
			for (int i = 0; i < SQD_KEY_CHARS; i++)
				line[len++] = key_alphabet[randombytes_uniform(sizeof key_alphabet - 1)];
			memcpy(line + len, "\r\n", 2);
			len += 2;
			fwrite(line, 1, (size_t)len, fp);
			crypto_hash_sha256_update(&sha, (unsigned char *)line, (size_t)len);
		}
	}
	secret_free(line);
	crypto_hash_sha256_final(&sha, digest);
	sodium_bin2hex(kh, SQD_HASH_HEX + 1, digest, sizeof digest);
}

/* Both files are written under temporary names, the .sqd already holding
 * the KH of the keys, and then put in place together, signals held: an
 * interrupted publish leaves both as they were.  Only a machine dying
 * between the two renames can leave a key file whose KH the .sqd does not
 * hold; publish with replace (--force) replaces such a file, whose keys no
 * one has seen published. */
int
sqd_publish(const char *path, const char *sqk_path, struct sqd *t, int replace_keys,
    struct dl_error *e)
{
	struct outfile keys, description;
	struct outfile *files[] = { &keys, &description };
	const enum publish_mode hows[] = {
		replace_keys ? PUBLISH_REPLACE : PUBLISH_NEW, PUBLISH_REPLACE,
	};
	char kh[SQD_HASH_HEX + 1];
	FILE *fp;

	if (check_publishable(path, t, e) == -1)
		return -1;
	if ((fp = outfile_create(&keys, sqk_path, 0600, e)) == NULL)
		return -1;
	write_keys(fp, t, kh);
	if ((fp = outfile_create(&description, path, 0666, e)) == NULL) {
		outfile_discard(&keys);
		return -1;
	}
	t->kh = xstrdup(kh);
	sqd_print(fp, t);
	/* the stdio buffer held the keys: flushed into the file, then freed */
	if (outfile_publish_each(files, hows, 2, replace_keys ? NULL : "--force", e) == -1) {
		free(t->kh);
		t->kh = NULL;
		return -1;
	}
	return 0;
}

int
sqd_set_dv(const char *path, struct sqd *t, const char *typed, struct dl_error *e)
{
	char *dv;

	if (t->kh == NULL)
		return dl_error_set(e, DL_ERR_INPUT, "%s is not published yet: the delayed "
		    "value comes after publishing", path);
	if (t->dv != NULL)
		return dl_error_set(e, DL_ERR_INPUT, "%s has its delayed value already (%s): "
		    "it cannot change", path, t->dv);
	dv = sqd_canonical_dv(typed);
	if (*dv == '\0' || !header_value_is_valid(dv)) {
		free(dv);
		return dl_error_set(e, DL_ERR_USAGE, "the delayed value is one line of text, "
		    "not empty");
	}
	t->dv = dv;
	return 0;
}

int
sqd_dealing_keys(const char *path, const char *sqk_path, const struct sqd *t,
    struct sqk *k, struct dl_error *e)
{
	if (t->kh == NULL)
		return dl_error_set(e, DL_ERR_INPUT, "%s is not published yet: run 'dl-sqd %s "
		    "publish' first", path, path);
	if (t->dv == NULL)
		return dl_error_set(e, DL_ERR_INPUT, "%s has no delayed value yet: run 'dl-sqd "
		    "%s set-dv VALUE' once it is known", path, path);
	if (access(sqk_path, R_OK) == -1)
		return dl_error_sys(e, "%s: the session keys are needed to deal", sqk_path);
	if (sqk_read(sqk_path, t, k, e) == -1)
		return -1;
	if (strcmp(k->hash, t->kh) != 0) {
		sqk_free(k);
		return dl_error_set(e, DL_ERR_INPUT, "%s does not match the KH of %s: not this "
		    "tournament's key file, or changed", sqk_path, path);
	}
	return 0;
}

const char *
sqd_stage(const struct sqd *t, const char *sqk_path, struct dl_error *e)
{
	struct sqk k;
	int match;

	if (t->kh == NULL)
		return "prepared (not published: phases can still change)";
	if (t->dv == NULL)
		return "published (waiting for the delayed value)";
	if (access(sqk_path, R_OK) == -1)
		return errno == ENOENT ? "delayed value set (no key file here)" :
		    "delayed value set (the key file here cannot be read)";
	if (sqk_read(sqk_path, t, &k, e) == -1)
		return NULL;
	match = strcmp(k.hash, t->kh) == 0;
	sqk_free(&k);
	return match ? "keys available (the key file matches KH)" :
	    "delayed value set (the key file here does NOT match KH)";
}
