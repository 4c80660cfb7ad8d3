#!/bin/sh
# make bench (and make bench-archive): the archive's figures, as recorded
# in docs/performance.md, "The archive (issue 27)".  $ARCHIVE_BOARDS deals
# (10^7) from the benchmark's fixed dl256 key go into a fresh SQLite
# archive, then into a throwaway PostgreSQL server started here
# (t/postgres.bash); each is asked for $LOOKUPS of its own boards (every
# hand found) and for a fresh 32-board session; PostgreSQL with whole keys
# (SQLite's look-ups) and with the 16-bit prefixes a shared archive is
# asked by (about 600 candidates a hand on 10^7 deals: $PREFIX_LOOKUPS
# boards only).  A look-up figure is the
# best of $RUNS runs with the archive warm (its file in the page cache,
# PostgreSQL's buffers filled by the run before); an import is run once,
# into an archive made for it.  A look-up figure is given twice: by the
# clock, which counts the time the machine's neighbours take of its two
# cores, and by the processor time the command used (user and system),
# which does not; the load average when it was taken says which to read
# (docs/performance.md, "What a look-up figure depends on").
set -eu
build=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
PATH="$build/bin:$PATH"
RUNS=${RUNS:-3}
ARCHIVE_BOARDS=${ARCHIVE_BOARDS:-10000000}
LOOKUPS=${LOOKUPS:-100000}
PREFIX_LOOKUPS=${PREFIX_LOOKUPS:-1000}
SESSION_RUNS=${SESSION_RUNS:-50}
ARCHIVE_BACKENDS=${ARCHIVE_BACKENDS:-sqlite postgresql}
want() { case " $ARCHIVE_BACKENDS " in *" $1 "*) return 0 ;; esac; return 1; }
# runs a processor-time figure of a whole command is the mean of: time(1)
# gives hundredths of a second for all of them together
CPU_RUNS=${CPU_RUNS:-200}
if [ ! -x /usr/bin/time ]; then
	echo "make bench-archive needs /usr/bin/time: apt-get install time" >&2
	exit 1
fi
tmp=$(mktemp -d)
pg=
cleanup() { [ -z "$pg" ] || pg_stop; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 2' HUP INT TERM
umask 077

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", n / t }'; }
# best COMMAND: the fastest of $RUNS runs, in seconds
best() {
	b=
	for i in $(seq "$RUNS"); do
		s=$(now)
		sh -c "$1" || [ $? -eq 1 ]	# 1: a check that found deals
		t=$(since "$s")
		b=$(awk -v a="$t" -v b="${b:-$t}" 'BEGIN { print (a < b ? a : b) }')
	done
	echo "$b"
}
# best_times COMMAND: the fastest of $RUNS runs by the clock and the least
# processor time (user + system) of them, in seconds: "WALL CPU"
best_times() {
	w= c=
	for i in $(seq "$RUNS"); do
		/usr/bin/time -f '%e %U %S' -o "$tmp/times" sh -c "$1" || [ $? -eq 1 ]
		set -- "$1" $(tail -n 1 "$tmp/times")
		w=$(awk -v a="$2" -v b="${w:-$2}" 'BEGIN { print (a < b ? a : b) }')
		c=$(awk -v a="$3" -v s="$4" -v b="${c:-9e9}" 'BEGIN { print (a + s < b ? a + s : b) }')
	done
	echo "$w $c"
}
# cpu_per_run N COMMAND: the processor time of N runs of COMMAND one after
# another (user + system, the shell's fork and exec of each included), in
# milliseconds a run
cpu_per_run() {
	/usr/bin/time -f '%U %S' -o "$tmp/times" sh -c "for i in \$(seq $1); do $2 || [ \$? -eq 1 ]; done"
	awk -v n="$1" '{ t = $1 + $2 } END { printf "%.1f", t * 1000 / n }' "$tmp/times"
}
load() { cut -d' ' -f1 /proc/loadavg; }
# received DB [BITS]: what the server sent a check of the session, in
# bytes: the sum of recvfrom(2)'s results of one run under strace (libpq's
# reads), for an archive on a server; nothing without strace
received() {
	case $1 in pg:*|postgresql:*) ;; *) return 0 ;; esac
	command -v strace > /dev/null || return 0
	strace -qq -f -e trace=recvfrom -e signal=none -o "$tmp/strace" \
	    "$build/t/archivebench" "$1" "$tmp/session.tso" 1 ${2:+"$2"} > /dev/null
	awk '/recvfrom\(/ { n = $NF; if (n ~ /^[0-9]+$/) s += n } END { printf "; %d bytes received from the server", s }' "$tmp/strace"
}
# first N FILE: the file's first N boards, as a stream of its own
first() {
	awk -v n="$1" '/^#B:/ { print "#B: 1-" n; next } /^#/ { print; next }
	    { if (++k > n) exit; print }' "$2"
}

printf '#P: dl/1 seed\ndl256 %s\n' \
    000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f |
    dl-stream -n "$ARCHIVE_BOARDS" | dl-map > "$tmp/deals.tso"
first "$LOOKUPS" "$tmp/deals.tso" > "$tmp/lookups.tso"
first "$PREFIX_LOOKUPS" "$tmp/deals.tso" > "$tmp/prefix-lookups.tso"
printf '#P: dl/1 seed\ndl256 %s\n' \
    fd676a98ed0df3ed95af335b7c56acd367d70bfc570b690bfb8a50850c378bdc |
    dl-stream -n 32 | dl-map > "$tmp/session.tso"

echo "archive: $ARCHIVE_BOARDS deals (one set), SQLite $(pkg-config --modversion sqlite3 2>/dev/null || echo '?'), $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"

# lookups BACKEND DB FILE [BITS]: the figures of a warm archive
lookups() {
	n=$(grep -vc '^#' "$3")
	l=$(load)
	set -- "$1" "$2" "$3" "${4:-}" $(best_times "dl-archive -q --db '$2' check ${4:+--prefix-bits $4} '$3'")
	c=$6
	set -- "$1" "$2" "$3" "$4" "$5" $("$build/t/archivebench" "$2" "$3" "$RUNS" ${4:+"$4"})
	echo "  $1: check of $n archived boards${4:+ ($4-bit prefixes)}: dl-archive $(printf %.2f "$5") s," \
	    "$(rate "$n" "$5") boards/s, $(rate $((4 * n)) "$5") hand look-ups/s" \
	    "(dl-archive's own processor time $(printf %.2f "$c") s: $(rate $((4 * n)) "$c")/s; load $l);" \
	    "in one process $(rate $((4 * n)) "$(awk -v ms="$6" 'BEGIN { print ms / 1000 }')") hand look-ups/s" \
	    "($7 the same deal, ${12} one hand)"
	echo "$5" > "$tmp/lookup-$1${4:+-$4}"
}

# session BACKEND DB [BITS]: a fresh 32-board session checked, warm
session() {
	set -- "$1" "$2" "${3:-}" $("$build/t/archivebench" "$2" "$tmp/session.tso" "$SESSION_RUNS" ${3:+"$3"})
	t=$(RUNS=$SESSION_RUNS best "dl-archive -q --db '$2' check ${3:+--prefix-bits $3} '$tmp/session.tso'")
	echo "  $1: a fresh 32-board session checked${3:+ ($3-bit prefixes)}: $4 ms in one process (best of $SESSION_RUNS)," \
	    "$(awk -v t="$t" 'BEGIN { printf "%.1f", t * 1000 }') ms the whole dl-archive check (its start and reading included)$(received "$2" "$3")"
}

# what a run of dl-archive costs before it opens an archive: loading its
# libraries (libpq brings some thirty)
t=$(RUNS=$SESSION_RUNS best "dl-archive --help > /dev/null")
echo "  dl-archive --help: $(awk -v t="$t" 'BEGIN { printf "%.1f", t * 1000 }') ms (the start of every command)"

# SQLite (ARCHIVE_BACKENDS: which are measured, both unless told)
if want sqlite; then
	# SQLite
	s=$(now)
	dl-archive -q --db "$tmp/a.sqlite" add "$tmp/deals.tso"
	t=$(since "$s")
	size=$(stat -c %s "$tmp/a.sqlite")
	echo "  sqlite: add of $ARCHIVE_BOARDS deals: $(printf %.1f "$t") s, $(rate "$ARCHIVE_BOARDS" "$t") deals/s;" \
	    "file $size bytes, $(awk -v s="$size" -v n="$ARCHIVE_BOARDS" 'BEGIN { printf "%.1f", s / n }') bytes a deal"
	lookups sqlite "$tmp/a.sqlite" "$tmp/lookups.tso"
	session sqlite "$tmp/a.sqlite"
	# a director's check of a PBN file: the format told from the file (its
	# suffix, a sniff), given, and a .tso, which needs no reader
	dl-fmt-pbn < "$tmp/session.tso" > "$tmp/session.pbn"
	echo "  sqlite: a fresh 32-board PBN session checked, the whole command's processor time" \
	    "(mean of $CPU_RUNS runs, user + system, its fork and exec included; load $(load)):" \
	    "$(cpu_per_run "$CPU_RUNS" "dl-archive -q --db '$tmp/a.sqlite' check '$tmp/session.pbn'") ms," \
	    "with -f pbn $(cpu_per_run "$CPU_RUNS" "dl-archive -q --db '$tmp/a.sqlite' check -f pbn '$tmp/session.pbn'") ms," \
	    "the .tso $(cpu_per_run "$CPU_RUNS" "dl-archive -q --db '$tmp/a.sqlite' check '$tmp/session.tso'") ms"
	rm -f "$tmp/a.sqlite"
fi

# PostgreSQL, a throwaway server on a Unix socket (t/postgres.bash)
want postgresql || exit 0
. "$top/t/postgres.bash"
if ! pg_bin > /dev/null 2>&1; then
	echo "  postgresql: no server (apt-get install postgresql): not measured"
	exit 0
fi
PG_LOG_STATEMENT=none pg_start "$tmp/pg" > /dev/null
pg=1
psql=$(pg_bin)/psql
# pg_size: the bytes of dl's tables, their indexes and their TOAST
pg_size() {
	"$psql" -At "${PG_ARCHIVE#pg:}" -c "SELECT sum(pg_total_relation_size(c)) FROM unnest(ARRAY['sets', 'deal_blocks', 'hand_buckets']) AS c"
}
per_deal() { awk -v s="$1" -v n="$ARCHIVE_BOARDS" 'BEGIN { printf "%.1f", s / n }'; }
s=$(now)
dl-archive -q --db "$PG_ARCHIVE" add --played "$tmp/deals.tso"
t=$(since "$s")
size=$(pg_size)
echo "  postgresql: add of $ARCHIVE_BOARDS deals: $(printf %.1f "$t") s, $(rate "$ARCHIVE_BOARDS" "$t") deals/s;" \
    "tables, indexes and TOAST $size bytes, $(per_deal "$size") bytes a deal" \
    "($("$psql" -At "${PG_ARCHIVE#pg:}" -c "SELECT value FROM dl_archive WHERE name = 'bucket_bits'")-bit buckets)"
# compact: the buckets sized to the archive, the tables packed
s=$(now)
dl-archive -q --db "$PG_ARCHIVE" compact
t=$(since "$s")
size=$(pg_size)
bucket_bits=$("$psql" -At "${PG_ARCHIVE#pg:}" -c "SELECT value FROM dl_archive WHERE name = 'bucket_bits'")
echo "  postgresql: compact: $(printf %.1f "$t") s; $size bytes, $(per_deal "$size") bytes a deal" \
    "($bucket_bits-bit buckets, $("$psql" -At "${PG_ARCHIVE#pg:}" -c "SELECT round(avg(length(entries)) / 16, 1) FROM hand_buckets") entries a bucket on average;" \
    "$("$psql" -At "${PG_ARCHIVE#pg:}" -c "SELECT string_agg(c || ' ' || pg_total_relation_size(c), ', ') FROM unnest(ARRAY['sets', 'deal_blocks', 'hand_buckets']) AS c"))"
"$psql" -q "${PG_ARCHIVE#pg:}" -c ANALYZE
lookups postgresql "$PG_ARCHIVE" "$tmp/lookups.tso" 32
session postgresql "$PG_ARCHIVE" 32
lookups postgresql "$PG_ARCHIVE" "$tmp/prefix-lookups.tso" 16
session postgresql "$PG_ARCHIVE" 16
# the bits the rule asks for (docs/archive.md, "Checks at scale"): a
# 32-board session's 128 hands, and about 64 candidates a prefix
bits=$(awk -v n="$ARCHIVE_BOARDS" 'BEGIN { most = int(log(128) / log(2) + (95.4376 - 30) / 4);
    need = log(4 * n / 64) / log(2); need = need == int(need) ? need : int(need) + 1;
    b = need < most ? need : most; print b < 8 ? 8 : b }')
echo "  postgresql: the bits a 32-board session asks for by the rule: $bits"
session postgresql "$PG_ARCHIVE" "$bits"
# the same, the server's cache emptied first (restarted, the machine's
# page cache dropped where we may): what a check costs cold
if [ -w /proc/sys/vm/drop_caches ]; then
	pg_as "$(pg_bin)/pg_ctl" -D "$PG_DIR/data" -m fast -w restart > /dev/null
	sync
	echo 3 > /proc/sys/vm/drop_caches
	set -- $("$build/t/archivebench" "$PG_ARCHIVE" "$tmp/session.tso" 1 "$bits")
	echo "  postgresql: the same session, the server restarted and the page cache dropped: $1 ms in one process"
fi
if want sqlite; then
	echo "  postgresql / sqlite, the same look-ups (whole keys): $(awk -v p="$(cat "$tmp/lookup-postgresql-32")" \
	    -v s="$(cat "$tmp/lookup-sqlite")" 'BEGIN { printf "%.2f", p / s }') times the time"
fi
