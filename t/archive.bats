#!/usr/bin/env bats
# dl-archive: every set ever dealt (lib/archive/, docs/archive.md), in
# SQLite here and in PostgreSQL in t/archive-postgres.bats.  The sets are
# made from test seeds; the variants of their boards (turned, hands at
# other seats, cards exchanged) are made by awk from the .tso records.

load helper
load archive

setup_file() {
	archive_test_sets
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	export DL_SEED_HISTORY=$BATS_TEST_TMPDIR/seed-history
	export DL_ARCHIVE=$BATS_TEST_TMPDIR/archive.sqlite
	export SOURCE_DATE_EPOCH=1764100000 REMOTE_USER=director
	cp "$BATS_FILE_TMPDIR"/*.tso .
}

@test "add: a set in, its description out; the same set again is not added twice" {
	run -0 dl-archive add club.tso
	[ "$output" = "dl-archive: club.tso: set 1, 32 boards" ]
	run -0 dl-archive add < club.tso
	[ "$output" = "dl-archive: standard input: archived before, as set 1" ]
	dl-archive add teams.tso 2> /dev/null
	fp1=$(dl-fmt -f html < club.tso | sed -n 's/.*--fingerprint: "\([0-9a-f ]*\)".*/\1/p' | tr -d ' ')
	run -0 dl-archive sets
	[ "${lines[0]}" = "1 2025-11-25T19:46:40Z $fp1 32 1-32 - director club.tso (Club Pairs, 2026.11.02)" ]
	[[ ${lines[1]} == "2 2025-11-25T19:46:40Z "[0-9a-f]*" 24 1-24 - director teams.tso (Club Teams)" ]]
	[ "${#lines[@]}" -eq 2 ]
	run -0 dl-archive count
	[ "$output" = "2 sets, 56 deals; played 0 sets, 0 deals" ]
}

@test "add: a new archive and its folders are its owner's alone" {
	export DL_ARCHIVE=$BATS_TEST_TMPDIR/new/dir/archive.sqlite
	dl-archive add club.tso 2> /dev/null
	[ "$(stat -c %a new/dir/archive.sqlite)" = 600 ]
	[ "$(stat -c %a new/dir)" = 700 ]
	[ "$(stat -c %a new)" = 700 ]
}

@test "add: a file of any format dl-read reads, and --played" {
	dl-fmt -f pbn < club.tso > club.pbn
	run -0 dl-archive add --played club.pbn
	[ "$output" = "dl-archive: club.pbn: set 1, 32 boards" ]
	run -0 dl-archive sets
	[[ $output == "1 2025-11-25T19:46:40Z "[0-9a-f]*" 32 1-32 2025-11-25T19:46:40Z director club.pbn (Club Pairs, 2026.11.02)" ]]
	run -0 dl-archive count
	[ "$output" = "1 sets, 32 deals; played 1 sets, 32 deals" ]
}

@test "check: a set never seen passes, exit 0; a renumbered copy of an archived one is caught, exit 1" {
	dl-archive add club.tso 2> /dev/null
	run -0 dl-archive check fresh.tso
	[ "$output" = "" ]
	# last month's boards 1-32 as tonight's 101-132, in PBN
	awk '/^#B/ { print "#B: 101-132"; next } /^#/ { print; next } { print $1 + 100, $2 }' \
	    club.tso | dl-fmt -f pbn > tonight.pbn
	run -1 --separate-stderr dl-archive check tonight.pbn
	[ "$stderr" = "dl-archive: tonight.pbn: 32 of 32 boards dealt before" ]
	[ "${#lines[@]}" -eq 32 ]
	[ "${lines[0]}" = "tonight.pbn: board 101: same deal NESW: set 1 board 1 (Club Pairs, 2026.11.02)" ]
	[ "${lines[31]}" = "tonight.pbn: board 132: same deal NESW: set 1 board 32 (Club Pairs, 2026.11.02)" ]
}

@test "check: the set itself, not yet played, is not compared with itself; once played, it is" {
	dl-archive add club.tso 2> /dev/null
	run -0 dl-archive check club.tso
	[ "$output" = "club.tso: archived as set 1, not played: not compared with itself" ]
	run -0 dl-archive played 1
	run -1 --separate-stderr dl-archive check club.tso
	[ "${lines[0]}" = "club.tso: board 1: same deal NESW: set 1 board 1 (Club Pairs, 2026.11.02)" ]
	[ "${#lines[@]}" -eq 32 ]
	run -2 dl-archive played 7
	[ "$output" = "dl-archive: played: no set 7" ]
}

@test "check: every variant of every archived board is caught, each as what it is" {
	dl-archive add club.tso 2> /dev/null
	for how in turn swap one-card two-cards one-hand; do
		variant "$how" < club.tso > "$how.tso"
	done
	run -1 --separate-stderr dl-archive check turn.tso
	[ "$(grep -c ': same deal turned WNES: set 1 board ' <<< "$output")" -eq 32 ]
	[ "${#lines[@]}" -eq 32 ]
	run -1 --separate-stderr dl-archive check swap.tso
	[ "$(grep -c ': same hands ENSW: set 1 board ' <<< "$output")" -eq 32 ]
	[ "${#lines[@]}" -eq 32 ]
	run -1 --separate-stderr dl-archive check one-card.tso
	[ "$stderr" = "dl-archive: one-card.tso: 32 of 32 boards dealt before" ]
	[ "$(grep -c ': two hands -E-W: set 1 board ' <<< "$output")" -eq 32 ]
	[ "${#lines[@]}" -eq 32 ]
	run -1 --separate-stderr dl-archive check two-cards.tso
	[ "$(grep -c ': two hands -E-W: set 1 board ' <<< "$output")" -eq 32 ]
	[ "${#lines[@]}" -eq 32 ]
	# a hand held before is said, but is no set played before
	run -0 dl-archive check one-hand.tso
	[ "$(grep -c ': one hand N---: set 1 board ' <<< "$output")" -eq 32 ]
	[ "${#lines[@]}" -eq 32 ]
	[ "${lines[4]}" = "one-hand.tso: board 5: one hand N---: set 1 board 5 (Club Pairs, 2026.11.02)" ]
	# two exchanges, whichever hands they touch: a near deal, dealt
	# before; the seats of the hands that changed in small letters
	variant near-pairs < club.tso > near-pairs.tso
	variant near-chain < club.tso > near-chain.tso
	run -1 --separate-stderr dl-archive check near-pairs.tso
	[ "$(grep -c ': near deal nesw: set 1 board ' <<< "$output")" -eq 32 ]
	[ "${#lines[@]}" -eq 32 ]
	[ "${lines[0]}" = "near-pairs.tso: board 1: near deal nesw: set 1 board 1 (Club Pairs, 2026.11.02)" ]
	[ "$stderr" = "dl-archive: near-pairs.tso: 32 of 32 boards dealt before" ]
	run -1 --separate-stderr dl-archive check near-chain.tso
	[ "$(grep -c ': near deal nesW: set 1 board ' <<< "$output")" -eq 32 ]
	[ "${#lines[@]}" -eq 32 ]
	# and turned round the table too
	variant turn < near-pairs.tso > near-turned.tso
	run -1 --separate-stderr dl-archive check near-turned.tso
	[ "$(grep -c ': near deal wnes: set 1 board ' <<< "$output")" -eq 32 ]
}

@test "check: -q says nothing, its status says it all" {
	dl-archive add club.tso 2> /dev/null
	run -1 dl-archive check -q < <(variant turn < club.tso)
	[ "$output" = "" ]
	run -0 dl-archive -q check fresh.tso
	[ "$output" = "" ]
}

@test "find: a deal by PBN or .tso digits at any seats, a hand at its seat" {
	dl-archive add club.tso 2> /dev/null
	deal=$(dl-fmt -f pbn < club.tso | awk -F'"' '/^\[Board /{b=$2} /^\[Deal /&&b==7{print $2}')
	run -0 dl-archive find deal "$deal"
	[ "$output" = "set 1 board 7 NESW (Club Pairs, 2026.11.02)" ]
	run -0 dl-archive find deal "$(variant turn < club.tso | awk '$1 == 7 { print $2 }')"
	[ "$output" = "set 1 board 7 WNES (Club Pairs, 2026.11.02)" ]
	east=$(cut -d' ' -f2 <<< "${deal#N:}")
	run -0 dl-archive find hand "$east"
	[ "$output" = "set 1 board 7 E (Club Pairs, 2026.11.02)" ]
	run -1 dl-archive find hand AKQJT98765432...
	[ "$output" = "" ]
	run -2 dl-archive find hand AKQ.AKQ
	[ "$output" = "dl-archive: find hand: not a hand of 13 cards as PBN writes it (AKQ2.JT9.876.54)" ]
}

@test "export: a set back as the stream it came as, with the archive's record of it" {
	dl-archive add club.tso 2> /dev/null
	dl-archive export 1 > back.tso
	with_record "archived=2025-11-25T19:46:40Z user=director source=club.tso fingerprint=$(fingerprint 1)" \
	    < club.tso | cmp - back.tso
	# a stream read back by every tool: dl-archive add takes it as the same set
	run -0 dl-archive add back.tso
	[ "$output" = "dl-archive: back.tso: archived before, as set 1" ]
	dl-fmt -f tso < back.tso | cmp - back.tso
	run -2 dl-archive export 2
	[ "$output" = "dl-archive: export: no set 2" ]
	run -2 dl-archive export
	[ "${lines[0]}" = "usage: dl-archive [--db archive] add [--played] [-f format] [--renumber] [file ...]" ]
	run -2 dl-archive export --all 1
	[ "${lines[0]}" = "usage: dl-archive [--db archive] add [--played] [-f format] [--renumber] [file ...]" ]
}

@test "an event with SQL and markup in it is kept as text" {
	dl-seed --not-for-play --no-history --hex 6666666666666666666666666666666666666666 \
	    --event "Bobby'); DROP TABLE sets; -- <b>" 2> /dev/null | dl-stream -n 1-4 | dl-map > odd.tso
	dl-archive add odd.tso 2> /dev/null
	dl-archive add club.tso 2> /dev/null
	run -0 dl-archive sets
	[[ ${lines[0]} == *" odd.tso (Bobby'); DROP TABLE sets; -- <b>)" ]]
	[ "${#lines[@]}" -eq 2 ]
}

@test "export: boards with their own dealers and vulnerabilities come back as dl-read wrote them" {
	grep -v "^#" club.tso | head -4 | dl-fmt -f pbn > practice.pbn
	# a practice set: board 1 dealt by West, all vulnerable; board 3 by North
	sed -i -e '0,/\[Dealer "N"\]/s//[Dealer "W"]/' \
	    -e '0,/\[Vulnerable "None"\]/s//[Vulnerable "All"]/' \
	    -e 's/\[Dealer "S"\]/[Dealer "N"]/' practice.pbn
	dl-read practice.pbn > practice.dl
	[ "$(head -1 practice.dl)" = "#P: dl/1 deals+dv" ]
	[ "$(grep -c ' [NESW] [A-Za-z]*$' practice.dl)" -eq 4 ]
	dl-archive add practice.pbn 2> /dev/null
	[ "$(sqlite3 archive.sqlite 'SELECT dv FROM sets')" = W3E1N2W3 ]
	dl-archive export 1 > back.dl
	fp=$(fingerprint 1)
	with_record "archived=2025-11-25T19:46:40Z user=director source=practice.pbn fingerprint=$fp" \
	    < practice.dl | cmp - back.dl
	# added to another archive, and out again: the same set, the same
	# boards, and that archive's record of it
	REMOTE_USER=other dl-archive --db other.sqlite add back.dl 2> /dev/null
	with_record "archived=2025-11-25T19:46:40Z user=other source=back.dl fingerprint=$fp" \
	    < practice.dl > other.dl
	dl-archive --db other.sqlite export 1 | cmp - other.dl
	run -0 dl-archive add back.dl
	[ "$output" = "dl-archive: back.dl: archived before, as set 1" ]
	# the boards' own are their numbers': a deals stream, no dv kept
	dl-archive add club.tso 2> /dev/null
	[ "$(sqlite3 archive.sqlite 'SELECT dv IS NULL FROM sets WHERE id = 2')" = 1 ]
	dl-archive export 2 | grep -v '^#R: ' | cmp - club.tso
}

@test "export --all and import: an archive moved whole, each set as it was, and the origin's who and when" {
	# sessions played and not, renumbered, and a file whose boards run
	# from 1300 down to 1001
	dl-archive add --played club.tso 2> /dev/null
	dl-archive add teams.tso 2> /dev/null
	dl-board --renumber 101 < fresh.tso > renumbered.tso
	dl-archive add renumbered.tso 2> /dev/null
	dl-seed --not-for-play --no-history --hex 7777777777777777777777777777777777777777 \
	    --event 'Winter Cup' --date 2026.01.10 2> /dev/null | dl-stream -n 1001-1300 | dl-map > winter.tso
	reversed_pbn < winter.tso > winter.pbn
	dl-archive add --played winter.pbn 2> /dev/null
	# other programs' files: boards out of order (10, 1, 14; 62, 7, 6), a
	# gap (5, 8), labels given twice, boards' own dealers, a date in a
	# form of its own ("1-Dec-2023", which no #D: takes)
	real=$VECTORS/real
	dl-archive -q add --played "$real/bfc-sample.pbn" "$real/rpbridge-shared-deals.pbn" \
	    "$real/bbo-hands.lin" "$real/dealconvert-test.dup" "$real/duplimate-1.dlm"
	dl-archive -q add --renumber "$real/ben-wbridge5-match.pbn" "$real/jack-sets-from-1.pbn"
	run -0 dl-archive count
	[ "$output" = "11 sets, 446 deals; played 7 sets, 380 deals" ]
	[ "$(sqlite3 archive.sqlite 'SELECT count(*) FROM sets WHERE dv IS NOT NULL')" = 1 ]

	dl-archive export --all > all.dl
	# moved by someone else, later: the sets keep the origin's who and when
	SOURCE_DATE_EPOCH=1800000000 REMOTE_USER=mover run -0 dl-archive --db moved.sqlite import all.dl
	[ "${#lines[@]}" -eq 11 ]
	[ "${lines[0]}" = "dl-archive: all.dl: $(fingerprint 1): set 1, 32 boards" ]
	[ "${lines[3]}" = "dl-archive: all.dl: $(fingerprint 4): set 4, 300 boards" ]
	[ "${lines[10]}" = "dl-archive: all.dl: $(fingerprint 11): set 11, 6 boards" ]
	[ "$(dl-archive --db moved.sqlite sets)" = "$(dl-archive sets)" ]
	[ "$(set_rows moved.sqlite)" = "$(set_rows archive.sqlite)" ]
	dl-archive --db moved.sqlite export --all | cmp - all.dl
	for set in $(seq 11); do
		cmp <(dl-archive export "$set") <(dl-archive --db moved.sqlite export "$set")
	done

	# the reversed set: its boards in its own order, its event and date
	run -0 dl-archive --db moved.sqlite sets
	[ "${lines[3]}" = "4 2025-11-25T19:46:40Z $(fingerprint 4) 300 1001-1300 2025-11-25T19:46:40Z director winter.pbn (Winter Cup, 2026.01.10)" ]
	dl-archive --db moved.sqlite export 4 > winter.dl
	[ "$(sed -n '1,4p' winter.dl)" = "#P: dl/1 deals
#I: Winter Cup
#D: 2026.01.10
#R: archived=2025-11-25T19:46:40Z played=2025-11-25T19:46:40Z user=director source=winter.pbn fingerprint=$(fingerprint 4)" ]
	cmp <(sed 1,4d winter.dl) <(grep -v '^#' winter.tso | tac)
	# a file's date no #D: takes, in the record; labels given twice, and
	# the boards' own dealers
	run -0 dl-archive --db moved.sqlite export 10
	[ "${lines[0]}" = "#P: dl/1 deals+dv" ]
	[ "${lines[1]}" = "#I: Random Deal" ]
	[ "${lines[2]}" = "#R: archived=2025-11-25T19:46:40Z user=director source=$real/ben-wbridge5-match.pbn fingerprint=$(fingerprint 10) date=1-Dec-2023" ]
	[ "$(printf '%s\n' "${lines[@]:3}" | cut -d' ' -f1,3,4)" = "1 N None
1 E None
2 E NS
2 S EW" ]
	# a renumbered session, not played
	with_record "archived=2025-11-25T19:46:40Z user=director source=renumbered.tso fingerprint=$(fingerprint 3)" \
	    < renumbered.tso | cmp - <(dl-archive --db moved.sqlite export 3)

	# again: every set is there already, and nothing changes
	cp moved.sqlite before.sqlite
	run -0 dl-archive --db moved.sqlite import < all.dl
	[ "${lines[0]}" = "dl-archive: standard input: $(fingerprint 1): archived before, as set 1" ]
	[ "${lines[10]}" = "dl-archive: standard input: $(fingerprint 11): archived before, as set 11" ]
	[ "$(set_rows moved.sqlite)" = "$(set_rows before.sqlite)" ]
	# one set alone, into an archive that has others
	dl-archive --db one.sqlite add fresh.tso 2> /dev/null
	run -0 dl-archive --db one.sqlite import <(dl-archive export 4)
	[[ $output == "dl-archive: /dev/fd/"*": $(fingerprint 4): set 2, 300 boards" ]]
	cmp <(dl-archive --db one.sqlite export 2) <(dl-archive export 4)
	run -0 dl-archive --db one.sqlite -q import all.dl
	[ "$output" = "" ]
	[ "$(dl-archive --db one.sqlite count)" = "12 sets, 478 deals; played 7 sets, 380 deals" ]
}

@test "export --all and import: archives of schemas 1 and 2 moved as they are" {
	for schema in 2 1; do
		cp "$VECTORS/archive/schema$schema.sqlite" old.sqlite
		chmod 600 old.sqlite
		dl-archive --db old.sqlite export --all > old.dl
		[ "$(sqlite3 old.sqlite 'PRAGMA user_version')" = "$schema" ]
		rm -f new.sqlite
		dl-archive --db new.sqlite -q import old.dl
		[ "$(dl-archive --db new.sqlite sets)" = "$(dl-archive --db old.sqlite sets)" ]
		dl-archive --db new.sqlite export --all | cmp - old.dl
		[ "$(sqlite3 new.sqlite 'PRAGMA user_version')" = 7 ]
	done
	# schema 1's second set came from a PBN file: its event, site and date
	# as headers, and no user (schema 1 kept none)
	cp "$VECTORS/archive/schema1.sqlite" old.sqlite
	run -0 dl-archive --db old.sqlite export 2
	[ "$(printf '%s\n' "${lines[@]:0:6}")" = "#P: dl/1 deals
#I: Autumn Teams
#S: Town Hall
#D: 2025.10.04
#B: 1-16
#R: archived=2026-11-25T20:11:42Z source=/tmp/arc/autumn.pbn fingerprint=0e3baae72a328910" ]
	cmp <(dl-read "$VECTORS/archive/autumn.pbn" | grep -v '^#') <(printf '%s\n' "${lines[@]:6}")
	[ "$(sqlite3 new.sqlite "SELECT coalesce(headers, 'none'), coalesce(user, 'none') FROM sets WHERE id = 2")" = "none|none" ]
	[ "$(sqlite3 new.sqlite 'SELECT event_key FROM sets ORDER BY id' | paste -sd '|')" = "sprlng palrs|autumn teams" ]
}

@test "an archive of schema 2 is read as it is, and upgraded when written" {
	cp "$VECTORS/archive/schema2.sqlite" old.sqlite
	chmod 600 old.sqlite
	export DL_ARCHIVE=$PWD/old.sqlite
	run -0 dl-archive sets
	[ "$output" = "1 2026-11-26T01:19:08Z 789a946e0cc75ded 24 1-24 2026-11-26T01:19:08Z root spring.tso (Spring Pairs, 2025.04.12)" ]
	with_record "archived=2026-11-26T01:19:08Z played=2026-11-26T01:19:08Z user=root source=spring.tso fingerprint=789a946e0cc75ded" \
	    < "$VECTORS/archive/spring.tso" > spring.dl
	dl-archive export 1 | cmp - spring.dl
	[ "$(sqlite3 old.sqlite 'PRAGMA user_version')" = 2 ]
	dl-archive add club.tso 2> /dev/null
	[ "$(sqlite3 old.sqlite 'PRAGMA user_version')" = 7 ]
	# schema 4's key of each event, made for the sets there before
	[ "$(sqlite3 old.sqlite 'SELECT event_key FROM sets WHERE id = 1')" = "sprlng palrs" ]
	dl-archive export 1 | cmp - spring.dl
	dl-archive export 2 | grep -v '^#R: ' | cmp - club.tso
	run -0 sqlite3 old.sqlite 'PRAGMA integrity_check'
	[ "$output" = ok ]
}

@test "an archive of schema 1 is read as it is, and upgraded in one step when written" {
	cp "$VECTORS/archive/schema1.sqlite" old.sqlite
	chmod 600 old.sqlite
	export DL_ARCHIVE=$PWD/old.sqlite
	run -0 dl-archive sets
	[ "${lines[0]}" = "1 2026-11-25T20:11:42Z 789a946e0cc75ded 24 1-24 - - /tmp/arc/spring.tso (Spring Pairs, 2025.04.12)" ]
	[ "${lines[1]}" = "2 2026-11-25T20:11:42Z 0e3baae72a328910 16 1-16 - - /tmp/arc/autumn.pbn (Autumn Teams, 2025.10.04)" ]
	[ "$(sqlite3 old.sqlite 'PRAGMA user_version')" = 1 ]
	# its sets are found, as read, without writing to it
	variant turn < "$VECTORS/archive/spring.tso" > turned.tso
	cp old.sqlite before.sqlite
	run -1 --separate-stderr dl-archive check turned.tso
	[ "${#lines[@]}" -eq 24 ]
	[ "${lines[23]}" = "turned.tso: board 24: same deal turned WNES: set 1 board 24 (Spring Pairs, 2025.04.12)" ]
	cmp old.sqlite before.sqlite
	run -0 dl-archive check "$VECTORS/archive/autumn.pbn"
	[ "$output" = "$VECTORS/archive/autumn.pbn: archived as set 2, not played: not compared with itself" ]
	dl-archive played 2
	[ "$(sqlite3 old.sqlite 'PRAGMA user_version')" = 7 ]
	[ "$(sqlite3 old.sqlite 'SELECT event_key FROM sets ORDER BY id' | paste -sd '|')" = "sprlng palrs|autumn teams" ]
	run -0 dl-archive sets
	[ "${lines[1]}" = "2 2026-11-25T20:11:42Z 0e3baae72a328910 16 1-16 2025-11-25T19:46:40Z - /tmp/arc/autumn.pbn (Autumn Teams, 2025.10.04)" ]
	run -0 sqlite3 old.sqlite 'PRAGMA integrity_check'
	[ "$output" = ok ]
}

@test "an archive of a newer schema, another file, a damaged one: one line, status 1" {
	dl-archive add club.tso 2> /dev/null
	cp archive.sqlite newer.sqlite
	sqlite3 newer.sqlite 'PRAGMA user_version = 9'
	run -1 dl-archive --db newer.sqlite sets
	[ "$output" = "dl-archive: newer.sqlite: archive of schema 9, newer than this dl's (7): upgrade dl" ]
	sqlite3 other.sqlite 'CREATE TABLE t (x)'
	run -1 dl-archive --db other.sqlite add club.tso
	[ "$output" = "dl-archive: other.sqlite: not a dl archive" ]
	head -c 8192 /dev/urandom > noise.sqlite
	run -1 dl-archive --db noise.sqlite sets
	[ "$output" = "dl-archive: noise.sqlite: not a dl archive, or damaged: file is not a database" ]
	# pages of the hands' index overwritten
	cp archive.sqlite broken.sqlite
	dd if=/dev/zero of=broken.sqlite bs=4096 seek=2 count=2 conv=notrunc 2> /dev/null
	run -2 dl-archive --db broken.sqlite check fresh.tso
	[[ $output == "dl-archive: broken.sqlite: not a dl archive, or damaged: "* ]]
	[ "${#lines[@]}" -eq 1 ]
	run -2 dl-archive --db missing.sqlite sets
	[ "$output" = "dl-archive: missing.sqlite: No such file or directory" ]
}

@test "a read-only archive refuses an add in one line and stays as it was" {
	dl-archive add club.tso 2> /dev/null
	chmod 400 archive.sqlite
	cp archive.sqlite before.sqlite
	if [ "$(id -u)" -eq 0 ]; then
		# root writes to any file: the add is nobody's, in a folder
		# nobody can read, of an archive nobody may only read
		dir=$(mktemp -d /tmp/dl-archive-ro.XXXXXX)
		chmod 755 "$dir"
		cp archive.sqlite teams.tso "$dir"/
		chown nobody "$dir/archive.sqlite"
		chmod 444 "$dir/teams.tso"
		run -2 runuser -u nobody -- env -C "$dir" DL_ARCHIVE=archive.sqlite \
		    "$(command -v dl-archive)" add teams.tso
		cmp "$dir/archive.sqlite" before.sqlite
		rm -rf "$dir"
	else
		run -2 dl-archive add teams.tso
		cmp archive.sqlite before.sqlite
	fi
	[[ $output == "dl-archive: teams.tso: "*"archive.sqlite: cannot write to the archive: attempt to write a readonly database" ]]
	[ "${#lines[@]}" -eq 1 ]
}

@test "a full disk in the middle of an add: one line, and the archive as it was" {
	dl-archive add club.tso 2> /dev/null
	cp archive.sqlite before.sqlite
	dl-seed --not-for-play --no-history --hex 7777777777777777777777777777777777777777 \
	    2> /dev/null | dl-stream -n 1-20000 | dl-map > big.tso
	# the file may not grow past 200 KiB: as a full disk, the write fails
	run -2 bash -c 'trap "" XFSZ; ulimit -f 200; dl-archive add big.tso'
	[ "$output" = "dl-archive: big.tso: $DL_ARCHIVE: cannot write to the archive: disk I/O error" ]
	run -0 dl-archive count
	[ "$output" = "1 sets, 32 deals; played 0 sets, 0 deals" ]
	run -0 sqlite3 archive.sqlite 'PRAGMA integrity_check'
	[ "$output" = ok ]
}

@test "kill -9 in the middle of an add: the archive as it was before it" {
	dl-archive add club.tso 2> /dev/null
	dl-seed --not-for-play --no-history --hex 8888888888888888888888888888888888888888 \
	    2> /dev/null | dl-stream -n 1-400000 | dl-map > big.tso
	dl-archive add big.tso 2> /dev/null &
	pid=$!
	# killed once it has written part of the set into the database
	for _ in $(seq 100); do
		[ -s archive.sqlite-journal ] && break
		sleep 0.05
	done
	[ -s archive.sqlite-journal ]
	kill -9 "$pid"
	wait "$pid" || true
	run -0 dl-archive count
	[ "$output" = "1 sets, 32 deals; played 0 sets, 0 deals" ]
	run -0 sqlite3 archive.sqlite 'SELECT count(*) FROM deals; SELECT count(*) FROM hands; PRAGMA integrity_check'
	# seven keys a deal: its four hands', its three halves'
	[ "$output" = $'32\n224\nok' ]
}

@test "two dealers adding at once: nothing lost, no set twice" {
	dl-archive add fresh.tso 2> /dev/null
	for i in 1 2 3 4; do
		dl-seed --not-for-play --no-history --hex "$i$i$i${i}aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
		    2> /dev/null | dl-stream -n 1-2000 | dl-map > "s$i.tso"
	done
	for i in 1 2 3 4; do
		dl-archive -q add "s$i.tso" club.tso &
	done
	wait
	run -0 dl-archive count
	[ "$output" = "6 sets, 8064 deals; played 0 sets, 0 deals" ]
	run -0 sqlite3 archive.sqlite 'SELECT count(*) FROM hands; SELECT count(DISTINCT first_deal) FROM sets'
	[ "$output" = $'56448\n6' ]
}

# bats test_tags=slow
@test "dealers making a new archive at once (make -j): each finds it whole, none says it is no archive" {
	for i in 1 2 3 4 5 6; do
		dl-seed --not-for-play --no-history --hex "$i$i$i${i}bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" \
		    2> /dev/null | dl-stream -n 1-4 | dl-map > "r$i.tso"
	done
	# the race was narrow: a schema read in three steps, another process
	# committing the new archive between two of them (2 rounds in 40)
	for round in $(seq 30); do
		rm -f new.sqlite
		for i in 1 2 3 4 5 6; do
			dl-archive -q --db new.sqlite add "r$i.tso" 2> "err$i" &
		done
		wait
		cat err1 err2 err3 err4 err5 err6 > errs
		[ ! -s errs ] || { echo "round $round:" >&2; cat errs >&2; return 1; }
		run -0 sqlite3 new.sqlite 'SELECT count(*) FROM sets'
		[ "$output" = 6 ]
	done
}

# bats test_tags=slow
@test "a busy archive is waited for, then refused in one line" {
	dl-archive add club.tso 2> /dev/null
	# another writer holds the archive for three seconds
	sqlite3 archive.sqlite 'BEGIN IMMEDIATE; SELECT 1; ' '.shell sleep 3' 'COMMIT;' > /dev/null &
	sleep 0.5
	DL_ARCHIVE_WAIT=1 run -2 dl-archive add teams.tso
	[ "$output" = "dl-archive: teams.tso: $DL_ARCHIVE: busy: another process is writing to the archive (waited 1 s)" ]
	wait
	# waiting long enough, it goes in
	run -0 dl-archive add teams.tso
	[ "$output" = "dl-archive: teams.tso: set 2, 24 boards" ]
}

@test "bad input and usage: one line each" {
	run -2 dl-archive
	[ "${lines[0]}" = "usage: dl-archive [--db archive] add [--played] [-f format] [--renumber] [file ...]" ]
	run -2 dl-archive frobnicate
	[ "${lines[0]}" = "usage: dl-archive [--db archive] add [--played] [-f format] [--renumber] [file ...]" ]
	run -2 dl-archive check --prefix-bits 4 fresh.tso
	[ "$output" = "dl-archive: --prefix-bits: from 8 to 32" ]
	printf '#P: dl/1 deals\n#B: 1-2\n1 %s\n' "$(awk '$1 == 1 { print $2 }' club.tso)" > short.tso
	run -1 dl-archive add short.tso
	[ "$output" = "dl-archive: short.tso: input ends after board 1, but its header announced boards 1-2" ]
	run -2 dl-archive check short.tso
	[ "$output" = "dl-archive: short.tso: input ends after board 1, but its header announced boards 1-2" ]
	printf '[Event "x"]\n[Board "1"]\n[Deal "N:AKQ"]\n' > bad.pbn
	run -2 dl-archive check bad.pbn
	[ "$output" = "dl-archive: bad.pbn:3: board 1: North has 1 suits, not 4 (three dots)" ]
	run -0 dl-archive count
	[ "$output" = "0 sets, 0 deals; played 0 sets, 0 deals" ]
}

@test "dl-deal records every set it deals, before its files appear; --no-archive and --many do not" {
	dl-deal -n 8 -i 'Tuesday Pairs' -f pbn -p tue
	dl-deal -n 4 > /dev/null
	dl-deal --no-archive -n 4 > /dev/null
	dl-deal --many -n 200 -f tso > /dev/null
	run -0 dl-archive sets
	[[ ${lines[0]} == "1 2025-11-25T19:46:40Z "[0-9a-f]*" 8 1-8 - director dl-deal -p tue (Tuesday Pairs)" ]]
	[[ ${lines[1]} == "2 2025-11-25T19:46:40Z "[0-9a-f]*" 4 1-4 - director dl-deal" ]]
	[ "${#lines[@]}" -eq 2 ]
	run -0 dl-archive check tue.pbn
	[ "$output" = "tue.pbn: archived as set 1, not played: not compared with itself" ]
	# the stream's headers are kept: the set comes back as dl-deal -f tso wrote it
	dl-deal -n 4 -f tso -p four
	dl-archive export 3 | grep -v '^#R: ' | cmp - four.tso
	dl-deal --many --archive "$PWD/many.sqlite" -n 200 -f tso > /dev/null
	run -0 dl-archive --db many.sqlite count
	[ "$output" = "1 sets, 200 deals; played 0 sets, 0 deals" ]
}

@test "dl-deal: an archive it cannot write stops it before any file is published" {
	# a file where its folder should be
	touch notdir
	run -2 dl-deal -n 4 -f pbn -p session --archive "$PWD/notdir/archive.sqlite"
	[ "$output" = "dl-deal: archive: $PWD/notdir/archive.sqlite: Not a directory" ]
	printf 'not a database at all, not at all, not at all......................................................' > bad.sqlite
	run -1 dl-deal -n 4 -f pbn -p session --archive "$PWD/bad.sqlite"
	[ "$output" = "dl-deal: archive: $PWD/bad.sqlite: not a dl archive, or damaged: file is not a database" ]
	[ ! -e session.pbn ]
}

@test "dl-sqd make records each session's set, the files combining sessions aside; again, nothing twice" {
	dl-sqd cup.sqd create --name 'Test Cup' --di 'the draw of 1 May'
	dl-sqd cup.sqd add-phase 2 1-8 'tc#'
	dl-sqd cup.sqd publish > /dev/null
	dl-sqd cup.sqd set-dv 12345.67
	dl-sqd cup.sqd make -f pbn > /dev/null
	run -0 dl-archive sets
	[[ ${lines[0]} == "1 2025-11-25T19:46:40Z "[0-9a-f]*" 8 1-8 - director dl-sqd make ./tc1 (Test Cup)" ]]
	[[ ${lines[1]} == "2 2025-11-25T19:46:40Z "[0-9a-f]*" 8 1-8 - director dl-sqd make ./tc2 (Test Cup)" ]]
	[ "${#lines[@]}" -eq 2 ]
	dl-sqd cup.sqd make --force -f pbn > /dev/null
	dl-sqd cup.sqd make --no-archive --reserve -f pbn > /dev/null
	run -0 dl-archive count
	[ "$output" = "2 sets, 16 deals; played 0 sets, 0 deals" ]
	run -0 dl-archive check tc2.pbn
	[ "$output" = "tc2.pbn: archived as set 2, not played: not compared with itself" ]
}

@test "the Big Deal drop-ins record a set only when DL_ARCHIVE names an archive" {
	unset DL_ARCHIVE
	export HOME=$PWD/home XDG_DATA_HOME=
	dl-bigdeal -n 4 -p plain -f pbn > /dev/null 2>&1 < /dev/null
	[ -e plain.pbn ]
	[ ! -e home/.local/share/dl/archive.sqlite ]
	DL_ARCHIVE=$PWD/named.sqlite dl-bigdeal -n 4 -p named -f pbn > /dev/null 2>&1 < /dev/null
	run -0 dl-archive --db named.sqlite sets
	[[ $output == "1 2025-11-25T19:46:40Z "[0-9a-f]*" 4 1-4 - director dl-bigdeal -p named" ]]
}

@test "compact: the archive rewritten smaller, everything in it as before" {
	dl-seed --not-for-play --no-history --hex abcdabcdabcdabcdabcdabcdabcdabcdabcdabcd \
	    2> /dev/null | dl-stream -n 1-20000 | dl-map > big.tso
	dl-archive add club.tso big.tso 2> /dev/null
	dl-archive sets > before
	size=$(stat -c %s archive.sqlite)
	run -0 dl-archive compact
	[ "$output" = "" ]
	[ "$(stat -c %s archive.sqlite)" -lt "$size" ]
	[ "$(stat -c %a archive.sqlite)" = 600 ]
	dl-archive sets | cmp - before
	run -1 --separate-stderr dl-archive check <(variant turn < club.tso)
	[ "${#lines[@]}" -eq 32 ]
	run -0 sqlite3 archive.sqlite 'PRAGMA integrity_check'
	[ "$output" = ok ]
}

@test "check and add of a file with no boards: empty, a PBN header alone, a stream's headers alone: refused, never \"not seen before\"" {
	dl-archive add club.tso 2> /dev/null
	: > empty.pbn
	printf '[Event "Club Pairs"]\n[Site "Club"]\n' > head.pbn
	run -2 dl-archive check empty.pbn
	[ "$output" = "dl-archive: empty.pbn: no boards in it" ]
	run -2 dl-archive check head.pbn
	[ "$output" = "dl-archive: head.pbn: no boards in it" ]
	run -2 dl-archive check -f pbn < /dev/null
	[ "$output" = "dl-archive: standard input: no boards in it" ]
	run -2 dl-archive check < <(grep '^#' club.tso)
	[ "$output" = "dl-archive: no boards in the input" ]
	run -1 dl-archive add head.pbn
	[ "$output" = "dl-archive: head.pbn: no boards in it" ]
	run -0 dl-archive count
	[ "$output" = "1 sets, 32 deals; played 0 sets, 0 deals" ]
}

@test "--db (a PostgreSQL password in it) is not in /proc/PID/cmdline, either spelling" {
	dl-archive add club.tso 2> /dev/null
	mkfifo in.tso
	for spelling in "--db $PWD/archive.sqlite" "--db=$PWD/archive.sqlite"; do
		# shellcheck disable=SC2086
		dl-archive $spelling check in.tso > out 2>&1 &
		pid=$!
		# it waits on the FIFO, the archive open (long after its
		# options were read)
		for _ in $(seq 200); do
			ls -l "/proc/$pid/fd" 2> /dev/null | grep -q 'archive\.sqlite$' && break
			sleep 0.05
		done
		ls -l "/proc/$pid/fd" | grep -q 'archive\.sqlite$' 
		tr '\0' ' ' < "/proc/$pid/cmdline" > cmdline
		cat fresh.tso > in.tso
		wait "$pid"
		grep -q 'dl-archive' cmdline
		run grep -c 'archive.sqlite' cmdline
		[ "$output" = 0 ]
	done
}

# bats test_tags=slow
@test "an event's sets are counted by its name as a reader sees it: other spaces, capitals, invisible or look-alike letters are the same event; the name is shown as typed" {
	export DL_WEB_LOCKS=$BATS_TEST_TMPDIR/locks TMPDIR=$BATS_TEST_TMPDIR
	# each a name a printed hand record shows as "Tuesday Pairs"
	names=("Tuesday Pairs" " Tuesday Pairs" "Tuesday Pairs " "Tuesday  Pairs"
	    $'Tuesday\u00a0Pairs' $'Tues\u200bday Pairs' $'Tuesday Pa\u00adirs' "TUESDAY PAIRS"
	    $'\u0422uesday P\u0430irs' $'\uff34uesday Pairs' $'Tue\u0455day Pairs')
	i=0
	for name in "${names[@]}"; do
		i=$((i + 1))
		printf '%s' "event=$(jq -rn --arg v "$name" '$v|@uri')&boards=1-2&formats=pbn&dd=off" > body
		REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
		    CONTENT_LENGTH=$(wc -c < body) dl-web < body > page
		sed -n '1s/\r$//p' page > status
		[ "$(cat status)" = "Status: 200 OK" ]
		# the count, and the name as it was typed (escaped as HTML)
		grep -qF ": $i set$([ $i -gt 1 ] && echo s) dealt for $name.</p>" page ||
		    { echo "$i: $name: $(grep -o ': [0-9]* sets* dealt for [^<]*' page)" >&2; return 1; }
		grep -q "; set $i dealt for this event</span>" page
	done
	# another event starts at 1
	printf 'event=Wednesday+Pairs&boards=1-2&formats=pbn&dd=off' > body
	REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=$(wc -c < body) dl-web < body > page
	grep -qF ": 1 set dealt for Wednesday Pairs.</p>" page
	# the archive keeps each name as typed, and one key
	[ "$(sqlite3 archive.sqlite 'SELECT count(DISTINCT event), count(DISTINCT event_key) FROM sets WHERE id <= 11')" = "11|1" ]
}

@test "an archive of schema 2, read as it is, counts an event's sets by their names' keys too; the set dealt then upgrades it" {
	cp "$VECTORS/archive/schema2.sqlite" old.sqlite
	chmod 600 old.sqlite
	export DL_ARCHIVE=$PWD/old.sqlite DL_WEB_LOCKS=$BATS_TEST_TMPDIR/locks TMPDIR=$BATS_TEST_TMPDIR
	# its set 1 is "Spring Pairs": the count, made before the archive is
	# written (and so upgraded), keys each event itself
	printf 'event=SPRING%%20%%20PAIRS&boards=1-2&formats=pbn&dd=off' > body
	REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=$(wc -c < body) dl-web < body > page
	grep -qF ": 2 sets dealt for SPRING  PAIRS.</p>" page
	[ "$(sqlite3 old.sqlite 'PRAGMA user_version')" = 7 ]
	[ "$(sqlite3 old.sqlite 'SELECT event_key FROM sets ORDER BY id' | paste -sd '|')" = "sprlng palrs|sprlng palrs" ]
}
