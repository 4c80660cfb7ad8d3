#!/bin/sh
# make bench-web (a part of make bench): dl-web's figures behind lighttpd,
# for docs/performance.md.
#   sh share/dev/bench-web.sh BUILD
# lighttpd runs as make serve runs it (share/web/serve.sh, the project's
# share/web/lighttpd.conf) on a free loopback port, with a fresh SQLite
# archive in a folder of its own; ApacheBench (ab) posts 32-board sessions
# with download=zip, as a script would, and 24-board ones at 2 clients;
# then how soon the first byte of a 24-board session with the analysis
# comes (its page streams as the boards are solved), five times.  Then
# 1 000 requests more, with
# 30 cut off by their client in the middle, and a look for what a request
# could leave behind: a file in the CGI's temporary folder, a dl-web
# process, a seed file.  Last, how long a GET of the form takes while 300
# slow clients from 127.0.0.1 hold connections (each sending a header
# line a second, never ending its head), behind lighttpd and, when nginx
# and fcgiwrap are installed, behind nginx (share/web/nginx.conf).
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
fcgiwrap=
nginx=
# serve.sh and its lighttpd in a session of their own, ended together;
# nginx, and fcgiwrap in a session of its own with its processes
stop() {
	[ -z "$server" ] || kill -TERM "-$server" 2>/dev/null || true
	[ -z "$server" ] || wait "$server" 2>/dev/null || true
	[ -z "$nginx" ] || kill -TERM "$nginx" 2>/dev/null || true
	[ -z "$nginx" ] || wait "$nginx" 2>/dev/null || true
	[ -z "$fcgiwrap" ] || kill -TERM "-$fcgiwrap" 2>/dev/null || true
	[ -z "$fcgiwrap" ] || wait "$fcgiwrap" 2>/dev/null || true
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
printf 'event=Bench&boards=1-24&formats=pbn&download=zip' > "$dir/pbn24.body"
printf 'event=Bench&boards=1-24&formats=pbn&dd=on' > "$dir/dd24.body"

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
row 1000 2 pbn24

# first.py PORT BODY RUNS: a POST of BODY, RUNS times one after the
# other; the seconds to the answer's first byte (its status line: no
# Expect is sent, so no interim 100 Continue comes first), to its progress
# line, and to its end.  Not curl's %{time_starttransfer}: curl 7.88
# gives a POST the time its body was sent, whatever the answer's delay.
cat > "$dir/first.py" <<'EOF'
import socket, sys, time
port, body, runs = int(sys.argv[1]), open(sys.argv[2], "rb").read(), int(sys.argv[3])
for run in range(runs):
    s = socket.create_connection(("127.0.0.1", port), timeout=600)
    t = time.perf_counter()
    s.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
              b"Content-Type: application/x-www-form-urlencoded\r\n"
              b"Content-Length: %d\r\n\r\n" % len(body) + body)
    data = s.recv(1)
    first = time.perf_counter() - t
    progress = None
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
        if progress is None and b"<p>Dealing and solving" in data:
            progress = time.perf_counter() - t
    total = time.perf_counter() - t
    s.close()
    if not data.startswith(b"HTTP/1.1 200 ") or b"<p>Recorded as set" not in data:
        sys.exit("first.py: not a set's page: %r" % data[:200])
    # (a build before issue 37 sends no progress line)
    print("  run %d: first byte %.3f s, progress line %s, the whole page %.1f s"
          % (run + 1, first, "%.3f s" % progress if progress is not None else "none", total))
EOF
echo "24-board sessions with the analysis, their page streamed, one at a time:"
python3 "$dir/first.py" "$port" "$dir/dd24.body" 5

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
[ "$left" -eq 0 ] && [ "$procs" -eq 0 ] && [ "$seeds" -eq 0 ] || exit 1

# slow.py PORT PID...: 20 GETs of the form one after the other, then 300
# slow clients (a thread sends each a header line a second) and 20 GETs
# more while they are held; the GETs' times, how many slow clients the
# server still held at the end, the server's memory (the PIDs' RSS)
cat > "$dir/slow.py" <<'EOF'
import http.client, socket, sys, threading, time
port, pids = int(sys.argv[1]), sys.argv[2:]
def rss():
    kb = 0
    for pid in pids:
        for line in open("/proc/%s/status" % pid):
            if line.startswith("VmRSS:"):
                kb += int(line.split()[1])
    return kb
def gets(n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", "/")
        r = c.getresponse()
        r.read()
        c.close()
        if r.status != 200:
            sys.exit("GET /: %d" % r.status)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return "median %.1f ms, max %.1f ms" % (times[len(times) // 2], times[-1])
alone, kb = gets(20), rss()
socks, held, stop = [], [], threading.Event()
for i in range(300):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    socks.append(s)
    held.append(True)
def slow():
    line = 0
    while not stop.wait(1):
        line += 1
        for i, s in enumerate(socks):
            try:
                if held[i]:
                    s.send(b"X-Slow-%d: %d\r\n" % (line, i))
            except OSError:
                held[i] = False
thread = threading.Thread(target=slow)
thread.start()
time.sleep(2)
busy, kb_busy = gets(20), rss()
stop.set()
thread.join()
for i, s in enumerate(socks):
    s.setblocking(False)
    try:
        s.recv(1)
        held[i] = False
    except BlockingIOError:
        pass
    except OSError:
        held[i] = False
    s.close()
print("  the form alone: %s; %d KiB" % (alone, kb))
print("  300 slow clients held (%d to the end): %s; %d KiB" % (sum(held), busy, kb_busy))
EOF

echo "GET of the form, 20 times, alone and while 300 slow clients hold connections:"
echo "lighttpd (the server's resident memory):"
python3 "$dir/slow.py" "$port" $(pgrep -P "$server" lighttpd)
ng=$(command -v nginx || echo /usr/sbin/nginx)
fw=$(command -v fcgiwrap || echo /usr/sbin/fcgiwrap)
if [ ! -x "$ng" ] || [ ! -x "$fw" ]; then
	echo "nginx: not measured (no nginx or fcgiwrap: apt-get install nginx fcgiwrap)"
	exit 0
fi
# nginx as t/web-nginx.bats runs it: share/web/nginx.conf with its site:
# lines given a free port and this run's paths, under umask 077
mkdir -p "$dir/nginx/empty"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sed -e "s|^\(\s*listen\) 127\.0\.0\.1:8080;|\1 127.0.0.1:$port;|" \
    -e "s|^\(\s*fastcgi_param SCRIPT_FILENAME\) /usr/local/bin/dl-web;|\1 $build/bin/dl-web;|" \
    -e "s|^\(\s*fastcgi_param DL_ARCHIVE\) /var/lib/dl/archive\.sqlite;|\1 $dir/archive.sqlite;|" \
    -e "s|^\(\s*fastcgi_param TMPDIR\) /var/lib/dl/tmp;|\1 $webtmp;|" \
    -e "s|^\(\s*fastcgi_pass\) unix:/run/dl-web/fcgiwrap\.sock;|\1 unix:$dir/nginx/fcgiwrap.sock;|" \
    "$here/nginx.conf" > "$dir/nginx/nginx.conf"
user=
[ "$(id -u)" != 0 ] || user=" user root;"
(umask 077 && exec setsid "$fw" -s "unix:$dir/nginx/fcgiwrap.sock" -c 2 -p "$build/bin/dl-web" \
    > "$dir/nginx/fcgiwrap.out" 2>&1) &
fcgiwrap=$!
(umask 077 && exec "$ng" -p "$dir/nginx/" -c "$dir/nginx/nginx.conf" -e "$dir/nginx/error.log" \
    -g "daemon off;$user" > "$dir/nginx/nginx.out" 2>&1) &
nginx=$!
i=0
until curl -fsS -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || { echo "bench-web.sh: nginx did not start:" >&2; cat "$dir/nginx/"*.out "$dir/nginx/error.log" >&2; exit 1; }
	sleep 0.1
done
echo "nginx and fcgiwrap (nginx's resident memory, master and worker):"
python3 "$dir/slow.py" "$port" "$nginx" $(pgrep -P "$nginx")
