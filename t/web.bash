# dl-web behind a real lighttpd (share/web/lighttpd.conf), for
# t/web-server.bats and t/web-browser.bats: web_start in setup_file,
# web_stop in teardown_file.  The server runs as the user running the
# suite, on a free loopback port, with an archive, a document root and a
# TMPDIR of the file's own under $BATS_FILE_TMPDIR/web.

# a free TCP port on the loopback
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# web_start: lighttpd in the background, answering; sets WEB (the folder),
# WEB_URL, WEB_TMP (the CGI's TMPDIR), WEB_BIN, WEB_ARCHIVE
web_start() {
	DL_BUILD=$(cd "$DL_BUILD" && pwd)
	export DL_BUILD
	WEB=$BATS_FILE_TMPDIR/web
	mkdir -p "$WEB/root" "$WEB/tmp"
	chmod 700 "$WEB/tmp"
	WEB_TMP=$WEB/tmp
	WEB_BIN=$DL_BUILD/bin/dl-web
	WEB_ARCHIVE=$WEB/archive.sqlite
	WEB_PORT=$(free_port)
	WEB_URL=http://127.0.0.1:$WEB_PORT/
	export WEB WEB_TMP WEB_BIN WEB_ARCHIVE WEB_PORT WEB_URL
	local lighttpd
	lighttpd=$(command -v lighttpd || echo /usr/sbin/lighttpd)
	# the names the site answers to, when a suite gives them
	if [ -n "${DL_WEB_HOSTS:-}" ]; then export DL_WEB_HOSTS; fi
	# a client silent for 2 seconds is dropped (the slow clients' tests)
	DL_WEB_BIN=$WEB_BIN DL_WEB_ROOT=$WEB/root DL_WEB_TMP=$WEB_TMP \
	    DL_ARCHIVE=$WEB_ARCHIVE DL_WEB_PORT=$WEB_PORT DL_WEB_IDLE=2 \
	    DL_WEB_ERRORLOG=$WEB/error.log \
	    "$lighttpd" -D -f "$BATS_TEST_DIRNAME/../share/web/lighttpd.conf" \
	    > "$WEB/lighttpd.out" 2>&1 3>&- &
	echo $! > "$WEB/lighttpd.pid"
	for _ in $(seq 50); do
		curl -s -o /dev/null "$WEB_URL" && return 0
		kill -0 "$(cat "$WEB/lighttpd.pid")" 2>/dev/null || break
		sleep 0.1
	done
	echo "lighttpd did not start:" >&2
	cat "$WEB/lighttpd.out" "$WEB/error.log" >&2 2>/dev/null
	return 1
}

web_stop() {
	[ -f "$WEB/lighttpd.pid" ] || return 0
	local pid
	pid=$(cat "$WEB/lighttpd.pid")
	kill "$pid" 2>/dev/null || :
	wait "$pid" 2>/dev/null || :
	rm -f "$WEB/lighttpd.pid"
}

# nginx_start: dl-web behind nginx (share/web/nginx.conf, its "site:"
# lines given this suite's values) and fcgiwrap, both in the background
# with umask 077, answering; sets what web_start sets (WEB, WEB_URL,
# WEB_PORT, WEB_TMP, WEB_BIN, WEB_ARCHIVE) and NGINX, nginx's prefix
# folder (its configuration, pid file, error log, temporary folders).
# fcgiwrap's command line names dl-web (-p): web_idle, which looks for
# dl-web by its path, cannot be used with it.
nginx_start() {
	DL_BUILD=$(cd "$DL_BUILD" && pwd)
	export DL_BUILD
	WEB=$BATS_FILE_TMPDIR/web
	NGINX=$WEB/nginx
	mkdir -p "$WEB/tmp" "$NGINX/empty"
	chmod 700 "$WEB/tmp"
	WEB_TMP=$WEB/tmp
	WEB_BIN=$DL_BUILD/bin/dl-web
	WEB_ARCHIVE=$WEB/archive.sqlite
	WEB_PORT=$(free_port)
	WEB_URL=http://127.0.0.1:$WEB_PORT/
	export WEB WEB_TMP WEB_BIN WEB_ARCHIVE WEB_PORT WEB_URL NGINX
	local nginx fcgiwrap sock conf line user=
	nginx=$(command -v nginx || echo /usr/sbin/nginx)
	fcgiwrap=$(command -v fcgiwrap || echo /usr/sbin/fcgiwrap)
	# a Unix socket's path has at most 107 bytes
	sock=$NGINX/fcgiwrap.sock
	if [ ${#sock} -gt 100 ]; then
		sock=$(mktemp -d /tmp/dl-web-nginx.XXXXXX)/fcgiwrap.sock
		echo "${sock%/*}" > "$NGINX/sockdir"
	fi
	conf=$NGINX/nginx.conf
	sed -e "s|^\(\s*listen\) 127\.0\.0\.1:8080;|\1 127.0.0.1:$WEB_PORT;|" \
	    -e "s|^\(\s*fastcgi_param SCRIPT_FILENAME\) /usr/local/bin/dl-web;|\1 $WEB_BIN;|" \
	    -e "s|^\(\s*fastcgi_param DL_ARCHIVE\) /var/lib/dl/archive\.sqlite;|\1 $WEB_ARCHIVE;|" \
	    -e "s|^\(\s*fastcgi_param TMPDIR\) /var/lib/dl/tmp;|\1 $WEB_TMP;|" \
	    -e "s|^\(\s*fastcgi_param DL_WEB_HOSTS\) \"\" if_not_empty;|\1 \"${DL_WEB_HOSTS:-}\" if_not_empty;|" \
	    -e "s|^\(\s*fastcgi_pass\) unix:/run/dl-web/fcgiwrap\.sock;|\1 unix:$sock;|" \
	    "$BATS_TEST_DIRNAME/../share/web/nginx.conf" > "$conf"
	# each site: line was found and given its value
	for line in "listen 127.0.0.1:$WEB_PORT;" "SCRIPT_FILENAME $WEB_BIN;" \
	    "DL_ARCHIVE $WEB_ARCHIVE;" "TMPDIR $WEB_TMP;" \
	    "DL_WEB_HOSTS \"${DL_WEB_HOSTS:-}\" if_not_empty;" "fastcgi_pass unix:$sock;"; do
		[ "$(grep -cF -- "$line" "$conf")" = 1 ] || {
			echo "share/web/nginx.conf: no site: line for $line" >&2
			return 1
		}
	done
	# run by root, nginx's workers would be nobody: they stay root, as
	# lighttpd does in web_start
	[ "$(id -u)" != 0 ] || user=" user root;"
	# fcgiwrap in a session of its own: nginx_stop ends it with the
	# processes it forked (-c)
	(umask 077 && exec setsid "$fcgiwrap" -s "unix:$sock" -c 2 -p "$WEB_BIN" \
	    > "$NGINX/fcgiwrap.out" 2>&1 3>&-) &
	echo $! > "$NGINX/fcgiwrap.run"
	for _ in $(seq 50); do
		[ -S "$sock" ] && break
		sleep 0.1
	done
	(umask 077 && exec "$nginx" -p "$NGINX/" -c "$conf" -e "$NGINX/error.log" \
	    -g "daemon off;$user" > "$NGINX/nginx.out" 2>&1 3>&-) &
	echo $! > "$NGINX/nginx.run"
	for _ in $(seq 50); do
		curl -s -o /dev/null "$WEB_URL" && return 0
		kill -0 "$(cat "$NGINX/nginx.run")" 2>/dev/null || break
		sleep 0.1
	done
	echo "nginx did not start:" >&2
	cat "$NGINX/nginx.out" "$NGINX/error.log" "$NGINX/fcgiwrap.out" >&2 2>/dev/null
	return 1
}

# nginx_stop: ends nginx and fcgiwrap (each waited for, 10 s at most,
# then killed), and removes the socket's folder when it was made apart
nginx_stop() {
	local f pid
	for f in nginx fcgiwrap; do
		[ -f "$NGINX/$f.run" ] || continue
		pid=$(cat "$NGINX/$f.run")
		if [ "$f" = fcgiwrap ]; then
			kill -TERM -- "-$pid" 2>/dev/null || :
		else
			kill -TERM "$pid" 2>/dev/null || :
		fi
		for _ in $(seq 100); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null || :
		wait "$pid" 2>/dev/null || :
		rm -f "$NGINX/$f.run"
	done
	if [ -f "$NGINX/sockdir" ]; then
		rm -rf "$(cat "$NGINX/sockdir")"
		rm -f "$NGINX/sockdir"
	fi
}

# slow_clients_start PORT COUNT: COUNT connections to 127.0.0.1:PORT from
# one process, each sending the head of a GET a header line a second and
# never ending it, until slow_clients_stop (or 90 s, when they end by
# themselves); returns once every connection is made and has sent its
# request line.
slow_clients_start() {
	SLOW=$BATS_TEST_TMPDIR/slow
	mkdir -p "$SLOW"
	rm -f "$SLOW/ready" "$SLOW/stop" "$SLOW/held"
	python3 - "$1" "$2" "$SLOW" > "$SLOW/log" 2>&1 3>&- <<'EOF' &
import os, socket, sys, time
port, count, folder = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
start = time.monotonic()
socks = []
for i in range(count):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    s.setblocking(False)
    socks.append(s)
open(os.path.join(folder, "ready"), "w").close()
held = [True] * count

# a connection the server closed, reset or answered is no longer held
def look():
    for i, s in enumerate(socks):
        if held[i]:
            try:
                s.recv(4096)
                held[i] = False
            except BlockingIOError:
                pass
            except OSError:
                held[i] = False

line, last = 0, time.monotonic()
while not os.path.exists(os.path.join(folder, "stop")) and time.monotonic() - start < 90:
    time.sleep(0.1)
    if time.monotonic() - last < 1:
        continue
    last, line = time.monotonic(), line + 1
    look()
    for i, s in enumerate(socks):
        if held[i]:
            try:
                s.send(b"X-Slow-%d: %d\r\n" % (line, i))
            except OSError:
                held[i] = False
look()
with open(os.path.join(folder, "held"), "w") as f:
    print(count, sum(held), file=f)
for s in socks:
    s.close()
EOF
	echo $! > "$SLOW/pid"
	for _ in $(seq 150); do
		[ -f "$SLOW/ready" ] && return 0
		kill -0 "$(cat "$SLOW/pid")" 2>/dev/null || break
		sleep 0.1
	done
	echo "the slow clients did not start:" >&2
	cat "$SLOW/log" >&2
	return 1
}

# slow_clients_stop: ends them (10 s at most) and prints "COUNT HELD": the
# connections made, and how many of them the server still held
slow_clients_stop() {
	[ -n "${SLOW:-}" ] && [ -f "$SLOW/pid" ] || return 0
	local pid
	pid=$(cat "$SLOW/pid")
	touch "$SLOW/stop"
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill "$pid" 2>/dev/null || :
	wait "$pid" 2>/dev/null || :
	rm -f "$SLOW/pid"
	cat "$SLOW/held" 2>/dev/null || cat "$SLOW/log" >&2
}

# web_idle [SECONDS]: waits (30 s unless told) until no dl-web runs and
# the CGI's TMPDIR holds no dl-web.* directory; fails saying what is left.
# lighttpd tells a CGI nothing when its client goes away: a request cut
# off ends when dl-web writes its answer (SIGPIPE), after its analysis.
web_idle() {
	for _ in $(seq $((${1:-30} * 10))); do
		if ! pgrep -f "$WEB_BIN" > /dev/null &&
		    [ -z "$(find "$WEB_TMP" -mindepth 1 -maxdepth 1 -name 'dl-web.*')" ]; then
			return 0
		fi
		sleep 0.1
	done
	echo "still running or left:" >&2
	pgrep -af "$WEB_BIN" >&2
	ls -la "$WEB_TMP" >&2
	return 1
}

# regenerates DIR/PREFIX.FORMAT from DIR/PREFIX.seed for boards RANGE
# (through dl-dd when ANALYSED is 1) and compares byte for byte:
# regenerates DIR PREFIX RANGE ANALYSED FORMAT...
regenerates() {
	local dir=$1 prefix=$2 range=$3 dd=$4 f
	shift 4
	mkdir -p "$dir/regen"
	if [ "$dd" = 1 ]; then
		dl-stream -n "$range" < "$dir/$prefix.seed" | dl-map | dl-dd -q |
		    dl-fmt -f "$(IFS=,; echo "$*")" -p "$dir/regen/$prefix"
	else
		dl-stream -n "$range" < "$dir/$prefix.seed" | dl-map |
		    dl-fmt -f "$(IFS=,; echo "$*")" -p "$dir/regen/$prefix"
	fi
	for f in "$@"; do
		local suffix
		suffix=$(dl-fmt --list | awk -v f="$f" '$1 == f { sub(/^\./, "", $2); print $2 }')
		cmp "$dir/regen/$prefix.$suffix" "$dir/$prefix.$suffix" || return 1
	done
}

# dl-web run as a CGI program in the test's folder (t/web.bats,
# t/web-record.bats): its archive, its lock folder and its private
# folders there, the web server's user, no request left in the
# environment
cgi_setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	export DL_SEED_HISTORY=$BATS_TEST_TMPDIR/seed-history
	export DL_ARCHIVE=$BATS_TEST_TMPDIR/archive.sqlite
	export DL_WEB_LOCKS=$BATS_TEST_TMPDIR/locks
	mkdir tmp
	export TMPDIR=$BATS_TEST_TMPDIR/tmp
	export REMOTE_USER=director
	unset CONTENT_TYPE CONTENT_LENGTH QUERY_STRING
}

# nothing of a request is left in its temporary folder (cgi_setup's)
clean_tmp() {
	[ -z "$(ls -A tmp)" ] || { ls -la tmp >&2; return 1; }
}

# same_form A B: two pages of the form alike but for their one-time
# tokens (once), new each time it is drawn
same_form() {
	cmp <(sed '/^<input type="hidden" name="once" value="[0-9a-f]\{32\}">$/d' "$1") \
	    <(sed '/^<input type="hidden" name="once" value="[0-9a-f]\{32\}">$/d' "$2")
}
