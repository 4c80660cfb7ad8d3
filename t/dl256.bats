#!/usr/bin/env bats
# The dl256 generator: its fixed vectors, random access, scale-out.

load helper

KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

key_seed() { printf '#P: dl/1 seed\ndl256 %s\n' "$KEY"; }

@test "the published test vectors" {
	run -0 bash -c "set -o pipefail; $(declare -f key_seed); KEY=$KEY; key_seed | dl-stream -n 1-3 | grep -v '^#'"
	[ "$output" = "$(printf '1 7440e1041e66face54f32282\n2 9b795334d7bd9a330e0b8e7b\n3 aa54386fd41c08587e6ca0f5')" ]
	[ "$(key_seed | dl-stream -n 1-1 --event 7 --session 3 | tail -1)" = "1 6524753112ac9400b761d911" ]
	# four candidates of block 0 rejected
	[ "$(key_seed | dl-stream -n 21-21 --event 7 --session 3 | tail -1)" = "21 8fee93b610b6f848c53c7712" ]
	# all five rejected: the first and the second candidate of block 1
	[ "$(key_seed | dl-stream -n 589-589 | tail -1)" = "589 633d246e44886b47224b1ddd" ]
	[ "$(key_seed | dl-stream -n 1808-1808 | tail -1)" = "1808 70c5503c3a49dc3a2d7870f1" ]
	[ "$(key_seed | dl-stream -n 1000000000-1000000000 --event 9223372036854775807 \
	    --session 4294967295 | tail -1)" = "1000000000 852e98fa0554f884442bcbd1" ]
}

@test "2000 boards as an independent implementation makes them" {
	key_seed | dl-stream -n 2000 | grep -v '^#' | cmp - "$BATS_TEST_DIRNAME/data/dl256-0-0-2000"
	# across the edges of the 256-board chunks, starting anywhere
	key_seed | dl-stream -n 250-700 | grep -v '^#' |
	    cmp - <(sed -n 250,700p "$BATS_TEST_DIRNAME/data/dl256-0-0-2000")
}

@test "the stream records generator and coordinates" {
	run -0 bash -c "set -o pipefail; $(declare -f key_seed); KEY=$KEY; key_seed | dl-stream -n 2 --event 12 --session 3 | grep '^#'"
	[ "${lines[1]}" = "#G: dl256 event 12 session 3" ]
	[ "${lines[2]}" = "#B: 1-2" ]
}

@test "any board alone: a range deals what a longer run deals for it" {
	key_seed | dl-stream -n 1000001-1000100 | grep -v '^#' > alone
	key_seed | dl-stream -n 999901-1000100 | grep -v '^#' | tail -100 | cmp - alone
	[ "$(wc -l < alone)" -eq 100 ]
}

@test "board, session and event numbers enter the hash" {
	key_seed | dl-stream -n 1-16 | grep -v '^#' | cut -d' ' -f2 > low
	key_seed | dl-stream -n 17-32 | grep -v '^#' | cut -d' ' -f2 > high
	key_seed | dl-stream -n 1-16 --session 1 | grep -v '^#' | cut -d' ' -f2 > session1
	key_seed | dl-stream -n 1-16 --event 1 | grep -v '^#' | cut -d' ' -f2 > event1
	run -1 cmp -s low high
	run -1 cmp -s low session1
	run -1 cmp -s low event1
	run -1 cmp -s session1 event1
}

@test "a run split across processes is the single-process run" {
	key_seed > key.seed
	key_seed | dl-stream -n 4000 | grep -v '^#' > whole
	seq 0 3 | xargs -P 4 -I{} sh -c \
	    'dl-stream -n $(({} * 1000 + 1))-$((({} + 1) * 1000)) < key.seed | grep -v "^#" > shard{}'
	cat shard0 shard1 shard2 shard3 | cmp - whole
}

@test "new seeds are dl256 keys; the deals go through the whole pipeline" {
	dl-seed | dl-stream -n 8 | dl-map | dl-fmt-pbn > set.pbn
	[ "$(grep -c '^\[Deal "N:' set.pbn)" -eq 8 ]
	dl-seed --hex "$KEY" | tail -1 | grep -qx "dl256 $KEY"
	[ "$(dl-seed --hex "$KEY" | dl-stream -n 1 | tail -1)" = "1 7440e1041e66face54f32282" ]
}

@test "generator mismatches and misplaced coordinates are refused" {
	fails dl-stream -g bigdeal < <(key_seed)
	[ "$output" = "dl-stream: the seed is for the dl256 generator, not bigdeal" ]
	fails dl-stream --event 3 < <(seed_of v1)
	[ "$output" = "dl-stream: --event and --session are coordinates of generators that take them, not of bigdeal" ]
	fails dl-stream --session 4294967296 < <(key_seed)
	[ "$output" = "dl-stream: --session 4294967296: too large (0 to 4294967295)" ]
	fails dl-seed -g dl256 -o -e 0123456789012345678901234567890123456789
	[ "$output" = "dl-seed: dl256 keys come from the OS's randomness, or --hex with 64 digits" ]
	fails dl-stream -g nosuch < <(key_seed)
	# the generators of the table, in its order (the helper prints a line each)
	known=$("$HELPERS/fingerprints" | cut -d' ' -f1 | paste -sd, | sed 's/,/, /g')
	[[ "$known" == "bigdeal, dl256, wwdeal"* ]]
	[ "$output" = "dl-stream: unknown generator \"nosuch\" (known: $known)" ]
	fails dl-stream < <(printf '#P: dl/1 seed\ndl256 %s\n' 0123)
	[ "$output" = "dl-stream: line 2: garbled seed record" ]
}

@test "dl-deal deals dl256 by default, Big Deal's with -g bigdeal" {
	dl-deal -n 2 -f tso > a.tso
	grep -qx '#G: dl256 event 0 session 0' a.tso
	dl-deal -g bigdeal -n 2 -f tso > b.tso
	grep -qx '#G: bigdeal' b.tso
}
