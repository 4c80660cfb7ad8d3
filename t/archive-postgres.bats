#!/usr/bin/env bats
# dl-archive against a shared archive in PostgreSQL: a server of its own,
# started for this file in a temporary folder (t/postgres.bash) and
# stopped at its end.  The server logs every statement with its
# parameters, so that the tests see what it was told.

# a PostgreSQL server: not in make check-quick
# bats file_tags=postgres
load helper
load archive
load postgres

setup_file() {
	archive_test_sets
	pg_start "$BATS_FILE_TMPDIR/pg"
}

teardown_file() {
	pg_stop
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	export DL_SEED_HISTORY=$BATS_TEST_TMPDIR/seed-history
	export SOURCE_DATE_EPOCH=1764100000 REMOTE_USER=director
	cp "$BATS_FILE_TMPDIR"/*.tso .
	# a database of its own for each test
	db=t$BATS_SUITE_TEST_NUMBER
	pg_fresh "$db"
	export DL_ARCHIVE=$PG_ARCHIVE
}

psql_q() {
	psql -X -q -A -t -h "$PG_DIR" -U dl -d "$db" -c "$1"
}

# prefix_ranges_only: the look-up's parameters in told are ranges of keys,
# each 65 536 wide (a 16-bit prefix), some 190 to 224 of them: a 32-board
# check's hands and halves
prefix_ranges_only() {
	grep -o "\$1 = '{[-0-9,]*}', \$2 = '{[-0-9,]*}'$" told > ranges
	[ "$(wc -l < ranges)" -eq 1 ]
	awk -F"'" '{ n = split(substr($2, 2, length($2) - 2), lo, ",");
	    split(substr($4, 2, length($4) - 2), hi, ",");
	    for (i = 1; i <= n; i++) if (hi[i] - lo[i] != 65535 || (lo[i] + 2147483648) % 65536 != 0) bad++;
	    print n, bad + 0 }' ranges > widths
	read -r n bad < widths
	[ "$n" -ge 190 ] && [ "$n" -le 224 ]
	[ "$bad" -eq 0 ]
}

# told LINE: what the server logged after line LINE of its log, into told,
# once it holds the look-up's parameters (the server writes its log as it
# goes; give it 10 s)
told() {
	for _ in $(seq 100); do
		tail -n +"$(($1 + 1))" "$PG_DIR/server.log" > told
		grep -q 'DETAIL:  parameters: \$1 = ' told && return 0
		sleep 0.1
	done
}

@test "postgresql: a set not yet played is refused, a played one goes in whole" {
	run -2 dl-archive add club.tso
	[ "$output" = "dl-archive: club.tso: PostgreSQL archive $db on $PG_DIR takes a set only once it was played: add it with --played after its session" ]
	[ "$(psql_q 'SELECT count(*) FROM deals')" = 0 ]
	run -0 dl-archive add --played club.tso
	[ "$output" = "dl-archive: club.tso: set 1, 32 boards" ]
	run -0 dl-archive add --played < club.tso
	[ "$output" = "dl-archive: standard input: archived before, as set 1" ]
	run -0 dl-archive sets
	[[ $output == "1 2025-11-25T19:46:40Z "[0-9a-f]*" 32 1-32 2025-11-25T19:46:40Z director club.tso (Club Pairs, 2026.11.02)" ]]
	run -0 dl-archive count
	[ "$output" = "1 sets, 32 deals; played 1 sets, 32 deals" ]
	[ "$(psql_q 'SELECT count(*) FROM hands')" = 224 ]
}

@test "postgresql: every kind of match, as in SQLite" {
	dl-archive add --played club.tso 2> /dev/null
	for how in turn swap one-card two-cards one-hand; do
		variant "$how" < club.tso > "$how.tso"
	done
	run -1 --separate-stderr dl-archive check turn.tso swap.tso one-card.tso two-cards.tso
	[ "${#stderr_lines[@]}" -eq 4 ]
	[ "${stderr_lines[3]}" = "dl-archive: two-cards.tso: 32 of 32 boards dealt before" ]
	[ "${#lines[@]}" -eq 128 ]
	[ "${lines[0]}" = "turn.tso: board 1: same deal turned WNES: set 1 board 1 (Club Pairs, 2026.11.02)" ]
	[ "${lines[32]}" = "swap.tso: board 1: same hands ENSW: set 1 board 1 (Club Pairs, 2026.11.02)" ]
	[ "${lines[64]}" = "one-card.tso: board 1: two hands -E-W: set 1 board 1 (Club Pairs, 2026.11.02)" ]
	[ "${lines[127]}" = "two-cards.tso: board 32: two hands -E-W: set 1 board 32 (Club Pairs, 2026.11.02)" ]
	run -0 dl-archive check one-hand.tso
	[ "$(grep -c ': one hand N---: set 1 board ' <<< "$output")" -eq 32 ]
	run -0 dl-archive check fresh.tso
	[ "$output" = "" ]
	# the same answers from a local archive of the same set
	DL_ARCHIVE=$PWD/local.sqlite dl-archive add club.tso 2> /dev/null
	DL_ARCHIVE=$PWD/local.sqlite dl-archive played 1
	for f in turn swap one-card two-cards one-hand; do
		diff <(dl-archive check "$f.tso") <(DL_ARCHIVE=$PWD/local.sqlite dl-archive check "$f.tso")
	done
}

@test "postgresql: a check sends 16-bit prefixes of its hands' keys, never a deal, a hand or the set's digest" {
	dl-archive add --played teams.tso 2> /dev/null
	log=$PG_DIR/server.log
	before=$(wc -l < "$log")
	run -0 dl-archive check fresh.tso
	told "$before"
	# what the server was asked: key ranges, each 65536 keys wide
	prefix_ranges_only
	run grep -c -e digest -e "INSERT" -e "deals (" told
	[ "$output" = 0 ]
	# no deal number of the set asked about, in any form
	dl-archive --db "$PWD/x.sqlite" add fresh.tso 2> /dev/null
	for hex in $(sqlite3 x.sqlite 'SELECT hex(number) FROM deals' | tr A-F a-f); do
		if grep -q "$hex" told; then
			echo "deal $hex sent to the server" >&2
			return 1
		fi
	done
}

@test "postgresql: a check with hits of every kind sends what a check without any sends: its prefixes, and nothing that depends on what matched" {
	dl-archive add --played club.tso 2> /dev/null
	variant turn < club.tso > turned.tso
	variant one-hand < club.tso > one-hand.tso
	# boards turned (the same deal), with one hand the same, and fresh
	{ grep '^#' turned.tso; grep -v '^#' turned.tso | head -8; grep -v '^#' one-hand.tso | sed -n 9,16p;
	    grep -v '^#' fresh.tso | sed -n 17,32p; } > mixed.tso
	log=$PG_DIR/server.log
	before=$(wc -l < "$log")
	run -1 --separate-stderr dl-archive check mixed.tso
	[ "${#lines[@]}" -eq 16 ]
	[ "${lines[0]}" = "mixed.tso: board 1: same deal turned WNES: set 1 board 1 (Club Pairs, 2026.11.02)" ]
	[ "${lines[15]}" = "mixed.tso: board 16: one hand N---: set 1 board 16 (Club Pairs, 2026.11.02)" ]
	told "$before"
	# every statement the server saw, in order: the connection's
	# settings, the schema's checks, and the one look-up
	sed -n 's/^.* LOG:  \(statement\|execute <unnamed>\): //p' told | cut -c1-72 > statements
	cat > expected <<'END'
SET jit = off
SET statement_timeout = '300s'
SELECT count(*) FROM pg_tables WHERE tablename = 'dl_archive' AND schema
SELECT value FROM dl_archive WHERE name = 'schema'
SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relname
SELECT string_agg(table_name || ' ' || column_name || ' ' || data_type, 
SELECT d.id, d.board, d.number, s.id, s.event, s.date, s.club FROM unnes
END
	diff expected statements
	# and the only values sent: the look-up's ranges, 65536 keys each
	run -0 grep -c 'DETAIL:  parameters:' told
	[ "$output" = 1 ]
	prefix_ranges_only
}

@test "postgresql: find and export" {
	dl-archive add --played club.tso 2> /dev/null
	deal=$(dl-fmt -f pbn < club.tso | awk -F'"' '/^\[Board /{b=$2} /^\[Deal /&&b==7{print $2}')
	run -0 dl-archive find deal "$deal"
	[ "$output" = "set 1 board 7 NESW (Club Pairs, 2026.11.02)" ]
	run -0 dl-archive find hand "$(cut -d' ' -f3 <<< "${deal#N:}")"
	[ "$output" = "set 1 board 7 S (Club Pairs, 2026.11.02)" ]
	dl-archive export 1 | cmp - club.tso
}

@test "postgresql: two dealers adding at once: nothing lost, no set twice" {
	for i in 1 2 3 4; do
		dl-seed --not-for-play --no-history --hex "$i$i$i${i}bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" \
		    2> /dev/null | dl-stream -n 1-2000 | dl-map > "s$i.tso"
	done
	for i in 1 2 3 4; do
		dl-archive -q add --played "s$i.tso" club.tso &
	done
	wait
	run -0 dl-archive count
	[ "$output" = "5 sets, 8032 deals; played 5 sets, 8032 deals" ]
	[ "$(psql_q 'SELECT count(*) FROM hands')" = 56224 ]
}

@test "postgresql: a busy archive is waited for, then refused in one line" {
	dl-archive add --played club.tso 2> /dev/null
	psql -X -q -h "$PG_DIR" -U dl -d "$db" \
	    -c 'BEGIN; LOCK TABLE sets IN EXCLUSIVE MODE; SELECT pg_sleep(3); COMMIT;' > /dev/null &
	sleep 0.5
	DL_ARCHIVE_WAIT=1 run -2 dl-archive add --played teams.tso
	[ "$output" = "dl-archive: teams.tso: PostgreSQL archive $db on $PG_DIR: busy: another process is writing to the archive (waited 1 s)" ]
	wait
	run -0 dl-archive add --played teams.tso
	[ "$output" = "dl-archive: teams.tso: set 2, 24 boards" ]
}

@test "postgresql: kill -9 in the middle of an add leaves the archive as it was" {
	dl-archive add --played club.tso 2> /dev/null
	dl-seed --not-for-play --no-history --hex 9999999999999999999999999999999999999999 \
	    2> /dev/null | dl-stream -n 1-300000 | dl-map > big.tso
	dl-archive add --played big.tso 2> /dev/null &
	pid=$!
	# killed once its deals are on their way
	for _ in $(seq 200); do
		[ "$(psql_q "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'COPY%'")" = 1 ] && break
		sleep 0.05
	done
	kill -9 "$pid"
	wait "$pid" || true
	run -0 dl-archive count
	[ "$output" = "1 sets, 32 deals; played 1 sets, 32 deals" ]
	[ "$(psql_q 'SELECT count(*) FROM deals')" = 32 ]
	[ "$(psql_q 'SELECT count(*) FROM hands')" = 224 ]
}

@test "postgresql: boards with their own dealers kept; an archive of schema 2 read as it is, upgraded when written" {
	grep -v "^#" club.tso | head -4 | dl-fmt -f pbn > practice.pbn
	sed -i -e '0,/\[Dealer "N"\]/s//[Dealer "W"]/' practice.pbn
	dl-read practice.pbn > practice.dl
	dl-archive add --played practice.pbn 2> /dev/null
	[ "$(psql_q 'SELECT dv FROM sets')" = W0E1S2W3 ]
	dl-archive export 1 | cmp - practice.dl
	# schema 2: this one without the columns, as schema 2 made it, and
	# with no halves in its index (here no hands at all)
	psql_q "DELETE FROM hands; ALTER TABLE sets DROP COLUMN dv, DROP COLUMN event_key, DROP COLUMN club, DROP COLUMN played_by, DROP COLUMN shared; CREATE INDEX sets_event ON sets (event);
	    UPDATE sets SET event = 'Practice  NIGHT'; UPDATE dl_archive SET value = 2 WHERE name = 'schema'"
	dl-archive export 1 | head -1 > head.txt
	[ "$(cat head.txt)" = "#P: dl/1 deals" ]
	[ "$(psql_q "SELECT value FROM dl_archive WHERE name = 'schema'")" = 2 ]
	dl-archive add --played club.tso 2> /dev/null
	[ "$(psql_q "SELECT value FROM dl_archive WHERE name = 'schema'")" = 6 ]
	[ "$(psql_q 'SELECT count(*) FROM sets WHERE dv IS NULL')" = 2 ]
	# schema 4's key of each event, made for the set there before
	[ "$(psql_q "SELECT coalesce(event_key, '-') FROM sets ORDER BY id" | paste -sd "|")" = "practlce nlght|club palrs" ]
	# schema 6's halves, put in the index for the 4 deals there before
	# (3 each), beside the 7 keys of each of the 32 added
	[ "$(psql_q 'SELECT count(*) FROM hands')" = 236 ]
	dl-archive export 2 | cmp - club.tso
}

@test "postgresql: an archive of a newer schema, a server not there: one line" {
	dl-archive add --played club.tso 2> /dev/null
	psql_q "UPDATE dl_archive SET value = 9 WHERE name = 'schema'"
	run -1 dl-archive sets
	[ "$output" = "dl-archive: PostgreSQL archive $db on $PG_DIR: archive of schema 9, newer than this dl's (6): upgrade dl" ]
	run -2 dl-archive --db "pg:host=$BATS_TEST_TMPDIR user=dl dbname=x password=SECRET" sets
	[[ $output == "dl-archive: PostgreSQL archive: cannot connect: "* ]]
	[[ $output != *SECRET* ]]
	[ "${#lines[@]}" -eq 1 ]
}

@test "postgresql: compact" {
	dl-archive add --played club.tso 2> /dev/null
	run -0 dl-archive compact
	[ "$output" = "" ]
	run -1 --separate-stderr dl-archive check <(variant turn < club.tso)
	[ "${#lines[@]}" -eq 32 ]
}

@test "postgresql: what the server holds is input: a deal past the last, an escape in a time, a view in a table's place, each refused in one line" {
	dl-archive add --played club.tso 2> /dev/null
	variant turn < club.tso > turned.tso
	psql_q "UPDATE deals SET number = '\\xffffffffffffffffffffffff' WHERE board = 3"
	run -2 --separate-stderr dl-archive check turned.tso
	[[ $stderr == "dl-archive: PostgreSQL archive $db on $PG_DIR: deal "*": damaged (its deal number is past the last deal)" ]]
	run -1 --separate-stderr dl-archive export 1
	[[ $stderr == "dl-archive: PostgreSQL archive $db on $PG_DIR: deal "*": damaged (its deal number is past the last deal)" ]]
	psql_q "UPDATE deals SET number = '\\xad55e315634dda658bf491ff' WHERE board = 3;
	    UPDATE sets SET played = played || E'\\033]0;pwned\\007'"
	run -1 dl-archive sets
	[ "$output" = "dl-archive: PostgreSQL archive $db on $PG_DIR: set 1: damaged (the time it was played)" ]
	psql_q "UPDATE sets SET played = NULL, event = E'Club\\033[2J'"
	run -2 --separate-stderr dl-archive check turned.tso
	[[ $stderr == "dl-archive: PostgreSQL archive $db on $PG_DIR: deal "*": damaged (its set's text is not one line of printable UTF-8)" ]]
	# an endless query where the sets were
	psql_q "UPDATE sets SET event = 'Club Pairs'; ALTER TABLE sets RENAME TO real_sets;
	    CREATE VIEW sets AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r)
	    SELECT s.* FROM real_sets s, r"
	for cmd in sets count "check turned.tso"; do
		# shellcheck disable=SC2086
		run timeout 20 dl-archive $cmd
		[ "$output" = "dl-archive: PostgreSQL archive $db on $PG_DIR: not an archive dl made: its tables are not dl's (changed, or made by another program)" ]
	done
}
