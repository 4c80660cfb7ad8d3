#!/usr/bin/env bats
# The LIN reader (plugins/lin.c, docs/formats-in.md): BBO's hand records
# and vugraph files, files of real events (t/data/real/README.md), and
# one-line refusals naming file and line.

load helper

REAL=$VECTORS/real

records() {
	grep -v '^#' "$@"
}

# The deal of every hand in one suit: North the spades, East the hearts,
# South the diamonds, West the clubs; as a record, and as LIN's hands.
SUITED=0000000000000111111111111122222222222223333333333333
S=DAKQJT98765432
W=CAKQJT98765432
N=SAKQJT98765432
E=HAKQJT98765432
# The same deal with North and South swapped.
SWAPPED=2222222222222111111111111100000000000003333333333333

@test "lin: dl's own LIN reads back to its deals and boards, by suffix and by content" {
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    --event 'Club night' 2> /dev/null | dl-stream -n 5-36 | dl-map > s.tso
	dl-fmt -f lin -p x < s.tso
	run -0 --separate-stderr dl-read x.lin
	[ "${lines[0]}" = "#P: dl/1 deals" ]
	[ "${lines[1]}" = "#B: 5-36" ]
	[ -z "$stderr" ]
	diff <(records s.tso) <(printf '%s\n' "${lines[@]}" | records)
	dl-read < x.lin | cmp - <(dl-read x.lin)
	cp x.lin plain
	dl-read-lin plain | cmp - <(dl-read x.lin)
	sed 's/$/\r/' x.lin > crlf.lin
	dl-read crlf.lin | cmp - <(dl-read x.lin)
	# all on one line, as a hand viewer's address holds it
	tr -d '\n' < x.lin > one.lin
	dl-read one.lin | cmp - <(dl-read x.lin)
}

@test "lin real files: BBO vugraph of a Spingold quarter-final, every board of both rooms once" {
	run -0 --separate-stderr dl-read "$REAL/spingold2016-qf4.lin"
	[ "${lines[0]}" = "#P: dl/1 deals" ]
	[ "${lines[1]}" = "#I: A 2016 Spingold QF" ]
	[ "${lines[2]}" = "#B: 16-30" ]
	diff <(printf '%s\n' "${lines[@]}" | records) "$REAL/spingold2016-qf4.tso"
	[ -z "$stderr" ]
	# by content too
	dl-read < "$REAL/spingold2016-qf4.lin" | cmp - <(dl-read "$REAL/spingold2016-qf4.lin")
}

@test "lin real files: a Polish vugraph in CR LF, BBO hand records, a myhands board with three hands" {
	run -0 --separate-stderr dl-read "$REAL/gp-poland-74800.lin"
	[ "${lines[1]}" = "#I: GP of Poland - A Zurek memorial" ]
	[ "${lines[2]}" = "#B: 1-8" ]
	diff <(printf '%s\n' "${lines[@]}" | records) "$REAL/gp-poland-74800.tso"
	[ -z "$stderr" ]
	run -0 --separate-stderr dl-read "$REAL/bbo-myhands.lin"
	diff <(printf '%s\n' "${lines[@]}" | records) "$REAL/bbo-myhands.tso"
	[ -z "$stderr" ]
	# boards 5 and 8: a gap, unless --renumber
	fails dl-read "$REAL/bbo-hands.lin"
	[ "$output" = "dl-read: $REAL/bbo-hands.lin:2: board 8 after board 5: boards 6 to 7 are missing (--renumber numbers the boards 1, 2, ... as they come)" ]
	dl-read "$REAL/bbo-hands.lin" --renumber | records | cut -d' ' -f2 | \
	    diff - <(cut -d' ' -f2 "$REAL/bbo-hands.tso")
	# a book of play problems in LIN is no deal file: one line says why
	fails dl-read "$REAL/zaobridge-book.lin"
	[ "$output" = "dl-read: $REAL/zaobridge-book.lin:2: not LIN: a key is two letters and a '|' (\"jas\")" ]
}

@test "lin: PbnToLin's % comment lines at the top are comments, by name, by content and on standard input; a % line after the first pair is refused" {
	f=$REAL/pbntolin-fourth-suit-forcing.lin
	run -0 --separate-stderr dl-read "$f"
	[ "${lines[0]}" = "#P: dl/1 deals" ]
	[ "${lines[1]}" = "#B: 1-10" ]
	diff <(printf '%s\n' "${lines[@]}" | records) "$REAL/pbntolin-fourth-suit-forcing.tso"
	[ -z "$stderr" ]
	cp "$f" plain
	dl-read plain | cmp - <(dl-read "$f")
	dl-read < "$f" | cmp - <(dl-read "$f")
	# after a byte order mark, in CR LF, a comment with no space after %
	md='qx|o1|md|3SA5H97642DAJCKQJ9,SQ7432H5DK72CT854,SKJ86HAQ3D9863CA3|rh||ah|Board 1|sv|0|pg||'
	printf '\xef\xbb\xbf%% LIN File created by PbnToLin\r\n%%\r\n%s\r\n' "$md" > bom.lin
	run -0 --separate-stderr dl-read bom.lin
	[ "${lines[1]}" = "#B: 1-1" ]
	[ "${lines[2]}" = "$(head -1 "$REAL/pbntolin-fourth-suit-forcing.tso")" ]
	[ -z "$stderr" ]
	# comments head a file, as PbnToLin writes them: after the first
	# pair "%" is no key, and the file is refused in one line
	printf '%% head\n%s\n%% late\n' "$md" > late.lin
	fails dl-read late.lin
	[ "$output" = "dl-read: late.lin:3: not LIN: a key is two letters and a '|' (\"%\")" ]
	printf '%% a comment and nothing else\n' > only.lin
	fails dl-read only.lin
	[ "$output" = "dl-read: no boards in only.lin" ]
}

@test "lin vugraph: vg| names the event, each board in both rooms is read once, pairs over lines" {
	cat > v.lin <<-EOF
	vg|Spring Teams,Final,I,1,2,Reds,0,Blues,0|
	rs|3NN=,3NN=,4SE-1,4SE=|
	pn|s1,w1,n1,e1,s2,w2,n2,e2|pg||
	qx|o1|st||md|3$S,$W,$N,|sv|o|mb|1S|mb|p|mb|3N|mb|p|mb|p|mb|p|pg||
	pc|DA|pc|D2|pc|D3|pc|D4|pg||
	qx|c1|st||md|3$S,$W,$N,$E|sv|o|
	mb|1S|pg||
	qx|o2|st||md|4$N,$W,$S,|
	sv|n|pg||
	QX|C2|
	ST||MD|4$N,
	$W,$S,|SV|N|PG||
	EOF
	run -0 --separate-stderr dl-read v.lin
	[ "${lines[1]}" = "#I: Spring Teams" ]
	[ "${lines[2]}" = "#B: 1-2" ]
	[ "${lines[3]}" = "1 $SUITED" ]
	[ "${lines[4]}" = "2 $SWAPPED" ]
	[ "${#lines[@]}" -eq 5 ]
	[ -z "$stderr" ]
	# the closed room with another deal
	sed -i '$d' v.lin
	printf '%s,%s,|SV|N|PG||\n' $S $W >> v.lin
	fails dl-read v.lin
	[ "$output" = "dl-read: v.lin:12: board 2: given again with another deal (--renumber numbers the boards 1, 2, ... as they come)" ]
}

@test "lin: BBO's hand records, a board a line with pn|, st|, ah|Board N| after md|" {
	{
		printf 'pn|Ann,Bob,Cat,Dan|st||md|3%s,%s,%s,|rh||ah|Board 1|sv|o|mb|1S|mb|p|pg||\n' $S $W $N
		printf 'pn|Ann,Bob,Cat,Dan|st||md|4%s,%s,%s,|rh||ah|Board 2|sv|n|mb|p|pg||\n' $N $W $S
		printf 'pn|Ann,Bob,Cat,Dan|st||md|1%s,%s,%s,|rh||ah|Board 3|sv|e|pg||\n' $S $W $N
	} > h.lin
	run -0 --separate-stderr dl-read h.lin
	[ "${lines[1]}" = "#B: 1-3" ]
	[ "${lines[2]}" = "1 $SUITED" ]
	[ "${lines[3]}" = "2 $SWAPPED" ]
	[ "${lines[4]}" = "3 $SUITED" ]
	[ -z "$stderr" ]
	# ah| and qx| given: ah| numbers the board; neither: it follows the one
	# before.  Here both are ambiguous (t/hostile-files.bats): qx| and ah|
	# disagree, and the second md| may be board 1's again
	printf 'qx|o7|md|3%s,%s,%s,|ah|Board 1|\nmd|4%s,%s,%s,|\n' $S $W $N $N $W $S > n.lin
	run -0 --separate-stderr dl-read n.lin
	[ "${lines[1]}" = "#B: 1-2" ]
	[ "${lines[3]}" = "2 $SWAPPED" ]
	[ "$stderr" = "dl-read: n.lin:2: board 1: qx| says board 7, ah| board 1: ah| is read
dl-read: n.lin:2: board 1: md| again, with no board number of its own: it is read as the next board" ]
	# boards numbered by neither follow each other, unambiguously
	printf 'md|3%s,%s,%s,|\nmd|4%s,%s,%s,|\n' $S $W $N $N $W $S > n.lin
	run -0 --separate-stderr dl-read n.lin
	[ "${lines[1]}" = "#B: 1-2" ]
	[ "${lines[3]}" = "2 $SWAPPED" ]
	[ -z "$stderr" ]
	# a board out of order is named on its own line, not the line it ends on
	printf 'qx|o1|md|3%s,%s,%s,|sv|o|pg||\nmb|p|pg||\nqx|o3|md|1%s,%s,%s,|sv|e|pg||\nmb|p|pg||\n' \
	    $S $W $N $S $W $N > gap.lin
	fails dl-read gap.lin
	[ "$output" = "dl-read: gap.lin:3: board 3 after board 1: board 2 is missing (--renumber numbers the boards 1, 2, ... as they come)" ]
}

@test "lin: sets numbered from 1 (robot practice) need --renumber, which reads every deal, the same board of another table once" {
	{
		printf 'pn|Ann,Bob,Cat,Dan|st||md|3%s,%s,%s,|rh||ah|Board 1|sv|o|pg||\n' $S $W $N
		printf 'pn|Ann,Bob,Cat,Dan|st||md|4%s,%s,%s,|rh||ah|Board 2|sv|n|pg||\n' $N $W $S
		printf 'pn|Ann,Bob,Cat,Dan|st||md|3%s,%s,%s,|rh||ah|Board 1|sv|o|pg||\n' $N $W $S
		printf 'pn|Eve,Bob,Cat,Dan|st||md|3%s,%s,%s,|rh||ah|Board 1|sv|o|pg||\n' $S $W $N
	} > sets.lin
	fails dl-read sets.lin
	[ "$output" = "dl-read: sets.lin:4: board 1: given again with another deal (--renumber numbers the boards 1, 2, ... as they come)" ]
	run -0 --separate-stderr dl-read --renumber sets.lin
	# the second set's board 1 is board 3, dealt by North at love as its
	# md|3 and sv|o say: a deals+dv stream
	[ "${lines[0]}" = "#P: dl/1 deals+dv" ]
	[ "${lines[1]}" = "#B: 1-3" ]
	[ "${lines[2]}" = "1 $SUITED N None" ]
	[ "${lines[3]}" = "2 $SWAPPED E NS" ]
	[ "${lines[4]}" = "3 $SWAPPED N None" ]
	[ "${#lines[@]}" -eq 5 ]
	[ -z "$stderr" ]
}

@test "lin md|: three hands or four, any case, 10 for the ten, blanks, the dealer digit" {
	lower_s=$(printf '%s' $S | tr 'A-Z' 'a-z')
	ten_w=$(printf '%s' $W | sed 's/T/10/')
	printf '\357\273\277md|3%s, %s ,S AKQJ T98 765 432,%s|\n' "$lower_s" "$ten_w" $E > odd.lin
	run -0 --separate-stderr dl-read odd.lin
	[ "${lines[2]}" = "1 $SUITED" ]
	[ -z "$stderr" ]
	# no dealer digit: the board's own; a digit that is no seat: left out
	printf 'md|%s,%s,%s,|\n' $S $W $N > nodealer.lin
	run -0 --separate-stderr dl-read nodealer.lin
	[ "${lines[2]}" = "1 $SUITED" ]
	[ -z "$stderr" ]
	printf 'md|7%s,%s,%s,|sv|z|\n' $S $W $N > bad.lin
	run -0 --separate-stderr dl-read bad.lin
	[ "${lines[2]}" = "1 $SUITED" ]
	[ "$stderr" = "dl-read: bad.lin:1: md|: dealer 7 is not 1 to 4: left out
dl-read: bad.lin:1: sv|z| is none of o, n, e, b: left out" ]
	# a dealer or vulnerability not the board number's: the board's own,
	# in a deals+dv stream (md|1 is South; sv|b both vulnerable)
	printf 'md|1%s,%s,%s,|sv|b|\n' $S $W $N > other.lin
	run -0 --separate-stderr dl-read other.lin
	[ "${lines[0]}" = "#P: dl/1 deals+dv" ]
	[ "${lines[2]}" = "1 $SUITED S All" ]
	[ -z "$stderr" ]
}

@test "lin: a hand not given or not of 13 cards is refused, or passed over with --partial: never guessed" {
	printf 'qx|o1|md|3%s,%s,%s,|\nqx|o2|md|4,%s,%s,%s|\n' $S $W $N $W $N $E > p.lin
	fails dl-read p.lin
	[ "$output" = "dl-read: p.lin:2: board 2: South's hand is not given (--partial passes such boards over)" ]
	run -0 --separate-stderr dl-read --partial p.lin
	[ "${lines[1]}" = "#B: 1-1" ]
	[ "$stderr" = "dl-read: p.lin:2: board 2: South's hand is not given: passed over" ]
	# East alone may be left out; North may not
	printf 'md|3%s,%s,,%s|\n' $S $W $E > north.lin
	fails dl-read north.lin
	[ "$output" = "dl-read: north.lin:1: md|: North's hand is not given (--partial passes such boards over)" ]
	printf 'ah|Board 4|md|3%s,%s,%s,%s|\n' $S $W ${N%2} $E > short.lin
	fails dl-read short.lin
	[ "$output" = "dl-read: short.lin:1: board 4: North holds 12 cards, not 13 (--partial passes such boards over)" ]
	printf 'md|3%s,%s,%s,%s|\n' $S $W $N ${E%2} > east.lin
	fails dl-read east.lin
	[ "$output" = "dl-read: east.lin:1: md|: East holds 12 cards, not 13 (--partial passes such boards over)" ]
}

@test "lin refused: one line naming the file, the line and what is wrong" {
	printf 'pn|a,b,c,d|\nmdx|1|\n' > f.lin
	fails dl-read f.lin
	[ "$output" = "dl-read: f.lin:2: not LIN: a key is two letters and a '|' (\"mdx\")" ]
	printf 'md|3%s,%s' $S $W > f.lin
	fails dl-read f.lin
	[ "$output" = "dl-read: f.lin:1: the file ends within md|'s value (no '|' after it)" ]
	printf 'md|3%s,%s,%s,|m' $S $W $N > f.lin
	fails dl-read f.lin
	[ "$output" = "dl-read: f.lin:1: the file ends within a key (\"m\")" ]
	printf 'md|3%s,%s,%s,%s,%s|' $S $W $N $E $E > f.lin
	fails dl-read f.lin
	[ "$output" = "dl-read: f.lin:1: md|: more than four hands" ]
	printf 'qx|o5|md|3%s,%s,%sX,|' $S $W $N > f.lin
	fails dl-read f.lin
	[ "$output" = "dl-read: f.lin:1: board 5: North: 'X' is neither a suit nor a rank" ]
	printf 'md|3AK%s,%s,%s,|' $S $W $N > f.lin
	fails dl-read f.lin
	[ "$output" = "dl-read: f.lin:1: md|: South: a rank before any suit letter" ]
	printf 'md|3%s,%sDA,%s,|' $S $W $N > f.lin
	fails dl-read f.lin
	[ "$output" = "dl-read: f.lin:1: md|: the AD twice" ]
	printf 'qx|o12345678901|md|3%s,%s,%s,|' $S $W $N > f.lin
	fails dl-read f.lin
	[ "$output" = "dl-read: f.lin:1: qx|12345678901|: too large a board number" ]
	{ printf 'vg|'; head -c 5000 /dev/zero | tr '\0' x; printf '|\n'; } > f.lin
	fails dl-read f.lin
	[ "$output" = "dl-read: f.lin:1: vg|: a value longer than 4096 bytes" ]
	# a long value of a pair that is not read is passed over
	{ printf 'nt|'; head -c 50000 /dev/zero | tr '\0' x; printf '|md|3%s,%s,%s,|\n' $S $W $N; } > long.lin
	run -0 dl-read long.lin
	[ "${lines[2]}" = "1 $SUITED" ]
}
