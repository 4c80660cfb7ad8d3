#!/usr/bin/env bats
# The ww-deal generator (docs/wwdeal.md): the Gimli permutation, the
# reference's vectors, the quirk that drops bits 16..31 of the event.

load helper

WWDEAL_VECTORS=$BATS_TEST_DIRNAME/data/wwdeal/vectors.txt
KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

# boards 1-4 of session 1 under KEY: event 1 (and 65537), event 2^32 + 5
EVENT_1=$(printf '%s\n' 9d53cfee9a12eea7cd4ae3d6 7438e2836f47eb9f6aa01ac3 \
    a6612fe7ef2343cc667b7006 595645dd3419955bb82fc2df)
EVENT_2P32_5=$(printf '%s\n' 391e733e04c33ff90688c473 4eee8370894e4ed4ecbcb5e5 \
    572b5a01436eea6b93bf677b 2b4cd2f814e2affb334c15c7)

# numbers EVENT: the deal numbers of boards 1-4 of session 1 under KEY
numbers() {
	printf "$KEY $1 1 %s\n" 1 2 3 4 | "$HELPERS/wwdeal" | cut -d' ' -f5
}

@test "wwdeal: the Gimli permutation's published test vector" {
	run "$HELPERS/wwdeal" gimli
	[ "$status" -eq 0 ]
	[ "$output" = "ba11c85a 91bad119 380ce880 d24c2c68 3eceffea 277a921c 4f73a0bd da5a9cd8 84b673f0 34e52ff7 9e2bef49 f41bb8d6" ]
}

@test "wwdeal: every reference vector, number and deal" {
	grep -v '^#' "$WWDEAL_VECTORS" > want
	[ "$(wc -l < want)" -eq 68 ]
	cut -d' ' -f1-4 want > input
	run "$HELPERS/wwdeal" < input
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > got
	run diff want got
	[ "$status" -eq 0 ]
}

@test "wwdeal: comments and blank lines are skipped" {
	printf '# a comment\n\n%s 0 1 1\n  \n# %s 0 1 2\n' "$KEY" "$KEY" > input
	run "$HELPERS/wwdeal" < input
	[ "$status" -eq 0 ]
	[ "$output" = "$(grep -v '^#' "$WWDEAL_VECTORS" | head -1)" ]
}

@test "wwdeal: the quirk, events 1 and 65537 deal alike" {
	run numbers 1
	[ "$status" -eq 0 ]
	[ "$output" = "$EVENT_1" ]
	run numbers 65537
	[ "$status" -eq 0 ]
	[ "$output" = "$EVENT_1" ]
	# any of bits 16..31 is dropped: 0xffff0001
	run numbers 4294901761
	[ "$status" -eq 0 ]
	[ "$output" = "$EVENT_1" ]
}

@test "wwdeal: bits 32..63 of the event count" {
	run numbers 4294967301
	[ "$status" -eq 0 ]
	[ "$output" = "$EVENT_2P32_5" ]
	# 2^32 + 5 without its high bits
	run numbers 5
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	[ "$output" != "$EVENT_2P32_5" ]
	# 1 with bit 32 set
	run numbers 4294967297
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	[ "$output" != "$EVENT_1" ]
}

@test "wwdeal: malformed lines are refused" {
	run "$HELPERS/wwdeal" <<< "$KEY 1 1"
	[ "$status" -eq 1 ]
	run "$HELPERS/wwdeal" <<< "${KEY}0 1 1 1"
	[ "$status" -eq 1 ]
	run "$HELPERS/wwdeal" <<< "$KEY 18446744073709551616 1 1"
	[ "$status" -eq 1 ]
	run "$HELPERS/wwdeal" <<< "$KEY 1 4294967296 1"
	[ "$status" -eq 1 ]
	run "$HELPERS/wwdeal" <<< "$KEY 1 1 -1"
	[ "$status" -eq 1 ]
}

# north_first DEAL: a deal printed dealer first ("E:h1 h2 h3 h4"), as PBN
# writers print it, from North
north_first() {
	awk -v deal="$1" 'BEGIN {
		split(substr(deal, 3), h, " ")
		first = index("NESW", substr(deal, 1, 1)) - 1
		for (i = 0; i < 4; i++) out[(first + i) % 4] = h[i + 1]
		printf "N:%s %s %s %s\n", out[0], out[1], out[2], out[3]
	}'
}

# bats test_tags=slow
@test "the pipeline deals every reference vector: dl-seed -g wwdeal | dl-stream | dl-map | dl-fmt-pbn" {
	export DL_SEED_HISTORY=off
	while read -r key event session board number deal; do
		case $key in "#"*) continue ;; esac
		dl-seed -g wwdeal -x "$key" |
		    dl-stream --event "$event" --session "$session" -n "$board-$board" > numbers
		[ "$(tail -1 numbers)" = "$board $number" ] ||
		    { echo "$key $event $session $board: $(tail -1 numbers)"; return 1; }
		grep -qx "#G: wwdeal event $event session $session" numbers
		dl-map < numbers > deals
		grep -qx "#M: pavlicek" deals
		dl-fmt-pbn < deals > board.pbn
		want=$(north_first "$deal")
		[ "$(grep '^\[Deal ' board.pbn)" = "[Deal \"$want\"]" ] ||
		    { echo "$key $event $session $board: $(grep '^\[Deal ' board.pbn)"; return 1; }
	done < "$BATS_TEST_DIRNAME/data/wwdeal/vectors.txt"
}

@test "wwdeal seeds: only given keys, 64 hex digits; coordinates over the whole range" {
	export DL_SEED_HISTORY=off
	fails dl-seed -g wwdeal
	[ "$output" = "dl-seed: wwdeal keys are not made here: give one with --hex (64 digits)" ]
	fails dl-seed -g wwdeal -x 0123456789abcdef0123456789abcdef01234567
	[ "$output" = "dl-seed: --hex: a wwdeal secret is 64 hex digits" ]
	dl-seed -g wwdeal -x "$KEY" > seed
	[ "$(tail -1 seed)" = "wwdeal $KEY" ]
	run dl-stream --event 18446744073709551615 --session 4294967295 -n 1 < seed
	[ "$status" -eq 0 ]
	[ "${lines[3]}" = "#G: wwdeal event 18446744073709551615 session 4294967295" ]
	fails dl-stream --event 18446744073709551616 < seed
	[ "$output" = "dl-stream: --event 18446744073709551616: too large (0 to 18446744073709551615)" ]
	# dl-map takes the generator's mapping unless told otherwise
	dl-stream -n 1 < seed | dl-map -m bigdeal | grep -qx "#M: bigdeal"
}
