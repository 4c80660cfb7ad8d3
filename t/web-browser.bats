#!/usr/bin/env bats
# dl-web in a real browser: Debian's Chromium, headless, driven through
# chromedriver (WebDriver over HTTP, with curl and jq), against lighttpd
# with the project's configuration (t/web.bash).  A volunteer walks
# through the page: deals a session, takes its zip and seed from the
# page's links (the seed regenerates the files byte for byte), deals
# another, marks it played, checks both files, makes a hand record of a
# scoring program's file; a director's mistake is shown and put right.
# Screenshots of each step, 1200 and 400 pixels wide, go to
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

# wait_title TITLE [SECONDS]: the page's title, within SECONDS (60)
wait_title() {
	for i in $(seq $((${2:-60} * 2))); do
		[ "$(wd GET /title | jq -r .)" = "$1" ] && return 0
		sleep 0.5
	done
	echo "title: $(wd GET /title)" >&2
	return 1
}

# shots NAME: the window as a volunteer sees it, 1200 pixels wide and 400
# (a phone), into NAME-1200.png and NAME-400.png; at 400 nothing is wider
# than the window (no sideways scrolling); left 1200 wide
shots() {
	wd POST /window/rect '{"width": 1200, "height": 1600}' > /dev/null
	shot "$1-1200" 1200
	wd POST /window/rect '{"width": 400, "height": 1600}' > /dev/null
	shot "$1-400" 400
	[ "$(js 'return document.documentElement.scrollWidth <= window.innerWidth')" = true ] ||
	    { echo "$1 at 400: $(js 'return [document.documentElement.scrollWidth, window.innerWidth]')" >&2; return 1; }
	wd POST /window/rect '{"width": 1200, "height": 1600}' > /dev/null
}

# press TEXT: the button whose words are TEXT, clicked
press() {
	local id
	id=$(wd POST /element "$(jq -nc --arg x "//button[normalize-space()=\"$1\"]" '{using: "xpath", value: $x}')" |
	    jq -r 'to_entries[0].value')
	wd POST "/element/$id/click" '{}' > /dev/null
}

# type_into CSS TEXT: TEXT typed into the field CSS selects, as keys
type_into() {
	local id
	id=$(element "$1")
	wd POST "/element/$id/clear" '{}' > /dev/null
	wd POST "/element/$id/value" "$(jq -nc --arg t "$2" '{text: $t}')" > /dev/null
}

# choose CSS FILE: FILE (a path) chosen in the file input CSS selects
choose() {
	local id
	id=$(element "$1")
	wd POST "/element/$id/value" "$(jq -nc --arg t "$2" '{text: $t}')" > /dev/null
}

# text CSS: the text of the first element CSS selects
text() {
	js "return document.querySelector($(jq -nc --arg s "$1" '$s')).textContent" | jq -r .
}

# downloads DIR NAME: the zip and the seed of the dealt page's links
# (data: URLs, as the browser has them), the zip unpacked into DIR, the
# seed beside its files as NAME.seed
downloads() {
	js 'return document.querySelector("aside.dl-web a[download$=\".zip\"]").href' | jq -r . > href
	grep -q '^data:application/zip;base64,' href
	sed 's/^data:application\/zip;base64,//' href | base64 -d > "$1.zip"
	mkdir "$1"
	unzip -q "$1.zip" -d "$1"
	js 'return document.querySelector("aside.dl-web a[download$=\".seed\"]").href' | jq -r . > href
	grep -q '^data:text/plain;base64,' href
	sed 's/^data:text\/plain;base64,//' href | base64 -d > "$1/$2.seed"
}

# axe_clean WHAT: axe-core, the accessibility rules' engine (make
# test-progs fetches it; DL_AXE_CORE names another copy), run in the page
# the window shows, finds no violation of WCAG 2.x A and AA nor of its
# best practices; WHAT names the page in the message.  Its script is sent
# from a file: it is larger than an argument may be.
axe_clean() {
	local axe=${DL_AXE_CORE:-$DL_BUILD/npm/node_modules/axe-core/axe.min.js} out
	[ -f "$axe" ] || { echo "no axe-core at $axe: make test-progs fetches it" >&2; return 1; }
	jq -nc --rawfile a "$axe" '{args: [], script: ($a + "\nconst done = arguments[arguments.length - 1];"
	    + " axe.run(document, { runOnly: [\"wcag2a\", \"wcag2aa\", \"wcag21a\", \"wcag21aa\","
	    + " \"wcag22aa\", \"best-practice\"] }).then(r => done(\"axe \" + r.violations.map(v => v.id +"
	    + " \":\" + v.impact + \":\" + v.nodes.map(n => n.target.join(\" \")).join(\",\")).join(\" \")"
	    + " + \" end\"), e => done(\"axe failed: \" + e));")}' > axe.json
	out=$(curl -s -X POST -H 'Content-Type: application/json' -d @axe.json \
	    "http://127.0.0.1:$CD_PORT/session/$WD_SESSION/execute/async" | jq -r '.value')
	[ "$out" = 'axe  end' ] || { echo "axe, $1: $out" >&2; return 1; }
}

# bats test_tags=slow
@test "a volunteer who has never seen the page deals a session for the club's Duplimate, takes its files and seed, deals another, checks last month's file, makes a hand record of the scoring program's file and marks the set played" {
	# the form, on a phone and on a desktop
	wd POST /window/rect '{"width": 400, "height": 1600}' > /dev/null
	wd POST /url "$(jq -nc --arg u "$WEB_URL" '{url: $u}')" > /dev/null
	[ "$(wd GET /title)" = '"Deal a session"' ]
	shots walk-01-form
	axe_clean 'the form'
	# a session of 24 boards for the club's Duplimate, the scoring
	# program one that reads PBN (the first choice), typed as a director
	# types; the date from the browser's calendar (a date input, whose
	# value is what a day picked in it gives)
	type_into '#event' 'Tuesday Pairs'
	type_into '#site' 'Riverside Bridge Club'
	[ "$(js 'return document.querySelector("#date").type')" = '"date"' ]
	js 'const d = document.querySelector("#date"); d.value = "2026-11-24"; return d.value' > /dev/null
	type_into '#boards' '1-24'
	id=$(element 'select[name=machine] option[value=duplimate]')
	wd POST "/element/$id/click" '{}' > /dev/null
	[ "$(js 'return document.querySelector("select[name=machine]").value')" = '"duplimate"' ]
	[ "$(js 'return document.querySelector("select[name=scoring]").value')" = '"pbn"' ]
	[ "$(js 'return Array.from(document.querySelectorAll("input[name=formats]:checked")).map(e => e.value).join(",")')" = '"pdf"' ]
	[ "$(js 'return document.querySelector("input[name=dd]").checked')" = true ]
	shots walk-02-filled
	press 'Deal, and show the hand record'
	# the hand record is the page, its title the event
	wait_title 'Tuesday Pairs' 120
	[ "$(js 'return document.querySelectorAll("section.board").length')" = 24 ]
	[ "$(js 'return document.querySelectorAll("section.board .hand").length')" = 96 ]
	[ "$(js 'return document.querySelectorAll("section.board table.dd").length')" = 24 ]
	[ "$(text 'h1.event')" = 'Tuesday Pairs' ]
	# the progress the page streamed while the boards were solved, each
	# board said, hidden once the hand record came; one document, the
	# hand record's own styles applied
	[ "$(js 'return Array.from(document.querySelectorAll("section.dl-web-progress p")).map(p => p.textContent).join("|")' | jq -r .)" = \
	    "Dealing and solving 24 boards…|$(for i in $(seq 24); do printf 'Board %d solved (%d of 24)|' $i $i; done)Done: the hand record follows." ]
	[ "$(js 'return getComputedStyle(document.querySelector("section.dl-web-progress")).display')" = '"none"' ]
	[ "$(js 'return getComputedStyle(document.querySelector(".vh")).position')" = '"absolute"' ]
	[ "$(js 'return document.querySelectorAll("head").length + document.querySelectorAll("body").length')" = 2 ]
	first=$(text 'aside.dl-web p')
	[[ $first =~ ^Recorded\ as\ set\ ([0-9]+)\ of\ the\ archive\ of\ every\ set\ dealt\ here:\ 1\ set\ dealt\ for\ Tuesday\ Pairs\.$ ]]
	set_a=${BASH_REMATCH[1]}
	shots walk-03-dealt
	axe_clean 'the page of the set dealt'
	# its files, named from the event and the date, for the dealing
	# machine (DUP), the scoring program (PBN) and the printer (PDF); the
	# seed apart, which makes them again byte for byte
	name=tuesday-pairs-2026-11-24
	[ "$(js 'return document.querySelector("aside.dl-web a[download$=\".zip\"]").getAttribute("download")')" = "\"$name.zip\"" ]
	[ "$(js 'return document.querySelector("aside.dl-web a[download$=\".seed\"]").getAttribute("download")')" = "\"$name.seed\"" ]
	downloads a "$name"
	[ "$(cd a && ls | tr '\n' ' ')" = "$name.dup $name.pbn $name.pdf $name.seed " ]
	grep -Fxq '#I: Tuesday Pairs' "a/$name.seed"
	grep -q '^\[OptimumScore ' "a/$name.pbn"
	regenerates a "$name" 1-24 1 pbn dup
	# what the page shows is the set: board 1's North, as the PBN has it
	north=$(dl-read "a/$name.pbn" | awk '$1 == 1 { print $2; exit }' | cut -c1-13)
	[ ${#north} -eq 13 ]

	# Deal another session: the form, filled with this one's
	id=$(wd POST /element '{"using": "link text", "value": "Deal another session"}' | jq -r 'to_entries[0].value')
	wd POST "/element/$id/click" '{}' > /dev/null
	wait_title 'Deal a session'
	[ "$(js 'return document.querySelector("#event").value')" = '"Tuesday Pairs"' ]
	[ "$(js 'return document.querySelector("#site").value')" = '"Riverside Bridge Club"' ]
	[ "$(js 'return document.querySelector("#date").value')" = '"2026-11-24"' ]
	[ "$(js 'return document.querySelector("#boards").value')" = '"1-24"' ]
	[ "$(js 'return document.querySelector("select[name=machine]").value')" = '"duplimate"' ]
	[ "$(js 'return document.querySelector("select[name=scoring]").value')" = '"pbn"' ]
	[ "$(js 'return document.querySelector("input[name=dd]").checked')" = true ]
	[ "$(js 'return document.querySelector("#entropy").value')" = '""' ]
	shots walk-04-again
	# next week's, a day picked a week on
	js 'const d = document.querySelector("#date"); d.value = "2026-12-01"; return d.value' > /dev/null
	press 'Deal, and show the hand record'
	wait_title 'Tuesday Pairs' 120
	second=$(text 'aside.dl-web p')
	[[ $second =~ ^Recorded\ as\ set\ ([0-9]+)\ of\ the\ archive\ of\ every\ set\ dealt\ here:\ 2\ sets\ dealt\ for\ Tuesday\ Pairs\.$ ]]
	set_b=${BASH_REMATCH[1]}
	downloads b tuesday-pairs-2026-12-01

	# after the session: the set marked played, from the button on its page
	press "After the session: mark set $set_b played"
	# its hand record is made for the players, with the analysis
	wait_title 'Played' 180
	[ "$(text 'main p')" = "Set $set_b is marked played." ]
	shots walk-05-played
	axe_clean 'the set played'
	# the players' phones: the QR code on the printed hand record leads to
	# the address the played page names, the hand record published there
	pdftoppm -r 300 -f 1 -l 1 -png "b/tuesday-pairs-2026-12-01.pdf" record-page
	url=$(zbarimg --raw -q record-page-1.png)
	[[ $url =~ ^http://127\.0\.0\.1:$WEB_PORT/[a-z./-]*\?record=[0-9a-f]{32}$ ]] ||
	    { echo "the QR code's address: '$url'" >&2; return 1; }
	[ "$(js 'return document.querySelectorAll("main p")[1].textContent' | jq -r .)" = "Its hand record is published for the players at $url, where the QR code on its hand record and table cards leads." ]
	wd POST /window/rect '{"width": 400, "height": 1600}' > /dev/null
	wd POST /url "$(jq -nc --arg u "$url" '{url: $u}')" > /dev/null
	wait_title 'Tuesday Pairs'
	[ "$(text 'aside.dl-web p')" = "The hand record of set $set_b, played on $(date -u +%F)." ]
	[ "$(js 'return document.querySelectorAll("section.board").length')" = 24 ]
	[ "$(js 'return document.querySelectorAll("section.board table.dd").length')" = 24 ]
	# the same deals as the set's own files
	[ "$(js 'return document.querySelector("h1.event").textContent')" = '"Tuesday Pairs"' ]
	shots walk-05-published
	axe_clean 'the hand record published'

	# Played before? Last month's files, checked: the set not yet played
	# is not compared with itself; the one played is found, every board
	wd POST /url "$(jq -nc --arg u "$WEB_URL" '{url: $u}')" > /dev/null
	choose '#check-file' "$BATS_TEST_TMPDIR/a/$name.pbn"
	press 'Check it against the archive'
	wait_title 'Played before?'
	[ "$(text 'main p')" = "$name.pbn: 24 boards." ]
	js 'return Array.from(document.querySelectorAll("main p")).map(p => p.textContent).join("\n")' | jq -r . > verdict
	grep -Eqx "This is set $set_a, dealt here on [0-9]{4}-[0-9]{2}-[0-9]{2} and not yet played: it is not compared with itself. Mark it played after the session." verdict
	grep -qx 'No board of it was seen before.' verdict
	shots walk-06-check-unplayed
	wd POST /url "$(jq -nc --arg u "$WEB_URL" '{url: $u}')" > /dev/null
	choose '#check-file' "$BATS_TEST_TMPDIR/b/tuesday-pairs-2026-12-01.pbn"
	press 'Check it against the archive'
	wait_title 'Played before?'
	js 'return Array.from(document.querySelectorAll("main p")).map(p => p.textContent).join("\n")' | jq -r . > verdict
	grep -qx 'Dealt before: 24 of its 24 boards.' verdict
	grep -qx "Its boards dealt before are in set $set_b, played here on $(date -u +%F)." verdict
	[ "$(js 'return document.querySelectorAll("main table tr td").length / 7')" = 24 ]
	[ "$(js 'return document.querySelector("main table tr:nth-child(2) td:last-child").textContent')" = "\"here, $(date -u +%F)\"" ]
	shots walk-07-check-played
	axe_clean 'the check's table'
	# a file the page cannot read: the page again, the file asked for
	# again, the error beside it, the summary's link taking the
	# volunteer to it
	printf 'Tuesday: 24 tables\n' > notes.txt
	wd POST /url "$(jq -nc --arg u "$WEB_URL" '{url: $u}')" > /dev/null
	choose '#check-file' "$BATS_TEST_TMPDIR/notes.txt"
	press 'Check it against the archive'
	wait_title 'Deal a session'
	[ "$(text '.error-summary h2')" = 'Nothing was checked: 1 field to put right' ]
	[ "$(text '.error-summary li')" = 'notes.txt: not a file of a format dl reads (PBN, LIN, DUP, BRI, DGE, ...)' ]
	[ "$(js 'return document.querySelector("#check-file").getAttribute("aria-invalid")')" = '"true"' ]
	[ "$(js 'return document.querySelector("#check-file").getAttribute("aria-describedby").split(" ").map(i => document.getElementById(i).textContent).join(" | ")')" = \
	    '"Error: notes.txt: not a file of a format dl reads (PBN, LIN, DUP, BRI, DGE, ...) | Choose the file again (you chose notes.txt): a page cannot keep it for you."' ]
	[ "$(js 'return document.querySelectorAll("[aria-invalid=true]").length')" = 1 ]
	[ "$(js 'return document.querySelector("#event").value')" = '""' ]
	shots walk-08-check-refused
	axe_clean 'the form refused, 1200 pixels'
	wd POST /window/rect '{"width": 400, "height": 1600}' > /dev/null
	axe_clean 'the form refused, 400 pixels'
	wd POST /window/rect '{"width": 1200, "height": 1600}' > /dev/null
	id=$(element '.error-summary a')
	wd POST "/element/$id/click" '{}' > /dev/null
	[ "$(js 'return document.activeElement.id')" = '"check-file"' ]

	# a hand record from the scoring program's file (TableTalk's PBN, 36
	# boards): double-dummy tricks and par on every board
	wd POST /url "$(jq -nc --arg u "$WEB_URL" '{url: $u}')" > /dev/null
	choose '#record-file' "$BATS_TEST_DIRNAME/data/real/tabletalk-fr04jul25.pbn"
	[ "$(js 'return document.querySelector("#record-dd").checked')" = true ]
	press 'Make the hand record'
	wait_title 'fr04jul25' 120
	[ "$(js 'return document.querySelectorAll("section.board").length')" = 36 ]
	[ "$(js 'return document.querySelectorAll("section.board table.dd").length')" = 36 ]
	[ "$(js 'return document.querySelectorAll("section.board .par").length')" = 36 ]
	[ "$(text 'aside.dl-web p')" = "The hand record of tabletalk-fr04jul25.pbn: 36 boards, with each board's double-dummy tricks and par. It is not recorded in the archive: the set was not dealt here." ]
	js 'return Array.from(document.querySelectorAll("section.board .par")).map(p => p.textContent).join("\n")' | jq -r . > pars
	grep -qx 'Par: 4♠ by N-S, +420' pars
	shots walk-09-record
	web_idle 60
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
