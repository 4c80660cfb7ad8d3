#!/usr/bin/env bats
# The readers of dl's own formats (docs/formats-in.md): every format dl
# writes reads back to the deals it was written from, Big Deal's own files
# read to Big Deal's deals, files of other programs (t/data/real), and what
# is refused, in one line naming the file and where.

load helper

# Every format dl-fmt writes and dl-read reads, as the plugins say, but
# pbn and lin (t/read-pbn.bats, t/read-lin.bats): a reader added is read
# back here without being named.
READ_FORMATS=$(LC_ALL=C join <(dl-read --list | awk 'NR > 1 { print $1 }' | LC_ALL=C sort) \
    <(dl-fmt --list | awk 'NR > 1 { print $1 }' | LC_ALL=C sort) | grep -vx 'pbn\|lin' | tr '\n' ' ')
# Those whose files number their boards; the others count from 1 (a
# property of the format: a reader added whose files number boards goes
# here, or its read-back of a range differs).
NUMBERED="csv dlm dlmblind cds tso"

# suffix_of NAME: the suffix of format NAME's files, without the dot
suffix_of() {
	dl-read --list | awk -v name="$1" 'NR > 1 && $1 == name { sub(/^\./, "", $2); print $2 }'
}

numbered() {
	[[ " $NUMBERED " == *" $1 "* ]]
}

# records FILE...: a stream's records, without its headers
records() {
	grep -v '^#' "$@"
}

# session HEX RANGE [EVENT]: the deals stream of a session
session() {
	dl-seed --not-for-play --no-history --hex "$1" ${3:+--event "$3"} 2> /dev/null |
	    dl-stream -n "$2" | dl-map
}

random_hex() {
	od -An -tx1 -N20 /dev/urandom | tr -d ' \n'
}

# round_trip FORMAT STREAM: writes STREAM in FORMAT and reads it back, by
# name and by content; the records are the stream's, numbered as the file
# can number them
round_trip() {
	local name=$1 stream=$2 file
	file=x.$(suffix_of "$name")
	rm -f "$file"
	dl-fmt -f "$name" -p x < "$stream"
	dl-read -f "$name" "$file" > back
	if numbered "$name"; then
		records "$stream" > want
	else
		records "$stream" | cut -d' ' -f2 | awk '{ print NR " " $0 }' > want
	fi
	diff want <(records back) || { echo "$name: $stream read back differs" >&2; return 1; }
	# by content alone: the suffix hidden, standard input
	cp "$file" nosuffix
	dl-read nosuffix | cmp - back || { echo "$name: not told by content" >&2; return 1; }
	dl-read < "$file" | cmp - back
}

# bats test_tags=slow
@test "read back: Big Deal's own files of every format give Big Deal's deals (v1-v4)" {
	[[ " $READ_FORMATS " == *" dupblind "* ]]
	for v in v1 v2 v3 v4; do
		for name in $READ_FORMATS; do
			# Big Deal's formats, and tso from the vector's plain file
			if [ "$name" = tso ]; then
				file=$BIGDEAL/$v/deals.tso
			elif [[ " $BIGDEAL_FORMATS " == *" $name "* ]]; then
				file=$(golden "$v" "$name")
			else
				continue
			fi
			dl-read -f "$name" "$file" > back
			diff <(records back | cut -d' ' -f2) "$BIGDEAL/$v/deals.tso" ||
			    { echo "$v $name: other deals" >&2; return 1; }
			if numbered "$name" && [ "$name" != tso ]; then
				diff <(records back | cut -d' ' -f1) <(cut -d' ' -f1 "$BIGDEAL/$v/uids.txt")
			else
				diff <(records back | cut -d' ' -f1) <(seq "$(wc -l < "$BIGDEAL/$v/deals.tso")")
			fi
			# found by suffix and content, without -f
			dl-read "$file" | cmp - back || { echo "$v $name: not detected" >&2; return 1; }
		done
	done
}

# bats test_tags=slow
@test "read back: every format, sessions from board 1, random seeds and lengths" {
	for i in $(seq 12); do
		hex=$(random_hex)
		high=$((RANDOM % 99 + 1))
		echo "session $hex 1-$high" >&2
		session "$hex" "1-$high" > s.tso
		for name in $READ_FORMATS; do
			round_trip "$name" s.tso
		done
	done
}

# bats test_tags=slow
@test "read back: formats that number boards keep any range; the others give the deals in order" {
	for i in $(seq 12); do
		hex=$(random_hex)
		low=$((RANDOM % 90 + 2))
		high=$((low + RANDOM % (100 - low)))
		echo "session $hex $low-$high" >&2
		session "$hex" "$low-$high" > s.tso
		for name in $READ_FORMATS; do
			# borel's hands start at the dealer's, known from the number
			[ "$name" = borel ] && [ $((low % 4)) -ne 1 ] && continue
			round_trip "$name" s.tso
		done
	done
}

# bats test_tags=slow
@test "read back: --first LOW gives every format its range back, Borel's hands turned by LOW's dealer too" {
	for i in $(seq 8); do
		hex=$(random_hex)
		low=$((RANDOM % 90 + 2))
		high=$((low + RANDOM % (100 - low)))
		echo "session $hex $low-$high" >&2
		session "$hex" "$low-$high" > s.tso
		for name in $READ_FORMATS; do
			file=x.$(suffix_of "$name")
			rm -f "$file"
			dl-fmt -f "$name" -p x < s.tso
			run -0 --separate-stderr dl-read --first "$low" -f "$name" "$file"
			[ -z "$stderr" ] || { echo "$name: $stderr" >&2; return 1; }
			[ "${lines[1]}" = "#B: $low-$high" ] || { echo "$name: ${lines[1]}" >&2; return 1; }
			diff <(records s.tso) <(printf '%s\n' "${lines[@]}" | records) ||
			    { echo "$name: other deals or numbers" >&2; return 1; }
		done
	done
}

@test "--first: where the boards a file does not number start; a file that numbers them keeps them, said once" {
	session 0123456789abcdef0123456789abcdef01234567 11-26 > s.tso
	dl-fmt -f dup,pbn,ber -p x < s.tso
	# Big Deal's DUP says lowest board 1 whatever the run
	cut -c147-156 x.dup | head -c 10 | grep -qx 'YN1  0 16 '
	run -0 dl-read x.dup
	[ "${lines[1]}" = "#B: 1-16" ]
	run -0 dl-read --first 11 x.dup
	[ "${lines[1]}" = "#B: 11-26" ]
	diff <(records s.tso) <(printf '%s\n' "${lines[@]}" | records)
	# a file that numbers its boards keeps them, whatever --first says
	run -0 --separate-stderr dl-read --first 5 x.pbn
	[ "${lines[1]}" = "#B: 11-26" ]
	[ "$stderr" = "dl-read: x.pbn:1: board 11 first: the file numbers its boards, --first 5 is not used" ]
	run -0 --separate-stderr dl-read --first 11 x.pbn
	[ -z "$stderr" ]
	# and so does a DUP whose trailer gives a lowest board other than 1
	cp x.dup y.dup
	for b in $(seq 0 15); do garble y.dup $((156 * b + 146)) 'YN11 0 16 '; done
	run -0 --separate-stderr dl-read --first 31 y.dup
	[ "${lines[1]}" = "#B: 11-26" ]
	[ "$stderr" = "dl-read: y.dup: byte 0: board 11 first: the file numbers its boards, --first 31 is not used" ]
	# --renumber numbers every board from --first
	run -0 dl-read --renumber --first 101 x.pbn
	[ "${lines[1]}" = "#B: 101-116" ]
	diff <(records s.tso | cut -d' ' -f2) <(printf '%s\n' "${lines[@]}" | records | cut -d' ' -f2)
	fails dl-read --renumber --first 999999999 x.pbn
	[ "$output" = "dl-read: x.pbn:37: board 1000000001: board numbers go up to 1000000000" ]
	# several files: the boards a file does not number follow the files before
	session 0123456789abcdef0123456789abcdef01234567 1-10 | dl-fmt -f ber -p one
	session 0123456789abcdef0123456789abcdef01234567 11-20 | dl-fmt -f ber -p two
	run -0 dl-read one.ber two.ber
	[ "${lines[1]}" = "#B: 1-20" ]
	diff <(records s.tso | head -10 | cut -d' ' -f2) <(printf '%s\n' "${lines[@]}" | records | tail -10 | cut -d' ' -f2)
	run -0 dl-read --first 31 one.ber two.ber
	[ "${lines[1]}" = "#B: 31-50" ]
	run -0 dl-read x.pbn x.ber
	[ "${lines[1]}" = "#B: 11-42" ]
	# what is not a board number
	for bad in 0 x 1000000001 -3 ''; do
		fails dl-read --first "$bad" x.ber
		[ "$output" = "dl-read: --first $bad: not a board number (1 to 1000000000)" ]
		[ "$status" -eq 2 ]
	done
	fails dl-read --first 999999990 x.ber
	[ "$output" = "dl-read: x.ber: byte 572: board 1000000001: more boards than dl numbers" ]
}

@test "read back: the event comes back from tso and dlm, not from a Headline naming the generator" {
	session 0123456789abcdef0123456789abcdef01234567 1-4 'Club night' > s.tso
	for name in tso dlm dlmblind; do
		rm -f x.*
		dl-fmt -f "$name" -p x < s.tso
		run -0 dl-read -f "$name" x.*
		[ "${lines[1]}" = "#I: Club night" ]
	done
	session 0123456789abcdef0123456789abcdef01234567 1-4 > s.tso
	dl-fmt -f dlm -p y < s.tso
	grep -q '^Headline=Generated by dl ' y.dlm
	run -0 dl-read y.dlm
	[ "${lines[1]}" = "#B: 1-4" ]
}

@test "read back: dup and dupblind, dlm and dlmblind are told apart, and each refuses the other's" {
	cp "$BIGDEAL/v1/dupblind.dup" blind.dup
	cmp <(dl-read blind.dup) <(dl-read -f dupblind blind.dup)
	fails dl-read -f dup blind.dup
	[ "$output" = "dl-read: blind.dup: byte 156: board 1: no DGE part: a dupblind file (-f dupblind)" ]
	# past board 1 the files are the same: either reads them
	cmp "$BIGDEAL/v2/dup.dup" "$BIGDEAL/v2/dupblind.dup"
	cmp <(dl-read -f dup "$BIGDEAL/v2/dup.dup") <(dl-read -f dupblind "$BIGDEAL/v2/dup.dup")
	cp "$BIGDEAL/v1/dlmblind.dlm" sealed.dlm
	cmp <(dl-read sealed.dlm) <(dl-read -f dlmblind sealed.dlm)
	fails dl-read -f dlm sealed.dlm
	[ "$output" = "dl-read: sealed.dlm:12: not Status=Show: a sealed file (-f dlmblind)" ]
	fails dl-read -f dlmblind "$BIGDEAL/v1/dlm.dlm"
	[ "$output" = "dl-read: $BIGDEAL/v1/dlm.dlm:12: not Status=Sealed: a shown file (-f dlm)" ]
}

@test "read back: cds past board 255 (its board byte wraps, as the drop-ins write it)" {
	printf '[BigDeal]\nowner=\n' > .bigdealrc
	h=$(param v1 random)
	dl-bigdealx -h "$h" -n 250-260 -p x -f cds > /dev/null
	run -0 dl-read x.cds
	[ "${lines[1]}" = "#B: 250-260" ]
	diff <(records <(dl-read x.cds) | cut -d' ' -f2) \
	    <(dl-seed -x "$h" -w '' | dl-stream -n 1-11 | dl-map | records | cut -d' ' -f2)
	# a file that starts past 255 says so only with --first: its first byte
	# is the board modulo 256
	tail -c +$((6 * 14 + 1)) x.cds > past.cds
	fails dl-read past.cds
	[ "$output" = "dl-read: past.cds: byte 14: board 0: board numbers start at 1" ]
	run -0 dl-read --first 256 past.cds
	[ "${lines[1]}" = "#B: 256-260" ]
	diff <(printf '%s\n' "${lines[@]}" | records) <(records <(dl-read x.cds) | tail -5)
	run -0 dl-read --first 512 past.cds
	[ "${lines[1]}" = "#B: 512-516" ]
}

@test "read back: goedel's ends, 0 and D - 1; plain digits; D and more refused" {
	printf '%38s\n%38s\n' 0 53,644,737,765,488,792,839,237,439,999 > ends.goe
	run -0 dl-read ends.goe
	[ "${lines[2]}" = "1 0000000000000111111111111122222222222223333333333333" ]
	[ "${lines[3]}" = "2 3333333333333222222222222211111111111110000000000000" ]
	printf '52668322089192425261258014335\n' > plain.goe
	run -0 dl-read -f goedel plain.goe
	[ "${lines[2]}" = "1 $(head -1 "$BIGDEAL/v1/deals.tso")" ]
	printf '53644737765488792839237440000\n' > d.goe
	fails dl-read -f goedel d.goe
	[ "$output" = "dl-read: d.goe:1: board 1: a deal number past the last deal (53,644,737,765,488,792,839,237,439,999)" ]
	printf '%031d\n' 1 > long.goe
	fails dl-read -f goedel long.goe
	[ "$output" = "dl-read: long.goe:1: board 1: a deal number past the last deal (53,644,737,765,488,792,839,237,439,999)" ]
}

# cut FORMAT BYTES: Big Deal's v1 file of FORMAT cut to BYTES bytes, as cut.SUFFIX
cut_golden() {
	local file
	file=$(golden v1 "$1") || return 1
	head -c "$2" "$file" > "cut.${file##*.}"
	echo "cut.${file##*.}"
}

@test "refused: files cut short, one line naming the file and where" {
	fails dl-read -f ber "$(cut_golden ber 300)"
	[ "$output" = "dl-read: cut.ber: byte 300: board 6: cut short: 40 of its 52 bytes" ]
	fails dl-read -f bri "$(cut_golden bri 300)"
	[ "$output" = "dl-read: cut.bri: byte 300: board 3: cut short: 44 of its 128 bytes" ]
	fails dl-read -f dge "$(cut_golden dge 300)"
	[ "$output" = "dl-read: cut.dge: byte 300: board 3: cut short: 44 of its 128 bytes" ]
	fails dl-read -f dup "$(cut_golden dup 300)"
	[ "$output" = "dl-read: cut.dup: byte 300: board 2: cut short: 144 of its 156 bytes" ]
	fails dl-read -f dupblind "$(cut_golden dupblind 300)"
	[ "$output" = "dl-read: cut.dup: byte 300: board 2: cut short: 144 of its 156 bytes" ]
	fails dl-read -f cds "$(cut_golden cds 300)"
	[ "$output" = "dl-read: cut.cds: byte 300: board 22: cut short: 6 of its 14 bytes" ]
	fails dl-read -f kops "$(cut_golden kops 300)"
	[ "$output" = "dl-read: cut.rzd: byte 300: board 23: cut short: 1 of its 13 bytes" ]
	# a whole board less: only kops' count tells
	fails dl-read -f kops "$(cut_golden kops $((13 + 31 * 13)))"
	[ "$output" = "dl-read: cut.rzd: byte 416: the header announces 32 boards, the file holds 31" ]
	fails dl-read -f kops "$(cut_golden kops 5)"
	[ "$output" = "dl-read: cut.rzd: byte 5: not a KOPS file: no 13-byte header (a count and 11 spaces)" ]
	fails dl-read -f csv "$(cut_golden csv 300)"
	[ "$output" = "dl-read: cut.csv:3: board 3: field 13: no closing quote" ]
	fails dl-read -f borel "$(cut_golden borel 300)"
	[ "$output" = "dl-read: cut.bhg:7: board 6: 34 bytes, not 52 letters" ]
	fails dl-read -f goedel "$(cut_golden goedel 300)"
	[ "$output" = "dl-read: cut.goe:8: board 8: not a deal number as Big Deal writes it (38 bytes, digits grouped by three)" ]
	fails dl-read -f dlm "$(cut_golden dlm 330)"
	[ "$output" = "dl-read: cut.dlm:16: board 3: not 26 letters and 3 digits" ]
	head -15 "$BIGDEAL/v2/dlm.dlm" > cut.dlm
	fails dl-read -f dlm cut.dlm
	[ "$output" = "dl-read: cut.dlm:15: boards 17-32 missing (To board=32)" ]
	head -40 "$BIGDEAL/v1/dlmblind.dlm" > cut.dlm
	fails dl-read -f dlmblind cut.dlm
	[ "$output" = "dl-read: cut.dlm:40: boards 16-32 missing (To board=32)" ]
	session 0123456789abcdef0123456789abcdef01234567 5-9 | dl-fmt -f tso -p s
	head -9 s.tso > cut.tso
	fails dl-read cut.tso
	[ "$output" = "dl-read: cut.tso:9: boards 8-9 missing: #B: 5-9" ]
}

# garble FILE OFFSET BYTES: FILE with BYTES (printf escapes) written at OFFSET
garble() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# bats test_tags=slow
@test "refused: garbled boards, one line naming the file, the board and what is wrong" {
	cp "$BIGDEAL/v1/ber.ber" x.ber && garble x.ber 60 5
	fails dl-read x.ber
	[ "$output" = "dl-read: x.ber: byte 104: board 2: byte 9: not a seat 1-4" ]
	cp "$BIGDEAL/v1/bri.bri" x.bri && garble x.bri 128 53
	fails dl-read -f bri x.bri
	[ "$output" = "dl-read: x.bri: byte 256: board 2: BRI part: North's card 1 is not a number 01-52" ]
	cp "$BIGDEAL/v1/bri.bri" x.bri && garble x.bri 2 "$(head -c 2 x.bri)"
	fails dl-read -f bri x.bri
	[ "$output" = "dl-read: x.bri: byte 128: board 1: the 2S twice" ]
	cp "$BIGDEAL/v1/dge.dge" x.dge && garble x.dge 0 '\003'
	fails dl-read -f dge x.dge
	[ "$output" = "dl-read: x.dge: byte 128: board 1: DGE part: no spade symbol for North" ]
	cp "$BIGDEAL/v1/dge.dge" x.dge && garble x.dge 100 x
	fails dl-read -f dge x.dge
	[ "$output" = "dl-read: x.dge: byte 128: board 1: byte 0x78 after the DGE part" ]
	# N's spade 2 as a queen in the DGE part
	cp "$BIGDEAL/v1/dup.dup" x.dup && garble x.dup $((78 + 1)) Q
	fails dl-read x.dup
	[ "$output" = "dl-read: x.dup: byte 156: board 1: the QS twice" ]
	# the two parts of a DUP board disagree: N's 2S and E's AS swapped in
	# the BRI part alone
	cp "$BIGDEAL/v1/dup.dup" x.dup && garble x.dup 0 01 && garble x.dup 26 13
	fails dl-read x.dup
	[ "$output" = "dl-read: x.dup: byte 156: board 1: the AS is North's in the BRI part, East's in the DGE part" ]
	cp "$BIGDEAL/v1/dup.dup" x.dup && garble x.dup $((156 + 146)) X
	fails dl-read -f dup x.dup
	[ "$output" = "dl-read: x.dup: byte 312: board 2: not a DUP trailer (YN1  0 32 , say)" ]
	cp "$BIGDEAL/v1/csv.csv" x.csv && sed -i '2s/^"/"X/' x.csv
	fails dl-read x.csv
	[ "$output" = "dl-read: x.csv:2: board 2: North: 'X' is not a rank" ]
	sed '2s/,"2",/,"0",/' "$BIGDEAL/v1/csv.csv" > x.csv
	fails dl-read x.csv
	[ "$output" = 'dl-read: x.csv:2: the board after board 1: "0" is not a board number' ]
	sed '2s/"E\/NS"/"E\/XY"/' "$BIGDEAL/v1/csv.csv" > x.csv
	fails dl-read x.csv
	[ "$output" = 'dl-read: x.csv:2: board 2: "E/XY" is not dealer/vulnerability (N/-, E/NS, ...)' ]
	# board 2's second card (H, the 7S) in place of its first
	sed '3s/^\(.\)\(.\)/\2\2/' "$BIGDEAL/v1/borel.bhg" > x.bhg
	fails dl-read x.bhg
	[ "$output" = "dl-read: x.bhg:3: board 2: the 7S twice" ]
	sed '3s/^./1/' "$BIGDEAL/v1/borel.bhg" > x.bhg
	fails dl-read -f borel x.bhg
	[ "$output" = "dl-read: x.bhg:3: board 2: byte 1 is not a card letter" ]
	sed '12s/=g/=h/' "$BIGDEAL/v1/dlm.dlm" > x.dlm
	fails dl-read x.dlm
	[[ "$output" =~ ^"dl-read: x.dlm:12: board 1: check number "[0-9]{3}", not "[0-9]{3}$ ]]
	sed '12s/=./=z/' "$BIGDEAL/v1/dlm.dlm" > x.dlm
	fails dl-read x.dlm
	[ "$output" = "dl-read: x.dlm:12: board 1: 'z' is not a letter a-p" ]
	sed '14d' "$BIGDEAL/v1/dlm.dlm" > x.dlm
	fails dl-read x.dlm
	[ "$output" = "dl-read: x.dlm:15: board 2: missing (From board=1)" ]
	sed 's/^Crypto key=0/Crypto key=7/' "$BIGDEAL/v1/dlm.dlm" > x.dlm
	fails dl-read x.dlm
	[ "$output" = "dl-read: x.dlm:12: Crypto key=7: encrypted boards are not read" ]
	sed 's/^To board=32/To board=100/' "$BIGDEAL/v1/dlm.dlm" > x.dlm
	fails dl-read x.dlm
	[ "$output" = "dl-read: x.dlm:12: no From board= and To board= of a run within 1-99" ]
	sed '/^Status=/d' "$BIGDEAL/v1/dlm.dlm" > x.dlm
	fails dl-read x.dlm
	[ "$output" = "dl-read: x.dlm:11: no Status=Show (nor Status=Sealed)" ]
	sed '1s/.*/[Other]/' "$BIGDEAL/v1/dlm.dlm" > x.dlm
	fails dl-read -f dlm x.dlm
	[ "$output" = "dl-read: x.dlm:1: not a DLM file: no [Document] first" ]
	{ echo '#P: dl/1 numbers'; head -1 "$BIGDEAL/v1/deals.tso"; } > x.tso
	fails dl-read x.tso
	[ "$output" = "dl-read: x.tso:1: #P: dl/1 numbers: not a deals stream (#P: dl/1 deals)" ]
	{ head -1 "$BIGDEAL/v1/deals.tso"; echo '#I: late'; } > x.tso
	fails dl-read x.tso
	[ "$output" = "dl-read: x.tso:2: a header line after the first board" ]
	sed '2s/3/4/' "$BIGDEAL/v1/deals.tso" > x.tso
	fails dl-read x.tso
	[ "$output" = "dl-read: x.tso:2: board 2: '4' is not a seat 0-3" ]
	printf 'x\n' > x.goe
	fails dl-read -f goedel x.goe
	[ "$output" = "dl-read: x.goe:1: board 1: 'x' in a deal number" ]
}

@test "refused: hands not of 13 cards, unless --partial passes the board over with a warning" {
	# ber: board 2's first card given to North instead of its holder
	cp "$BIGDEAL/v1/ber.ber" x.ber
	first=$(head -c 53 x.ber | tail -c 1)
	[ "$first" != 1 ]
	garble x.ber 52 1
	fails dl-read x.ber
	[[ "$output" =~ ^"dl-read: x.ber: byte 104: board 2: North holds 14 cards, not 13 (--partial passes such boards over)"$ ]]
	run -0 --separate-stderr dl-read --partial --renumber x.ber
	[[ "$stderr" =~ ^"dl-read: x.ber: byte 104: board 2: North holds 14 cards, not 13: passed over"$ ]]
	[ "${lines[1]}" = "#B: 1-31" ]
	diff <(records <(printf '%s\n' "${lines[@]}") | cut -d' ' -f2) <(sed 2d "$BIGDEAL/v1/deals.tso")
	# csv: a card left out of a suit
	sed '3s/^"[^"]/"/' "$BIGDEAL/v1/csv.csv" > x.csv
	fails dl-read x.csv
	[[ "$output" =~ ^"dl-read: x.csv:3: board 3: the "..?" is in no hand (--partial passes such boards over)"$ ]]
	run -0 --separate-stderr dl-read --partial --renumber x.csv
	[[ "$stderr" =~ "board 3: the "..?" is in no hand: passed over"$ ]]
	[ "${#lines[@]}" -eq 33 ]
	# bri: a card of South's as two spaces goes to West
	cp "$BIGDEAL/v1/bri.bri" x.bri && garble x.bri 76 '  '
	fails dl-read x.bri
	[ "$output" = "dl-read: x.bri: byte 128: board 1: South holds 12 cards, not 13 (--partial passes such boards over)" ]
	# tso, kops and cds: a seat with 14 cards
	sed '1s/^./3/' "$BIGDEAL/v1/deals.tso" > x.tso
	fails dl-read x.tso
	[ "$output" = "dl-read: x.tso:1: board 1: East holds 12 cards, not 13 (--partial passes such boards over)" ]
	run -0 dl-read --partial --renumber x.tso
	cp "$BIGDEAL/v1/kops.rzd" x.rzd && garble x.rzd 13 '\377'
	run -1 dl-read x.rzd
	cp "$BIGDEAL/v1/cds.cds" x.cds && garble x.cds 1 '\377'
	run -1 dl-read x.cds
}

@test "refused: a file of none of these formats, and files no sniff is sure of" {
	printf 'hello\n' > what
	fails dl-read what
	[ "$output" = "dl-read: what: cannot tell its format (give -f; dl-read --list shows the formats it reads)" ]
	head -c 1000 /dev/zero > zeros
	fails dl-read zeros
	[ "$output" = "dl-read: zeros: cannot tell its format (give -f; dl-read --list shows the formats it reads)" ]
	# a ber record's digits shifted by one: no longer 13 of each
	tr 1234 2341 < "$BIGDEAL/v1/ber.ber" > shifted
	dl-read shifted > /dev/null
	printf '1111' > short
	fails dl-read short
	[ "$status" -eq 1 ]
}

@test "--list: every reader of this branch, dupblind and dlmblind too" {
	run -0 dl-read --list
	for name in $BIGDEAL_FORMATS tso; do
		printf '%s\n' "${lines[@]}" | grep -q "^$name " || { echo "no $name" >&2; return 1; }
	done
}

# Files other programs wrote (t/data/real/README.md)
REAL=$VECTORS/real

@test "real files: Big Deal's goedel file of a Buenos Aires final gives its PBN's deals" {
	run -0 dl-read "$REAL/FIN1.goe"
	diff <(printf '%s\n' "${lines[@]}" | records) "$REAL/FIN1.tso"
	# FIN1.tso is FIN1.pbn's [Deal] tags
	diff <(sed -n 's/^\[Deal "N:\(.*\)"\]$/\1/p' "$REAL/FIN1.pbn" | wc -l) <(wc -l < "$REAL/FIN1.tso")
}

@test "real files: a DLM file of Duplimate's own software (Property lines, [STARTUP], fillers with deals)" {
	run -0 --separate-stderr dl-read "$REAL/duplimate-1.dlm"
	[ -z "$stderr" ]
	[ "${lines[0]}" = "#P: dl/1 deals" ]
	[ "${lines[1]}" = "#B: 1-24" ]
	[ "${#lines[@]}" -eq 26 ]
	# written again as dlm, boards 1-24 are Duplimate's own lines
	printf '%s\n' "${lines[@]}" | dl-fmt -f dlm -p again
	diff <(grep '^Board \(0[1-9]\|1[0-9]\|2[0-4]\)=' again.dlm) \
	    <(grep '^Board \(0[1-9]\|1[0-9]\|2[0-4]\)=' "$REAL/duplimate-1.dlm")
}

@test "real files: deal-convert's DUP, its trailer after board 1 only, gives the deals of its PBN" {
	run -0 --separate-stderr dl-read "$REAL/dealconvert-test.dup"
	[ -z "$stderr" ]
	[ "${lines[1]}" = "#B: 1-16" ]
	diff <(printf '%s\n' "${lines[@]}" | records) "$REAL/dealconvert-test.tso"
	# by content too, and strictly (dl-sqd verify, dl-diff): nothing said two ways
	cp "$REAL/dealconvert-test.dup" nosuffix
	dl-read nosuffix | cmp - <(dl-read "$REAL/dealconvert-test.dup")
	run -0 dl-diff "$REAL/dealconvert-test.dup" "$REAL/dealconvert-test.tso"
}

@test "read back: a DUP trailer after the first board only, the others blank, as deal-convert writes it" {
	dl-fmt -f dup -p x < "$BIGDEAL/v2/deals.tso"
	# boards 11-26: the first trailer gives the lowest board, the others NULs
	cp x.dup y.dup
	garble y.dup 146 'YN11 0 16 '
	for b in $(seq 1 15); do garble y.dup $((156 * b + 146)) '\0\0\0\0\0\0\0\0\0\0'; done
	run -0 --separate-stderr dl-read y.dup
	[ -z "$stderr" ]
	[ "${lines[1]}" = "#B: 11-26" ]
	diff <(printf '%s\n' "${lines[@]}" | records | cut -d' ' -f2) <(records "$BIGDEAL/v2/deals.tso")
	# blank in spaces is blank too; a trailer there must still be one
	cp x.dup z.dup
	garble z.dup $((156 + 146)) '          '
	cmp <(dl-read z.dup) <(dl-read x.dup)
	garble z.dup $((156 * 2 + 146)) '\0\0\0\0\0\0\0\0\0X'
	fails dl-read z.dup
	[ "$output" = "dl-read: z.dup: byte 468: board 3: not a DUP trailer (YN1  0 32 , say)" ]
	# and the first board's trailer is the file's: never blank
	cp x.dup w.dup
	garble w.dup 146 '\0\0\0\0\0\0\0\0\0\0'
	fails dl-read -f dup w.dup
	[ "$output" = "dl-read: w.dup: byte 156: board 1: not a DUP trailer (YN1  0 32 , say)" ]
}

@test "read back: text formats with CR LF line ends (the Windows build's --crlf) read the same" {
	session 0123456789abcdef0123456789abcdef01234567 1-8 'Club night' > s.tso
	# every text format read here
	for name in $(dl-fmt --list | awk 'NR > 1 && $3 == "text" { print $1 }'); do
		[[ " $READ_FORMATS " == *" $name "* ]] || continue
		rm -f x.* y.*
		dl-fmt -f "$name" -p x < s.tso
		dl-fmt --crlf -f "$name" -p y < s.tso
		run ! cmp -s x.* y.*
		cmp <(dl-read -f "$name" x.*) <(dl-read -f "$name" y.*)
	done
}

@test "read back: a DLM checksum that differs is a warning, the boards are read" {
	sed 's/^Checksum=.*/Checksum=7/' "$BIGDEAL/v1/dlm.dlm" > x.dlm
	run -0 --separate-stderr dl-read x.dlm
	[ "$stderr" = "dl-read: x.dlm:12: Checksum=7, not 32: the header may have been edited" ]
	diff <(printf '%s\n' "${lines[@]}" | records | cut -d' ' -f2) "$BIGDEAL/v1/deals.tso"
}
