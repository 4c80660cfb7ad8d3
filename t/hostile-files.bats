#!/usr/bin/env bats
# Hostile files, continued (docs/robustness.md, "Ambiguous files, creates at
# once, names on standard output"): a file that says two things about a
# board, a played file that holds part of a session, ten creates of one
# .sqd at once, and names and texts with terminal escapes on standard
# output.  Each test failed before its fix, but the one of publish, whose
# races were already safe and are tested beside create's; the files are
# made here.

load helper

# Two deals to build files from by hand, each seat holding one suit
DEAL_A="N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
# the same deal, from East round
DEAL_A_EAST="E:.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432..."
DEAL_B="N:.AKQJT98765432.. AKQJT98765432... ..AKQJT98765432. ...AKQJT98765432"
RECORD_A=0000000000000111111111111122222222222223333333333333
# LIN's hands (South, West, North; East is the rest) of deals A and B
LIN_A=DAKQJT98765432,CAKQJT98765432,SAKQJT98765432,
LIN_B=DAKQJT98765432,CAKQJT98765432,HAKQJT98765432,

# A name no terminal should see raw: ESC ] 0 ; (retitle), BEL, a newline
EVIL=$(printf 'e\033]0;pwned\007\nvil')
EVIL_SHOWN='e\x1b]0;pwned\x07\x0avil'

# played_club [FORMAT]: the club tournament, and its session 1,1 as
# dl-sqd makes it (rr01.pbn, or rr01.FORMAT)
played_club() {
	cp "$SQUAREDEAL/club/club.sqd" "$SQUAREDEAL/club/club.sqk" .
	chmod 600 club.sqk
	dl-sqd club.sqd make -f "${1:-pbn}" 1 1 > /dev/null
}

# run_into NAME CMD...: CMD, its standard error into err.NAME and its
# status into status.NAME (for runs in the background, where bats' errexit
# would end the job before a failing command's status is kept)
run_into() {
	local name=$1 status=0
	shift
	"$@" > /dev/null 2> "err.$name" || status=$?
	echo "$status" > "status.$name"
}

# no_escape TEXT: TEXT holds no ESC, BEL or CR
no_escape() {
	[[ $1 != *[$'\033\007\r']* ]] || { echo "raw control bytes in: $1" >&2; return 1; }
}

@test "PBN: two different [Deal] tags in a game: dl-read warns and reads the first; verify and dl-diff refuse" {
	played_club
	# board 3 with a second [Deal], board 4's, right after its own
	other=$(sed -n 's/^\[Deal "\(.*\)"\]$/\1/p' rr01.pbn | sed -n 4p)
	awk -v d="$other" '{ print } /^\[Board "3"\]$/ { b = 1 }
	    b && /^\[Deal / { print "[Deal \"" d "\"]"; b = 0 }' rr01.pbn > amb.pbn
	line=$(($(grep -n '^\[Board "3"\]$' amb.pbn | cut -d: -f1) + 8))
	[ "$(sed -n "${line}p" amb.pbn)" = "[Deal \"$other\"]" ]
	run -0 --separate-stderr dl-read amb.pbn
	[ "$stderr" = "dl-read: amb.pbn:$line: board 3: two different [Deal] tags: the first is read" ]
	[ "$output" = "$(dl-read rr01.pbn)" ]
	refuses 1 "dl-sqd: amb.pbn:$line: board 3: two different [Deal] tags: the file is ambiguous" \
	    dl-sqd club.sqd verify --deals amb.pbn 1 1
	[ "$output" = "club.sqk matches the KH of club.sqd: 6 session keys" ]
	refuses 2 "dl-diff: amb.pbn:$line: board 3: two different [Deal] tags: the file is ambiguous" \
	    dl-diff amb.pbn rr01.pbn
	# the same deal again, as written or from another seat, says one thing
	awk '{ print } /^\[Deal / { print }' rr01.pbn > again.pbn
	run -0 --separate-stderr dl-sqd club.sqd verify --deals again.pbn 1 1
	[ "${lines[-1]}" = "again.pbn: matches, session 1,1 (original), boards 1-10: 10 of 10 boards checked" ]
	[ -z "$stderr" ]
}

@test "PBN: [Board], [Dealer], [Vulnerable] given twice with other values; the text tags warn alone" {
	# one value written two ways is one statement: no warning
	printf '[Event "?"]\n[Event ""]\n[Board "1"]\n[Board " 01"]\n[Dealer "N"]\n[Dealer "n "]\n' > same.pbn
	printf '[Vulnerable "None"]\n[Vulnerable "love"]\n[Deal "%s"]\n[Deal "%s"]\n' \
	    "$DEAL_A" "$DEAL_A_EAST" >> same.pbn
	run -0 --separate-stderr dl-read same.pbn
	[ "${lines[2]}" = "1 $RECORD_A" ]
	[ -z "$stderr" ]
	# what the board is, given again with another value
	for tag in 'Board "1"|Board "2"' 'Dealer "N"|Dealer "E"' 'Vulnerable "None"|Vulnerable "All"' \
	    'Dealer "?"|Dealer "N"'; do
		printf '[Board "1"]\n[%s]\n[%s]\n[Deal "%s"]\n' "${tag%|*}" "${tag#*|}" "$DEAL_A" > x.pbn
		name=${tag%% *}
		first=${tag%|*} first=${first#* }
		again=${tag#*|} again=${again#* }
		refuses 0 "dl-read: x.pbn:3: board 1: two different [$name] tags ($first, $again): the first is read" \
		    dl-read x.pbn
		refuses 2 "dl-diff: x.pbn:3: board 1: two different [$name] tags ($first, $again): the file is ambiguous" \
		    dl-diff x.pbn x.pbn
	done
	# where and by whom it was played: a warning, and no check fails on it
	for tag in 'Event "Club"|Event "Other club"' 'North "Ann"|North "Bob"' 'Date "?"|Date "2026.11.24"'; do
		printf '[Board "1"]\n[%s]\n[%s]\n[Deal "%s"]\n' "${tag%|*}" "${tag#*|}" "$DEAL_A" > x.pbn
		name=${tag%% *}
		first=${tag%|*} first=${first#* }
		again=${tag#*|} again=${again#* }
		want="x.pbn:3: board 1: two different [$name] tags ($first, $again): the first is read"
		refuses 0 "dl-read: $want" dl-read x.pbn
		refuses 0 "dl-diff: $want
dl-diff: $want" dl-diff x.pbn x.pbn
	done
	# before its [Board], a game is named as such
	printf '[Event "Club"]\n[Event "Other club"]\n[Board "1"]\n[Deal "%s"]\n' "$DEAL_A" > x.pbn
	refuses 0 'dl-read: x.pbn:2: a game: two different [Event] tags ("Club", "Other club"): the first is read' \
	    dl-read x.pbn
}

@test "PBN and LIN: a board given again with the same deal and another dealer or vulnerability" {
	printf '[Board "1"]\n[Dealer "N"]\n[Deal "%s"]\n\n[Board "1"]\n[Dealer "S"]\n[Deal "%s"]\n' \
	    "$DEAL_A" "$DEAL_A" > x.pbn
	run -0 --separate-stderr dl-read x.pbn
	[ "${lines[2]}" = "1 $RECORD_A" ]
	[ "${#lines[@]}" -eq 3 ]
	[ "$stderr" = "dl-read: x.pbn:7: board 1: given again with another dealer or vulnerability: the first is read" ]
	refuses 2 "dl-diff: x.pbn:7: board 1: given again with another dealer or vulnerability: the file is ambiguous" \
	    dl-diff x.pbn x.pbn
	# a copy that says nothing of the dealer agrees with any
	printf '[Board "1"]\n[Deal "%s"]\n\n[Board "1"]\n[Dealer "S"]\n[Deal "%s"]\n' \
	    "$DEAL_A" "$DEAL_A" > x.pbn
	run -0 --separate-stderr dl-read x.pbn
	[ -z "$stderr" ]
	# a vugraph file's closed room with another vulnerability
	printf 'qx|o1|md|3%s|sv|o|\nqx|c1|md|3%s|sv|b|\n' "$LIN_A" "$LIN_A" > v.lin
	run -0 --separate-stderr dl-read v.lin
	[ "$stderr" = "dl-read: v.lin:2: board 1: given again with another dealer or vulnerability: the first is read" ]
	refuses 2 "dl-diff: v.lin:2: board 1: given again with another dealer or vulnerability: the file is ambiguous" \
	    dl-diff v.lin v.lin
}

@test "LIN: qx| and ah| that number a board differently; verify refuses the file" {
	played_club lin
	sed 's/^qx|o3|/qx|o9|/' rr01.lin > amb.lin
	run -0 --separate-stderr dl-read amb.lin
	[ "$stderr" = "dl-read: amb.lin:4: board 3: qx| says board 9, ah| board 3: ah| is read" ]
	[ "$output" = "$(dl-read rr01.lin)" ]
	mv amb.lin rr01.lin
	refuses 1 "dl-sqd: rr01.lin:4: board 3: qx| says board 9, ah| board 3: the file is ambiguous" \
	    dl-sqd club.sqd verify --deals rr01.lin
}

@test "LIN: md| twice, ah| and sv| twice: where a board ends is read two ways" {
	# a second md| with no number of its own after a numbered board: board
	# 1 again to a reader that takes the last md|, board 2 to dl
	printf 'qx|o1|md|3%s|sv|o|\nmd|4%s|\n' "$LIN_A" "$LIN_B" > x.lin
	refuses 0 "dl-read: x.lin:2: board 1: md| again, with no board number of its own: it is read as the next board" \
	    dl-read x.lin
	refuses 2 "dl-diff: x.lin:2: board 1: md| again, with no board number of its own: the file is ambiguous" \
	    dl-diff x.lin x.lin
	# without numbers, boards follow each other: one way to read them
	printf 'md|3%s|\nmd|4%s|\n' "$LIN_A" "$LIN_B" > x.lin
	run -0 --separate-stderr dl-read x.lin
	[ "${lines[1]}" = "#B: 1-2" ]
	[ -z "$stderr" ]
	# ah| and sv| twice before the deal: the last is read
	printf 'ah|Board 1|ah|Board 2|md|4%s|\n' "$LIN_A" > x.lin
	refuses 0 "dl-read: x.lin:1: ah|: board 1, then board 2: the last is read" dl-read x.lin
	printf 'sv|n|sv|o|md|3%s|\n' "$LIN_A" > x.lin
	refuses 0 "dl-read: x.lin:1: sv|n|, then sv|o|: the last is read" dl-read x.lin
	refuses 2 "dl-diff: x.lin:1: sv|n|, then sv|o|: the file is ambiguous" dl-diff x.lin x.lin
	# after the deal, with no deal of their own: the board before's to
	# another reader, nobody's to dl
	printf 'qx|o1|md|3%s|ah|Board 1|ah|Board 2|\nqx|o2|md|4%s|\n' "$LIN_A" "$LIN_B" > x.lin
	refuses 0 "dl-read: x.lin:2: board 1: ah| again after its md| (board 2), with no md| to go with it: it is passed over" \
	    dl-read x.lin
	printf 'qx|o1|md|3%s|sv|o|sv|b|' "$LIN_A" > x.lin
	refuses 0 "dl-read: x.lin:1: board 1: another sv| after its md|, with no md| to go with it: it is passed over" \
	    dl-read x.lin
	# the same value again is no second statement
	printf 'qx|o1|md|3%s|ah|Board 1|sv|o|ah|Board 1|sv|0|\nqx|o2|md|4%s|\n' "$LIN_A" "$LIN_B" > x.lin
	run -0 --separate-stderr dl-read x.lin
	[ -z "$stderr" ]
}

@test "DLM, DUP and .tso: a header or trailer that says two things" {
	# DLM: To board= twice; the last is read, so the file holds 17-32 to dl
	# and 17-20 to a reader that takes the first
	sed 's/^To board=32$/To board=20\nTo board=32/' "$BIGDEAL/v2/dlm.dlm" > x.dlm
	line=$(grep -n '^To board=32$' x.dlm | cut -d: -f1)
	run -0 --separate-stderr dl-read x.dlm
	[ "$stderr" = "dl-read: x.dlm:$line: To board= given twice: 20, then 32: the last is read" ]
	[ "${lines[1]}" = "#B: 17-32" ]
	refuses 2 "dl-diff: x.dlm:$line: To board= given twice: 20, then 32: the file is ambiguous" \
	    dl-diff x.dlm x.dlm
	# the event, or the copies to make, twice: a warning alone
	sed 's/^Headline=.*$/&\nHeadline=Other night/' "$BIGDEAL/v2/dlm.dlm" > x.dlm
	refuses 0 "dl-read: x.dlm:3: Headline= given twice, with two events: the last is read" dl-read x.dlm
	run -0 dl-diff -q x.dlm x.dlm
	# DUP: every record's trailer repeats the lowest board; the second's says 17
	{ head -c 304 "$BIGDEAL/v2/dup.dup"; printf '17 '; tail -c +308 "$BIGDEAL/v2/dup.dup"; } > x.dup
	[ "$(stat -c %s x.dup)" -eq "$(stat -c %s "$BIGDEAL/v2/dup.dup")" ]
	refuses 0 "dl-read: x.dup: byte 312: board 2: the trailer's lowest board is 17, the first record's 1: the first record's is read" \
	    dl-read x.dup
	refuses 2 "dl-diff: x.dup: byte 312: board 2: the trailer's lowest board is 17, the first record's 1: the file is ambiguous" \
	    dl-diff x.dup x.dup
	# .tso: a header twice is refused, as every stage of a pipeline refuses it
	printf '#P: dl/1 deals\n#I: Club\n#I: Other club\n1 %s\n' "$RECORD_A" > x.tso
	refuses 1 "dl-read: x.tso:3: header #I: given twice" dl-read x.tso
	printf '#P: dl/1 deals\n#W: one\n#W: two\n1 %s\n' "$RECORD_A" > x.tso
	run -0 dl-read x.tso
}

@test "verify --deals: a file of some of the session's boards partly matches, status 1" {
	played_club
	cp rr01.pbn all.pbn
	# board 1 alone: the header and the first game
	awk '/^\[Board "2"\]$/ { exit } { print }' all.pbn > rr01.pbn
	[ "$(grep -c '^\[Deal ' rr01.pbn)" -eq 1 ]
	run -1 --separate-stderr dl-sqd club.sqd verify --deals rr01.pbn
	[ "${lines[1]}" = "board 1: the same deal" ]
	[ "${lines[2]}" = "board 2: not in rr01.pbn" ]
	[ "${lines[10]}" = "board 10: not in rr01.pbn" ]
	[ "${lines[11]}" = "rr01.pbn: PARTLY MATCHES, session 1,1 (original), boards 1-10: 1 of 10 boards checked, 9 missing" ]
	[ "${#lines[@]}" -eq 12 ]
	[ -z "$stderr" ]
	# boards 1-3 as a deals stream
	dl-sqd club.sqd seed 1 1 | dl-stream | dl-map | dl-board -b 1-3 > rr01.tso
	run -1 dl-sqd club.sqd verify --deals rr01.tso
	[ "${lines[-1]}" = "rr01.tso: PARTLY MATCHES, session 1,1 (original), boards 1-10: 3 of 10 boards checked, 7 missing" ]
	# a board that differs outweighs the missing ones
	awk '/^\[Deal "/ && ++n == 1 { $0 = "[Deal \"'"$DEAL_A"'\"]" } { print }' rr01.pbn > one.pbn
	run -1 dl-sqd club.sqd verify --deals one.pbn 1 1
	[ "${lines[-1]}" = "one.pbn: DOES NOT MATCH, session 1,1 (original), boards 1-10: 1 of 10 boards checked, 1 different, 9 missing" ]
	# every board: matches, status 0
	run -0 dl-sqd club.sqd verify --deals all.pbn 1 1
	[ "${lines[-1]}" = "all.pbn: matches, session 1,1 (original), boards 1-10: 10 of 10 boards checked" ]
}

@test "create: ten at once on one .sqd: one succeeds, nine are refused, the file is the winner's" {
	for round in 1 2 3 4 5; do
		rm -f t.sqd status.* err.*
		for i in 1 2 3 4 5 6 7 8 9 10; do
			run_into "$i" dl-sqd t.sqd create --name "T$i" --di D &
		done
		wait
		winners=$(grep -lx 0 status.*)
		[ "$(echo "$winners" | wc -l)" -eq 1 ]
		winner=${winners#status.}
		[ ! -s "err.$winner" ]
		[ "$(sed -n 's/^TN //p' t.sqd)" = "T$winner" ]
		for i in 1 2 3 4 5 6 7 8 9 10; do
			[ "$i" -eq "$winner" ] && continue
			[ "$(cat "status.$i")" -eq 1 ]
			[ "$(cat "err.$i")" = "dl-sqd: t.sqd exists: not making a new tournament over it" ]
		done
		# no temporary file left behind
		[ "$(ls -A | grep -c '^\.t\.sqd')" -eq 0 ]
	done
}

@test "publish: ten at once on one .sqd, or two tournaments on one key file: one key file, the one KH" {
	dl-sqd t.sqd create --name T --di D
	dl-sqd t.sqd add-phase 2 10 rr > /dev/null
	for i in 1 2 3 4 5 6 7 8 9 10; do
		run_into "$i" dl-sqd t.sqd publish &
	done
	wait
	[ "$(grep -lx 0 status.* | wc -l)" -eq 1 ]
	[ "$(cat err.* | grep -cx 'dl-sqd: t.sqd is published already')" -eq 9 ]
	[ "$(sha256sum < t.sqk | cut -d' ' -f1)" = "$(sed -n 's/^KH //p' t.sqd)" ]
	# two tournaments, one --sqk: the key file is never replaced
	for t in a b; do
		dl-sqd $t.sqd create --name "$t" --di D
		dl-sqd $t.sqd add-phase 2 10 rr > /dev/null
	done
	for round in 1 2 3; do
		rm -f keys.sqk
		for t in a b; do
			run_into "$t" dl-sqd --sqk keys.sqk $t.sqd publish &
		done
		wait
		[ "$(cat status.a status.b | sort | tr '\n' ' ')" = "0 1 " ]
		winner=$(grep -lx 0 status.a status.b) winner=${winner#status.}
		loser=$(grep -lx 1 status.a status.b) loser=${loser#status.}
		[ "$(cat "err.$loser")" = "dl-sqd: keys.sqk exists: refusing to overwrite deal files (use --force)" ]
		[ "$(sha256sum < keys.sqk | cut -d' ' -f1)" = "$(sed -n 's/^KH //p' "$winner.sqd")" ]
		run ! grep -q '^KH ' "$loser.sqd"
		# back to unpublished for the next round
		grep -v '^KH ' "$winner.sqd" > x && mv x "$winner.sqd"
	done
}

@test "dl-sqd: file names with escapes are escaped on standard output (verify, publish, the KH lines, verify --deals)" {
	cp "$SQUAREDEAL/club/club.sqd" "$EVIL.sqd"
	cp "$SQUAREDEAL/club/club.sqk" "$EVIL.sqk"
	chmod 600 "$EVIL.sqk"
	run -0 --separate-stderr dl-sqd "$EVIL.sqd" verify
	[ "$output" = "$EVIL_SHOWN.sqk matches the KH of $EVIL_SHOWN.sqd: 6 session keys" ]
	# the hashes of a key file that does not match
	sed '2s/^1,2:7/1,2:8/' "$SQUAREDEAL/club/club.sqk" > "$EVIL.sqk"
	run -1 --separate-stderr dl-sqd "$EVIL.sqd" verify
	[[ ${lines[0]} =~ ^"$EVIL_SHOWN.sqk: SHA-256 "[0-9a-f]{64}$ ]]
	[ "${lines[1]}" = "$EVIL_SHOWN.sqd: KH      $(sed -n 's/^KH //p' "$SQUAREDEAL/club/club.sqd")" ]
	[ "${#lines[@]}" -eq 2 ]
	[ "$stderr" = "dl-sqd: $EVIL_SHOWN.sqk does not match the KH of $EVIL_SHOWN.sqd" ]
	# the played file's name, in the lines of boards not in it and the verdict
	cp "$SQUAREDEAL/club/club.sqk" "$EVIL.sqk"
	dl-sqd "$EVIL.sqd" seed 1 1 | dl-stream | dl-map | dl-board -b 1-9 > "$EVIL.tso"
	run -1 --separate-stderr dl-sqd "$EVIL.sqd" verify --deals "$EVIL.tso" 1 1
	[ "${lines[10]}" = "board 10: not in $EVIL_SHOWN.tso" ]
	[ "${lines[11]}" = "$EVIL_SHOWN.tso: PARTLY MATCHES, session 1,1 (original), boards 1-10: 9 of 10 boards checked, 1 missing" ]
	no_escape "$output"
	# publish names the key file to keep secret
	dl-sqd t.sqd create --name T --di D
	dl-sqd t.sqd add-phase 1 10 rr > /dev/null
	run -0 --separate-stderr dl-sqd --sqk "$EVIL.new.sqk" t.sqd publish
	[ "${lines[1]}" = "keep $EVIL_SHOWN.new.sqk secret until the event is over" ]
	no_escape "$output"
	# add-phase shows the SN line it stored, escaped as show shows it
	dl-sqd u.sqd create --name U --di D
	run -0 dl-sqd u.sqd add-phase 1 10 rr 'a\b'
	[ "$output" = 'phase 1: SN 1:10:rr:a\\b' ]
	grep -qx 'SN 1:10:rr:a\\b' u.sqd
}

@test "dl-diff, dl-read, dl-cat: names and records with escapes reach no terminal raw" {
	printf '[Board "1"]\n[Deal "%s"]\n\n[Board "2"]\n[Deal "%s"]\n' "$DEAL_A" "$DEAL_B" > "$EVIL.pbn"
	printf '[Board "1"]\n[Deal "%s"]\n' "$DEAL_A" > one.pbn
	run -1 --separate-stderr dl-diff "$EVIL.pbn" one.pbn
	[ "$output" = "board 2: only in $EVIL_SHOWN.pbn" ]
	[ "$stderr" = "dl-diff: the files differ: 1 board only in $EVIL_SHOWN.pbn" ]
	# a reader's warning names the file escaped
	printf '[Board "1"]\n[Dealer "N"]\n[Dealer "S"]\n[Deal "%s"]\n' "$DEAL_A" > "$EVIL.pbn"
	refuses 0 "dl-read: $EVIL_SHOWN.pbn:3: board 1: two different [Dealer] tags (\"N\", \"S\"): the first is read" \
	    dl-read "$EVIL.pbn"
	# dl-cat copies records byte for byte: one that is not plain ASCII is
	# refused, not passed to the terminal
	printf '#P: dl/1 deals\n#B: 1-1\n1 \033]0;pwned\007\n' > "$EVIL.tso"
	refuses 1 "dl-cat: $EVIL_SHOWN.tso:3: board 1: a control character or non-ASCII byte in its record" \
	    dl-cat "$EVIL.tso"
	[ -z "$output" ] || no_escape "$output"
	printf '#P: dl/1 deals\n#B: 1-1\n1 %s\302\233\n' "$RECORD_A" > x.tso
	refuses 1 "dl-cat: x.tso:3: board 1: a control character or non-ASCII byte in its record" dl-cat x.tso
}

@test "dl-read --list and dl-bigdeal's questions show a plugin's or .bigdealrc's text escaped" {
	mkdir plugins
	sed 's|"one line a board: BOARD N:hands (an example)"|"x\\033]0;pwned\\007y"|' \
	    "$BATS_TEST_DIRNAME/../share/examples/handlist.c" |
	    cc -shared -fPIC -I"$BATS_TEST_DIRNAME/../lib" -x c - -o plugins/handlist.so
	run -0 env DL_PLUGIN_PATH="$PWD/plugins" dl-read --list
	printf '%s\n' "$output" | grep -qx 'handlist  *\.hands  *x\\x1b]0;pwned\\x07y'
	no_escape "$output"
	# the formats .bigdealrc holds, quoted as the default of a question on
	# the terminal
	printf '[BigDeal]\nformats=pbn\033]0;pwned\007\naskformats=yes\nowner=Club\n' > .bigdealrc
	printf '2\nout\npbn\n' | script -qec dl-bigdeal /dev/null > screen
	grep -qF 'Formats for this run: [pbn\x1b]0;pwned\x07] ' screen
	no_escape "$(tr -d '\r' < screen)"
	[ -f out.pbn ]
}
