-- A prototype of a shared archive's storage at 120 bytes a deal or less
-- (docs/archive.md, "Checks at scale"), in plain SQL, for the next step
-- of issue 36's item 3: each deal's row holds its hands' keys, a GIN
-- index on their buckets finds a check's candidates, a BRIN index on the
-- ids replaces the primary key.  Random bytes stand for the deal numbers
-- and keys: what is measured is the size and the look-up's rows.
--     createdb gin1 && psql -X -d gin1 -f share/dev/gin-prototype.sql
-- 2026-11-28, the project's machine, PostgreSQL 15: 97.3 bytes a deal,
-- 128 buckets' 30 700 rows in 78 ms warm.
\timing on
CREATE TABLE d (id bigint NOT NULL, board int NOT NULL, number bytea NOT NULL, keys bytea NOT NULL);
-- the buckets of a deal's four hands' keys: their first 14 bits (at 10^6
-- deals, 244 a bucket, as 24-bit buckets hold at 10^9)
CREATE FUNCTION dl_buckets(k bytea) RETURNS int4[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT ARRAY[((get_byte(k,0)<<8)|get_byte(k,1))>>2, ((get_byte(k,4)<<8)|get_byte(k,5))>>2,
   ((get_byte(k,8)<<8)|get_byte(k,9))>>2, ((get_byte(k,12)<<8)|get_byte(k,13))>>2] $$;
INSERT INTO d SELECT i, (i % 32) + 1, substring(sha256(int8send(i)) for 12), substring(sha512(int8send(i)) for 16)
  FROM generate_series(1, 1000000) i;
CREATE INDEX d_buckets ON d USING gin (dl_buckets(keys));
CREATE INDEX d_id ON d USING brin (id);
VACUUM ANALYZE d;
SELECT pg_relation_size('d') AS heap, pg_relation_size('d_buckets') AS gin, pg_relation_size('d_id') AS brin,
  round(pg_total_relation_size('d') / 1e6, 1) AS bytes_a_deal;
-- a session's 128 buckets, warm
SELECT count(*) FROM d WHERE dl_buckets(keys) && (SELECT array_agg((random() * 16383)::int) FROM generate_series(1, 128));
SELECT count(*) FROM d WHERE dl_buckets(keys) && (SELECT array_agg((random() * 16383)::int) FROM generate_series(1, 128));
SELECT count(*) FROM d WHERE dl_buckets(keys) && (SELECT array_agg((random() * 16383)::int) FROM generate_series(1, 128));
