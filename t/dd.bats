#!/usr/bin/env bats
# dl-dd (cmd/dl-dd.c over libdds), the deals+dd stream (lib/deals/analysis.c,
# lib/stream/proto.c) and the PBN writer's analysis tags, checked against the
# tables and par results Bridge Composer published for real sessions
# (t/data/real/README.md).

load helper

REAL=$VECTORS/real

# tags FILE: a PBN file's board numbers and analysis, as lines to compare
tags() {
	tr -d '\r' < "$1" | grep -E '^\[(Board|DoubleDummyTricks|OptimumScore|ParContract) '
}

# table FILE: the OptimumResultTable sections, header and rows
table() {
	tr -d '\r' < "$1" | awk '/^\[OptimumResultTable/ { p = 1; print; next }
	    /^\[/ { p = 0 } p && /^[NESW] / { print }'
}

# bats test_tags=slow
@test "dl-dd on a Common Game session: every table, par score and par contract Bridge Composer published" {
	dl-read "$REAL/commongame-2025-1132.pbn" | dl-dd -q > s.dd
	dl-fmt -f pbn < s.dd > ours.pbn
	[ "$(grep -c '^\[DoubleDummyTricks' ours.pbn)" -eq 36 ]
	diff <(tags "$REAL/commongame-2025-1132.pbn") <(tags ours.pbn)
	diff <(table "$REAL/commongame-2025-1132.pbn") <(table ours.pbn)
}

# bats test_tags=slow
@test "dl-dd on a club championship: every table and par score Bridge Composer published" {
	dl-read "$REAL/quicktricks-2020-02-17.pbn" | dl-dd -q | dl-fmt -f pbn > ours.pbn
	[ "$(grep -c '^\[DoubleDummyTricks' ours.pbn)" -eq 26 ]
	# this file gives no [ParContract]
	diff <(tags "$REAL/quicktricks-2020-02-17.pbn") <(tags ours.pbn | grep -v '^\[ParContract')
	diff <(table "$REAL/quicktricks-2020-02-17.pbn") <(table ours.pbn)
}

# bats test_tags=slow
@test "dl-dd on a club session in another program's dialect: its tables and par scores" {
	dl-read "$REAL/tabletalk-fr04jul25.pbn" | dl-dd -q > s.dd
	dl-fmt -f pbn < s.dd > ours.pbn
	# their rows run W N E S, strains S H D C and N for notrump
	tr -d '\r' < "$REAL/tabletalk-fr04jul25.pbn" | awk '/^\[Board /{ b = $2 }
	    /^[NESW] [SHDCN] [0-9]+$/ { s = $2 == "N" ? "NT" : $2; print b, $1, s, $3 }' |
	    sort > theirs
	awk '/^\[Board /{ b = $2 } /^[NESW] +(NT|[SHDC]) +[0-9]+$/ { print b, $1, $2, $3 }' \
	    ours.pbn | sort > mine
	[ "$(wc -l < mine)" -eq 720 ]
	diff theirs mine
	# [OptimumScore "NS 4S; 420"]: the score from North-South's side
	diff <(tr -d '\r' < "$REAL/tabletalk-fr04jul25.pbn" |
	    sed -n 's/^\[OptimumScore ".*; \(-\{0,1\}[0-9]*\)"\]$/\1/p') \
	    <(grep -v '^#' s.dd | cut -d' ' -f4)
}

# The deal of every hand in one suit: North the spades, East the hearts,
# South the diamonds, West the clubs.
SUITED=0000000000000111111111111122222222222223333333333333

@test "the deals+dd stream: its protocol line, #A:, and a record's tricks, par score and contracts" {
	printf '#P: dl/1 deals\n#I: Club night\n#B: 1-2\n1 %s\n2 %s\n' $SUITED $SUITED > s.tso
	run -0 --separate-stderr dl-dd < s.tso
	[ "${lines[0]}" = "#P: dl/1 deals+dd" ]
	[ "${lines[1]}" = "#I: Club night" ]
	[ "${lines[2]}" = "#B: 1-2" ]
	[[ "${lines[3]}" =~ ^"#A: dds "[0-9]+\.[0-9]+\.[0-9]+$ ]]
	# a declarer makes 13 tricks where his side holds the trumps, none
	# elsewhere: the leader runs his own suit.  Both sides make a grand
	# slam, and spades outrank hearts: 7S by North-South whoever deals
	[ "${lines[4]}" = "1 $SUITED 0d0d000d0d0d0d000d0d 1510 7S-NS" ]
	[ "${lines[5]}" = "2 $SUITED 0d0d000d0d0d0d000d0d 2210 7S-NS" ]
	[ "${#lines[@]}" -eq 6 ]
	[ -z "$stderr" ]
}

# bats test_tags=slow
@test "dl-fmt takes an analysed stream: PBN gets the tags, other formats the deals unchanged" {
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    --event 'Club night' 2> /dev/null | dl-stream -n 1-8 | dl-map > s.tso
	dl-dd -q -j 1 < s.tso > s.dd
	# the deals are those of the stream, the analysis after them
	diff <(grep -v '^#' s.tso) <(grep -v '^#' s.dd | cut -d' ' -f1-2)
	dl-fmt -f dup,lin,csv -p plain < s.tso
	dl-fmt -f dup,lin,csv -p analysed < s.dd
	cmp plain.dup analysed.dup
	cmp plain.lin analysed.lin
	cmp plain.csv analysed.csv
	dl-fmt -f pbn -p plain < s.tso
	dl-fmt -f pbn -p analysed < s.dd
	# PBN without analysis is Big Deal's, byte for byte; with it, 24 lines a board more
	diff plain.pbn analysed.pbn | grep -c '^>' | grep -qx 192
	# a .tso written from it holds deals only, without #A:
	dl-fmt -f tso < s.dd | cmp - <(dl-fmt -f tso < s.tso)
	# dl-map --reverse and dl-stat read it as deals
	dl-map --reverse < s.dd | cmp - <(dl-map --reverse < s.tso)
	# dl-read reads the PBN back to the same deals
	dl-read analysed.pbn | grep -v '^#' | diff - <(grep -v '^#' s.tso)
	# and the analysed stream itself, kept in a file, as deals
	dl-read s.dd | grep -v '^#' | diff - <(grep -v '^#' s.tso)
	dl-diff s.dd s.tso
}

@test "an analysed stream is input like any other: what does not add up is refused, naming the line" {
	printf '#P: dl/1 deals\n#B: 1-1\n1 %s\n' $SUITED | dl-dd -q > good.dd
	record=$(tail -1 good.dd)
	head -n -1 good.dd > head.dd
	check() {
		{ cat head.dd; printf '%s\n' "$1"; } > bad.dd
		run -1 --separate-stderr dl-fmt -f pbn -p out < bad.dd
		[ "$stderr" = "dl-fmt: line 4: $2" ]
		[ ! -e out.pbn ]
	}
	tricks=${record:55:20}
	check "1 $SUITED" "a deals+dd record without its analysis"
	[ "$record" = "1 $SUITED $tricks 1510 7S-NS" ]
	check "1 $SUITED e${tricks:1} 1510 7S-NS" "analysis: not 20 trick counts (lowercase hex digits 0 to d)"
	check "1 $SUITED $tricks 1520 7S-NS" "analysis: a par contract does not score the par score"
	check "1 $SUITED $tricks 1510 8S-NS" "analysis: a par contract is not LEVEL STRAIN (4S, 3N)"
	check "1 $SUITED $tricks 1510 7S-NE" "analysis: garbage after a par contract"
	check "1 $SUITED $tricks 1510 7S-X" "analysis: a par contract's declarers are not N, E, S, W, NS or EW"
	check "1 $SUITED $tricks 0 7S-NS" "analysis: a par contract does not score the par score"
	check "1 $SUITED $tricks 90 pass" "analysis: passed out, but a par score not 0"
	check "1 $SUITED $tricks 1510 7S-NS+1" "analysis: a par contract's result is out of range"
	check "1 $SUITED $tricks 01510 7S-NS" "analysis: the par score is not a number"
	check "1 $SUITED $tricks 1510 7S-NS,7H-EW" "analysis: a par contract does not score the par score"
	# a tool that reads plain deals says what it was given
	run -1 --separate-stderr dl-board -b 1 < good.dd
	[ "$stderr" = "dl-board: line 1: expected a deals stream, got a deals+dd stream" ]
	# and dl-dd does not analyse twice
	run -1 --separate-stderr dl-dd < good.dd
	[ "$stderr" = "dl-dd: line 1: expected a deals stream, got a deals+dd stream" ]
}

@test "dl-dd: usage, a bad -j, a bad stream" {
	run -2 --separate-stderr dl-dd extra
	[ "$stderr" = "usage: dl-dd [-qv] [-j threads] [-s count]" ]
	run -2 --separate-stderr dl-dd -j 0
	[ "$stderr" = "dl-dd: -j 0: not a number of threads from 1 to 1024" ]
	printf '#P: dl/1 deals\n#B: 1-2\n1 %s\n' $SUITED > short.tso
	run -1 --separate-stderr dl-dd -q < short.tso
	[ "$stderr" = "dl-dd: input ends after board 1, but its header announced boards 1-2" ]
	# no record of a stream that is not whole
	[ "$(printf '%s\n' "${lines[@]}" | grep -vc '^#')" -eq 0 ]
}

@test "dl-dd: a progress line on a terminal, none elsewhere; -v reports the time and the slowest batch" {
	printf '#P: dl/1 deals\n#B: 1-2\n1 %s\n2 %s\n' $SUITED $SUITED > two.tso
	# standard error a terminal (script(1) gives it one)
	script -qec "dl-dd < two.tso > out.dd" /dev/null > tty
	[[ "$(tr '\r' '\n' < tty | grep -m1 '^dl-dd')" =~ ^"dl-dd: 2/2 boards, "[0-9.]+" a second, 0 s left" ]]
	[ "$(grep -vc '^#' out.dd)" -eq 2 ]
	# not a terminal: nothing
	run -0 --separate-stderr dl-dd < two.tso
	[ -z "$stderr" ]
	run -0 --separate-stderr dl-dd -q -v < two.tso
	[[ "$stderr" =~ ^"dl-dd: 2 boards in "[0-9.]+" s; the slowest batch, boards 1-2, "[0-9.]+" s"$ ]]
	# -s: board by board, the same analysis, and the slowest named
	run -0 --separate-stderr dl-dd -q -s 1 < two.tso
	[[ "$stderr" =~ ^"dl-dd: the slowest boards: "[12]" ("[0-9.]+" s)"$ ]]
	printf '%s\n' "${lines[@]}" | cmp - out.dd
	run -2 --separate-stderr dl-dd -s 101 < two.tso
	[ "$stderr" = "dl-dd: -s 101: not a number of boards from 1 to 100" ]
}
