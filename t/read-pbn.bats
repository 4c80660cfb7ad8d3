#!/usr/bin/env bats
# The PBN reader (plugins/pbn.c, docs/formats-in.md): PBN 2.1's import
# format as other programs write it, files of real events
# (t/data/real/README.md), and one-line refusals naming file and line.

load helper

REAL=$VECTORS/real

# records FILE...: a stream's records, without its headers
records() {
	grep -v '^#' "$@"
}

# The deal of every hand in one suit: North the spades, East the hearts,
# South the diamonds, West the clubs; as a record, and its hands.
SUITED=0000000000000111111111111122222222222223333333333333
N_SPADES=AKQJT98765432...
E_HEARTS=.AKQJT98765432..
S_DIAMONDS=..AKQJT98765432.
W_CLUBS=...AKQJT98765432

# game BOARD DEAL: a game of an event, a board and a deal
game() {
	printf '[Event "Club night"]\n[Board "%s"]\n[Deal "%s"]\n\n' "$1" "$2"
}

@test "pbn: dl's own PBN reads back to its deals, event and boards, by suffix and by content" {
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    --event 'Club "night" \ 7' 2> /dev/null | dl-stream -n 9-24 | dl-map > s.tso
	dl-fmt -f pbn -p x < s.tso
	run -0 --separate-stderr dl-read x.pbn
	[ "${lines[0]}" = "#P: dl/1 deals" ]
	[ "${lines[1]}" = '#I: Club "night" \ 7' ]
	[ "${lines[2]}" = "#B: 9-24" ]
	[ -z "$stderr" ]
	diff <(records s.tso) <(printf '%s\n' "${lines[@]}" | records)
	dl-read < x.pbn | cmp - <(dl-read x.pbn)
	cp x.pbn plain
	dl-read-pbn plain | cmp - <(dl-read x.pbn)
	sed 's/$/\r/' x.pbn > crlf.pbn
	dl-read crlf.pbn | cmp - <(dl-read x.pbn)
}

@test "pbn real files: Big Deal's PBN of a Buenos Aires final gives the deals of its goedel file" {
	run -0 --separate-stderr dl-read "$REAL/FIN1.pbn"
	[ "${lines[1]}" = "#B: 1-16" ]
	diff <(printf '%s\n' "${lines[@]}" | records) "$REAL/FIN1.tso"
	[ -z "$stderr" ]
}

@test "pbn real files: BFC's PBN of three events, with comments, notes, sections and # inheritance" {
	fails dl-read "$REAL/bfc-sample.pbn"
	[ "$output" = "dl-read: $REAL/bfc-sample.pbn:39: board 1 after board 10: a board again, or out of order (--renumber numbers the boards 1, 2, ... as they come)" ]
	run -0 --separate-stderr dl-read --renumber "$REAL/bfc-sample.pbn"
	[ "${lines[1]}" = "#I: Cavendish Pairs Day 2" ]
	[ "${lines[2]}" = "#S: Rio Hotel, Las Vegas, USA" ]
	[ "${lines[3]}" = "#D: 2004.05.05" ]
	[ "${lines[4]}" = "#B: 1-3" ]
	# the [Deal]s from W, S and W, turned to North first by hand; boards
	# 10, 1 and 14 numbered 1-3 keep their own [Dealer] and [Vulnerable]
	[ "${lines[0]}" = "#P: dl/1 deals+dv" ]
	[ "${lines[5]}" = "1 2111020132230231122210113013210320030331003132232030 E All" ]
	[ "${lines[6]}" = "2 1210133210002230030232102132111231001212133232003033 N None" ]
	[ "${lines[7]}" = "3 3110030301002123321001212222312003323021302113331201 E None" ]
	[ "${#lines[@]}" -eq 8 ]
	[ "$stderr" = "dl-read: $REAL/bfc-sample.pbn:39: board 1: event \"14th Cap Gemini Ernst & Young World Top Pairs 2001\", not the first board's: #I: keeps the first" ]
	dl-read --renumber "$REAL/bfc-sample.pbn" 2> /dev/null | dl-fmt -f pbn -p back
	grep '^\[Deal ' back.pbn > deals
	cat > want <<-'EOF'
	[Deal "N:T82.62.T764.KQ42 KQJ7.QJ754.AJ.AT A954.AT98.Q8.875 63.K3.K9532.J963"]
	[Deal "N:J543.QJ94.65.764 AQT6.52.QJT742.K K72.A863.K93.AT8 98.KT7.A8.QJ9532"]
	[Deal "N:JT8643.87.983.Q3 KQ5.A964.J.AT952 2.KT532.AKT52.J4 A97.QJ.Q764.K876"]
	EOF
	diff want deals
}

@test "pbn real files: rpbridge.net's Spingold boards, each with a game of the other table without a deal" {
	run -0 --separate-stderr dl-read --renumber "$REAL/rpbridge-shared-deals.pbn"
	[ "${lines[1]}" = "#I: Spingold" ]
	[ "${lines[2]}" = "#D: 2014.07.??" ]
	[ "${lines[3]}" = "#B: 1-3" ]
	[ "${#lines[@]}" -eq 7 ]
	[ -z "$stderr" ]
	dl-read --renumber "$REAL/rpbridge-shared-deals.pbn" | dl-fmt -f pbn -p back
	grep '^\[Deal ' back.pbn > deals
	cat > want <<-'EOF'
	[Deal "N:6..A65.AKT987542 AQJ954.K.973.J63 87.AJT8652.KJ84. KT32.Q9743.QT2.Q"]
	[Deal "N:94.QJT865.QJT7.8 KQ852.K.AK63.A62 AJ763.732.952.T4 T.A94.84.KQJ9753"]
	[Deal "N:A6.95.QJT83.QJT5 K97.J64.AK52.K96 T83.KQT832.94.A3 QJ542.A7.76.8742"]
	EOF
	diff want deals
}

# The dates of other forms (lib/stream/date.c, docs/formats-in.md "Dates"):
# [Date] as written | #D: the stream gets, or - and the warning's reason.
DATES='2013.11.23|2013.11.23
2014.07.??|2014.07.??
2013-11-23|2013.11.23
2013-11-23 11:23|2013.11.23
2013-11-23T11:23:45.5+01:00|2013.11.23
2013-11-23T11:23Z|2013.11.23
2024/07/12|2024.07.12
2024.7.1|2024.07.01
10.05.2023|2023.05.10
1.5.2023 14:30|2023.05.01
3/30/2021|2021.03.30
30/3/2021|2021.03.30
30-03-2021|2021.03.30
5/5/2021|2021.05.05
3/4/2021|-could be 2021.04.03 or 2021.03.04
03-04-2021|-could be 2021.04.03 or 2021.03.04
20240712|2024.07.12
13022003|2003.02.13
01022003|-could be 2003.02.01 or 2003.01.02
991231|1999.12.31
220207|-could be 2022.02.07 or 2007.02.22
100101|-could be 2010.01.01, 2001.01.10 or 2001.10.01
231123|2023.11.23
2024-02-30|-no such day
2024-02-29|2024.02.29
1900-02-29|-no such day
31/31/2021|-no such day
2013-11-23 25:00|-not YYYY.MM.DD (PBN'"'"'s form, ? for a part not known)
10.05.23|-not YYYY.MM.DD (PBN'"'"'s form, ? for a part not known)
23 Nov 2013|2013.11.23
1-Dec-2023|2023.12.01
01.jan.2024|2024.01.01
Nov 23, 2013|2013.11.23
September 9 2001 18:00|2001.09.09
Sept 9, 2001|2001.09.09
31 Feb 2020|-no such day
23 Novem 2013|-not YYYY.MM.DD (PBN'"'"'s form, ? for a part not known)
23 Nov 13|-not YYYY.MM.DD (PBN'"'"'s form, ? for a part not known)
23-Nov 2013|-not YYYY.MM.DD (PBN'"'"'s form, ? for a part not known)
123456|-not YYYY.MM.DD (PBN'"'"'s form, ? for a part not known)'

# bats test_tags=slow
@test "pbn: a [Date] of another form is made PBN's when its day is certain, else a warning and no #D:, never another day" {
	local date want
	while IFS='|' read -r date want; do
		printf '[Date "%s"]\n[Board "1"]\n[Deal "N:%s %s %s %s"]\n' "$date" \
		    "$N_SPADES" "$E_HEARTS" "$S_DIAMONDS" "$W_CLUBS" > d.pbn
		run -0 --separate-stderr dl-read d.pbn
		if [ "${want:0:1}" = - ]; then
			[ "${lines[1]}" = "#B: 1-1" ] || { echo "$date: ${lines[1]}"; return 1; }
			[ "$stderr" = "dl-read: d.pbn:1: date \"$date\": ${want:1}: the stream gets no #D:" ] ||
			    { echo "$date: $stderr"; return 1; }
		else
			[ "${lines[1]}" = "#D: $want" ] || { echo "$date: ${lines[1]}"; return 1; }
			[ -z "$stderr" ] || { echo "$date: $stderr"; return 1; }
		fi
	done <<< "$DATES"
	# and the stream's #D: goes on into the files written from it
	printf '[Date "2013-11-23 11:23"]\n[Board "1"]\n[Deal "N:%s %s %s %s"]\n' \
	    "$N_SPADES" "$E_HEARTS" "$S_DIAMONDS" "$W_CLUBS" > d.pbn
	dl-read d.pbn | dl-fmt -f pbn -p back
	grep -qx '\[Date "2013.11.23"\]' back.pbn
}

# stream FILE.tso RANGE [HEADER...]: the stream dl-read writes of the deals
# of FILE.tso: #P:, the headers given, #B: RANGE, the records
stream() {
	local tso=$1 range=$2
	shift 2
	printf '#P: dl/1 deals\n'
	[ $# -eq 0 ] || printf '%s\n' "$@"
	printf '#B: %s\n' "$range"
	cat "$tso"
}

# stream_dv FILE.tso RANGE "D V,D V,..." [HEADER...]: the same as a deals+dv
# stream, each record with the dealer and vulnerability its file gives it
# (docs/protocol.md), in order
stream_dv() {
	local tso=$1 range=$2 dvs=$3
	shift 3
	printf '#P: dl/1 deals+dv\n'
	[ $# -eq 0 ] || printf '%s\n' "$@"
	printf '#B: %s\n' "$range"
	paste -d' ' "$tso" <(tr ',' '\n' <<< "$dvs")
}

@test "pbn real files: Bridge Composer's title game, every tag \"\", is no board: passed over, and the deals after it read" {
	# issue 25, class 1: [Deal ""] (or "?") says nothing, so the game is
	# no board; it was refused, --partial or not
	f=$REAL/bridgecomposer-title-game.pbn
	run -0 --separate-stderr dl-read "$f"
	# every board dealt by South at love: a deals+dv stream keeps them
	diff <(printf '%s\n' "${lines[@]}") <(stream_dv "$REAL/bridgecomposer-title-game.tso" 1-5 \
	    "S None,S None,S None,S None,S None")
	[ "$stderr" = "dl-read: $f:46: a game: [Deal \"\"] gives no deal: passed over" ]
	dl-read --partial "$f" 2> /dev/null | cmp - <(dl-read "$f" 2> /dev/null)
	# "?" the same, in a numbered game; templates at the end of a file
	{ game 1 "N:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"; game 2 '?'; game 2 "W:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"
	  game '' ''; printf '[Board "?"]\n[Deal "?"]\n'; } > t.pbn
	run -0 --separate-stderr dl-read t.pbn
	[ "${lines[1]}" = "#I: Club night" ]
	[ "${lines[2]}" = "#B: 1-2" ]
	[ "${lines[3]}" = "1 $SUITED" ]
	[ "${lines[4]}" = "2 3333333333333000000000000011111111111112222222222222" ]
	[ "${#lines[@]}" -eq 5 ]
	[ "$stderr" = 'dl-read: t.pbn:7: board 2: [Deal "?"] gives no deal: passed over
dl-read: t.pbn:15: a game: [Deal ""] gives no deal: passed over
dl-read: t.pbn:18: a game: [Deal "?"] gives no deal: passed over' ]
	# nothing but games without deals: no boards, as a file of none
	game '' '' > none.pbn
	run -1 --separate-stderr dl-read none.pbn
	[ "$stderr" = 'dl-read: none.pbn:3: a game: [Deal ""] gives no deal: passed over
dl-read: no boards in none.pbn' ]
}

@test "pbn: the dotted placeholder [Deal \"N:... ... ... ...\"] is no deal: passed over with a warning as \"?\" is, never a broken deal" {
	# Bridge Solver Online and Bridge Composer's teaching boards write four
	# empty hands for a game with no deal; any first seat, blanks between
	{ game 1 'N:... ... ... ...'; game 1 "N:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"
	  game 2 "W:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"; game '' $'E:...  ...\t... ... '; } > t.pbn
	run -0 --separate-stderr dl-read t.pbn
	[ "${lines[2]}" = "#B: 1-2" ]
	[ "${lines[3]}" = "1 $SUITED" ]
	[ "${lines[4]}" = "2 3333333333333000000000000011111111111112222222222222" ]
	[ "${#lines[@]}" -eq 5 ]
	[ "$stderr" = 'dl-read: t.pbn:3: board 1: [Deal "N:... ... ... ..."] gives no deal: passed over
dl-read: t.pbn:15: a game: [Deal "E:...  ...\x09... ... "] gives no deal: passed over' ]
	dl-read --partial t.pbn 2> /dev/null | cmp - <(dl-read t.pbn 2> /dev/null)
	# hands of three dots that are not all empty, or not four of them,
	# are a deal that is not whole, refused as before
	game 1 "N:... ... ... $W_CLUBS" > some.pbn
	fails dl-read some.pbn
	[ "$output" = "dl-read: some.pbn:3: board 1: the AS is in no hand (--partial passes such boards over)" ]
	game 1 'N:... ... ...' > three.pbn
	fails dl-read three.pbn
	[ "$output" = "dl-read: three.pbn:3: board 1: 3 hands, not 4" ]
	# a file of placeholders alone has no boards
	game 1 'S:... ... ... ...' > none.pbn
	run -1 --separate-stderr dl-read none.pbn
	[ "$stderr" = 'dl-read: none.pbn:3: board 1: [Deal "S:... ... ... ..."] gives no deal: passed over
dl-read: no boards in none.pbn' ]
}

@test "pbn real files: sets numbered from 1 and a match's other room turned a seat: --renumber reads every deal, the same board at another table once" {
	# issue 25, class 2: Jack's saved deals, three sets of boards 1-16 (the
	# first two of each here); a BEN v WBridge5 match whose closed room
	# gives each board's deal turned one seat
	f=$REAL/jack-sets-from-1.pbn
	run -1 --separate-stderr dl-read "$f"
	[ "$stderr" = "dl-read: $f:71: board 1: given again with another deal (--renumber numbers the boards 1, 2, ... as they come)" ]
	[ -z "$output" ]
	run -0 --separate-stderr dl-read --renumber "$f"
	# boards 1 and 2 of each set keep their own dealers and vulnerabilities
	diff <(printf '%s\n' "${lines[@]}") <(stream_dv "$REAL/jack-sets-from-1.tso" 1-6 \
	    "N None,E NS,N None,E NS,N None,E NS" '#I: Jack Saved Deal' '#D: 2024.03.13')
	[ -z "$stderr" ]
	f=$REAL/ben-wbridge5-match.pbn
	run -1 --separate-stderr dl-read "$f"
	[ "$stderr" = "dl-read: $f:77: board 1: given again with another deal (--renumber numbers the boards 1, 2, ... as they come)" ]
	run -0 --separate-stderr dl-read --renumber "$f"
	# the closed room's deal turned a seat, its dealer with it
	diff <(printf '%s\n' "${lines[@]}") <(stream_dv "$REAL/ben-wbridge5-match.tso" 1-4 \
	    "N None,E None,E NS,S EW" '#I: Random Deal' '#D: 2023.12.01')
	# BEN's date, "1-Dec-2023", names its month
	[ "$stderr" = "dl-read: $f:78: board 2: event \"Random\", not the first board's: #I: keeps the first" ]
	# a results file of two sets: each board's other tables, even after
	# the other set's board of the same number, are the same board, read once
	set1="N:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"
	set2="E:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"
	TURNED=1111111111111222222222222233333333333330000000000000
	{ game 1 "$set1"; game 1 "S:$S_DIAMONDS $W_CLUBS $N_SPADES $E_HEARTS"; game 2 "$set1"
	  game 1 "$set2"; game 1 "$set2"; game 1 "$set1"; game 2 "$set2"; game 2 "$set1"; } > two.pbn
	run -0 --separate-stderr dl-read --renumber two.pbn
	[ "${lines[2]}" = "#B: 1-4" ]
	[ "${lines[3]}" = "1 $SUITED" ]
	[ "${lines[4]}" = "2 $SUITED" ]
	[ "${lines[5]}" = "3 $TURNED" ]
	[ "${lines[6]}" = "4 $TURNED" ]
	[ "${#lines[@]}" -eq 7 ]
	[ -z "$stderr" ]
	# the same board at another table with another dealer: ambiguous still
	printf '[Board "1"]\n[Dealer "%s"]\n[Deal "%s"]\n\n' N "$set1" N "$set2" E "$set1" > dealer.pbn
	run -0 --separate-stderr dl-read --renumber dealer.pbn
	[ "${lines[1]}" = "#B: 1-2" ]
	[ "$stderr" = "dl-read: dealer.pbn:12: board 1: given again with another dealer or vulnerability: the first is read" ]
}

# bats test_tags=slow
@test "pbn --renumber: the last 65536 boards are remembered, each label with its deals; further back a copy is a board again" {
	# 65537 deals numbered 1-16 over and over, then the first again: the
	# first is still among the last 65536 boards after 65535 others, and
	# forgotten after 65536
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 2> /dev/null |
	    dl-stream -n 65537 | dl-map | dl-fmt -f pbn -p all
	awk '/^\[Board / { n++; printf "[Board \"%d\"]\n", (n - 1) % 16 + 1; next } { print }' all.pbn > sets.pbn
	again=$(printf '[Board "1"]\n%s\n' "$(grep -m 1 '^\[Deal ' all.pbn)")
	awk 'BEGIN { RS = ""; ORS = "\n\n" } NR <= 65536' sets.pbn > in.pbn
	printf '%s\n' "$again" >> in.pbn
	run -0 dl-read --renumber in.pbn
	[ "${lines[1]}" = "#B: 1-65536" ]
	{ cat sets.pbn; printf '\n%s\n' "$again"; } > out.pbn
	run -0 dl-read --renumber out.pbn
	[ "${lines[1]}" = "#B: 1-65538" ]
	[ "${lines[65539]#65538 }" = "${lines[2]#1 }" ]
}

@test "pbn real files: board labels that are no numbers (\"4-1\") are read as labels under --renumber, named by the refusal without it" {
	# issue 25, class 3: teaching material numbering a deal's variants
	# "4-1"; here the first five games of a Bridge Composer file, whose
	# "4-1" repeats board 4's deal with another auction
	f=$REAL/precision-board-labels.pbn
	run -1 --separate-stderr dl-read "$f"
	[ "$stderr" = "dl-read: $f:147: [Board \"4-1\"]: not a board number (1 and up; --renumber numbers the boards 1, 2, ... as they come)" ]
	[ -z "$output" ]
	run -0 --separate-stderr dl-read --renumber "$f"
	# every board dealt by North, as the file says
	diff <(printf '%s\n' "${lines[@]}") <(stream_dv "$REAL/precision-board-labels.tso" 1-5 \
	    "N None,N NS,N EW,N All,N All" '#I: Precision 1C Opener Leveled by Responses x100' \
	    '#D: 2023.03.20')
	[ -z "$stderr" ]
	# a label is the same board again only with the same deal; any label
	deal="N:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"
	{ game 1-1 "$deal"; game ' 1-1 ' "$deal"; game 1-2 "$deal"; game x "W:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"
	  game 0 "$deal"; game 99999999999 "$deal"; game 2000000000 "$deal"; } > labels.pbn
	run -0 --separate-stderr dl-read --renumber labels.pbn
	[ "${lines[2]}" = "#B: 1-6" ]
	[ "${lines[6]}" = "4 $SUITED" ]
	[ "${#lines[@]}" -eq 9 ]
	[ -z "$stderr" ]
	refuses 1 'dl-read: labels.pbn:4: [Board "1-1"]: not a board number (1 and up; --renumber numbers the boards 1, 2, ... as they come)' \
	    dl-read labels.pbn
	game 99999999999 "$deal" > big.pbn
	refuses 1 'dl-read: big.pbn:4: [Board "99999999999"]: too large a board number (--renumber numbers the boards 1, 2, ... as they come)' \
	    dl-read big.pbn
	game 2000000000 "$deal" > big.pbn
	refuses 1 'dl-read: big.pbn:1: board 2000000000: board numbers go up to 1000000000 (--renumber numbers the boards 1, 2, ... as they come)' \
	    dl-read big.pbn
}

@test "pbn import format: escapes, comments, tags several to a line or over lines, any case and order" {
	{
		printf '\xef\xbb\xbf%% PBN 2.1\n%%Content-type: text/x-pbn; charset=ISO-8859-1\n'
		printf '; a comment [Board "9"]\n{ a comment\n\n[Deal "N:- - - -"] } [Event "Club night"]\n'
		printf '[Board "1"] [Dealer "N"][Vulnerable\n  "None"\n] ; [Board "2"]\n'
		printf '[Deal "E:%s %s %s %s"]\n' "$E_HEARTS" "$S_DIAMONDS" "$W_CLUBS" "$N_SPADES"
		printf '[Auction "N"]\n1S Pass 2S =1= Pass\n[Note "1:[Deal \\"x\\"] in a note"]\n'
		printf '[Play "E"]\nHA - - -\n*\n[Deal "W:%s - - -"]\n' "$W_CLUBS"
		printf '[OptimumResultTable "Declarer;Denomination\\\\2R;Result\\\\2R"]\nN NT 0\n'
		printf '\t \n'
		printf '[board "3"]\n[Deal "n:2345678jtkqa9...  .kqjt98765432a..\t..5432AKQJT9876. ...23456789TJQKA"]\n'
		printf '[Board "2"]\n'
	} > x.pbn
	run -0 --separate-stderr dl-read x.pbn
	[ "${lines[1]}" = "#I: Club night" ]
	[ "${lines[2]}" = "#B: 1-2" ]
	[ "${lines[3]}" = "1 $SUITED" ]
	[ "${lines[4]}" = "2 $SUITED" ]
	[ "${#lines[@]}" -eq 5 ]
	# a tag given twice counts once, the first time; a second [Deal] that
	# says otherwise (an end position after the play) is a warning, since
	# another program may read it (t/hostile-files.bats)
	[ "$stderr" = "dl-read: x.pbn:17: board 1: two different [Deal] tags: the first is read" ]
}

@test "pbn inheritance: \"#\" takes the last game's value, \"##\" sets it for the games after" {
	{
		printf '[Event "##Club night"]\n[Site "##Hall"]\n\n'
		printf '[Board "1"]\n[Deal "N:%s %s %s %s"]\n\n' "$N_SPADES" "$E_HEARTS" "$S_DIAMONDS" "$W_CLUBS"
		printf '[Event "Other night"]\n[Board "#"]\n[Deal "N:%s %s %s %s"]\n\n' "$N_SPADES" "$E_HEARTS" "$S_DIAMONDS" "$W_CLUBS"
		printf '[Board "2"]\n[Deal "N:%s %s %s %s"]\n' "$N_SPADES" "$E_HEARTS" "$S_DIAMONDS" "$W_CLUBS"
	} > x.pbn
	run -0 --separate-stderr dl-read x.pbn
	[ "${lines[1]}" = "#I: Club night" ]
	[ "${lines[2]}" = "#S: Hall" ]
	[ "${lines[3]}" = "#B: 1-2" ]
	[ "${#lines[@]}" -eq 6 ]
	# the second game is board 1 again ("#"), passed over; board 2 has
	# the event given last, ## having made it every game's since, and is
	# named at its own game's first line, not the passed-over game's
	[ "${lines[4]}" = "1 $SUITED" ]
	[ "$stderr" = 'dl-read: x.pbn:11: board 2: event "Other night", not the first board'"'"'s: #I: keeps the first' ]
	printf '[Event "#"]\n[Board "1"]\n[Deal "N:%s %s %s %s"]\n' "$N_SPADES" "$E_HEARTS" "$S_DIAMONDS" "$W_CLUBS" > first.pbn
	run -0 dl-read first.pbn
	[ "${lines[1]}" = "#B: 1-1" ]
}

@test "pbn: a board again with the same deal (another table's result) is read once; another deal is refused" {
	{ game 1 "N:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"; game 2 "W:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"
	  game 1 "S:$S_DIAMONDS $W_CLUBS $N_SPADES $E_HEARTS"; game 2 "W:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"; } > x.pbn
	run -0 --separate-stderr dl-read x.pbn
	[ "${lines[2]}" = "#B: 1-2" ]
	[ "${lines[3]}" = "1 $SUITED" ]
	[ "${lines[4]}" = "2 3333333333333000000000000011111111111112222222222222" ]
	[ "${#lines[@]}" -eq 5 ]
	{ game 1 "N:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"; game 1 "E:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"; } > two.pbn
	fails dl-read two.pbn
	[ "$output" = "dl-read: two.pbn:8: board 1: given again with another deal (--renumber numbers the boards 1, 2, ... as they come)" ]
}

@test "pbn: a hand not shown (\"-\") or not of 13 cards is refused, or passed over with --partial: never guessed" {
	game 1 "N:$N_SPADES - $S_DIAMONDS $W_CLUBS" > one.pbn
	fails dl-read one.pbn
	[ "$output" = "dl-read: one.pbn:3: board 1: East's hand is not shown (\"-\") (--partial passes such boards over)" ]
	{ game 1 "N:- - $S_DIAMONDS -"; game 2 "N:$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"; } > two.pbn
	fails dl-read two.pbn
	[ "$output" = "dl-read: two.pbn:3: board 1: North's hand is not shown (\"-\") (--partial passes such boards over)" ]
	run -0 --separate-stderr dl-read --partial two.pbn
	[ "$stderr" = "dl-read: two.pbn:3: board 1: North's hand is not shown (\"-\"): passed over" ]
	[ "${lines[2]}" = "#B: 2-2" ]
	[ "${lines[3]}" = "2 $SUITED" ]
	[ "${#lines[@]}" -eq 4 ]
	game 1 "N:AKQJT9876543... $E_HEARTS $S_DIAMONDS $W_CLUBS" > end.pbn
	fails dl-read end.pbn
	[ "$output" = "dl-read: end.pbn:3: board 1: the 2S is in no hand (--partial passes such boards over)" ]
	game 1 "N:AKQJT9876543... 2$E_HEARTS $S_DIAMONDS $W_CLUBS" > short.pbn
	fails dl-read short.pbn
	[ "$output" = "dl-read: short.pbn:3: board 1: North holds 12 cards, not 13 (--partial passes such boards over)" ]
}

@test "pbn: odd values read as meant: spaces around them, a board 01, names in any case" {
	{
		printf '[Board "01"]\n[Dealer " n"]\n[Vulnerable "None "]\n'
		printf '[Deal "N:%s %s %s %s"]\n' "$N_SPADES" "$E_HEARTS" "$S_DIAMONDS" "$W_CLUBS"
		printf '\n[Board " 2 "]\n[Dealer "E"]\n[Vulnerable "ns"]\n'
		printf '[Deal "N:%s %s %s %s"]\n' "$N_SPADES" "$E_HEARTS" "$S_DIAMONDS" "$W_CLUBS"
	} > x.pbn
	run -0 --separate-stderr dl-read x.pbn
	[ "${lines[1]}" = "#B: 1-2" ]
	[ "${#lines[@]}" -eq 4 ]
	[ -z "$stderr" ]
}

@test "pbn: dealer and vulnerability other than the PBN names are left out with a warning" {
	{
		printf '[Board "1"]\n[Dealer "North"]\n[Vulnerable "nobody"]\n'
		printf '[Deal "N:%s %s %s %s"]\n' "$N_SPADES" "$E_HEARTS" "$S_DIAMONDS" "$W_CLUBS"
		printf '\n[Board "2"]\n[Dealer "e"]\n[Vulnerable "ns"]\n'
		printf '[Deal "N:%s %s %s %s"]\n' "$N_SPADES" "$E_HEARTS" "$S_DIAMONDS" "$W_CLUBS"
	} > x.pbn
	run -0 --separate-stderr dl-read x.pbn
	[ "${#lines[@]}" -eq 4 ]
	[ "${stderr_lines[0]}" = 'dl-read: x.pbn:5: [Dealer "North"] is not N, E, S or W: left out' ]
	[ "${stderr_lines[1]}" = 'dl-read: x.pbn:5: [Vulnerable "nobody"] is none of None, NS, EW, All: left out' ]
	[ "${#stderr_lines[@]}" -eq 2 ]
}

@test "pbn refused: one line naming the file, the line and what is wrong" {
	deal="$N_SPADES $E_HEARTS $S_DIAMONDS $W_CLUBS"
	game 1 "N:${deal/A/X}" > x.pbn
	fails dl-read x.pbn
	[ "$output" = "dl-read: x.pbn:3: board 1: North: 'X' is not a rank" ]
	game 1 "N:${deal/K/A}" > x.pbn
	fails dl-read x.pbn
	[ "$output" = "dl-read: x.pbn:3: board 1: the AS twice" ]
	game 1 "N:A.$deal" > x.pbn
	fails dl-read x.pbn
	[ "$output" = "dl-read: x.pbn:3: board 1: North has more than four suits" ]
	game 1 "N:$N_SPADES $E_HEARTS $S_DIAMONDS" > x.pbn
	fails dl-read x.pbn
	[ "$output" = "dl-read: x.pbn:3: board 1: 3 hands, not 4" ]
	game 1 "N:$deal $W_CLUBS" > x.pbn
	fails dl-read x.pbn
	[ "$output" = "dl-read: x.pbn:3: board 1: more than four hands" ]
	game 1 "$deal" > x.pbn
	fails dl-read x.pbn
	[ "$output" = 'dl-read: x.pbn:3: board 1: not a deal ("N:" and four hands)' ]
	game 1 "N:AKQJT98765432.. $E_HEARTS $S_DIAMONDS $W_CLUBS" > x.pbn
	fails dl-read x.pbn
	[ "$output" = "dl-read: x.pbn:3: board 1: North has 3 suits, not 4 (three dots)" ]
	game x "N:$deal" > x.pbn
	fails dl-read x.pbn
	[ "$output" = 'dl-read: x.pbn:4: [Board "x"]: not a board number (--renumber numbers the boards 1, 2, ... as they come)' ]
	game 0 "N:$deal" > x.pbn
	fails dl-read x.pbn
	[ "$output" = 'dl-read: x.pbn:4: [Board "0"]: not a board number (1 and up; --renumber numbers the boards 1, 2, ... as they come)' ]
	printf '[Board "1"]\n[Deal "N:%s' "$deal" > x.pbn
	fails dl-read x.pbn
	[ "$output" = "dl-read: x.pbn:2: [Deal: its value's closing quote is not on the line" ]
	printf '[Board "1" [Deal "N:%s"]\n' "$deal" > x.pbn
	fails dl-read x.pbn
	[ "$output" = "dl-read: x.pbn:1: [Board \"...\": no ']' after the value" ]
	printf '[Board\n\n"1"]\n' > x.pbn
	fails dl-read x.pbn
	[ "$output" = "dl-read: x.pbn:2: a tag pair cut by an empty line" ]
	printf '[Board "1"]\n[Deal "N:%s"]\n{ a comment\n' "$deal" > x.pbn
	fails dl-read x.pbn
	[ "$output" = "dl-read: x.pbn:3: a '{' comment never closed" ]
	printf '[ "1"]\n' > x.pbn
	fails dl-read -f pbn x.pbn
	[ "$output" = "dl-read: x.pbn:1: a '[' not followed by a tag name" ]
	printf '[Board 1]\n' > x.pbn
	fails dl-read -f pbn x.pbn
	[ "$output" = "dl-read: x.pbn:1: [Board: no value in quotes" ]
	printf '%% PBN 2.1\n[Event "no deals"]\n' > x.pbn
	fails dl-read x.pbn
	[ "$output" = "dl-read: no boards in x.pbn" ]
}
