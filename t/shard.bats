#!/usr/bin/env bats
# A run in shards (dl-stream --shard, dl-cat) is byte for byte the run in
# one piece; dl-stream --deals is dl-stream | dl-map in one process.

load helper

KEY='dl256 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f'

seed() { printf '#P: dl/1 seed\n#I: Shard Pairs\n%s\n' "$KEY"; }

@test "dl-stream --deals writes what dl-stream | dl-map writes, for every generator" {
	seed > key
	dl-stream -n 1-5000 --event 7 --session 3 < key | dl-map > piped
	run -0 dl-stream --deals -n 1-5000 --event 7 --session 3 < key
	[ "$output" = "$(cat piped)" ]
	seed_of v1 | tee bd.seed | dl-stream -n 200 | dl-map > piped
	dl-stream -d -n 200 < bd.seed | cmp - piped
	dl-seed -g wwdeal -x "$(printf '%064d' 7)" > ww.seed
	dl-stream -n 300 < ww.seed | dl-map > piped
	sed -n 6p piped | grep -qx '#M: pavlicek'
	dl-stream -d -n 300 < ww.seed | cmp - piped
}

@test "shards: headers and ranges of each, and dl-cat gives the stream of the whole run" {
	seed > key
	dl-stream -n 10 < key > whole
	for k in 1 2 3; do dl-stream -n 10 --shard $k/3 < key > part$k; done
	run -0 cat part2
	[ "$output" = "#P: dl/1 numbers
#I: Shard Pairs
#G: dl256 event 0 session 0
#B: 4-6
#H: 2/3 1-10
4 662f8b0f4a4a6c7dfe7968d1
5 47922101d7e6369e98b6e6be
6 4cba1091c2884d818ee05420" ]
	grep -x '#B: 1-3' part1
	grep -x '#B: 7-10' part3
	dl-cat part1 part2 part3 | cmp - whole
}

@test "a million boards in four shards, through dl-map and through --deals: the same bytes" {
	seed > key
	dl-stream -n 1000000 < key | dl-map > whole
	for k in 1 2 3 4; do
		dl-stream -n 1000000 --shard $k/4 < key | dl-map > mapped$k
		dl-stream -d -n 1000000 --shard $k/4 < key > direct$k
	done
	dl-cat mapped1 mapped2 mapped3 mapped4 | cmp - whole
	dl-cat direct1 direct2 direct3 direct4 | cmp - whole
	# a range that does not start at 1, and one shard
	dl-stream -d -n 17-32 < key > whole
	dl-stream -d -n 17-32 --shard 1/1 < key | dl-cat - | cmp - whole
}

# bats test_tags=slow
@test "analysed shards are put together too, and GNU parallel makes the shards alike" {
	seed > key
	dl-stream -d -n 6 < key | dl-dd -q > whole
	parallel 'dl-stream -d -n 6 --shard {}/2 < key | dl-dd -q > part{}' ::: 1 2
	run -0 dl-cat part1 part2
	[ "$output" = "$(cat whole)" ]
	head -1 whole | grep -qx '#P: dl/1 deals+dd'
	# docs/generator.md's recipe: parallel brings the shards back in files
	dl-stream -d -n 1000 < key > whole
	TMPDIR=$PWD parallel -k --files -S : "dl-stream -d -n 1000 --shard {}/4 < key" \
	    ::: 1 2 3 4 > parts
	[ "$(wc -l < parts)" -eq 4 ]
	dl-cat $(cat parts) | cmp - whole
}

@test "dl-stream --shard: refusals" {
	seed > key
	refuses 2 "dl-stream: --shard 0/3: not K/N with 1 <= K <= N" dl-stream --shard 0/3 < key
	refuses 2 "dl-stream: --shard 4/3: not K/N with 1 <= K <= N" dl-stream --shard 4/3 < key
	refuses 2 "dl-stream: --shard 2: not K/N (shard K of N)" dl-stream --shard 2 < key
	refuses 2 "dl-stream: --shard 1/x: not K/N with 1 <= K <= N" dl-stream --shard 1/x < key
	refuses 2 "dl-stream: --shard 1/40: more shards than the 32 boards" dl-stream --shard 1/40 < key
	seed_of v1 > bd.seed
	refuses 2 "dl-stream: --shard: the bigdeal generator makes its boards in sequence, one after another: they cannot be made apart" \
	    dl-stream --shard 1/2 < bd.seed
}

@test "dl-cat refuses shards that are not one run, in order, all there" {
	seed > key
	for k in 1 2 3; do dl-stream -d -n 30 --shard $k/3 < key > part$k; done
	refuses 1 "dl-cat: 2 of 3 shards, boards 1-20 of 1-30: shards are missing" dl-cat part1 part2
	refuses 1 "dl-cat: part3: boards 21-30 do not follow on from part1's 1-10" dl-cat part1 part3 part2
	refuses 1 "dl-cat: part2: shard 2 of 3 where shard 1 belongs" dl-cat part2 part1 part3
	dl-stream -d -n 30 --shard 3/3 --session 1 < key > other3
	refuses 1 "dl-cat: other3: its headers are not those of part1 (a shard of another run?)" \
	    dl-cat part1 part2 other3
	dl-stream -n 30 --shard 3/3 < key > numbers3
	refuses 1 "dl-cat: numbers3: a numbers stream, but part1 is a deals stream" \
	    dl-cat part1 part2 numbers3
	dl-stream -d -n 21-30 < key > plain3
	refuses 1 "dl-cat: plain3: has no #H: header, as part1 has" dl-cat part1 part2 plain3
	dl-stream -d -n 60 --shard 3/6 < key > big3
	refuses 1 "dl-cat: big3: shard of another run (#H: 3/6 1-60, part1 says 1/3 1-30)" \
	    dl-cat part1 part2 big3
	# a garbled #H: (lib/stream/proto.c reads it, as it writes it)
	sed 's|^#H: 3/3 1-30$|#H: 3of3 1-30|' part3 > garbled3
	refuses 1 "dl-cat: garbled3:7: #H: not \"K/N LOW-HIGH\" (shard K of N)" dl-cat part1 part2 garbled3
	sed 's|^#H: 3/3 1-30$|#H: 3/3 1-1000000001|' part3 > garbled3
	refuses 1 "dl-cat: garbled3:7: #H: not a board count or range (N or LOW-HIGH, boards 1 to 1000000000)" \
	    dl-cat part1 part2 garbled3
	# a record out of place, a file cut short, a seed, no range
	sed '8s/^12 /13 /' part2 > bad2
	refuses 1 "dl-cat: bad2:8: board 13 out of order (expected board 12)" dl-cat part1 bad2 part3
	head -8 part2 > short2
	refuses 1 "dl-cat: short2: input ends after board 12, but its header announced boards 11-20" \
	    dl-cat part1 short2 part3
	# a shard's name is text, never a format (a build with
	# -Werror=format-security found it passed as one)
	cp short2 'short%s%n'
	refuses 1 "dl-cat: short%s%n: input ends after board 12, but its header announced boards 11-20" \
	    dl-cat part1 'short%s%n' part3
	refuses 1 "dl-cat: key:1: expected a numbers, deals or deals+dd stream, got a seed stream" dl-cat key
	grep -v '^#[BH]' part1 > norange
	refuses 1 "dl-cat: norange: no #B: header: a shard must say its boards" dl-cat norange
	refuses 2 "dl-cat: standard input (-) named twice" dl-cat - - < part1
	refuses 2 "dl-cat: nosuch: No such file or directory" dl-cat nosuch
	run -2 dl-cat
	[ "$output" = "usage: dl-cat file ..." ]
}

@test "shards joined and formatted: the PBN of the run made in one piece" {
	seed > key
	for k in 1 2; do dl-stream -d -n 4 --shard $k/2 < key > part$k; done
	dl-cat part1 part2 | dl-fmt -f pbn > joined.pbn
	dl-stream -d -n 4 < key | dl-fmt -f pbn | cmp - joined.pbn
}

@test "shards through pipes: read side by side, held in temporary files, in order" {
	seed > key
	dl-stream -d -n 100000 < key > whole
	run -0 dl-cat <(dl-stream -d -n 100000 --shard 1/3 < key) \
	    <(dl-stream -d -n 100000 --shard 2/3 < key) <(dl-stream -d -n 100000 --shard 3/3 < key)
	[ "$output" = "$(cat whole)" ]
	# a file and pipes mixed; standard input as one of them
	dl-stream -d -n 100000 --shard 2/3 < key > part2
	dl-stream -d -n 100000 --shard 1/3 < key |
	    dl-cat - part2 <(dl-stream -d -n 100000 --shard 3/3 < key) | cmp - whole
	# the temporary files leave nothing behind
	mkdir spool
	TMPDIR=$PWD/spool dl-cat <(dl-stream -d -n 1000 --shard 1/2 < key) \
	    <(dl-stream -d -n 1000 --shard 2/2 < key) > /dev/null
	[ -z "$(ls -A spool)" ]
}

@test "shards through pipes: a bad one is reported in its turn, the shards before it written" {
	seed > key
	dl-stream -d -n 30 --shard 1/3 < key > part1
	dl-stream -d -n 30 --shard 2/3 < key | sed '8s/^12 /13 /' > bad2
	run --separate-stderr dl-cat part1 <(cat bad2) <(dl-stream -d -n 30 --shard 3/3 < key)
	[ "$status" -eq 1 ]
	[[ "$stderr" == "dl-cat: /dev/fd/"*":8: board 13 out of order (expected board 12)" ]]
	[ "$(printf '%s\n' "$output" | grep -c '^[0-9]')" -eq 10 ]
}

@test "dl-stream -j: threads make the same stream, numbers or deals, for any range" {
	seed > key
	dl-stream -d -n 20000 < key > one
	for j in 2 3 7; do dl-stream -d -j $j -n 20000 < key | cmp - one; done
	# ranges that do not fill the threads' chunks, or start anywhere
	dl-stream -n 4095-12289 --event 9 < key > one
	dl-stream -j 2 -n 4095-12289 --event 9 < key | cmp - one
	dl-stream -d -n 5 < key > one
	dl-stream -d -j 4 -n 5 < key | cmp - one
	dl-stream -d -n 100000 --shard 2/3 < key > one
	dl-stream -d -j 2 -n 100000 --shard 2/3 < key | cmp - one
	dl-seed -g wwdeal -x "$(printf '%064d' 7)" > ww.seed
	dl-stream -d -n 9000 < ww.seed > one
	dl-stream -d -j 2 -n 9000 < ww.seed | cmp - one
	# the mappings' tables are made once, by whichever thread comes
	# first: threads that start together must not see them half made
	for i in $(seq 20); do dl-stream -d -j 4 -n 9000 < ww.seed | cmp - one; done
}

@test "dl-stream -j: refusals" {
	seed > key
	refuses 2 "dl-stream: -j 0: no threads (1 to 32 threads)" dl-stream -j 0 < key
	refuses 2 "dl-stream: -j 33: too large (1 to 32 threads)" dl-stream -j 33 < key
	refuses 2 "dl-stream: -j x: invalid (1 to 32 threads)" dl-stream -j x < key
	seed_of v1 > bd.seed
	refuses 2 "dl-stream: -j 2: the bigdeal generator makes its boards in sequence, one after another: one thread makes them" \
	    dl-stream -j 2 < bd.seed
	# one thread is the default, for every generator
	dl-stream -j 1 -n 20 < bd.seed | cmp - <(dl-stream -n 20 < bd.seed)
}
