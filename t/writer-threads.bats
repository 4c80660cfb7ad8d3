#!/usr/bin/env bats
# Several formats in one run: the writers that may run beside each other
# (DL_CONCURRENT) write on threads of their own, fed batches of boards
# from a ring, and every file gets the bytes it gets when all of them
# write in the caller's thread (-j 1).

load helper

# unlimited: every format without a board limit, comma-separated; pdf
# apart (its pages are drawn: slow), and the table cards (drawn, and
# written at the end only: no boards)
unlimited() {
	dl-fmt --list | awk 'NR > 1 && $4 == "-" && $1 != "pdf" && $1 != "tablecards" {
	    printf "%s%s", s, $1; s = "," }'
}

# thread_plugin NAME SAME NEEDS: ./mine/NAME.so, which writes each board's
# number and fails a board called from a thread other than begin's (SAME=1)
# or from begin's own (SAME=0).
thread_plugin() {
	mkdir -p mine
	cc -shared -fPIC -I"$BATS_TEST_DIRNAME/../lib" -DNAME="\"$1\"" -DSAME="$2" \
	    -DNEEDS="$3" -x c - -o "mine/$1.so" <<'EOF'
#define _GNU_SOURCE
#include <unistd.h>
#include "dl/plugin.h"

static pid_t begun;

static int
test_begin(struct dl_out *out, const struct dl_run *run, void **state)
{
	(void)out; (void)run; (void)state;
	begun = gettid();
	return 0;
}

static int
test_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal,
    void *state)
{
	(void)run; (void)state;
	if ((gettid() == begun) != SAME) {
		out->fail(out, "board %u: called from %s thread", deal->board,
		    SAME ? "another" : "begin's");
		return -1;
	}
	out->print(out, "%u\n", deal->board);
	return 0;
}

const struct dl_plugin dl_plugin = {
	DL_PLUGIN_HEAD,
	.name = NAME, .suffix = NAME, .description = "threads test",
	.kind = DL_TEXT, .begin = test_begin, .board = test_board, .needs = NEEDS,
};
EOF
}

@test "threads or none, every format gets the same bytes, over many rounds of the ring" {
	# 5000 boards: ten batches of 512, round a ring of four
	seed_of v1 | dl-stream -n 5000 | dl-map > deals
	mkdir one many
	formats=$(unlimited)
	[[ ",$formats," == *,pbn,* && ",$formats," == *,tso,* ]]
	dl-fmt -j 1 -f "$formats" -p one/s < deals
	dl-fmt -j 4 -f "$formats" -p many/s < deals
	[ "$(ls one | wc -l)" -eq "$(tr , '\n' <<< "$formats" | wc -l)" ]
	[ "$(ls one)" = "$(ls many)" ]
	for f in one/*; do cmp "$f" "many/${f#one/}"; done
	# and the same as each format written alone
	for f in pbn html lin; do cmp one/s.$f <(dl-fmt-$f < deals); done
}

@test "threads or none: a run of whole batches" {
	seed_of v1 | dl-stream -n 2048 | dl-map > deals
	mkdir one many
	dl-fmt -j 1 -f pbn,lin,tso -p one/s < deals
	dl-fmt -j 2 -f pbn,lin,tso -p many/s < deals
	for f in pbn lin tso; do cmp one/s.$f many/s.$f; done
}

# bats test_tags=slow
@test "threads or none: analyses over many batches" {
	# sixteen boards analysed by dl-dd, their records repeated as boards
	# 1-1100, each where its dealer and vulnerability come round again
	seed_of v1 | dl-stream -n 16 | dl-map | dl-dd -q > sixteen
	awk '/^#B:/ { print "#B: 1-1100"; next } /^#/ { print; next }
	    { r[n++] = $0 } END { for (b = 1; b <= 1100; b++) { $0 = r[(b - 1) % 16]; $1 = b; print } }' \
	    sixteen > analysed
	mkdir one many
	dl-fmt -j 1 -f pbn,html,tso -p one/s < analysed
	dl-fmt -j 3 -f pbn,html,tso -p many/s < analysed
	for f in pbn html tso; do cmp one/s.$f many/s.$f; done
	[ "$(grep -c 'class="par"' one/s.html)" -eq 1100 ]
}

@test "bad input part-way: standard output gets the boards before it, as without threads" {
	seed_of v1 | dl-stream -n 3000 | dl-map | sed '2004s/ .*/ 12/' > deals
	fails dl-fmt-tso -j 1 < deals
	[ "$output" = "dl-fmt-tso: line 2004: deal is not 52 digits" ]
	dl-fmt-tso -j 1 < deals > one 2> /dev/null || :
	dl-fmt-tso -j 2 < deals > many 2> /dev/null || :
	# its four header lines and boards 1-1999
	[ "$(wc -l < one)" -eq 2003 ]
	cmp one many
}

# bats test_tags=slow
@test "threads or none: an analysed stream, the hand records too" {
	seed_of v1 | dl-stream -n 7 | dl-map | dl-dd -q > analysed
	mkdir one many
	dl-fmt -j 1 -f pbn,html,pdf,tso -p one/s < analysed
	dl-fmt -j 3 -f pbn,html,pdf,tso -p many/s < analysed
	for f in pbn html tso; do cmp one/s.$f many/s.$f; done
	# a PDF says when it was made
	cmp <(grep -av CreationDate one/s.pdf) <(grep -av CreationDate many/s.pdf)
	grep -q 'Par: ' one/s.html
}

@test "the writers that say DL_CONCURRENT run on threads; the others in begin's thread" {
	thread_plugin own 1 0
	thread_plugin pooled 0 DL_CONCURRENT
	seed_of v1 | dl-stream -n 3000 | dl-map > deals
	mkdir out
	DL_PLUGIN_PATH=$PWD/mine dl-fmt -j 2 -f own,pooled,pbn -p out/s < deals
	[ "$(cat out/s.own)" = "$(seq 3000)" ]
	cmp out/s.own out/s.pooled
	# one writer alone too, while the boards are read
	DL_PLUGIN_PATH=$PWD/mine dl-fmt -j 2 -f pooled < deals > alone
	cmp out/s.pooled alone
	# -j 1: no threads, so the pooled writer is called from begin's
	mkdir out1
	DL_PLUGIN_PATH=$PWD/mine fails dl-fmt -j 1 -f own,pooled,pbn -p out1/s < deals
	[ "$output" = "dl-fmt: pooled: board 1: called from begin's thread" ]
	[ "$(ls -A out1)" = "" ]
}

@test "a writer that fails on a thread: its message, no file of the run" {
	mkdir mine out
	sed -e 's/out->print(out, "\\n");/if (deal->board == 3000) { out->fail(out, "board %u is unlucky", deal->board); return -1; } out->print(out, "\\n");/' \
	    -e 's/\.end = NULL,/.end = NULL, .needs = DL_CONCURRENT,/' \
	    "$BATS_TEST_DIRNAME/../share/examples/hcp.c" |
	    cc -shared -fPIC -I"$BATS_TEST_DIRNAME/../lib" -x c - -o mine/hcp.so
	seed_of v1 | dl-stream -n 5000 | dl-map > deals
	DL_PLUGIN_PATH=$PWD/mine fails dl-fmt -j 2 -f pbn,hcp,tso -p out/s < deals
	[ "$output" = "dl-fmt: hcp: board 3000 is unlucky" ]
	[ "$(ls -A out)" = "" ]
}

@test "dl-fmt -j: 1 to 64 threads" {
	fails dl-fmt -j 0 -f pbn,lin -p s < /dev/null
	[ "$output" = "dl-fmt: -j 0: no threads (1 to 64 threads)" ]
	fails dl-fmt -j 65 -f pbn,lin -p s < /dev/null
	[ "$output" = "dl-fmt: -j 65: too large (1 to 64 threads)" ]
	fails dl-fmt -j x -f pbn,lin -p s < /dev/null
	[ "$output" = "dl-fmt: -j x: invalid (1 to 64 threads)" ]
}
