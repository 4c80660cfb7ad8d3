#!/usr/bin/env bats
# Deal number <-> deal, both directions, on edges and on many numbers.

load helper

D_MINUS_1=ad55e315634dda658bf491ff

@test "number 0 gives North the spades, East the hearts, South the diamonds" {
	run -0 dl-map <<< "1 000000000000000000000000"
	[ "$output" = "1 0000000000000111111111111122222222222223333333333333" ]
}

@test "number 1 moves one card between South and West" {
	run -0 dl-map <<< "1 000000000000000000000001"
	[ "$output" = "1 0000000000000111111111111122222222222232333333333333" ]
}

@test "number D-1 gives the reverse assignment" {
	run -0 dl-map <<< "1 $D_MINUS_1"
	[ "$output" = "1 3333333333333222222222222211111111111110000000000000" ]
}

@test "0, 1 and D-1 come back from the reverse map" {
	for n in 000000000000000000000000 000000000000000000000001 $D_MINUS_1; do
		[ "$(echo "1 $n" | dl-map | dl-map --reverse)" = "1 $n" ]
	done
}

@test "the example of docs/bigdeal-compat.md section 4: v1 board 1" {
	run -0 dl-map <<< "1 aa2e370583708187e21c7e7f"
	[ "$output" = "1 $(head -1 "$BIGDEAL/v1/deals.tso")" ]
}

@test "100 000 random numbers survive number -> deal -> number" {
	dl-seed -o -e 'a fixed seed for the round trip, long enough to pass' |
	    dl-stream -n 100000 > numbers
	dl-map < numbers > deals
	dl-map --reverse < deals | cmp - numbers
}

@test "every deal of 100 000 gives each hand 13 cards" {
	dl-seed | dl-stream -n 100000 | dl-map | grep -v '^#' | cut -d' ' -f2 > deals
	[ "$(wc -l < deals)" -eq 100000 ]
	run -0 awk '{ for (h = 0; h < 4; h++) { n = gsub(h, h); if (n != 13) bad++ } }
	    length($0) != 52 { bad++ } END { print bad + 0 }' deals
	[ "$output" = 0 ]
}
