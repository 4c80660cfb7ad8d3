#!/usr/bin/env bats
# dl-seed's entropy sources, seed history and commitments.

load helper

LONG=0123456789012345678901234567890123456789

@test "a fresh seed made twice is refused the second time" {
	dl-seed -o -e "$LONG" > /dev/null
	fails dl-seed -o -e "$LONG"
	[ "$output" = "dl-seed: this seed was made before (it is in $DL_SEED_HISTORY): refusing to deal the same series again" ]
	[ "$(wc -l < "$DL_SEED_HISTORY")" -eq 1 ]
}

@test "the history holds fingerprints, not seeds, in a file only its owner reads" {
	dl-seed -o -e "$LONG" > seed
	dl-seed > /dev/null
	[ "$(stat -c %a "$DL_SEED_HISTORY")" = 600 ]
	[ "$(wc -l < "$DL_SEED_HISTORY")" -eq 2 ]
	run -1 grep -qvx '[0-9a-f]\{32\}' "$DL_SEED_HISTORY"
	random=$(tail -1 seed | cut -d' ' -f2)
	run -1 grep -q "${random:0:16}" "$DL_SEED_HISTORY"
}

@test "the history lives in the XDG state directory by default, and can be disabled" {
	unset DL_SEED_HISTORY
	HOME=$PWD/home XDG_STATE_HOME= dl-seed > /dev/null
	[ "$(wc -l < home/.local/state/dl/seed-history)" -eq 1 ]
	[ "$(stat -c %a home/.local/state/dl)" = 700 ]
	XDG_STATE_HOME=$PWD/state dl-seed > /dev/null
	[ -s state/dl/seed-history ]
	DL_SEED_HISTORY=off dl-seed -o -e "$LONG" > /dev/null
	DL_SEED_HISTORY=off dl-seed -o -e "$LONG" > /dev/null
	dl-seed --no-history -o -e "$LONG" > /dev/null
	dl-seed --no-history -o -e "$LONG" > /dev/null
}

@test "reproducing a known set is exempt: --hex, and given entropy with a given owner" {
	seed_of v1 > /dev/null
	seed_of v1 > /dev/null
	dl-seed -o -w owner -e "$LONG" > /dev/null
	dl-seed -o -w owner -e "$LONG" > /dev/null
	[ ! -e "$DL_SEED_HISTORY" ]
}

@test "--hex-file reads the secret from a file or standard input" {
	param v1 random > hex
	dl-seed --hex-file hex --owner 'Example Owner' | tail -1 > a
	dl-seed --hex-file - --owner 'Example Owner' < hex | tail -1 > b
	seed_of v1 | tail -1 | cmp - a
	cmp a b
	echo 0123 > short
	fails dl-seed --hex-file short
	[ "$output" = "dl-seed: short: not 40 hex digits (bigdeal) or 64 (dl256)" ]
}

@test "--entropy-file adds a file's bytes as --entropy adds a string's" {
	printf %s "$LONG" > bytes
	a=$(dl-seed --no-history -o --entropy-file bytes | tail -1)
	b=$(dl-seed --no-history -o --entropy "$LONG" | tail -1)
	[ "$a" = "$b" ]
	head -c 10 /dev/zero > small
	fails dl-seed -o --entropy-file small
	[ "$output" = "dl-seed: only 40 bits of entropy, 160 needed: give more --entropy (4 bits a character) or drop --only-given" ]
	c=$(dl-seed --no-history -o --entropy-file /dev/fd/5 5< bytes | tail -1)
	[ "$a" = "$c" ]
}

# typist KEYS DELAY: type KEYS into the terminal, one every DELAY seconds
typist() {
	sleep 0.5
	for k in $(echo "$1" | sed 's/./& /g'); do printf %s "$k"; sleep "$2"; done
	sleep 1
}

# bats test_tags=slow
@test "keyboard entropy: 213 bits from keystroke timing on a terminal" {
	typist abcdefghijklmnopqrstuvwxyzabcdefghij 0.05 |
	    script -qec 'stty -g > before; dl-seed --keyboard -o -f > seed; echo $? > status; stty -g > after' /dev/null > screen
	[ "$(cat status)" = 0 ]
	cmp before after
	grep -q '^bigdeal [0-9a-f]\{40\} ' seed
	grep -q 'bits still needed' screen
}

# bats test_tags=slow
@test "keyboard entropy restores the terminal when interrupted" {
	{ typist abcdef 0.05; printf '\003'; sleep 1; } |
	    script -qec 'trap "" INT; stty -g > before; dl-seed --keyboard -o -f > seed; echo $? > status; stty -g > after' /dev/null > screen
	[ "$(cat status)" = 130 ]
	cmp before after
	[ ! -s seed ]
}

@test "keyboard entropy needs a terminal" {
	fails setsid dl-seed --keyboard -o < /dev/null
	[ "$output" = "dl-seed: keyboard entropy needs a terminal" ]
}

@test "keystroke credit follows Big Deal's rule" {
	run -0 "$HELPERS/keybits" 0 3 15 16 63 64 50000 100000000
	[ "$output" = "2 2 2 3 3 4 8 8" ]
}

@test "a commitment binds the seed and the event, and anyone can check it" {
	run dl-seed --commit seed --event 'Tuesday Pairs, 24 Nov 2026'
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^commitment\ [0-9a-f]{64}$ ]]
	c=${output#commitment }
	[ "$(stat -c %a seed)" = 600 ]
	grep -qx '#I: Tuesday Pairs, 24 Nov 2026' seed
	# the published recipe: SHA-256 of three lines
	[ "$(printf 'dl commitment 1\n%s\n%s\n' 'Tuesday Pairs, 24 Nov 2026' "$(tail -1 seed)" |
	    sha256sum | cut -d' ' -f1)" = "$c" ]
	run --separate-stderr dl-seed --verify "$c" < seed
	[ "$status" -eq 0 ]
	[ "$stderr" = "dl-seed: the seed and event match the commitment" ]
	[ "$output" = "$(cat seed)" ]
	dl-seed --verify "$c" < seed | dl-stream -n 4 | dl-map | dl-fmt-pbn > set.pbn
	dl-stream -n 4 < seed | dl-map | dl-fmt-pbn | cmp - set.pbn
}

@test "a changed event or seed does not match the commitment" {
	c=$(dl-seed --commit seed --event 'Tuesday Pairs' | cut -d' ' -f2)
	sed 's/^#I: .*/#I: Wednesday Pairs/' seed > other-event
	fails dl-seed --verify "$c" < other-event
	[ "$output" = "dl-seed: the seed and event do NOT match the commitment" ]
	sed -E '$s/^([a-z0-9]+) ./\1 0/' seed > other-seed
	cmp -s seed other-seed && sed -i -E '$s/^([a-z0-9]+) ./\1 1/' other-seed
	fails dl-seed --verify "$c" < other-seed
	[ "$output" = "dl-seed: the seed and event do NOT match the commitment" ]
	fails dl-seed --commit seed
	[ "$output" = "dl-seed: seed exists: refusing to overwrite deal files" ]
}

@test "a generator's seed-history fingerprint is its own, whatever its place in the table" {
	# the fingerprints the table-position numbering gave before each
	# generator carried its history_id (computed with that code,
	# 2026-11-25): histories written then still refuse their seeds
	run "$HELPERS/fingerprints"
	[ "$status" -eq 0 ]	# no two generators share a history_id
	[ "$output" = "bigdeal 0 276d86ca110b556fca76596d99d64c91 276d86ca110b556fca76596d99d64c91
dl256 1 86dc058073535c57756e4977b4326322 86dc058073535c57756e4977b4326322
wwdeal 102 1203fd014452b52170a0f115a814db2e 1203fd014452b52170a0f115a814db2e" ]
}

@test "--record-url: the hand record's address in the seed stream, never holding the secret" {
	k=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
	dl-seed --no-history -x "$k" --record-url https://club.example/r/7 > seed
	[ "$(sed -n 4p seed)" = "#U: https://club.example/r/7" ]
	# sixteen of the key's digits in a row, in either case, are refused
	run -2 dl-seed --no-history -x "$k" --record-url "https://club.example/r/89ABCDEF01234567"
	[ "$output" = "dl-seed: --record-url: the address holds the seed's secret, which no printed page may carry" ]
	dl-seed --no-history -x "$k" --record-url "https://club.example/r/89abcdef0123456" > seed
	run -2 dl-seed --no-history --record-url "mailto:director@club.example"
	[ "$output" = "dl-seed: --record-url: not an http:// or https:// address" ]
}
