#!/bin/sh
# make bench-web (a part of make bench): dl-web's figures behind lighttpd,
# for docs/performance.md.
#   sh share/dev/bench-web.sh BUILD
# lighttpd runs as make serve runs it (share/web/serve.sh, the project's
# share/web/lighttpd.conf) on a free loopback port, with a fresh SQLite
# archive in a folder of its own; ApacheBench (ab) posts 32-board sessions
# with download=zip, as a script would.  Then 1 000 requests more, with
# 30 cut off by their client in the middle, and a look for what a request
# could leave behind: a file in the CGI's temporary folder, a dl-web
# process, a seed file.
set -eu

build=${1:?usage: bench-web.sh BUILD}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
here=$(cd "$(dirname "$0")/../web" && pwd)
ab=$(command -v ab || echo /usr/bin/ab)
[ -x "$ab" ] || { echo "bench-web.sh: no ab (apt-get install apache2-utils)" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/dl-bench-web.XXXXXX")
# the CGI's temporary folder where make serve puts it: in memory when
# there is a tmpfs
if [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	webtmp=$(mktemp -d /dev/shm/dl-bench-web.XXXXXX)
else
	webtmp=$dir/tmp
	mkdir -m 700 "$webtmp"
fi
server=
# serve.sh and its lighttpd in a session of their own, ended together
stop() {
	[ -z "$server" ] || kill -TERM "-$server" 2>/dev/null || true
	[ -z "$server" ] || wait "$server" 2>/dev/null || true
	rm -rf "$dir" "$webtmp"
}
trap stop EXIT
trap 'exit 130' INT TERM

# a port no one listens on
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
TMPDIR=$dir DL_WEB_TMP=$webtmp DL_ARCHIVE=$dir/archive.sqlite DL_WEB_PORT=$port DL_WEB_ERRORLOG=$dir/error.log \
    setsid sh "$here/serve.sh" "$build/bin/dl-web" > "$dir/serve.out" 2>&1 &
server=$!
url=http://127.0.0.1:$port/
i=0
until curl -fsS -o /dev/null "$url" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || { echo "bench-web.sh: lighttpd did not start:" >&2; cat "$dir/serve.out" >&2; exit 1; }
	sleep 0.1
done

printf 'event=Bench&boards=1-32&formats=pbn&download=zip' > "$dir/pbn.body"
printf 'event=Bench&boards=1-32&formats=pbn,pdf&download=zip' > "$dir/pdf.body"

# one row: requests, clients, body; ab's own figures.  ab counts answers
# whose length differs from the first as "failed": zips of different
# deals differ in length; non-2xx answers are what would be wrong.
row() {
	"$ab" -q -n "$1" -c "$2" -p "$dir/$3.body" -T application/x-www-form-urlencoded "$url" \
	    > "$dir/ab.out" 2>&1 || { cat "$dir/ab.out" >&2; exit 1; }
	if grep -q '^Non-2xx' "$dir/ab.out"; then
		echo "bench-web.sh: answers other than 200:" >&2
		cat "$dir/ab.out" >&2
		exit 1
	fi
	awk -v what="$3" -v c="$2" -v n="$1" '
		/^Requests per second/ { rate = $4 }
		/^ +50%/ { p50 = $2 } /^ +95%/ { p95 = $2 } /^ +99%/ { p99 = $2 }
		END { printf "%-5s %3d clients %5d requests: %7.1f a second, p50 %4d ms, p95 %4d ms, p99 %4d ms\n",
		    what, c, n, rate, p50, p95, p99 }' "$dir/ab.out"
}

echo "dl-web behind lighttpd on 127.0.0.1:$port, 32-board sessions, download=zip,"
echo "the archive in $dir, the CGI's temporary folder in $webtmp:"
# a warm-up: the archive made, the page cache filled
"$ab" -q -n 20 -c 1 -p "$dir/pbn.body" -T application/x-www-form-urlencoded "$url" > /dev/null
row 1000 1 pbn
row 1000 2 pbn
row 1000 4 pbn
row 300 1 pdf
row 300 2 pdf

echo "1000 requests more, 30 of them cut off by their client after 10 ms:"
"$ab" -q -n 1000 -c 2 -p "$dir/pbn.body" -T application/x-www-form-urlencoded "$url" \
    > "$dir/ab.out" 2>&1 &
load=$!
for k in $(seq 30); do
	curl -s -o /dev/null --max-time 0.01 --data-binary @"$dir/pdf.body" \
	    -H 'Content-Type: application/x-www-form-urlencoded' "$url" || true
done
wait $load
# the cut-off requests' dl-web end when their answer finds no reader
sleep 3
left=$(find "$webtmp" -mindepth 1 | wc -l)
procs=$(pgrep -f "^$build/bin/dl-web" | wc -l || true)
seeds=$(find "${TMPDIR:-/tmp}" -name '*.seed' -newer "$dir/pbn.body" 2>/dev/null | wc -l)
echo "left behind: $left files in the CGI's temporary folder, $procs dl-web processes, $seeds seed files"
sets=$(sqlite3 "$dir/archive.sqlite" 'SELECT count(*) FROM sets')
echo "sets in the archive: $sets"
[ "$left" -eq 0 ] && [ "$procs" -eq 0 ] && [ "$seeds" -eq 0 ]
