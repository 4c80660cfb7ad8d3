/* The archive in one SQLite file (deal_archive.h, backend.h): the default, a
 * dealer's own archive.  docs/archive.md gives the schema and why it is
 * as it is (the hands' index is most of the file). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>
#include <sqlite3.h>

#include "archive/deal_archive.h"
#include "archive/backend.h"
#include "archive/event_key.h"
#include "stream/proto.h"
#include "base/util.h"

/* "dlAR": what says a SQLite file is a dl archive */
#define APPLICATION_ID 0x646c4152

/* Rows go in ROWS to a statement: a statement a row costs more in the
 * statement's own steps (its cursor opened and closed, its program run)
 * than the row does in the tree.  ROWS * 3 parameters stay below 999, the
 * limit of SQLite before 3.32. */
#define ROWS 256

struct sqlite_archive {
	sqlite3 *db;
	sqlite3_stmt *put_deal, *put_hand, *put_deals, *put_hands, *candidates, *deal_range;
	/* the sets' queries, prepared on first use and kept: a check asks
	 * one or two for every hit */
	sqlite3_stmt *set_by_id, *set_by_digest, *set_of_deal;
	int writing;
	int reading;		/* in sqlite_read_begin's transaction */
	int64_t version;	/* of the schema; 1 is read as it is */
	int wait_ms;		/* how long a writer waits for another */
	struct timespec busy_since;
};

static const char schema_v1[] =
    "CREATE TABLE sets ("
    " id INTEGER PRIMARY KEY,"
    " digest BLOB NOT NULL UNIQUE,"
    " fingerprint TEXT NOT NULL,"
    " first_deal INTEGER NOT NULL UNIQUE,"
    " boards INTEGER NOT NULL,"
    " low INTEGER NOT NULL,"
    " high INTEGER NOT NULL,"
    " event TEXT, site TEXT, date TEXT, generator TEXT, headers TEXT,"
    " source TEXT,"
    " archived TEXT NOT NULL);"
    "CREATE TABLE deals ("
    " id INTEGER PRIMARY KEY,"
    " board INTEGER NOT NULL,"
    " number BLOB NOT NULL);"
    "CREATE TABLE hands ("
    " key INTEGER NOT NULL,"
    " deal INTEGER NOT NULL,"
    " PRIMARY KEY (key, deal)) WITHOUT ROWID;";

/* Schema 2: when a set was played (NULL: not yet), and who archived it. */
static const char schema_v2[] =
    "ALTER TABLE sets ADD COLUMN played TEXT;"
    "ALTER TABLE sets ADD COLUMN user TEXT;"
    "CREATE INDEX sets_event ON sets (event);"
    "PRAGMA user_version = 2;";

/* Schema 3: the boards' own dealers and vulnerabilities (struct
 * archive_set's dv), NULL when all are their numbers'. */
static const char schema_v3[] =
    "ALTER TABLE sets ADD COLUMN dv TEXT;"
    "PRAGMA user_version = 3;";

/* Schema 4: the key an event's sets are counted by (event_key.h), filled
 * for the sets already there by schema_write. */
static const char schema_v4[] =
    "ALTER TABLE sets ADD COLUMN event_key TEXT;"
    "DROP INDEX sets_event;"
    "CREATE INDEX sets_event_key ON sets (event_key);"
    "PRAGMA user_version = 4;";

/* Schema 5: who played a set (the club, DL_CLUB, and the user who marked
 * it), and when it reached the shared archive (NULL: not yet). */
static const char schema_v5[] =
    "ALTER TABLE sets ADD COLUMN club TEXT;"
    "ALTER TABLE sets ADD COLUMN played_by TEXT;"
    "ALTER TABLE sets ADD COLUMN shared TEXT;"
    "PRAGMA user_version = 5;";

/* Schema 6: the index holds each deal's halves' keys too (archive_halves),
 * put there for the deals already archived by schema_write. */
static const char schema_v6[] =
    "PRAGMA user_version = 6;";

/* Schema 7 packs a shared archive's deals and hands (archive_postgres.c);
 * a file's tables are as they were: the version alone. */
static const char schema_v7[] =
    "PRAGMA user_version = 7;";

/* Each version's step from the one before: what a file dl made has been
 * through, and so what its schema must be (schema_is_dls). */
static const char *const schema_steps[ARCHIVE_SCHEMA + 1] = {
	NULL, schema_v1, schema_v2, schema_v3, schema_v4, schema_v5, schema_v6, schema_v7,
};

static struct sqlite_archive *
db_of(struct archive *a)
{
	return a->db;
}

/* The database's error, on the archive's name. */
static int
db_error(struct archive *a, struct dl_error *e, const char *what)
{
	sqlite3 *db = db_of(a)->db;
	int code = sqlite3_errcode(db);

	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return dl_error_set(e, DL_ERR_SYSTEM,
		    "%s: busy: another process is writing to the archive (waited %s s)",
		    a->name, getenv("DL_ARCHIVE_WAIT") ? getenv("DL_ARCHIVE_WAIT") : "60");
	if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
		return dl_error_set(e, DL_ERR_INPUT, "%s: not a dl archive, or damaged: %s",
		    a->name, sqlite3_errmsg(db));
	return dl_error_set(e, DL_ERR_SYSTEM, "%s: %s: %s", a->name, what, sqlite3_errmsg(db));
}

static int
exec(struct archive *a, const char *sql, struct dl_error *e)
{
	if (sqlite3_exec(db_of(a)->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(a, e, "cannot write to the archive");
	return 0;
}

/* A kept statement, prepared on its first use: a process that adds one
 * session uses two of them, and parsing the others (the 256-row inserts
 * above all) cost more than the session's rows. */
static int
prepare(struct archive *a, sqlite3_stmt **st, const char *sql, struct dl_error *e)
{
	if (*st != NULL)
		return 0;
	if (sqlite3_prepare_v3(db_of(a)->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) !=
	    SQLITE_OK)
		return db_error(a, e, "cannot prepare a query");
	return 0;
}

/* One integer a pragma or query answers. */
static int
query_int(struct archive *a, const char *sql, int64_t *value, struct dl_error *e)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db_of(a)->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_error(a, e, "cannot read the archive");
	rc = sqlite3_step(st);
	*value = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_error(a, e, "cannot read the archive");
	return 0;
}

/* A new archive is an empty file made here, mode 0600, before SQLite
 * opens it: SQLite would make it as the umask says. */
static int
create_file(const char *path, struct dl_error *e)
{
	int fd;

	if (make_private_parents(path, e) == -1)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd == -1 && errno != EEXIST)
		return dl_error_sys(e, "%s", path);
	if (fd != -1)
		close(fd);
	return 0;
}

static int step_done(struct archive *a, sqlite3_stmt *st, struct dl_error *e);

/* Schema 4's event_key of every set that has an event. */
static int
fill_event_keys(struct archive *a, struct dl_error *e)
{
	sqlite3 *db = db_of(a)->db;
	sqlite3_stmt *get = NULL, *put = NULL;
	struct event_keyer *k = NULL;
	int rc, r = 0;

	if (sqlite3_prepare_v2(db, "SELECT id, event FROM sets WHERE event IS NOT NULL", -1, &get,
	    NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "UPDATE sets SET event_key = ? WHERE id = ?", -1, &put,
	    NULL) != SQLITE_OK) {
		r = db_error(a, e, "cannot write to the archive");
		goto out;
	}
	while (r == 0 && (rc = sqlite3_step(get)) == SQLITE_ROW) {
		const char *event = (const char *)sqlite3_column_text(get, 1);
		char *key;

		if (event == NULL || !header_value_is_valid(event)) {
			r = dl_error_set(e, DL_ERR_INPUT, "%s: set %lld: damaged (a text that is"
			    " not one line of printable UTF-8)", a->name,
			    (long long)sqlite3_column_int64(get, 0));
			break;
		}
		if (archive_event_key(&k, event, &key, e) == -1) {
			r = -1;
			break;
		}
		sqlite3_bind_text(put, 1, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(put, 2, sqlite3_column_int64(get, 0));
		free(key);
		r = step_done(a, put, e);
	}
	if (r == 0 && rc != SQLITE_DONE)
		r = db_error(a, e, "cannot read the archive");
out:
	sqlite3_finalize(get);
	sqlite3_finalize(put);
	event_keyer_free(k);
	return r;
}

/* The schema of a database: every object, "type name table sql" a line,
 * in the order of their names (allocated; NULL when it cannot be read). */
static char *
schema_text(sqlite3 *db)
{
	sqlite3_stmt *st;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, sql FROM sqlite_master"
	    " ORDER BY type, name", -1, &st, NULL) != SQLITE_OK)
		return NULL;
	if ((mem = open_memstream(&text, &len)) == NULL) {
		sqlite3_finalize(st);
		return NULL;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		for (int i = 0; i < 4; i++) {
			const unsigned char *t = sqlite3_column_text(st, i);

			fprintf(mem, "%s%c", t != NULL ? (const char *)t : "(null)",
			    i < 3 ? '\t' : '\n');
		}
	sqlite3_finalize(st);
	if (fclose(mem) != 0 || rc != SQLITE_DONE) {
		free(text);
		return NULL;
	}
	return text;
}

/* What dl's own steps to a version make of a schema: those steps run on
 * a database in memory, its schema_text (allocated; NULL on failure). */
static char *
schema_made(int64_t version)
{
	sqlite3 *mem = NULL;
	char *text = NULL;
	int ok = 0;

	if (sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
	    NULL) == SQLITE_OK) {
		ok = 1;
		for (int64_t v = 1; v <= version && ok; v++)
			ok = sqlite3_exec(mem, schema_steps[v], NULL, NULL, NULL) == SQLITE_OK;
		text = ok ? schema_text(mem) : NULL;
	}
	sqlite3_close(mem);
	return text;
}

/* BLAKE2b-256 of a schema's text, in hex. */
static void
schema_digest(const char *text, char hex[SCHEMA_DIGEST_HEX])
{
	unsigned char digest[32];

	crypto_generichash(digest, sizeof digest, (const unsigned char *)text, strlen(text),
	    NULL, 0);
	sodium_bin2hex(hex, SCHEMA_DIGEST_HEX, digest, sizeof digest);
}

/* The digests of schema_made's texts (archive_sqlite_schema_digest says
 * them; t/archive-hostile.bats checks that they still are): a schema
 * whose digest is its version's is dl's without making one in memory,
 * which cost most of the time of opening an archive. */
static const char *const schema_digests[ARCHIVE_SCHEMA + 1] = {
	NULL,
	"a6290da33458cd630aa03cb2f7872472ddee6a8ef96eee87bae2d64db6e87827",
	"e25332de96399535d5a6f8c60569b3f235c15a734677ab0f2952c16d92938b96",
	"4e805da939843530d69a189f9251ee0926487b2a8818e0fe032204817e28816f",
	"2abd2fec3e0569484d0776d8ec68919d4d4b8962b096077137f69709eb4e2c67",
	"a136cd396383f5a7a64b26c211b41589c18f63c05c77dad4b292323b74310567",
	"a136cd396383f5a7a64b26c211b41589c18f63c05c77dad4b292323b74310567",
	"a136cd396383f5a7a64b26c211b41589c18f63c05c77dad4b292323b74310567",
};

/* SQLite runs what a file's schema says (a view in place of a table, a
 * trigger, an index on an expression), so an archive is used only if its
 * schema is, object for object and word for word, what dl's own steps
 * to its version make: its digest the one known, or else (another SQLite
 * may write a schema's text otherwise) the same text as schema_made's. */
static int
schema_is_dls(struct archive *a, int64_t version, struct dl_error *e)
{
	char *want, *have = schema_text(db_of(a)->db), hex[SCHEMA_DIGEST_HEX];
	int ok;

	if (have == NULL)
		return db_error(a, e, "cannot read the archive");
	schema_digest(have, hex);
	ok = strcmp(hex, schema_digests[version]) == 0;
	if (!ok) {
		if ((want = schema_made(version)) == NULL) {
			free(have);
			return dl_error_set(e, DL_ERR_SYSTEM,
			    "%s: SQLite could not make dl's schema", a->name);
		}
		ok = strcmp(want, have) == 0;
		free(want);
	}
	free(have);
	if (!ok)
		return dl_error_set(e, DL_ERR_INPUT, "%s: not an archive dl made: its schema is"
		    " not dl's (changed, or made by another program)", a->name);
	return 0;
}

int
archive_sqlite_schema_digest(int64_t version, char made[SCHEMA_DIGEST_HEX],
    const char **known)
{
	char *text;

	if (version < 1 || version > ARCHIVE_SCHEMA || (text = schema_made(version)) == NULL)
		return -1;
	schema_digest(text, made);
	free(text);
	*known = schema_digests[version];
	return 0;
}

/* Makes a new archive, or upgrades an older one, in one transaction:
 * another process may be doing the same. */
static int
schema_write(struct archive *a, struct dl_error *e)
{
	int64_t tables, version;

	if (exec(a, "BEGIN IMMEDIATE", e) == -1)
		return -1;
	if (query_int(a, "SELECT count(*) FROM sqlite_master", &tables, e) == -1 ||
	    query_int(a, "PRAGMA user_version", &version, e) == -1)
		goto fail;
	if (tables == 0) {
		if (exec(a, schema_v1, e) == -1 ||
		    exec(a, "PRAGMA application_id = 1684816210; PRAGMA user_version = 1", e) == -1)
			goto fail;
		version = 1;
	}
	for (int64_t v = version + 1; v <= ARCHIVE_SCHEMA; v++)
		if (exec(a, schema_steps[v], e) == -1)
			goto fail;
	if (version < 4 && fill_event_keys(a, e) == -1)
		goto fail;
	if (version < 6 && archive_index_halves(a, e) == -1)
		goto fail;
	db_of(a)->version = ARCHIVE_SCHEMA;
	return exec(a, "COMMIT", e);
fail:
	sqlite3_exec(db_of(a)->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static int
schema(struct archive *a, unsigned flags, struct dl_error *e)
{
	int64_t app, version, tables;

	/* the three read at one moment: another process making the archive
	 * (make -j) commits between two reads else, and this one saw an
	 * archive with tables but no application id, "not a dl archive" */
	if (exec(a, "BEGIN", e) == -1)
		return -1;
	if (query_int(a, "PRAGMA application_id", &app, e) == -1 ||
	    query_int(a, "PRAGMA user_version", &version, e) == -1 ||
	    query_int(a, "SELECT count(*) FROM sqlite_master", &tables, e) == -1 ||
	    (app == APPLICATION_ID && version >= 1 && version <= ARCHIVE_SCHEMA &&
	    schema_is_dls(a, version, e) == -1)) {
		sqlite3_exec(db_of(a)->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	if (exec(a, "COMMIT", e) == -1)
		return -1;
	if (app == 0 && version == 0 && tables == 0) {
		if (!(flags & ARCHIVE_WRITE))
			return dl_error_set(e, DL_ERR_INPUT, "%s: an empty archive", a->name);
		return schema_write(a, e);
	}
	if (app != APPLICATION_ID || version < 1)
		return dl_error_set(e, DL_ERR_INPUT, "%s: not a dl archive", a->name);
	if (version > ARCHIVE_SCHEMA)
		return dl_error_set(e, DL_ERR_INPUT,
		    "%s: archive of schema %lld, newer than this dl's (%d): upgrade dl",
		    a->name, (long long)version, ARCHIVE_SCHEMA);
	db_of(a)->version = version;
	if (version < ARCHIVE_SCHEMA && (flags & ARCHIVE_WRITE))
		return schema_write(a, e);
	return 0;
}

static int
sqlite_write_begin(struct archive *a, int64_t *next_deal, struct dl_error *e)
{
	if (exec(a, "BEGIN IMMEDIATE", e) == -1)
		return -1;
	db_of(a)->writing = 1;
	if (query_int(a, "SELECT coalesce(max(id), 0) + 1 FROM deals", next_deal, e) == -1) {
		a->ops->write_rollback(a);
		return -1;
	}
	return 0;
}

static int
sqlite_write_commit(struct archive *a, struct dl_error *e)
{
	if (exec(a, "COMMIT", e) == -1)
		return -1;
	db_of(a)->writing = 0;
	return 0;
}

static void
sqlite_write_rollback(struct archive *a)
{
	if (db_of(a)->writing)
		sqlite3_exec(db_of(a)->db, "ROLLBACK", NULL, NULL, NULL);
	db_of(a)->writing = 0;
}

/* "INSERT INTO ... VALUES (?, ?), (?, ?), ...": ROWS rows of columns. */
static int
prepare_rows(struct archive *a, sqlite3_stmt **st, const char *insert, unsigned columns,
    struct dl_error *e)
{
	size_t len = strlen(insert) + ROWS * (3 * columns + 2) + 1, at;
	char *sql;
	int r;

	if (*st != NULL)
		return 0;
	sql = xmalloc(len);
	at = (size_t)snprintf(sql, len, "%s", insert);
	for (unsigned i = 0; i < ROWS; i++) {
		sql[at++] = i == 0 ? ' ' : ',';
		sql[at++] = '(';
		for (unsigned c = 0; c < columns; c++) {
			if (c > 0)
				sql[at++] = ',';
			sql[at++] = '?';
		}
		sql[at++] = ')';
	}
	sql[at] = '\0';
	r = prepare(a, st, sql, e);
	free(sql);
	return r;
}

static int
step_done(struct archive *a, sqlite3_stmt *st, struct dl_error *e)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_error(a, e, "cannot write to the archive");
	return 0;
}

static int
sqlite_put_deals(struct archive *a, const struct deal_row *rows, size_t n, struct dl_error *e)
{
	struct sqlite_archive *s = db_of(a);

	if (prepare(a, &s->put_deal, "INSERT INTO deals (id, board, number) VALUES (?, ?, ?)",
	    e) == -1 || (n >= ROWS && prepare_rows(a, &s->put_deals,
	    "INSERT INTO deals (id, board, number) VALUES", 3, e) == -1))
		return -1;
	for (size_t i = 0; i < n;) {
		sqlite3_stmt *st = n - i >= ROWS ? s->put_deals : s->put_deal;
		int k = 0;

		for (size_t end = st == s->put_deals ? i + ROWS : i + 1; i < end; i++) {
			sqlite3_bind_int64(st, ++k, rows[i].id);
			sqlite3_bind_int64(st, ++k, rows[i].board);
			sqlite3_bind_blob(st, ++k, rows[i].number, DEAL_NUMBER_BYTES, SQLITE_STATIC);
		}
		if (step_done(a, st, e) == -1)
			return -1;
	}
	return 0;
}

static int
sqlite_put_hands(struct archive *a, const struct hand_row *rows, size_t n, struct dl_error *e)
{
	struct sqlite_archive *s = db_of(a);

	if (prepare(a, &s->put_hand, "INSERT INTO hands (key, deal) VALUES (?, ?)", e) == -1 ||
	    (n >= ROWS && prepare_rows(a, &s->put_hands, "INSERT INTO hands (key, deal) VALUES",
	    2, e) == -1))
		return -1;
	for (size_t i = 0; i < n;) {
		sqlite3_stmt *st = n - i >= ROWS ? s->put_hands : s->put_hand;
		int k = 0;

		for (size_t end = st == s->put_hands ? i + ROWS : i + 1; i < end; i++) {
			sqlite3_bind_int(st, ++k, rows[i].key);
			sqlite3_bind_int64(st, ++k, rows[i].deal);
		}
		if (step_done(a, st, e) == -1)
			return -1;
	}
	return 0;
}

static void
bind_text(sqlite3_stmt *st, int i, const char *text)
{
	if (text == NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, text, -1, SQLITE_STATIC);
}

static int
sqlite_put_set(struct archive *a, struct archive_set *set, const char *event_key,
    struct dl_error *e)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (prepare(a, &st, "INSERT INTO sets (digest, fingerprint, first_deal, boards, low, high,"
	    " event, site, date, generator, headers, source, archived, played, user, dv, event_key,"
	    " club, played_by, shared)"
	    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", e) == -1)
		return -1;
	sqlite3_bind_blob(st, 1, set->digest, SET_DIGEST_BYTES, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, set->fingerprint, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, set->first_deal);
	sqlite3_bind_int64(st, 4, set->boards);
	sqlite3_bind_int64(st, 5, set->low);
	sqlite3_bind_int64(st, 6, set->high);
	bind_text(st, 7, set->event);
	bind_text(st, 8, set->site);
	bind_text(st, 9, set->date);
	bind_text(st, 10, set->generator);
	bind_text(st, 11, set->headers);
	bind_text(st, 12, set->source);
	sqlite3_bind_text(st, 13, set->archived, -1, SQLITE_STATIC);
	bind_text(st, 14, set->played[0] != '\0' ? set->played : NULL);
	bind_text(st, 15, set->user);
	bind_text(st, 16, set->dv);
	bind_text(st, 17, event_key);
	bind_text(st, 18, set->club);
	bind_text(st, 19, set->played_by);
	bind_text(st, 20, set->shared[0] != '\0' ? set->shared : NULL);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(a, e, "cannot write to the archive");
	set->id = sqlite3_last_insert_rowid(db_of(a)->db);
	return 0;
}

static int
deal_rows(struct archive *a, sqlite3_stmt *st, int (*each)(const struct deal_row *, void *),
    void *arg, struct dl_error *e)
{
	int rc, r = 0;

	while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct deal_row row = { 0 };
		sqlite3_int64 board = sqlite3_column_int64(st, 1);

		row.id = sqlite3_column_int64(st, 0);
		row.board = board >= 1 && board <= BOARD_MAX ? (unsigned)board : 0;
		if (sqlite3_column_bytes(st, 2) != DEAL_NUMBER_BYTES) {
			sqlite3_reset(st);
			return dl_error_set(e, DL_ERR_INPUT, "%s: deal %lld: damaged (its deal"
			    " number is not %d bytes)", a->name, (long long)row.id,
			    DEAL_NUMBER_BYTES);
		}
		memcpy(row.number, sqlite3_column_blob(st, 2), DEAL_NUMBER_BYTES);
		if (archive_deal_row_check(a, &row, e) == -1) {
			sqlite3_reset(st);
			return -1;
		}
		r = each(&row, arg);
	}
	sqlite3_reset(st);
	if (r == 0 && rc != SQLITE_DONE)
		return db_error(a, e, "cannot read the archive");
	return r;
}

static char *
column_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t == NULL ? NULL : xstrdup((const char *)t);
}

/* A candidate's set (struct deal_row), the last found kept: candidates
 * lie mostly in few sets, and a query for each cost a quarter of a
 * check of archived boards.  Asked of the local file only, whose reader
 * is its owner: a shared archive is sent nothing after its look-up
 * (archive_postgres.c). */
struct candidate_sets {
	struct archive *a;
	int (*each)(const struct deal_row *, void *);
	void *arg;
	struct dl_error *e;
	int64_t first, last, id;	/* the set kept: its deals, its id */
	char *event, *date, *club;
};

static int
candidate_with_set(const struct deal_row *row, void *arg)
{
	struct candidate_sets *c = arg;
	struct sqlite_archive *s = db_of(c->a);
	struct deal_row with = *row;
	int rc;

	if (c->id == 0 || row->id < c->first || row->id > c->last) {
		if (prepare(c->a, &s->set_of_deal, s->version >= 5 ?
		    "SELECT id, first_deal, boards, event, date, club"
		    " FROM sets WHERE first_deal <= ? ORDER BY first_deal DESC LIMIT 1" :
		    "SELECT id, first_deal, boards, event, date, NULL"
		    " FROM sets WHERE first_deal <= ? ORDER BY first_deal DESC LIMIT 1", c->e) == -1)
			return -1;
		sqlite3_bind_int64(s->set_of_deal, 1, row->id);
		free(c->event);
		free(c->date);
		free(c->club);
		c->event = c->date = c->club = NULL;
		c->id = 0;
		if ((rc = sqlite3_step(s->set_of_deal)) == SQLITE_ROW &&
		    row->id - sqlite3_column_int64(s->set_of_deal, 1) <
		    sqlite3_column_int64(s->set_of_deal, 2)) {
			c->id = sqlite3_column_int64(s->set_of_deal, 0);
			c->first = sqlite3_column_int64(s->set_of_deal, 1);
			c->last = c->first + sqlite3_column_int64(s->set_of_deal, 2) - 1;
			c->event = column_text(s->set_of_deal, 3);
			c->date = column_text(s->set_of_deal, 4);
			c->club = column_text(s->set_of_deal, 5);
		}
		sqlite3_reset(s->set_of_deal);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return db_error(c->a, c->e, "cannot read the archive");
	}
	with.set = c->id;
	with.set_event = c->event;
	with.set_date = c->date;
	with.set_club = c->club;
	if (archive_deal_row_check(c->a, &with, c->e) == -1)
		return -1;
	return c->each(&with, c->arg);
}

static int
sqlite_candidates(struct archive *a, const struct key_range *ranges, size_t n,
    int (*each)(const struct deal_row *, void *), void *arg, struct dl_error *e)
{
	struct sqlite_archive *s = db_of(a);
	struct candidate_sets c = { .a = a, .each = each, .arg = arg, .e = e };
	sqlite3_stmt *st;
	int r = 0;

	if (prepare(a, &s->candidates, "SELECT d.id, d.board, d.number FROM hands h"
	    " JOIN deals d ON d.id = h.deal WHERE h.key BETWEEN ? AND ?", e) == -1)
		return -1;
	st = s->candidates;

	for (size_t i = 0; i < n && r == 0; i++) {
		sqlite3_bind_int(st, 1, ranges[i].lo);
		sqlite3_bind_int(st, 2, ranges[i].hi);
		r = deal_rows(a, st, candidate_with_set, &c, e);
	}
	free(c.event);
	free(c.date);
	free(c.club);
	return r == -1 ? -1 : 0;
}

/* In autocommit each statement takes and drops the file's lock and reads
 * its header again, which cost more than a look-up: a check's look-ups
 * go in one read transaction (within a write, in that one). */
static int
sqlite_read_begin(struct archive *a, struct dl_error *e)
{
	struct sqlite_archive *s = db_of(a);

	if (s->writing || s->reading)
		return 0;
	if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return db_error(a, e, "cannot read the archive");
	s->reading = 1;
	return 0;
}

static void
sqlite_read_end(struct archive *a)
{
	struct sqlite_archive *s = db_of(a);

	if (s->reading)
		sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	s->reading = 0;
}

#define SET_COLUMNS_1 "id, digest, fingerprint, first_deal, boards, low, high, event, site," \
	" date, generator, headers, source, archived"
/* what an older schema did not keep is read as NULL */
#define SET_COLUMNS(a) (db_of(a)->version == 1 ? SET_COLUMNS_1 ", NULL, NULL, NULL" \
	", NULL, NULL, NULL" : \
	db_of(a)->version == 2 ? SET_COLUMNS_1 ", played, user, NULL, NULL, NULL, NULL" : \
	db_of(a)->version <= 4 ? SET_COLUMNS_1 ", played, user, dv, NULL, NULL, NULL" : \
	SET_COLUMNS_1 ", played, user, dv, club, played_by, shared")

/* A number column that must lie in 1 .. BOARD_MAX: 0 when it does not,
 * which archive_set_row_check refuses (never cut to fit an unsigned). */
static unsigned
board_column(sqlite3_stmt *st, int i)
{
	sqlite3_int64 v = sqlite3_column_int64(st, i);

	return v >= 1 && v <= BOARD_MAX ? (unsigned)v : 0;
}

/* A set's row, checked (backend.h): 0, or -1 with *e and *set cleared. */
static int
set_from_row(struct archive *a, sqlite3_stmt *st, struct archive_set *set, struct dl_error *e)
{
	const void *digest = sqlite3_column_blob(st, 1);
	const unsigned char *t;

	memset(set, 0, sizeof *set);
	set->id = sqlite3_column_int64(st, 0);
	if (digest == NULL || sqlite3_column_bytes(st, 1) != SET_DIGEST_BYTES)
		return dl_error_set(e, DL_ERR_INPUT, "%s: set %lld: damaged (its digest)",
		    a->name, (long long)set->id);
	memcpy(set->digest, digest, SET_DIGEST_BYTES);
	column_copy(set->fingerprint, sizeof set->fingerprint,
	    (const char *)sqlite3_column_text(st, 2));
	set->first_deal = sqlite3_column_int64(st, 3);
	set->boards = board_column(st, 4);
	set->low = board_column(st, 5);
	set->high = board_column(st, 6);
	set->event = column_text(st, 7);
	set->site = column_text(st, 8);
	set->date = column_text(st, 9);
	set->generator = column_text(st, 10);
	set->headers = column_text(st, 11);
	set->source = column_text(st, 12);
	column_copy(set->archived, sizeof set->archived, (const char *)sqlite3_column_text(st, 13));
	if ((t = sqlite3_column_text(st, 14)) != NULL)
		column_copy(set->played, sizeof set->played, (const char *)t);
	set->user = column_text(st, 15);
	set->dv = set_dv_from_column((const char *)sqlite3_column_text(st, 16), set->boards);
	set->club = column_text(st, 17);
	set->played_by = column_text(st, 18);
	if ((t = sqlite3_column_text(st, 19)) != NULL)
		column_copy(set->shared, sizeof set->shared, (const char *)t);
	if (archive_set_row_check(a, set, e) == -1) {
		archive_set_clear(set);
		return -1;
	}
	return 0;
}

/* The sets a query answers, bound to value or blob: each to each(), or
 * the first into *one (then 1, or 0 when none).  keep: where the query is
 * kept prepared for the next call, or NULL to make it for this one. */
static int
set_rows(struct archive *a, sqlite3_stmt **keep, const char *sql, int64_t value,
    const void *blob, struct archive_set *one, int (*each)(const struct archive_set *, void *),
    void *arg, struct dl_error *e)
{
	sqlite3_stmt *st = keep != NULL ? *keep : NULL;
	int rc, r = 0, found = 0;

	if (st == NULL) {
		char *query = xasprintf("SELECT %s FROM sets %s", SET_COLUMNS(a), sql);

		rc = sqlite3_prepare_v3(db_of(a)->db, query, -1,
		    keep != NULL ? SQLITE_PREPARE_PERSISTENT : 0, &st, NULL);
		free(query);
		if (rc != SQLITE_OK)
			return db_error(a, e, "cannot read the archive");
		if (keep != NULL)
			*keep = st;
	}
	if (blob != NULL)
		sqlite3_bind_blob(st, 1, blob, SET_DIGEST_BYTES, SQLITE_STATIC);
	else if (sqlite3_bind_parameter_count(st) > 0)
		sqlite3_bind_int64(st, 1, value);
	while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct archive_set set;

		if (set_from_row(a, st, &set, e) == -1) {
			r = -1;
			break;
		}
		found = 1;
		if (one != NULL) {
			*one = set;
			break;
		}
		r = each(&set, arg);
		archive_set_clear(&set);
	}
	if (keep != NULL) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
	} else
		sqlite3_finalize(st);
	if (r == 0 && rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_error(a, e, "cannot read the archive");
	return one != NULL && r == 0 ? found : r;
}

static int
sqlite_set_by_id(struct archive *a, int64_t id, struct archive_set *set, struct dl_error *e)
{
	return set_rows(a, &db_of(a)->set_by_id, "WHERE id = ?", id, NULL, set, NULL,
	    NULL, e);
}

static int
sqlite_set_by_digest(struct archive *a, const unsigned char *digest, struct archive_set *set,
    struct dl_error *e)
{
	return set_rows(a, &db_of(a)->set_by_digest, "WHERE digest = ?", 0, digest, set,
	    NULL, NULL, e);
}

static int
sqlite_sets(struct archive *a, int (*each)(const struct archive_set *, void *), void *arg,
    struct dl_error *e)
{
	return set_rows(a, NULL, "ORDER BY id", 0, NULL, NULL, each,
	    arg, e);
}

static int
sqlite_deals(struct archive *a, int64_t first, int64_t last,
    int (*each)(const struct deal_row *, void *), void *arg, struct dl_error *e)
{
	struct sqlite_archive *s = db_of(a);
	sqlite3_stmt *st;

	if (prepare(a, &s->deal_range, "SELECT id, board, number FROM deals"
	    " WHERE id BETWEEN ? AND ? ORDER BY id", e) == -1)
		return -1;
	st = s->deal_range;
	sqlite3_bind_int64(st, 1, first);
	sqlite3_bind_int64(st, 2, last);
	return deal_rows(a, st, each, arg, e);
}

/* One set's row updated, in one statement (autocommit): sql binds a
 * time as ?1, a club as ?2, a user as ?3 and the set's id as ?4. */
static int
set_time(struct archive *a, const char *sql, int64_t id, const char *when,
    const char *club, const char *user, struct dl_error *e)
{
	sqlite3_stmt *st = NULL;
	int64_t found;
	int rc;

	if (prepare(a, &st, sql, e) == -1)
		return -1;
	sqlite3_bind_text(st, 1, when, -1, SQLITE_STATIC);
	bind_text(st, 2, club);
	bind_text(st, 3, user);
	sqlite3_bind_int64(st, 4, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(a, e, "cannot write to the archive");
	found = sqlite3_changes(db_of(a)->db);
	return found > 0;
}

/* A set played keeps the time, the club and the user it was first
 * marked with. */
static int
sqlite_mark_played(struct archive *a, int64_t id, const char *when, const char *club,
    const char *user, struct dl_error *e)
{
	return set_time(a, "UPDATE sets SET played = coalesce(played, ?1),"
	    " club = CASE WHEN played IS NULL THEN ?2 ELSE club END,"
	    " played_by = CASE WHEN played IS NULL THEN ?3 ELSE played_by END"
	    " WHERE id = ?4", id, when, club, user, e);
}

static int
sqlite_mark_shared(struct archive *a, int64_t id, const char *when, struct dl_error *e)
{
	return set_time(a, "UPDATE sets SET shared = coalesce(shared, ?1) WHERE id = ?4", id,
	    when, NULL, NULL, e);
}

static int
sqlite_count(struct archive *a, struct archive_counts *c, struct dl_error *e)
{
	if (query_int(a, "SELECT count(*) FROM sets", &c->sets, e) == -1 ||
	    query_int(a, "SELECT coalesce(sum(boards), 0) FROM sets", &c->deals, e) == -1)
		return -1;
	if (db_of(a)->version == 1)
		return 0;
	if (query_int(a, "SELECT count(*) FROM sets WHERE played IS NOT NULL", &c->played_sets,
	    e) == -1 || query_int(a, "SELECT coalesce(sum(boards), 0) FROM sets"
	    " WHERE played IS NOT NULL", &c->played_deals, e) == -1)
		return -1;
	return 0;
}

static int
sqlite_compact(struct archive *a, archive_hand_keys_fn *hand_keys, struct dl_error *e)
{
	(void)hand_keys;	/* no buckets */
	return exec(a, "VACUUM", e);
}

/* The sets of an event by its key: schema 4's column, or in an archive
 * of an older schema opened only to read (not upgraded), every event's
 * key made here. */
static int
sqlite_count_event(struct archive *a, const char *key, int64_t *n, struct dl_error *e)
{
	int old = db_of(a)->version < 4;
	struct event_keyer *k = NULL;
	sqlite3_stmt *st;
	int rc, r = 0;

	if (sqlite3_prepare_v2(db_of(a)->db, old ? "SELECT event FROM sets WHERE event IS NOT NULL" :
	    "SELECT count(*) FROM sets WHERE event_key = ?", -1, &st, NULL) != SQLITE_OK)
		return db_error(a, e, "cannot read the archive");
	*n = 0;
	if (!old) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		*n = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
		rc = rc == SQLITE_ROW ? SQLITE_DONE : rc;
	} else
		while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
			int same = archive_event_has_key(a, &k,
			    (const char *)sqlite3_column_text(st, 0), key, e);

			if (same == -1)
				r = -1;
			else
				*n += same;
		}
	sqlite3_finalize(st);
	event_keyer_free(k);
	if (r == 0 && rc != SQLITE_DONE)
		return db_error(a, e, "cannot read the archive");
	return r;
}

static void
sqlite_close(struct archive *a)
{
	struct sqlite_archive *s = db_of(a);

	if (s == NULL)
		return;
	sqlite_write_rollback(a);
	sqlite_read_end(a);
	sqlite3_finalize(s->put_deal);
	sqlite3_finalize(s->put_hand);
	sqlite3_finalize(s->put_deals);
	sqlite3_finalize(s->put_hands);
	sqlite3_finalize(s->candidates);
	sqlite3_finalize(s->deal_range);
	sqlite3_finalize(s->set_by_id);
	sqlite3_finalize(s->set_by_digest);
	sqlite3_finalize(s->set_of_deal);
	sqlite3_close(s->db);
	free(s);
	a->db = NULL;
}

static const struct archive_ops sqlite_ops = {
	.name = "sqlite",
	.shared = 0,
	.write_begin = sqlite_write_begin,
	.write_commit = sqlite_write_commit,
	.write_rollback = sqlite_write_rollback,
	.put_deals = sqlite_put_deals,
	.put_hands = sqlite_put_hands,
	.put_set = sqlite_put_set,
	.read_begin = sqlite_read_begin,
	.read_end = sqlite_read_end,
	.candidates = sqlite_candidates,
	.set_by_id = sqlite_set_by_id,
	.set_by_digest = sqlite_set_by_digest,
	.sets = sqlite_sets,
	.deals = sqlite_deals,
	.mark_played = sqlite_mark_played,
	.mark_shared = sqlite_mark_shared,
	.count = sqlite_count,
	.count_event = sqlite_count_event,
	.compact = sqlite_compact,
	.close = sqlite_close,
};

/* How long a writer waits for another (DL_ARCHIVE_WAIT seconds). */
static int
wait_ms(void)
{
	const char *env = getenv("DL_ARCHIVE_WAIT");
	const char *errstr;
	long long s;

	if (env == NULL)
		return 60000;
	s = strtonum(env, 0, 3600, &errstr);
	return errstr != NULL ? 60000 : (int)(s * 1000);
}

/* Another writer holds the archive: try again every millisecond until
 * DL_ARCHIVE_WAIT is over.  SQLite's own busy timeout sleeps ever longer
 * (up to 100 ms a time), which a web server's requests, each a short add,
 * would wait on for nothing. */
static int
busy_wait(void *arg, int count)
{
	struct sqlite_archive *s = arg;
	struct timespec now, pause = { 0, 1000000 };
	long long waited;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (count == 0)
		s->busy_since = now;
	waited = (now.tv_sec - s->busy_since.tv_sec) * 1000LL +
	    (now.tv_nsec - s->busy_since.tv_nsec) / 1000000;
	if (waited >= s->wait_ms)
		return 0;
	nanosleep(&pause, NULL);
	return 1;
}

/* The archive decides what a check answers, and SQLite runs what its
 * file's schema says: only a regular file of a trusted path (util.h, the
 * plugins' rule) is opened, the file the user's or root's and writable by
 * nobody else, every folder above it too (another user who could write
 * there could put a journal beside it, which SQLite would play back into
 * it).  O_NONBLOCK: a FIFO must not hang the open.  Its real name, for
 * SQLite to open with no link followed again. */
static char *
trusted_file(const char *path, struct dl_error *e)
{
	char *real = realpath(path, NULL);
	struct stat st;
	int fd, r = 0;

	if (real == NULL) {
		dl_error_sys(e, "%s", path);
		return NULL;
	}
	if (path_directories_trusted(path, real, "not opening it", e) == -1)
		r = -1;
	else if ((fd = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) == -1)
		r = dl_error_sys(e, "%s", path);
	else {
		if (fstat(fd, &st) == -1)
			r = dl_error_sys(e, "%s", path);
		else if (!S_ISREG(st.st_mode))
			r = dl_error_set(e, DL_ERR_SYSTEM, "%s: not a regular file: not opening it",
			    path);
		else
			r = path_stat_trusted(path, "the archive", &st, "not opening it", e);
		close(fd);
	}
	if (r == -1) {
		free(real);
		return NULL;
	}
	return real;
}

int
archive_sqlite_open(struct archive *a, const char *path, unsigned flags, struct dl_error *e)
{
	struct sqlite_archive *s = xcalloc(1, sizeof *s);
	struct stat st;
	int mode = flags & ARCHIVE_WRITE ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;
	char *real = NULL;

	a->ops = &sqlite_ops;
	a->db = s;
	a->name = xstrdup(path);
	if (lstat(path, &st) == -1) {
		if (errno != ENOENT || !(flags & ARCHIVE_WRITE)) {
			dl_error_sys(e, "%s", path);
			goto fail;
		}
		if (create_file(path, e) == -1)
			goto fail;
	}
	if ((real = trusted_file(path, e)) == NULL)
		goto fail;
	/* no mutexes: an archive is one thread's (archive.h) */
	if (sqlite3_open_v2(real, &s->db, mode | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX,
	    NULL) != SQLITE_OK) {
		db_error(a, e, "cannot open");
		goto fail;
	}
	free(real);
	real = NULL;
	/* what the file says is not trusted: SQLite's defensive mode (no
	 * writing its schema by hand), no function with side effects run
	 * from its schema, no trigger or view at all (dl makes none, and
	 * schema_is_dls refuses one) */
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)NULL);
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, (int *)NULL);
	s->wait_ms = wait_ms();
	sqlite3_busy_handler(s->db, busy_wait, s);
	sqlite3_extended_result_codes(s->db, 0);
	if (schema(a, flags, e) == -1)
		goto fail;
	if (exec(a, "PRAGMA cache_size = -65536", e) == -1)
		goto fail;
	/* A reader's pages are read in place (mmap) rather than copied by a
	 * pread each, up to SQLite's own ceiling (SQLITE_MAX_MMAP_SIZE,
	 * 0x7fff0000 unless built otherwise): a check of archived boards
	 * misses the cache above on most leaves it reads, and the copies
	 * were about a tenth of its time (docs/performance.md, issue 36).
	 * The writers (adds, dl-deal, dl-web's requests) stay as they were
	 * measured.  An I/O error in a mapped page is a signal, not an
	 * error: taken for a file that is ours (trusted_file). */
	if (!(flags & ARCHIVE_WRITE) && exec(a, "PRAGMA mmap_size = 2147418112", e) == -1)
		goto fail;
	return 0;
fail:
	free(real);
	sqlite_close(a);
	return -1;
}
