#!/usr/bin/env bats
# dl-stat: the KG-style battery on both generators, the flawed dealers it
# must catch, its exact distributions and its exit statuses.

load helper

DATA=$BATS_TEST_DIRNAME/data

@test "4000 runs of 40 boards from bigdeal pass, exactly as recorded" {
	"$HELPERS/runs" bigdeal 4000 40 > runs.tso
	run dl-stat < runs.tso
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$DATA/stat-bigdeal-4000x40")" ]
}

@test "4000 sessions of 40 boards from dl256 pass, exactly as recorded" {
	"$HELPERS/runs" dl256 4000 40 > runs.tso
	run dl-stat < runs.tso
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$DATA/stat-dl256-4000x40")" ]
}

@test "the battery's runs are what the tools deal from the same seeds" {
	"$HELPERS/runs" bigdeal 4000 40 | grep -v '^#' | cut -d' ' -f2 > all
	for r in 1 2 4000; do
		"$HELPERS/runs" bigdeal seed $r | dl-stream -n 40 | dl-map | grep -v '^#' |
		    cut -d' ' -f2 | cmp - <(sed -n "$(((r - 1) * 40 + 1)),$((r * 40))p" all)
	done
	"$HELPERS/runs" dl256 4000 40 | grep -v '^#' | cut -d' ' -f2 > all
	for r in 1 4000; do
		"$HELPERS/runs" dl256 seed 1 | dl-stream -n 40 --session $r | dl-map | grep -v '^#' |
		    cut -d' ' -f2 | cmp - <(sed -n "$(((r - 1) * 40 + 1)),$((r * 40))p" all)
	done
}

# caught FLAW TESTS: 160 000 boards of FLAW fail the battery, and exactly
# TESTS fail.
caught() {
	"$HELPERS/flawed" "$1" 160000 > flawed.tso
	run dl-stat < flawed.tso
	[ "$status" -eq 1 ] || { echo "$1: status $status" >&2; return 1; }
	[ "${lines[-1]}" = "battery: FAIL ($2)" ] || { echo "$1: ${lines[-1]}" >&2; return 1; }
}

@test "caught: the naive rand() % 52 shuffle with a 32-bit seed" {
	caught rand-mod-52 "holders, holders-max, hcp-N, hcp-E, hcp-W, pattern-N, pattern-E, pattern-S, pattern-W, longest-N, longest-E, longest-S, longest-W, pairs-max, next-board, next-board-max, numbers"
}

@test "caught: Fisher-Yates off by one" {
	caught off-by-one "holders, holders-max, numbers"
}

@test "caught: one card's holder biased by 2 points" {
	caught biased-card "holders, holders-max, hcp-N, numbers"
}

# bats test_tags=slow
@test "caught: four riffle shuffles" {
	caught riffle "holders, holders-max, hcp-N, hcp-S, hcp-W, pairs-max, numbers"
}

@test "caught: no hand below 3 points" {
	caught no-yarborough "hcp-N, hcp-E, hcp-S, hcp-W, pairs-max, numbers"
}

@test "caught: no suit of 8 cards or more" {
	caught no-freaks "pattern-N, pattern-E, pattern-S, pattern-W, longest-N, longest-E, longest-S, longest-W"
}

@test "caught: 2 % of the boards the board before, turned one seat" {
	caught rotate "next-board, next-board-max"
}

@test "caught: deal numbers reduced modulo D" {
	caught mod-d "holders, holders-max, hcp-N, hcp-E, hcp-S, hcp-W, pairs-max, next-board, next-board-max, numbers"
}

@test "the flawed dealers' good twin passes" {
	"$HELPERS/flawed" good 160000 | dl-stat -q
}

@test "the exact distributions agree with the published ones" {
	run dl-stat -t
	[ "$status" -eq 0 ]
	# Pavlicek's and every bridge book's tables, to their precision
	[ "${lines[1]}" = " 0 3.6389610349e-03" ]
	[ "${lines[11]}" = "10 9.4051148850e-02" ]
	[ "${lines[38]}" = "37 6.2990780898e-12" ]
	[ "${lines[39]}" = "hand patterns" ]
	[ "${lines[40]}" = "4-4-3-2 2.1551175645e-01" ]
	[ "${lines[41]}" = "5-3-3-2 1.5516846465e-01" ]
	[ "${lines[44]}" = "4-3-3-3 1.0536130315e-01" ]
	[ "${lines[-1]}" = "13-0-0-0 6.2990780898e-12" ]
	[ "${#lines[@]}" -eq 79 ]
	# each distribution sums to 1
	dl-stat -t | awk 'NR > 1 && NR <= 39 { s += $2 } END { exit !(s > 0.9999999999 && s < 1.0000000001) }'
	dl-stat -t | awk 'NR > 40 { s += $2 } END { exit !(s > 0.9999999999 && s < 1.0000000001) }'
}

@test "a numbers stream: its numbers and their Big Deal deals" {
	"$HELPERS/runs" dl256 seed 1 | dl-stream -n 20000 > numbers
	run --separate-stderr dl-stat -n < numbers
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "battery: pass" ]
	[ "$output" = "$(dl-map < numbers | dl-stat)" ]
}

@test "few boards: a warning, the tests that cannot be made are marked" {
	run --separate-stderr dl-stat < <("$HELPERS/runs" dl256 1 16)
	[ "$status" -eq 0 ]
	[ "$stderr" = "dl-stat: 16 boards are too few for these tests to mean much" ]
	[ "$(echo "$output" | grep -c 'too few boards$')" -gt 0 ]
}

@test "bad input and bad options: status 2, one line" {
	fails dl-stat < <(printf '#P: dl/1 deals\n1 0123\n')
	[ "$status" -eq 2 ]
	[ "$output" = "dl-stat: line 2: deal is not 52 digits" ]
	fails dl-stat -n < <(printf '#P: dl/1 numbers\n1 ffffffffffffffffffffffff\n')
	[ "$status" -eq 2 ]
	[ "$output" = "dl-stat: line 2: deal number out of range" ]
	fails dl-stat < /dev/null
	[ "$status" -eq 2 ]
	[ "$output" = "dl-stat: empty input (expected a deals stream)" ]
	fails dl-stat -a 1.5 < /dev/null
	[ "$status" -eq 2 ]
	[ "$output" = "dl-stat: -a 1.5: not a significance level between 0 and 1" ]
	fails dl-stat < <(printf '#P: dl/1 deals\n#M: nosuch\n1 %s\n' "$(printf '0%.0s' {1..13}; printf '1%.0s' {1..13}; printf '2%.0s' {1..13}; printf '3%.0s' {1..13})")
	[ "$status" -eq 2 ]
	[ "$output" = 'dl-stat: the deals were mapped with "nosuch", which this dl-stat does not know' ]
}

@test "-a sets the battery's significance" {
	"$HELPERS/runs" bigdeal 4000 40 > runs.tso
	# without the correction longest-W (p-value 0.02386) would fail at 0.05
	dl-stat -a 0.05 -q < runs.tso
	run dl-stat -a 0.9 -q < runs.tso
	[ "$status" -eq 1 ]
}
