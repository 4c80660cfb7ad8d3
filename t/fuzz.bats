#!/usr/bin/env bats
# The fuzz corpus (docs/fuzzing.md): every input in t/fuzz/corpus/NAME, the
# seeds and what make fuzz found, through harness NAME built with the
# ordinary compiler and the replay driver; under make sanitize with ASan
# and UBSan.  A harness that finds a fault aborts, and the test fails.

load helper

CORPUS=$BATS_TEST_DIRNAME/fuzz/corpus

# replay NAME: the whole corpus of harness NAME, without a fault
replay() {
	run "$DL_BUILD/fuzz/$1" "$CORPUS/$1"
	[ "$status" -eq 0 ] || { echo "$output" | tail -20; return 1; }
	# the driver names each input, then how many ran
	local n
	n=$(find "$CORPUS/$1" -type f ! -name '.*' | wc -l)
	[ "$n" -gt 0 ]
	[ "${lines[${#lines[@]} - 1]}" = "replay: $n inputs, no fault" ]
}

@test "every harness has a replay binary and a corpus" {
	local n=0
	for src in "$BATS_TEST_DIRNAME"/fuzz/fuzz_*.c; do
		name=$(basename "$src" .c)
		[ -x "$DL_BUILD/fuzz/$name" ] || { echo "no $DL_BUILD/fuzz/$name"; return 1; }
		[ -n "$(ls "$CORPUS/$name")" ] || { echo "no corpus for $name"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -ge 10 ]	# the harnesses of docs/fuzzing.md
}

@test "the replay driver fails without inputs, or on a missing one" {
	mkdir empty
	run "$DL_BUILD/fuzz/fuzz_lines" empty
	[ "$status" -eq 2 ]
	[ "$output" = "replay: no inputs" ]
	run "$DL_BUILD/fuzz/fuzz_lines" missing
	[ "$status" -eq 2 ]
}

@test "the replay driver fails when a harness finds a fault" {
	# DL_FUZZ_SELFTEST makes the harness report a fault before the first
	# input, as it does when a property does not hold: the run must fail,
	# not pass
	DL_FUZZ_SELFTEST=1 run "$DL_BUILD/fuzz/fuzz_lines" "$CORPUS/fuzz_lines"
	[ "$status" -ne 0 ]
	[[ "$output" == *"fuzz: self-test: a fault"* ]]
}

@test "fuzz corpus: the line reader" {
	replay fuzz_lines
}

@test "fuzz corpus: seed streams (dl-stream, dl-seed --verify)" {
	replay fuzz_proto_seed
}

@test "fuzz corpus: numbers streams (dl-map)" {
	replay fuzz_proto_numbers
}

@test "fuzz corpus: deals streams (dl-fmt, dl-map --reverse)" {
	replay fuzz_proto_deals
}

@test "fuzz corpus: sets streams and sets in their own order (dl-archive import)" {
	replay fuzz_proto_sets
}

@test "fuzz corpus: .sqd files" {
	replay fuzz_sqd
}

@test "fuzz corpus: .sqk key files" {
	replay fuzz_sqk
}

@test "fuzz corpus: .bigdealrc" {
	replay fuzz_bigdealrc
}

@test "fuzz corpus: board numbers, ranges and lists" {
	replay fuzz_board_range
}

@test "fuzz corpus: dates of other forms made PBN's (dl-read's #D:)" {
	replay fuzz_date
}

@test "fuzz corpus: plugin metadata" {
	replay fuzz_plugin
}

@test "fuzz corpus: played deals for dl-sqd verify --deals" {
	replay fuzz_played_pbn
}

@test "fuzz corpus: dl-web's form parser (urlencoded and multipart bodies)" {
	replay fuzz_cgi
}

@test "fuzz corpus: every reader (dl-read), on Big Deal's files and what make fuzz found" {
	replay fuzz_read
}

@test "fuzz_read links every plugin that reads, and the corpus has a seed for each, naming it" {
	readers=$(dl-read --list | awk 'NR > 1 { print $1 }' | sort)
	[ -n "$readers" ]
	# each reader's dl_plugin, renamed dl_plugin_NAME (share/dev/fuzz.mk)
	linked=$(nm "$DL_BUILD/fuzz/fuzz_read" | sed -n 's/^[0-9a-f]* [A-Za-z] dl_plugin_\([a-z0-9_]*\)$/\1/p' | sort)
	[ "$linked" = "$readers" ] || { echo "fuzz_read links:" $linked; echo "readers:" $readers; return 1; }
	# an input's first line names its reader, then dl-read's options: each
	# seed-NAME-* names NAME
	for seed in "$CORPUS"/fuzz_read/seed-*; do
		name=${seed##*/seed-}
		name=${name%%-*}
		line=$(head -1 "$seed")
		read -r first options <<< "$line"
		[ "$first" = "$name" ] || { echo "$seed: first line $line"; return 1; }
		set -- $options
		while [ $# -gt 0 ]; do
			case $1 in
			--partial | --renumber) shift ;;
			--first) [[ ${2:-} =~ ^[0-9]+$ ]] || { echo "$seed: first line $line"; return 1; }
				shift 2 ;;
			*) echo "$seed: first line $line"; return 1 ;;
			esac
		done
	done
	for name in $readers; do
		ls "$CORPUS"/fuzz_read/seed-"$name"-* > /dev/null || { echo "no seed for $name"; return 1; }
	done
}
