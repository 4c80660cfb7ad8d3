#!/usr/bin/env bats
# dl-sqd against SquareDeal's own files and procedure.

load helper

CLUB=$SQUAREDEAL/club

club() {
	cp "$CLUB/club.sqd" "$CLUB/club.sqk" .
	chmod 644 club.sqd club.sqk
}

# same FILE: our FILE equals the reference's, generator tags aside
same() {
	cmp <(strip_generator "$1") <(strip_generator "$CLUB/expected/$1")
}

# tournament FILE: a fresh published tournament with the World Bridge
# Games 2024 key of phase 4 session 1 (docs/squaredeal.md), other keys made up
wbg() {
	printf '1,1:%s\r\n2,1:%s\r\n3,1:%s\r\n4,1:%s\r\n' \
	    aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \
	    bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb \
	    cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc \
	    BbG2HUGrfSRs7wgPCQHBw9IsS3RFdGSeojmGOjH2e7pmNY7onvydY8ZjKjEZ > wbg.sqk
	{
		printf '# Description file of tournament for program squaredeal 2.1\r\n'
		printf 'TN World Bridge Games 2024\r\nDI DJI1910\r\nDV 43275.91\r\n'
		printf 'SN 1:1-16:OPRR#:Open\r\nSN 1:1-16:WRR#:Women\r\nSN 1:1-16:SRR#:Seniors\r\n'
		printf 'SN 1:20:R16#:Round of 16 #/3\r\n'
		printf 'KH %s\r\n' "$(sha256sum < wbg.sqk | cut -d' ' -f1)"
	} > wbg.sqd
}

@test "every session of the club tournament, original and reserve" {
	club
	dl-sqd club.sqd make > made
	dl-sqd club.sqd make --reserve >> made
	dl-sqd club.sqd make 3 1-4 >> made
	dl-sqd club.sqd make --reserve 3 1-4 >> made
	for f in "$CLUB"/expected/*.pbn; do same "$(basename "$f")"; done
	[ "$(ls *.pbn | wc -l)" -eq 20 ]
	[ "$(sort made | tr '\n' ' ')" = "$(ls *.pbn | sort | tr '\n' ' ')" ]
}

@test "the combined file's generator tag names the session files" {
	club
	dl-sqd club.sqd make --reserve 1 > /dev/null
	grep -qx '\[Generator "dl [0-9.]*, combining rr01reserve.pbn rr02reserve.pbn rr03reserve.pbn"\]' rr01-03reserve.pbn
	[ "$(grep -c '^%' rr01-03reserve.pbn)" -eq 3 ]
}

@test "a combined file needs sessions that continue each other" {
	club
	dl-sqd club.sqd make 1 2-3 > made
	[ "$(cat made | tr '\n' ' ')" = "rr02.pbn rr03.pbn rr02-03.pbn " ]
	dl-sqd club.sqd make 2 > made
	[ "$(cat made | tr '\n' ' ')" = "ko1.pbn ko2.pbn " ]
}

@test "other formats: dup is never combined, bri is concatenated" {
	club
	dl-sqd club.sqd make -f pbn,dup,bri 1 > made
	[ "$(cat made | tr '\n' ' ')" = "rr01.pbn rr01.dup rr01.bri rr02.pbn rr02.dup rr02.bri rr03.pbn rr03.dup rr03.bri rr01-03.pbn rr01-03.bri " ]
	cat rr01.bri rr02.bri rr03.bri | cmp - rr01-03.bri
}

@test "making a set again gives identical files; a changed one is refused" {
	club
	dl-sqd club.sqd make 1 1 > /dev/null
	cp rr01.pbn before
	dl-sqd club.sqd make 1 1 > /dev/null
	cmp before rr01.pbn
	echo changed >> rr01.pbn
	fails dl-sqd club.sqd make 1 1
	[ "$output" = "dl-sqd: ./rr01.pbn exists with other contents: refusing to overwrite it (use --force)" ]
	dl-sqd club.sqd make --force 1 1 > /dev/null
	cmp before rr01.pbn
}

@test "World Bridge Games 2024: phase 4 session 1, board 1" {
	wbg
	dl-sqd wbg.sqd verify > /dev/null
	dl-sqd wbg.sqd seed 4 1 | dl-stream -n 1 | dl-map | dl-fmt-pbn > board1.pbn
	grep -qx '\[Deal "N:T43.Q84.AK7.AQJT A7.JT.J43.976532 K985.K73.T8652.8 QJ62.A9652.Q9.K4"\]' board1.pbn
}

@test "the seed command announces the session's boards" {
	club
	run -0 dl-sqd club.sqd seed 1 2
	[ "${lines[0]}" = "#P: dl/1 seed" ]
	[ "${lines[2]}" = "#B: 11-20" ]
	dl-sqd club.sqd seed 1 2 | dl-stream | dl-map | dl-fmt-pbn > rr02.pbn
	same rr02.pbn
}

@test "the key hash: SHA-256 of the key file with CRLF line ends, even when CRs were lost" {
	club
	[ "$(sha256sum < club.sqk | cut -d' ' -f1)" = "$(sed -n 's/^KH //p' club.sqd)" ]
	tr -d '\r' < "$CLUB/club.sqk" > club.sqk
	run dl-sqd club.sqd verify
	[ "$status" -eq 0 ]
	[ "$output" = "club.sqk matches the KH of club.sqd: 6 session keys" ]
	dl-sqd club.sqd make 1 1 > /dev/null
	same rr01.pbn
}

@test "tampering with one key character fails verify, and make" {
	club
	sed -i '2s/^1,2:7/1,2:8/' club.sqk
	fails dl-sqd club.sqd verify
	[ "$output" = "dl-sqd: club.sqk does not match the KH of club.sqd" ]
	fails dl-sqd club.sqd make 1 1
	[ "$output" = "dl-sqd: club.sqk does not match the KH of club.sqd: not this tournament's key file, or changed" ]
	[ ! -e rr01.pbn ]
}

@test "the key file may be named with --sqk" {
	club
	mv club.sqk keys.txt
	fails dl-sqd club.sqd make 1 1
	[ "$output" = "dl-sqd: club.sqk: the session keys are needed to deal: No such file or directory" ]
	dl-sqd --sqk keys.txt club.sqd make 1 1 > /dev/null
	same rr01.pbn
}

@test "a whole tournament from the command line" {
	dl-sqd t.sqd create --name 'Spring Teams 2027' --di 'DJIA close of 2027-03-01'
	run -0 dl-sqd t.sqd add-phase 4 3x7 rr 'Round robin'
	[ "$output" = "phase 1: SN 4:1-7,8-14,15-21:rr#:Round robin #/4" ]
	run -0 dl-sqd t.sqd add-phase 12 16 sf
	[ "$output" = "phase 2: SN 12:16:sf##:#/12" ]
	run -0 dl-sqd t.sqd add-phase 1 '?' final 'Final'
	[ "$output" = "phase 3: SN 1:?:final:Final" ]
	run -0 dl-sqd t.sqd add-phase 0 1-8 sw Swiss
	[ "$output" = "phase 4: SN 0:1-8:sw##:Swiss #" ]
	run dl-sqd t.sqd publish
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^published:\ KH\ [0-9a-f]{64}$ ]]
	[ "$(stat -c %a t.sqk)" = 600 ]
	[ "$(wc -l < t.sqk)" -eq 18 ]
	[ "$(grep -c $'^[0-9]*,[0-9]*:[a-zA-Z0-9]\\{60\\}\r$' t.sqk)" -eq 18 ]
	grep -q $'^4,0:' t.sqk
	[ "$(sha256sum < t.sqk | cut -d' ' -f1)" = "$(sed -n 's/^KH //p' t.sqd)" ]
	run -0 dl-sqd t.sqd set-dv '  12 345.67   8,9 x.y  '
	[ "$output" = "DV 12 34567 89 x.y" ]
	dl-sqd t.sqd make 1 > made
	[ "$(cat made | tr '\n' ' ')" = "rr1.pbn rr2.pbn rr3.pbn rr4.pbn rr1-3.pbn " ]
	grep -q '^\[Board "21"\]' rr3.pbn
	grep -q '^\[Board "1"\]' rr4.pbn
	fails dl-sqd t.sqd make 3
	[ "$output" = "dl-sqd: phase 3 has its boards chosen when dealing: give them with -b" ]
	dl-sqd t.sqd make -b 5-8 3 > made
	[ "$(cat made)" = final.pbn ]
	[ "$(grep -c '^\[Board' final.pbn)" -eq 4 ]
	dl-sqd t.sqd verify --deals rr3.pbn > report
	[ "$(tail -1 report)" = "rr3.pbn: matches, session 1,3 (original), boards 15-21: 7 of 7 boards checked" ]
}

@test "stages refuse what they cannot do yet, saying what to do" {
	fails dl-sqd t.sqd publish
	[ "$output" = "dl-sqd: t.sqd: No such file or directory" ]
	dl-sqd t.sqd create --name T --di D
	fails dl-sqd t.sqd create --name T --di D
	[ "$output" = "dl-sqd: t.sqd exists: not making a new tournament over it" ]
	fails dl-sqd t.sqd publish
	[ "$output" = "dl-sqd: t.sqd has no phases: add them before publishing" ]
	dl-sqd t.sqd add-phase 2 10 s > /dev/null
	fails dl-sqd t.sqd make
	[ "$output" = "dl-sqd: t.sqd is not published yet: run 'dl-sqd t.sqd publish' first" ]
	fails dl-sqd t.sqd set-dv 123
	[ "$output" = "dl-sqd: t.sqd is not published yet: the delayed value comes after publishing" ]
	dl-sqd t.sqd publish > /dev/null
	fails dl-sqd t.sqd publish
	[ "$output" = "dl-sqd: t.sqd is published already" ]
	fails dl-sqd t.sqd add-phase 1 10 x
	[ "$output" = "dl-sqd: t.sqd is published: its phases can no longer change" ]
	fails dl-sqd t.sqd set-name Other
	[ "$output" = "dl-sqd: t.sqd is published: its name can no longer change" ]
	fails dl-sqd t.sqd make
	[ "$output" = "dl-sqd: t.sqd has no delayed value yet: run 'dl-sqd t.sqd set-dv VALUE' once it is known" ]
	dl-sqd t.sqd set-dv 123 > /dev/null
	fails dl-sqd t.sqd set-dv 456
	[ "$output" = "dl-sqd: t.sqd has its delayed value already (123): it cannot change" ]
	fails dl-sqd t.sqd make 1 3
	[ "$output" = "dl-sqd: no session 3: there are 2" ]
	fails dl-sqd t.sqd make 2
	[ "$output" = "dl-sqd: no phase 2: there is 1" ]
}

@test "publishing never overwrites a key file" {
	dl-sqd t.sqd create --name T --di D
	dl-sqd t.sqd add-phase 1 10 s > /dev/null
	echo 'old keys' > t.sqk
	fails dl-sqd t.sqd publish
	[ "$output" = "dl-sqd: t.sqk exists: refusing to overwrite deal files (use --force)" ]
	[ "$(cat t.sqk)" = "old keys" ]
	run -1 grep -q '^KH' t.sqd
}

@test "the .sqd written is the reference's layout" {
	club
	fails dl-sqd club.sqd set-dv x
	[ "$output" = "dl-sqd: club.sqd has its delayed value already (3 6 9 13 26 40 44901.92): it cannot change" ]
	cmp club.sqd "$CLUB/club.sqd"
	# a change that rewrites the file: none is allowed once published, so
	# rebuild the club's file from its parts
	dl-sqd c.sqd create --name 'Example Club Championship 2026' \
	    --di 'Lotto draw of 2026-11-21 and DJI close of 2026-11-20'
	dl-sqd c.sqd add-phase 3 1-10,11-20,21-30 rr## 'Round Robin' > /dev/null
	dl-sqd c.sqd add-phase 2 12 ko# 'Knockout' > /dev/null
	dl-sqd c.sqd add-phase 0 1-8 sw## 'Swiss' > /dev/null
	dl-sqd c.sqd publish --sqk c.sqk > /dev/null
	sed -i 's/^KH .*/DV 3 6 9 13 26 40 44901.92\n&/' c.sqd
	diff <(grep -v -e '^KH' -e '^DV' c.sqd) <(grep -v -e '^KH' -e '^DV' club.sqd)
}

@test "real published files: CRLF, version comments, DV with spaces, lists like 1-18,1-16,17-32" {
	wbg
	sed -i 's/^SN 1:1-16:OPRR#:Open\r$/SN 3:1-18,1-16,17-32:OPRR#:Open #\/3\r/' wbg.sqd
	sed -i 's/^DV .*/DV 3 6 9 13 26 40\r/' wbg.sqd
	sed -i '1,$s/^1,1:.*/1,1:aaaa\r\n1,2:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\r\n1,3:cc\r/' wbg.sqk
	sed -i "s/^KH .*/KH $(sha256sum < wbg.sqk | cut -d' ' -f1)\r/" wbg.sqd
	run -0 dl-sqd wbg.sqd show
	[ "${lines[2]}" = "Delayed value: 3 6 9 13 26 40" ]
	[ "${lines[5]}" = "  session 1: OPRR1        boards 1-18  Open 1/3" ]
	[ "${lines[7]}" = "  session 3: OPRR3        boards 17-32  Open 3/3" ]
	run --separate-stderr dl-sqd wbg.sqd verify
	[ "$status" -eq 0 ]
	[ "$stderr" = "$(printf 'dl-sqd: warning: the key of session 1,1 has only 4 characters\ndl-sqd: warning: the key of session 1,3 has only 2 characters')" ]
	dl-sqd wbg.sqd make 1 > made
	[ "$(cat made | tr '\n' ' ')" = "OPRR1.pbn OPRR2.pbn OPRR3.pbn OPRR2-3.pbn " ]
}

@test "malformed .sqd and .sqk lines name the file and line" {
	club
	printf 'TN x\nXX y\n' > bad.sqd
	fails dl-sqd bad.sqd show
	[ "$output" = 'dl-sqd: bad.sqd:2: unknown tag "XX"' ]
	printf 'TN x\nSN 3:1-10:rr\n' > bad.sqd
	fails dl-sqd bad.sqd show
	[ "$output" = "dl-sqd: bad.sqd:2: SN needs NSESSIONS:BOARDS:PREFIX:DESCRIPTION" ]
	printf 'TN x\nSN 3:10-1:rr:d\n' > bad.sqd
	fails dl-sqd bad.sqd show
	[ "$output" = 'dl-sqd: bad.sqd:2: bad boards "10-1"' ]
	printf 'TN x\nTN y\n' > bad.sqd
	fails dl-sqd bad.sqd show
	[ "$output" = "dl-sqd: bad.sqd:2: TN given twice" ]
	printf '# c\nKH 12\n' > bad.sqd
	fails dl-sqd bad.sqd show
	[ "$output" = "dl-sqd: bad.sqd:2: KH is not 64 hex digits" ]
	sed -i '3s/^.*$/1,3 no colon/' club.sqk
	fails dl-sqd club.sqd verify
	[ "$output" = "dl-sqd: club.sqk:3: expected PHASE,SESSION:KEY" ]
	club
	sed -i '6d' club.sqk
	fails dl-sqd club.sqd verify
	[ "$output" = "dl-sqd: club.sqk: no key for session 3,0" ]
	club
	printf '9,1:abc\r\n' >> club.sqk
	fails dl-sqd club.sqd verify
	[ "$output" = "dl-sqd: club.sqk: key for session 9,1, which the tournament does not have" ]
}

@test "session keys appear in no message and on no terminal" {
	club
	sed -i '2s/^1,2:7/1,2:8/' club.sqk
	run -1 dl-sqd club.sqd make 1 1
	[[ "$output" != *cL6Z5ZXWgRzePSyu1jc* ]]
	club
	run script -qec 'dl-sqd club.sqd seed 1 1' /dev/null
	[ "$status" -eq 2 ]
	[[ "$output" == *"dl-sqd: refusing to write a secret seed to a terminal (use --force)"* ]]
}

@test "verify --deals: a played set, board by board, found by its name" {
	club
	dl-sqd club.sqd make 1 > /dev/null
	run dl-sqd club.sqd verify --deals rr02.pbn
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "board 11: the same deal" ]
	[ "${lines[11]}" = "rr02.pbn: matches, session 1,2 (original), boards 11-20: 10 of 10 boards checked" ]
	# swap North's and East's hands of board 13
	awk '/^\[Board "13"\]/ { b = 1 } b && /^\[Deal / { split(substr($0, 10), h, " ");
	    $0 = "[Deal \"N:" h[2] " " h[1] " " h[3] " " h[4]; b = 0 } { print }' rr02.pbn > played.pbn
	run dl-sqd club.sqd verify --deals played.pbn 1 2
	[ "$status" -eq 1 ]
	[ "${lines[3]}" = "board 13: DIFFERENT from the session's deal" ]
	[ "${lines[11]}" = "played.pbn: DOES NOT MATCH, session 1,2 (original), boards 11-20: 10 of 10 boards checked, 1 different" ]
	dl-sqd club.sqd seed 1 2 | dl-stream | dl-map > rr02.tso
	run dl-sqd club.sqd verify --deals rr02.tso 1 2
	[ "$status" -eq 0 ]
	dl-sqd club.sqd make --reserve 3 2 > /dev/null
	run -0 dl-sqd club.sqd verify --deals sw02reserve.pbn
	[ "${lines[9]}" = "sw02reserve.pbn: matches, session 3,2 (reserve), boards 1-8: 8 of 8 boards checked" ]
}

@test "verify --deals: a file that numbers no boards (DUP, BER, Borel, ...) is the session's boards from its first; a check that fails is status 1" {
	club
	dl-sqd club.sqd make -f dup,ber,borel,bri,dge,goedel,kops,cds 1 2 > made
	[ "$(wc -l < made)" -eq 8 ]
	for f in $(cat made); do
		run -0 dl-sqd club.sqd verify --deals "$f"
		[ "${lines[1]}" = "board 11: the same deal" ] || { echo "$f: ${lines[1]}"; return 1; }
		[ "${lines[11]}" = "$f: matches, session 1,2 (original), boards 11-20: 10 of 10 boards checked" ]
	done
	# Big Deal's DUP says lowest board 1: read alone it is boards 1-10
	run -0 dl-read rr02.dup
	[ "${lines[1]}" = "#B: 1-10" ]
	# the same file given as another session's: other deals, status 1
	run -1 dl-sqd club.sqd verify --deals rr02.dup 1 3
	[ "${lines[1]}" = "board 21: DIFFERENT from the session's deal" ]
	[ "${lines[11]}" = "rr02.dup: DOES NOT MATCH, session 1,3 (original), boards 21-30: 10 of 10 boards checked, 10 different" ]
	# one board changed: board 13, North's and East's first cards swapped in BER
	cp rr02.ber played.ber
	n=$(head -c $((2 * 52 + 52)) rr02.ber | tail -c 52 | grep -ob 1 | head -1 | cut -d: -f1)
	e=$(head -c $((2 * 52 + 52)) rr02.ber | tail -c 52 | grep -ob 2 | head -1 | cut -d: -f1)
	printf 2 | dd of=played.ber bs=1 seek=$((2 * 52 + n)) conv=notrunc status=none
	printf 1 | dd of=played.ber bs=1 seek=$((2 * 52 + e)) conv=notrunc status=none
	run -1 dl-sqd club.sqd verify --deals played.ber 1 2
	[ "${lines[3]}" = "board 13: DIFFERENT from the session's deal" ]
	[ "${lines[11]}" = "played.ber: DOES NOT MATCH, session 1,2 (original), boards 11-20: 10 of 10 boards checked, 1 different" ]
	# the first five boards only: not a pass either
	head -c $((5 * 156)) rr02.dup > part.dup
	run -1 dl-sqd club.sqd verify --deals part.dup 1 2
	[ "${lines[11]}" = "part.dup: PARTLY MATCHES, session 1,2 (original), boards 11-20: 5 of 10 boards checked, 5 missing" ]
	# a file its reader refuses fails the check: status 1, the reason on stderr
	head -c 200 rr02.dup > cut.dup
	run -1 --separate-stderr dl-sqd club.sqd verify --deals cut.dup 1 2
	[ "$stderr" = "dl-sqd: cut.dup: byte 200: board 12: cut short: 44 of its 156 bytes" ]
}

@test "a Makefile from dl-sqd builds the event with make -j, then nothing" {
	club
	mkdir event && mv club.sqd club.sqk event/
	dl-sqd event/club.sqd makefile -f pbn,dup > club.mk
	grep -qx 'event/rr01.pbn: event/club.sqd event/club.sqk' club.mk
	make -s -j4 -f club.mk DL_SQD=dl-sqd > /dev/null
	for f in rr01 rr02 rr03 ko1 ko2; do
		(cd event && same $f.pbn)
		[ -f event/$f.dup ]
	done
	make -q -f club.mk DL_SQD=dl-sqd
	touch event/club.sqd
	run -1 make -q -f club.mk DL_SQD=dl-sqd
}

@test "makefile: an unknown format or a bad format list is refused, with no half Makefile" {
	club
	run --separate-stderr dl-sqd club.sqd makefile -f pbn,nosuch
	[ "$status" -eq 2 ]
	[ "$stderr" = 'dl-sqd: unknown format "nosuch" (dl-fmt --list shows the formats)' ]
	[ -z "$output" ]
	fails dl-sqd club.sqd makefile -f pbn,,dup
	[ "$status" -eq 2 ]
	[ "$output" = 'dl-sqd: bad format list "pbn,,dup"' ]
}

@test "lib/squaredeal/sqd_deal and sqd_verify refuse what dl-sqd's own checks never pass on" {
	club
	sed '/^DV /d' club.sqd > nodv.sqd
	run "$HELPERS/sqdlib" club.sqd club.sqk make 4 1 1
	[ "$status" -eq 1 ] && [ "$output" = "no phase 4: there are 3" ]
	run "$HELPERS/sqdlib" club.sqd club.sqk make 1 3 4
	[ "$status" -eq 1 ] && [ "$output" = "no session 4 in phase 1" ]
	run "$HELPERS/sqdlib" club.sqd club.sqk make 1 2 1
	[ "$status" -eq 1 ] && [ "$output" = "sessions 2-1 run backwards" ]
	run "$HELPERS/sqdlib" nodv.sqd club.sqk make 1 1 1
	[ "$status" -eq 1 ] && [ "$output" = "the tournament has no delayed value yet" ]
	run "$HELPERS/sqdlib" club.sqd - verify 1 1
	[ "$status" -eq 1 ] && [ "$output" = "no key for session 1,1" ]
	run "$HELPERS/sqdlib" club.sqd club.sqk verify 2 3
	[ "$status" -eq 1 ] && [ "$output" = "no session 3 in phase 2" ]
	run "$HELPERS/sqdlib" club.sqd club.sqk boards 0 1
	[ "$status" -eq 1 ] && [ "$output" = "no phase 0: there are 3" ]
	[ -z "$(ls *.pbn 2> /dev/null)" ]
	# and what they accept is what dl-sqd makes
	run "$HELPERS/sqdlib" club.sqd club.sqk make 1 1 2
	[ "$status" -eq 0 ]
	[ "$(echo $output)" = "rr01.pbn rr02.pbn rr01-02.pbn" ]
	same rr01.pbn
	same rr02.pbn
	# no board at all is no match (played_read refuses such a file first)
	run "$HELPERS/sqdlib" club.sqd club.sqk verify 1 2
	[ "$output" = "0 same, 0 different, 10 missing, 0 foreign: does not match" ]
}

@test "each command takes only its own options: any other is a usage error, the .sqd untouched" {
	dl-sqd t.sqd create --name T --di D
	dl-sqd t.sqd add-phase 1 10 s > /dev/null
	cp t.sqd before.sqd
	refuses 2 "dl-sqd: show does not take -d (dl-sqd --help shows the usage)" \
	    dl-sqd t.sqd show --reserve -d /nonexistent
	refuses 2 "dl-sqd: show does not take --reserve (dl-sqd --help shows the usage)" \
	    dl-sqd t.sqd show --reserve
	refuses 2 "dl-sqd: set-name does not take --force (dl-sqd --help shows the usage)" \
	    dl-sqd --force t.sqd set-name Other
	refuses 2 "dl-sqd: add-phase does not take -f (dl-sqd --help shows the usage)" \
	    dl-sqd t.sqd add-phase 1 10 u -f pbn
	refuses 2 "dl-sqd: publish does not take --deals (dl-sqd --help shows the usage)" \
	    dl-sqd t.sqd publish --deals x.pbn
	refuses 2 "dl-sqd: create does not take -b (dl-sqd --help shows the usage)" \
	    dl-sqd n.sqd create --name N --di D -b 1-3
	cmp t.sqd before.sqd
	[ ! -e n.sqd ]
	# set-name and set-di are commands like the others
	dl-sqd t.sqd set-di 'Another draw' > /dev/null
	grep -qx 'DI Another draw' t.sqd
}

@test "which formats are joined into a combined file is the plugin's to say (DL_JOINABLE)" {
	club
	mkdir mine
	for joinable in 0 1; do
		sed "s|\.description = |.needs = $([ $joinable = 1 ] && echo DL_JOINABLE || echo 0), .description = |" \
		    "$BATS_TEST_DIRNAME/../share/examples/hcp.c" |
		    cc -shared -fPIC -I"$BATS_TEST_DIRNAME/../lib" -x c - -o mine/hcp.so
		rm -f rr0*
		DL_PLUGIN_PATH=$PWD/mine dl-sqd club.sqd make -f hcp 1 2-3 > made
		if [ $joinable = 1 ]; then
			[ "$(cat made | tr '\n' ' ')" = "rr02.hcp rr03.hcp rr02-03.hcp " ]
		else
			[ "$(cat made | tr '\n' ' ')" = "rr02.hcp rr03.hcp " ]
		fi
	done
}

@test "a .sqd with its key hash but no phases yet names no phase: refused, not a crash" {
	printf 'TN Test\nDV 1234\nKH e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n' > t.sqd
	: > t.sqk
	for command in "seed 1 1" "make 1" "make"; do
		fails dl-sqd t.sqd $command
		[ "$output" = "dl-sqd: t.sqd has no phases yet" ] || { echo "$command: $output"; return 1; }
	done
	printf '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n' > x.pbn
	fails dl-sqd t.sqd verify --deals x.pbn 1 1
	[ "$output" = "dl-sqd: t.sqd has no phases yet" ]
}
