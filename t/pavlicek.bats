#!/usr/bin/env bats
# Richard Pavlicek's deal numbering: dl-map --mapping pavlicek, both ways,
# against the issue's algorithm as written (t/helpers/pavlicek_ref.c).

load helper

D_MINUS_1=ad55e315634dda658bf491ff
ZERO_DEAL=0000000000000111111111111122222222222223333333333333
LAST_DEAL=3333333333333222222222222211111111111110000000000000

# numbers COUNT: COUNT deal numbers of a fixed seed, as a numbers stream
numbers() {
	dl-seed --no-history -o -e 'a fixed seed for the pavlicek round trip, long enough' |
	    dl-stream -n "$1"
}

@test "pavlicek: number 0 gives N the spades, E the hearts, S the diamonds, W the clubs" {
	run -0 dl-map --mapping pavlicek <<< "1 000000000000000000000000"
	[ "$output" = "1 $ZERO_DEAL" ]
}

@test "pavlicek: number D-1 gives the reverse assignment" {
	run -0 dl-map --mapping pavlicek <<< "1 $D_MINUS_1"
	[ "$output" = "1 $LAST_DEAL" ]
}

@test "pavlicek: 0, 1 and D-1 come back from the reverse map" {
	for n in 000000000000000000000000 000000000000000000000001 $D_MINUS_1; do
		[ "$(echo "1 $n" | dl-map -m pavlicek | dl-map -r -m pavlicek)" = "1 $n" ]
	done
}

@test "pavlicek: 100 000 numbers survive number -> deal -> number" {
	numbers 100000 > numbers
	dl-map --mapping pavlicek < numbers > deals
	dl-map --reverse --mapping pavlicek < deals | cmp - numbers
}

@test "pavlicek: every deal of 100 000 gives each hand 13 cards" {
	numbers 100000 | dl-map -m pavlicek | grep -v '^#' | cut -d' ' -f2 > deals
	[ "$(wc -l < deals)" -eq 100000 ]
	run -0 awk '{ for (h = 0; h < 4; h++) { n = gsub(h, h); if (n != 13) bad++ } }
	    length($0) != 52 { bad++ } END { print bad + 0 }' deals
	[ "$output" = 0 ]
}

@test "pavlicek: 1000 deals numbered as the issue's algorithm numbers them" {
	numbers 1000 > numbers
	# deals of both mappings, so that the reference sees two distributions
	dl-map -m pavlicek < numbers > deals
	"$HELPERS/pavlicek_ref" < deals | cmp - <(grep -v '^#' numbers)
	dl-map < numbers | grep -v '^#' > bigdeal.tso
	"$HELPERS/pavlicek_ref" < bigdeal.tso > want
	dl-map -r -m pavlicek < bigdeal.tso | cmp - want
}

@test "pavlicek: the numbers are in the order of the .tso strings" {
	numbers 1000 | dl-map -m pavlicek | grep -v '^#' | cut -d' ' -f2 |
	    LC_ALL=C sort > sorted.tso
	dl-map -r -m pavlicek < sorted.tso | cut -d' ' -f2 > numbers
	LC_ALL=C sort -c numbers
}

@test "pavlicek: the reference gives 0 and D-1 for the first and last deals" {
	run -0 "$HELPERS/pavlicek_ref" <<< "$ZERO_DEAL"$'\n'"$LAST_DEAL"
	[ "$output" = "1 000000000000000000000000"$'\n'"2 $D_MINUS_1" ]
}

@test "pavlicek: the mappings differ on random numbers, agree on the smallest" {
	numbers 20 > numbers
	paste -d' ' <(dl-map < numbers | grep -v '^#') \
	    <(dl-map -m pavlicek < numbers | grep -v '^#') > both
	run -0 awk '$2 == $4 { same++ } END { print NR, same + 0 }' both
	[ "$output" = "20 0" ]
	# below C(26,13) (hex 9eb298) both order South's cards the same way
	for n in 000000000000000000000001 0000000000000000009eb297; do
		[ "$(echo "1 $n" | dl-map -m pavlicek)" = "$(echo "1 $n" | dl-map)" ]
	done
}

@test "pavlicek: the deals stream says #M: pavlicek" {
	numbers 2 | dl-map -m pavlicek > deals
	run -0 grep '^#M:' deals
	[ "$output" = "#M: pavlicek" ]
}

@test "pavlicek: --reverse takes the mapping from the #M: header" {
	numbers 1000 > numbers
	dl-map -m pavlicek < numbers | dl-map --reverse | cmp - numbers
	dl-map < numbers | dl-map --reverse | cmp - numbers
}

@test "pavlicek: a plain .tso file is mapped back with -m, else with bigdeal" {
	numbers 100 > numbers
	dl-map -m pavlicek < numbers | grep -v '^#' > plain.tso
	dl-map -r -m pavlicek < plain.tso | cmp - <(grep -v '^#' numbers)
	dl-map -r < plain.tso > as-bigdeal
	run -1 cmp -s as-bigdeal <(grep -v '^#' numbers)
	[ "$status" -eq 1 ]
}

@test "pavlicek: -m against the #M: header is refused" {
	numbers 2 | dl-map -m pavlicek > deals
	fails dl-map -r -m bigdeal < deals
	[ "$output" = 'dl-map: the deals were mapped with "pavlicek", not "bigdeal" as -m says' ]
	numbers 2 | dl-map > deals
	fails dl-map -r -m pavlicek < deals
	[ "$output" = 'dl-map: the deals were mapped with "bigdeal", not "pavlicek" as -m says' ]
}

@test "pavlicek: an unknown #M: is refused by name" {
	numbers 2 | dl-map -m pavlicek | sed 's/^#M: .*/#M: nosuch/' > deals
	fails dl-map -r < deals
	[ "$output" = 'dl-map: the deals were mapped with "nosuch", which this dl-map does not know' ]
}

@test "pavlicek: a mapped set makes a valid PBN, 13 cards a hand" {
	numbers 32 | dl-map -m pavlicek | dl-fmt-pbn > set.pbn
	grep '^\[Deal "' set.pbn > deals
	[ "$(wc -l < deals)" -eq 32 ]
	# each hand four suits, 13 cards, and the 52 cards all different
	run -0 awk -F'"' '{
		split(substr($2, 3), hand, " ")
		delete seen
		for (h = 1; h <= 4; h++) {
			if (split(hand[h], suit, ".") != 4) bad++
			n = 0
			for (s = 1; s <= 4; s++)
				for (i = 1; i <= length(suit[s]); i++) {
					card = s substr(suit[s], i, 1)
					if (card in seen || substr(suit[s], i, 1) !~ /[AKQJT2-9]/) bad++
					seen[card] = 1
					n++
				}
			if (n != 13) bad++
		}
		if (substr($2, 1, 2) !~ /^[NESW]:$/) bad++
	} END { print NR, bad + 0 }' deals
	[ "$output" = "32 0" ]
}
