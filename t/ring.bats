#!/usr/bin/env bats
# lib/base/ring.c, the one threading engine: items made on threads and
# taken in order by the caller (dl-deal, dl-stream -j), and items handed by
# the caller to lanes on threads (the writers' pool).  A ring that mixed up
# its slots would hang a taker; timeout turns that into a failure.

load helper

ring() {
	run timeout 120 "$HELPERS/ringcheck" "$@"
}

@test "items made on threads come to the caller in order, each once" {
	for args in "0 2 100" "1 2 1000" "4 8 3000" "3 1 200" "8 3 2000" "2 2 0"; do
		set -- $args
		ring make $args
		[ "$status" -eq 0 ]
		[ "$output" = "taken $3 items in order, each once" ]
	done
}

@test "every lane takes every item handed, in order, then finishes" {
	for args in "0 3 4 100" "2 3 4 2000" "3 5 2 2000" "4 2 1 500" "2 2 2 0"; do
		set -- $args
		ring take $args
		[ "$status" -eq 0 ]
		want=$(for ((i = 0; i < $2; i++)); do echo "lane $i: in order, finished"; done)
		[ "$output" = "$want" ]
	done
}

@test "a lane that fails stops the ring, which says which lane it was" {
	# at an item, with and without threads; at its finish
	for args in "2 3 4 1000 1 500" "0 3 4 100 2 7" "3 3 2 300 0 0" "2 3 4 100 1 100" "0 3 4 100 0 100"; do
		set -- $args
		ring take $args
		[ "$status" -eq 0 ]
		[ "$output" = "lane 0: in order
lane 1: in order
lane 2: in order
failed: lane $5" ]
	done
}
