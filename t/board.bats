#!/usr/bin/env bats
# dl-board: boards picked, renumbered and turned round the table.

load helper

# The session every test starts from: boards 1-8 of a known seed.
setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    --owner 'Board test' 2> /dev/null | dl-stream -n 8 | dl-map > s.tso
}

# headers: the stream's header lines, with #B: as given (none when empty)
headers() {
	grep '^#' s.tso | sed "s/^#B: .*/#B: $1/" | grep -v '^#B: $'
}

# record N: board N's line of s.tso
record() {
	grep "^$1 " s.tso
}

# deal N: board N's deal, 52 digits
deal() {
	record "$1" | cut -d' ' -f2
}

# turn N DEAL: DEAL with every hand N seats clockwise
turn() {
	case $1 in
	0) echo "$2" ;;
	1) tr 0123 1230 <<< "$2" ;;
	2) tr 0123 2301 <<< "$2" ;;
	3) tr 0123 3012 <<< "$2" ;;
	esac
}

@test "dl-board: the deals the seed makes, as this suite expects them" {
	[ "$(deal 1)" = 3000122203100101231120102323300103021121322313312323 ]
	[ "$(deal 8)" = 1120213202222011201000133013032120033313022313133210 ]
}

@test "dl-board: without options the stream goes through unchanged" {
	dl-board < s.tso | cmp - s.tso
	grep -v '^#' s.tso > plain.tso
	dl-board < plain.tso | cmp - plain.tso
}

@test "dl-board -b: the boards listed keep their numbers; #B: says which" {
	run -0 --separate-stderr dl-board -b 3-5 < s.tso
	diff <(printf '%s\n' "${lines[@]}") <(headers 3-5; record 3; record 4; record 5)
	[ -z "$stderr" ]
	# ranges that follow on make one run
	dl-board --boards 2,3-4,5-6 < s.tso | cmp - <(headers 2-6; for b in 2 3 4 5 6; do record $b; done)
	dl-board -b 8 < s.tso | cmp - <(headers 8-8; record 8)
	# a plain file gives records with their numbers, no headers
	grep -v '^#' s.tso | dl-board -b 7-8 | cmp - <(record 7; record 8)
	# a headed stream without #B: gets one
	grep -v '^#B:' s.tso | dl-board -b 2-3 | cmp - <(grep '^#' s.tso | grep -v '^#B:'; echo '#B: 2-3'; record 2; record 3)
}

@test "dl-board -b: a list with a gap needs --renumber, which numbers the boards from its value" {
	refuses 2 "dl-board: -b 1-2,5,7-8: board 5 after board 2 leaves a gap, which a deals stream cannot hold: give --renumber" \
	    dl-board -b 1-2,5,7-8 < s.tso
	[ -z "$output" ]
	run -0 dl-board -b 1-2,5,7-8 --renumber 1 < s.tso
	diff <(printf '%s\n' "${lines[@]}") <(headers 1-5
	    echo "1 $(deal 1)"; echo "2 $(deal 2)"; echo "3 $(deal 5)"; echo "4 $(deal 7)"; echo "5 $(deal 8)")
	# every board, from 17
	dl-board --renumber 17 < s.tso | cmp - <(headers 17-24; for b in $(seq 8); do echo "$((b + 16)) $(deal $b)"; done)
	grep -v '^#' s.tso | dl-board --renumber 17 -b 8 | cmp - <(echo "17 $(deal 8)")
}

@test "dl-board --rotate N: every hand N seats clockwise, board numbers kept" {
	# with 1, North's cards go to East: board 1's AS (West's, 3) to North
	run -0 dl-board --rotate 1 -b 1 < s.tso
	[ "${lines[-1]}" = "1 0111233310211212302231213030011210132232033020023030" ]
	for n in 0 1 2 3; do
		dl-board --rotate $n < s.tso | cmp - <(headers 1-8; for b in $(seq 8); do echo "$b $(turn $n "$(deal $b)")"; done)
	done
	# four quarter turns make the deals again
	dl-board --rotate 1 < s.tso | dl-board --rotate 3 | cmp - s.tso
	dl-board --rotate 2 < s.tso | dl-board --rotate 2 | cmp - s.tso
	# in PBN: board 1's North hand is West's before
	dl-fmt-pbn < s.tso > a.pbn
	dl-board --rotate 1 < s.tso | dl-fmt-pbn > b.pbn
	west=$(sed -n 's/^\[Deal "N:\(.*\)"\]$/\1/p' a.pbn | head -1 | cut -d' ' -f4)
	north=$(sed -n 's/^\[Deal "N:\(.*\)"\]$/\1/p' b.pbn | head -1 | cut -d' ' -f1)
	[ -n "$west" ] && [ "$west" = "$north" ]
}

@test "dl-board --keep-dealer: the hand that dealt still deals under the new number" {
	# 5 (North deals) as 1 (North): as it was; 7 (South) as 2 (East): 3 seats
	# clockwise, South's hand to East; 8 (West) as 3 (South): 3 seats
	run -0 dl-board -b 5,7-8 --renumber 1 --keep-dealer < s.tso
	diff <(printf '%s\n' "${lines[@]}") <(headers 1-3
	    echo "1 $(deal 5)"; echo "2 $(turn 3 "$(deal 7)")"; echo "3 $(turn 3 "$(deal 8)")")
	# numbers 4 apart, or kept: nothing turns
	dl-board --renumber 5 --keep-dealer < s.tso | cut -d' ' -f2 | cmp - <(dl-board --renumber 5 < s.tso | cut -d' ' -f2)
	dl-board --keep-dealer < s.tso | cmp - s.tso
	dl-board -b 2-3 --renumber 1 --keep-dealer < s.tso | cmp - <(headers 1-2
	    echo "1 $(turn 3 "$(deal 2)")"; echo "2 $(turn 3 "$(deal 3)")")
}

@test "dl-board: usage errors, status 2" {
	refuses 2 'dl-board: -b x: "x" is not a board or a range of boards (1 to 1000000000)' dl-board -b x < s.tso
	refuses 2 'dl-board: -b 1,,2: "" is not a board or a range of boards (1 to 1000000000)' dl-board -b 1,,2 < s.tso
	refuses 2 'dl-board: -b 0-3: "0-3" is not a board or a range of boards (1 to 1000000000)' dl-board -b 0-3 < s.tso
	refuses 2 'dl-board: -b 3-1: range 3-1 runs backwards' dl-board -b 3-1 < s.tso
	refuses 2 'dl-board: -b 5,3: board 3 after board 5: list the boards in increasing order, each once' dl-board -b 5,3 < s.tso
	refuses 2 'dl-board: -b 1-4,4: board 4 after board 4: list the boards in increasing order, each once' dl-board -b 1-4,4 < s.tso
	refuses 2 'dl-board: --renumber 0: not a board number (1 to 1000000000)' dl-board --renumber 0 < s.tso
	refuses 2 'dl-board: --rotate 4: not a number of seats (0 to 3)' dl-board --rotate 4 < s.tso
	refuses 2 'dl-board: --rotate -1: not a number of seats (0 to 3)' dl-board --rotate -1 < s.tso
	refuses 2 'dl-board: --rotate and --keep-dealer: one or the other' dl-board --rotate 1 --keep-dealer < s.tso
	refuses 2 'dl-board: --renumber 999999999: 8 boards would end past board 1000000000' dl-board --renumber 999999999 < s.tso
	[ -z "$output" ]
	grep -v '^#' s.tso > plain.tso
	run -2 --separate-stderr dl-board --renumber 999999999 < plain.tso
	[ "$stderr" = 'dl-board: --renumber 999999999: board 3 would go out past board 1000000000' ]
	[ "${#lines[@]}" -eq 2 ]
	run -2 --separate-stderr dl-board extra < s.tso
	[ "${stderr_lines[0]}" = "usage: dl-board [-b boards] [--renumber first]" ]
}

@test "dl-board: bad input is refused with its line, and a board of -b that is not there" {
	sed 9d s.tso > gap.tso
	refuses 1 'dl-board: line 9: board 4 out of order (expected board 3)' dl-board < gap.tso
	sed '8s/ 3/ 0/' s.tso > bad.tso
	refuses 1 'dl-board: line 8: hand N has 14 cards, not 13' dl-board < bad.tso
	sed '$d' s.tso > short.tso
	refuses 1 'dl-board: input ends after board 7, but its header announced boards 1-8' dl-board -b 1 < short.tso
	refuses 1 'dl-board: line 1: expected a deals stream, got a numbers stream' dl-board < <(dl-map -r < s.tso)
	# known from #B: before anything is written
	refuses 1 'dl-board: board 9 of -b is not in the input (it holds boards 1-8)' dl-board -b 7-9 < s.tso
	[ -z "$output" ]
	refuses 1 'dl-board: board 9 of -b is not in the input (it holds boards 1-8)' dl-board -b 1,9 --renumber 1 < s.tso
	dl-board -b 3-6 < s.tso > mid.tso
	refuses 1 'dl-board: board 2 of -b is not in the input (it holds boards 3-6)' dl-board -b 2-4 < mid.tso
	# a plain file: found at its end
	grep -v '^#' mid.tso > mid.plain
	refuses 1 'dl-board: board 7 of -b is not in the input (it holds boards 3-6)' dl-board -b 5-7 < mid.plain
	refuses 1 'dl-board: board 2 of -b is not in the input (it holds boards 3-6)' dl-board -b 2-4 < mid.plain
	refuses 1 'dl-board: no boards in the input' dl-board < <(grep '^#' s.tso)
}
