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
