/* The archive in PostgreSQL (deal_archive.h, backend.h): one a federation
 * shares.  Its sets are SQLite's (archive_sqlite.c); from schema 7 its
 * deals and hands are packed, so that 10^9 deals fit in some 100 bytes
 * each and a check reads a few rows a hand (docs/archive.md, "Checks at
 * scale"):
 *   deal_blocks   (first, deals): the deals first, first + 1, ... (64 at
 *                 most), each its board (4 bytes, big-endian) and its
 *                 number (12);
 *   hand_buckets  (bucket, entries): the deals holding a hand whose key's
 *                 top bucket_bits bits are the bucket, each its number and
 *                 its set's id (4 bytes, big-endian): 16 bytes an entry.
 *                 Not its board: a check asks for the boards (and words)
 *                 of the sets it found boards of dealt before alone
 *                 (archive.c's shared_hits_words), and four boards a deal
 *                 were a sixth of the archive.
 * A check sends its key ranges; the server turns them into buckets and
 * returns them whole, and every entry is compared here.  The connection
 * string may hold a password: messages name the database and its host
 * only. */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <pthread.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "archive/deal_archive.h"
#include "archive/backend.h"
#include "archive/event_key.h"
#include "stream/proto.h"
#include "base/util.h"

/* libpq is loaded when a PostgreSQL archive is opened, not with the
 * program: it brings some thirty libraries (OpenSSL, Kerberos, LDAP),
 * 6 ms of every run of dl-archive, dl-deal and dl-web, which keep their
 * sets in SQLite.  Its functions, by its header's types. */
#define PQ_LIBRARY "libpq.so.5"
#define PQ_FUNCTIONS(X) \
	X(PQclear) \
	X(PQcmdTuples) \
	X(PQconnectdb) \
	X(PQdb) \
	X(PQerrorMessage) \
	X(PQexec) \
	X(PQexecParams) \
	X(PQfinish) \
	X(PQgetResult) \
	X(PQgetisnull) \
	X(PQgetlength) \
	X(PQgetvalue) \
	X(PQhost) \
	X(PQnfields) \
	X(PQntuples) \
	X(PQputCopyData) \
	X(PQputCopyEnd) \
	X(PQresultErrorField) \
	X(PQresultErrorMessage) \
	X(PQresultStatus) \
	X(PQsetNoticeProcessor) \
	X(PQstatus)

static struct {
#define PQ_POINTER(name) __typeof__(&name) name;
	PQ_FUNCTIONS(PQ_POINTER)
#undef PQ_POINTER
} pq;
static pthread_once_t pq_once = PTHREAD_ONCE_INIT;
static char pq_error[256];
static int pq_ready;

static void
pq_load(void)
{
	void *h = dlopen(PQ_LIBRARY, RTLD_NOW | RTLD_LOCAL);

	if (h == NULL) {
		snprintf(pq_error, sizeof pq_error, "%s", dlerror());
		return;
	}
#define PQ_SYMBOL(name) \
	if ((*(void **)&pq.name = dlsym(h, #name)) == NULL) { \
		snprintf(pq_error, sizeof pq_error, "%s has no %s", PQ_LIBRARY, #name); \
		return; \
	}
	PQ_FUNCTIONS(PQ_SYMBOL)
#undef PQ_SYMBOL
	pq_ready = 1;
}

/* A deal put and not yet indexed: its board and number, for its hands'
 * entries (schema 7). */
struct held_deal {
	unsigned board;
	unsigned char number[DEAL_NUMBER_BYTES];
};

struct pg_archive {
	PGconn *conn;
	int writing;
	int64_t version;	/* of the schema: 2 is read as it is */
	/* a write of schema 7: the set's id, taken from the sequence when
	 * its first hand goes in (0: not yet); the buckets' bits; the deals
	 * put since the last hands, from id held_first */
	int64_t set_id;
	unsigned bucket_bits;
	struct held_deal *held;
	size_t nheld, capheld;
	int64_t held_first;
	int hands_put;
};

/* An entry of hand_buckets: number, set. */
#define ENTRY_BYTES (DEAL_NUMBER_BYTES + 4)
/* A deal of deal_blocks: board, number; a block's most. */
#define BLOCK_DEAL_BYTES (4 + DEAL_NUMBER_BYTES)
#define BLOCK_DEALS 64
/* A new archive's buckets: 2^16, about 61 entries each at 10^6 deals
 * (the rows' overhead is a thirtieth of the table from there on; their
 * entries grow with the archive, and a check's candidates with them);
 * compact sizes them to the archive (bucket_bits_for). */
#define BUCKET_BITS_NEW 16

/* The packed tables of schema 7: their rows are some 1 KB of bytes
 * nobody can compress (random deals), kept out of line past 2 KB
 * without trying (STORAGE EXTERNAL).  No room is kept in a page for a
 * bucket's row to grow in (fillfactor): it would be a tenth of the
 * table, and a row that grows is written where there is room. */
#define DEAL_BLOCKS_TABLE \
    "CREATE TABLE deal_blocks (first bigint PRIMARY KEY, deals bytea NOT NULL);" \
    "ALTER TABLE deal_blocks ALTER deals SET STORAGE EXTERNAL;"
#define HAND_BUCKETS_TABLE(name) \
    "CREATE TABLE " name " (bucket integer PRIMARY KEY, entries bytea NOT NULL);" \
    "ALTER TABLE " name " ALTER entries SET STORAGE EXTERNAL;"
#define STR(x) #x
#define XSTR(x) STR(x)

static const char schema_sql[] =
    "CREATE TABLE dl_archive (name text PRIMARY KEY, value bigint NOT NULL);"
    "CREATE TABLE sets ("
    " id bigserial PRIMARY KEY,"
    " digest bytea NOT NULL UNIQUE,"
    " fingerprint text NOT NULL,"
    " first_deal bigint NOT NULL UNIQUE,"
    " boards integer NOT NULL,"
    " low integer NOT NULL,"
    " high integer NOT NULL,"
    " event text, site text, date text, generator text, headers text,"
    " source text,"
    " archived text NOT NULL,"
    " played text,"
    " \"user\" text,"
    " dv text,"
    " event_key text,"
    " club text,"
    " played_by text,"
    " shared text);"
    DEAL_BLOCKS_TABLE
    HAND_BUCKETS_TABLE("hand_buckets")
    "CREATE INDEX sets_event_key ON sets (event_key);"
    "INSERT INTO dl_archive VALUES ('schema', 7), ('bucket_bits', " XSTR(BUCKET_BITS_NEW) ");";

/* Schema 3: the boards' own dealers and vulnerabilities (struct
 * archive_set's dv). */
static const char schema_v3[] =
    "ALTER TABLE sets ADD COLUMN dv text;"
    "UPDATE dl_archive SET value = 3 WHERE name = 'schema';";

/* Schema 4: the key an event's sets are counted by (event_key.h), filled
 * for the sets already there by fill_event_keys. */
static const char schema_v4[] =
    "ALTER TABLE sets ADD COLUMN event_key text;"
    "DROP INDEX sets_event;"
    "CREATE INDEX sets_event_key ON sets (event_key);"
    "UPDATE dl_archive SET value = 4 WHERE name = 'schema';";

/* Schema 5: who played a set (the club, DL_CLUB, and the user who marked
 * it), and when a club's set reached the shared archive. */
static const char schema_v5[] =
    "ALTER TABLE sets ADD COLUMN club text;"
    "ALTER TABLE sets ADD COLUMN played_by text;"
    "ALTER TABLE sets ADD COLUMN shared text;"
    "UPDATE dl_archive SET value = 5 WHERE name = 'schema';";

/* Schema 6: a club's archive indexes each deal's halves too; a shared
 * one does not (archive.c's keys_a_deal): the version alone. */
static const char schema_v6[] =
    "UPDATE dl_archive SET value = 6 WHERE name = 'schema';";

/* Schema 7: deals and hands packed (the comment at the top), the rows of
 * deals and hands moved into them: the deals 64 to a block, the hands
 * into 2^16 buckets by their keys' top bits, each with its deal's set
 * (a deal no set holds, which dl never wrote, is left out). */
static const char schema_v7[] =
    DEAL_BLOCKS_TABLE
    HAND_BUCKETS_TABLE("hand_buckets")
    "INSERT INTO deal_blocks SELECT min(id), string_agg(int4send(board) || number, ''::bytea"
    " ORDER BY id) FROM deals GROUP BY (id - 1) / " XSTR(BLOCK_DEALS) ";"
    "INSERT INTO hand_buckets SELECT ((h.key::bigint + 2147483648) >> (32 - " XSTR(BUCKET_BITS_NEW)
    "))::integer, string_agg(d.number || int4send(s.id::integer), ''::bytea"
    " ORDER BY h.key, h.deal) FROM hands h JOIN deals d ON d.id = h.deal"
    " CROSS JOIN LATERAL (SELECT id FROM sets WHERE first_deal <= d.id"
    " AND d.id < first_deal + boards ORDER BY first_deal DESC LIMIT 1) AS s GROUP BY 1;"
    "DROP TABLE hands, deals;"
    "INSERT INTO dl_archive VALUES ('bucket_bits', " XSTR(BUCKET_BITS_NEW) ");"
    "UPDATE dl_archive SET value = 7 WHERE name = 'schema';";

/* The columns of dl's tables at each schema, "table column type" in the
 * order of their places (schema_is_dls): a view, or a table of other
 * columns, is no archive dl made. */
#define SETS_2 "sets id bigint,sets digest bytea,sets fingerprint text,sets first_deal bigint," \
	"sets boards integer,sets low integer,sets high integer,sets event text," \
	"sets site text,sets date text,sets generator text,sets headers text," \
	"sets source text,sets archived text,sets played text,sets user text"
#define SETS_5 SETS_2 ",sets dv text,sets event_key text,sets club text,sets played_by text" \
	",sets shared text"
#define COLUMNS_2 "deals id bigint,deals board integer,deals number bytea," \
	"dl_archive name text,dl_archive value bigint," \
	"hands key integer,hands deal bigint," SETS_2
static const char *const schema_columns[ARCHIVE_SCHEMA + 1] = {
	NULL, NULL, COLUMNS_2, COLUMNS_2 ",sets dv text",
	COLUMNS_2 ",sets dv text,sets event_key text",
	COLUMNS_2 ",sets dv text,sets event_key text,sets club text,sets played_by text"
	",sets shared text",
	COLUMNS_2 ",sets dv text,sets event_key text,sets club text,sets played_by text"
	",sets shared text",
	"deal_blocks first bigint,deal_blocks deals bytea,dl_archive name text,"
	"dl_archive value bigint,hand_buckets bucket integer,hand_buckets entries bytea," SETS_5,
};
/* dl's tables, of every schema: the four of one are there, no more */
#define DL_TABLES "('dl_archive', 'sets', 'deals', 'hands', 'deal_blocks', 'hand_buckets')"

static PGconn *
conn_of(struct archive *a)
{
	return ((struct pg_archive *)a->db)->conn;
}

/* The server's message, its first line, on the archive's name. */
static int
pg_error(struct archive *a, struct dl_error *e, const PGresult *res, const char *what)
{
	const char *msg = res != NULL ? pq.PQresultErrorMessage(res) : pq.PQerrorMessage(conn_of(a));
	const char *state = res != NULL ? pq.PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	size_t len = strcspn(msg, "\n");

	/* 55P03: lock_not_available, after DL_ARCHIVE_WAIT seconds */
	if (state != NULL && strcmp(state, "55P03") == 0)
		return dl_error_set(e, DL_ERR_SYSTEM,
		    "%s: busy: another process is writing to the archive (waited %s s)",
		    a->name, getenv("DL_ARCHIVE_WAIT") ? getenv("DL_ARCHIVE_WAIT") : "60");
	return dl_error_set(e, DL_ERR_SYSTEM, "%s: %s: %.*s", a->name, what, (int)len, msg);
}

/* A command without rows; 0 or -1. */
static int
command(struct archive *a, struct dl_error *e, const char *sql)
{
	PGresult *res = pq.PQexec(conn_of(a), sql);
	int r = 0;

	if (pq.PQresultStatus(res) != PGRES_COMMAND_OK && pq.PQresultStatus(res) != PGRES_TUPLES_OK)
		r = pg_error(a, e, res, "cannot run the query");
	pq.PQclear(res);
	return r;
}

/* A query with text parameters and text results: the result, or NULL
 * with *e set. */
static PGresult *
query(struct archive *a, struct dl_error *e, const char *sql, int n, const char *const *params)
{
	PGresult *res = pq.PQexecParams(conn_of(a), sql, n, NULL, params, NULL, NULL, 0);

	if (pq.PQresultStatus(res) != PGRES_TUPLES_OK && pq.PQresultStatus(res) != PGRES_COMMAND_OK) {
		pg_error(a, e, res, "cannot read the archive");
		pq.PQclear(res);
		return NULL;
	}
	return res;
}

/* A number the server sends as text: digits, a sign at most (what the
 * server holds is input, as a file is). */
static int
integer_of(const char *text, int64_t *value)
{
	long long v;
	int negative = text[0] == '-';

	if (decimal_parse(text + negative, strlen(text + negative), 0, INT64_MAX, &v) == -1)
		return -1;
	*value = negative ? -v : v;
	return 0;
}

static int
query_int(struct archive *a, struct dl_error *e, const char *sql, int64_t *value)
{
	PGresult *res = query(a, e, sql, 0, NULL);

	if (res == NULL)
		return -1;
	*value = 0;
	if (pq.PQntuples(res) > 0 && !pq.PQgetisnull(res, 0, 0) &&
	    integer_of(pq.PQgetvalue(res, 0, 0), value) == -1) {
		pq.PQclear(res);
		return dl_error_set(e, DL_ERR_INPUT, "%s: not a number where a number was asked",
		    a->name);
	}
	pq.PQclear(res);
	return 0;
}

static int
wait_seconds(void)
{
	const char *env = getenv("DL_ARCHIVE_WAIT");
	const char *errstr;
	long long s;

	if (env == NULL)
		return 60;
	s = strtonum(env, 0, 3600, &errstr);
	return errstr != NULL ? 60 : (int)s;
}

/* The one writer: the tables locked against other writers (readers go
 * on), waiting DL_ARCHIVE_WAIT seconds at most. */
static int
lock_writers(struct archive *a, struct dl_error *e)
{
	char sql[128];

	snprintf(sql, sizeof sql, "SET LOCAL lock_timeout = '%ds'", wait_seconds());
	if (command(a, e, sql) == -1 ||
	    command(a, e, "LOCK TABLE sets, deal_blocks, hand_buckets IN SHARE ROW EXCLUSIVE MODE")
	    == -1)
		return -1;
	return 0;
}

/* The server's tables are what dl makes: ordinary tables (not a view
 * in a table's place) with dl's columns at this schema.  What else the
 * server's operator can do (answer slowly, wrongly) is docs/archive.md's,
 * "Privacy": a statement is cut off after a time, every value checked. */
static int
schema_is_dls(struct archive *a, int64_t version, struct dl_error *e)
{
	PGresult *res;
	int64_t tables;
	int ok;

	if (query_int(a, e, "SELECT count(*) FROM pg_class c JOIN pg_namespace n"
	    " ON n.oid = c.relnamespace WHERE n.nspname = current_schema()"
	    " AND c.relname IN " DL_TABLES " AND c.relkind = 'r'",
	    &tables) == -1)
		return -1;
	res = query(a, e, "SELECT string_agg(table_name || ' ' || column_name || ' ' || data_type,"
	    " ',' ORDER BY table_name, ordinal_position) FROM information_schema.columns"
	    " WHERE table_schema = current_schema()"
	    " AND table_name IN " DL_TABLES, 0, NULL);
	if (res == NULL)
		return -1;
	ok = tables == 4 && pq.PQntuples(res) == 1 && !pq.PQgetisnull(res, 0, 0) &&
	    strcmp(pq.PQgetvalue(res, 0, 0), schema_columns[version]) == 0;
	pq.PQclear(res);
	if (!ok)
		return dl_error_set(e, DL_ERR_INPUT, "%s: not an archive dl made: its tables are"
		    " not dl's (changed, or made by another program)", a->name);
	return 0;
}

/* The keys made here go into the sets a thousand at a time, as arrays
 * "{ID,...}" and "{"KEY",...}" (a key is printable text: a quote and a
 * backslash are escaped as an array element's). */
static int
put_event_keys(struct archive *a, const int64_t *ids, char *const *keys, size_t n,
    struct dl_error *e)
{
	size_t id_size = 22 * n + 3, key_size = 3, at = 0, kat = 0;
	char *id_text, *key_text;
	const char *params[2];
	PGresult *res;

	for (size_t i = 0; i < n; i++)
		key_size += 2 * strlen(keys[i]) + 3;
	id_text = xmalloc(id_size);
	key_text = xmalloc(key_size);
	id_text[at++] = '{';
	key_text[kat++] = '{';
	for (size_t i = 0; i < n; i++) {
		at += (size_t)snprintf(id_text + at, id_size - at, "%s%lld", i > 0 ? "," : "",
		    (long long)ids[i]);
		if (i > 0)
			key_text[kat++] = ',';
		key_text[kat++] = '"';
		for (const char *c = keys[i]; *c != '\0'; c++) {
			if (*c == '"' || *c == '\\')
				key_text[kat++] = '\\';
			key_text[kat++] = *c;
		}
		key_text[kat++] = '"';
	}
	strcpy(id_text + at, "}");
	strcpy(key_text + kat, "}");
	params[0] = id_text;
	params[1] = key_text;
	res = query(a, e, "UPDATE sets SET event_key = k.key FROM unnest($1::bigint[], $2::text[])"
	    " AS k(id, key) WHERE sets.id = k.id", 2, params);
	free(id_text);
	free(key_text);
	if (res == NULL)
		return -1;
	pq.PQclear(res);
	return 0;
}

/* Schema 4's event_key of every set that has an event, in the upgrade's
 * transaction. */
static int
fill_event_keys(struct archive *a, struct dl_error *e)
{
	PGresult *res = query(a, e, "SELECT id, event FROM sets WHERE event IS NOT NULL", 0, NULL);
	struct event_keyer *k = NULL;
	int64_t ids[1000];
	char *keys[1000];
	size_t held = 0;
	int r = 0;

	if (res == NULL)
		return -1;
	for (int i = 0; i < pq.PQntuples(res) && r == 0; i++) {
		const char *event = pq.PQgetvalue(res, i, 1);

		if (integer_of(pq.PQgetvalue(res, i, 0), &ids[held]) == -1 ||
		    !header_value_is_valid(event)) {
			r = dl_error_set(e, DL_ERR_INPUT, "%s: a set's event: damaged (a text that"
			    " is not one line of printable UTF-8)", a->name);
			break;
		}
		if ((r = archive_event_key(&k, event, &keys[held], e)) == -1)
			break;
		if (++held == 1000 || i + 1 == pq.PQntuples(res)) {
			r = put_event_keys(a, ids, keys, held, e);
			while (held > 0)
				free(keys[--held]);
		}
	}
	while (held > 0)
		free(keys[--held]);
	pq.PQclear(res);
	event_keyer_free(k);
	return r;
}

static int
schema(struct archive *a, unsigned flags, struct dl_error *e)
{
	int64_t tables, version;

	if (query_int(a, e, "SELECT count(*) FROM pg_tables WHERE tablename = 'dl_archive'"
	    " AND schemaname = current_schema()", &tables) == -1)
		return -1;
	if (tables == 0) {
		if (!(flags & ARCHIVE_WRITE))
			return dl_error_set(e, DL_ERR_INPUT, "%s: an empty archive", a->name);
		/* two first writers at once: one makes the tables, the other
		 * waits and finds them */
		if (command(a, e, "BEGIN") == -1 ||
		    command(a, e, "SELECT pg_advisory_xact_lock(1684816210)") == -1 ||
		    query_int(a, e, "SELECT count(*) FROM pg_tables WHERE tablename = 'dl_archive'"
		    " AND schemaname = current_schema()", &tables) == -1 ||
		    (tables == 0 && command(a, e, schema_sql) == -1) ||
		    command(a, e, "COMMIT") == -1) {
			command(a, NULL, "ROLLBACK");
			return -1;
		}
	}
	if (query_int(a, e, "SELECT value FROM dl_archive WHERE name = 'schema'", &version) == -1)
		return -1;
	if (version > ARCHIVE_SCHEMA)
		return dl_error_set(e, DL_ERR_INPUT,
		    "%s: archive of schema %lld, newer than this dl's (%d): upgrade dl",
		    a->name, (long long)version, ARCHIVE_SCHEMA);
	if (version < 2)
		return dl_error_set(e, DL_ERR_INPUT, "%s: not a dl archive", a->name);
	if (schema_is_dls(a, version, e) == -1)
		return -1;
	if (version < ARCHIVE_SCHEMA && (flags & ARCHIVE_WRITE)) {
		/* two writers upgrading at once: one does, the other finds it
		 * done */
		if (command(a, e, "BEGIN") == -1 ||
		    command(a, e, "SELECT pg_advisory_xact_lock(1684816210)") == -1 ||
		    query_int(a, e, "SELECT value FROM dl_archive WHERE name = 'schema'",
		    &version) == -1 ||
		    (version == 2 && command(a, e, schema_v3) == -1) ||
		    (version <= 3 && (command(a, e, schema_v4) == -1 ||
		    fill_event_keys(a, e) == -1)) ||
		    (version <= 4 && command(a, e, schema_v5) == -1) ||
		    (version <= 5 && command(a, e, schema_v6) == -1) ||
		    (version <= 6 && command(a, e, schema_v7) == -1) ||
		    command(a, e, "COMMIT") == -1) {
			command(a, NULL, "ROLLBACK");
			return -1;
		}
		version = ARCHIVE_SCHEMA;
	}
	((struct pg_archive *)a->db)->version = version;
	return 0;
}

/* The deals held for their hands' entries, forgotten. */
static void
held_clear(struct pg_archive *p)
{
	free(p->held);
	p->held = NULL;
	p->nheld = p->capheld = 0;
	p->hands_put = 0;
}

/* The write's state, at its end (committed or not). */
static void
write_end(struct pg_archive *p)
{
	p->writing = 0;
	p->set_id = 0;
	held_clear(p);
}

/* The bits of the buckets of an archive of deals deals: about
 * ARCHIVE_CANDIDATES_A_PREFIX entries a bucket (rows of 0.6 to 1.3 KB,
 * their 40 bytes of overhead a thirtieth at most), the prefix a check
 * needs (archive_shared_prefix_bits' rule). */
static unsigned
bucket_bits_for(int64_t deals)
{
	double bits = ceil(log2((double)(deals > 1 ? deals : 1) * 4 / ARCHIVE_CANDIDATES_A_PREFIX));

	return bits < 8 ? 8 : bits > 28 ? 28 : (unsigned)bits;
}

/* The archive's bucket_bits, as its row says (8 to 28, else damaged). */
static int
read_bucket_bits(struct archive *a, unsigned *bits, struct dl_error *e)
{
	int64_t v;

	if (query_int(a, e, "SELECT value FROM dl_archive WHERE name = 'bucket_bits'", &v) == -1)
		return -1;
	if (v < 8 || v > 28)
		return dl_error_set(e, DL_ERR_INPUT, "%s: its buckets' bits: damaged (not 8 to 28)",
		    a->name);
	*bits = (unsigned)v;
	return 0;
}

static int
pg_write_begin(struct archive *a, int64_t *next_deal, struct dl_error *e)
{
	struct pg_archive *p = a->db;

	if (command(a, e, "BEGIN") == -1)
		return -1;
	p->writing = 1;
	p->set_id = 0;
	held_clear(p);
	/* the next deal follows the last set's (first_deal's index) */
	if (lock_writers(a, e) == -1 ||
	    query_int(a, e, "SELECT coalesce((SELECT first_deal + boards FROM sets"
	    " ORDER BY first_deal DESC LIMIT 1), 1)", next_deal) == -1 ||
	    read_bucket_bits(a, &p->bucket_bits, e) == -1) {
		a->ops->write_rollback(a);
		return -1;
	}
	if (*next_deal < 1)
		*next_deal = 1;
	return 0;
}

static int
pg_write_commit(struct archive *a, struct dl_error *e)
{
	if (command(a, e, "COMMIT") == -1)
		return -1;
	write_end(a->db);
	return 0;
}

static void
pg_write_rollback(struct archive *a)
{
	struct pg_archive *p = a->db;

	if (p->writing)
		command(a, NULL, "ROLLBACK");
	write_end(p);
}

/* A COPY begun: 0, or -1 with *e set. */
static int
copy_begin(struct archive *a, const char *sql, struct dl_error *e)
{
	PGresult *res = pq.PQexec(conn_of(a), sql);
	int r = 0;

	if (pq.PQresultStatus(res) != PGRES_COPY_IN)
		r = pg_error(a, e, res, "cannot write to the archive");
	pq.PQclear(res);
	return r;
}

/* The COPY ended, r what came of sending its rows (-1: it is cancelled):
 * 0, or -1 with *e set. */
static int
copy_end(struct archive *a, int r, struct dl_error *e)
{
	PGconn *conn = conn_of(a);
	PGresult *res;

	if (pq.PQputCopyEnd(conn, r == 0 ? NULL : "dl-archive stopped") != 1)
		r = -1;
	while ((res = pq.PQgetResult(conn)) != NULL) {
		if (pq.PQresultStatus(res) != PGRES_COMMAND_OK && r == 0)
			r = pg_error(a, e, res, "cannot write to the archive");
		pq.PQclear(res);
	}
	if (r == -1 && e != NULL && e->kind == DL_ERR_NONE)
		pg_error(a, e, NULL, "cannot write to the archive");
	return r;
}

/* COPY of text lines; line() writes row i into buf, returns its length
 * (less than COPY_LINE_MAX: a block of deals is some 2 KB). */
#define COPY_LINE_MAX 4096
static int
copy_rows(struct archive *a, const char *sql, size_t n,
    size_t (*line)(char *buf, const void *rows, size_t i), const void *rows, struct dl_error *e)
{
	PGconn *conn = conn_of(a);
	char buf[65536];
	size_t used = 0;
	int r = 0;

	if (copy_begin(a, sql, e) == -1)
		return -1;
	for (size_t i = 0; i < n && r == 0; i++) {
		used += line(buf + used, rows, i);
		if (used > sizeof buf - COPY_LINE_MAX) {
			if (pq.PQputCopyData(conn, buf, (int)used) != 1)
				r = -1;
			used = 0;
		}
	}
	if (r == 0 && used > 0 && pq.PQputCopyData(conn, buf, (int)used) != 1)
		r = -1;
	return copy_end(a, r, e);
}

/* A block of deal_blocks: the deals from first, n of them. */
struct block {
	const struct deal_row *first;
	size_t n;
};

static size_t
block_line(char *buf, const void *rows, size_t i)
{
	const struct block *b = (const struct block *)rows + i;
	size_t at = (size_t)sprintf(buf, "%lld\t\\\\x", (long long)b->first->id);

	for (size_t d = 0; d < b->n; d++) {
		const struct deal_row *r = b->first + d;

		at += (size_t)sprintf(buf + at, "%08x", r->board);
		for (unsigned k = 0; k < DEAL_NUMBER_BYTES; k++)
			at += (size_t)sprintf(buf + at, "%02x", r->number[k]);
	}
	buf[at++] = '\n';
	return at;
}

/* The deals into blocks of BLOCK_DEALS at most, each of ids one after
 * the other, and held until their hands are put (pg_put_hands). */
static int
pg_put_deals(struct archive *a, const struct deal_row *rows, size_t n, struct dl_error *e)
{
	struct pg_archive *p = a->db;
	struct block *blocks = xreallocarray(NULL, n ? n : 1, sizeof *blocks);
	size_t nblocks = 0;
	int r;

	dl_error_clear(e);
	/* the deals after a batch of hands: those before are indexed */
	if (p->hands_put)
		held_clear(p);
	for (size_t i = 0; i < n; i++) {
		if (p->nheld == 0)
			p->held_first = rows[i].id;
		if (rows[i].id != p->held_first + (int64_t)p->nheld) {
			free(blocks);
			return dl_error_set(e, DL_ERR_SYSTEM, "%s: deals put out of order", a->name);
		}
		if (p->nheld == p->capheld) {
			p->capheld = p->capheld ? 2 * p->capheld : 64;
			p->held = xreallocarray(p->held, p->capheld, sizeof *p->held);
		}
		p->held[p->nheld].board = rows[i].board;
		memcpy(p->held[p->nheld++].number, rows[i].number, DEAL_NUMBER_BYTES);
		if (nblocks > 0 && blocks[nblocks - 1].n < BLOCK_DEALS &&
		    blocks[nblocks - 1].first + blocks[nblocks - 1].n == &rows[i] &&
		    rows[i].id == rows[i - 1].id + 1)
			blocks[nblocks - 1].n++;
		else
			blocks[nblocks++] = (struct block){ &rows[i], 1 };
	}
	r = copy_rows(a, "COPY deal_blocks (first, deals) FROM STDIN", nblocks, block_line,
	    blocks, e);
	free(blocks);
	return r;
}

/* Text made a piece at a time (a statement's array parameters). */
struct text {
	char *data;
	size_t len, cap;
};

static void
text_add(struct text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		t->cap = t->cap ? 2 * t->cap : 4096;
		while (t->len + n + 1 > t->cap)
			t->cap *= 2;
		t->data = xreallocarray(t->data, t->cap, 1);
	}
	memcpy(t->data + t->len, s, n);
	t->len += n;
	t->data[t->len] = '\0';
}

static void
text_hex(struct text *t, const unsigned char *bytes, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	char hex[2];

	for (size_t i = 0; i < n; i++) {
		hex[0] = digits[bytes[i] >> 4];
		hex[1] = digits[bytes[i] & 15];
		text_add(t, hex, 2);
	}
}

static void
be32_put(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* The hands (in their keys' order) into their buckets: each an entry of
 * its deal (held by pg_put_deals) and the set's id, taken from the
 * sequence with the set's first hand; each bucket's entries added to its
 * row, all in one statement (the rows are in order, so that a bucket's
 * entries are one element: a row changed twice by one statement is an
 * error). */
static int
pg_put_hands(struct archive *a, const struct hand_row *rows, size_t n, struct dl_error *e)
{
	struct pg_archive *p = a->db;
	struct text buckets = { 0 }, entries = { 0 };
	unsigned shift = 32 - p->bucket_bits;
	const char *params[2];
	PGresult *res;
	int r = 0;

	dl_error_clear(e);
	p->hands_put = 1;
	if (n == 0)
		return 0;
	if (p->set_id == 0 && query_int(a, e, "SELECT nextval(pg_get_serial_sequence('sets', 'id'))",
	    &p->set_id) == -1)
		return -1;
	/* an entry holds it in 4 bytes */
	if (p->set_id < 1 || p->set_id > INT32_MAX)
		return dl_error_set(e, DL_ERR_SYSTEM, "%s: full: no set number left (%lld)",
		    a->name, (long long)p->set_id);
	text_add(&buckets, "{", 1);
	text_add(&entries, "{", 1);
	for (size_t i = 0; i < n && r == 0; i++) {
		uint32_t bucket = ((uint32_t)rows[i].key ^ 0x80000000u) >> shift;
		int64_t at = rows[i].deal - p->held_first;
		unsigned char entry[ENTRY_BYTES];

		if (at < 0 || (uint64_t)at >= p->nheld) {
			r = dl_error_set(e, DL_ERR_SYSTEM, "%s: a hand of a deal not put", a->name);
			break;
		}
		if (i == 0 || bucket != (((uint32_t)rows[i - 1].key ^ 0x80000000u) >> shift)) {
			char number[16];
			int len = snprintf(number, sizeof number, "%s%u", i > 0 ? "," : "", bucket);

			text_add(&buckets, number, (size_t)len);
			/* an element \\x...: the array's escape, then bytea's */
			text_add(&entries, i > 0 ? ",\\\\x" : "\\\\x", i > 0 ? 4 : 3);
		}
		memcpy(entry, p->held[at].number, DEAL_NUMBER_BYTES);
		be32_put(entry + DEAL_NUMBER_BYTES, (uint32_t)p->set_id);
		text_hex(&entries, entry, sizeof entry);
	}
	if (r == 0) {
		text_add(&buckets, "}", 1);
		text_add(&entries, "}", 1);
		params[0] = buckets.data;
		params[1] = entries.data;
		res = query(a, e, "INSERT INTO hand_buckets (bucket, entries)"
		    " SELECT * FROM unnest($1::integer[], $2::bytea[]) ON CONFLICT (bucket)"
		    " DO UPDATE SET entries = hand_buckets.entries || excluded.entries", 2, params);
		if (res == NULL)
			r = -1;
		else
			pq.PQclear(res);
	}
	free(buckets.data);
	free(entries.data);
	return r;
}

static char *
hex_of(const unsigned char *bytes, size_t n)
{
	char *hex = xmalloc(2 * n + 3);

	hex[0] = '\\';
	hex[1] = 'x';
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 + 2 * i, 3, "%02x", bytes[i]);
	return hex;
}

/* The set, under the id its hands' entries hold (pg_put_hands), or the
 * sequence's next when it has none (a set of no hands: none). */
static int
pg_put_set(struct archive *a, struct archive_set *set, const char *event_key,
    struct dl_error *e)
{
	struct pg_archive *p = a->db;
	char id[24], first[24], boards[16], low[16], high[16];
	char *digest = hex_of(set->digest, SET_DIGEST_BYTES);
	const char *params[21] = {
		digest, set->fingerprint, first, boards, low, high, set->event, set->site,
		set->date, set->generator, set->headers, set->source, set->archived,
		set->played[0] != '\0' ? set->played : NULL, set->user, set->dv, event_key,
		set->club, set->played_by, set->shared[0] != '\0' ? set->shared : NULL,
		p->set_id != 0 ? id : NULL,
	};
	PGresult *res;

	snprintf(id, sizeof id, "%lld", (long long)p->set_id);
	snprintf(first, sizeof first, "%lld", (long long)set->first_deal);
	snprintf(boards, sizeof boards, "%u", set->boards);
	snprintf(low, sizeof low, "%u", set->low);
	snprintf(high, sizeof high, "%u", set->high);
	res = query(a, e, "INSERT INTO sets (digest, fingerprint, first_deal, boards, low, high,"
	    " event, site, date, generator, headers, source, archived, played, \"user\", dv,"
	    " event_key, club, played_by, shared, id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,"
	    " $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,"
	    " coalesce($21::bigint, nextval(pg_get_serial_sequence('sets', 'id')))) RETURNING id",
	    21, params);
	free(digest);
	if (res == NULL)
		return -1;
	if (pq.PQntuples(res) != 1 || integer_of(pq.PQgetvalue(res, 0, 0), &set->id) == -1 ||
	    set->id < 1) {
		pq.PQclear(res);
		return dl_error_set(e, DL_ERR_INPUT, "%s: the set's number it gave is not one",
		    a->name);
	}
	pq.PQclear(res);
	return 0;
}

static int64_t
be64(const char *p)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 8; i++)
		v = v << 8 | (unsigned char)p[i];
	return (int64_t)v;
}

static uint32_t
be32(const char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ntohl(v);
}

/* Rows id, board, number in binary, each to each(). */
static int
deal_results(struct archive *a, PGresult *res, int (*each)(const struct deal_row *, void *),
    void *arg, struct dl_error *e)
{
	int r = 0;

	for (int i = 0; i < pq.PQntuples(res) && r == 0; i++) {
		struct deal_row row = { 0 };

		if (pq.PQgetlength(res, i, 0) != 8 || pq.PQgetlength(res, i, 1) != 4 ||
		    pq.PQgetlength(res, i, 2) != DEAL_NUMBER_BYTES ||
		    (pq.PQnfields(res) > 3 && !pq.PQgetisnull(res, i, 3) &&
		    pq.PQgetlength(res, i, 3) != 8))
			return dl_error_set(e, DL_ERR_INPUT, "%s: a deal: damaged (not dl's columns)",
			    a->name);
		row.id = be64(pq.PQgetvalue(res, i, 0));
		row.board = be32(pq.PQgetvalue(res, i, 1));
		memcpy(row.number, pq.PQgetvalue(res, i, 2), DEAL_NUMBER_BYTES);
		/* a candidate's set, its event and date (text: the same in
		 * binary) */
		if (pq.PQnfields(res) > 3 && !pq.PQgetisnull(res, i, 3)) {
			row.set = be64(pq.PQgetvalue(res, i, 3));
			row.set_event = pq.PQgetisnull(res, i, 4) ? NULL : pq.PQgetvalue(res, i, 4);
			row.set_date = pq.PQgetisnull(res, i, 5) ? NULL : pq.PQgetvalue(res, i, 5);
			row.set_club = pq.PQnfields(res) <= 6 || pq.PQgetisnull(res, i, 6) ? NULL :
			    pq.PQgetvalue(res, i, 6);
			/* a NUL inside is no text dl wrote */
			if ((row.set_event != NULL &&
			    strlen(row.set_event) != (size_t)pq.PQgetlength(res, i, 4)) ||
			    (row.set_date != NULL &&
			    strlen(row.set_date) != (size_t)pq.PQgetlength(res, i, 5)) ||
			    (row.set_club != NULL &&
			    strlen(row.set_club) != (size_t)pq.PQgetlength(res, i, 6)))
				return dl_error_set(e, DL_ERR_INPUT, "%s: deal %lld: damaged (its"
				    " set's text)", a->name, (long long)row.id);
		}
		if (archive_deal_row_check(a, &row, e) == -1)
			return -1;
		r = each(&row, arg);
	}
	return r;
}

/* The ranges, some thousands to a query: "{lo,...}" and "{hi,...}". */

/* The look-up's body, its set's club (a column from schema 5) named. */
#define CANDIDATES_FROM(club) \
	" FROM unnest($1::int4[], $2::int4[]) AS q(lo, hi)" \
	" CROSS JOIN LATERAL (SELECT h.deal FROM hands h" \
	" WHERE h.key BETWEEN q.lo AND q.hi OFFSET 0) AS h" \
	" CROSS JOIN LATERAL (SELECT d.id, d.board, d.number FROM deals d" \
	" WHERE d.id = h.deal OFFSET 0) AS d" \
	" LEFT JOIN LATERAL (SELECT s.id, s.event, s.date, " club " FROM sets s" \
	" WHERE s.first_deal <= d.id AND d.id < s.first_deal + s.boards" \
	" ORDER BY s.first_deal DESC LIMIT 1) AS s ON true"
#define RANGES_A_QUERY 4096

/* Schema 7's look-up: the buckets the ranges touch, each once (a bucket
 * wider than a prefix holds several of the check's), each read by the
 * buckets' index (LATERAL, OFFSET 0: a plain join may read the buckets
 * whole); the bits are the archive's, kept within dl's bounds. */
#define BUCKETS_OF_RANGES \
	"SELECT h.entries FROM (SELECT DISTINCT generate_series(" \
	"(q.lo::bigint + 2147483648) >> (32 - b.bits), (q.hi::bigint + 2147483648) >> (32 - b.bits)" \
	")::integer AS bucket FROM unnest($1::int4[], $2::int4[]) AS q(lo, hi)," \
	" (SELECT least(greatest(value, 8), 28)::integer AS bits FROM dl_archive" \
	" WHERE name = 'bucket_bits') AS b) AS q" \
	" CROSS JOIN LATERAL (SELECT entries FROM hand_buckets WHERE bucket = q.bucket OFFSET 0) AS h"

/* A candidate from a bucket: its number, its set, its board not known
 * (0), and an id that tells it from the set's other deals (backend.h):
 * the set's, then the last 30 bits of the number. */
static void
entry_row(const char *entry, struct deal_row *row)
{
	memset(row, 0, sizeof *row);
	memcpy(row->number, entry, DEAL_NUMBER_BYTES);
	row->set = be32(entry + DEAL_NUMBER_BYTES);
	row->id = row->set << 30 | (int64_t)(be32(entry + DEAL_NUMBER_BYTES - 4) & 0x3fffffffu);
}

/* Rows of buckets' entries in binary, each entry to each() as a deal with
 * its set (and no words of it: backend.h). */
static int
entry_results(struct archive *a, PGresult *res, int (*each)(const struct deal_row *, void *),
    void *arg, struct dl_error *e)
{
	int r = 0;

	for (int i = 0; i < pq.PQntuples(res) && r == 0; i++) {
		const char *bytes = pq.PQgetvalue(res, i, 0);
		int len = pq.PQgetlength(res, i, 0);

		if (pq.PQnfields(res) != 1 || len % ENTRY_BYTES != 0)
			return dl_error_set(e, DL_ERR_INPUT, "%s: a bucket of hands: damaged (not"
			    " dl's entries)", a->name);
		for (int at = 0; at < len && r == 0; at += ENTRY_BYTES) {
			struct deal_row row;

			entry_row(bytes + at, &row);
			if (row.set < 1 || row.set > INT32_MAX)
				return dl_error_set(e, DL_ERR_INPUT, "%s: a bucket of hands: damaged"
				    " (a set's number)", a->name);
			if (archive_deal_row_check(a, &row, e) == -1)
				return -1;
			r = each(&row, arg);
		}
	}
	return r;
}

static int
pg_candidates(struct archive *a, const struct key_range *ranges, size_t n,
    int (*each)(const struct deal_row *, void *), void *arg, struct dl_error *e)
{
	for (size_t start = 0; start < n; start += RANGES_A_QUERY) {
		size_t count = n - start < RANGES_A_QUERY ? n - start : RANGES_A_QUERY;
		char *lo = xmalloc(12 * count + 3), *hi = xmalloc(12 * count + 3);
		size_t nlo = 0, nhi = 0;
		const char *params[2] = { lo, hi };
		PGresult *res;
		int r;

		lo[nlo++] = '{';
		hi[nhi++] = '{';
		for (size_t i = start; i < start + count; i++) {
			nlo += (size_t)sprintf(lo + nlo, i > start ? ",%d" : "%d", ranges[i].lo);
			nhi += (size_t)sprintf(hi + nhi, i > start ? ",%d" : "%d", ranges[i].hi);
		}
		strcpy(lo + nlo, "}");
		strcpy(hi + nhi, "}");
		/* Each range looked up by the hands' index, each hand's deal by
		 * the deals' (LATERAL, OFFSET 0 so that the planner keeps them
		 * apart): as a plain join the planner, which takes a range for
		 * a thousand rows where it holds one, read the deals whole into
		 * a hash join.  Each deal comes with its set (the last that
		 * begins at it or before, if the deal lies within it), its
		 * event and date: the statement is the only one a check
		 * sends, its parameters the ranges alone, whatever matches */
		res = pq.PQexecParams(conn_of(a), ((struct pg_archive *)a->db)->version >= 7 ?
		    BUCKETS_OF_RANGES : ((struct pg_archive *)a->db)->version >= 5 ?
		    "SELECT d.id, d.board, d.number, s.id, s.event, s.date, s.club"
		    CANDIDATES_FROM("s.club") :
		    "SELECT d.id, d.board, d.number, s.id, s.event, s.date, NULL"
		    CANDIDATES_FROM("NULL AS club"),
		    2, NULL, params, NULL, NULL, 1);
		free(lo);
		free(hi);
		if (pq.PQresultStatus(res) != PGRES_TUPLES_OK) {
			pg_error(a, e, res, "cannot read the archive");
			pq.PQclear(res);
			return -1;
		}
		r = ((struct pg_archive *)a->db)->version >= 7 ? entry_results(a, res, each, arg, e) :
		    deal_results(a, res, each, arg, e);
		pq.PQclear(res);
		if (r != 0)
			return r;
	}
	return 0;
}

#define SET_COLUMNS_2 "id, encode(digest, 'hex'), fingerprint, first_deal, boards, low, high," \
	" event, site, date, generator, headers, source, archived, played, \"user\""
/* what schema 2 did not keep is read as NULL */
#define SET_COLUMNS(a) (((struct pg_archive *)(a)->db)->version == 2 ? \
	SET_COLUMNS_2 ", NULL, NULL, NULL, NULL" : \
	((struct pg_archive *)(a)->db)->version <= 4 ? SET_COLUMNS_2 ", dv, NULL, NULL, NULL" : \
	SET_COLUMNS_2 ", dv, club, played_by, shared")

static char *
text_or_null(const PGresult *res, int row, int col)
{
	return pq.PQgetisnull(res, row, col) ? NULL : xstrdup(pq.PQgetvalue(res, row, col));
}

/* A board count or number column: 0 when not 1 .. BOARD_MAX, which
 * archive_set_row_check refuses. */
static unsigned
board_column(const PGresult *res, int i, int col)
{
	int64_t v;

	if (integer_of(pq.PQgetvalue(res, i, col), &v) == -1 || v < 1 || v > BOARD_MAX)
		return 0;
	return (unsigned)v;
}

/* A set's row, checked (backend.h): 0, or -1 with *e and *set cleared. */
static int
set_from_row(struct archive *a, const PGresult *res, int i, struct archive_set *set,
    struct dl_error *e)
{
	const char *hex = pq.PQgetvalue(res, i, 1);
	size_t got = 0;

	memset(set, 0, sizeof *set);
	if (integer_of(pq.PQgetvalue(res, i, 0), &set->id) == -1)
		set->id = 0;
	if (sodium_hex2bin(set->digest, SET_DIGEST_BYTES, hex, strlen(hex), NULL, &got, NULL) != 0 ||
	    got != SET_DIGEST_BYTES || strlen(hex) != 2 * SET_DIGEST_BYTES)
		return dl_error_set(e, DL_ERR_INPUT, "%s: set %lld: damaged (its digest)",
		    a->name, (long long)set->id);
	column_copy(set->fingerprint, sizeof set->fingerprint, pq.PQgetvalue(res, i, 2));
	if (integer_of(pq.PQgetvalue(res, i, 3), &set->first_deal) == -1)
		set->first_deal = 0;
	set->boards = board_column(res, i, 4);
	set->low = board_column(res, i, 5);
	set->high = board_column(res, i, 6);
	set->event = text_or_null(res, i, 7);
	set->site = text_or_null(res, i, 8);
	set->date = text_or_null(res, i, 9);
	set->generator = text_or_null(res, i, 10);
	set->headers = text_or_null(res, i, 11);
	set->source = text_or_null(res, i, 12);
	column_copy(set->archived, sizeof set->archived, pq.PQgetvalue(res, i, 13));
	if (!pq.PQgetisnull(res, i, 14))
		column_copy(set->played, sizeof set->played, pq.PQgetvalue(res, i, 14));
	set->user = text_or_null(res, i, 15);
	set->dv = set_dv_from_column(pq.PQgetisnull(res, i, 16) ? NULL :
	    pq.PQgetvalue(res, i, 16), set->boards);
	set->club = text_or_null(res, i, 17);
	set->played_by = text_or_null(res, i, 18);
	if (!pq.PQgetisnull(res, i, 19))
		column_copy(set->shared, sizeof set->shared, pq.PQgetvalue(res, i, 19));
	if (archive_set_row_check(a, set, e) == -1) {
		archive_set_clear(set);
		return -1;
	}
	return 0;
}

static int
set_rows(struct archive *a, const char *where, const char *param, struct archive_set *one,
    int (*each)(const struct archive_set *, void *), void *arg, struct dl_error *e)
{
	char *sql = xasprintf("SELECT %s FROM sets %s", SET_COLUMNS(a), where);
	PGresult *res = query(a, e, sql, param != NULL, &param);
	int r = 0;

	free(sql);
	if (res == NULL)
		return -1;
	if (one != NULL) {
		r = pq.PQntuples(res) > 0;
		if (r && set_from_row(a, res, 0, one, e) == -1)
			r = -1;
	} else
		for (int i = 0; i < pq.PQntuples(res) && r == 0; i++) {
			struct archive_set set;

			if (set_from_row(a, res, i, &set, e) == -1) {
				r = -1;
				break;
			}
			r = each(&set, arg);
			archive_set_clear(&set);
		}
	pq.PQclear(res);
	return r;
}

static int
pg_set_by_id(struct archive *a, int64_t id, struct archive_set *set, struct dl_error *e)
{
	char param[24];

	snprintf(param, sizeof param, "%lld", (long long)id);
	return set_rows(a, "WHERE id = $1", param, set, NULL, NULL, e);
}

static int
pg_set_by_digest(struct archive *a, const unsigned char *digest, struct archive_set *set,
    struct dl_error *e)
{
	char *hex = hex_of(digest, SET_DIGEST_BYTES);
	int r = set_rows(a, "WHERE digest = $1", hex, set, NULL, NULL, e);

	free(hex);
	return r;
}

static int
pg_sets(struct archive *a, int (*each)(const struct archive_set *, void *), void *arg,
    struct dl_error *e)
{
	return set_rows(a, "ORDER BY id", NULL, NULL, each, arg, e);
}

/* Rows of deal_blocks (first, deals) in binary: the deals lo .. hi of
 * them to each(), in order. */
static int
block_results(struct archive *a, PGresult *res, int64_t lo, int64_t hi,
    int (*each)(const struct deal_row *, void *), void *arg, struct dl_error *e)
{
	int r = 0;

	for (int i = 0; i < pq.PQntuples(res) && r == 0; i++) {
		const char *bytes = pq.PQgetvalue(res, i, 1);
		int len = pq.PQgetlength(res, i, 1);
		int64_t first;

		if (pq.PQgetlength(res, i, 0) != 8 || len % BLOCK_DEAL_BYTES != 0 ||
		    len > BLOCK_DEALS * BLOCK_DEAL_BYTES || (first = be64(pq.PQgetvalue(res, i, 0))) < 1)
			return dl_error_set(e, DL_ERR_INPUT, "%s: a block of deals: damaged (not"
			    " dl's columns)", a->name);
		for (int at = 0; at < len && r == 0; at += BLOCK_DEAL_BYTES) {
			struct deal_row row = { 0 };

			row.id = first + at / BLOCK_DEAL_BYTES;
			if (row.id < lo || row.id > hi)
				continue;
			row.board = be32(bytes + at);
			memcpy(row.number, bytes + at + 4, DEAL_NUMBER_BYTES);
			if (archive_deal_row_check(a, &row, e) == -1)
				return -1;
			r = each(&row, arg);
		}
	}
	return r;
}

static int
pg_deals(struct archive *a, int64_t first, int64_t last,
    int (*each)(const struct deal_row *, void *), void *arg, struct dl_error *e)
{
	int blocks = ((struct pg_archive *)a->db)->version >= 7;
	char lo[24], hi[24];
	const char *params[2] = { lo, hi };
	PGresult *res;
	int r;

	/* a block holding the first deal begins BLOCK_DEALS - 1 before it
	 * at most (a set's deals begin a block of their own when added, but
	 * the upgrade to schema 7 packed 64 deals a block, sets or not) */
	snprintf(lo, sizeof lo, "%lld", (long long)(!blocks ? first :
	    first > BLOCK_DEALS - 1 ? first - (BLOCK_DEALS - 1) : 1));
	snprintf(hi, sizeof hi, "%lld", (long long)last);
	res = pq.PQexecParams(conn_of(a), blocks ? "SELECT first, deals FROM deal_blocks"
	    " WHERE first BETWEEN $1 AND $2 ORDER BY first" : "SELECT id, board, number FROM deals"
	    " WHERE id BETWEEN $1 AND $2 ORDER BY id", 2, NULL, params, NULL, NULL, 1);
	if (pq.PQresultStatus(res) != PGRES_TUPLES_OK) {
		pg_error(a, e, res, "cannot read the archive");
		pq.PQclear(res);
		return -1;
	}
	r = blocks ? block_results(a, res, first, last, each, arg, e) :
	    deal_results(a, res, each, arg, e);
	pq.PQclear(res);
	return r;
}

/* One set's row updated: sql binds the set's id, then params. */
static int
update_set(struct archive *a, const char *sql, int64_t id, const char *p2, const char *p3,
    const char *p4, int nparams, struct dl_error *e)
{
	char param[24];
	const char *params[4] = { param, p2, p3, p4 };
	PGresult *res;
	int r;

	snprintf(param, sizeof param, "%lld", (long long)id);
	res = query(a, e, sql, nparams, params);
	if (res == NULL)
		return -1;
	r = strcmp(pq.PQcmdTuples(res), "0") != 0;
	pq.PQclear(res);
	return r;
}

/* A set played keeps the time, the club and the user it was first
 * marked with. */
static int
pg_mark_played(struct archive *a, int64_t id, const char *when, const char *club,
    const char *user, struct dl_error *e)
{
	return update_set(a, "UPDATE sets SET played = coalesce(played, $2),"
	    " club = CASE WHEN played IS NULL THEN $3 ELSE club END,"
	    " played_by = CASE WHEN played IS NULL THEN $4 ELSE played_by END"
	    " WHERE id = $1", id, when, club, user, 4, e);
}

static int
pg_mark_shared(struct archive *a, int64_t id, const char *when, struct dl_error *e)
{
	return update_set(a, "UPDATE sets SET shared = coalesce(shared, $2) WHERE id = $1", id,
	    when, NULL, NULL, 2, e);
}

/* How many deals the archive holds: the last set's last deal's id (deals
 * are numbered from 1 without gaps), read by the sets' index in an
 * instant; before schema 7, the planner's count of the deals, made by
 * VACUUM and ANALYZE (counted when there is none yet). */
static int
pg_deal_estimate(struct archive *a, int64_t *deals, struct dl_error *e)
{
	if (query_int(a, e, ((struct pg_archive *)a->db)->version >= 7 ?
	    "SELECT coalesce((SELECT first_deal + boards - 1 FROM sets"
	    " ORDER BY first_deal DESC LIMIT 1), 0)" :
	    "SELECT CASE WHEN c.reltuples >= 0 THEN c.reltuples::bigint"
	    " ELSE (SELECT count(*) FROM deals) END FROM pg_class c"
	    " WHERE c.oid = 'deals'::regclass", deals) == -1)
		return -1;
	/* a value of the server's: a number of deals, whatever it says */
	if (*deals < 0)
		*deals = 0;
	return 0;
}

static int
pg_count(struct archive *a, struct archive_counts *c, struct dl_error *e)
{
	if (query_int(a, e, "SELECT count(*) FROM sets", &c->sets) == -1 ||
	    query_int(a, e, "SELECT coalesce(sum(boards), 0) FROM sets", &c->deals) == -1 ||
	    query_int(a, e, "SELECT count(*) FROM sets WHERE played IS NOT NULL",
	    &c->played_sets) == -1 ||
	    query_int(a, e, "SELECT coalesce(sum(boards), 0) FROM sets WHERE played IS NOT NULL",
	    &c->played_deals) == -1)
		return -1;
	return 0;
}

/* A COPY of text already made (lines of tab-separated columns). */
static int
copy_text(struct archive *a, const char *sql, const struct text *t, struct dl_error *e)
{
	int r = 0;

	if (copy_begin(a, sql, e) == -1)
		return -1;
	for (size_t at = 0; at < t->len && r == 0; at += 1 << 20) {
		size_t n = t->len - at < (size_t)1 << 20 ? t->len - at : (size_t)1 << 20;

		if (pq.PQputCopyData(conn_of(a), t->data + at, (int)n) != 1)
			r = -1;
	}
	return copy_end(a, r, e);
}

/* An entry on its way to its new bucket. */
struct moved_entry {
	uint32_t bucket;
	unsigned char entry[ENTRY_BYTES];
};

static int
moved_order(const void *pa, const void *pb)
{
	const struct moved_entry *a = pa, *b = pb;

	if (a->bucket != b->bucket)
		return a->bucket < b->bucket ? -1 : 1;
	return memcmp(a->entry, b->entry, ENTRY_BYTES);
}

static int
entry_order(const void *a, const void *b)
{
	return memcmp(a, b, ENTRY_BYTES);
}

/* The new buckets, as they come in order: the one still open (more of
 * its entries may come from the next old bucket when buckets merge), and
 * the COPY text of those done. */
struct rebucketing {
	uint32_t open;
	struct text entries;	/* the open bucket's, as hex */
	int any;
	struct text copy;
};

static void
rebucket_close(struct rebucketing *rb)
{
	char head[32];
	int len;

	if (!rb->any)
		return;
	len = snprintf(head, sizeof head, "%u\t\\\\x", rb->open);
	text_add(&rb->copy, head, (size_t)len);
	text_add(&rb->copy, rb->entries.data, rb->entries.len);
	text_add(&rb->copy, "\n", 1);
	rb->entries.len = 0;
	rb->any = 0;
}

/* One old bucket's row: each entry (each different one once: a deal
 * with two hands in the bucket is there twice) to the new bucket of each
 * of its deal's hands whose key is in the old bucket. */
static int
rebucket_row(struct archive *a, const char *bytes, int len, uint32_t old, unsigned old_bits,
    unsigned bits, archive_hand_keys_fn *hand_keys, struct rebucketing *rb, struct dl_error *e)
{
	size_t n = (size_t)len / ENTRY_BYTES, nmoved = 0;
	unsigned char *sorted = xreallocarray(NULL, n ? n : 1, ENTRY_BYTES);
	struct moved_entry *moved = xreallocarray(NULL, 4 * (n ? n : 1), sizeof *moved);
	int r = 0;

	memcpy(sorted, bytes, (size_t)len);
	qsort(sorted, n, ENTRY_BYTES, entry_order);
	for (size_t i = 0; i < n && r == 0; i++) {
		const unsigned char *entry = sorted + i * ENTRY_BYTES;
		struct deal_row row;
		uint32_t key[4];
		unsigned in = 0;

		if (i > 0 && memcmp(entry, entry - ENTRY_BYTES, ENTRY_BYTES) == 0)
			continue;
		entry_row((const char *)entry, &row);
		if (row.set < 1 || row.set > INT32_MAX) {
			r = dl_error_set(e, DL_ERR_INPUT, "%s: a bucket of hands: damaged (a set's"
			    " number)", a->name);
			break;
		}
		if ((r = archive_deal_row_check(a, &row, e)) == -1)
			break;
		hand_keys(row.number, key);
		for (unsigned h = 0; h < 4; h++) {
			int again = 0;

			for (unsigned g = 0; g < h; g++)
				again |= key[g] == key[h];
			if (again || key[h] >> (32 - old_bits) != old)
				continue;
			moved[nmoved].bucket = key[h] >> (32 - bits);
			memcpy(moved[nmoved++].entry, entry, ENTRY_BYTES);
			in++;
		}
		if (in == 0)
			r = dl_error_set(e, DL_ERR_INPUT, "%s: bucket %u of hands: damaged (a deal"
			    " with no hand in it)", a->name, old);
	}
	if (r == 0) {
		qsort(moved, nmoved, sizeof *moved, moved_order);
		for (size_t i = 0; i < nmoved; i++) {
			if (rb->any && moved[i].bucket != rb->open)
				rebucket_close(rb);
			rb->open = moved[i].bucket;
			rb->any = 1;
			text_hex(&rb->entries, moved[i].entry, ENTRY_BYTES);
		}
	}
	free(sorted);
	free(moved);
	return r;
}

/* The buckets made anew at bits bits (the same or not: rewritten, they
 * are packed, without the room their rows' older versions took): the old
 * rows read in order by a cursor, the new written by COPY into a table
 * that takes the old one's place, in one transaction that writers wait
 * for and readers do not (they see the old buckets until it commits). */
static int
rebucket(struct archive *a, unsigned bits, archive_hand_keys_fn *hand_keys,
    struct dl_error *e)
{
	struct rebucketing rb = { 0 };
	unsigned old_bits = 0;
	char sql[96];
	int r = 0;

	if (command(a, e, "BEGIN") == -1)
		return -1;
	if (lock_writers(a, e) == -1 || read_bucket_bits(a, &old_bits, e) == -1)
		goto fail;
	if (command(a, e, HAND_BUCKETS_TABLE("hand_buckets_new")) == -1 ||
	    command(a, e, "DECLARE old_buckets NO SCROLL CURSOR FOR"
	    " SELECT bucket, entries FROM hand_buckets ORDER BY bucket") == -1)
		goto fail;
	for (;;) {
		PGresult *res = pq.PQexecParams(conn_of(a), "FETCH 1024 FROM old_buckets", 0, NULL,
		    NULL, NULL, NULL, 1);
		int rows;

		if (pq.PQresultStatus(res) != PGRES_TUPLES_OK) {
			pg_error(a, e, res, "cannot read the archive");
			pq.PQclear(res);
			goto fail;
		}
		rows = pq.PQntuples(res);
		for (int i = 0; i < rows && r == 0; i++) {
			int64_t old;

			if (pq.PQgetlength(res, i, 0) != 4 ||
			    pq.PQgetlength(res, i, 1) % ENTRY_BYTES != 0 ||
			    (old = be32(pq.PQgetvalue(res, i, 0))) >> old_bits != 0)
				r = dl_error_set(e, DL_ERR_INPUT, "%s: a bucket of hands: damaged"
				    " (not dl's columns)", a->name);
			else
				r = rebucket_row(a, pq.PQgetvalue(res, i, 1), pq.PQgetlength(res, i, 1),
				    (uint32_t)old, old_bits, bits, hand_keys, &rb, e);
		}
		pq.PQclear(res);
		if (r == -1)
			goto fail;
		if (rows == 0)
			rebucket_close(&rb);
		if ((rows == 0 || rb.copy.len > (size_t)1 << 24) && rb.copy.len > 0) {
			if (copy_text(a, "COPY hand_buckets_new (bucket, entries) FROM STDIN", &rb.copy,
			    e) == -1)
				goto fail;
			rb.copy.len = 0;
		}
		if (rows == 0)
			break;
	}
	snprintf(sql, sizeof sql, "UPDATE dl_archive SET value = %u WHERE name = 'bucket_bits'",
	    bits);
	if (command(a, e, "CLOSE old_buckets") == -1 ||
	    command(a, e, "DROP TABLE hand_buckets") == -1 ||
	    command(a, e, "ALTER TABLE hand_buckets_new RENAME TO hand_buckets") == -1 ||
	    command(a, e, "ALTER TABLE hand_buckets RENAME CONSTRAINT hand_buckets_new_pkey"
	    " TO hand_buckets_pkey") == -1 ||
	    command(a, e, sql) == -1 || command(a, e, "COMMIT") == -1)
		goto fail;
	free(rb.entries.data);
	free(rb.copy.data);
	return 0;
fail:
	command(a, NULL, "ROLLBACK");
	free(rb.entries.data);
	free(rb.copy.data);
	return -1;
}

/* Schema 7: the buckets sized to the archive (bucket_bits_for) and
 * rewritten, then VACUUM of the others (the blocks are only ever added
 * to; the sets' rows change when played and shared): nothing a check
 * reads is locked against it.  Before (an archive opened only to read is
 * not upgraded, and compact writes nothing else): VACUUM FULL, the
 * tables and their indexes rewritten packed, each with its exclusive
 * lock.  As long as it takes. */
static int
pg_compact(struct archive *a, archive_hand_keys_fn *hand_keys, struct dl_error *e)
{
	int64_t deals;

	/* as long as it takes: no statement_timeout */
	if (command(a, e, "SET statement_timeout = 0") == -1)
		return -1;
	if (((struct pg_archive *)a->db)->version < 7)
		return command(a, e, "VACUUM FULL sets, deals, hands");
	if (pg_deal_estimate(a, &deals, e) == -1 ||
	    rebucket(a, bucket_bits_for(deals), hand_keys, e) == -1)
		return -1;
	return command(a, e, "VACUUM ANALYZE sets, deal_blocks, hand_buckets");
}

/* The sets of an event by its key: schema 4's column, or in an archive
 * of schema 3 opened only to read (not upgraded), every event's key made
 * here. */
static int
pg_count_event(struct archive *a, const char *key, int64_t *n, struct dl_error *e)
{
	int old = ((struct pg_archive *)a->db)->version < 4;
	PGresult *res = old ? query(a, e, "SELECT event FROM sets WHERE event IS NOT NULL", 0, NULL) :
	    query(a, e, "SELECT count(*) FROM sets WHERE event_key = $1", 1, &key);
	struct event_keyer *k = NULL;
	int r = 0;

	if (res == NULL)
		return -1;
	*n = 0;
	if (!old) {
		if (pq.PQntuples(res) != 1 || integer_of(pq.PQgetvalue(res, 0, 0), n) == -1)
			r = dl_error_set(e, DL_ERR_INPUT, "%s: a count that is not a number",
			    a->name);
	} else
		for (int i = 0; i < pq.PQntuples(res) && r == 0; i++) {
			int same = archive_event_has_key(a, &k, pq.PQgetvalue(res, i, 0), key, e);

			if (same == -1)
				r = -1;
			else
				*n += same;
		}
	pq.PQclear(res);
	event_keyer_free(k);
	return r;
}

static void
pg_close(struct archive *a)
{
	struct pg_archive *p = a->db;

	if (p == NULL)
		return;
	if (p->conn != NULL) {
		pg_write_rollback(a);
		pq.PQfinish(p->conn);
	}
	free(p);
	a->db = NULL;
}

static const struct archive_ops pg_ops = {
	.name = "postgresql",
	.shared = 1,
	.write_begin = pg_write_begin,
	.write_commit = pg_write_commit,
	.write_rollback = pg_write_rollback,
	.put_deals = pg_put_deals,
	.put_hands = pg_put_hands,
	.put_set = pg_put_set,
	.candidates = pg_candidates,
	.set_by_id = pg_set_by_id,
	.set_by_digest = pg_set_by_digest,
	.sets = pg_sets,
	.deals = pg_deals,
	.mark_played = pg_mark_played,
	.mark_shared = pg_mark_shared,
	.deal_estimate = pg_deal_estimate,
	.count = pg_count,
	.count_event = pg_count_event,
	.compact = pg_compact,
	.close = pg_close,
};

static void
ignore_notice(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

int
archive_postgres_open(struct archive *a, const char *conninfo, unsigned flags,
    struct dl_error *e)
{
	struct pg_archive *p = xcalloc(1, sizeof *p);

	a->ops = &pg_ops;
	a->db = p;
	a->name = xstrdup("PostgreSQL archive");
	pthread_once(&pq_once, pq_load);
	if (!pq_ready) {
		dl_error_set(e, DL_ERR_SYSTEM, "%s: PostgreSQL's client library: %s (Debian: libpq5)",
		    a->name, pq_error);
		goto fail;
	}
	p->conn = pq.PQconnectdb(conninfo);
	if (pq.PQstatus(p->conn) != CONNECTION_OK) {
		size_t len;
		const char *msg = pq.PQerrorMessage(p->conn);

		/* libpq's message names host and socket, never the password */
		len = strcspn(msg, "\n");
		dl_error_set(e, DL_ERR_SYSTEM, "%s: cannot connect: %.*s", a->name, (int)len, msg);
		goto fail;
	}
	free(a->name);
	a->name = xasprintf("PostgreSQL archive %s on %s", pq.PQdb(p->conn),
	    pq.PQhost(p->conn) != NULL ? pq.PQhost(p->conn) : "the local socket");
	pq.PQsetNoticeProcessor(p->conn, ignore_notice, NULL);
	/* a look-up's estimated cost passes jit_above_cost (the planner takes
	 * a range for thousands of rows): compiling it took 12 to 50 ms, a
	 * hundred times the query's run */
	if (command(a, e, "SET jit = off") == -1)
		goto fail;
	/* a server that does not answer (its operator's doing, or a
	 * hostile schema's) ends a statement after a time, not never */
	if (command(a, e, "SET statement_timeout = '300s'") == -1)
		goto fail;
	if (schema(a, flags, e) == -1)
		goto fail;
	return 0;
fail:
	pg_close(a);
	return -1;
}
