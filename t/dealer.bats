#!/usr/bin/env bats
# A board's own dealer and vulnerability (issue 25, class 4): the deals+dv
# stream (docs/protocol.md) from dl-read, through dl-board and dl-dd, into
# every format that has room for them, and back.

load helper

REAL=$VECTORS/real
# one deal, dealt by its number's dealer nowhere: board 1 dealt by South
# with East-West vulnerable, board 2 by East with North-South vulnerable
DEAL=0000111222333333300011122222223330001111111222333000
TURNED=1111222333000000011122233333330001112222222333000111

practice() {
	cat > practice.pbn <<-'EOF'
	[Event "Practice"]
	[Board "1"]
	[Dealer "S"]
	[Vulnerable "EW"]
	[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]

	[Event "Practice"]
	[Board "2"]
	[Dealer "E"]
	[Vulnerable "NS"]
	[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
	EOF
}

records() {
	grep -v '^#'
}

@test "boards that say their own dealer and vulnerability read into a deals+dv stream" {
	practice
	run -0 --separate-stderr dl-read practice.pbn
	[ "$output" = "#P: dl/1 deals+dv
#I: Practice
#B: 1-2
1 $DEAL S EW
2 $DEAL E NS" ]
	[ -z "$stderr" ]
	# board 1 dealt as its number says (board 2 is already): a plain deals
	# stream, as before
	sed -e 's/"S"/"N"/; s/"EW"/"None"/' practice.pbn > numbers.pbn
	run -0 dl-read numbers.pbn
	[ "${lines[0]}" = "#P: dl/1 deals" ]
	[ "${lines[3]}" = "1 $DEAL" ]
}

@test "a real file of three events, renumbered, keeps each board's dealer and vulnerability" {
	# BFC's boards 10, 1 and 14 (t/data/real/README.md) as boards 1-3
	run -0 --separate-stderr dl-read --renumber "$REAL/bfc-sample.pbn"
	[ "${lines[0]}" = "#P: dl/1 deals+dv" ]
	[ "$(records <<< "$output" | cut -d' ' -f1,3,4)" = "1 E All
2 N None
3 E None" ]
	dl-read --renumber "$REAL/bfc-sample.pbn" 2> /dev/null | dl-fmt -f pbn -p back
	run -0 grep -E '^\[(Board|Dealer|Vulnerable) ' back.pbn
	[ "$output" = '[Board "1"]
[Dealer "E"]
[Vulnerable "All"]
[Board "2"]
[Dealer "N"]
[Vulnerable "None"]
[Board "3"]
[Dealer "E"]
[Vulnerable "None"]' ]
}

@test "a round trip through every format with room keeps deal, dealer and vulnerability" {
	practice
	dl-read practice.pbn > want.tso
	dl-read --renumber "$REAL/bfc-sample.pbn" 2> /dev/null > bfc.tso
	for format in pbn lin csv tso; do
		for set in want bfc; do
			dl-fmt -f "$format" < $set.tso > back.$format
			run -0 --separate-stderr dl-read -f "$format" back.$format
			[ "$(records <<< "$output")" = "$(records < $set.tso)" ] ||
			    { echo "$format, $set: $output"; return 1; }
		done
	done
}

@test "a format without room for them is named, and shows the numbers'" {
	practice
	dl-read practice.pbn > s.tso
	run -0 --separate-stderr dl-fmt -f pbn,dup,bri,html -p set < s.tso
	[ "$stderr" = "dl-fmt: dup has no room for a board's own dealer and vulnerability: its boards show their numbers'
dl-fmt: bri has no room for a board's own dealer and vulnerability: its boards show their numbers'" ]
	run -0 grep -c 'Dealer South<br>E-W vulnerable' set.html
	[ "$output" = 1 ]
	run -0 grep -c 'Dealer East<br>N-S vulnerable' set.html
	[ "$output" = 1 ]
	# a stream without #B: (held in memory until its end) keeps them too
	grep -v '^#B' s.tso | dl-fmt -f pbn > held.pbn
	run -0 grep -E '^\[(Dealer|Vulnerable) ' held.pbn
	[ "$output" = '[Dealer "S"]
[Vulnerable "EW"]
[Dealer "E"]
[Vulnerable "NS"]' ]
}

@test "dl-board: a board keeps its own under another number, and turns them with its deal" {
	practice
	dl-read practice.pbn > s.tso
	run -0 dl-board --renumber 5 < s.tso
	[ "$(records <<< "$output")" = "5 $DEAL S EW
6 $DEAL E NS" ]
	# one seat clockwise: South's hand is West's, North-South's
	# vulnerability East-West's
	run -0 dl-board --rotate 1 < s.tso
	[ "$(records <<< "$output")" = "1 $TURNED W NS
2 $TURNED S EW" ]
	# the board's own dealer's hand to the new number's dealer (board 1:
	# North, two seats from South; board 2: East, already)
	run -0 dl-board --keep-dealer < s.tso
	[ "$(records <<< "$output" | cut -d' ' -f1,3,4)" = "1 N EW
2 E NS" ]
}

@test "dl-dd finds the par for the board's own dealer and vulnerability" {
	# FIN1's board 6 (East deals, East-West vulnerable): North-South make
	# 4H for 420 (its number's par, t/data/real/FIN1.tso analysed); with
	# North-South vulnerable instead, 620, and East-West, not vulnerable,
	# save in 5D doubled, two down: 300
	deal=$(sed -n 's/^6 //p' "$REAL/FIN1.tso")
	printf '#P: dl/1 deals+dv\n#B: 6-6\n6 %s E NS\n' "$deal" | dl-dd -q > dd.tso
	run -0 records < dd.tso
	[ "$output" = "6 $deal E NS 56a496739356a4967393 300 5Dx-EW-2" ]
	[ "$(head -1 dd.tso)" = "#P: dl/1 deals+dv+dd" ]
	dl-fmt -f pbn < dd.tso > dd.pbn
	run -0 grep -E '^\[(Dealer|Vulnerable|OptimumScore|ParContract) ' dd.pbn
	[ "$output" = '[Dealer "E"]
[Vulnerable "NS"]
[OptimumScore "EW -300"]
[ParContract "EW 5DX-2"]' ]
}

@test "a tool that would lose or misread them refuses the stream by name" {
	practice
	dl-read practice.pbn > s.tso
	fails dl-map < s.tso
	[ "$output" = "dl-map: line 1: expected a numbers stream, got a deals+dv stream" ]
	printf '#P: dl/1 deals+dv+dd\n' > dd.tso
	fails dl-board < dd.tso
	[ "$output" = "dl-board: line 1: expected a deals stream, got a deals+dv+dd stream" ]
}

@test "a deals+dv record without its dealer and vulnerability, or with others, is refused" {
	for record in "1 $DEAL" "1 $DEAL X None" "1 $DEAL N Both" "1 $DEAL N None x" "1 $DEAL N"; do
		printf '#P: dl/1 deals+dv\n%s\n' "$record" > bad.tso
		fails dl-fmt -f pbn < bad.tso
		case $record in
		"1 $DEAL") want="a deals+dv record without its dealer and vulnerability" ;;
		*x) want="board 1: more after the dealer and vulnerability" ;;
		*) want="board 1: not a dealer and vulnerability (N, E, S or W, then None, NS, EW or All)" ;;
		esac
		[ "$output" = "dl-fmt: line 2: $want" ] || { echo "$record: $output"; return 1; }
	done
}

@test "a plugin of ABI version 3, which cannot know a board's own dealer, is named too" {
	practice
	dl-read practice.pbn > s.tso
	mkdir mine
	sed 's/DL_PLUGIN_HEAD/3, sizeof(struct dl_plugin)/' \
	    "$BATS_TEST_DIRNAME/../share/examples/hcp.c" |
	    cc -shared -fPIC -I"$BATS_TEST_DIRNAME/../lib" -x c - -o mine/hcp.so
	run -0 --separate-stderr env DL_PLUGIN_PATH="$PWD/mine" dl-fmt -f hcp < s.tso
	[ "$stderr" = "dl-fmt: hcp has no room for a board's own dealer and vulnerability: its boards show their numbers'" ]
	[ "$output" = "# Practice, boards 1-2
1 N:10 E:10 S:10 W:10
2 N:10 E:10 S:10 W:10" ]
}
