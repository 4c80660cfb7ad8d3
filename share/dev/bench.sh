#!/bin/sh
# make bench: throughput and peak memory of the pipeline, as recorded in
# docs/performance.md.  Wall-clock figures depend on the machine and on what
# else runs on it: each figure is the best of $RUNS runs, with the spread
# (how much slower the slowest run was); the two figures of a ratio are
# timed in alternation, so that both meet the same neighbours.
set -eu
build=$1
PATH="$build/bin:$PATH"
RUNS=${RUNS:-3}
BOARDS=${BOARDS:-1000000}
READ_BOARDS=${READ_BOARDS:-1000000}
tmp=$(mktemp -d)
mem=
trap 'rm -rf "$tmp" ${mem:+"$mem"}' EXIT
umask 077

if [ ! -x /usr/bin/time ]; then
	echo "make bench needs /usr/bin/time: apt-get install time" >&2
	exit 1
fi
# Debian installs dealer among the games
DEALER=$(command -v dealer || echo /usr/games/dealer)
if [ ! -x "$DEALER" ]; then
	echo "make bench needs dealer, the reference: apt-get install dealer" >&2
	exit 1
fi

now() { date +%s.%N; }

# timed COMMAND: the seconds one run of a shell command takes
timed() {
	start=$(now)
	sh -c "$1"
	awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.4f", b - a }'
}

min() { awk -v a="$1" -v b="${2:-$1}" 'BEGIN { print (a < b ? a : b) }'; }
max() { awk -v a="$1" -v b="${2:-$1}" 'BEGIN { print (a > b ? a : b) }'; }

# best COMMAND: the fastest of $RUNS runs of a shell command; the slowest
# goes to $tmp/worst, for report's spread
best() {
	best= worst=
	for i in $(seq "$RUNS"); do
		t=$(timed "$1")
		best=$(min "$t" "$best") worst=$(max "$t" "$worst")
	done
	echo "$worst" > "$tmp/worst"
	echo "$best"
}

# best_of_two A B: "BEST-A BEST-B", the two commands run in turn $RUNS
# times; their slowest runs go to $tmp/worst and $tmp/worst2
best_of_two() {
	a= b= wa= wb=
	for i in $(seq "$RUNS"); do
		t=$(timed "$1")
		a=$(min "$t" "$a") wa=$(max "$t" "$wa")
		t=$(timed "$2")
		b=$(min "$t" "$b") wb=$(max "$t" "$wb")
	done
	echo "$wa" > "$tmp/worst"
	echo "$wb" > "$tmp/worst2"
	echo "$a $b"
}

rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", n / t }'; }

dl-seed --no-history -o -e 'benchmark seed, fixed so that runs are comparable' > "$tmp/seed"
printf '#P: dl/1 seed\ndl256 %s\n' \
    000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f > "$tmp/key"

echo "dl benchmark: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), vector path $("$build/t/rmdlanes" --level)"

# The reference, in the same run: Debian's dealer making $BOARDS deals and
# printing each on one line (its fastest output), to /dev/null.  Every
# dealing and formatting figure below is also given as a multiple of it.
printf 'produce %s\naction printoneline\n' "$BOARDS" > "$tmp/dealer.in"
t=$(best "$DEALER -s 1 '$tmp/dealer.in' > /dev/null")
ref=$(rate "$BOARDS" "$t")
echo "reference: dealer, $BOARDS deals printed one a line: $(printf %.3f "$t") s: $ref deals/s"

# report WHAT BOARDS SECONDS [WORST]: a line with the rate, the multiple of
# dealer's and the spread: how much slower the slowest run was (WORST, or
# the last best's)
report() {
	printf '%-46s %8.3f s %10s /s %6.1fx dealer, spread %s %%\n' "$1" "$3" \
	    "$(rate "$2" "$3")" "$(awk -v n="$2" -v t="$3" -v r="$ref" 'BEGIN { print n / t / r }')" \
	    "$(awk -v w="${4:-$(cat "$tmp/worst")}" -v t="$3" 'BEGIN { printf "%.0f", (w / t - 1) * 100 }')"
}

echo "seed -> .tso, $BOARDS boards, to /dev/null:"
report "  dl256 pipeline (dl-stream | dl-map)" "$BOARDS" \
    "$(best "dl-stream -n $BOARDS < '$tmp/key' | dl-map > /dev/null")"
report "  bigdeal pipeline (dl-stream | dl-map)" "$BOARDS" \
    "$(best "dl-stream -n $BOARDS < '$tmp/seed' | dl-map > /dev/null")"
report "  dl256, one process (dl-stream --deals)" "$BOARDS" \
    "$(best "dl-stream -d -n $BOARDS < '$tmp/key' > /dev/null")"
report "  dl256, one process, 2 threads (dl-stream -d -j 2)" "$BOARDS" \
    "$(best "dl-stream -d -j 2 -n $BOARDS < '$tmp/key' > /dev/null")"
report "  dl256, one process (dl-deal --many -f tso)" "$BOARDS" \
    "$(best "DL_SEED_HISTORY='$tmp/history' dl-deal --many -n $BOARDS -f tso > /dev/null")"
report "  bigdeal, one process (dl-deal -g bigdeal)" "$BOARDS" \
    "$(best "DL_SEED_HISTORY='$tmp/history' dl-deal --many -g bigdeal -n $BOARDS -f tso > /dev/null")"
dl-stream -n "$BOARDS" < "$tmp/key" > "$tmp/numbers"
report "  dl-map alone" "$BOARDS" "$(best "dl-map < '$tmp/numbers' > /dev/null")"
report "  dl-stream alone, dl256" "$BOARDS" "$(best "dl-stream -n $BOARDS < '$tmp/key' > /dev/null")"
report "  dl-stream alone, bigdeal" "$BOARDS" "$(best "dl-stream -n $BOARDS < '$tmp/seed' > /dev/null")"
for path in plain avx2; do
	report "  dl-stream alone, bigdeal, DL_SIMD=$path" "$BOARDS" \
	    "$(best "DL_SIMD=$path dl-stream -n $BOARDS < '$tmp/seed' > /dev/null")"
done

# Both cores: one pipeline writing a file, against the run split in two:
# by threads in one process, by two shards made side by side and joined
# by dl-cat (docs/generator.md), the same bytes.
echo "seed -> .tso file, $BOARDS boards, split over $(nproc) cores (each way in turn with the pipeline):"
pipeline="dl-stream -n $BOARDS < '$tmp/key' | dl-map > '$tmp/one.tso'"
split() {
	set -- "$1" $(best_of_two "$pipeline" "$2")
	report "  one pipeline (dl-stream | dl-map)" "$BOARDS" "$2" "$(cat "$tmp/worst")"
	report "  $1" "$BOARDS" "$3" "$(cat "$tmp/worst2")"
	cmp -s "$tmp/one.tso" "$tmp/split.tso" || { echo "bench: $1 differs from the run" >&2; exit 1; }
	echo "    $(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.2f", a / b }')x one pipeline, the same bytes"
}
split "2 threads (dl-stream -d -j 2)" "dl-stream -d -j 2 -n $BOARDS < '$tmp/key' > '$tmp/split.tso'"
split "2 shards through pipes, dl-cat" "bash -c \"dl-cat <(dl-stream -d -n $BOARDS --shard 1/2 < '$tmp/key') <(dl-stream -d -n $BOARDS --shard 2/2 < '$tmp/key') > '$tmp/split.tso'\""
split "2 shards to files, then dl-cat" "for k in 1 2; do dl-stream -d -n $BOARDS --shard \$k/2 < '$tmp/key' > '$tmp/part'\$k & done; wait;
    dl-cat '$tmp/part1' '$tmp/part2' > '$tmp/split.tso'"
report "  dl-cat alone, 2 shard files" "$BOARDS" "$(best "dl-cat '$tmp/part1' '$tmp/part2' > /dev/null")"

# Formats: dl-fmt-pbn as a user runs it, and each writer alone
# (t/helpers/fmtbench: the writer's time for $FMT_BOARDS boards in memory).
report ".tso -> PBN, dl-fmt-pbn, $BOARDS boards" "$BOARDS" \
    "$(best "dl-fmt-pbn < '$tmp/one.tso' > /dev/null")"
report ".tso -> PBN, dl-fmt-pbn -j 1 (reading, then writing)" "$BOARDS" \
    "$(best "dl-fmt-pbn -j 1 < '$tmp/one.tso' > /dev/null")"
FMT_BOARDS=${FMT_BOARDS:-200000}
echo "each writer alone, $FMT_BOARDS boards (DUP, DLM, CDS, KOPS: sessions as they hold):"
for f in $(dl-fmt --list | awk 'NR > 1 { print $1 }'); do
	n=$FMT_BOARDS
	[ "$f" = pdf ] && n=$((FMT_BOARDS / 100))	# pages are drawn: fewer
	r=0
	for i in $(seq "$RUNS"); do
		x=$(DL_PLUGIN_PATH="$build/plugins" "$build/t/fmtbench" "$f" "$n" < "$tmp/one.tso" 2>&1 > /dev/null)
		r=$(awk -v a="$x" -v b="$r" 'BEGIN { print (a > b ? a : b) }')
	done
	printf '  %-10s %10s boards/s %6.1fx dealer\n' "$f" "$r" "$(awk -v a="$r" -v r="$ref" 'BEGIN { print a / r }')"
done
# every format of no board limit in one run, against the slowest alone
# (html: the hand records of pdf are left out, a page a drawing)
all=$(dl-fmt --list | awk 'NR > 1 && $4 == "-" && $1 != "pdf" { printf "%s%s", sep, $1; sep = "," }')
head -$((FMT_BOARDS + 4)) "$tmp/one.tso" | sed "s/^#B: .*/#B: 1-$FMT_BOARDS/" > "$tmp/fmt.tso"
# (files in a directory in memory where there is one: the disk's speed
# is not the writers')
mem=$tmp
if [ -d /dev/shm ] && [ -w /dev/shm ]; then mem=$(mktemp -d /dev/shm/dl-bench.XXXXXX); fi
nformats=$(echo "$all" | tr , ' ' | wc -w)
t=$(best "rm -f '$mem'/all.*; dl-fmt -j 1 -f $all -p '$mem/all' < '$tmp/fmt.tso'")
report "  $nformats formats in one run, one thread (-j 1)" "$FMT_BOARDS" "$t"
slowest=0 name=
for f in $(echo "$all" | tr , ' '); do
	t=$(best "rm -f '$mem'/one.*; dl-fmt -j 1 -f $f -p '$mem/one' < '$tmp/fmt.tso'")
	if awk -v a="$t" -v b="$slowest" 'BEGIN { exit !(a > b) }'; then slowest=$t name=$f; fi
done
# the run of all against the slowest alone, in turn
set -- $(best_of_two "rm -f '$mem'/all.*; dl-fmt -f $all -p '$mem/all' < '$tmp/fmt.tso'" \
    "rm -f '$mem'/one.*; dl-fmt -j 1 -f $name -p '$mem/one' < '$tmp/fmt.tso'")
rm -f "$mem"/all.* "$mem"/one.*
report "  $nformats formats in one run, a thread a core ($all)" "$FMT_BOARDS" "$1" "$(cat "$tmp/worst")"
report "  the slowest of them alone, one thread ($name)" "$FMT_BOARDS" "$2" "$(cat "$tmp/worst2")"
echo "    the $nformats cost $(awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }') times the slowest alone"

# Reading: dl-read checks a file whole before its stream begins, so it
# reads a file twice and a pipe once (its deals held in a temporary file).
dl-stream -n "$READ_BOARDS" < "$tmp/seed" | dl-map > "$tmp/read.tso"
for f in pbn lin; do
	dl-fmt -f "$f" -p "$tmp/read" < "$tmp/read.tso" 2> /dev/null || continue
	t=$(best "dl-read '$tmp/read.$f' > /dev/null")
	t1=$(best "dl-read -f $f < '$tmp/read.$f' > /dev/null")
	echo "$f -> .tso:     $READ_BOARDS boards: a file (read twice) $(rate "$READ_BOARDS" "$t") boards/s, a pipe (once) $(rate "$READ_BOARDS" "$t1") boards/s"
done

echo "dl256 random access: $("$build/t/dl256time" 100000) us of compute a board (random key, event, session, board)"

# Double dummy: dl-dd against DDS's own batch throughput on the same
# deals (t/helpers/ddsbatch.c: CalcAllTables, 32 a call, on every core,
# timed around the solving alone), and a 32-board session.
DD_BOARDS=${DD_BOARDS:-128}
dl-stream -n "$DD_BOARDS" < "$tmp/seed" | dl-map > "$tmp/dd.tso"
dds_best=
for i in $(seq "$RUNS"); do
	t=$("$build/t/ddsbatch" < "$tmp/dd.tso")
	dds_best=$(awk -v a="$t" -v b="${dds_best:-$t}" 'BEGIN { print (a < b ? a : b) }')
done
t=$(best "dl-dd -q < '$tmp/dd.tso' > /dev/null")
/usr/bin/time -f '%P' -o "$tmp/cpu" dl-dd -q < "$tmp/dd.tso" > /dev/null
echo "dl-dd:          $DD_BOARDS boards in $(printf %.2f "$t") s: $(rate "$DD_BOARDS" "$t") boards/s, CPU $(cat "$tmp/cpu") of $(nproc) cores"
echo "  DDS batch alone: $(printf %.2f "$dds_best") s: $(rate "$DD_BOARDS" "$dds_best") boards/s; dl-dd takes $(awk -v a="$t" -v b="$dds_best" 'BEGIN { printf "%+.1f", (a / b - 1) * 100 }') %"
dl-stream -n 32 < "$tmp/seed" | dl-map > "$tmp/dd32.tso"
t=$(best "dl-dd -q < '$tmp/dd32.tso' > /dev/null")
echo "  a 32-board session: $(printf %.2f "$t") s"

# Memory: the same at ten times the boards, stage by stage.
echo "peak RSS, $BOARDS and $((10 * BOARDS)) boards:"
rss() {
	/usr/bin/time -f '%M' -o "$tmp/rss" sh -c "$2" > /dev/null
	a=$(cat "$tmp/rss")
	/usr/bin/time -f '%M' -o "$tmp/rss" sh -c "$(echo "$2" | sed "s/-n $BOARDS/-n $((10 * BOARDS))/")" > /dev/null
	printf '  %-22s %6d KiB %6d KiB\n' "$1" "$a" "$(cat "$tmp/rss")"
}
rss dl-stream "dl-stream -n $BOARDS < '$tmp/key'"
rss "dl-stream (bigdeal)" "dl-stream -n $BOARDS < '$tmp/seed'"
rss "dl-stream --deals" "dl-stream -d -n $BOARDS < '$tmp/key'"
rss dl-map "dl-stream -n $BOARDS < '$tmp/key' | dl-map"
rss dl-fmt-pbn "dl-stream -d -n $BOARDS < '$tmp/key' | dl-fmt-pbn"
rss dl-cat "dl-stream -d -n $BOARDS < '$tmp/key' | dl-cat -"
rss "dl-deal -f tso" "DL_SEED_HISTORY='$tmp/history' dl-deal --many -n $BOARDS -f tso"
/usr/bin/time -f '%M' -o "$tmp/rss" dl-seed --no-history -o -e 'benchmark seed, fixed so that runs are comparable' > /dev/null
printf '  %-22s %6d KiB\n' dl-seed "$(cat "$tmp/rss")"
[ -f "$tmp/read.pbn" ] && { /usr/bin/time -f '%M' -o "$tmp/rss" dl-read "$tmp/read.pbn" > /dev/null;
    printf '  %-22s %6d KiB (%s boards)\n' "dl-read, a PBN file" "$(cat "$tmp/rss")" "$READ_BOARDS"; }
/usr/bin/time -f '%M' -o "$tmp/rss" dl-dd -q < "$tmp/dd.tso" > /dev/null
printf '  %-22s %6d KiB (%s boards)\n' dl-dd "$(cat "$tmp/rss")" "$DD_BOARDS"
