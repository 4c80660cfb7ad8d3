#!/usr/bin/env bats
# The fast paths of issue 16: each instruction-set path (DL_SIMD caps it:
# plain, avx2, avx512) gives the plain C path's output, and a million boards
# of each generator are the deals dl made before the paths existed.

load helper

BDSEED='bigdeal 00112233445566778899aabbccddeeff00112233 ffeeddccbbaa99887766554433221100ffeeddcc'
DLSEED='dl256 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f'
D_MINUS_1=ad55e315634dda658bf491ff

seed() { printf '#P: dl/1 seed\n%s\n' "$1"; }

# the path a cap gives on this machine: the lower of the cap and the best
# the processor has
path_for() {
	local rank=(plain avx2 avx512) machine cap i m=0 c=0
	machine=$(DL_SIMD= "$HELPERS/rmdlanes" --level)
	for i in 0 1 2; do
		[ "${rank[i]}" = "$machine" ] && m=$i
		[ "${rank[i]}" = "$1" ] && c=$i
	done
	echo "${rank[$((c < m ? c : m))]}"
}

# bats test_tags=slow
@test "a million boards of each generator: the deals of dl 0.1.0 before the vector paths, and back" {
	# checksums made with commit 7f4a664, before the paths of issue 16
	seed "$BDSEED" | dl-stream -n 1000000 | dl-map | sha256sum > sum
	[ "$(cut -c1-64 sum)" = 920144f5f315e324406c55a710ca46ddcba610b71b3eb0368e53a64acafca917 ]
	seed "$DLSEED" | dl-stream -n 1000000 > numbers
	dl-map < numbers > deals
	sha256sum < deals > sum
	[ "$(cut -c1-64 sum)" = ac83c562a69cc1c19257cc4604142729bb2b43749443be5c00ebddcb66108534 ]
	# and back: the numbers they came from
	dl-map --reverse < deals | grep -v '^#' > back
	grep -v '^#' numbers | cmp - back
}

@test "RIPEMD-160 in 16, 8 or 1 lanes equals the hash of one message at a time, across the counter's wrap" {
	echo "# this processor's best path: $(DL_SIMD= "$HELPERS/rmdlanes" --level)" >&3
	for cap in plain avx2 avx512; do
		path=$(path_for $cap)
		case $path in plain) lanes=1 ;; avx2) lanes=8 ;; avx512) lanes=16 ;; esac
		run -0 env DL_SIMD=$cap "$HELPERS/rmdlanes" fffff000 65536
		[ "$output" = "$path: $lanes lanes: 65536 candidates as ripemd160()" ]
	done
	run -0 env DL_SIMD=no-such-path "$HELPERS/rmdlanes" --level
	[ "$output" = plain ]
}

# bats test_tags=slow
@test "Big Deal's vectors on every path: numbers, deals, and numbers back" {
	for cap in plain avx2 avx512; do
		export DL_SIMD=$cap
		for c in v1 v2 v3 v4; do
			seed_of $c | dl-stream -n "$(param $c boards)" | grep -v '^#' |
			    cmp - "$BIGDEAL/$c/uids.txt"
			deals_of $c | grep -v '^#' | cut -d' ' -f2 | cmp - "$BIGDEAL/$c/deals.tso"
			deals_of $c | dl-map --reverse | grep -v '^#' | cmp - "$BIGDEAL/$c/uids.txt"
		done
	done
}

@test "the edges of the mapping and 100 000 boards of each generator on every path" {
	seed "$BDSEED" | DL_SIMD=plain dl-stream -n 100000 | DL_SIMD=plain dl-map > plain.bd
	seed "$DLSEED" | DL_SIMD=plain dl-stream -n 100000 | DL_SIMD=plain dl-map > plain.dl
	for cap in plain avx2 avx512; do
		export DL_SIMD=$cap
		run -0 dl-map <<< "1 000000000000000000000000"
		[ "$output" = "1 0000000000000111111111111122222222222223333333333333" ]
		run -0 dl-map <<< "1 000000000000000000000001"
		[ "$output" = "1 0000000000000111111111111122222222222232333333333333" ]
		run -0 dl-map <<< "1 $D_MINUS_1"
		[ "$output" = "1 3333333333333222222222222211111111111110000000000000" ]
		seed "$BDSEED" | dl-stream -n 100000 | dl-map | cmp - plain.bd
		seed "$DLSEED" | dl-stream -n 100000 | dl-map | cmp - plain.dl
		dl-map --reverse < plain.bd | dl-map | cmp - plain.bd
	done
}
