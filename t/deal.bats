#!/usr/bin/env bats
# dl-deal, the one-command front end, and make run.

load helper

@test "by default: 32 boards of PBN on standard output, a fresh seed each time" {
	dl-deal > a.pbn
	dl-deal > b.pbn
	[ "$(grep -c '^\[Board ' a.pbn)" -eq 32 ]
	grep -q '^\[Board "32"\]$' a.pbn
	run -1 cmp -s a.pbn b.pbn
	[ "$(wc -l < "$DL_SEED_HISTORY")" -eq 2 ]
}

@test "the event, the time and the generator travel into the files" {
	dl-deal -n 17-20 -f pbn,tso,dlm -p out -i 'Club Pairs, 24 Nov 2026'
	[ "$(grep -c '^\[Event "Club Pairs, 24 Nov 2026"\]$' out.pbn)" -eq 4 ]
	grep -qx 'Headline=Club Pairs, 24 Nov 2026' out.dlm
	run -0 grep '^#' out.tso
	[ "${lines[0]}" = "#P: dl/1 deals" ]
	[[ "${lines[2]}" =~ ^#T:\ 20[0-9-]{8}T[0-9:]{8}Z$ ]]
	[ "${lines[3]}" = "#I: Club Pairs, 24 Nov 2026" ]
	[ "${lines[5]}" = "#B: 17-20" ]
	dl-fmt-pbn < out.tso | cmp - out.pbn
}

@test "formats come from ./.bigdealrc when not given" {
	printf '[BigDeal]\nformats=lin,csv\n' > .bigdealrc
	dl-deal -n 2 -p s
	[ -f s.lin ]
	[ -f s.csv ]
	[ ! -f s.pbn ]
}

@test "more than 100 boards only with --many" {
	fails dl-deal -n 101
	[ "$output" = "dl-deal: 101 boards: at most 100 without --many" ]
	[ "$(dl-deal -n 150 --many | grep -c '^\[Board ')" -eq 150 ]
}

@test "existing deal files are never overwritten, and nothing is half written" {
	mkdir out
	echo old > out/s.dup
	fails dl-deal -f pbn,dup -p out/s
	[ "$output" = "dl-deal: out/s.dup exists: refusing to overwrite deal files" ]
	[ "$(ls out)" = s.dup ]
	fails dl-deal -n 99-100 -f pbn,dup -p out/t
	[ "$output" = "dl-deal: format dup holds boards up to 99, not board 100: no files written" ]
	[ "$(ls out)" = s.dup ]
}

@test "progress on a terminal when dealing many boards to files" {
	script -qec 'dl-deal -n 20000 --many -f ber -p big' /dev/null > screen
	grep -q 'dl-deal: 20000 of 20000 boards' screen
	[ "$(stat -c %s big.ber)" -eq $((20000 * 52)) ]
	dl-deal -n 20000 --many -f ber -p quiet 2> err
	[ ! -s err ]
}

@test "make run deals one session in PBN" {
	run make -s -C "$BATS_TEST_DIRNAME/.." BUILD="$DL_BUILD" run
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^\[Board ')" -eq 32 ]
	[ "${lines[0]}" = "% PBN 2.1" ]
}
