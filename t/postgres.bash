# A throwaway PostgreSQL server for the shared archive's tests: a cluster
# in a temporary folder, listening on a Unix socket in that folder only
# (no TCP port), stopped by pg_stop.  PostgreSQL will not run as root: the
# suite run by root starts it as the postgres user Debian's package made.
# Sets PG_ARCHIVE to the connection string dl-archive takes.  The server
# logs every statement with its parameters (the tests read what it was
# told), unless PG_LOG_STATEMENT says otherwise (none: the benchmarks,
# whose imports' parameters are gigabytes).

pg_bin() {
	local bin
	bin=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -1)
	[ -x "$bin/initdb" ] || { echo "no PostgreSQL server: apt-get install postgresql" >&2; return 1; }
	echo "$bin"
}

pg_as() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

# pg_start DIR: the cluster in DIR, or, run by root, in a folder of
# postgres's own under /tmp (the suite's folders are root's alone), which
# pg_stop removes
pg_start() {
	local bin dir=$1
	bin=$(pg_bin) || return 1
	if [ "$(id -u)" -eq 0 ]; then
		dir=$(mktemp -d /tmp/dl-postgres.XXXXXX) || return 1
		chown postgres: "$dir"
		PG_OWN_DIR=$dir
		export PG_OWN_DIR
	else
		mkdir -p "$dir"
	fi
	chmod 700 "$dir"
	pg_as "$bin/initdb" -D "$dir/data" -A trust -U dl --no-sync > "$dir/initdb.log" 2>&1 ||
	    { cat "$dir/initdb.log" >&2; return 1; }
	pg_as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
	    -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=off -c log_statement=${PG_LOG_STATEMENT:-all}" start \
	    > /dev/null || { cat "$dir/server.log" >&2; return 1; }
	PG_ARCHIVE="pg:host=$dir user=dl dbname=postgres"
	PG_DIR=$dir
	export PG_ARCHIVE PG_DIR
}

pg_stop() {
	local bin
	bin=$(pg_bin) || return 1
	[ -z "${PG_DIR:-}" ] || pg_as "$bin/pg_ctl" -D "$PG_DIR/data" -m immediate stop > /dev/null
	[ -z "${PG_OWN_DIR:-}" ] || rm -rf "$PG_OWN_DIR"
}

# A fresh database for a test: pg_fresh NAME sets PG_ARCHIVE to it.
pg_fresh() {
	local bin
	bin=$(pg_bin) || return 1
	"$bin/../bin/createdb" -h "$PG_DIR" -U dl "$1" 2> /dev/null ||
	    pg_as "$bin/createdb" -h "$PG_DIR" -U dl "$1"
	PG_ARCHIVE="pg:host=$PG_DIR user=dl dbname=$1"
}
