#!/bin/sh
# make bench: throughput and peak memory of the pipeline, as recorded in
# docs/performance.md.  Wall-clock figures depend on the machine and on what
# else runs on it: each figure is the best of $RUNS runs.
set -eu
build=$1
PATH="$build/bin:$PATH"
RUNS=${RUNS:-3}
BOARDS=${BOARDS:-1000000}
PBN_BOARDS=${PBN_BOARDS:-100000}
READ_BOARDS=${READ_BOARDS:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
umask 077

if [ ! -x /usr/bin/time ]; then
	echo "make bench needs /usr/bin/time: apt-get install time" >&2
	exit 1
fi

now() { date +%s.%N; }

# best TIME-OF-RUNS COMMAND: the fastest of $RUNS runs of a shell command
best() {
	best=
	for i in $(seq "$RUNS"); do
		start=$(now)
		sh -c "$1"
		t=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.4f", b - a }')
		best=$(awk -v a="$t" -v b="${best:-$t}" 'BEGIN { print (a < b ? a : b) }')
	done
	echo "$best"
}

rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", n / t }'; }

dl-seed --no-history -o -e 'benchmark seed, fixed so that runs are comparable' > "$tmp/seed"

echo "dl benchmark: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
t=$(best "dl-stream -n $BOARDS < '$tmp/seed' | dl-map > /dev/null")
echo "seed -> .tso:   $BOARDS boards in $(printf %.3f "$t") s: $(rate "$BOARDS" "$t") deals/s"
t=$(best "dl-stream -n $BOARDS < '$tmp/seed' > /dev/null")
echo "  dl-stream alone: $(rate "$BOARDS" "$t") deals/s"
dl-stream -n "$BOARDS" < "$tmp/seed" > "$tmp/numbers"
t=$(best "dl-map < '$tmp/numbers' > /dev/null")
echo "  dl-map alone:    $(rate "$BOARDS" "$t") deals/s"
dl-stream -n "$PBN_BOARDS" < "$tmp/seed" | dl-map > "$tmp/deals"
t=$(best "dl-fmt-pbn < '$tmp/deals' > /dev/null")
echo ".tso -> PBN:    $PBN_BOARDS boards in $(printf %.3f "$t") s: $(rate "$PBN_BOARDS" "$t") deals/s"

# Reading: dl-read checks a file whole before its stream begins, so it
# reads a file twice and a pipe once (its deals held in a temporary file).
dl-stream -n "$READ_BOARDS" < "$tmp/seed" | dl-map > "$tmp/read.tso"
for f in pbn lin; do
	dl-fmt -f "$f" -p "$tmp/read" < "$tmp/read.tso" 2> /dev/null || continue
	t=$(best "dl-read '$tmp/read.$f' > /dev/null")
	t1=$(best "dl-read -f $f < '$tmp/read.$f' > /dev/null")
	echo "$f -> .tso:     $READ_BOARDS boards: a file (read twice) $(rate "$READ_BOARDS" "$t") boards/s, a pipe (once) $(rate "$READ_BOARDS" "$t1") boards/s"
done

printf '#P: dl/1 seed\ndl256 %s\n' \
    000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f > "$tmp/key"
t=$(best "dl-stream -n $BOARDS < '$tmp/key' | dl-map > /dev/null")
echo "dl256 seed -> .tso: $BOARDS boards in $(printf %.3f "$t") s: $(rate "$BOARDS" "$t") deals/s"
t=$(best "dl-stream -n $BOARDS < '$tmp/key' > /dev/null")
echo "  dl-stream (dl256) alone: $(rate "$BOARDS" "$t") deals/s"
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

echo "peak RSS ($BOARDS boards; PBN $PBN_BOARDS):"
rss() { /usr/bin/time -f '%M' -o "$tmp/rss" "$@" > /dev/null; printf '  %-10s %5d KiB\n' "$1" "$(cat "$tmp/rss")"; }
rss dl-seed --no-history -o -e 'benchmark seed, fixed so that runs are comparable'
rss dl-stream -n "$BOARDS" < "$tmp/seed"
rss dl-map < "$tmp/numbers"
rss dl-fmt-pbn < "$tmp/deals"
[ -f "$tmp/read.pbn" ] && rss dl-read "$tmp/read.pbn"
[ -f "$tmp/read.pbn" ] && rss dl-read - < "$tmp/read.pbn"
rss dl-dd -q < "$tmp/dd.tso"
