#!/bin/sh
# make archive-long: the archive's matching against chance (issue 27).
# $BOARDS fresh random deals are checked against $BOARDS others archived,
# both dealt by the real tools from fixed test seeds, so that anyone can
# repeat the run.  A pair of random deals shares two hands (or more) with
# probability about 144 / (C(52,13) C(39,13)), 3 * 10^-20, and is a near
# deal (at most four cards at other seats) with probability 2.8 * 10^-22,
# so over the 10^14 pairs the first five kinds but the last have 3 * 10^-6
# of a chance to fire: they must not.  One hand the same is chance: a pair of deals
# shares a hand at 16 pairs of seats, each with probability 1/C(52,13), so
# n boards against N archived expect n * N * 16 / C(52,13) such hits (2519.6
# for 10^7 against 10^7), a Poisson count: the run fails unless it is
# within 5 standard deviations (the square root of the expectation).
set -eu
build=$1
PATH="$build/bin:$PATH"
BOARDS=${BOARDS:-10000000}
QUERIES=${QUERIES:-$BOARDS}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
umask 077

# two dl256 test keys, never for play
key() { printf '#P: dl/1 seed\ndl256 %s\n' "$1"; }
key 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f |
    dl-stream -n "$BOARDS" | dl-map > "$tmp/archived.tso"
key fd676a98ed0df3ed95af335b7c56acd367d70bfc570b690bfb8a50850c378bdc |
    dl-stream -n "$QUERIES" | dl-map > "$tmp/fresh.tso"

now() { date +%s.%N; }
start=$(now)
dl-archive -q --db "$tmp/a.sqlite" add "$tmp/archived.tso"
added=$(now)
status=0
dl-archive --db "$tmp/a.sqlite" check "$tmp/fresh.tso" > "$tmp/hits" || status=$?
done=$(now)
[ "$status" -le 1 ] || { echo "archive-long: dl-archive check failed ($status)" >&2; exit 2; }

awk -v n="$QUERIES" -v N="$BOARDS" -v add="$(awk -v a="$start" -v b="$added" 'BEGIN { print b - a }')" \
    -v check="$(awk -v a="$added" -v b="$done" 'BEGIN { print b - a }')" '
	/: same deal turned / { rotated++; next }
	/: same deal / { same++; next }
	/: same hands / { permuted++; next }
	/: two hands / { two++; next }
	/: near deal / { near++; next }
	/: one hand / { one++; next }
	{ other++ }
	END {
		expected = n * N * 16 / 635013559600
		sigma = sqrt(expected)
		printf "archive-long: %d fresh deals checked against %d archived\n", n, N
		printf "  add %.1f s (%.0f deals/s), check %.1f s (%.0f boards/s)\n", add, N / add, check, n / check
		printf "  same deal %d, turned %d, same hands %d, two hands %d, near deal %d (each must be 0)\n", same, rotated, permuted, two, near
		printf "  one hand %d, expected %.1f (n N 16 / C(52,13)), sigma %.1f: %+.2f sigma\n", one, expected, sigma, (one - expected) / sigma
		if (other) printf "  %d lines not understood\n", other
		bad = same + rotated + permuted + two + near + other > 0 || one < expected - 5 * sigma || one > expected + 5 * sigma
		print bad ? "archive-long: FAILED" : "archive-long: passed"
		exit bad
	}' "$tmp/hits"
