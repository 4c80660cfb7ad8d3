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

# the deals the archive holds, and its hands' entries (schema 7's blocks
# and buckets: 16 bytes each)
deals_held() {
	psql_q 'SELECT coalesce(sum(length(deals)), 0) / 16 FROM deal_blocks'
}
hands_held() {
	psql_q 'SELECT coalesce(sum(length(entries)), 0) / 16 FROM hand_buckets'
}

# prefix_ranges_only [BITS [LEAST]]: the look-up's parameters in told are
# ranges of keys, each a BITS-bit prefix's (8: a small archive's), at least
# LEAST of them (60) and at most 128: a 32-board check's hands
prefix_ranges_only() {
	local width=$((1 << (32 - ${1:-8})))
	grep -o "\$1 = '{[-0-9,]*}', \$2 = '{[-0-9,]*}'$" told > ranges
	[ "$(wc -l < ranges)" -eq 1 ]
	awk -F"'" -v w="$width" '{ n = split(substr($2, 2, length($2) - 2), lo, ",");
	    split(substr($4, 2, length($4) - 2), hi, ",");
	    for (i = 1; i <= n; i++) if (hi[i] - lo[i] != w - 1 || (lo[i] + 2147483648) % w != 0) bad++;
	    print n, bad + 0 }' ranges > widths
	read -r n bad < widths
	[ "$n" -ge "${2:-60}" ] && [ "$n" -le 128 ]
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
	[ "$(deals_held)" = 0 ]
	run -0 dl-archive add --played club.tso
	[ "$output" = "dl-archive: club.tso: set 1, 32 boards" ]
	run -0 dl-archive add --played < club.tso
	[ "$output" = "dl-archive: standard input: archived before, as set 1" ]
	run -0 dl-archive sets
	[[ $output == "1 2025-11-25T19:46:40Z "[0-9a-f]*" 32 1-32 2025-11-25T19:46:40Z director club.tso (Club Pairs, 2026.11.02)" ]]
	run -0 dl-archive count
	[ "$output" = "1 sets, 32 deals; played 1 sets, 32 deals" ]
	[ "$(deals_held)" = 32 ]
	[ "$(hands_held)" = 128 ]
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
	[ "$(grep -c ': one hand N---: set 1$' <<< "$output")" -eq 32 ]
	run -0 dl-archive check fresh.tso
	[ "$output" = "" ]
	# a near deal with a hand the same is found; one with none, which a
	# club's archive finds by a half, is not: a shared archive is not
	# asked for halves (docs/archive.md, "Checks at scale")
	variant near-chain < club.tso > near-chain.tso
	variant near-pairs < club.tso > near-pairs.tso
	run -1 --separate-stderr dl-archive check near-chain.tso
	[ "${lines[0]}" = "near-chain.tso: board 1: near deal nesW: set 1 board 1 (Club Pairs, 2026.11.02)" ]
	[ "${#lines[@]}" -eq 32 ]
	run -0 dl-archive check near-pairs.tso
	[ "$output" = "" ]
	# the same answers from a local archive of the same set, but for
	# the words of a set a board held one hand of, which a shared one is
	# not asked for (docs/archive.md, "Privacy")
	DL_ARCHIVE=$PWD/local.sqlite dl-archive add club.tso 2> /dev/null
	DL_ARCHIVE=$PWD/local.sqlite dl-archive played 1
	for f in turn swap one-card two-cards near-chain; do
		diff <(dl-archive check "$f.tso" 2>&1) <(DL_ARCHIVE=$PWD/local.sqlite dl-archive check "$f.tso" 2>&1)
	done
	diff <(dl-archive check one-hand.tso) \
	    <(DL_ARCHIVE=$PWD/local.sqlite dl-archive check one-hand.tso | sed 's/ board [0-9]* (Club Pairs, 2026.11.02)$//')
}

@test "postgresql: a check sends short prefixes of its hands' and halves' keys, never a deal, a hand or the set's digest" {
	dl-archive add --played teams.tso 2> /dev/null
	log=$PG_DIR/server.log
	before=$(wc -l < "$log")
	run -0 dl-archive check fresh.tso
	told "$before"
	# what the server was asked: key ranges, 8-bit prefixes' (a small
	# archive needs no more)
	prefix_ranges_only 8
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

@test "postgresql: a check sends its prefixes, and of what matched only the numbers of sets it found boards of dealt before (which are not played)" {
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
	[ "${lines[15]}" = "mixed.tso: board 16: one hand N---: set 1" ]
	told "$before"
	# every statement the server saw, in order: the connection's
	# settings, the schema's checks, the archive's size, the one look-up,
	# and the set whose boards were dealt before, for its words
	sed -n 's/^.* LOG:  \(statement\|execute <unnamed>\): //p' told | cut -c1-72 > statements
	cat > expected <<'END'
SET jit = off
SET statement_timeout = '300s'
SELECT count(*) FROM pg_tables WHERE tablename = 'dl_archive' AND schema
SELECT value FROM dl_archive WHERE name = 'schema'
SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relname
SELECT string_agg(table_name || ' ' || column_name || ' ' || data_type, 
SELECT coalesce((SELECT first_deal + boards - 1 FROM sets ORDER BY first
SELECT h.entries FROM (SELECT DISTINCT generate_series((q.lo::bigint + 2
SELECT id, encode(digest, 'hex'), fingerprint, first_deal, boards, low, 
SELECT first, deals FROM deal_blocks WHERE first BETWEEN $1 AND $2 ORDER
END
	diff expected statements
	# and the only values sent: the look-up's ranges, a prefix's each,
	# the set's number, and its deals' ids, for the boards
	run -0 grep -c 'DETAIL:  parameters:' told
	[ "$output" = 3 ]
	grep -q "DETAIL:  parameters: \$1 = '1'$" told
	grep -q "DETAIL:  parameters: \$1 = '1', \$2 = '32'$" told
	prefix_ranges_only
	# boards with a hand the same alone, and fresh ones: the look-up, no more
	{ grep '^#' one-hand.tso; grep -v '^#' one-hand.tso | head -16; grep -v '^#' fresh.tso | sed -n 17,32p; } \
	    > played-tonight.tso
	before=$(wc -l < "$log")
	run -0 dl-archive check played-tonight.tso
	[ "${#lines[@]}" -eq 16 ]
	[ "${lines[0]}" = "played-tonight.tso: board 1: one hand N---: set 1" ]
	told "$before"
	run -0 grep -c 'DETAIL:  parameters:' told
	[ "$output" = 1 ]
	sed -n 's/^.* LOG:  \(statement\|execute <unnamed>\): //p' told | cut -c1-72 | tail -1 > last
	[ "$(cat last)" = "SELECT h.entries FROM (SELECT DISTINCT generate_series((q.lo::bigint + 2" ]
}

@test "postgresql: the bits asked for are the archive's size's, and never so many that a board is one of fewer than 2^30 deals to the server" {
	dl-archive add --played club.tso 2> /dev/null
	log=$PG_DIR/server.log
	# asked_bits FILE: the prefix the check of FILE asked for, in bits
	asked_bits() {
		before=$(wc -l < "$log")
		dl-archive -q check "$1" || true
		told "$before"
		awk -F"'" '/DETAIL:  parameters: \$1 = /{ split(substr($2, 2), lo, ","); split(substr($4, 2), hi, ",");
		    w = hi[1] - lo[1] + 1; b = 32; while (w > 1) { w /= 2; b-- } print b; exit }' told
	}
	# 32 deals: 8 bits, the fewest
	[ "$(asked_bits fresh.tso)" = 8 ]
	# the archive's count of the deals, as a federation's of 10^9 (the
	# last set's last deal, the one thing the estimate reads)
	psql_q "UPDATE sets SET first_deal = 1e9 - 31"
	# 32 boards, 128 hands: 23 bits (4 log2(128 / 2^23) + 95.44 = 31.4)
	[ "$(asked_bits fresh.tso)" = 23 ]
	# 4 boards: 20; 1 board: 18
	grep -v '^#' fresh.tso | head -4 | awk 'BEGIN { print "#P: dl/1 deals"; print "#B: 1-4" } 1' > four.tso
	grep -v '^#' fresh.tso | head -1 | awk 'BEGIN { print "#P: dl/1 deals"; print "#B: 1-1" } 1' > one.tso
	[ "$(asked_bits four.tso)" = 20 ]
	[ "$(asked_bits one.tso)" = 18 ]
	# 10^6 deals: 4 10^6 hands / 64 candidates a prefix: 16 bits; 10^5: 13
	psql_q "UPDATE sets SET first_deal = 1e6 - 31"
	[ "$(asked_bits fresh.tso)" = 16 ]
	psql_q "UPDATE sets SET first_deal = 1e5 - 31"
	[ "$(asked_bits fresh.tso)" = 13 ]
	# --prefix-bits says otherwise
	before=$(wc -l < "$log")
	dl-archive -q check --prefix-bits 20 fresh.tso
	told "$before"
	prefix_ranges_only 20 120
}

@test "postgresql: find and export" {
	dl-archive add --played club.tso 2> /dev/null
	deal=$(dl-fmt -f pbn < club.tso | awk -F'"' '/^\[Board /{b=$2} /^\[Deal /&&b==7{print $2}')
	run -0 dl-archive find deal "$deal"
	[ "$output" = "set 1 board 7 NESW (Club Pairs, 2026.11.02)" ]
	# a hand, which may be one of a board about to be played: its set's
	# number, not its board or words (docs/archive.md, "Privacy")
	run -0 dl-archive find hand "$(cut -d' ' -f3 <<< "${deal#N:}")"
	[ "$output" = "set 1 S" ]
	with_record "archived=2025-11-25T19:46:40Z played=2025-11-25T19:46:40Z user=director source=club.tso fingerprint=$(fingerprint 1)" \
	    < club.tso | cmp - <(dl-archive export 1)
}

@test "postgresql: a club's archive moved into the shared one, its sets not played left out; the shared one moved into a file" {
	# the club's: sessions played and not, a file whose boards run from
	# 1300 down to 1001, other programs' files (boards out of order and
	# given twice, their own dealers, a date no #D: takes)
	club_db=$PWD/club.sqlite
	dl-archive --db "$club_db" add --played club.tso 2> /dev/null
	dl-archive --db "$club_db" add teams.tso 2> /dev/null
	dl-seed --not-for-play --no-history --hex 7777777777777777777777777777777777777777 \
	    --event 'Winter Cup' --date 2026.01.10 2> /dev/null | dl-stream -n 1001-1300 | dl-map |
	    reversed_pbn > winter.pbn
	dl-archive --db "$club_db" add --played winter.pbn 2> /dev/null
	dl-archive --db "$club_db" add "$VECTORS/real/bbo-hands.lin" 2> /dev/null
	dl-archive --db "$club_db" -q add --played --renumber "$VECTORS/real/ben-wbridge5-match.pbn" \
	    "$VECTORS/real/bfc-sample.pbn"
	dl-archive --db "$club_db" export --all > club.dl

	# into the federation's: the played sets, as they were; the others
	# never sent, and counted
	SOURCE_DATE_EPOCH=1800000000 REMOTE_USER=volunteer run -0 dl-archive import club.dl
	[ "${lines[0]}" = "dl-archive: club.dl: $(DL_ARCHIVE=$club_db fingerprint 1): set 1, 32 boards" ]
	[ "${lines[1]}" = "dl-archive: club.dl: $(DL_ARCHIVE=$club_db fingerprint 3): set 2, 300 boards" ]
	[ "${lines[2]}" = "dl-archive: club.dl: $(DL_ARCHIVE=$club_db fingerprint 5): set 3, 4 boards" ]
	[ "${lines[3]}" = "dl-archive: club.dl: $(DL_ARCHIVE=$club_db fingerprint 6): set 4, 3 boards" ]
	[ "${lines[4]}" = "dl-archive: club.dl: 2 of 6 sets not played, left out: a shared archive takes a set only once it was played" ]
	[ "${#lines[@]}" -eq 5 ]
	[ "$(deals_held)" = $((32 + 300 + 4 + 3)) ]
	[ "$(hands_held)" = $((4 * (32 + 300 + 4 + 3))) ]
	# dl-archive sets and every set's export as the club's, but for the
	# numbers the shared archive gave them
	[ "$(dl-archive sets | cut -d' ' -f2-)" = "$(dl-archive --db "$club_db" sets | grep -v ' - director ' | cut -d' ' -f2-)" ]
	for pair in 1:1 2:3 3:5 4:6; do
		cmp <(dl-archive export "${pair%:*}") <(dl-archive --db "$club_db" export "${pair#*:}")
	done
	run -0 dl-archive sets
	[ "${lines[1]}" = "2 2025-11-25T19:46:40Z $(fingerprint 2) 300 1001-1300 2025-11-25T19:46:40Z director winter.pbn (Winter Cup, 2026.01.10)" ]
	# again: nothing changes
	run -0 dl-archive -q import club.dl
	[ "$output" = "" ]
	[ "$(psql_q "SELECT count(*) FROM sets")" = 4 ]

	# the shared archive into a file: the same sets, the same exports
	dl-archive export --all > shared.dl
	run -0 dl-archive --db moved.sqlite -q import shared.dl
	[ "$output" = "" ]
	[ "$(dl-archive --db moved.sqlite sets)" = "$(dl-archive sets)" ]
	dl-archive --db moved.sqlite export --all | cmp - shared.dl
	for set in 1 2 3 4; do
		cmp <(dl-archive --db moved.sqlite export "$set") <(dl-archive export "$set")
	done
	# one set not played, alone, into the shared archive
	run -0 dl-archive import <(dl-archive --db "$club_db" export 2)
	[[ $output == "dl-archive: /dev/fd/"*": 1 of 1 sets not played, left out: a shared archive takes a set only once it was played" ]]
	[ "$(psql_q "SELECT count(*) FROM sets")" = 4 ]
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
	[ "$(deals_held)" = 8032 ]
	[ "$(hands_held)" = 32128 ]
	# each set's deals found, under its own number
	for i in 1 2 3 4; do
		run -1 --separate-stderr dl-archive check "s$i.tso"
		[ "$(grep -c ': same deal NESW: set ' <<< "$output")" -eq 2000 ]
		[ "$(cut -d' ' -f8 <<< "$output" | sort -u | wc -l)" -eq 1 ]
	done
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
	[ "$(deals_held)" = 32 ]
	[ "$(hands_held)" = 128 ]
}

@test "postgresql: boards with their own dealers kept" {
	grep -v "^#" club.tso | head -4 | dl-fmt -f pbn > practice.pbn
	sed -i -e '0,/\[Dealer "N"\]/s//[Dealer "W"]/' practice.pbn
	dl-read practice.pbn > practice.dl
	dl-archive add --played practice.pbn 2> /dev/null
	[ "$(psql_q 'SELECT dv FROM sets')" = W0E1S2W3 ]
	with_record "archived=2025-11-25T19:46:40Z played=2025-11-25T19:46:40Z user=director source=practice.pbn fingerprint=$(fingerprint 1)" \
	    < practice.dl | cmp - <(dl-archive export 1)
}

@test "postgresql: a real archive of schema 6 read, and as schema 2 made it, as it is; upgraded when written, its deals and hands packed and found" {
	# the same four boards as the test above's, as dl wrote them at
	# schema 6 (t/data/archive/README.md)
	psql -X -q -h "$PG_DIR" -U dl -d "$db" -f "$BATS_TEST_DIRNAME/data/archive/postgres-schema6.sql" > /dev/null
	grep -v "^#" club.tso | head -4 | dl-fmt -f pbn > practice.pbn
	sed -i -e '0,/\[Dealer "N"\]/s//[Dealer "W"]/' practice.pbn
	dl-read practice.pbn > practice.dl
	with_record "archived=2025-11-25T19:46:40Z played=2025-11-25T19:46:40Z user=director source=practice.pbn fingerprint=$(fingerprint 1)" \
	    < practice.dl | cmp - <(dl-archive export 1)
	variant turn < club.tso > turned.tso
	run -1 --separate-stderr dl-archive check turned.tso
	[ "${#lines[@]}" -eq 4 ]
	[ "${lines[3]}" = "turned.tso: board 4: same deal turned WNES: set 1 board 4" ]
	# schema 2: without the columns, as schema 2 made it
	psql_q "ALTER TABLE sets DROP COLUMN dv, DROP COLUMN event_key, DROP COLUMN club, DROP COLUMN played_by, DROP COLUMN shared; CREATE INDEX sets_event ON sets (event);
	    UPDATE sets SET event = 'Practice  NIGHT'; UPDATE dl_archive SET value = 2 WHERE name = 'schema'"
	dl-archive export 1 | head -1 > head.txt
	[ "$(cat head.txt)" = "#P: dl/1 deals" ]
	[ "$(psql_q "SELECT value FROM dl_archive WHERE name = 'schema'")" = 2 ]
	dl-archive add --played club.tso 2> /dev/null
	[ "$(psql_q "SELECT value FROM dl_archive WHERE name = 'schema'")" = 7 ]
	[ "$(psql_q 'SELECT count(*) FROM sets WHERE dv IS NULL')" = 2 ]
	# schema 4's key of each event, made for the set there before
	[ "$(psql_q "SELECT coalesce(event_key, '-') FROM sets ORDER BY id" | paste -sd "|")" = "practlce nlght|club palrs" ]
	# schema 7's blocks and buckets: the tables of deals and hands gone
	[ "$(psql_q "SELECT count(*) FROM pg_tables WHERE tablename IN ('deals', 'hands')")" = 0 ]
	[ "$(deals_held)" = 36 ]
	[ "$(hands_held)" = 144 ]
	dl-archive export 2 | grep -v '^#R: ' | cmp - club.tso
	dl-archive export 1 | grep -v '^#' | cmp - <(grep -v '^#' club.tso | head -4)
	# a set whose deals begin inside a block, as the upgrade packs them
	# (64 deals a block, sets or not): the second set's in the first's
	psql_q "UPDATE deal_blocks SET deals = deals || (SELECT deals FROM deal_blocks WHERE first = 5) WHERE first = 1;
	    DELETE FROM deal_blocks WHERE first = 5"
	[ "$(psql_q 'SELECT count(*) FROM deal_blocks')" = 1 ]
	dl-archive export 2 | grep -v '^#R: ' | cmp - club.tso
	dl-archive export 1 | grep -v '^#' | cmp - <(grep -v '^#' club.tso | head -4)
	# the first set's boards found in the buckets it was moved into, as
	# are the second's
	run -1 --separate-stderr dl-archive check turned.tso
	[ "${#lines[@]}" -eq 36 ]
	[ "${lines[0]}" = "turned.tso: board 1: same deal turned WNES: set 1 board 1 (Practice  NIGHT)" ]
	[ "${lines[1]}" = "turned.tso: board 1: same deal turned WNES: set 2 board 1 (Club Pairs, 2026.11.02)" ]
}

@test "postgresql: an archive of a newer schema, a server not there: one line" {
	dl-archive add --played club.tso 2> /dev/null
	psql_q "UPDATE dl_archive SET value = 9 WHERE name = 'schema'"
	run -1 dl-archive sets
	[ "$output" = "dl-archive: PostgreSQL archive $db on $PG_DIR: archive of schema 9, newer than this dl's (7): upgrade dl" ]
	run -2 dl-archive --db "pg:host=$BATS_TEST_TMPDIR user=dl dbname=x password=SECRET" sets
	[[ $output == "dl-archive: PostgreSQL archive: cannot connect: "* ]]
	[[ $output != *SECRET* ]]
	[ "${#lines[@]}" -eq 1 ]
}

@test "postgresql: compact sizes the buckets to the archive, and every deal is found as before" {
	dl-archive add --played club.tso 2> /dev/null
	dl-seed --not-for-play --no-history --hex 6666666666666666666666666666666666666666 \
	    2> /dev/null | dl-stream -n 1-3000 | dl-map > big.tso
	dl-archive add --played big.tso 2> /dev/null
	[ "$(psql_q "SELECT value FROM dl_archive WHERE name = 'bucket_bits'")" = 16 ]
	run -0 dl-archive compact
	[ "$output" = "" ]
	# 3032 deals, 12128 hands: 2^8 buckets, the fewest, 47 entries each
	[ "$(psql_q "SELECT value FROM dl_archive WHERE name = 'bucket_bits'")" = 8 ]
	[ "$(psql_q 'SELECT count(*) FROM hand_buckets')" = 256 ]
	[ "$(hands_held)" = 12128 ]
	[ "$(psql_q 'SELECT count(*) FROM hand_buckets WHERE bucket < 0 OR bucket > 255')" = 0 ]
	run -1 --separate-stderr dl-archive check <(variant turn < club.tso)
	[ "${#lines[@]}" -eq 32 ]
	run -1 --separate-stderr dl-archive check big.tso
	[ "${#lines[@]}" -eq 3000 ]
	[ "$(grep -c ': same deal NESW: set 2 board ' <<< "$output")" -eq 3000 ]
	# the same answers as a file's archive of the same sets
	DL_ARCHIVE=$PWD/local.sqlite dl-archive -q add --played club.tso big.tso
	variant one-hand < club.tso > one-hand.tso
	diff <(dl-archive check one-hand.tso) \
	    <(DL_ARCHIVE=$PWD/local.sqlite dl-archive check one-hand.tso | sed 's/ board [0-9]* (Club Pairs, 2026.11.02)$//')
	# sized again, the other way, as an archive grown to 10^6 deals
	# would be (the last set's last deal says how many there are):
	# 2^16 buckets
	psql_q "UPDATE sets SET first_deal = 1000000 - 2999 WHERE id = 2"
	run -0 dl-archive compact
	[ "$output" = "" ]
	[ "$(psql_q "SELECT value FROM dl_archive WHERE name = 'bucket_bits'")" = 16 ]
	[ "$(hands_held)" = 12128 ]
	[ "$(psql_q 'SELECT count(*) > 11000 FROM hand_buckets')" = t ]
	psql_q "UPDATE sets SET first_deal = 33 WHERE id = 2"
	run -1 --separate-stderr dl-archive check big.tso
	[ "${#lines[@]}" -eq 3000 ]
	[ "$(grep -c ': same deal NESW: set 2 board ' <<< "$output")" -eq 3000 ]
	# buckets whose bits are not what the row says: an entry in a
	# bucket none of its deal's hands is in
	psql_q "UPDATE dl_archive SET value = 12 WHERE name = 'bucket_bits'"
	run -1 dl-archive compact
	[[ $output == "dl-archive: PostgreSQL archive $db on $PG_DIR: bucket "*" of hands: damaged (a deal with no hand in it)" ]]
	[ "$(hands_held)" = 12128 ]
}

@test "postgresql: what the server holds is input: a deal past the last, an escape in a time, a view in a table's place, each refused in one line" {
	dl-archive add --played club.tso 2> /dev/null
	variant turn < club.tso > turned.tso
	psql_q "CREATE TABLE saved AS SELECT * FROM hand_buckets"
	# board 3's number past the last deal, in its block and in the
	# first entry of every bucket
	psql_q "UPDATE deal_blocks SET deals = overlay(deals placing '\\xffffffffffffffffffffffff' from 37 for 12);
	    UPDATE hand_buckets SET entries = overlay(entries placing '\\xffffffffffffffffffffffff' from 1 for 12)"
	run -2 --separate-stderr dl-archive check turned.tso
	[[ $stderr == "dl-archive: PostgreSQL archive $db on $PG_DIR: deal "*": damaged (its deal number is past the last deal)" ]]
	run -1 --separate-stderr dl-archive export 1
	[ "$stderr" = "dl-archive: PostgreSQL archive $db on $PG_DIR: deal 3: damaged (its deal number is past the last deal)" ]
	# entries that are not 16 bytes, a set's number of 0
	psql_q "UPDATE hand_buckets SET entries = entries || '\\x00'"
	run -2 --separate-stderr dl-archive check turned.tso
	[ "$stderr" = "dl-archive: PostgreSQL archive $db on $PG_DIR: a bucket of hands: damaged (not dl's entries)" ]
	psql_q "UPDATE hand_buckets h SET entries = overlay(s.entries placing '\\x00000000' from 13 for 4) FROM saved s WHERE s.bucket = h.bucket"
	run -2 --separate-stderr dl-archive check turned.tso
	[ "$stderr" = "dl-archive: PostgreSQL archive $db on $PG_DIR: a bucket of hands: damaged (a set's number)" ]
	psql_q "UPDATE hand_buckets h SET entries = s.entries FROM saved s WHERE s.bucket = h.bucket; DROP TABLE saved;
	    UPDATE deal_blocks SET deals = overlay(deals placing '\\xad55e315634dda658bf491ff' from 37 for 12);
	    UPDATE sets SET played = played || E'\\033]0;pwned\\007'"
	run -1 dl-archive sets
	[ "$output" = "dl-archive: PostgreSQL archive $db on $PG_DIR: set 1: damaged (the time it was played)" ]
	psql_q "UPDATE sets SET played = NULL, event = E'Club\\033[2J'"
	run -2 --separate-stderr dl-archive check turned.tso
	[ "$stderr" = "dl-archive: PostgreSQL archive $db on $PG_DIR: set 1: damaged (a text that is not one line of printable UTF-8)" ]
	# buckets' bits the archive cannot have
	psql_q "UPDATE sets SET event = 'Club Pairs'; UPDATE dl_archive SET value = 40 WHERE name = 'bucket_bits'"
	run -1 dl-archive add --played teams.tso
	[ "$output" = "dl-archive: teams.tso: PostgreSQL archive $db on $PG_DIR: its buckets' bits: damaged (not 8 to 28)" ]
	psql_q "UPDATE dl_archive SET value = 16 WHERE name = 'bucket_bits'"
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
