#!/usr/bin/env bats
# dl-web behind nginx and fcgiwrap, with the project's whole configuration
# (share/web/nginx.conf, its site: lines given this suite's port and
# paths; t/web.bash, nginx_start), asked with curl: the form, a session
# dealt as a zip whose seed regenerates it, other URLs refused, and a few
# hundred slow clients from one address, which do not shut the form out.

# nginx and fcgiwrap with dl-web behind them: one such file at a time
# (the Makefile's test), none in make check-quick
# bats file_tags=web-server
load helper
load web

setup_file() {
	# the names the site answers to, passed on by the configuration
	export DL_WEB_HOSTS="127.0.0.1 dl-web.test"
	nginx_start
}

teardown_file() {
	nginx_stop
}

teardown() {
	slow_clients_stop > /dev/null
}

# has_line FILE LINE: FILE holds LINE, whole (a head's line without its CR)
has_line() {
	tr -d '\r' < "$1" | grep -Fxq -- "$2" || {
		echo "no line: $2" >&2
		tr -d '\r' < "$1" | head -40 >&2
		return 1
	}
}

@test "nginx: GET / gives the form, other URLs are refused, the logs are the user's alone" {
	code=$(curl -s -D h -o b -w '%{http_code}' "$WEB_URL")
	[ "$code" = 200 ]
	has_line h "HTTP/1.1 200 OK"
	has_line h "Content-Type: text/html; charset=utf-8"
	has_line h "Cache-Control: no-store"
	has_line b "<title>Deal a session</title>"
	has_line b '<form method="post" enctype="multipart/form-data">'
	# /dl-web is the same program
	code=$(curl -s -o b2 -w '%{http_code}' "${WEB_URL}dl-web")
	[ "$code" = 200 ]
	same_form b b2
	for path in x dl-web/x nginx.conf error.log; do
		code=$(curl -s -o /dev/null -w '%{http_code}' "$WEB_URL$path")
		echo "$path: $code"
		[ "$code" = 403 ]
	done
	# nginx runs with umask 077: its error log is 0600
	[ "$(stat -c %a "$NGINX/error.log")" = 600 ]
}

@test "nginx: DL_WEB_HOSTS reaches dl-web: a name it lists is answered, another is 421" {
	code=$(curl -s -o b -w '%{http_code}' -H 'Host: dl-web.test' "$WEB_URL")
	[ "$code" = 200 ]
	has_line b "<title>Deal a session</title>"
	code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: other.test' "$WEB_URL")
	[ "$code" = 421 ]
}

@test "nginx: a multipart POST with download=zip through fcgiwrap: the zip's seed regenerates its files" {
	code=$(curl -s -D h -o b -w '%{http_code}' -F boards=1-8 -F formats=pbn,dup \
	    -F download=zip -F prefix=session "$WEB_URL")
	[ "$code" = 200 ]
	has_line h "Content-Type: application/zip"
	has_line h 'Content-Disposition: attachment; filename="session.zip"'
	has_line h "Cache-Control: no-store"
	mkdir z
	unzip -q b -d z
	[ "$(cd z && ls | tr '\n' ' ')" = "session.dup session.pbn session.seed " ]
	dl-read z/session.pbn > read.tso
	[ "$(grep -vc '^#' read.tso)" = 8 ]
	regenerates z session 1-8 0 pbn dup
	# recorded in the archive nginx passed on
	[ "$(dl-archive --db "$WEB_ARCHIVE" sets | wc -l)" -ge 1 ]
}

@test "nginx: PUT is 405 with Allow, a body past the limit 413, a bad field 400" {
	code=$(curl -s -D h -o b -w '%{http_code}' -X PUT --data x "$WEB_URL")
	[ "$code" = 405 ]
	has_line h "Allow: GET, HEAD, POST"
	# past client_max_body_size (dl-web's own limit): nginx's 413
	head -c $((12 << 20)) /dev/zero > big
	code=$(curl -s -o /dev/null -w '%{http_code}' -F action=check -F file=@big "$WEB_URL")
	[ "$code" = 413 ]
	code=$(curl -s -o b -w '%{http_code}' --data 'event=%zz&boards=1-4' "$WEB_URL")
	[ "$code" = 400 ]
	has_line b "<p>a field&#39;s value: a bad %-escape or a NUL byte</p>"
}

@test "nginx: 300 slow clients from one address hold connections, and the form is still answered" {
	slow_clients_start "$WEB_PORT" 300
	# a functional bound, not a timing: answered at all while they are held
	code=$(curl -s -o b -w '%{http_code}' --max-time 10 "$WEB_URL") || :
	read -r count held < <(slow_clients_stop)
	echo "the form: $code; slow clients: $count made, $held held to the end"
	[ "$code" = 200 ]
	has_line b "<title>Deal a session</title>"
	[ "$count" = 300 ]
	[ "$held" = 300 ]
}

@test "nginx: the top of a page with the analysis comes at once through fcgiwrap; a second press, its first's client gone, gets the first's set" {
	token=31415926535897932384626433832795
	# the first, left by its client during its analysis: its top had come
	# (fcgiwrap holds the lines after it in 8 KiB: page_deal.c)
	curl -s -N -o first --max-time 1 -F event=Nginx -F boards=1-16 -F dd=on -F formats=pbn \
	    -F once=$token "$WEB_URL" || :
	grep -qx '<p>Dealing and solving 16 boards&hellip;</p>' first
	run ! grep -q '^<p>Recorded as set' first
	code=$(curl -s -o b -w '%{http_code}' -F event=Nginx -F boards=1-16 -F dd=on -F formats=pbn \
	    -F once=$token "$WEB_URL")
	[ "$code" = 200 ]
	grep -q '^<p>Recorded as set [0-9]* of the archive of every set dealt here: 1 set dealt for Nginx\.</p>$' b
	has_line b '<p>Board 16 solved (16 of 16)</p>'
	[ "$(dl-archive --db "$WEB_ARCHIVE" sets | grep -c '(Nginx)$')" = 1 ]
}
