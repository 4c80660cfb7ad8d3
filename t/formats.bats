#!/usr/bin/env bats
# The format-writer plugins against Big Deal 2.0's own files, byte by byte
# (docs/formats.md), and the host's refusals.

load helper

# every_format_alone CASE: dl-fmt-NAME on the deal stream, each format
every_format_alone() {
	deals_of "$1" > deals
	for name in $BIGDEAL_FORMATS; do
		dl-fmt-"$name" < deals > out
		same_as_golden out "$1" "$name"
	done
}

# all_in_two_runs CASE: two dl-fmt runs write every format into out/
all_in_two_runs() {
	deals_of "$1" > deals
	mkdir out
	dl-fmt -f "$RUN_ONE" -p out/s < deals
	dl-fmt -f "$RUN_TWO" -p out/b < deals
	[ "$(ls -A out | wc -l)" -eq 14 ]
	local want
	for name in ${RUN_ONE//,/ }; do
		want=$(golden "$1" "$name")
		same_as_golden "out/s.${want##*.}" "$1" "$name"
	done
	same_as_golden out/b.dup "$1" dupblind
	same_as_golden out/b.dlm "$1" dlmblind
}

# from_plain_tso CASE: the vector's plain .tso file in, boards from 1
from_plain_tso() {
	for name in $BIGDEAL_FORMATS; do
		dl-fmt-"$name" < "$BIGDEAL/$1/deals.tso" > out
		same_as_golden out "$1" "$name"
	done
}

@test "every format alone equals Big Deal's: v1 (boards 1-32)" {
	every_format_alone v1
}

@test "every format alone equals Big Deal's: v2 (boards 17-32)" {
	every_format_alone v2
}

@test "every format alone equals Big Deal's: v3 (99 boards)" {
	every_format_alone v3
}

@test "every format alone equals Big Deal's: v4 (one board)" {
	every_format_alone v4
}

@test "every format in two dl-fmt runs equals Big Deal's: v1" {
	all_in_two_runs v1
}

@test "every format in two dl-fmt runs equals Big Deal's: v2" {
	all_in_two_runs v2
}

@test "every format in two dl-fmt runs equals Big Deal's: v3" {
	all_in_two_runs v3
}

@test "every format in two dl-fmt runs equals Big Deal's: v4" {
	all_in_two_runs v4
}

@test "a plain .tso file in, every format equals Big Deal's: v1" {
	from_plain_tso v1
}

@test "a plain .tso file in, every format equals Big Deal's: v3" {
	from_plain_tso v3
}

@test "a plain .tso file in, every format equals Big Deal's: v4" {
	from_plain_tso v4
}

@test "the tso writer's stream reads back to the same PBN" {
	deals_of v1 | dl-fmt-tso | dl-fmt-pbn > back.pbn
	deals_of v1 | dl-fmt-pbn > direct.pbn
	cmp back.pbn direct.pbn
}

@test "the tso writer keeps the headers and board numbers 17-32" {
	deals_of v2 > deals
	dl-fmt-tso < deals > v2.tso
	[ "$(head -1 v2.tso)" = "#P: dl/1 deals" ]
	# the input's lines again, headers and records, #P included
	cmp v2.tso deals
	[ "$(grep -c '^#B: ' v2.tso)" -eq 1 ]
	dl-fmt-lin < v2.tso | cmp - "$BIGDEAL/v2/lin.lin"
	dl-fmt-cds < v2.tso | cmp - "$BIGDEAL/v2/cds.cds"
}

@test "the tso writer announces the range of a plain file" {
	dl-fmt-tso < "$BIGDEAL/v4/deals.tso" > v4.tso
	printf '#P: dl/1 deals\n#B: 1-1\n1 %s\n' "$(cat "$BIGDEAL/v4/deals.tso")" |
	    cmp - v4.tso
	dl-fmt-tso < "$BIGDEAL/v1/deals.tso" | sed -n 2p | grep -qx '#B: 1-32'
}

@test "goedel: leading zeros blank, commas every three digits, from 0 to D - 1" {
	# deal numbers at the edges of the digit groups and of the writer's
	# split at 10^18; the last is D - 1, the largest there is
	printf '#P: dl/1 numbers\n#G: dl256 event 0 session 0\n#B: 1-9\n' > numbers
	printf '%s\n' '1 000000000000000000000000' '2 000000000000000000000001' \
	    '3 0000000000000000000003e8' '4 0000000000000000000f4240' \
	    '5 000000000de0b6b3a763ffff' '6 000000000de0b6b3a7640000' \
	    '7 00000000de0b6b3a76400001' '8 033b2e3c9fd0803ce8000000' \
	    '9 ad55e315634dda658bf491ff' >> numbers
	dl-map < numbers | dl-fmt-goedel > out
	cat > want <<-'EOF'
	                                     0
	                                     1
	                                 1,000
	                             1,000,000
	               999,999,999,999,999,999
	             1,000,000,000,000,000,000
	            16,000,000,000,000,000,001
	 1,000,000,000,000,000,000,000,000,000
	53,644,737,765,488,792,839,237,439,999
	EOF
	diff want out
}

@test "--crlf ends LIN lines in CRLF" {
	deals_of v1 | dl-fmt-lin --crlf > crlf.lin
	sed 's/$/\r/' "$BIGDEAL/v1/lin.lin" | cmp - crlf.lin
}

@test "--crlf leaves binary formats alone, in one run with text ones" {
	deals_of v1 | dl-fmt-bri --crlf | cmp - "$BIGDEAL/v1/bri.bri"
	deals_of v1 | dl-fmt --crlf -f bri,lin,dup -p s
	cmp s.bri "$BIGDEAL/v1/bri.bri"
	cmp s.dup "$BIGDEAL/v1/dup.dup"
	sed 's/$/\r/' "$BIGDEAL/v1/lin.lin" | cmp - s.lin
}

@test "the event description goes into PBN [Event] and DLM Headline" {
	dl-seed --hex "$(param v1 random)" --owner "$(param v1 owner)" \
	    --event 'Club "Pairs" 2026' | dl-stream -n "$(param v1 boards)" | dl-map > deals
	dl-fmt -f pbn,dlm -p s < deals
	[ "$(grep -c '^\[Event ' s.pbn)" -eq 32 ]
	[ "$(grep -c '^\[Event "Club \\"Pairs\\" 2026"\]$' s.pbn)" -eq 32 ]
	sed 's/^\[Event .*/[Event "?"]/' s.pbn > plain.pbn
	same_as_golden plain.pbn v1 pbn
	[ "$(sed -n 2p s.dlm)" = 'Headline=Club "Pairs" 2026' ]
	same_as_golden s.dlm v1 dlm
}

@test "PBN's texts are ISO 8859-1, '?' for what it lacks, and cut to PBN's 255-character line" {
	# UTF-8 in the stream: e with diaeresis, a with grave, u with
	# diaeresis are Latin-1's; the em dash and the omega are not
	printf '#P: dl/1 deals\n#I: %b\n#S: %b\n#B: 1-1\n1 %s\n' \
	    'Coupe de No\303\253l \303\240 Z\303\274rich \342\200\224 "\316\251"' 'Z\303\274rich' \
	    0000000000000111111111111122222222222223333333333333 > utf8.tso
	dl-fmt-pbn < utf8.tso > s.pbn
	printf '[Event "Coupe de No\353l \340 Z\374rich ? \\"?\\""]\n[Site "Z\374rich"]\n' > expected
	grep -a -E '^\[(Event|Site) ' s.pbn | cmp - expected
	# read back, as Latin-1
	dl-read s.pbn | grep -a '^#I: ' | cmp - <(printf '#I: Coupe de No\303\253l \303\240 Z\303\274rich ? "?"\n')
	# 294 characters, quotes among them: the line stops short of 255
	# rather than within an escape
	long="Club$(printf '"x%.0s' $(seq 1 100))$(printf 'y%.0s' $(seq 1 90))"
	[ "${#long}" -eq 294 ]
	printf '#P: dl/1 deals\n#I: %s\n#B: 1-1\n1 %s\n' "$long" \
	    0000000000000111111111111122222222222223333333333333 > long.tso
	dl-fmt-pbn < long.tso > long.pbn
	line=$(grep '^\[Event ' long.pbn)
	[ "${#line}" -eq 254 ]
	[ "$line" = "[Event \"Club$(printf '\\"x%.0s' $(seq 1 80))\"]" ]
	run -0 awk 'length($0) > 255' long.pbn
	[ -z "$output" ]
}

@test "without an event, DLM's Headline names the generator" {
	deals_of v4 | dl-fmt-dlm | sed -n 2p | grep -qx 'Headline=Generated by dl [0-9.]*'
}

@test "dup and dupblind in one run: refused, both write .dup" {
	deals_of v1 > deals
	# bats keeps its own files in the test's directory: write elsewhere
	mkdir run && cd run
	fails dl-fmt -f dup,dupblind -p x < ../deals
	[ "$status" -eq 2 ]
	[ "$output" = "dl-fmt: formats dup and dupblind both write .dup files" ]
	fails dl-fmt -f dlm,dlmblind -p x < ../deals
	[ "$status" -eq 2 ]
	[ "$output" = "dl-fmt: formats dlm and dlmblind both write .dlm files" ]
	[ -z "$(ls -A)" ]
}

@test "board 100 in DUP or DLM: refused, and no file written at all" {
	seed_of v1 | dl-stream -n 100 | dl-map > deals
	# bats keeps its own files in the test's directory: write elsewhere
	mkdir run && cd run
	fails dl-fmt -f pbn,dup -p s < ../deals
	[ "$status" -eq 1 ]
	[ "$output" = "dl-fmt: format dup holds boards up to 99, not board 100: no files written" ]
	[ -z "$(ls -A)" ]
	# a plain file, whose range is known only at its end
	grep -v '^#' ../deals | cut -d' ' -f2 > ../plain.tso
	fails dl-fmt -f lin,dlmblind -p s < ../plain.tso
	[ "$status" -eq 1 ]
	[ "$output" = "dl-fmt: format dlmblind holds boards up to 99, not board 100: no files written" ]
	[ -z "$(ls -A)" ]
}
