#!/usr/bin/env bats
# Bad input: one line on stderr saying where and what, a non-zero exit.

load helper

numbers() { printf '#P: dl/1 numbers\n#B: 1-2\n'; printf '%s\n' "$@"; }
deals() { printf '#P: dl/1 deals\n#B: 1-1\n'; printf '%s\n' "$@"; }
GOOD_DEAL=0000000000000111111111111122222222222223333333333333

@test "a deal number of D or more" {
	fails dl-map <<< "1 ad55e315634dda658bf49200"
	[ "$output" = "dl-map: line 1: deal number out of range" ]
	fails dl-map <<< "1 ffffffffffffffffffffffff"
	[ "$output" = "dl-map: line 1: deal number out of range" ]
}

@test "a deal number that is not 24 lowercase hex digits" {
	for bad in abc 0000000000000000000000000 00000000000000000000000g AD55E315634DDA658BF49100; do
		fails dl-map <<< "1 $bad"
		[ "$output" = "dl-map: line 1: deal number is not 24 lowercase hex digits" ]
	done
}

@test "the line number counts header lines" {
	fails dl-map < <(numbers "1 000000000000000000000000" "2 xyz")
	[ "$output" = "dl-map: line 4: deal number is not 24 lowercase hex digits" ]
}

@test "a .tso record that is not 52 digits 0-3 with 13 of each" {
	fails dl-map --reverse < <(deals "1 ${GOOD_DEAL}0")
	[ "$output" = "dl-map: line 3: deal is not 52 digits" ]
	fails dl-map --reverse < <(deals "1 ${GOOD_DEAL:1}4")
	[ "$output" = "dl-map: line 3: deal has a digit other than 0-3" ]
	fails dl-map --reverse < <(deals "1 1${GOOD_DEAL:1}")
	[ "$output" = "dl-map: line 3: hand N has 12 cards, not 13" ]
	fails dl-fmt-pbn <<< "${GOOD_DEAL:2}33"
	[ "$output" = "dl-fmt-pbn: line 1: hand N has 11 cards, not 13" ]
}

@test "an unknown protocol version, kind or name" {
	fails dl-map <<< "#P: dl/2 numbers"
	[ "$output" = "dl-map: line 1: unsupported protocol version dl/2 (this tool reads dl/1)" ]
	fails dl-map <<< "#P: dl/1 deals"
	[ "$output" = "dl-map: line 1: expected a numbers stream, got a deals stream" ]
	fails dl-fmt-pbn <<< "#P: xx/1 deals"
	[ "$output" = 'dl-fmt-pbn: line 1: not a dl stream (expected "#P: dl/1 deals")' ]
	fails dl-stream <<< "#I: no protocol line"
	[ "$output" = 'dl-stream: line 1: a stream with headers must begin with "#P: dl/1 seed"' ]
}

@test "garbled headers" {
	fails dl-map < <(printf '#P: dl/1 numbers\n#b: x\n')
	[ "$output" = 'dl-map: line 2: garbled header line (expected "#K: value")' ]
	fails dl-map < <(printf '#P: dl/1 numbers\n#B: 1-2\n#B: 1-2\n')
	[ "$output" = "dl-map: line 3: header #B: given twice" ]
	fails dl-map < <(printf '#P: dl/1 numbers\n#B: 2-1\n')
	[ "$output" = "dl-map: line 2: #B: board range runs backwards" ]
	fails dl-map < <(printf '#P: dl/1 numbers\n#I: \377\n')
	[ "$output" = "dl-map: line 2: header #I: is not one line of valid UTF-8 text" ]
	fails dl-map < <(numbers "1 000000000000000000000000" "#I: late")
	[ "$output" = "dl-map: line 4: header line after the first record" ]
}

@test "boards out of order, outside the range, or missing" {
	fails dl-map < <(numbers "2 000000000000000000000000")
	[ "$output" = "dl-map: line 3: board 2 out of order (expected board 1)" ]
	fails dl-map < <(numbers "3 000000000000000000000000")
	[ "$output" = "dl-map: line 3: board 3 outside the range 1-2 of the header" ]
	fails dl-map < <(numbers "1 000000000000000000000000")
	[ "$output" = "dl-map: input ends after board 1, but its header announced boards 1-2" ]
	fails dl-map < <(numbers "000000000000000000000000")
	[ "$output" = "dl-map: line 3: record without a board number" ]
	fails dl-map < <(printf '#P: dl/1 numbers\n#B: 1-2\n')
	[ "$output" = "dl-map: no boards in the input" ]
}

@test "bad board ranges" {
	for bad in 0 1- x -5 1-x 1000000001 ''; do
		fails dl-stream -n "$bad" < /dev/null
		[ "$output" = "dl-stream: -n $bad: not a board count or range (N or LOW-HIGH, boards 1 to 1000000000)" ]
	done
	fails dl-stream -n 32-17 < /dev/null
	[ "$output" = "dl-stream: -n 32-17: board range runs backwards" ]
}

@test "empty input" {
	fails dl-stream < /dev/null
	[ "$output" = "dl-stream: empty input (expected a seed stream)" ]
	fails dl-map < /dev/null
	[ "$output" = "dl-map: empty input (expected a numbers stream)" ]
	fails dl-fmt-pbn < /dev/null
	[ "$output" = "dl-fmt-pbn: empty input (expected a deals stream)" ]
}

@test "a missing or garbled seed" {
	fails dl-stream <<< "#P: dl/1 seed"
	[ "$output" = "dl-stream: no seed record in the input" ]
	fails dl-stream < <(printf '#P: dl/1 seed\nbigdeal 00\n')
	[ "$output" = "dl-stream: line 2: garbled seed record" ]
	fails dl-stream < <(printf '#P: dl/1 seed\nbigdeal %040d %039dx\n' 0 0)
	[ "$output" = "dl-stream: line 2: garbled seed record" ]
	fails dl-stream < <(printf '#P: dl/1 seed\nother %040d %040d\n' 0 0)
	[ "$output" = "dl-stream: line 2: unknown generator in the seed record" ]
	fails dl-stream < <(printf '#P: dl/1 seed\nbigdeal %040d %040d\nbigdeal %040d %040d\n' 0 0 0 0)
	[ "$output" = "dl-stream: line 3: more than one seed record" ]
	fails dl-seed --hex 0123
	[ "$output" = "dl-seed: --hex: not 40 hex digits (bigdeal) or 64 (dl256)" ]
}

@test "the seed's secret appears in no error message" {
	secret=$(param v1 random)
	fails dl-stream < <(printf '#P: dl/1 seed\nbigdeal %s %s extra\n' "$secret" "$secret")
	[[ "${output,,}" != *"${secret,,}"* ]]
	fails dl-seed --hex "${secret}0"
	[[ "${output,,}" != *"${secret,,}"* ]]
}

@test "overlong lines and NUL bytes" {
	fails dl-map < <(head -c 70000 /dev/zero | tr '\0' 1)
	[ "$output" = "dl-map: line 1: line too long (over 65536 bytes)" ]
	fails dl-map < <(printf '1 0000\0000000000000000000\n')
	[ "$output" = "dl-map: line 1: NUL byte in line" ]
}

@test "write errors are reported, not ignored" {
	fails bash -c 'dl-fmt-pbn < "$0" > /dev/full' "$BIGDEAL/v1/deals.tso"
	[ "$output" = "dl-fmt-pbn: write error on standard output: No space left on device" ]
}

@test "unknown formats and options" {
	fails dl-fmt -f nosuch < /dev/null
	[ "$output" = 'dl-fmt: unknown format "nosuch" (dl-fmt --list shows the formats)' ]
	fails dl-fmt -f ../pbn < /dev/null
	[ "$output" = 'dl-fmt: bad format name "../pbn"' ]
	fails dl-map --mapping nosuch < /dev/null
	[ "$output" = 'dl-map: unknown mapping "nosuch" (known: bigdeal, pavlicek)' ]
}

@test "a stream cut short leaves no output file behind" {
	deals_of v1 | head -20 > cut
	mkdir out
	fails dl-fmt -f pbn -p out/session < cut
	[ "$output" = "dl-fmt: input ends after board 14, but its header announced boards 1-32" ]
	[ "$(ls -A out)" = "" ]
}

@test "an existing deal file is neither overwritten nor touched" {
	mkdir out
	echo old > out/session.pbn
	fails dl-fmt -f pbn -p out/session < "$BIGDEAL/v1/deals.tso"
	[ "$output" = "dl-fmt: out/session.pbn exists: refusing to overwrite deal files (use --force)" ]
	[ "$(cat out/session.pbn)" = old ]
	dl-fmt -f pbn -p out/session --force < "$BIGDEAL/v1/deals.tso"
	cmp <(strip_generator out/session.pbn) <(strip_generator "$BIGDEAL/v1/pbn.pbn")
	[ "$(ls -A out)" = session.pbn ]
}
