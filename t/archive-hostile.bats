#!/usr/bin/env bats
# What an archive holds is input, as a file is (docs/robustness.md, "A
# hostile archive"): a damaged file, or one a shared archive's operator
# or another user changed, is refused in one line; nothing it holds
# crashes a tool, hangs it, or reaches the terminal raw.  The archives
# are changed with the sqlite3 shell, as an attacker would.

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
	dl-archive add club.tso 2> /dev/null
	dl-archive played 1
	variant turn < club.tso > turned.tso
	cp archive.sqlite clean.sqlite
}

# sql STATEMENTS: the archive changed behind dl's back
sql() {
	sqlite3 archive.sqlite "$1"
}

# Every command that reads what was changed, each refusing it in one
# line on standard error: expect_damaged WHAT-THE-MESSAGE-ENDS-WITH
# COMMAND... (a pattern: a * stands for what may differ)
expect_damaged() {
	local want=$1 cmd
	shift
	for cmd in "$@"; do
		# shellcheck disable=SC2086
		run --separate-stderr timeout 20 dl-archive $cmd
		# check's trouble is 2 (its 1 says "played before"), the
		# others' refused input 1
		if [ "$cmd" = "${cmd#check}" ] && [ "$cmd" = "${cmd#find}" ]; then
			[ "$status" -eq 1 ] || { echo "$cmd: status $status: $output" >&2; return 1; }
		else
			[ "$status" -eq 2 ] || { echo "$cmd: status $status: $output" >&2; return 1; }
		fi
		# a stream may have begun (export): its #B: tells the next
		# stage it was cut short
		# shellcheck disable=SC2053
		[[ $stderr == "dl-archive: $DL_ARCHIVE: "$want ]] ||
		    { echo "$cmd: $stderr" >&2; return 1; }
	done
}

@test "a deal number past the last deal is refused, not a crash: D itself, all ones, a short one" {
	deal=$(sqlite3 archive.sqlite 'SELECT id FROM deals WHERE board = 3')
	# D = C(52,13) C(39,13) C(26,13), the first number no deal has
	sql "UPDATE deals SET number = x'ad55e315634dda658bf49200' WHERE board = 3"
	expect_damaged "deal $deal: damaged (its deal number is past the last deal)" \
	    "check turned.tso" "export 1" "find deal $(awk '$1 == 3 { print $2 }' club.tso)"
	sql "UPDATE deals SET number = x'ffffffffffffffffffffffff' WHERE board = 3"
	expect_damaged "deal $deal: damaged (its deal number is past the last deal)" \
	    "check turned.tso" "export 1"
	sql "UPDATE deals SET number = x'ffffffff' WHERE board = 3"
	expect_damaged "deal $deal: damaged (its deal number is not 12 bytes)" \
	    "check turned.tso" "export 1"
	# D - 1, the last deal, is a deal
	sql "UPDATE deals SET number = x'ad55e315634dda658bf491ff' WHERE board = 3"
	run -0 dl-archive export 1
	# the highest number: West holds the top thirteen cards, North the lowest
	[ "$(awk '$1 == 3' <<< "$output")" = "3 3333333333333222222222222211111111111110000000000000" ]
}

@test "a board number out of range, a set's boards, its first deal: refused" {
	deal=$(sqlite3 archive.sqlite 'SELECT id FROM deals WHERE board = 3')
	sql "UPDATE deals SET board = 0 WHERE id = $deal"
	expect_damaged "deal $deal: damaged (its board number)" "check turned.tso" "export 1"
	sql "UPDATE deals SET board = 2000000000 WHERE id = $deal"
	expect_damaged "deal $deal: damaged (its board number)" "check turned.tso"
	cp clean.sqlite archive.sqlite
	for change in "boards = -1" "boards = 0" "low = 40" "high = 1000000001" "first_deal = -5"; do
		cp clean.sqlite archive.sqlite
		sql "UPDATE sets SET $change"
		case $change in
		first*) expect_damaged "set 1: damaged (its first deal)" sets "export 1" ;;
		*) expect_damaged "set 1: damaged (its boards)" sets "export 1" ;;
		esac
	done
}

@test "escapes stored in the archive's texts never reach the terminal: the set is refused as damaged" {
	esc=$(printf '\033]0;pwned\007\033[2J')
	for column in played archived; do
		cp clean.sqlite archive.sqlite
		# a time followed by escapes: cut to the column's size it would
		# pass for a time
		sql "UPDATE sets SET $column = '2026-11-25T20:30:00Z' || char(27) || ']0;pwned' || char(7)"
		expect_damaged "set 1: damaged (the time it $([ $column = played ] && echo was played ||
		    echo was archived))" sets "export 1"
	done
	# count reads no text: it still counts
	run -0 dl-archive count
	[ "$output" = "1 sets, 32 deals; played 1 sets, 32 deals" ]
	for column in event site date generator source user; do
		cp clean.sqlite archive.sqlite
		sql "UPDATE sets SET $column = 'x' || char(27) || '[2J'"
		expect_damaged "set 1: damaged (a text that is not one line of printable UTF-8)" \
		    sets "export 1"
		[[ $output != *"$esc"* ]]
	done
	# what check and find show of a set: its event and date
	for column in event date; do
		cp clean.sqlite archive.sqlite
		sql "UPDATE sets SET $column = 'x' || char(10) || 'board 1: same deal'"
		expect_damaged "deal *: damaged (its set's text is not one line of printable UTF-8)" \
		    "check turned.tso" "find deal $(awk '$1 == 3 { print $2 }' club.tso)"
	done
	cp clean.sqlite archive.sqlite
	sql "UPDATE sets SET headers = headers || '#T: ' || char(27) || '[2J' || char(10)"
	expect_damaged "set 1: damaged (its header lines)" sets "export 1"
	cp clean.sqlite archive.sqlite
	sql "UPDATE sets SET headers = '#P: dl/1 numbers' || char(10)"
	expect_damaged "set 1: damaged (its header lines)" "export 1"
	cp clean.sqlite archive.sqlite
	sql "UPDATE sets SET headers = '#I: no end of line'"
	expect_damaged "set 1: damaged (its header lines)" "export 1"
	cp clean.sqlite archive.sqlite
	sql "UPDATE sets SET fingerprint = '0000000000000000'"
	expect_damaged "set 1: damaged (its fingerprint is not its digest's)" sets
	cp clean.sqlite archive.sqlite
	sql "UPDATE sets SET digest = x'00'"
	expect_damaged "set 1: damaged (its digest)" sets "export 1"
}

@test "a view in place of a table, a trigger, an index, a table or a column of another's: not an archive dl made" {
	no_dl="not an archive dl made: its schema is not dl's (changed, or made by another program)"
	# an endless recursive query where the sets were
	sql "ALTER TABLE sets RENAME TO real_sets;
	    CREATE VIEW sets AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r)
	    SELECT * FROM real_sets, r"
	expect_damaged "$no_dl" sets count "check turned.tso" "export 1"
	for change in \
	    "CREATE TRIGGER t AFTER INSERT ON sets BEGIN DELETE FROM deals; END" \
	    "CREATE INDEX x ON deals (abs(board))" \
	    "CREATE TABLE more (x)" \
	    "ALTER TABLE sets ADD COLUMN more TEXT" \
	    "CREATE VIEW v AS SELECT 1"; do
		cp clean.sqlite archive.sqlite
		sql "$change"
		expect_damaged "$no_dl" sets "check turned.tso"
		run -1 dl-archive add teams.tso
		[ "$output" = "dl-archive: $DL_ARCHIVE: $no_dl" ]
	done
	# the archive as dl made it is used as before
	cp clean.sqlite archive.sqlite
	run -0 dl-archive count
	[ "$output" = "1 sets, 32 deals; played 1 sets, 32 deals" ]
}

@test "only a regular file of the user's that nobody else may write, in folders nobody else may write" {
	mkfifo fifo.sqlite
	run -2 timeout 20 dl-archive --db fifo.sqlite sets
	[ "$output" = "dl-archive: fifo.sqlite: not a regular file: not opening it" ]
	run -2 timeout 20 dl-archive --db "$BATS_TEST_TMPDIR" sets
	[ "$output" = "dl-archive: $BATS_TEST_TMPDIR: not a regular file: not opening it" ]
	chmod 620 archive.sqlite
	run -2 dl-archive sets
	[ "$output" = "dl-archive: $DL_ARCHIVE: the archive is writable by its group: not opening it" ]
	chmod 606 archive.sqlite
	run -2 dl-archive check turned.tso
	[ "$output" = "dl-archive: $DL_ARCHIVE: the archive is writable by anyone: not opening it" ]
	chmod 600 archive.sqlite
	# a folder above it that another user could write to (a journal put
	# beside the archive would be played back into it)
	mkdir -m 700 open
	cp archive.sqlite open/
	chmod 777 open
	run -2 dl-archive --db open/archive.sqlite sets
	[ "$output" = "dl-archive: open/archive.sqlite: $PWD/open is writable by anyone: not opening it" ]
	# a link to a good archive is followed
	chmod 700 open
	ln -s open/archive.sqlite link.sqlite
	run -0 dl-archive --db link.sqlite count
	[ "$output" = "1 sets, 32 deals; played 1 sets, 32 deals" ]
	# another user's file: only root can make one here
	if [ "$(id -u)" -eq 0 ]; then
		chown 65534 archive.sqlite
		run -2 dl-archive sets
		[ "$output" = "dl-archive: $DL_ARCHIVE: the archive belongs to user 65534, neither root nor you: not opening it" ]
	fi
}

@test "the digests of dl's schemas that archive_sqlite.c knows are those this SQLite makes (else every archive is checked the slow way)" {
	run -0 "$HELPERS/schemadigest"
	[ "${#lines[@]}" -eq 7 ]
	for line in "${lines[@]}"; do
		read -r version made known <<< "$line"
		[ "$made" = "$known" ] || { echo "schema $version: $made, known $known" >&2; return 1; }
	done
}

@test "a file's name and a web server's user of any bytes are kept escaped: what dl writes, it reads back" {
	rm -f archive.sqlite
	dl-fmt -f pbn < teams.tso > $'we\033]0;x\007ird.pbn'
	run -0 dl-archive add $'we\033]0;x\007ird.pbn'
	[ "$output" = 'dl-archive: we\x1b]0;x\x07ird.pbn: set 1, 24 boards' ]
	REMOTE_USER=$'dir\033[2Jector\377' dl-archive add club.tso 2> /dev/null
	run -0 dl-archive sets
	[ "${lines[0]}" = '1 2025-11-25T19:46:40Z '"$(sqlite3 archive.sqlite 'SELECT fingerprint FROM sets WHERE id = 1')"' 24 1-24 - director we\\x1b]0;x\\x07ird.pbn (Club Teams)' ]
	[[ ${lines[1]} == *' - dir\\x1b[2Jector\\xff club.tso (Club Pairs, 2026.11.02)' ]]
	[ "$(sqlite3 archive.sqlite 'SELECT user FROM sets WHERE id = 2')" = 'dir\x1b[2Jector\xff' ]
}

# refused_import MESSAGE < stream: import refuses the stream in one line,
# status 1, and the archive it was to go into holds nothing
refused_import() {
	run --separate-stderr dl-archive --db other.sqlite import
	[ "$status" -eq 1 ] || { echo "status $status: $stderr" >&2; return 1; }
	[ "$stderr" = "dl-archive: standard input: $1" ] || { echo "$stderr" >&2; return 1; }
	[ "$(dl-archive --db other.sqlite count)" = "0 sets, 0 deals; played 0 sets, 0 deals" ]
}

@test "import: another archive's export is input: each value a row may not hold refused in one line, nothing added" {
	dl-archive export 1 > one.dl
	fp=$(dl-archive sets | cut -d' ' -f3)
	record="archived=2025-11-25T19:46:40Z played=2025-11-25T19:46:40Z user=director source=club.tso fingerprint=$fp played_by=director"
	[ "$(grep '^#R: ' one.dl)" = "#R: $record" ]
	# what the archive checks in a row
	sed 's/played=[^ ]*/played=yesterday/' one.dl |
	    refused_import "set 1: damaged (the time it was played)"
	sed 's/archived=[^ ]*/archived=2025-11-25T19:46:40/' one.dl |
	    refused_import "set 1: damaged (the time it was archived)"
	sed 's/ fingerprint=[^ ]*//' one.dl |
	    refused_import "set 1: damaged (its fingerprint is not its digest's)"
	# escapes, encoded or not, never reach the archive or the terminal
	sed 's/user=director/user=x%1B]0;pwned%07/' one.dl |
	    refused_import "set 1: #R: user is not one line of printable UTF-8"
	sed 's/source=club.tso/source=club%0A.tso/' one.dl |
	    refused_import "set 1: #R: source is not one line of printable UTF-8"
	sed 's/^#R: .*/& event=%C2%9B2J/' one.dl |
	    refused_import "set 1: #R: event is not one line of printable UTF-8"
	sed 's/^#R: .*/&%/' one.dl |
	    refused_import "set 1: #R: played_by has a % that two hex digits do not follow"
	sed $'s/^#R: .*/&\033[2J/' one.dl |
	    refused_import "line 9: header #R: is not one line of valid UTF-8 text"
	# what #R: is
	sed 's/^#R: .*/& table=Town/' one.dl |
	    refused_import 'set 1: #R: a field this dl does not know, "table"'
	sed 's/^#R: .*/& user=other/' one.dl |
	    refused_import "set 1: #R: user given twice"
	sed 's/^#R: .*/& president/' one.dl |
	    refused_import 'set 1: #R: "president" is not name=value'
	sed '/^#R: /d' one.dl |
	    refused_import "set 1: no #R: header, the archive's record of a set that export writes (dl-archive add adds a set as a new one)"
	# its deals: one changed, one missing where no #B: counts them
	awk '$1 == 3 { $2 = "3333333333333222222222222211111111111110000000000000" } { print }' one.dl |
	    refused_import "set 1: damaged (its fingerprint is not its digest's)"
	sed '/^#B: /d; /^32 /d' one.dl |
	    refused_import "set 1: damaged (its fingerprint is not its digest's)"
	sed '/^32 /d' one.dl |
	    refused_import "input ends after board 31, but its header announced boards 1-32"
	# a sets stream that is not one, cut short, or longer than it says:
	# each set is in its own transaction, and those before stay
	dl-archive add teams.tso 2> /dev/null
	dl-archive export --all > all.dl
	[ "$(sed -n 3p all.dl)" = "#Q: 2" ]
	sed '3a 1 3211300313023210132103021012302032022121131020330231' all.dl |
	    refused_import "line 4: expected a set's \"#P: dl/1 deals\" line"
	sed '/^#Q: /d' all.dl | refused_import "line 3: a sets stream without its #Q: header"
	awk '/^#P: dl\/1 deals/ { n++ } n < 2' all.dl > cut.dl
	run -1 --separate-stderr dl-archive --db other.sqlite -q import cut.dl
	[ "$stderr" = "dl-archive: cut.dl: input ends after 1 of the 2 sets its #Q: announced" ]
	[ "$(dl-archive --db other.sqlite count)" = "1 sets, 32 deals; played 1 sets, 32 deals" ]
	sed 's/^#Q: 2/#Q: 1/' all.dl > long.dl
	run -1 --separate-stderr dl-archive --db other.sqlite -q import long.dl
	[ "$stderr" = "dl-archive: long.dl: more sets than the 1 its #Q: announced" ]
	[ "$(dl-archive --db other.sqlite count)" = "1 sets, 32 deals; played 1 sets, 32 deals" ]
	# and every tool that reads a deals stream refuses a sets stream by name
	run -1 dl-fmt -f pbn < all.dl
	[ "$output" = "dl-fmt: line 1: expected a deals stream, got a sets stream" ]
}

@test "import: a set held already, with another record: nothing changes" {
	dl-archive export 1 > one.dl
	dl-archive --db other.sqlite import one.dl 2> /dev/null
	cp other.sqlite before.sqlite
	# the same deals with another record: the set is there already
	sed 's/user=director/user=someone/' one.dl > again.dl
	run -0 dl-archive --db other.sqlite import again.dl
	[ "$output" = "dl-archive: again.dl: $(dl-archive sets | cut -d' ' -f3): archived before, as set 1" ]
	cmp other.sqlite before.sqlite
}
