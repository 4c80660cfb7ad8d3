#!/usr/bin/env bats
# dl-web in a real browser: Debian's Chromium, headless, driven through
# chromedriver (WebDriver over HTTP, with curl and jq), against lighttpd
# with the project's configuration (t/web.bash).  A director fills the
# form, asks for the hand record, and takes the zip from the page's link;
# the zip's seed regenerates its files byte for byte.  Screenshots of the
# form and the result, 1200 and 400 pixels wide, go to
# $DL_WEB_SCREENSHOTS when it is set (a folder; never the tree).

# Chromium (make check-quick leaves it out); lighttpd with dl-web behind
# it, one such file at a time (the Makefile's test)
# bats file_tags=browser,web-server
load helper
load web

# chromedriver_start: chromedriver on a free loopback port, answering
# /status; sets CD_PORT.  One that does not answer within 20 seconds, or
# ends, is stopped, its log kept for the message, and another started on
# another port.
chromedriver_start() {
	local start i pid
	for start in 1 2 3; do
		CD_PORT=$(free_port)
		chromedriver --port="$CD_PORT" --log-path="$WEB/chromedriver.log" \
		    > "$WEB/chromedriver.out" 2>&1 3>&- &
		pid=$!
		echo "$pid" > "$WEB/chromedriver.pid"
		for i in $(seq 200); do
			# not jq -e: on no input at all (nothing listening yet)
			# it exits 0, and the set-up raced chromedriver's start
			if [ "$(curl -s --max-time 2 "http://127.0.0.1:$CD_PORT/status" 2>/dev/null |
			    jq -r '.value.ready' 2>/dev/null)" = true ]; then
				export CD_PORT
				return 0
			fi
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		{
			echo "start $start, port $CD_PORT: $(kill -0 "$pid" 2>/dev/null &&
			    echo "no answer in 20 s" || echo "ended")"
			cat "$WEB/chromedriver.out" "$WEB/chromedriver.log" 2>/dev/null | tail -n 20
		} >> "$WEB/chromedriver-starts"
		kill "$pid" 2>/dev/null || :
		wait "$pid" 2>/dev/null || :
	done
	echo "chromedriver did not start:" >&2
	cat "$WEB/chromedriver-starts" >&2
	return 1
}

setup_file() {
	web_start
	# A fresh machine's first Chromium builds its font cache and profile:
	# allow it time.  The flags keep it from reaching for Google's hosts,
	# which a closed network refuses, many at a time, and from /dev/shm,
	# which a container may keep small.
	: > "$WEB/chromedriver-starts"
	chromedriver_start || return 1
	local caps answer try
	# a session that would not start is asked for again, twice, with a
	# new profile; each refusal is kept for the message
	: > "$WEB/session-answers"
	for try in 1 2 3; do
		# a chromedriver that ended is started again
		kill -0 "$(cat "$WEB/chromedriver.pid")" 2>/dev/null || chromedriver_start || return 1
		caps=$(jq -nc --arg profile "$WEB/chromium-profile-$try" '{capabilities: {alwaysMatch: {browserName: "chrome",
		    "goog:chromeOptions": {binary: "/usr/bin/chromium",
		    args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,1600",
		        "--no-first-run", "--disable-background-networking", "--disable-component-update",
		        "--disable-sync", "--disable-quic", "--disable-dev-shm-usage",
		        "--user-data-dir=" + $profile]}}}}')
		answer=$(curl -s --max-time 120 -H 'Content-Type: application/json' -d "$caps" \
		    "http://127.0.0.1:$CD_PORT/session") || answer="(curl: status $?)"
		WD_SESSION=$(jq -r '.value.sessionId // empty' <<< "$answer" 2>/dev/null) || WD_SESSION=
		[ -n "$WD_SESSION" ] && break
		printf 'try %s: %s\n' "$try" "${answer:-no answer}" >> "$WEB/session-answers"
		sleep 2
	done
	[ -n "$WD_SESSION" ] || {
		echo "no WebDriver session (chromedriver $(kill -0 "$(cat "$WEB/chromedriver.pid")" 2>/dev/null && echo running || echo gone)):" >&2
		cat "$WEB/session-answers" "$WEB/chromedriver-starts" >&2
		tail -n 40 "$WEB/chromedriver.log" >&2
		return 1
	}
	export WD_SESSION
}

teardown_file() {
	if [ -n "${WD_SESSION:-}" ]; then
		curl -s -X DELETE "http://127.0.0.1:$CD_PORT/session/$WD_SESSION" > /dev/null || :
	fi
	if [ -f "$WEB/chromedriver.pid" ]; then
		kill "$(cat "$WEB/chromedriver.pid")" 2>/dev/null || :
		wait "$(cat "$WEB/chromedriver.pid")" 2>/dev/null || :
	fi
	web_stop
}

# wd METHOD PATH [JSON]: a WebDriver command of the session; prints its
# value, fails on a WebDriver error
wd() {
	local out
	out=$(curl -s -X "$1" -H 'Content-Type: application/json' ${3:+-d "$3"} \
	    "http://127.0.0.1:$CD_PORT/session/$WD_SESSION$2") || return 1
	if jq -e '.value | type == "object" and has("error")' <<< "$out" > /dev/null; then
		echo "WebDriver $1 $2: $(jq -r '.value.error + ": " + .value.message' <<< "$out" | head -3)" >&2
		return 1
	fi
	jq -c '.value' <<< "$out"
}

# element CSS: the id of the element CSS selects
element() {
	wd POST /element "$(jq -nc --arg v "$1" '{using: "css selector", value: $v}')" |
	    jq -r 'to_entries[0].value'
}

# js SCRIPT: the value of a script run in the page, as JSON
js() {
	wd POST /execute/sync "$(jq -nc --arg s "$1" '{script: $s, args: []}')"
}

# shot NAME WIDTH: a screenshot of the window, WIDTH pixels wide, into
# $DL_WEB_SCREENSHOTS/NAME.png (into the test's folder when unset)
shot() {
	local dir=${DL_WEB_SCREENSHOTS:-$BATS_TEST_TMPDIR}
	mkdir -p "$dir"
	wd GET /screenshot | jq -r . | base64 -d > "$dir/$1.png"
	# a PNG, as wide as asked: its IHDR's width
	[ "$(head -c 8 "$dir/$1.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	[ "$(od -An -j16 -N4 -tu1 "$dir/$1.png" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')" = "$2" ]
}

@test "a director in Chromium deals a session, sees its hand record and takes its zip, whose seed regenerates it" {
	wd POST /window/rect '{"width": 1200, "height": 1600}' > /dev/null
	wd POST /url "$(jq -nc --arg u "$WEB_URL" '{url: $u}')" > /dev/null
	[ "$(wd GET /title)" = '"Deal a session"' ]
	shot form-desktop 1200
	id=$(element '#event')
	wd POST "/element/$id/value" '{"text": "Browser Pairs"}' > /dev/null
	# the date from the browser's calendar: a date input, whose value is
	# what a day picked in it gives
	[ "$(js 'return document.querySelector("#date").type')" = '"date"' ]
	js 'const d = document.querySelector("#date"); d.value = "2026-11-25"; return d.value' > /dev/null
	id=$(element '#boards')
	wd POST "/element/$id/clear" '{}' > /dev/null
	wd POST "/element/$id/value" '{"text": "1-8"}' > /dev/null
	# the club's scoring program reads PBN (the first choice); its
	# dealing machine a Dealer4 (PBN too); and LIN, under "Every format"
	[ "$(js 'return document.querySelector("select[name=scoring]").value')" = '"pbn"' ]
	id=$(element 'select[name=machine] option[value=dealer4]')
	wd POST "/element/$id/click" '{}' > /dev/null
	id=$(element 'details summary')
	wd POST "/element/$id/click" '{}' > /dev/null
	id=$(element 'input[name=formats][value=lin]')
	wd POST "/element/$id/click" '{}' > /dev/null
	[ "$(js 'return document.querySelector("select[name=machine]").value')" = '"dealer4"' ]
	[ "$(js 'return Array.from(document.querySelectorAll("input[name=formats]:checked")).map(e => e.value).join(",")')" = '"pdf,lin"' ]
	[ "$(js 'return document.querySelector("input[name=dd]").checked')" = true ]
	id=$(wd POST /element '{"using": "xpath", "value": "//button[normalize-space()=\"Deal, and show the hand record\"]"}' |
	    jq -r 'to_entries[0].value')
	wd POST "/element/$id/click" '{}' > /dev/null
	# the hand record is the page, its title the event
	for i in $(seq 120); do
		[ "$(wd GET /title)" = '"Browser Pairs"' ] && break
		sleep 0.5
	done
	[ "$(wd GET /title)" = '"Browser Pairs"' ]
	[ "$(js 'return Array.from(document.querySelectorAll("section.board")).map(s => s.id).join(" ")')" = \
	    '"board-1 board-2 board-3 board-4 board-5 board-6 board-7 board-8"' ]
	[ "$(js 'return document.querySelectorAll("section.board .hand").length')" = 32 ]
	[ "$(js 'return document.querySelector("h1.event").textContent')" = '"Browser Pairs"' ]
	# the progress the page streamed while the boards were solved, hidden
	# once the hand record came; the hand record's own styles applied
	[ "$(js 'return document.querySelectorAll("section.dl-web-progress p").length')" = 10 ]
	[ "$(js 'return getComputedStyle(document.querySelector("section.dl-web-progress")).display')" = '"none"' ]
	[ "$(js 'return getComputedStyle(document.querySelector(".vh")).position')" = '"absolute"' ]
	[ "$(js 'return document.querySelectorAll("head").length + document.querySelectorAll("body").length')" = 2 ]
	# the files named from the event and the date; the seed apart
	[ "$(js 'return document.querySelector("aside.dl-web a[download]").getAttribute("download")')" = '"browser-pairs-2026-11-25.zip"' ]
	[ "$(js 'return document.querySelector("aside.dl-web a[download$=\".seed\"]").getAttribute("download")')" = '"browser-pairs-2026-11-25.seed"' ]
	js 'return document.querySelector("aside.dl-web p").textContent' | grep -Eq '^"Recorded as set [0-9]+ of the archive of every set dealt here: 1 set dealt for Browser Pairs\."$'
	shot result-desktop 1200
	# the zip of the page's link, as the browser has it
	js 'return document.querySelector("aside.dl-web a[download]").href' | jq -r . > href
	grep -q '^data:application/zip;base64,' href
	sed 's/^data:application\/zip;base64,//' href | base64 -d > session.zip
	mkdir z
	unzip -q session.zip -d z
	name=browser-pairs-2026-11-25
	[ "$(cd z && ls | tr '\n' ' ')" = "$name.lin $name.pbn $name.pdf " ]
	js 'return document.querySelector("aside.dl-web a[download$=\".seed\"]").href' | jq -r . > href
	grep -q '^data:text/plain;base64,' href
	sed 's/^data:text\/plain;base64,//' href | base64 -d > "z/$name.seed"
	grep -q '^\[OptimumScore ' "z/$name.pbn"
	grep -Fxq '#I: Browser Pairs' "z/$name.seed"
	regenerates z "$name" 1-8 1 pbn lin
	# what the page shows is the set: board 1's hands, as dl-read reads them
	dl-read "z/$name.pbn" | grep '^1 ' > board1
	[ -s board1 ]
	# a phone: the result and the form, 400 pixels wide
	wd POST /window/rect '{"width": 400, "height": 1600}' > /dev/null
	shot result-phone 400
	echo "result on a phone: $(js 'return [document.documentElement.scrollWidth, window.innerWidth]')"
	[ "$(js 'return document.documentElement.scrollWidth <= window.innerWidth')" = true ]
	wd POST /url "$(jq -nc --arg u "$WEB_URL" '{url: $u}')" > /dev/null
	shot form-phone 400
	# nothing wider than the window: no sideways scrolling on a phone
	[ "$(js 'return document.documentElement.scrollWidth <= window.innerWidth')" = true ]
	web_idle 30
}

# wait_title TITLE: the page's title, within a minute
wait_title() {
	for i in $(seq 120); do
		[ "$(wd GET /title | jq -r .)" = "$1" ] && return 0
		sleep 0.5
	done
	echo "title: $(wd GET /title)" >&2
	return 1
}

@test "a director's mistake: the form again, as typed, the field marked and said; then Deal another session opens it filled" {
	wd POST /window/rect '{"width": 1200, "height": 1600}' > /dev/null
	wd POST /url "$(jq -nc --arg u "$WEB_URL" '{url: $u}')" > /dev/null
	id=$(element '#event')
	wd POST "/element/$id/value" '{"text": "Riverside \"Monday\" <Pairs>"}' > /dev/null
	js 'document.querySelector("#date").value = "2026-11-30"; return 0' > /dev/null
	id=$(element '#boards')
	wd POST "/element/$id/clear" '{}' > /dev/null
	wd POST "/element/$id/value" '{"text": "1 – 200"}' > /dev/null
	id=$(element 'select[name=machine] option[value=duplimate]')
	wd POST "/element/$id/click" '{}' > /dev/null
	id=$(element 'input[name=dd]')
	wd POST "/element/$id/click" '{}' > /dev/null
	id=$(wd POST /element '{"using": "xpath", "value": "//button[normalize-space()=\"Deal, and show the hand record\"]"}' |
	    jq -r 'to_entries[0].value')
	wd POST "/element/$id/click" '{}' > /dev/null
	# the form again: the summary, the field marked with its error, every
	# field as typed
	wait_title "Deal a session"
	for i in $(seq 60); do
		[ "$(js 'return document.querySelector(".error-summary") !== null')" = true ] && break
		sleep 0.5
	done
	[ "$(js 'return document.querySelector(".error-summary li").textContent')" = '"200 boards: at most 100 a request (a session)"' ]
	[ "$(js 'return document.querySelector("#boards").getAttribute("aria-invalid")')" = '"true"' ]
	[ "$(js 'return document.getElementById(document.querySelector("#boards").getAttribute("aria-describedby")).textContent')" = \
	    '"Error: 200 boards: at most 100 a request (a session)"' ]
	[ "$(js 'return document.querySelector("#boards").value')" = '"1 – 200"' ]
	[ "$(js 'return document.querySelector("#event").value')" = '"Riverside \"Monday\" <Pairs>"' ]
	[ "$(js 'return document.querySelector("#date").value')" = '"2026-11-30"' ]
	[ "$(js 'return document.querySelector("select[name=machine]").value')" = '"duplimate"' ]
	[ "$(js 'return document.querySelector("input[name=dd]").checked')" = false ]
	[ "$(js 'return document.querySelectorAll("[aria-invalid=true]").length')" = 1 ]
	shot form-error-desktop 1200
	wd POST /window/rect '{"width": 400, "height": 1600}' > /dev/null
	shot form-error-phone 400
	[ "$(js 'return document.documentElement.scrollWidth <= window.innerWidth')" = true ]
	# put right, and dealt
	id=$(element '#boards')
	wd POST "/element/$id/clear" '{}' > /dev/null
	wd POST "/element/$id/value" '{"text": "1-4"}' > /dev/null
	id=$(wd POST /element '{"using": "xpath", "value": "//button[normalize-space()=\"Deal, and show the hand record\"]"}' |
	    jq -r 'to_entries[0].value')
	wd POST "/element/$id/click" '{}' > /dev/null
	wait_title 'Riverside "Monday" <Pairs>'
	[ "$(js 'return document.querySelector("aside.dl-web a[download]").getAttribute("download")')" = '"riverside-monday-pairs-2026-11-30.zip"' ]
	# Deal another session: the form, filled with this one's
	id=$(wd POST /element '{"using": "link text", "value": "Deal another session"}' | jq -r 'to_entries[0].value')
	wd POST "/element/$id/click" '{}' > /dev/null
	wait_title "Deal a session"
	[ "$(js 'return document.querySelector("#event").value')" = '"Riverside \"Monday\" <Pairs>"' ]
	[ "$(js 'return document.querySelector("#date").value')" = '"2026-11-30"' ]
	[ "$(js 'return document.querySelector("#boards").value')" = '"1-4"' ]
	[ "$(js 'return document.querySelector("select[name=machine]").value')" = '"duplimate"' ]
	[ "$(js 'return document.querySelector("input[name=dd]").checked')" = false ]
	[ "$(js 'return document.querySelector("#entropy").value')" = '""' ]
	[ "$(js 'return location.search.includes("seed") || location.search.includes("entropy")')" = false ]
	[ "$(js 'return document.querySelectorAll("[aria-invalid=true]").length')" = 0 ]
	web_idle 30
}

# sets: how many sets the server's archive holds
sets() {
	if [ -e "$WEB_ARCHIVE" ]; then sqlite3 "$WEB_ARCHIVE" 'SELECT count(*) FROM sets'; else echo 0; fi
}

# forged_post URL: the director's browser on the page at URL (another
# site's), whose form posts to dl-web when its button is clicked; then
# the answer's page is Forbidden, saying why
forged_post() {
	wd POST /url "$(jq -nc --arg u "$1" '{url: $u}')" > /dev/null
	id=$(element '#go')
	wd POST "/element/$id/click" '{}' > /dev/null
	for i in $(seq 60); do
		[ "$(wd GET /title)" = '"Forbidden"' ] && break
		sleep 0.5
	done
	[ "$(wd GET /title)" = '"Forbidden"' ]
	[ "$(js 'return document.querySelector("main p").textContent')" = \
	    '"a form posted from another site: the browser says it comes from a page of another site (Sec-Fetch-Site). Deal from this server'"'"'s own form."' ]
}

@test "a page of another site whose form posts to dl-web from the director's browser is refused (403): nothing is dealt" {
	before=$(sets)
	attack="<!DOCTYPE html><title>Club news</title><form method=post action=\"$WEB_URL\" enctype=multipart/form-data><input name=event value=Forged><input name=boards value=1-4><input name=formats value=pbn><button id=go>Read the news</button></form>"
	# a page of no origin (a data: URL: Origin null, cross-site)
	forged_post "data:text/html,$(jq -rn --arg h "$attack" '$h | @uri')"
	# a page of another origin of the same host (another port: same-site)
	mkdir site
	printf '%s\n' "$attack" > site/news.html
	port=$(free_port)
	python3 -m http.server --bind 127.0.0.1 --directory site "$port" > site.log 2>&1 3>&- &
	server=$!
	for i in $(seq 50); do
		curl -s -o /dev/null "http://127.0.0.1:$port/news.html" && break
		sleep 0.1
	done
	run forged_post "http://127.0.0.1:$port/news.html"
	kill "$server"
	wait "$server" || :
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$(sets)" = "$before" ]
	# the server's log of its CGI's standard error (lighttpd's own) says
	# what was refused, twice, with no header's value
	[ "$(grep -Fc 'dl-web: 403 Forbidden: a form posted from another site (Sec-Fetch-Site)' \
	    "$WEB/lighttpd.out")" -eq 2 ]
	run ! grep -F -e "$port" -e 'null' -e 'cross-site' "$WEB/lighttpd.out"
	web_idle 30
}
