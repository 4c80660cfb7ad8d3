#!/usr/bin/env bats
# dl-web as a CGI program, run as a web server runs it: the request in
# its environment (RFC 3875) and its body on standard input.  The server
# and the browser in front of it are t/web-server.bats's and
# t/web-browser.bats's.

load helper
load web
load archive

setup() {
	cgi_setup
}

# post TYPE BODY-FILE: dl-web answering a POST of the file
post() {
	REQUEST_METHOD=POST CONTENT_TYPE=$1 CONTENT_LENGTH=$(wc -c < "$2") dl-web < "$2"
}

# form FIELDS...: a urlencoded body of NAME=VALUE arguments, in body
form() {
	local IFS='&'
	printf '%s' "$*" > body
}

# status FILE: the response's status line
status_of() {
	sed -n '1s/\r$//p' "$1"
}

# the response's body (after the blank line), into body.out
body_of() {
	awk 'done { print; next } /^\r$/ { done = 1 }' "$1" > body.out
}

# page_zip FILE, page_seed FILE: the page's two downloads, the zip of the
# files and the seed apart
page_zip() {
	sed -n 's/.*href="data:application\/zip;base64,\([^"]*\)".*/\1/p' "$1" | base64 -d
}
page_seed() {
	sed -n 's/.*href="data:text\/plain;base64,\([^"]*\)".*/\1/p' "$1" | base64 -d
}


@test "dl-web: run without a web server, a usage error" {
	run -2 env -u REQUEST_METHOD dl-web
	[ "$output" = "dl-web: a CGI program: run by a web server (docs/web.md), or with REQUEST_METHOD and the others set" ]
	run -0 dl-web --help
	[ "$output" = "usage: dl-web" ]
}

@test "GET: the form, with the formats the plugins write, never kept by a cache" {
	REQUEST_METHOD=GET dl-web > r
	[ "$(status_of r)" = "Status: 200 OK" ]
	grep -qx $'Cache-Control: no-store\r' r
	grep -qx $'Content-Type: text/html; charset=utf-8\r' r
	grep -q '^<title>Deal a session</title>$' r
	# the club's dealing machine and scoring program in its words, the
	# hand record to print, and every other format behind "Every format",
	# each with what its plugin says it is
	grep -qx '<label for="machine">Dealing machine</label><select id="machine" name="machine"><option value="">None: the boards are shuffled by hand</option><option value="duplimate">Duplimate (Jannersten)</option><option value="dealer4">Dealer4 or Dealer4+</option><option value="bernasconi">Bernasconi</option><option value="kops">KOPS</option></select>' r
	grep -qx '<label for="scoring">Scoring program</label><select id="scoring" name="scoring"><option value="pbn">One that reads PBN (ScoreBridge, EBUScore, Bridgemate, ACBLscore, Bridge Composer, most others)</option><option value="lin">Bridge Base Online (LIN)</option><option value="">None</option></select>' r
	grep -qx '<label><input type="checkbox" id="formats-pdf" name="formats" value="pdf" checked> The hand record to print (PDF)</label>' r
	# the table cards, in the open, not ticked: a club prints them once
	grep -qx '<label><input type="checkbox" id="formats-tablecards" name="formats" value="tablecards"> Table cards with the QR code for the players&#39; phones (PDF)</label>' r
	[ "$(grep -c 'name="formats" value="tablecards"' r)" -eq 1 ]
	grep -qx '<details><summary>Every format</summary>' r
	grep -qx '<label><input type="checkbox" name="formats" value="pbn"> pbn <small>Portable Bridge Notation</small></label>' r
	grep -qx '<label><input type="checkbox" name="formats" value="dup"> dup <small>Duplimate</small></label>' r
	[ "$(grep -c 'name="formats" value="pdf"' r)" -eq 1 ]
	# the date from the browser's calendar, the forms typed by hand said
	grep -qx '<label for="date">Date <small>(pick it from the calendar; where there is none, type <span class="nowrap">2026-11-30</span>, 30/11/2026 day first, or 2026.11.30)</small></label><input type="date" id="date" name="date">' r
	REQUEST_METHOD=HEAD dl-web > h
	[ "$(tail -c 2 h | od -An -c | tr -d ' ')" = '\r\n' ]
	[ "$(grep -c '<' h)" -eq 0 ]
}

@test "POST: a session dealt, its hand record shown, the zip of its files in the page; the seed regenerates it byte for byte" {
	form 'event=Tuesday+Pairs' 'site=Riverside' 'date=2026.11.24' 'boards=1-8' \
	    'formats=pbn' 'formats=dup,lin,pdf' 'prefix=tue'
	post application/x-www-form-urlencoded body > r
	[ "$(status_of r)" = "Status: 200 OK" ]
	grep -q '^<title>Tuesday Pairs</title>$' r
	grep -q '<p>Recorded as set 1 of the archive of every set dealt here: 1 set dealt for Tuesday Pairs.</p>' r
	page_zip r > tue.zip
	# the files for the machine and the printer; the seed its own download,
	# said plainly
	run -0 unzip -Z1 tue.zip
	[ "$output" = $'tue.pbn\ntue.dup\ntue.lin\ntue.pdf' ]
	unzip -q tue.zip -d z
	grep -q '<a download="tue.seed" href="data:text/plain;base64,' r
	grep -q 'Download the seed (tue.seed)</a>: <strong>keep it apart, and secret, until the session is played.</strong>' r
	page_seed r > tue.seed
	[ "$(head -1 tue.seed)" = "#P: dl/1 seed" ]
	grep -qx '#I: Tuesday Pairs' tue.seed
	dl-stream -n 1-8 < tue.seed | dl-map | dl-fmt -f pbn,dup,lin -p again
	cmp again.pbn z/tue.pbn
	cmp again.dup z/tue.dup
	cmp again.lin z/tue.lin
	[ "$(pdfinfo z/tue.pdf | awk '/^Pages:/ { print $2 }')" -eq 2 ]
	clean_tmp
	# the archive has it, with who dealt it
	run -0 dl-archive sets
	[[ $output == "1 "*" 8 1-8 - director dl-web (Tuesday Pairs, 2026.11.24)" ]]
	grep -q 'hand record by dl [0-9.]*; set 1 dealt for this event</span>' r
	[ "$(pdftotext z/tue.pdf - | grep -c 'Set 1 dealt for this event')" -eq 2 ]
	# a second set of the event: dealing until one pleases shows, on the
	# page and on the paper
	post application/x-www-form-urlencoded body > r2
	grep -q '<p>Recorded as set 2 of the archive of every set dealt here: 2 sets dealt for Tuesday Pairs.</p>' r2
	grep -q 'hand record by dl [0-9.]*; set 2 dealt for this event</span>' r2
}

@test "the date as a date picker, a European club or PBN writes it, kept in PBN's form; a day the calendar lacks refused naming the form" {
	# each form of 30 November 2026, and a leap day: the seed's #D: and
	# the PBN's [Date]
	for date in 2026-11-30 30%2F11%2F2026 2026.11.30 29%2F02%2F2028 1%2F2%2F2026; do
		form "date=$date" 'boards=1-2' 'formats=pbn' 'prefix=d'
		post application/x-www-form-urlencoded body > r
		[ "$(status_of r)" = "Status: 200 OK" ] || { echo "$date: $(status_of r)"; return 1; }
		page_zip r > d.zip
		page_seed r | grep '^#D: ' >> seen
		unzip -p d.zip d.pbn | grep -m1 '^\[Date ' >> seen
	done
	[ "$(cat seen)" = '#D: 2026.11.30
[Date "2026.11.30"]
#D: 2026.11.30
[Date "2026.11.30"]
#D: 2026.11.30
[Date "2026.11.30"]
#D: 2028.02.29
[Date "2028.02.29"]
#D: 2026.02.01
[Date "2026.02.01"]' ]
	# refused, in one line naming the form the date was read as
	for bad in '31%2F02%2F2026:no such day (read as DD/MM/YYYY, day first)' \
	    '11%2F30%2F2026:no such day (read as DD/MM/YYYY, day first)' \
	    '2026-02-29:no such day (read as YYYY-MM-DD)' \
	    '2026.02.31:no such day (read as YYYY.MM.DD)' \
	    '30.11.2026:not a date: YYYY-MM-DD, DD/MM/YYYY (day first) or YYYY.MM.DD' \
	    '2026-11-30T19%3A30:not a date: YYYY-MM-DD, DD/MM/YYYY (day first) or YYYY.MM.DD' \
	    'Nov+30:not a date: YYYY-MM-DD, DD/MM/YYYY (day first) or YYYY.MM.DD'; do
		form "date=${bad%%:*}" 'formats=pbn'
		run -1 --separate-stderr post application/x-www-form-urlencoded body
		[ "${lines[0]}" = $'Status: 400 Bad Request\r' ] &&
		    [[ $output == *"<p>the date: ${bad#*:}</p>"* ]] &&
		    [ "$stderr" = "dl-web: 400 Bad Request: the date" ] || { echo "$bad: $output"; return 1; }
	done
	# nothing refused was dealt
	run -0 dl-archive sets
	[ "${#lines[@]}" -eq 5 ]
	clean_tmp
}

@test "the formats as a club names them: its dealing machine and its scoring program; none chosen at all refused, not guessed" {
	for fields in 'machine=duplimate&scoring=pbn' 'machine=dealer4&scoring=' 'machine=bernasconi&scoring=lin' \
	    'machine=kops&scoring=&formats=csv' 'machine=&scoring=pbn&formats=pdf'; do
		printf '%s&form=deal&boards=1-2&download=zip&prefix=s' "$fields" > body
		post application/x-www-form-urlencoded body > r
		body_of r
		unzip -Z1 body.out | grep -v '\.seed$' | sort | paste -sd' ' >> files
	done
	[ "$(cat files)" = 's.dup s.pbn
s.pbn
s.ber s.lin
s.csv s.rzd
s.pbn s.pdf' ]
	# the form sent with nothing chosen: said beside the choices, the form
	# again as it was sent
	printf 'form=deal&machine=&scoring=&boards=1-2' > body
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[ "${lines[0]}" = $'Status: 400 Bad Request\r' ]
	[ "$stderr" = "dl-web: 400 Bad Request: the formats: none chosen" ]
	printf '%s\n' "$output" > r
	grep -qx '<li><a href="#formats-pdf">No file chosen: choose the dealing machine, the scoring program, the hand record to print, or a format under &quot;Every format&quot;</a></li>' r
	grep -qx '<p class="error" id="formats-error"><span class="visually-hidden">Error: </span>No file chosen: choose the dealing machine, the scoring program, the hand record to print, or a format under &quot;Every format&quot;</p><label><input type="checkbox" id="formats-pdf" name="formats" value="pdf" aria-invalid="true" aria-describedby="formats-error"> The hand record to print (PDF)</label>' r
	grep -qx '<details open><summary>Every format</summary>' r
	grep -q '<option value="" selected>None</option></select>$' r
	# a machine the page does not offer
	printf 'form=deal&machine=robot&boards=1-2' > body
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[ "${lines[0]}" = $'Status: 400 Bad Request\r' ]
	printf '%s\n' "$output" > r
	grep -qx '<label for="machine">Dealing machine</label><p class="error" id="machine-error"><span class="visually-hidden">Error: </span>Not one this page offers</p><select id="machine" name="machine" aria-invalid="true" aria-describedby="machine-error"><option value="">None: the boards are shuffled by hand</option><option value="duplimate">Duplimate (Jannersten)</option><option value="dealer4">Dealer4 or Dealer4+</option><option value="bernasconi">Bernasconi</option><option value="kops">KOPS</option></select>' r
	grep -qx '<li><a href="#machine">The dealing machine: not one this page offers</a></li>' r
	# a script's (no form=deal): the one line
	printf 'machine=robot&boards=1-2' > body
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[[ $output == *"<p>the dealing machine: not one this page offers</p>"* ]]
	[ "$stderr" = "dl-web: 400 Bad Request: machine" ]
	clean_tmp
	[ "$(dl-archive count)" = "5 sets, 10 deals; played 0 sets, 0 deals" ]
}

@test "the form refused: 400 and the form again, each field holding what was typed, each refused one marked with its error beside it, a summary at the top" {
	# markup in what was typed: text in the attributes and the textarea
	printf '%s' 'form=deal&event=%22%3E%3Cscript%3Ex%3C%2Fscript%3E&site=Riverside&date=31%2F02%2F2026&session=0&boards=1+%E2%80%93+200&machine=duplimate&scoring=&formats=pdf&formats=csv&paper=letter&prefix=..x&entropy=dice+%3C%2Ftextarea%3E6' > body
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[ "${lines[0]}" = $'Status: 400 Bad Request\r' ]
	# the log: what was refused, each field, no value of the request
	[ "$stderr" = "dl-web: 400 Bad Request: the file name (prefix); the session; the date; the boards: more than a session" ]
	printf '%s\n' "$output" > r
	grep -q '^<title>Deal a session</title>$' r
	# the summary, in the form's order, each linked to its field
	[ "$(sed -n '/<div class="error-summary"/,/<\/div>/p' r)" = '<div class="error-summary" role="alert" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">Nothing was dealt: 4 fields to put right</h2>
<ul>
<li><a href="#date">The date: no such day (read as DD/MM/YYYY, day first)</a></li>
<li><a href="#session">The session: a number from 1 to 9999</a></li>
<li><a href="#boards">200 boards: at most 100 a request (a session)</a></li>
<li><a href="#prefix">The file name: letters, digits, &#39;.&#39;, &#39;_&#39; and &#39;-&#39; only, at most 64, not beginning with &#39;.&#39; or &#39;-&#39;</a></li>
</ul>
</div>' ]
	# every field as it was sent, escaped; the refused ones marked
	grep -qx '<label for="event">Event</label><input type="text" id="event" name="event" maxlength="500" placeholder="Tuesday Pairs" value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;">' r
	grep -qx '<label for="site">Site</label><input type="text" id="site" name="site" maxlength="500" value="Riverside">' r
	# a date the calendar cannot hold is kept as typed, as text
	grep -qx '<label for="date">Date <small>(pick it from the calendar; where there is none, type <span class="nowrap">2026-11-30</span>, 30/11/2026 day first, or 2026.11.30)</small></label><p class="error" id="date-error"><span class="visually-hidden">Error: </span>No such day (read as DD/MM/YYYY, day first)</p><input type="text" id="date" name="date" value="31/02/2026" aria-invalid="true" aria-describedby="date-error">' r
	grep -qx '<label for="session">Session</label><p class="error" id="session-error"><span class="visually-hidden">Error: </span>A number from 1 to 9999</p><input type="text" id="session" name="session" inputmode="numeric" value="0" aria-invalid="true" aria-describedby="session-error">' r
	grep -qx '<label for="boards">Boards (at most 100)</label><p class="error" id="boards-error"><span class="visually-hidden">Error: </span>200 boards: at most 100 a request (a session)</p><input type="text" id="boards" name="boards" value="1 – 200" aria-invalid="true" aria-describedby="boards-error">' r
	grep -q '<option value="duplimate" selected>Duplimate (Jannersten)</option>' r
	grep -q '<option value="" selected>None</option></select>$' r
	grep -qx '<label><input type="checkbox" id="formats-pdf" name="formats" value="pdf" checked> The hand record to print (PDF)</label>' r
	# a format chosen under "Every format" shows, ticked
	grep -qx '<details open><summary>Every format</summary>' r
	grep -qx '<label><input type="checkbox" name="formats" value="csv" checked> csv <small>comma-separated suits, a line a board</small></label>' r
	# (the dealing form's boxes: the hand record form's below has its own)
	[ "$(sed '/<\/form>/q' r | grep -c ' checked>')" -eq 2 ]
	# the analysis was not asked for: its box not ticked
	grep -qx '<label><input type="checkbox" id="dd" name="dd" value="on"> Double-dummy tricks and par on the hand record</label>' r
	grep -q '<option value="letter" selected>Letter</option></select>$' r
	grep -qx '<label for="prefix">File name (else the event'"'"'s and the date'"'"'s)</label><p class="error" id="prefix-error"><span class="visually-hidden">Error: </span>Letters, digits, &#39;.&#39;, &#39;_&#39; and &#39;-&#39; only, at most 64, not beginning with &#39;.&#39; or &#39;-&#39;</p><input type="text" id="prefix" name="prefix" maxlength="64" placeholder="monday-pairs-2026-11-30" value="..x" aria-invalid="true" aria-describedby="prefix-error">' r
	grep -qx '<label for="entropy">Your own entropy (optional: a lottery draw, dice)</label><textarea id="entropy" name="entropy" rows="2">dice &lt;/textarea&gt;6</textarea>' r
	run -1 grep -c '<script>' r
	[ "$output" = 0 ]
	[ "$(grep -c 'aria-invalid="true"' r)" -eq 4 ]
	# a date typed in another form the form takes goes back into the
	# calendar as YYYY-MM-DD; the field not refused is not marked
	printf '%s' 'form=deal&date=30%2F11%2F2026&boards=0&formats=pdf' > body
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	printf '%s\n' "$output" > r
	grep -qx '<label for="date">Date <small>(pick it from the calendar; where there is none, type <span class="nowrap">2026-11-30</span>, 30/11/2026 day first, or 2026.11.30)</small></label><input type="date" id="date" name="date" value="2026-11-30">' r
	grep -q '<li><a href="#boards">The boards: ' r
	# the same fields from a script (no form=deal): the first refused, one line
	printf '%s' 'event=x&date=31%2F02%2F2026&session=0&boards=1-200&prefix=..x' > body
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[ "$stderr" = "dl-web: 400 Bad Request: the file name (prefix)" ]
	[ "$(grep -c '<p>' <<< "$output")" -eq 2 ]
	[[ $output == *"<p>the file name: letters, digits, &#39;.&#39;, &#39;_&#39; and &#39;-&#39; only, at most 64, not beginning with &#39;.&#39; or &#39;-&#39;</p>"* ]]
	[[ $output != *"class=\"error-summary"* ]]
	clean_tmp
	[ ! -e archive.sqlite ]
}

@test "Deal another session: the form again, filled with this session's event, site, date, boards and files, never its secrets" {
	printf '%s' 'form=deal&event=Monday+%22Pairs%22+%3Cb%3E+%26+Co&site=Riverside&date=30%2F11%2F2026&session=2&boards=1%E2%80%934&machine=duplimate&scoring=&formats=pdf&formats=csv&paper=letter&entropy=secret+dice&prefix=mine' > body
	SCRIPT_NAME=/dl-web post application/x-www-form-urlencoded body > r
	[ "$(status_of r)" = "Status: 200 OK" ]
	# each value escaped for the URL, the URL for the attribute; not the
	# session's number, the entropy, the files' name or the seed
	grep -qx '<p><a href="/dl-web?form=deal&amp;event=Monday%20%22Pairs%22%20%3Cb%3E%20%26%20Co&amp;site=Riverside&amp;date=2026-11-30&amp;boards=1%E2%80%934&amp;machine=duplimate&amp;scoring=&amp;formats=pdf&amp;formats=csv&amp;paper=letter">Deal another session</a> (this one'"'"'s event, date, boards and files filled in)</p>' r
	query=$(sed -n 's/^<p><a href="\/dl-web?\([^"]*\)">Deal another session.*/\1/p' r | sed 's/&amp;/\&/g')
	[[ $query != *secret* && $query != *mine* && $query != *session* && $query != *seed* ]]
	# the form it opens: filled, the boxes as they were
	REQUEST_METHOD=GET QUERY_STRING=$query dl-web > g
	[ "$(status_of g)" = "Status: 200 OK" ]
	grep -qx '<label for="event">Event</label><input type="text" id="event" name="event" maxlength="500" placeholder="Tuesday Pairs" value="Monday &quot;Pairs&quot; &lt;b&gt; &amp; Co">' g
	grep -qx '<label for="site">Site</label><input type="text" id="site" name="site" maxlength="500" value="Riverside">' g
	grep -qx '<label for="date">Date <small>(pick it from the calendar; where there is none, type <span class="nowrap">2026-11-30</span>, 30/11/2026 day first, or 2026.11.30)</small></label><input type="date" id="date" name="date" value="2026-11-30">' g
	grep -qx '<label for="session">Session</label><input type="text" id="session" name="session" inputmode="numeric">' g
	grep -qx '<label for="boards">Boards (at most 100)</label><input type="text" id="boards" name="boards" value="1–4">' g
	grep -q '<option value="duplimate" selected>Duplimate (Jannersten)</option>' g
	grep -q '<option value="" selected>None</option></select>$' g
	grep -qx '<label><input type="checkbox" name="formats" value="csv" checked> csv <small>comma-separated suits, a line a board</small></label>' g
	grep -qx '<label><input type="checkbox" id="formats-pdf" name="formats" value="pdf" checked> The hand record to print (PDF)</label>' g
	grep -qx '<label><input type="checkbox" id="dd" name="dd" value="on"> Double-dummy tricks and par on the hand record</label>' g
	grep -q '<option value="letter" selected>Letter</option></select>$' g
	grep -qx '<textarea id="entropy" name="entropy" rows="2"></textarea>' <(sed -n 's/^<label for="entropy">[^<]*<\/label>//p' g)
	run ! grep -q 'aria-invalid="true"\|class="error' g
	# the analysis asked for: ticked again; a query that cannot be read, 400
	REQUEST_METHOD=GET QUERY_STRING="$query&dd=on" dl-web | grep -qx '<label><input type="checkbox" id="dd" name="dd" value="on" checked> Double-dummy tricks and par on the hand record</label>'
	run -1 --separate-stderr env REQUEST_METHOD=GET QUERY_STRING='event=%zz' dl-web
	[ "${lines[0]}" = $'Status: 400 Bad Request\r' ]
	[ "$stderr" = "dl-web: 400 Bad Request: the form's query string" ]
	# a blank form's query: no query at all
	REQUEST_METHOD=GET QUERY_STRING= dl-web > b
	grep -qx '<label><input type="checkbox" id="dd" name="dd" value="on" checked> Double-dummy tricks and par on the hand record</label>' b
	grep -qx '<label for="boards">Boards (at most 100)</label><input type="text" id="boards" name="boards" value="1-32">' b
	clean_tmp
}

@test "the hand record's boards a page as the director chooses: six, four larger, or one for teaching" {
	for n in 6 4 1; do
		printf 'form=deal&boards=1-12&formats=pdf&per_page=%s&download=zip&prefix=p' "$n" > body
		post application/x-www-form-urlencoded body > r
		body_of r
		unzip -p body.out p.pdf > p.pdf
		pdfinfo p.pdf | awk '/^Pages:/ { print $2 }' >> pages
	done
	[ "$(paste -sd' ' pages)" = "2 3 12" ]
	printf 'boards=1-2&formats=pdf&per_page=5' > body
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[ "${lines[0]}" = $'Status: 400 Bad Request\r' ]
	[[ $output == *"<p>the boards a page: 6, 4 or 1</p>"* ]]
	clean_tmp
}

@test "no file name given: the event's and the date's, so that next week's files do not overwrite this week's" {
	for fields in 'event=Monday+Pairs&date=2026-11-30' 'event=%C3%89t%C3%A9+Cup+%E2%80%94+R%C3%B8nne&date=30%2F11%2F2026' \
	    'date=2026.11.30' 'event=%E2%99%A0%E2%99%A5&date=2026.11.30' 'event=Club&date=2026.%3F%3F.%3F%3F'; do
		printf '%s&boards=1-2&formats=pbn&download=zip' "$fields" > body
		post application/x-www-form-urlencoded body > r
		sed -n 's/^Content-Disposition: attachment; filename="\(.*\)"\r$/\1/p' r >> names
	done
	[ "$(cat names)" = 'monday-pairs-2026-11-30.zip
ete-cup-ronne-2026-11-30.zip
session-2026-11-30.zip
session-2026-11-30.zip
club-2026.zip' ]
	clean_tmp
}

@test "boards typed with a dash a phone or a word processor makes, or spaces around it; refused with the form's own limit" {
	# 3-6 with a hyphen, an en dash, an em dash, a minus sign, spaces;
	# 4, spaces around it
	for boards in 3-6 3%E2%80%936 3%E2%80%946 3%E2%88%926 3+-+6 '+3+%E2%80%93+6+' 4 '+4+'; do
		form "boards=$boards" 'formats=pbn' 'prefix=b'
		post application/x-www-form-urlencoded body > r
		[ "$(status_of r)" = "Status: 200 OK" ] || { echo "$boards: $(status_of r)"; return 1; }
		page_zip r > b.zip
		unzip -p b.zip b.pbn | sed -n 's/^\[Board "\(.*\)"\]$/\1/p' | paste -sd, >> seen
	done
	[ "$(cat seen)" = '3,4,5,6
3,4,5,6
3,4,5,6
3,4,5,6
3,4,5,6
3,4,5,6
1,2,3,4
1,2,3,4' ]
	# refused, saying what the form takes
	for bad in x:'not a board count or range (N, or LOW-HIGH as 1-24)' \
	    3%E2%80%93:'not a board count or range (N, or LOW-HIGH as 1-24)' \
	    3+6:'not a board count or range (N, or LOW-HIGH as 1-24)' \
	    3--6:'not a board count or range (N, or LOW-HIGH as 1-24)' \
	    3%E2%80%92%36:'not a board count or range (N, or LOW-HIGH as 1-24)' \
	    6%E2%80%933:'board range runs backwards'; do
		form "boards=${bad%%:*}" 'formats=pbn'
		run -1 --separate-stderr post application/x-www-form-urlencoded body
		[ "${lines[0]}" = $'Status: 400 Bad Request\r' ] &&
		    [[ $output == *"<p>the boards: ${bad#*:}; at most 100 boards</p>"* ]] &&
		    [ "$stderr" = "dl-web: 400 Bad Request: the boards" ] || { echo "$bad: $output"; return 1; }
	done
	# the command-line tools keep their one form
	run -2 dl-stream -n '3 - 6' < /dev/null
	[ "$output" = 'dl-stream: -n 3 - 6: not a board count or range (N or LOW-HIGH, boards 1 to 1000000000)' ]
	clean_tmp
}

@test "sets of one event dealt at the same moment: each page and hand record says its own place, 1 to 16" {
	# one that loses the race deals again, with the archive locked from
	# its count to its commit
	form 'event=Club+Night' 'boards=1-4' 'formats=pbn'
	local i
	for i in $(seq 16); do
		post application/x-www-form-urlencoded body > "r$i" &
	done
	wait
	for i in $(seq 16); do
		[ "$(status_of "r$i")" = "Status: 200 OK" ]
		# the place on the page is the one on its hand record
		n=$(sed -n 's/.*: \([0-9]*\) sets\{0,1\} dealt for Club Night\.<\/p>$/\1/p' "r$i")
		grep -q "; set $n dealt for this event</span>" "r$i"
		echo "$n"
	done | sort -n > places
	[ "$(cat places)" = "$(seq 16)" ]
	[ "$(dl-archive sets | grep -c '(Club Night)$')" -eq 16 ]
	clean_tmp
}

# bats test_tags=slow
@test "POST download=zip: the zip alone, named as asked, with the analysis when dd=on" {
	form 'event=Club' 'boards=1-4' 'dd=on' 'download=zip' 'prefix=club-night'
	post application/x-www-form-urlencoded body > r
	[ "$(status_of r)" = "Status: 200 OK" ]
	grep -qx $'Content-Type: application/zip\r' r
	grep -qx $'Content-Disposition: attachment; filename="club-night.zip"\r' r
	body_of r
	run -0 unzip -Z1 body.out
	[ "$output" = $'club-night.pbn\nclub-night.pdf\nclub-night.seed' ]
	unzip -q body.out -d z
	dl-stream -n 1-4 < z/club-night.seed | dl-map | dl-dd -q | dl-fmt -f pbn | cmp - z/club-night.pbn
	grep -q '^\[ParContract ' z/club-night.pbn
	clean_tmp
}

@test "nothing of a set is forced onto the disk but its archive entry: no fsync of the files it zips" {
	strace -f -qq -o /dev/null true || skip_unless_possible "strace cannot trace here (ptrace not permitted)"
	form 'event=Club' 'boards=1-4' 'formats=pbn,lin,pdf' 'download=zip'
	# (LeakSanitizer cannot run under ptrace: off for this one run)
	REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=$(wc -c < body) ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    strace -f -qq -o trace -e trace=fsync,fdatasync -y dl-web < body > r
	[ "$(status_of r)" = "Status: 200 OK" ]
	# the archive's commit syncs its journal, its folder and itself
	run -0 sed -n 's/.*sync(\([0-9]*\)<\(.*\)>).*/\2/p' trace
	[ -n "$output" ]
	while read -r path; do
		case $path in
		"$BATS_TEST_TMPDIR"/archive.sqlite | "$BATS_TEST_TMPDIR"/archive.sqlite-journal | \
		    "$BATS_TEST_TMPDIR") ;;
		*) echo "synced: $path" >&2; return 1 ;;
		esac
	done <<< "$output"
	clean_tmp
}

@test "multipart/form-data, as browsers send it, with the director's own entropy" {
	b=----dlwebtest
	{
		printf -- '--%s\r\nContent-Disposition: form-data; name="event"\r\n\r\nMonday\r\n' $b
		printf -- '--%s\r\nContent-Disposition: form-data; name="boards"\r\n\r\n1-3\r\n' $b
		printf -- '--%s\r\nContent-Disposition: form-data; name="entropy"\r\n\r\n4 17 23 31 38 42\r\n' $b
		printf -- '--%s\r\nContent-Disposition: form-data; name="download"\r\n\r\nzip\r\n' $b
		printf -- '--%s--\r\n' $b
	} > body
	post "multipart/form-data; boundary=$b" body > r
	[ "$(status_of r)" = "Status: 200 OK" ]
	body_of r
	unzip -q body.out -d z
	# named from the event and today's date
	day=$(date +%Y-%m-%d)
	[ "$(cd z && ls | tr '\n' ' ')" = "monday-$day.pbn monday-$day.pdf monday-$day.seed " ]
	# the director's text goes in Big Deal's way: a bigdeal seed
	grep -q '^bigdeal ' "z/monday-$day.seed"
	dl-stream -n 1-3 < "z/monday-$day.seed" | dl-map | dl-fmt -f pbn | cmp - "z/monday-$day.pbn"
}

@test "what cannot be taken: a page saying why, with its status" {
	REQUEST_METHOD=PUT dl-web > r || true
	[ "$(status_of r)" = "Status: 405 Method Not Allowed" ]
	grep -qx $'Allow: GET, HEAD, POST\r' r
	run -1 --separate-stderr env REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded dl-web < /dev/null
	# the server's error log is told in one line
	[ "$stderr" = "dl-web: 411 Length Required: a request without its length" ]
	[ "${lines[0]}" = $'Status: 411 Length Required\r' ]
	# too large: refused before a byte is read
	run -1 --separate-stderr env REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=99999999999 dl-web < /dev/null
	[ "${lines[0]}" = $'Status: 413 Payload Too Large\r' ]
	[[ $output == *"<p>a request of 99999999999 bytes: at most 10551296 (a file of 10 MiB)</p>"* ]]
	printf 'hello' > body
	run -1 --separate-stderr post text/plain body
	[ "${lines[0]}" = $'Status: 415 Unsupported Media Type\r' ]
	for bad in 'event=%zz' 'event=a%00b' 'prefix=../x' 'prefix=.hidden' 'boards=1-200' \
	    'date=24.11.2026' 'paper=legal' 'formats=nosuch' 'session=0'; do
		form "$bad"
		run -1 --separate-stderr post application/x-www-form-urlencoded body
		[ "${lines[0]}" = $'Status: 400 Bad Request\r' ] || { echo "$bad: ${lines[0]}"; return 1; }
	done
	form 'boards=1-200'
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[[ $output == *"<p>200 boards: at most 100 a request (a session)</p>"* ]]
	# boards a chosen format cannot hold: the request's fault, not the server's
	form 'boards=50-149' 'formats=dup'
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[ "${lines[0]}" = $'Status: 400 Bad Request\r' ]
	[[ $output == *"<p>format dup holds boards up to 99, not board 149</p>"* ]]
	[ "$stderr" = "dl-web: 400 Bad Request: the boards: more than a format holds" ]
	form 'prefix=../x'
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[[ $output == *"<p>the file name: letters, digits, &#39;.&#39;, &#39;_&#39; and &#39;-&#39; only, at most 64, not beginning with &#39;.&#39; or &#39;-&#39;</p>"* ]]
	# a field too long, too many fields
	form "event=$(head -c 5000 /dev/zero | tr '\0' x)"
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[ "${lines[0]}" = $'Status: 413 Payload Too Large\r' ]
	clean_tmp
	[ ! -e archive.sqlite ]
}

@test "markup in every text field is text: escaped in the page, as each format writes it in the files" {
	form 'event=%3Cscript%3Ealert(1)%3C%2Fscript%3E' 'site=%3Cb%3E%26' 'boards=1-2' 'formats=pbn'
	post application/x-www-form-urlencoded body > r
	[ "$(status_of r)" = "Status: 200 OK" ]
	run grep -c '<script>alert' r
	[ "$output" = 0 ]
	grep -q '<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>' r
	page_zip r > s.zip
	unzip -q s.zip -d z
	# and the files' name from the event is letters and dashes
	ls z/script-alert-1-script-*.pbn
	grep -qx '\[Event "<script>alert(1)</script>"\]' z/script-alert-1-script-*.pbn
	grep -qx '\[Site "<b>&"\]' z/script-alert-1-script-*.pbn
}

@test "check: an uploaded file of any format against the archive, board by board" {
	form 'event=Spring+Pairs' 'boards=1-4' 'formats=pbn' 'download=zip' 'prefix=session'
	post application/x-www-form-urlencoded body > r
	body_of r
	unzip -q body.out -d z
	b=----dlwebcheck
	{
		printf -- '--%s\r\nContent-Disposition: form-data; name="action"\r\n\r\ncheck\r\n' $b
		printf -- '--%s\r\nContent-Disposition: form-data; name="file"; filename="spring.pbn"\r\n' $b
		printf 'Content-Type: application/octet-stream\r\n\r\n'
		cat z/session.pbn
		printf '\r\n--%s--\r\n' $b
	} > upload
	post "multipart/form-data; boundary=$b" upload > c
	[ "$(status_of c)" = "Status: 200 OK" ]
	grep -q '<p>spring.pbn: 4 boards.</p>' c
	# the set just dealt, before it is played: not compared with itself
	grep -q '^<p>This is set 1, dealt here on [0-9-]* and not yet played: it is not compared with itself' c
	grep -q '<p>No board of it was seen before.</p>' c
	# after the session, played; then found as any set played before
	form 'action=played' 'set=1'
	post application/x-www-form-urlencoded body > p
	grep -q '<p>Set 1 is marked played.</p>' p
	played=$(dl-archive sets | awk '$1 == 1 { print substr($6, 1, 10) }')
	post "multipart/form-data; boundary=$b" upload > c
	cp upload upload-spring
	grep -q "<tr><td>1</td><td>the same deal</td><td>1</td><td>1</td><td>Spring Pairs</td><td></td><td>here, $played</td></tr>" c
	[ "$(grep -c '<tr><td>' c)" -eq 4 ]
	# the verdict, by the archive's one rule
	grep -q '^<p><strong>Dealt before: 4 of its 4 boards.</strong></p>$' c
	# under it, where a phone shows it, the set and when it was played
	grep -qx "<p>Its boards dealt before are in set 1, played here on $played.</p>" c
	# each board with one hand the same alone: listed, but no board dealt
	# before (chance gives a hand held before)
	dl-read z/session.pbn | variant one-hand | dl-fmt -f pbn > one-hand.pbn
	{
		printf -- '--%s\r\nContent-Disposition: form-data; name="action"\r\n\r\ncheck\r\n' $b
		printf -- '--%s\r\nContent-Disposition: form-data; name="file"; filename="one-hand.pbn"\r\n\r\n' $b
		cat one-hand.pbn
		printf '\r\n--%s--\r\n' $b
	} > upload
	post "multipart/form-data; boundary=$b" upload > c
	[ "$(grep -c '<td>one hand the same</td>' c)" -eq 4 ]
	grep -q '^<p><strong>None of its 4 boards was dealt before</strong>: the hands below were held before by chance, as one in a session is in a large archive.</p>$' c
	# a file never dealt
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 2> /dev/null |
	    dl-stream -n 1-3 | dl-map | dl-fmt -f pbn > other.pbn
	{
		printf -- '--%s\r\nContent-Disposition: form-data; name="action"\r\n\r\ncheck\r\n' $b
		printf -- '--%s\r\nContent-Disposition: form-data; name="file"; filename="other.pbn"\r\n\r\n' $b
		cat other.pbn
		printf '\r\n--%s--\r\n' $b
	} > upload
	post "multipart/form-data; boundary=$b" upload > c
	grep -q '<p>No board of it was seen before.</p>' c
	# its boards dealt here again, renumbered, and not played (a seed used
	# twice): found, and said to be not yet played
	dl-read z/session.pbn | awk '/^#B:/ { print "#B: 11-14"; next } /^#/ { print; next } { print $1 + 10, $2 }' |
	    dl-archive -q add
	cp upload-spring upload
	post "multipart/form-data; boundary=$b" upload > c
	grep -q "<tr><td>1</td><td>the same deal</td><td>1</td><td>1</td><td>Spring Pairs</td><td></td><td>here, $played</td></tr>" c
	grep -q "<tr><td>1</td><td>the same deal</td><td>2</td><td>11</td><td>Spring Pairs</td><td></td><td><strong>not yet: dealt here</strong></td></tr>" c
	[ "$(grep -c '<tr><td>' c)" -eq 8 ]
	grep -qx "<p>Its boards dealt before are in set 1, played here on $played; set 2, dealt here and not yet played.</p>" c
	clean_tmp
}

@test "check: telling an upload's format loads the readers it needs, never a writer" {
	strace -f -qq -o /dev/null true || skip_unless_possible "strace cannot trace here (ptrace not permitted)"
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 2> /dev/null |
	    dl-stream -n 1-3 | dl-map | dl-fmt -f pbn > other.pbn
	dl-archive -q add other.pbn
	b=----dlwebcheck
	# plugins_opened NAME: the plugins a check of other.pbn uploaded as NAME opens
	# (LeakSanitizer cannot run under ptrace: off for this one run)
	plugins_opened() {
		multipart_check $b file "$1" other.pbn
		REQUEST_METHOD=POST CONTENT_TYPE="multipart/form-data; boundary=$b" \
		    CONTENT_LENGTH=$(wc -c < upload) ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		    strace -f -qq -o trace -e trace=openat dl-web < upload > c
		grep -q '<p>No board of it was seen before.</p>' c
		sed -n 's|.*"[^"]*/plugins/\([a-z0-9_]*\)\.so".*= [0-9].*|\1|p' trace | sort -u | tr '\n' ' '
	}
	[ "$(plugins_opened spring.pbn)" = "pbn " ]
	[ "$(plugins_opened spring)" = "$(dl-read --list | awk 'NR > 1 { print $1 }' | sort | tr '\n' ' ')" ]
	clean_tmp
}

@test "a request ended by a signal in the middle leaves nothing behind" {
	form 'event=Long' 'boards=1-36' 'dd=on' 'download=zip'
	REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=$(wc -c < body) dl-web < body > /dev/null &
	pid=$!
	for _ in $(seq 100); do
		ls tmp | grep -q '^dl-web\.' && break
		sleep 0.05
	done
	ls tmp | grep -q '^dl-web\.'
	# its analysis, in dl-dd, under way
	for _ in $(seq 100); do
		dd=$(pgrep -P "$pid" -x dl-dd) && break
		sleep 0.05
	done
	[ -n "$dd" ]
	kill -TERM "$pid"
	wait "$pid" || true
	clean_tmp
	# ended with it, not solving on for nobody
	for _ in $(seq 40); do
		kill -0 "$dd" 2> /dev/null || break
		sleep 0.05
	done
	run ! kill -0 "$dd"
}

@test "the double-dummy analysis on as many requests at once as there are cores, then 503" {
	mkdir -p locks
	# every slot held, as by requests analysing
	for i in $(seq 0 $(($(nproc) - 1))); do
		exec {fd}> "locks/slot$i"
		flock -n "$fd"
	done
	form 'boards=1-2' 'dd=on'
	run -2 --separate-stderr post application/x-www-form-urlencoded body
	[ "${lines[0]}" = $'Status: 503 Service Unavailable\r' ]
	[[ $output == *$'Retry-After: 30\r'* ]]
	[ "$stderr" = "dl-web: 503 Service Unavailable: every core is analysing another session: try again in half a minute, or deal without the analysis" ]
	# from the form: the form again as it was sent, the analysis's box
	# said busy, to press again or to untick
	form 'form=deal' 'event=Club+%3CNight%3E' 'boards=1-2' 'formats=pdf' 'dd=on'
	run -2 --separate-stderr post application/x-www-form-urlencoded body
	[ "${lines[0]}" = $'Status: 503 Service Unavailable\r' ]
	[[ $output == *$'Retry-After: 30\r'* ]]
	[ "$stderr" = "dl-web: 503 Service Unavailable: every core is analysing another session: try again in half a minute, or deal without the analysis" ]
	printf '%s\n' "$output" > r
	grep -qx '<h2 id="error-summary-title">Nothing was dealt yet: the server is busy</h2>' r
	grep -qx '<li><a href="#dd">Every core is analysing another session: try again in half a minute, or deal without the analysis</a></li>' r
	grep -qx '<p class="error" id="dd-error"><span class="visually-hidden">Error: </span>Every core is analysing another session: try again in half a minute, or deal without the analysis</p><label><input type="checkbox" id="dd" name="dd" value="on" checked aria-invalid="true" aria-describedby="dd-error"> Double-dummy tricks and par on the hand record</label>' r
	grep -q 'name="event" maxlength="500" placeholder="Tuesday Pairs" value="Club &lt;Night&gt;">$' r
	# without the analysis it deals
	form 'boards=1-2'
	run -0 --separate-stderr post application/x-www-form-urlencoded body
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
}

@test "check: a file that cannot be read is named by its own name, never by the server's private path" {
	b=----dlwebbad
	upload() {
		{
			printf -- '--%s\r\nContent-Disposition: form-data; name="action"\r\n\r\ncheck\r\n' $b
			printf -- '--%s\r\nContent-Disposition: form-data; name="file"; filename="%s"\r\n\r\n' $b "$1"
			cat "$2"
			printf '\r\n--%s--\r\n' $b
		} > upload
	}
	printf 'garbage\n' > g
	upload g.txt g
	run -1 --separate-stderr post "multipart/form-data; boundary=$b" upload
	[ "${lines[0]}" = $'Status: 400 Bad Request\r' ]
	[[ $output == *"<p>g.txt: not a file of a format dl reads (PBN, LIN, DUP, BRI, DGE, ...)</p>"* ]]
	printf '[Event "x"]\n[Board "1"]\n[Deal "N:AKQ"]\n' > p
	upload bad.pbn p
	run -1 --separate-stderr post "multipart/form-data; boundary=$b" upload
	[[ $output == *"<p>bad.pbn:3: board 1: North has 1 suits, not 4 (three dots)</p>"* ]]
	[[ $output != *"dl-web."* ]]
	[[ $stderr != *"dl-web."* ]]
	clean_tmp
}

# multipart BOUNDARY NAME FILENAME FILE: a check of FILE uploaded as
# FILENAME, in upload
multipart_check() {
	{
		printf -- '--%s\r\nContent-Disposition: form-data; name="action"\r\n\r\ncheck\r\n' "$1"
		printf -- '--%s\r\nContent-Disposition: form-data; name="%s"; filename="%s"\r\n\r\n' \
		    "$1" "$2" "$3"
		cat "$4"
		printf '\r\n--%s--\r\n' "$1"
	} > upload
}

# check_refused NAME FILE STATUS LOG SUMMARY ERROR: FILE uploaded as NAME
# from the form's "Played before?" (form=check), refused with STATUS, the
# log LOG, the page again with the summary's line SUMMARY and the field's
# line ERROR, nothing else marked
check_refused() {
	local b=----dlwebcheckform
	{
		printf -- '--%s\r\nContent-Disposition: form-data; name="action"\r\n\r\ncheck\r\n' $b
		printf -- '--%s\r\nContent-Disposition: form-data; name="form"\r\n\r\ncheck\r\n' $b
		printf -- '--%s\r\nContent-Disposition: form-data; name="file"; filename="%s"\r\n\r\n' $b "$1"
		cat "$2"
		printf '\r\n--%s--\r\n' $b
	} > upload
	run --separate-stderr post "multipart/form-data; boundary=$b" upload
	[ "$status" -eq "$([ "${3%% *}" -ge 500 ] && echo 2 || echo 1)" ] || { echo "$status"; return 1; }
	[ "${lines[0]}" = "Status: $3"$'\r' ] || { echo "${lines[0]}"; return 1; }
	# the log's last line (a shared archive's cause before it)
	[ "${stderr##*$'\n'}" = "dl-web: $3: $4" ] || { echo "$stderr"; return 1; }
	printf '%s\n' "$output" > r
	grep -qx '<title>Deal a session</title>' r
	grep -qxF "$5" r || { grep '^<li>' r; return 1; }
	grep -qxF "$6" r || { grep 'check-file' r; return 1; }
	[ "$(grep -c 'aria-invalid="true"' r)" -eq 1 ]
	[ "$(grep -c '<input type="hidden" name="form" value="check">' r)" -eq 1 ]
}

@test "Played before? from the form: each refusal the page again, the file asked for again, its error beside it, a summary at the top" {
	printf 'garbage\n' > g
	check_refused 'Last <b>month.txt' g '400 Bad Request' 'the file to check: not of a format dl reads' \
	    '<li><a href="#check-file">Last &lt;b&gt;month.txt: not a file of a format dl reads (PBN, LIN, DUP, BRI, DGE, ...)</a></li>' \
	    '<label for="check-file">The file to check (PBN, DUP, LIN, or any other deal file)</label><p class="error" id="check-file-error"><span class="visually-hidden">Error: </span>Last &lt;b&gt;month.txt: not a file of a format dl reads (PBN, LIN, DUP, BRI, DGE, ...)</p><p class="note" id="check-file-again">Choose the file again (you chose Last &lt;b&gt;month.txt): a page cannot keep it for you.</p><input type="file" id="check-file" name="file" required aria-invalid="true" aria-describedby="check-file-error check-file-again">'
	[ "$(sed -n '/<div class="error-summary"/,/<\/div>/p' r)" = '<div class="error-summary" role="alert" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">Nothing was checked: 1 field to put right</h2>
<ul>
<li><a href="#check-file">Last &lt;b&gt;month.txt: not a file of a format dl reads (PBN, LIN, DUP, BRI, DGE, ...)</a></li>
</ul>
</div>' ]
	# the other forms blank
	grep -qx '<label for="event">Event</label><input type="text" id="event" name="event" maxlength="500" placeholder="Tuesday Pairs">' r
	grep -qx '<label><input type="checkbox" id="record-dd" name="dd" value="on" checked> Double-dummy tricks and par</label>' r
	printf '[Event "x"]\n[Board "1"]\n[Deal "N:AKQ"]\n' > p
	check_refused bad.pbn p '400 Bad Request' 'the file to check: not read' \
	    '<li><a href="#check-file">bad.pbn:3: board 1: North has 1 suits, not 4 (three dots)</a></li>' \
	    '<label for="check-file">The file to check (PBN, DUP, LIN, or any other deal file)</label><p class="error" id="check-file-error"><span class="visually-hidden">Error: </span>bad.pbn:3: board 1: North has 1 suits, not 4 (three dots)</p><p class="note" id="check-file-again">Choose the file again (you chose bad.pbn): a page cannot keep it for you.</p><input type="file" id="check-file" name="file" required aria-invalid="true" aria-describedby="check-file-error check-file-again">'
	# no file chosen: the browser's empty field, with no name
	: > none
	check_refused '' none '400 Bad Request' 'no file to check' \
	    '<li><a href="#check-file">No file to check</a></li>' \
	    '<label for="check-file">The file to check (PBN, DUP, LIN, or any other deal file)</label><p class="error" id="check-file-error"><span class="visually-hidden">Error: </span>No file to check</p><input type="file" id="check-file" name="file" required aria-invalid="true" aria-describedby="check-file-error">'
	# the federation's shared archive cannot be read: 503, the cause in
	# the log only
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 2> /dev/null |
	    dl-stream -n 1-3 | dl-map | dl-fmt -f pbn > other.pbn
	DL_SHARED_ARCHIVE=$BATS_TEST_TMPDIR/nowhere/shared.sqlite check_refused other.pbn other.pbn \
	    '503 Service Unavailable' 'the shared archive could not be opened' \
	    '<li><a href="#check-file">The shared archive could not be read: the file was not checked</a></li>' \
	    '<label for="check-file">The file to check (PBN, DUP, LIN, or any other deal file)</label><p class="error" id="check-file-error"><span class="visually-hidden">Error: </span>The shared archive could not be read: the file was not checked</p><p class="note" id="check-file-again">Choose the file again (you chose other.pbn): a page cannot keep it for you.</p><input type="file" id="check-file" name="file" required aria-invalid="true" aria-describedby="check-file-error check-file-again">'
	[ "$stderr" = "dl-web: the shared archive: $BATS_TEST_TMPDIR/nowhere/shared.sqlite: No such file or directory
dl-web: 503 Service Unavailable: the shared archive could not be opened" ]
	grep -qx '<h2 id="error-summary-title">Nothing was checked: the federation'"'"'s shared archive could not be read</h2>' r
	[[ $output == *$'Retry-After: 30\r'* ]]
	# a script's (no form): the one line, as ever
	multipart_check ----dlweb file g.txt g
	run -1 --separate-stderr post "multipart/form-data; boundary=----dlweb" upload
	[ "$stderr" = "dl-web: 400 Bad Request: the file to check: not of a format dl reads" ]
	[ "$(grep -c '^<p>' <<< "$output")" -eq 2 ]
	[[ $output == *"<p>g.txt: not a file of a format dl reads (PBN, LIN, DUP, BRI, DGE, ...)</p>"* ]]
	[[ $output != *'class="error-summary'* ]]
	clean_tmp
}

@test "After the session from the form: not a set's number, no such set: the page again, the number kept, its error beside it" {
	# played_refused BODY LOG SUMMARY ERROR
	played_refused() {
		printf '%s' "$1" > body
		run -1 --separate-stderr post application/x-www-form-urlencoded body
		[ "${lines[0]}" = $'Status: 400 Bad Request\r' ]
		[ "$stderr" = "dl-web: 400 Bad Request: $2" ] || { echo "$stderr"; return 1; }
		printf '%s\n' "$output" > r
		[ "$(sed -n '/<div class="error-summary"/,/<\/div>/p' r)" = '<div class="error-summary" role="alert" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">No set was marked played: 1 field to put right</h2>
<ul>
'"$3"'
</ul>
</div>' ] || { sed -n '/<div class="error-summary"/,/<\/div>/p' r; return 1; }
		grep -qxF "$4" r || { grep 'played-set' r; return 1; }
		[ "$(grep -c 'aria-invalid="true"' r)" -eq 1 ]
	}
	played_refused 'action=played&form=played&set=twelve%3Cb%3E' \
	    "the set played: a set's number, as the hand record gives it" \
	    '<li><a href="#played-set">The set played: a set&#39;s number, as the hand record gives it</a></li>' \
	    '<label for="played-set">The set played (its number, on the hand record)</label><p class="error" id="played-set-error"><span class="visually-hidden">Error: </span>A set&#39;s number, as the hand record gives it</p><input type="text" id="played-set" name="set" min="1" required value="twelve&lt;b&gt;" aria-invalid="true" aria-describedby="played-set-error">'
	played_refused 'action=played&form=played' \
	    "the set played: a set's number, as the hand record gives it" \
	    '<li><a href="#played-set">The set played: a set&#39;s number, as the hand record gives it</a></li>' \
	    '<label for="played-set">The set played (its number, on the hand record)</label><p class="error" id="played-set-error"><span class="visually-hidden">Error: </span>A set&#39;s number, as the hand record gives it</p><input type="number" id="played-set" name="set" min="1" required aria-invalid="true" aria-describedby="played-set-error">'
	played_refused 'action=played&form=played&set=999' \
	    'no set ... in the archive of sets dealt here' \
	    '<li><a href="#played-set">No set 999 in the archive of sets dealt here</a></li>' \
	    '<label for="played-set">The set played (its number, on the hand record)</label><p class="error" id="played-set-error"><span class="visually-hidden">Error: </span>No set 999 in the archive of sets dealt here</p><input type="number" id="played-set" name="set" min="1" required value="999" aria-invalid="true" aria-describedby="played-set-error">'
	# the other forms blank
	grep -qx '<label for="check-file">The file to check (PBN, DUP, LIN, or any other deal file)</label><input type="file" id="check-file" name="file" required>' r
	# a script's (no form): one line each, as ever
	form 'action=played' 'set=x'
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[ "$stderr" = "dl-web: 400 Bad Request: the set played: a set's number, as the hand record gives it" ]
	[ "$(grep -c '^<p>' <<< "$output")" -eq 2 ]
	[[ $output == *"<p>the set played: a set&#39;s number, as the hand record gives it</p>"* ]]
	form 'action=played' 'set=999'
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[ "$stderr" = "dl-web: 400 Bad Request: no set ... in the archive of sets dealt here" ]
	[[ $output == *"<p>no set 999 in the archive of sets dealt here</p>"* ]]
	[[ $output != *'class="error-summary'* ]]
	clean_tmp
}

# bats test_tags=slow
@test "the error log is told what was refused, never a value of the request" {
	# each field refused with a value of its own in it: the page may
	# quote it (escaped), the server's error log never
	s=zqxj7
	: > log
	# refused BODY STATUS LINE: BODY posted, refused with STATUS and LINE
	refused() {
		printf '%s' "$1" > body
		run --separate-stderr post application/x-www-form-urlencoded body
		[ "$status" -eq 1 ] && [ "${lines[0]}" = "Status: $2"$'\r' ] &&
		    [ "$stderr" = "dl-web: $3" ] || { echo "$1: $status ${lines[0]}: $stderr"; return 1; }
		printf '%s\n' "$stderr" >> log
	}
	refused "event=$s%01" '400 Bad Request' '400 Bad Request: the event'
	refused "site=$s%7F" '400 Bad Request' '400 Bad Request: the site'
	refused "date=$s" '400 Bad Request' '400 Bad Request: the date'
	refused "session=$s" '400 Bad Request' '400 Bad Request: the session'
	refused "boards=$s" '400 Bad Request' '400 Bad Request: the boards'
	refused "event=$s&boards=1-200" '400 Bad Request' '400 Bad Request: the boards: more than a session'
	refused "event=$s&boards=50-149&formats=dup" '400 Bad Request' \
	    '400 Bad Request: the boards: more than a format holds'
	refused "formats=$s" '400 Bad Request' '400 Bad Request: the formats: one not here'
	refused "formats=pbn,,$s" '400 Bad Request' '400 Bad Request: the formats'
	refused "prefix=.$s" '400 Bad Request' '400 Bad Request: the file name (prefix)'
	refused "paper=$s" '400 Bad Request' '400 Bad Request: the paper'
	refused "event=$s%zz" '400 Bad Request' "400 Bad Request: the form's body"
	refused "event=$s$(head -c 5000 /dev/zero | tr '\0' x)" '413 Payload Too Large' \
	    "413 Payload Too Large: the form's body"
	# the page still says what was wrong with what was sent
	refused "formats=$s" '400 Bad Request' '400 Bad Request: the formats: one not here'
	[[ $output == *"<p>no format $s here</p>"* ]]
	# a method, a length
	run -1 --separate-stderr env REQUEST_METHOD=$s dl-web
	[ "$stderr" = "dl-web: 405 Method Not Allowed: a method but GET, HEAD and POST" ]
	[[ $output == *"<p>$s: this page takes GET and POST only</p>"* ]]
	printf '%s\n' "$stderr" >> log
	run -1 --separate-stderr env REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=12345678987 dl-web < /dev/null
	[ "$stderr" = "dl-web: 413 Payload Too Large: a request of ... bytes: at most ... (a file of ... MiB)" ]
	printf '%s\n' "$stderr" >> log
	run -1 --separate-stderr env REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=$s dl-web < /dev/null
	[ "$stderr" = "dl-web: 400 Bad Request: its length is not a number" ]
	printf '%s\n' "$stderr" >> log
	# an upload that cannot be read: its name, and what is wrong in it
	b=----dlweblog
	printf '[Event "x"]\n[Board "1"]\n[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543"]\n' > p
	multipart_check $b file "$s.pbn" p
	run -1 --separate-stderr post "multipart/form-data; boundary=$b" upload
	[[ $output == *"<p>$s.pbn:3: board 1: the 2C is in no hand (--partial passes such boards over)</p>"* ]]
	[ "$stderr" = "dl-web: 400 Bad Request: the file to check: not read" ]
	printf '%s\n' "$stderr" >> log
	printf 'garbage %s\n' $s > g
	multipart_check $b file "$s.txt" g
	run -1 --separate-stderr post "multipart/form-data; boundary=$b" upload
	[ "$stderr" = "dl-web: 400 Bad Request: the file to check: not of a format dl reads" ]
	printf '%s\n' "$stderr" >> log
	# no file
	printf 'action=check' > body
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[ "$stderr" = "dl-web: 400 Bad Request: no file to check" ]
	printf '%s\n' "$stderr" >> log
	# a bad multipart body: a part without its field's name, one cut short
	{
		printf -- '--%s\r\nContent-Disposition: form-data; filename="%s.pbn"\r\n\r\n' $b $s
		printf '%s\r\n--%s--\r\n' $s $b
	} > upload
	run -1 --separate-stderr post "multipart/form-data; boundary=$b" upload
	[ "$stderr" = "dl-web: 400 Bad Request: the form's body" ]
	printf '%s\n' "$stderr" >> log
	head -c 60 upload > cut
	run -1 --separate-stderr post "multipart/form-data; boundary=$b" cut
	[ "$stderr" = "dl-web: 400 Bad Request: the form's body" ]
	printf '%s\n' "$stderr" >> log
	# nothing sent is in the log: not the value, not a card of the upload
	[ "$(wc -l < log)" -eq 22 ]
	run ! grep -Ei "$s|2C|12345678987" log
	[ ! -e archive.sqlite ]
	clean_tmp
}

# bats test_tags=slow
@test "the analysis's lock folder: beside the archive, not one another user can make first; one not the server's own is a 500" {
	unset DL_WEB_LOCKS
	export DL_ARCHIVE=$BATS_TEST_TMPDIR/data/archive.sqlite
	# another user made the folder a shared TMPDIR once held first
	mkdir -m 0777 "tmp/dl-web-locks-$(id -u)"
	[ "$(id -u)" -ne 0 ] || chown nobody "tmp/dl-web-locks-$(id -u)"
	form 'boards=1-2' 'dd=on' 'formats=pbn'
	run -0 --separate-stderr post application/x-www-form-urlencoded body
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
	[ "$(stat -c '%a %u' data/dl-web-locks)" = "700 $(id -u)" ]
	[ "$(stat -c %a data)" = 700 ]
	[ "$(sqlite3 data/archive.sqlite 'SELECT count(*) FROM sets')" = 1 ]
	# a folder named that is not the server user's own alone: the
	# server's fault, said so, not "every core is analysing" for ever;
	# the cause in the log, the page plain (no path)
	# refused_locks PATH WHAT CAUSE
	refused_locks() {
		local page=${2//"'"/"&#39;"}
		run -2 --separate-stderr env DL_WEB_LOCKS="$1" REQUEST_METHOD=POST \
		    CONTENT_TYPE=application/x-www-form-urlencoded CONTENT_LENGTH=$(wc -c < body) dl-web < body
		[ "${lines[0]}" = $'Status: 500 Internal Server Error\r' ] &&
		    [[ $output == *"<p>$page: the server&#39;s administrator will find why in its error log</p>"* ]] &&
		    [[ $output != *"$PWD"* ]] &&
		    [ "$stderr" = "dl-web: 500 Internal Server Error: $2: $3" ] ||
		    { echo "$1: ${lines[0]}: $stderr"; return 1; }
	}
	mkdir -m 0777 open
	refused_locks "$PWD/open" "the analysis's lock folder is writable by others" \
	    "$PWD/open, mode 0777: make it the server user's alone (docs/web.md)"
	mkdir -m 0700 theirs mine
	if [ "$(id -u)" -eq 0 ]; then
		chown nobody theirs
		refused_locks "$PWD/theirs" "the analysis's lock folder is another user's" \
		    "$PWD/theirs is user $(id -u nobody)'s, not the server's (0): remove it, or set DL_WEB_LOCKS (docs/web.md)"
	fi
	ln -s mine link
	refused_locks "$PWD/link" "the analysis's lock folder is not a folder" \
	    "$PWD/link is a link or a file: remove it (docs/web.md)"
	touch file
	refused_locks "$PWD/file/locks" "the analysis's lock folder cannot be made" \
	    "$PWD/file/locks: Not a directory"
	[ "$(sqlite3 data/archive.sqlite 'SELECT count(*) FROM sets')" = 1 ]
	# a shared archive (PostgreSQL): in the user's state folder
	run -2 --separate-stderr env -u XDG_STATE_HOME HOME="$PWD/home" \
	    DL_ARCHIVE=postgresql://dl@127.0.0.1:1/none REQUEST_METHOD=POST \
	    CONTENT_TYPE=application/x-www-form-urlencoded CONTENT_LENGTH=$(wc -c < body) dl-web < body
	[ "$(stat -c '%a %u' home/.local/state/dl/dl-web-locks)" = "700 $(id -u)" ]
}

# origin HEADER=VALUE...: dl-web answering the POST of body, with the
# request's headers as CGI variables (HTTP_HOST and the others) set
origin() {
	env "$@" REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=$(wc -c < body) dl-web < body
}

sets_recorded() {
	sqlite3 archive.sqlite 'SELECT count(*) FROM sets'
}

# bats test_tags=slow
@test "a form posted from another site is refused (403) before anything is dealt; a script's post, and the page's own, deal" {
	form 'event=Forged' 'boards=1-2' 'formats=pbn'
	# no header of a browser's: a script (curl)
	run -0 --separate-stderr origin HTTP_HOST=127.0.0.1:8080
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
	[ "$(sets_recorded)" = 1 ]
	# refused_site MESSAGE LOGGED HEADER=VALUE...: 403, said so, logged
	# without any header's value
	refused_site() {
		local message=$1 logged=$2
		shift 2
		run -1 --separate-stderr origin HTTP_HOST=127.0.0.1:8080 "$@"
		[ "${lines[0]}" = $'Status: 403 Forbidden\r' ] &&
		    [[ $output == *"<p>a form posted from another site: $message Deal from this server&#39;s own form.</p>"* ]] &&
		    [ "$stderr" = "dl-web: 403 Forbidden: a form posted from another site ($logged)" ] ||
		    { echo "$*: ${lines[0]}: $stderr"; return 1; }
	}
	says='the browser says it comes from a page of another site (Sec-Fetch-Site).'
	refused_site "$says" Sec-Fetch-Site HTTP_SEC_FETCH_SITE=cross-site
	refused_site "$says" Sec-Fetch-Site HTTP_SEC_FETCH_SITE=same-site
	refused_site "$says" Sec-Fetch-Site HTTP_SEC_FETCH_SITE=cross-site HTTP_ORIGIN=http://127.0.0.1:8080
	other='its origin is not this server (Origin).'
	refused_site "$other" Origin HTTP_ORIGIN=https://evil.example
	refused_site "$other" Origin HTTP_ORIGIN=http://127.0.0.1:9090
	refused_site "$other" Origin HTTP_ORIGIN=http://127.0.0.1
	refused_site "$other" Origin HTTP_ORIGIN=http://127.0.0.1.evil.example:8080
	refused_site "$other" Origin HTTP_ORIGIN=http://evil.example HTTP_REFERER=http://127.0.0.1:8080/
	refused_site "$other" Origin HTTP_ORIGIN=http://evil.example HTTP_SEC_FETCH_SITE=same-origin
	hidden='its origin is hidden (Origin: null) or cannot be read.'
	refused_site "$hidden" 'Origin hidden or unreadable' HTTP_ORIGIN=null
	refused_site "$hidden" 'Origin hidden or unreadable' HTTP_ORIGIN=
	refused_site "$hidden" 'Origin hidden or unreadable' HTTP_ORIGIN=127.0.0.1:8080
	refused_site "$hidden" 'Origin hidden or unreadable' HTTP_ORIGIN=ftp://127.0.0.1:8080
	refused_site "$hidden" 'Origin hidden or unreadable' HTTP_ORIGIN=http://127.0.0.1:8080/form
	refused_site "$hidden" 'Origin hidden or unreadable' HTTP_ORIGIN=http://x@127.0.0.1:8080
	refused_site "$hidden" 'Origin hidden or unreadable' HTTP_ORIGIN='http://<b>'
	page='the page it was posted from is not this server&#39;s (Referer).'
	refused_site "$page" Referer HTTP_REFERER=https://evil.example/club.html
	refused_site "$page" Referer HTTP_REFERER=http://127.0.0.1:8081/
	refused_site "$page" Referer HTTP_REFERER=http://user@127.0.0.1:8080/
	refused_site "$page" Referer HTTP_REFERER=garbage
	# a check of a file is a post too; and the body is not read: a
	# length over the limit is still a 403
	run -1 --separate-stderr env HTTP_HOST=127.0.0.1:8080 HTTP_ORIGIN=http://evil.example \
	    REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=99999999999 dl-web < /dev/null
	[ "${lines[0]}" = $'Status: 403 Forbidden\r' ]
	[ "$(sets_recorded)" = 1 ]
	# the page's own post, as a browser sends it; the user's own
	# navigation; a browser that sends the Referer alone
	run -0 --separate-stderr origin HTTP_HOST=127.0.0.1:8080 HTTP_ORIGIN=http://127.0.0.1:8080 \
	    HTTP_SEC_FETCH_SITE=same-origin HTTP_REFERER=http://127.0.0.1:8080/
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
	run -0 --separate-stderr origin HTTP_HOST=LocalHost:8080 HTTP_ORIGIN=https://localhost:8080 \
	    HTTP_SEC_FETCH_SITE=none
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
	run -0 --separate-stderr origin HTTP_HOST=127.0.0.1:8080 HTTP_REFERER=http://127.0.0.1:8080/?x#y
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
	[ "$(sets_recorded)" = 4 ]
	# the answers name their page to their own site only: so that the
	# page's own posts carry their Origin (no-referrer would make it null)
	REQUEST_METHOD=GET dl-web > r
	grep -qx $'Referrer-Policy: same-origin\r' r
	run ! grep -i 'no-referrer' r
	clean_tmp
}

# bats test_tags=slow
@test "a host name the site is not set up for is refused (421) on every request: DNS rebinding" {
	form 'event=Rebound' 'boards=1-2' 'formats=pbn'
	run -0 --separate-stderr origin
	[ "$(sets_recorded)" = 1 ]
	why='a request for a host name this server does not answer to: it answers to the names DL_WEB_HOSTS lists (localhost, 127.0.0.1 and [::1] unless it is set), so that a page of another site cannot reach it under a name of its own'
	# misdirected METHOD HOST: 421, said so, logged without the name
	misdirected() {
		run -1 --separate-stderr env REQUEST_METHOD=$1 HTTP_HOST="$2" \
		    CONTENT_TYPE=application/x-www-form-urlencoded CONTENT_LENGTH=$(wc -c < body) dl-web < body
		[ "${lines[0]}" = $'Status: 421 Misdirected Request\r' ] &&
		    [[ $output == *"<p>$why</p>"* ]] &&
		    [ "$stderr" = "dl-web: 421 Misdirected Request: a host name not in DL_WEB_HOSTS" ] ||
		    { echo "$1 $2 (${DL_WEB_HOSTS-unset}): ${lines[0]}: $stderr"; return 1; }
	}
	# allowed METHOD HOST: answered
	allowed() {
		run -0 --separate-stderr env REQUEST_METHOD=$1 HTTP_HOST="$2" \
		    CONTENT_TYPE=application/x-www-form-urlencoded CONTENT_LENGTH=$(wc -c < body) dl-web < body
		[ "${lines[0]}" = $'Status: 200 OK\r' ] || { echo "$1 $2: ${lines[0]}: $stderr"; return 1; }
	}
	# DL_WEB_HOSTS unset: the loopback's names, at any port
	unset DL_WEB_HOSTS
	misdirected GET evil.example
	misdirected POST evil.example:8080
	misdirected HEAD 127.0.0.2
	misdirected GET ''
	misdirected GET 'localhost:80:80'
	misdirected GET 'localhost:99999'
	misdirected GET '[::1'
	misdirected GET 'localhost..'
	misdirected GET '<b>evil</b>'
	[[ $output != *'<b>evil'* ]]
	misdirected PUT evil.example
	allowed GET localhost
	allowed GET LOCALHOST.:8080
	allowed GET '[::1]:8080'
	allowed POST 127.0.0.1:8080
	# set: those names, a name with a port at that port only
	export DL_WEB_HOSTS='  club.example.org:8443 deal.example.org. [::1]:80 '
	misdirected GET 127.0.0.1:8080
	misdirected GET localhost
	misdirected POST club.example.org
	misdirected POST club.example.org:443
	misdirected GET '[::1]:8080'
	misdirected GET club.example.org.evil.example:8443
	allowed GET Club.Example.Org.:8443
	allowed GET deal.example.org:12345
	allowed POST DEAL.example.org
	allowed GET '[::1]:80'
	DL_WEB_HOSTS= allowed GET 127.0.0.1:8080
	[ "$(sets_recorded)" = 3 ]
	# a list that cannot be read is the server's fault
	export DL_WEB_HOSTS='club.example.org:x'
	run -2 --separate-stderr env REQUEST_METHOD=GET HTTP_HOST=club.example.org dl-web
	[ "${lines[0]}" = $'Status: 500 Internal Server Error\r' ]
	[ "$stderr" = "dl-web: 500 Internal Server Error: DL_WEB_HOSTS: not a list of host[:port]" ]
	clean_tmp
}

@test "the form's one-time token: a new one each time the form is drawn, never one a link gives; one this page did not give refused" {
	REQUEST_METHOD=GET dl-web > a
	REQUEST_METHOD=GET QUERY_STRING='form=deal&once=0123456789abcdef0123456789abcdef' dl-web > b
	ta=$(sed -n 's/^<input type="hidden" name="once" value="\([0-9a-f]\{32\}\)">$/\1/p' a)
	tb=$(sed -n 's/^<input type="hidden" name="once" value="\([0-9a-f]\{32\}\)">$/\1/p' b)
	[ ${#ta} = 32 ]
	[ ${#tb} = 32 ]
	[ "$ta" != "$tb" ]
	[ "$tb" != 0123456789abcdef0123456789abcdef ]
	form 'boards=1-2' 'once=0123456789ABCDEF'
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[ "${lines[0]}" = $'Status: 400 Bad Request\r' ]
	[[ $output == *"<p>the form&#39;s one-time token (once) is not one this page gives: load the form again</p>"* ]]
	[ "$stderr" = "dl-web: 400 Bad Request: the form's one-time token" ]
	# a form refused is drawn again with the token it was sent with:
	# nothing was dealt for it
	form 'form=deal' 'boards=1-200' 'once=00112233445566778899aabbccddeeff'
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[[ $output == *$'\n<input type="hidden" name="once" value="00112233445566778899aabbccddeeff">\n'* ]]
	# one not this page's, with a field refused: the form, with a new one
	form 'form=deal' 'boards=1-200' 'once=not-a-token'
	run -1 --separate-stderr post application/x-www-form-urlencoded body
	[ "$(printf '%s\n' "$output" | grep -c '^Status:')" = 1 ]
	printf '%s\n' "$output" | grep -q '^<input type="hidden" name="once" value="[0-9a-f]\{32\}">$'
	clean_tmp
}

@test "a deal with the analysis streams: the page's head and its progress first, a line a board solved, then the hand record in the same document, the progress hidden" {
	form 'event=Streamed' 'boards=1-3' 'dd=on' 'formats=pbn'
	run -0 --separate-stderr post application/x-www-form-urlencoded body
	printf '%s\n' "$output" | tr -d '\r' > r
	[ "$(sed -n 1p r)" = "Status: 200 OK" ]
	grep -qx 'X-Accel-Buffering: no' r
	# one document: one doctype, one head, one body
	[ "$(grep -c '<!DOCTYPE html>' r)" = 1 ]
	[ "$(grep -c '<head>' r)" = 1 ]
	[ "$(grep -c '<body>' r)" = 1 ]
	[ "$(grep -c '</html>' r)" = 1 ]
	# the progress, in order, before the hand record
	[ "$(grep -n -e '^<p>Dealing and solving' -e '^<p>Board [0-9] solved' -e '^<p>Done' -e '^<p>Recorded as set' r | cut -d: -f2-)" = "<p>Dealing and solving 3 boards&hellip;</p>
<p>Board 1 solved (1 of 3)</p>
<p>Board 2 solved (2 of 3)</p>
<p>Board 3 solved (3 of 3)</p>
<p>Done: the hand record follows.</p>
<p>Recorded as set 1 of the archive of every set dealt here: 1 set dealt for Streamed.</p>" ]
	grep -qx '<title>Streamed</title>' r
	# hidden once the hand record follows, on the screen and on paper
	[ "$(grep -A2 -x '<p>Done: the hand record follows.</p>' r | tail -2)" = '</section>
<style>.dl-web-progress { display: none; }</style>' ]
	# without the analysis, or as a zip alone, nothing streams
	form 'event=Plain' 'boards=1-3' 'formats=pbn'
	run -0 --separate-stderr post application/x-www-form-urlencoded body
	[[ $output != *X-Accel-Buffering* ]]
	[[ $output != *dl-web-progress* ]]
	clean_tmp
}

@test "a second press of the form shows the first's page as it comes, the same set; then the page again; then a page that says the form was sent" {
	token=8899aabbccddeeff0011223344556677
	form 'event=Pressed' 'boards=1-12' 'dd=on' 'formats=pbn' "once=$token"
	post application/x-www-form-urlencoded body > first &
	first=$!
	# the first holds the form's lock (in the lock folder) while it deals
	for _ in $(seq 200); do
		grep -q '^<p>Dealing and solving' first 2> /dev/null && break
		sleep 0.05
	done
	grep -q '^<p>Dealing and solving' first
	post application/x-www-form-urlencoded body > second &
	second=$!
	# the second shows the first's page as it comes: its top while the
	# first still deals (12 boards take seconds)
	for _ in $(seq 200); do
		grep -q '^<p>Dealing and solving' second 2> /dev/null && break
		sleep 0.05
	done
	grep -q '^<p>Dealing and solving' second
	run ! grep -q '^<p>Recorded as set' first
	wait "$first"
	wait "$second"
	# the same set, one in the archive
	grep -qx '<p>Recorded as set 1 of the archive of every set dealt here: 1 set dealt for Pressed.</p>' first
	cmp first second
	[ "$(dl-archive sets | wc -l)" = 1 ]
	# the response kept for it, the server user's alone, removed once
	# served again
	[ -z "$(ls -A tmp)" ]
	post application/x-www-form-urlencoded body > third
	[ "$(status_of third)" = "Status: 200 OK" ]
	grep -q "^<p>This form was sent already: set 1 was dealt for it at [0-2][0-9]:[0-5][0-9]\. Nothing more was dealt\.</p>$" third
	[ "$(dl-archive sets | wc -l)" = 1 ]
	# a script without a token deals as before; another user's request
	# with the same token is its own
	form 'event=Pressed' 'boards=1-2' 'formats=pbn'
	post application/x-www-form-urlencoded body > /dev/null
	form 'event=Pressed' 'boards=1-2' 'formats=pbn' "once=$token"
	REMOTE_USER=another post application/x-www-form-urlencoded body > other
	grep -qx '<p>Recorded as set 3 of the archive of every set dealt here: 3 sets dealt for Pressed.</p>' other
	[ "$(dl-archive sets | wc -l)" = 3 ]
	# the lock folder's note: which set, when; no secret
	[ "$(find locks -name 'once-*' | wc -l)" = 2 ]
	[ "$(cat locks/once-* | sed 's/ [0-9]*$//' | sort)" = "1
3" ]
	# the other user's response, kept for its own second press
	[ "$(find tmp -name 'dl-web-once-*' -perm 0600 | wc -l)" = 1 ]
	rm tmp/dl-web-once-*
	clean_tmp
}

@test "a second press after the first's response is kept: the same page from the file (0600), which is removed; one older than ten minutes is not served" {
	token=0f1e2d3c4b5a69788796a5b4c3d2e1f0
	form 'event=Kept' 'boards=1-2' 'formats=pbn' "once=$token"
	post application/x-www-form-urlencoded body > first
	kept=$(ls tmp)
	[[ $kept == dl-web-once-* ]]
	[ "$(stat -c %a "tmp/$kept")" = 600 ]
	post application/x-www-form-urlencoded body > second
	cmp first second
	clean_tmp
	# kept again, then made old: swept by the next request, and not
	# served
	form 'event=Kept' 'boards=1-2' 'formats=pbn' "once=00000000000000000000000000000001"
	post application/x-www-form-urlencoded body > /dev/null
	kept=$(ls tmp)
	touch -d '11 minutes ago' "tmp/$kept"
	post application/x-www-form-urlencoded body > again
	grep -q "^<p>This form was sent already: set 2 was dealt for it at" again
	clean_tmp
	# the form's GET sweeps too
	post application/x-www-form-urlencoded body > /dev/null
	form 'event=Kept' 'boards=1-2' 'formats=pbn' "once=00000000000000000000000000000002"
	post application/x-www-form-urlencoded body > /dev/null
	touch -d '11 minutes ago' tmp/dl-web-once-*
	REQUEST_METHOD=GET dl-web > /dev/null
	clean_tmp
}

@test "a page that streams and then fails says so in one line at its end, its status sent already; the process exits 2, the log has its line" {
	# dl-web without dl-dd beside it: the analysis cannot start, after
	# the page's head is out
	mkdir -p alone/bin
	cp "$(command -v dl-web)" alone/bin/
	ln -s "$DL_BUILD/plugins" alone/plugins
	form 'event=Failing' 'boards=1-2' 'dd=on' 'formats=pbn'
	run -2 --separate-stderr env REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH="$(wc -c < body)" alone/bin/dl-web < body
	printf '%s\n' "$output" | tr -d '\r' > r
	[ "$(sed -n 1p r)" = "Status: 200 OK" ]
	grep -qx '<p>Dealing and solving 2 boards&hellip;</p>' r
	[ "$(tail -5 r)" = "</section>
<p class=\"error\" role=\"alert\">Failed (500 Internal Server Error): dealing the set failed on the server: the server&#39;s administrator will find why in its error log</p>
<p><a href=\"./\">Deal another session</a></p>
</body>
</html>" ]
	# the cause, a path of the server's, in the log alone
	[ "$stderr" = "dl-web: 500 Internal Server Error: dealing the set failed on the server: $PWD/alone/bin/dl-dd: No such file or directory" ]
	[ "$(dl-archive sets | wc -l)" = 0 ]
	clean_tmp
}

@test "a TMPDIR or an archive the server cannot use: a 500, its cause in the log alone, never a 503" {
	fault_page() {
		[[ $output == *"<p>$1: the server&#39;s administrator will find why in its error log</p>"* ]]
	}
	# TMPDIR: no private folder; with the analysis too (its slot taken
	# first): not "every core is analysing"
	form 'event=Faulty' 'boards=1-2' 'formats=pbn' 'dd=on'
	run -2 --separate-stderr origin TMPDIR="$PWD/nosuch"
	[ "${lines[0]}" = $'Status: 500 Internal Server Error\r' ]
	fault_page "no private folder for the request"
	[[ $output != *nosuch* ]]
	[ "$stderr" = "dl-web: 500 Internal Server Error: no private folder for the request: TMPDIR $PWD/nosuch: No such file or directory" ]
	# a check of a file, the same
	dl-seed | dl-stream -n 2 | dl-map > s.tso
	multipart_check XyZ file s.tso s.tso
	run -2 --separate-stderr env TMPDIR="$PWD/nosuch" REQUEST_METHOD=POST \
	    CONTENT_TYPE='multipart/form-data; boundary=XyZ' CONTENT_LENGTH=$(wc -c < upload) dl-web < upload
	[ "${lines[0]}" = $'Status: 500 Internal Server Error\r' ]
	[ "$stderr" = "dl-web: 500 Internal Server Error: no private folder for the request: TMPDIR $PWD/nosuch: No such file or directory" ]
	[ ! -e archive.sqlite ] || [ "$(sets_recorded)" = 0 ]
	# an archive in PostgreSQL that cannot be reached: its host and port
	# in the log, not on the page, for a deal, a check, a set played
	export DL_ARCHIVE=postgresql://dl@127.0.0.1:1/none
	cause='connection to server at "127.0.0.1", port 1 failed: Connection refused'
	form 'event=Faulty' 'boards=1-2' 'formats=pbn'
	run -2 --separate-stderr origin
	[ "${lines[0]}" = $'Status: 500 Internal Server Error\r' ]
	fault_page "dealing the set failed on the server"
	[[ $output != *127.0.0.1* && $output != *", port 1"* ]]
	[[ $stderr == "dl-web: 500 Internal Server Error: dealing the set failed on the server: archive: PostgreSQL archive: cannot connect: $cause"* ]]
	run -2 --separate-stderr env REQUEST_METHOD=POST \
	    CONTENT_TYPE='multipart/form-data; boundary=XyZ' CONTENT_LENGTH=$(wc -c < upload) dl-web < upload
	fault_page "the check of a file failed on the server"
	[[ $output != *127.0.0.1* && $output != *", port 1"* ]]
	[[ $stderr == "dl-web: 500 Internal Server Error: the check of a file failed on the server: PostgreSQL archive: cannot connect: $cause"* ]]
	form 'action=played' 'set=1'
	run -2 --separate-stderr origin
	fault_page "a set marked played failed on the server"
	[[ $output != *127.0.0.1* && $output != *", port 1"* ]]
	[[ $stderr == "dl-web: 500 Internal Server Error: a set marked played failed on the server: PostgreSQL archive: cannot connect: $cause"* ]]
	clean_tmp
}

@test "a TMPDIR that fills up: a 500 whose log line names no file of the request (its name is the event's)" {
	[ "$(id -u)" = 0 ] || skip_unless_possible "not root: no tmpfs of 4 KiB can be mounted"
	mkdir full
	mount -t tmpfs -o size=4k,mode=0700 tmpfs full || skip_unless_possible "no tmpfs here"
	dd if=/dev/zero of=full/filler bs=4k count=1 2> /dev/null || :
	form 'event=Monday Pairs' 'boards=1-32' 'formats=pbn,dup'
	run -2 --separate-stderr origin TMPDIR="$PWD/full"
	umount full
	[ "${lines[0]}" = $'Status: 500 Internal Server Error\r' ]
	[[ $output == *"<p>dealing the set failed on the server: the server&#39;s administrator will find why in its error log</p>"* ]]
	[ "$stderr" = "dl-web: 500 Internal Server Error: dealing the set failed on the server: a file of the request's private folder: No space left on device" ]
}

@test "the settings file (DL_WEB_CONFIG): its keys where the server's environment sets none" {
	# t/helper.bash sets DL_WEB_CONFIG empty: no file, not even the system's
	[ "${DL_WEB_CONFIG-unset}" = "" ]
	mkdir site
	cat > dl-web.conf <<-EOF
		# the site
		DL_ARCHIVE = $PWD/site/archive.sqlite
		  DL_WEB_HOSTS=dl.club.example	
		DL_CLUB = Riverside BC

	EOF
	chmod 640 dl-web.conf
	export DL_WEB_CONFIG=$PWD/dl-web.conf
	# the file's names, the file's archive
	unset DL_ARCHIVE DL_WEB_HOSTS
	form 'event=Configured' 'boards=1-2' 'formats=pbn'
	run -0 --separate-stderr origin HTTP_HOST=dl.club.example
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
	[ "$(sqlite3 site/archive.sqlite 'SELECT count(*) FROM sets')" = 1 ]
	[ ! -e archive.sqlite ]
	run -1 --separate-stderr env REQUEST_METHOD=GET HTTP_HOST=localhost dl-web
	[ "${lines[0]}" = $'Status: 421 Misdirected Request\r' ]
	# the server's environment wins, key by key
	run -0 --separate-stderr env REQUEST_METHOD=GET HTTP_HOST=localhost DL_WEB_HOSTS=localhost dl-web
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
	DL_ARCHIVE=$PWD/archive.sqlite run -0 --separate-stderr origin HTTP_HOST=dl.club.example
	[ "$(sets_recorded)" = 1 ]
	[ "$(sqlite3 site/archive.sqlite 'SELECT count(*) FROM sets')" = 1 ]
	# set empty by the server, a key is the file's
	DL_WEB_HOSTS= run -0 --separate-stderr origin HTTP_HOST=dl.club.example
	[ "$(sqlite3 site/archive.sqlite 'SELECT count(*) FROM sets')" = 2 ]
	clean_tmp
}

@test "the settings file refused: a 500 whose cause is in the log alone, with the line" {
	unset DL_WEB_HOSTS
	page='<p>the server&#39;s settings could not be read: its administrator will find why in the server&#39;s error log</p>'
	# refused CONTENT LOG: the file holding CONTENT (mode 0640) refused, LOG
	# its cause in the log, nothing dealt
	refused() {
		printf '%s' "$1" > dl-web.conf
		chmod 640 dl-web.conf
		refused_as "$2"
	}
	refused_as() {
		form 'event=Refused' 'boards=1-2' 'formats=pbn'
		run -2 --separate-stderr origin DL_WEB_CONFIG=$PWD/dl-web.conf
		[ "${lines[0]}" = $'Status: 500 Internal Server Error\r' ] && [[ $output == *"$page"* ]] &&
		    [ "$stderr" = "dl-web: the settings: $1
dl-web: 500 Internal Server Error: the server's settings" ] ||
		    { printf 'status: %s\nlog: %s\nwanted: %s\n' "${lines[0]}" "$stderr" "$1"; return 1; }
	}
	known='(known: DL_ARCHIVE, DL_ARCHIVE_WAIT, DL_CLUB, DL_PLUGIN_PATH, DL_SHARED_ARCHIVE, DL_WEB_CPU, DL_WEB_HOSTS, DL_WEB_LOCKS, DL_WEB_PUBLIC_URL, DL_WEB_PUBLISHED, TMPDIR)'
	f=$PWD/dl-web.conf
	refused $'# x\nDL_CLUB = A\nDL_WEB_HOST = dl.club.example\n' \
	    "$f:3: unknown key \"DL_WEB_HOST\" $known"
	# the CGI's own variables are the request's, never the file's
	refused $'REMOTE_USER = admin\n' "$f:1: unknown key \"REMOTE_USER\" $known"
	refused $'DL_CLUB = A\n\nDL_CLUB = B\n' "$f:3: DL_CLUB given twice (first at line 1)"
	refused $'DL_CLUB\n' "$f:1: not KEY = VALUE"
	refused $'= x\n' "$f:1: not KEY = VALUE"
	refused $'DL CLUB = x\n' "$f:1: not KEY = VALUE"
	refused $'DL_CLUB =  \n' "$f:1: DL_CLUB has no value (leave the line out, or make it a comment)"
	refused $'DL_CLUB = a\033b\n' "$f:1: DL_CLUB: a control character in its value"
	# a value, which may be a password, is never in the log
	refused $'DL_SHARED_ARCHIVE = postgresql://u:secret@h/db\nDL_SHARED_ARCHIVE = x\n' \
	    "$f:2: DL_SHARED_ARCHIVE given twice (first at line 1)"
	# who may read it and write it
	how='make it root'"'"'s, mode 0640, group the web server'"'"'s (chown root:www-data; chmod 0640)'
	printf 'DL_CLUB = A\n' > dl-web.conf
	chmod 644 dl-web.conf
	refused_as "$f: readable by every user (it may hold a password): $how"
	chmod 660 dl-web.conf
	refused_as "$f: writable by other users than its owner: $how"
	chmod 602 dl-web.conf
	refused_as "$f: writable by other users than its owner: $how"
	rm dl-web.conf
	refused_as "$f: No such file or directory"
	mkdir -m 700 dl-web.conf
	refused_as "$f: not a file: $how"
	rmdir dl-web.conf
	[ ! -e archive.sqlite ] || [ "$(sets_recorded)" = 0 ]
	clean_tmp
}

@test "the settings file refused when it is another user's than root's or the server's" {
	[ "$(id -u)" = 0 ] || skip_unless_possible "not root: no file of another user's can be made"
	printf 'DL_CLUB = A\n' > dl-web.conf
	chmod 640 dl-web.conf
	chown nobody dl-web.conf
	form 'event=Refused' 'boards=1-2' 'formats=pbn'
	# root runs the suite: the file is neither root's nor the server's
	run -2 --separate-stderr origin DL_WEB_CONFIG=$PWD/dl-web.conf
	[ "${lines[0]}" = $'Status: 500 Internal Server Error\r' ]
	[ "$stderr" = "dl-web: the settings: $PWD/dl-web.conf: not root's: make it root's, mode 0640, group the web server's (chown root:www-data; chmod 0640)
dl-web: 500 Internal Server Error: the server's settings" ]
	# root's, it is read
	chown root dl-web.conf
	run -0 --separate-stderr origin DL_WEB_CONFIG=$PWD/dl-web.conf
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
}
