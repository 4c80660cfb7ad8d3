#!/bin/bash
# The recipe of docs/distributed.md: an analysis split over machines by
# GNU parallel (share/examples/dd-parallel.sh), here over this machine
# alone, gives the stream of a single run, byte for byte.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	export DL_SEED_HISTORY=$BATS_TEST_TMPDIR/seed-history
	dl-seed --not-for-play --no-history \
	    --hex 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef \
	    --event 'Statistics' > key 2> /dev/null
	chmod 600 key
	SCRIPT=$BATS_TEST_DIRNAME/../share/examples/dd-parallel.sh
}

# bats test_tags=slow
@test "dd-parallel: boards in chunks as separate jobs, joined: the single run's stream" {
	dl-stream -n 1-12 < key | dl-map | dl-dd -q > one.dd
	# 1-5, 6-10, 11-12: a last chunk shorter than the others
	"$SCRIPT" key 12 5 2> err > split.dd
	cmp one.dd split.dd
	# two jobs at a time on this machine: 1-7, 8-12
	"$SCRIPT" key 12 7 2/: 2> err > split2.dd
	cmp one.dd split2.dd
	# the key never on a command line: the jobs read it from its file
	run grep -c "$(sed -n 's/^dl256 //p' key)" err
	[ "$output" = 0 ]
}

@test "dd-parallel: a job that fails fails the whole run" {
	run -2 --separate-stderr "$SCRIPT" key 24
	[ "$stderr" = "usage: dd-parallel KEY BOARDS CHUNK [SSHLOGIN]" ]
	run -2 --separate-stderr "$SCRIPT" "$PWD/key" 24 10
	[ "$stderr" = "dd-parallel: give KEY as a path relative to here, as it will be on the other machines" ]
	# a key that is no seed: every job refuses it
	echo 'not a seed' > bad
	run ! --separate-stderr "$SCRIPT" bad 24 10
	[ -z "$output" ]
	# parallel names the job that failed (which job's own message shows
	# depends on which failed first and which --halt stopped)
	[[ "$stderr" == *"This job failed:"*"dl-stream -n "*"< 'bad' | dl-map | dl-dd -q"* ]]
}
