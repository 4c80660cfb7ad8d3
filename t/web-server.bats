#!/usr/bin/env bats
# dl-web (cmd/dl-web.c) as a real server runs it: lighttpd with the
# project's configuration (share/web/lighttpd.conf, as make serve), asked
# with curl.  The form, a session dealt as a zip and as a page, whose seed
# regenerates every file, the check of a file against the archive, and
# hostile requests: methods, sizes, escapes, markup, slow clients and
# clients that go away, after which nothing of theirs is left.

# lighttpd with dl-web behind it: one such file at a time (the
# Makefile's test), none in make check-quick
# bats file_tags=web-server
load helper
load web

setup_file() {
	web_start
}

teardown_file() {
	web_stop
}

teardown() {
	slow_clients_stop > /dev/null
	serve_stop
}

# post ARGS...: curl against the server, the head into h, the body into b;
# $status is curl's, $code the HTTP status
post() {
	code=$(curl -s -D h -o b -w '%{http_code}' "$@" "$WEB_URL")
}

# has_line FILE LINE: FILE holds LINE, whole (a head's line without its CR)
has_line() {
	tr -d '\r' < "$1" | grep -Fxq -- "$2" || {
		echo "no line: $2" >&2
		tr -d '\r' < "$1" | head -40 >&2
		return 1
	}
}

# serve_stop: ends a serve.sh a test started (serve_pid) in a session of
# its own, with its lighttpd (10 s at most, then killed)
serve_stop() {
	[ -n "${serve_pid:-}" ] || return 0
	kill -TERM -- "-$serve_pid" 2>/dev/null || :
	for _ in $(seq 100); do
		kill -0 "$serve_pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL -- "-$serve_pid" 2>/dev/null || :
	wait "$serve_pid" 2>/dev/null || :
	serve_pid=
}

@test "GET / gives the form, not to be kept, and every other URL is refused" {
	post
	[ "$code" = 200 ]
	has_line h "HTTP/1.1 200 OK"
	has_line h "Content-Type: text/html; charset=utf-8"
	has_line h "Cache-Control: no-store"
	has_line h "X-Content-Type-Options: nosniff"
	has_line b "<title>Deal a session</title>"
	has_line b "<h1>Deal a session</h1>"
	has_line b '<form method="post" enctype="multipart/form-data">'
	has_line b '<label><input type="checkbox" name="formats" value="pbn"> pbn <small>Portable Bridge Notation</small></label>'
	has_line b '<label><input type="checkbox" name="formats" value="lin"> lin <small>Bridge Base Online LIN</small></label>'
	has_line b '<input type="hidden" name="action" value="check">'
	has_line b '<button type="submit">Check it against the archive</button>'
	# /dl-web is the same program; HEAD has the head alone
	code=$(curl -s -o b2 -w '%{http_code}' "${WEB_URL}dl-web")
	[ "$code" = 200 ]
	same_form b b2
	code=$(curl -s -I -o /dev/null -w '%{http_code}' "$WEB_URL")
	[ "$code" = 200 ]
	# "Deal another session": the form filled from the query, through the
	# server, at / and at /dl-web
	for path in '?form=deal&event=Club%20%3CPairs%3E&boards=1-8&machine=kops' \
	    'dl-web?form=deal&event=Club%20%3CPairs%3E&boards=1-8&machine=kops'; do
		code=$(curl -s -o b4 -w '%{http_code}' "$WEB_URL$path")
		[ "$code" = 200 ]
		has_line b4 '<label for="event">Event</label><input type="text" id="event" name="event" maxlength="500" placeholder="Tuesday Pairs" value="Club &lt;Pairs&gt;">'
		has_line b4 '<label for="boards">Boards (at most 100)</label><input type="text" id="boards" name="boards" value="1-8">'
		grep -q '<option value="kops" selected>KOPS</option>' b4
	done
	# nothing else is served: not the document root, not the build (a
	# query that names no field of the form is the blank form; /../ is /)
	for path in x dl-web/x dl-web.c lighttpd.conf archive.sqlite ../x '%2e%2e/x' \
	    '?a=b' 'dl-web?x=1' ../; do
		code=$(curl -s -o b3 -w '%{http_code}' --path-as-is "$WEB_URL$path")
		echo "$path: $code"
		case $path in
		'?a=b' | 'dl-web?x=1' | ../) [ "$code" = 200 ] && same_form b b3 ;;
		*) [ "$code" = 403 ] ;;
		esac
	done
}

@test "a multipart POST with download=zip: the zip's files read back, and its seed regenerates them byte for byte" {
	post -F boards=1-24 -F formats=pbn,pdf -F download=zip -F prefix=session
	[ "$code" = 200 ]
	has_line h "Content-Type: application/zip"
	has_line h 'Content-Disposition: attachment; filename="session.zip"'
	has_line h "Cache-Control: no-store"
	mkdir z
	unzip -q b -d z
	[ "$(cd z && ls | tr '\n' ' ')" = "session.pbn session.pdf session.seed " ]
	# every file of a format dl reads is read (the PDF is not one)
	dl-read z/session.pbn > read.tso
	[ "$(grep -vc '^#' read.tso)" = 24 ]
	head -c 5 z/session.pdf | grep -qx '%PDF-'
	grep -Eq '^dl256 [0-9a-f]{64}$' z/session.seed
	dl-stream -n 1-24 < z/session.seed | dl-map | dl-fmt -f pbn > regen.pbn
	cmp regen.pbn z/session.pbn
	# and what dl-read read is what the seed deals
	diff <(grep -v '^#' read.tso) <(dl-stream -n 1-24 < z/session.seed | dl-map | grep -v '^#')
}

@test "formats given twice and comma-separated, once each, with the analysis: dl-dd regenerates them" {
	post -F boards=1-4 -F formats=pbn,lin -F formats=csv -F formats=pbn -F formats=pdf -F dd=on \
	    -F event=Analysed -F prefix=an -F download=zip
	[ "$code" = 200 ]
	has_line h 'Content-Disposition: attachment; filename="an.zip"'
	mkdir z
	unzip -q b -d z
	[ "$(cd z && ls | tr '\n' ' ')" = "an.csv an.lin an.pbn an.pdf an.seed " ]
	for f in pbn lin csv; do
		dl-read "z/an.$f" > "read-$f.tso"
		[ "$(grep -vc '^#' "read-$f.tso")" = 4 ]
	done
	grep -q '^\[OptimumScore ' z/an.pbn
	has_line z/an.pbn '[Event "Analysed"]'
	regenerates z an 1-4 1 pbn lin csv
}

@test "an urlencoded POST deals too: its fields, a file name of its own, formats given twice" {
	post --data 'event=Tuesday+Pairs&site=The%20Club&date=2026.11.24&session=3&boards=5-10&formats=pbn%2Clin&formats=dup&prefix=tue&download=zip'
	[ "$code" = 200 ]
	has_line h 'Content-Disposition: attachment; filename="tue.zip"'
	mkdir z
	unzip -q b -d z
	# the formats asked for, and no PDF when not asked for
	[ "$(cd z && ls | tr '\n' ' ')" = "tue.dup tue.lin tue.pbn tue.seed " ]
	has_line z/tue.pbn '[Event "Tuesday Pairs, session 3"]'
	has_line z/tue.pbn '[Site "The Club"]'
	has_line z/tue.pbn '[Date "2026.11.24"]'
	has_line z/tue.pbn '[Board "5"]'
	has_line z/tue.seed '#I: Tuesday Pairs, session 3'
	for f in pbn lin dup; do
		dl-read "z/tue.$f" > "read-$f.tso"
		[ "$(grep -vc '^#' "read-$f.tso")" = 6 ]
	done
	regenerates z tue 5-10 0 pbn lin dup
}

@test "the director's entropy: a Big Deal seed, which regenerates the set too" {
	post -F boards=1-3 -F 'entropy=dice 3 1 4 1 5 9 2 6' -F formats=pbn,dup -F download=zip -F prefix=session
	[ "$code" = 200 ]
	mkdir z
	unzip -q b -d z
	grep -Eq '^bigdeal [0-9a-f]{40} [0-9a-f]{40}$' z/session.seed
	regenerates z session 1-3 0 pbn dup
}

@test "PUT and DELETE: 405, with Allow" {
	for m in PUT DELETE; do
		code=$(curl -s -D h -o b -w '%{http_code}' -X "$m" --data x "$WEB_URL")
		[ "$code" = 405 ]
		has_line h "Allow: GET, HEAD, POST"
		has_line b "<p>$m: this page takes GET and POST only</p>"
	done
}

@test "a body past the limit: 413, from lighttpd past 11 MiB, from dl-web past its own" {
	head -c $((12 << 20)) /dev/zero > big
	post -F action=check -F file=@big
	[ "$code" = 413 ]
	# past dl-web's 10 MiB and 64 KiB, below lighttpd's 11 MiB: dl-web's page
	head -c $(((10 << 20) + (100 << 10))) /dev/zero > mid
	post -F action=check -F file=@mid
	[ "$code" = 413 ]
	has_line h "Cache-Control: no-store"
	grep -Eq '^<p>a request of [0-9]+ bytes: at most 10551296 \(a file of 10 MiB\)</p>$' b
	# the length said, not the bytes sent, is refused before any is read
	code=$(curl -s -o b -w '%{http_code}' -H 'Content-Type: application/x-www-form-urlencoded' \
	    -H 'Content-Length: 999999999' --data-binary 'a=b' --max-time 5 "$WEB_URL")
	[ "$code" = 413 ]
	web_idle
}

@test "bad requests: a bad %-escape, a NUL byte, a file name with a path, 200 boards: 400 and a page saying why" {
	post --data 'event=%zz&boards=1-4'
	[ "$code" = 400 ]
	has_line b "<title>Bad Request</title>"
	has_line b "<p>a field&#39;s value: a bad %-escape or a NUL byte</p>"
	post --data 'event=a%00b&boards=1-4'
	[ "$code" = 400 ]
	has_line b "<p>a field&#39;s value: a bad %-escape or a NUL byte</p>"
	# a NUL byte itself, in a multipart field
	printf -- '--XyZ\r\nContent-Disposition: form-data; name="event"\r\n\r\na\0b\r\n--XyZ--\r\n' > body
	post -H 'Content-Type: multipart/form-data; boundary=XyZ' --data-binary @body
	[ "$code" = 400 ]
	grep -q '^<p>.*</p>$' b
	post --data 'prefix=../x&boards=1-4'
	[ "$code" = 400 ]
	has_line b "<p>the file name: letters, digits, &#39;.&#39;, &#39;_&#39; and &#39;-&#39; only, at most 64, not beginning with &#39;.&#39; or &#39;-&#39;</p>"
	post -F prefix=a/b -F boards=1-4
	[ "$code" = 400 ]
	post -F boards=1-200
	[ "$code" = 400 ]
	has_line b "<p>200 boards: at most 100 a request (a session)</p>"
	post -F boards=1-4 -F formats=nosuch
	[ "$code" = 400 ]
	has_line b "<p>no format nosuch here</p>"
	post -F boards=1-4 -F paper=a3
	[ "$code" = 400 ]
	has_line b "<p>the paper: a4 or letter</p>"
	post -H 'Content-Type: text/plain' --data 'boards=1-4'
	[ "$code" = 415 ]
	[ -z "$(find "$WEB_TMP" -name 'dl-web.*')" ]
}

@test "markup in the event: escaped on the page, written as PBN writes it in the zip" {
	post --form-string 'event=<script>alert(1)</script>' -F boards=1-4 -F formats=pbn -F prefix=session
	[ "$code" = 200 ]
	has_line b '<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>'
	run grep -c '<script>alert' b
	[ "$output" = 0 ]
	grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' b
	# the zip of the page's link
	sed -n 's/.*href="data:application\/zip;base64,\([^"]*\)".*/\1/p' b | base64 -d > s.zip
	mkdir z
	unzip -q s.zip -d z
	has_line z/session.pbn '[Event "<script>alert(1)</script>"]'
	# a quote and a backslash, as PBN escapes them
	post --form-string 'event=<b>"x"\y</b>' -F boards=1-2 -F formats=pbn -F download=zip -F prefix=session
	[ "$code" = 200 ]
	mkdir z2
	unzip -q b -d z2
	has_line z2/session.pbn '[Event "<b>\"x\"\\y</b>"]'
}

@test "a slow client: the server answers others meanwhile, and drops it when it stays silent" {
	# the head begun, never ended
	exec 5<>"/dev/tcp/127.0.0.1/$WEB_PORT"
	printf 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n' >&5
	# the body begun, never ended
	exec 6<>"/dev/tcp/127.0.0.1/$WEB_PORT"
	printf 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\nboards=1-4&' >&6
	sleep 0.5
	post -F boards=1-4 -F download=zip
	[ "$code" = 200 ]
	has_line h "Content-Type: application/zip"
	# lighttpd drops both after DL_WEB_IDLE (2 s here): their reads end
	SECONDS=0
	timeout 15 cat <&5 > out5 || :
	timeout 15 cat <&6 > out6 || :
	exec 5<&- 6<&-
	echo "dropped after $SECONDS s"
	[ "$SECONDS" -lt 12 ]
	# no dl-web was started for them, nothing of them is left
	web_idle 5
	[ -z "$(find "$WEB_TMP" -mindepth 1 -maxdepth 1 ! -name 'dl-web-locks-*')" ]
}

@test "300 slow clients from one address hold connections, and the form is still answered" {
	# each sends a header line a second: within DL_WEB_IDLE (2 s here)
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

@test "requests cut off by their client leave no dl-web running and no private directory" {
	# one cut off during its analysis (32 boards take seconds), others
	# as they are sent or dealt
	curl -s -o /dev/null --max-time 0.5 -F 'event=Cut off long' -F boards=1-32 -F dd=on "$WEB_URL" || :
	echo "when its client left: $(pgrep -fc "$WEB_BIN") dl-web running," \
	    "$(find "$WEB_TMP" -mindepth 1 -maxdepth 1 -name 'dl-web.*' | wc -l) private directories"
	for i in 1 2 3; do
		curl -s -o /dev/null --max-time 0.05 -F "event=Cut off $i" -F boards=1-4 -F dd=on "$WEB_URL" || :
		curl -s -o /dev/null --max-time 0.3 -F "event=Cut off $i" -F boards=1-8 -F dd=on -F download=zip "$WEB_URL" || :
		curl -s -o /dev/null --max-time 0.1 -F "event=Cut off $i" -F boards=1-32 -F formats=pbn,lin,dup "$WEB_URL" || :
	done
	# lighttpd signals a CGI whose client went away only when it has
	# something to write to it: a zip ends when it writes its answer,
	# after its analysis; a page that streams its analysis is sent
	# SIGTERM as it streams, and (sent without the form's token) ends
	# then, its dl-dd with it (web.bash)
	web_idle 90
	[ -z "$(find "$WEB_TMP" -mindepth 1 -maxdepth 1 ! -name 'dl-web-locks-*')" ]
	# the zips were dealt (and recorded) all the same
	dl-archive --db "$WEB_ARCHIVE" sets | grep -q '(Cut off 3)$'
	# and the server still deals
	post -F boards=1-2 -F download=zip
	[ "$code" = 200 ]
	web_idle 5
}

@test "the check form: a set dealt here is not compared with itself until played, then seen before, board by board; a set dealt elsewhere was not" {
	post -F event=Checked -F date=2026.11.25 -F boards=1-4 -F formats=pbn -F prefix=session
	[ "$code" = 200 ]
	set=$(sed -n 's/^<p>Recorded as set \([0-9]*\) of the archive of every set dealt here: 1 set dealt for Checked\.<\/p>$/\1/p' b)
	[ -n "$set" ]
	sed -n 's/.*href="data:application\/zip;base64,\([^"]*\)".*/\1/p' b | base64 -d > s.zip
	mkdir z
	unzip -q s.zip -d z
	# tonight's set, checked before play: itself left out, and said so
	dealt=$(dl-archive --db "$WEB_ARCHIVE" sets | awk -v s="$set" '$1 == s { print substr($2, 1, 10) }')
	post -F action=check -F file=@z/session.pbn
	[ "$code" = 200 ]
	has_line b "<title>Played before?</title>"
	has_line b "<p>session.pbn: 4 boards.</p>"
	has_line b "<p>This is set $set, dealt here on $dealt and not yet played: it is not compared with itself. Mark it played after the session.</p>"
	has_line b "<p>No board of it was seen before.</p>"
	# played: now a set played before like any other
	post -F action=played -F set="$set"
	[ "$code" = 200 ]
	played=$(dl-archive --db "$WEB_ARCHIVE" sets | awk -v s="$set" '$1 == s { print substr($6, 1, 10) }')
	post -F action=check -F file=@z/session.pbn
	[ "$code" = 200 ]
	has_line b "<caption>Boards seen before</caption>"
	has_line b "<tr><td>1</td><td>the same deal</td><td>$set</td><td>1</td><td>Checked</td><td>2026.11.25</td><td>here, $played</td></tr>"
	has_line b "<tr><td>4</td><td>the same deal</td><td>$set</td><td>4</td><td>Checked</td><td>2026.11.25</td><td>here, $played</td></tr>"
	[ "$(grep -c '^<tr><td>' b)" = 4 ]
	has_line b "<p><strong>Dealt before: 4 of its 4 boards.</strong></p>"
	[ "$(grep -c 'not compared with itself' b)" = 0 ]
	# dealt again for the same event: the page counts the sets
	post -F event=Checked -F boards=1-2
	grep -Eq '^<p>Recorded as set [0-9]+ of the archive of every set dealt here: 2 sets dealt for Checked\.</p>$' b
	# a set the archive never saw
	dl-seed | dl-stream -n 4 | dl-map | dl-fmt -f pbn -p fresh
	post -F action=check -F file=@fresh.pbn
	[ "$code" = 200 ]
	has_line b "<p>fresh.pbn: 4 boards.</p>"
	has_line b "<p>No board of it was seen before.</p>"
	# no file: 400
	post -F action=check
	[ "$code" = 400 ]
	has_line b "<p>no file to check</p>"
	web_idle 5
}

@test "make serve (serve.sh): the archive's new folders are 0700, lighttpd's error log 0600; DL_WEB_HOSTS reaches dl-web" {
	# what a user's shell would give the files without serve.sh's umask
	umask 022
	mkdir -m 700 tmp
	port=$(free_port)
	TMPDIR=$PWD DL_WEB_TMP=$PWD/tmp DL_ARCHIVE=$PWD/new/dl/archive.sqlite \
	    DL_WEB_ERRORLOG=$PWD/error.log DL_WEB_PORT=$port DL_WEB_HOSTS="127.0.0.1 dl-web.test" \
	    setsid sh "$BATS_TEST_DIRNAME/../share/web/serve.sh" "$WEB_BIN" > serve.out 2>&1 3>&- &
	serve_pid=$!
	code=
	for _ in $(seq 100); do
		code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/") && break
		kill -0 "$serve_pid" 2>/dev/null || break
		sleep 0.1
	done
	cat serve.out
	[ "$code" = 200 ]
	# a set dealt: the archive made in them
	code=$(curl -s -o /dev/null -w '%{http_code}' -F boards=1-2 -F download=zip "http://127.0.0.1:$port/")
	[ "$code" = 200 ]
	[ "$(stat -c %a new)" = 700 ]
	[ "$(stat -c %a new/dl)" = 700 ]
	[ "$(stat -c %a new/dl/archive.sqlite)" = 600 ]
	[ "$(stat -c %a error.log)" = 600 ]
	# the names serve.sh and lighttpd.conf passed on: one they list is
	# answered, another refused
	code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: dl-web.test' "http://127.0.0.1:$port/")
	[ "$code" = 200 ]
	code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: other.test' "http://127.0.0.1:$port/")
	[ "$code" = 421 ]
	serve_stop
}

@test "the hand record form: a scoring program's PBN through lighttpd, answered with its hand record and PDF, the archive as it was" {
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    --event 'Riverside Pairs' --date 2026.11.30 2> /dev/null |
	    dl-stream -n 1-8 | dl-map | dl-fmt -f pbn -p club
	before=$(dl-archive --db "$WEB_ARCHIVE" count 2>&1 || :)
	post -F action=record -F paper=letter -F dd=on -F file=@club.pbn
	[ "$code" = 200 ]
	has_line b "<title>Riverside Pairs</title>"
	has_line b "<p>The hand record of club.pbn: 8 boards, with each board's double-dummy tricks and par. It is not recorded in the archive: the set was not dealt here.</p>"
	[ "$(grep -c '^<div class="par">Par: ' b)" = 8 ]
	sed -n 's/.*href="data:application\/pdf;base64,\([^"]*\)".*/\1/p' b | base64 -d > club.pdf
	pdfinfo club.pdf > info
	grep -qx 'Pages: *2' info
	grep -q '^Page size: *612 x 792 pts (letter)$' info
	[ "$(dl-archive --db "$WEB_ARCHIVE" count 2>&1 || :)" = "$before" ]
	# no file: 400, one line
	post -F action=record
	[ "$code" = 400 ]
	has_line b "<p>no file for a hand record</p>"
	web_idle 5
}

@test "a deal with the analysis streams through lighttpd: the page's top and its progress come before the analysis ends, the hand record after it" {
	curl -s -N -o s -F event=Streaming -F boards=1-24 -F dd=on -F formats=pbn "$WEB_URL" &
	pid=$!
	for _ in $(seq 600); do
		grep -q '^<p>Dealing and solving 24 boards' s 2> /dev/null && break
		sleep 0.05
	done
	# here while the analysis runs: the set is recorded after it (24
	# boards take seconds), and the page does not say it yet
	grep -qx '<p>Dealing and solving 24 boards&hellip;</p>' s
	run ! grep -q '^<p>Recorded as set' s
	run -0 dl-archive --db "$WEB_ARCHIVE" sets
	[[ $output != *'(Streaming)'* ]]
	wait "$pid"
	has_line s '<p>Board 24 solved (24 of 24)</p>'
	grep -q '^<p>Recorded as set [0-9]* of the archive of every set dealt here: 1 set dealt for Streaming\.</p>$' s
	[ "$(grep -c '<!DOCTYPE html>' s)" = 1 ]
	web_idle 10
}

@test "a second press of the form, its first request's client gone in the middle: the first's set, not a second" {
	token=6a5b4c3d2e1f00112233445566778899
	# the first, left by its client during its analysis: lighttpd sends it
	# SIGTERM as its page streams, which it ignores, to finish for its
	# second press
	curl -s -o first --max-time 1 -F event=Abandoned -F boards=1-16 -F dd=on -F formats=pbn \
	    -F once=$token "$WEB_URL" || :
	grep -qx '<p>Dealing and solving 16 boards&hellip;</p>' first
	run ! grep -q '^<p>Recorded as set' first
	post -F event=Abandoned -F boards=1-16 -F dd=on -F formats=pbn -F once=$token
	[ "$code" = 200 ]
	grep -q '^<p>Recorded as set [0-9]* of the archive of every set dealt here: 1 set dealt for Abandoned\.</p>$' b
	# the page the first would have shown, whole
	has_line b '<p>Board 16 solved (16 of 16)</p>'
	has_line b '</html>'
	[ "$(dl-archive --db "$WEB_ARCHIVE" sets | grep -c '(Abandoned)$')" = 1 ]
	# and once more: nothing dealt, the set named
	post -F event=Abandoned -F boards=1-16 -F dd=on -F formats=pbn -F once=$token
	[ "$code" = 200 ]
	grep -q '^<p>This form was sent already: set [0-9]* was dealt for it at' b
	[ "$(dl-archive --db "$WEB_ARCHIVE" sets | grep -c '(Abandoned)$')" = 1 ]
	web_idle 10
	[ -z "$(find "$WEB_TMP" -mindepth 1 -maxdepth 1 -name 'dl-web-once-*')" ]
}
