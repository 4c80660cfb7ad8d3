#!/usr/bin/env bats
# The federation's loop (docs/archive.md, "The federation's loop"): two
# clubs, each with dl-web and its own archive, and a federation's shared
# archive in a throwaway PostgreSQL server (t/postgres.bash) with a
# writing role (club A sends its played sets) and a read-only one (club B
# only checks).  The server logs every statement with its parameters, so
# that the tests see what it was told.

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
	export SOURCE_DATE_EPOCH=1764100000
	cp "$BATS_FILE_TMPDIR"/*.tso .
	mkdir -p a b tmp
	# the federation: a database of the writing role's, its tables made
	# by dl, read by the other role
	fed=f$BATS_SUITE_TEST_NUMBER
	psql -X -q -h "$PG_DIR" -U dl -d postgres -c "CREATE ROLE ${fed}_writer LOGIN" \
	    -c "CREATE ROLE ${fed}_reader LOGIN" -c "CREATE DATABASE $fed OWNER ${fed}_writer"
	WRITER="pg:host=$PG_DIR user=${fed}_writer dbname=$fed"
	READER="pg:host=$PG_DIR user=${fed}_reader dbname=$fed"
	dl-archive --db "$WRITER" compact
	psql_fed "GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${fed}_reader"
	unset DL_ARCHIVE DL_SHARED_ARCHIVE DL_CLUB REMOTE_USER CONTENT_TYPE CONTENT_LENGTH
}

psql_fed() {
	psql -X -q -A -t -h "$PG_DIR" -U "${fed}_writer" -d "$fed" -c "$1"
}

# club_a CMD...: CMD as club A's dl-web or director runs it: its own
# archive, the shared one by the writing role, its name, its director
club_a() {
	DL_ARCHIVE=$PWD/a/archive.sqlite DL_SHARED_ARCHIVE=$WRITER DL_CLUB='Riverside Bridge Club' \
	    REMOTE_USER=alice DL_WEB_LOCKS=$PWD/a/locks TMPDIR=$PWD/tmp "$@"
}

# club_b CMD...: club B, which only reads the shared archive
club_b() {
	DL_ARCHIVE=$PWD/b/archive.sqlite DL_SHARED_ARCHIVE=$READER DL_CLUB='Hillside BC' \
	    REMOTE_USER=bob DL_WEB_LOCKS=$PWD/b/locks TMPDIR=$PWD/tmp "$@"
}

# post BODY-FILE [TYPE]: dl-web answering a POST of the file
post() {
	REQUEST_METHOD=POST CONTENT_TYPE=${2:-application/x-www-form-urlencoded} \
	    CONTENT_LENGTH=$(wc -c < "$1") dl-web < "$1"
}

# upload FILE NAME: a check's multipart body of FILE, called NAME, in upload
upload() {
	local b=----dlwebcheck
	{
		printf -- '--%s\r\nContent-Disposition: form-data; name="action"\r\n\r\ncheck\r\n' $b
		printf -- '--%s\r\nContent-Disposition: form-data; name="file"; filename="%s"\r\n\r\n' \
		    $b "$2"
		cat "$1"
		printf '\r\n--%s--\r\n' $b
	} > upload
	UPLOAD_TYPE="multipart/form-data; boundary=$b"
}

# since LINE: the server's log after line LINE, into told, once the
# server has written it (a statement after it, logged when it is run)
since() {
	psql -X -q -h "$PG_DIR" -U dl -d postgres -c "SELECT 'since $1'" > /dev/null
	for _ in $(seq 100); do
		tail -n +"$(($1 + 1))" "$PG_DIR/server.log" > told
		grep -q "since $1" told && return 0
		sleep 0.1
	done
	return 1
}

# none_of SQLITE: no deal number of the sets of that archive in told,
# in any form the server could be sent one
none_of() {
	local hex
	for hex in $(sqlite3 "$1" 'SELECT hex(number) FROM deals' | tr A-F a-f); do
		if grep -qi "$hex" told; then
			echo "deal $hex sent to the server" >&2
			return 1
		fi
	done
}

# ranges_only N [SETS]: every value the server was sent in told is a
# look-up's key ranges, each an 8-bit prefix's (the federation's archive
# is small), N looks-ups of them; or, SETS times, the number of a set the
# look-up found boards of dealt before and its deals' first and last ids,
# asked for its words and its boards
ranges_only() {
	[ "$(grep -c 'DETAIL:  parameters:' told)" -eq $(($1 + 2 * ${2:-0})) ]
	[ "$(grep 'DETAIL:  parameters:' told | grep -vc -e "\$1 = '{[-0-9,]*}', \$2 = '{[-0-9,]*}'$" \
	    -e "\$1 = '[0-9]*'$" -e "\$1 = '[0-9]*', \$2 = '[0-9]*'$")" -eq 0 ]
	[ "$(grep -c "DETAIL:  parameters: \$1 = '[0-9]*'$" told)" -eq "${2:-0}" ]
	grep -o "\$1 = '{[-0-9,]*}', \$2 = '{[-0-9,]*}'$" told | awk -F"'" '
	    { n = split(substr($2, 2, length($2) - 2), lo, ","); split(substr($4, 2, length($4) - 2), hi, ",");
	      for (i = 1; i <= n; i++) if (hi[i] - lo[i] != 16777215 || (lo[i] + 2147483648) % 16777216 != 0) bad++ }
	    END { exit bad > 0 }'
	run grep -c -e INSERT -e UPDATE -e COPY -e 'digest = ' told
	[ "$output" = 0 ]
}

@test "two clubs and a federation: A deals and plays, the shared archive gets the set with A's name, B finds it renumbered and turned; the server learns nothing of a set not played" {
	log=$PG_DIR/server.log
	# club A deals on its page: checked against both archives before it
	# is published, recorded in its own
	before=$(wc -l < "$log")
	printf 'event=Monday+Pairs&date=2026.11.30&boards=1-24&formats=pbn&dd=off&download=zip&prefix=session' > body
	club_a post body > r
	[ "$(sed -n '1s/\r$//p' r)" = "Status: 200 OK" ]
	awk 'done { print; next } /^\r$/ { done = 1 }' r > a.zip
	unzip -q a.zip -d z
	since "$before"
	ranges_only 1
	none_of a/archive.sqlite
	[ "$(psql_fed 'SELECT count(*) FROM sets')" = 0 ]
	run -0 dl-archive --db a/archive.sqlite sets
	[[ $output == "1 2025-11-25T19:46:40Z "[0-9a-f]*" 24 1-24 - alice dl-web (Monday Pairs, 2026.11.30)" ]]

	# B checks A's boards, renumbered and turned, before A played them:
	# nothing (the shared archive holds played sets only), and the server
	# is sent prefixes only
	dl-read z/session.pbn | variant turn |
	    awk '/^#B:/ { print "#B: 101-124"; next } /^#/ { print; next } { print $1 + 100, $2 }' |
	    dl-fmt -f pbn > disguised.pbn
	upload disguised.pbn disguised.pbn
	before=$(wc -l < "$log")
	club_b post upload "$UPLOAD_TYPE" > c || { cat c >&2; return 1; }
	grep -qx '<p>No board of it was seen before.</p>' c
	since "$before"
	ranges_only 1
	none_of a/archive.sqlite
	dl-archive --db x.sqlite add disguised.pbn 2> /dev/null
	none_of x.sqlite

	# A plays it, and marks it so on its page: sent, with A's name
	printf 'action=played&set=1' > body
	club_a post body > p
	grep -qx '<p>Set 1 is marked played.</p>' p
	grep -qx "<p>Set 1 is in the federation's shared archive, as its set 1.</p>" p
	[ "$(psql_fed "SELECT club || '|' || played_by || '|' || played || '|' || \"user\" || '|' || source FROM sets")" = \
	    "Riverside Bridge Club|alice|2025-11-25T19:46:40Z|alice|dl-web" ]
	run -0 dl-archive --db "$READER" sets
	[[ $output == "1 2025-11-25T19:46:40Z "[0-9a-f]*" 24 1-24 2025-11-25T19:46:40Z alice dl-web (Riverside Bridge Club, Monday Pairs, 2026.11.30)" ]]
	# once: marked again, sent again, the shared archive holds it once
	club_a post body > p
	grep -qx '<p>Set 1 is marked played.</p>' p
	[ "$(psql_fed 'SELECT count(*) FROM sets')" = 1 ]

	# B's check now finds every board, renumbered and turned, in the
	# shared archive, with the club that played it; the server is told
	# no more than before, and the number of the set it found, which B
	# will not play
	before=$(wc -l < "$log")
	club_b post upload "$UPLOAD_TYPE" > c || { cat c >&2; return 1; }
	since "$before"
	ranges_only 1 1
	none_of x.sqlite
	[ "$(grep -c '^<tr><td>' c)" = 24 ]
	grep -qx '<tr><td>101</td><td>the same deal, turned round the table</td><td>shared&nbsp;1</td><td>1</td><td>Monday Pairs</td><td>2026.11.30</td><td>Riverside Bridge Club</td></tr>' c
	grep -qx '<tr><td>124</td><td>the same deal, turned round the table</td><td>shared&nbsp;1</td><td>24</td><td>Monday Pairs</td><td>2026.11.30</td><td>Riverside Bridge Club</td></tr>' c
	grep -qx '<p><strong>Dealt before: 24 of its 24 boards.</strong></p>' c
	# and so does B's director at the command line
	run -1 --separate-stderr club_b dl-archive check disguised.pbn
	[ "${#lines[@]}" -eq 24 ]
	[ "${lines[0]}" = "disguised.pbn: board 101: same deal turned WNES: shared set 1 board 1 (Riverside Bridge Club, Monday Pairs, 2026.11.30)" ]
	[ "$stderr" = "dl-archive: disguised.pbn: 24 of 24 boards dealt before" ]
}

@test "played: a set reaches the shared archive once, with its club and director; the server away, it is owed and sent by the next sync; read-only, refused in one line" {
	export DL_ARCHIVE=$PWD/a/archive.sqlite REMOTE_USER=alice
	dl-archive add club.tso teams.tso 2> /dev/null
	# no club named: nothing is marked
	run -2 dl-archive --shared "$WRITER" played 1
	[ "$output" = "dl-archive: no club named (--club or DL_CLUB): the shared archive is told which club played a set" ]
	[ "$(sqlite3 a/archive.sqlite 'SELECT count(played) FROM sets')" = 0 ]
	# the server away: marked played all the same, and owed
	run -2 dl-archive --shared "pg:host=$PWD/nowhere user=x dbname=x" --club 'Riverside Bridge Club' played 1
	[[ $output == "dl-archive: 1 set played, not yet in the shared archive (dl-archive sync sends it): PostgreSQL archive: cannot connect: "* ]]
	run -0 dl-archive sets
	[ "${lines[0]}" = "1 2025-11-25T19:46:40Z $(sqlite3 a/archive.sqlite 'SELECT fingerprint FROM sets WHERE id = 1') 32 1-32 2025-11-25T19:46:40Z alice club.tso (Riverside Bridge Club, Club Pairs, 2026.11.02)" ]
	[ "$(psql_fed 'SELECT count(*) FROM sets')" = 0 ]
	# sync sends what is owed, as the club it was played at
	export DL_SHARED_ARCHIVE=$WRITER DL_CLUB='Another name'
	run -0 dl-archive sync
	[ "$output" = "dl-archive: set 1: sent to the shared archive, set 1, 32 boards" ]
	[ "$(psql_fed "SELECT club || '|' || played_by || '|' || boards FROM sets")" = "Riverside Bridge Club|alice|32" ]
	run -0 dl-archive sync
	[ "$output" = "" ]
	# cut short between the two commits (the shared archive's, then the
	# club's mark): the next sync finds it there, and sends nothing twice
	sqlite3 a/archive.sqlite 'UPDATE sets SET shared = NULL'
	run -0 dl-archive sync
	[ "$output" = "dl-archive: set 1: in the shared archive already, as set 1" ]
	[ "$(psql_fed 'SELECT count(*) FROM sets')" = 1 ]
	[ "$(psql_fed 'SELECT coalesce(sum(length(deals)), 0) / 16 FROM deal_blocks')" = 32 ]
	# played sends every set owed, the one marked too
	run -0 dl-archive played 2
	[ "$output" = "dl-archive: set 2: sent to the shared archive, set 2, 24 boards" ]
	[ "$(psql_fed "SELECT club FROM sets WHERE id = 2")" = "Another name" ]
	# a club with the read-only role cannot send: owed, in one line
	export DL_ARCHIVE=$PWD/b/archive.sqlite DL_SHARED_ARCHIVE=$READER
	dl-archive add fresh.tso 2> /dev/null
	run -2 dl-archive played 1
	[[ $output == "dl-archive: 1 set played, not yet in the shared archive (dl-archive sync sends it): PostgreSQL archive "*"permission denied for table "* ]]
	[ "${#lines[@]}" -eq 1 ]
	[ "$(psql_fed 'SELECT count(*) FROM sets')" = 2 ]
	# a shared archive named that is a club's file: refused
	run -2 dl-archive --shared "$PWD/a/archive.sqlite" sync
	[ "$output" = "dl-archive: --shared: not a shared archive (PostgreSQL): a club's own archive is --db" ]
}

@test "check: one report of the club's archive and the federation's; a deal in both is said once, the club's own" {
	export DL_ARCHIVE=$PWD/a/archive.sqlite DL_SHARED_ARCHIVE=$WRITER DL_CLUB='Riverside Bridge Club'
	dl-archive add club.tso 2> /dev/null
	dl-archive played 1 2> /dev/null
	# the federation holds another club's set too
	DL_ARCHIVE=$PWD/b/archive.sqlite DL_CLUB='Hillside BC' dl-archive add --played teams.tso 2> /dev/null
	DL_ARCHIVE=$PWD/b/archive.sqlite DL_CLUB='Hillside BC' dl-archive sync 2> /dev/null
	{ grep -v '^#' club.tso | head -2; grep -v '^#' teams.tso | sed -n 3p; } |
	    awk 'BEGIN { print "#P: dl/1 deals"; print "#B: 1-3" } { print NR, $2 }' > mixed.tso
	run -1 --separate-stderr dl-archive check mixed.tso
	[ "$output" = "mixed.tso: board 1: same deal NESW: set 1 board 1 (Riverside Bridge Club, Club Pairs, 2026.11.02)
mixed.tso: board 2: same deal NESW: set 1 board 2 (Riverside Bridge Club, Club Pairs, 2026.11.02)
mixed.tso: board 3: same deal NESW: shared set 2 board 3 (Hillside BC, Club Teams)" ]
	[ "$stderr" = "dl-archive: mixed.tso: 3 of 3 boards dealt before" ]
	# a club with no archive of its own yet checks against the shared one
	run -1 --separate-stderr env DL_ARCHIVE=$PWD/none.sqlite dl-archive check mixed.tso
	[ "${lines[0]}" = "mixed.tso: board 1: same deal NESW: shared set 1 board 1 (Riverside Bridge Club, Club Pairs, 2026.11.02)" ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "dealing: a set whose boards were played at another club (a seed used again) is refused before a file appears; a fresh one is dealt" {
	# club A makes a known set again (SquareDeal's wizard mode), plays it
	printf 'formats=pbn\n' | tee a/.bigdealrc > b/.bigdealrc
	(cd a && DL_ARCHIVE=$PWD/archive.sqlite dl-bigdealx -W 'left half' -e 'right half' -n 8 \
	    -p sess -f pbn < /dev/null > /dev/null 2>&1)
	[ -s a/sess.pbn ]
	# made again before it is played, with the shared archive named: the
	# same set, not compared with itself, archived once
	(cd a && DL_ARCHIVE=$PWD/archive.sqlite DL_SHARED_ARCHIVE=$WRITER dl-bigdealx \
	    -W 'left half' -e 'right half' -n 8 -p again -f pbn < /dev/null > /dev/null 2>&1)
	cmp a/sess.pbn a/again.pbn
	[ "$(sqlite3 a/archive.sqlite 'SELECT count(*) FROM sets')" = 1 ]
	DL_ARCHIVE=$PWD/a/archive.sqlite DL_SHARED_ARCHIVE=$WRITER DL_CLUB='Riverside Bridge Club' \
	    dl-archive played 1 2> /dev/null
	# club B makes the same: refused, nothing published, nothing recorded
	cd b
	run -1 env DL_ARCHIVE="$PWD/archive.sqlite" DL_SHARED_ARCHIVE="$READER" \
	    dl-bigdealx -W 'left half' -e 'right half' -n 8 -p sess -f pbn < /dev/null
	cd ..
	[ "${lines[-1]}" = "dl-bigdealx: archive: board 1 was dealt before (the same deal, shared set 1 board 1, Riverside Bridge Club): 8 of 8 boards; nothing published" ]
	[ ! -e b/sess.pbn ]
	[ "$(sqlite3 b/archive.sqlite 'SELECT count(*) FROM sets')" = 0 ]
	# dl-deal, the shared archive on its command line: a fresh set is
	# checked (one look-up, its prefixes) and dealt
	before=$(wc -l < "$PG_DIR/server.log")
	DL_ARCHIVE=$PWD/b/archive.sqlite dl-deal --shared "$READER" --no-analysis -n 1-16 -p b/fresh \
	    -f pbn 2> /dev/null
	[ "$(grep -c '^\[Board ' b/fresh.pbn)" = 16 ]
	since "$before"
	ranges_only 1
	none_of b/archive.sqlite
}

@test "a club's archive moves whole with who played each set, where, and when it was shared" {
	export DL_ARCHIVE=$PWD/a/archive.sqlite DL_SHARED_ARCHIVE=$WRITER DL_CLUB='Riverside Bridge Club' REMOTE_USER=alice
	dl-archive add club.tso teams.tso 2> /dev/null
	dl-archive played 1 2> /dev/null
	dl-archive export --all > a.dl
	grep -q '^#R: .* club=Riverside%20Bridge%20Club played_by=alice shared=2025-11-25T19:46:40Z$' a.dl
	dl-archive --db moved.sqlite -q import a.dl
	[ "$(dl-archive --db moved.sqlite sets)" = "$(dl-archive sets)" ]
	dl-archive --db moved.sqlite export --all | cmp - a.dl
	# moved, set 1 is owed nothing, set 2 is not played
	run -0 dl-archive --db moved.sqlite sync
	[ "$output" = "" ]
}

@test "dl-web: the shared archive away, a set marked played is kept to be sent; the cause in the server's log, not on the page" {
	printf 'event=Monday+Pairs&boards=1-4&formats=pbn&dd=off&download=zip' > body
	club_a post body > /dev/null
	printf 'action=played&set=1' > body
	DL_ARCHIVE=$PWD/a/archive.sqlite DL_SHARED_ARCHIVE="pg:host=$PWD/nowhere user=x dbname=x" \
	    DL_CLUB='Riverside Bridge Club' REMOTE_USER=alice TMPDIR=$PWD/tmp post body > p 2> log
	grep -qx '<p>Set 1 is marked played.</p>' p
	grep -qx "<p><strong>The federation's shared archive could not be reached</strong>: the set is kept to be sent, with any other set played, the next time a set is marked played here (or by <code>dl-archive sync</code>).</p>" p
	run grep -c nowhere p
	[ "$output" = 0 ]
	[[ $(cat log) == "dl-web: the shared archive: PostgreSQL archive: cannot connect: "*"$PWD/nowhere"* ]]
	# and the next played sends it, as the club and user who marked it
	printf 'action=played&set=1' > body
	club_a post body > p
	grep -qx "<p>Set 1 is in the federation's shared archive, as its set 1.</p>" p
	[ "$(psql_fed "SELECT club || '|' || played_by FROM sets")" = "Riverside Bridge Club|alice" ]
}

# bats test_tags=slow
@test "sync killed in the middle of a send: the shared archive holds nothing of the set, the club's still owes it, the next sync sends it once" {
	export DL_ARCHIVE=$PWD/a/archive.sqlite DL_SHARED_ARCHIVE=$WRITER DL_CLUB='Riverside Bridge Club'
	dl-seed --not-for-play --no-history --hex 6666666666666666666666666666666666666666 \
	    2> /dev/null | dl-stream -n 1-300000 | dl-map > big.tso
	dl-archive add --played big.tso 2> /dev/null
	dl-archive sync 2> /dev/null &
	pid=$!
	# killed once the server is taking its deals
	for _ in $(seq 200); do
		[ "$(psql -X -q -A -t -h "$PG_DIR" -U dl -d "$fed" -c \
		    "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'COPY%'")" != 0 ] && break
		sleep 0.05
	done
	kill -9 "$pid"
	wait "$pid" || true
	[ "$(psql_fed 'SELECT count(*) FROM sets')" = 0 ]
	[ "$(psql_fed 'SELECT coalesce(sum(length(deals)), 0) / 16 FROM deal_blocks')" = 0 ]
	[ "$(sqlite3 a/archive.sqlite 'SELECT count(shared) FROM sets')" = 0 ]
	run -0 dl-archive sync
	[ "$output" = "dl-archive: set 1: sent to the shared archive, set $(psql_fed 'SELECT id FROM sets'), 300000 boards" ]
	[ "$(psql_fed 'SELECT coalesce(sum(length(deals)), 0) / 16 FROM deal_blocks')" = 300000 ]
	run -0 dl-archive sync
	[ "$output" = "" ]
}

@test "a club's role that may select, insert and update, and use the sets' sequence, and nothing more, sends; one that may not update is refused in one line" {
	psql -X -q -h "$PG_DIR" -U dl -d postgres -c "CREATE ROLE ${fed}_club LOGIN" -c "CREATE ROLE ${fed}_insert LOGIN"
	psql_fed "GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO ${fed}_club;
	    GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ${fed}_club;
	    GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA public TO ${fed}_insert;
	    GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ${fed}_insert"
	export DL_ARCHIVE=$PWD/a/archive.sqlite DL_CLUB='Riverside Bridge Club'
	dl-archive add --played club.tso 2> /dev/null
	run -2 dl-archive --shared "pg:host=$PG_DIR user=${fed}_insert dbname=$fed" sync
	[[ $output == "dl-archive: 1 set played, not yet in the shared archive (dl-archive sync sends it): "*"permission denied for table sets" ]]
	run -0 dl-archive --shared "pg:host=$PG_DIR user=${fed}_club dbname=$fed" sync
	[ "$output" = "dl-archive: set 1: sent to the shared archive, set 1, 32 boards" ]
}
