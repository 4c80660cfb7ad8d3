#!/usr/bin/env bats
# dl-diff: two deal files compared board by board, through the readers.
# The host side is tested here with the example reader of
# share/examples/handlist.c, built as a third party builds it; dl's own
# formats after it.

load helper

setup_file() {
	mkdir -p "$BATS_FILE_TMPDIR/plugins"
	cc -shared -fPIC -I"$BATS_TEST_DIRNAME/../lib" \
	    "$BATS_TEST_DIRNAME/../share/examples/handlist.c" -o "$BATS_FILE_TMPDIR/plugins/handlist.so"
}

# Boards 1-8 of a known seed as s.tso and, with the example plugin, x.hands.
setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	export DL_PLUGIN_PATH=$BATS_FILE_TMPDIR/plugins
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    --owner 'Board test' 2> /dev/null | dl-stream -n 8 | dl-map > s.tso
	dl-fmt -f handlist -p x < s.tso
}

@test "dl-diff: the deals this suite expects" {
	[ "$(sed -n 5p x.hands)" = "5 N:AKQJ.642.A5.Q752 873.Q85.QJT84.AJ T6542.KT.K972.K6 9.AJ973.63.T9843" ]
}

@test "dl-diff: the same boards with the same deals, in any order: status 0, no output" {
	run -0 --separate-stderr dl-diff x.hands x.hands
	[ -z "$output" ] && [ -z "$stderr" ]
	tac x.hands > reversed.hands
	run -0 --separate-stderr dl-diff reversed.hands x.hands
	[ -z "$output" ] && [ -z "$stderr" ]
	# from standard input, under another name, with -f
	dl-diff - x.hands < reversed.hands
	cp x.hands x.txt
	dl-diff -f handlist x.txt reversed.hands
	dl-diff --format handlist x.hands x.txt
}

@test "dl-diff: boards in one file only, in runs; hands that differ, and both deals" {
	# y: board 1 gone, North's and East's hands of board 5 exchanged,
	# boards 7-8 gone, boards 2-3 turned one seat clockwise
	{
		dl-board -b 2-3 --rotate 1 < s.tso
		dl-board -b 4-6 < s.tso
	} | grep -v '^#' | dl-fmt -f handlist -p y
	sed -i '4s/^5 N:\([^ ]*\) \([^ ]*\)/5 N:\2 \1/' y.hands
	run -1 --separate-stderr dl-diff x.hands y.hands
	[ "$stderr" = "dl-diff: the files differ: 3 boards only in x.hands, 3 boards with other deals" ]
	diff <(printf '%s\n' "${lines[@]}") - <<-'EOF'
	board 1: only in x.hands
	board 2: hands differ: N E S W (turned 1 seat clockwise)
	< N:J852.K982.T2.JT9 K94.J3.K7543.AQ8 76.AQ64.J8.75432 AQT3.T75.AQ96.K6
	> N:AQT3.T75.AQ96.K6 J852.K982.T2.JT9 K94.J3.K7543.AQ8 76.AQ64.J8.75432
	board 3: hands differ: N E S W (turned 1 seat clockwise)
	< N:A72.763.985.K965 Q54.KQ92.J.A8743 KJT96.AJ.AT73.QT 83.T854.KQ642.J2
	> N:83.T854.KQ642.J2 A72.763.985.K965 Q54.KQ92.J.A8743 KJT96.AJ.AT73.QT
	board 5: hands differ: N E
	< N:AKQJ.642.A5.Q752 873.Q85.QJT84.AJ T6542.KT.K972.K6 9.AJ973.63.T9843
	> N:873.Q85.QJT84.AJ AKQJ.642.A5.Q752 T6542.KT.K972.K6 9.AJ973.63.T9843
	boards 7-8: only in x.hands
	EOF
	# the other way round: < and > change places, turned 3 seats
	run -1 --separate-stderr dl-diff y.hands x.hands
	[ "${lines[0]}" = "board 1: only in x.hands" ]
	[ "${lines[1]}" = "board 2: hands differ: N E S W (turned 3 seats clockwise)" ]
	[ "${lines[2]}" = "< N:AQT3.T75.AQ96.K6 J852.K982.T2.JT9 K94.J3.K7543.AQ8 76.AQ64.J8.75432" ]
	[ "${lines[-1]}" = "boards 7-8: only in x.hands" ]
	# boards only in one file on both sides of the other's
	dl-board -b 4-5 < s.tso | dl-fmt -f handlist -p mid
	run -1 --separate-stderr dl-diff mid.hands x.hands
	diff <(printf '%s\n' "${lines[@]}") - <<-'EOF'
	boards 1-3: only in x.hands
	boards 6-8: only in x.hands
	EOF
	run -1 --separate-stderr dl-diff x.hands mid.hands
	[ "${lines[0]}" = "boards 1-3: only in x.hands" ]
	# runs are broken where the other file holds a board
	sed -n '1p;3p;5p' x.hands > odd.hands
	run -1 --separate-stderr dl-diff x.hands odd.hands
	diff <(printf '%s\n' "${lines[@]}") - <<-'EOF'
	board 2: only in x.hands
	board 4: only in x.hands
	boards 6-8: only in x.hands
	EOF
	# two hands turned half round: N and S, E and W
	dl-board --rotate 2 -b 8 < s.tso | dl-fmt -f handlist -p half
	run -1 --separate-stderr dl-diff half.hands odd.hands
	diff <(printf '%s\n' "${lines[@]}") - <<-'EOF'
	board 1: only in odd.hands
	board 3: only in odd.hands
	board 5: only in odd.hands
	board 8: only in half.hands
	EOF
	sed -n 8p x.hands > eight.hands
	run -1 --separate-stderr dl-diff eight.hands half.hands
	[ "${lines[0]}" = "board 8: hands differ: N E S W (turned 2 seats clockwise)" ]
	[ "$stderr" = "dl-diff: the files differ: 1 board with other deals" ]
	run -1 --separate-stderr dl-diff half.hands odd.hands
	[ "$stderr" = "dl-diff: the files differ: 1 board only in half.hands, 3 boards only in odd.hands" ]
}

@test "dl-diff -q: the status alone" {
	sed -n '1,7p' x.hands > seven.hands
	run -1 --separate-stderr dl-diff -q x.hands seven.hands
	[ -z "$output" ] && [ -z "$stderr" ]
	run -0 --separate-stderr dl-diff --quiet x.hands x.hands
	[ -z "$output" ] && [ -z "$stderr" ]
	# the readers' warnings go to standard error, but for -q
	{ printf '= %0600d\n' 0; cat x.hands; } > long.hands
	run -0 --separate-stderr dl-diff x.hands long.hands
	[ -z "$output" ]
	[ "$stderr" = "dl-diff: long.hands:1: event cut to 511 bytes" ]
	run -0 --separate-stderr dl-diff -q x.hands long.hands
	[ -z "$output" ] && [ -z "$stderr" ]
}

@test "dl-diff: file names in the report are escaped" {
	sed -n '1,7p' x.hands > seven.hands
	cp x.hands $'a\033[2Jb.hands'
	run -1 --separate-stderr dl-diff $'a\033[2Jb.hands' seven.hands
	[ "$output" = 'board 8: only in a\x1b[2Jb.hands' ]
	[ "$stderr" = 'dl-diff: the files differ: 1 board only in a\x1b[2Jb.hands' ]
	run -1 --separate-stderr dl-diff seven.hands $'a\033[2Jb.hands'
	[ "$output" = 'board 8: only in a\x1b[2Jb.hands' ]
}

@test "dl-diff: a file that cannot be compared is trouble, status 2, with its line" {
	cat x.hands x.hands > twice.hands
	refuses 2 'dl-diff: twice.hands:9: board 1 again: dl-diff compares files that hold each board once' \
	    dl-diff x.hands twice.hands
	[ -z "$output" ]
	sed '3s/K/Q/' x.hands > bad.hands
	refuses 2 'dl-diff: bad.hands:3: board 3: a card twice' dl-diff bad.hands x.hands
	: > empty.hands
	refuses 2 'dl-diff: no boards in empty.hands' dl-diff x.hands empty.hands
	refuses 2 'dl-diff: no boards in standard input' dl-diff -f handlist x.hands - < empty.hands
	refuses 2 'dl-diff: nosuch.hands: No such file or directory' dl-diff x.hands nosuch.hands
	echo hello > what.txt
	refuses 2 'dl-diff: what.txt: cannot tell its format (give -f; dl-read --list shows the formats it reads)' \
	    dl-diff what.txt x.hands
	refuses 2 'dl-diff: unknown format "nosuch" (dl-fmt --list shows the formats)' dl-diff -f nosuch x.hands x.hands
	refuses 2 'dl-diff: standard input can be one of the files, not both' dl-diff - -
	# -q keeps the errors
	refuses 2 'dl-diff: no boards in empty.hands' dl-diff -q x.hands empty.hands
	run -2 --separate-stderr dl-diff x.hands
	[ "$stderr" = "usage: dl-diff [-q] [-f format] file1 file2" ]
	run -2 --separate-stderr dl-diff a b c
	[ "$stderr" = "usage: dl-diff [-q] [-f format] file1 file2" ]
	run -0 dl-diff --help
	[ "$output" = "usage: dl-diff [-q] [-f format] file1 file2" ]
	# a write error is said, with status 2
	sed -n 1p x.hands > one.hands
	run -2 --separate-stderr sh -c 'dl-diff x.hands one.hands > /dev/full'
	[ "$stderr" = 'dl-diff: write error on standard output: No space left on device' ]
}
