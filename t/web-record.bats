#!/usr/bin/env bats
# dl-web's hand record of a set dealt elsewhere (action=record): the file
# a club's scoring program has, uploaded, answered with the HTML hand
# record and the PDF, double dummy and par; never archived nor checked.
# dl-web run as a web server runs it, as in t/web.bats.

load helper
load web

setup() {
	cgi_setup
}

# record FILE NAME [FIELD=VALUE...]: dl-web answering the form's "A hand
# record from your scoring program's file" with FILE uploaded as NAME and
# the fields given (the form's own: dd=on; a script's: as it likes)
record() {
	local file=$1 name=$2 b=----dlwebrecord
	shift 2
	{
		printf -- '--%s\r\nContent-Disposition: form-data; name="action"\r\n\r\nrecord\r\n' $b
		for f in "$@"; do
			printf -- '--%s\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' \
			    $b "${f%%=*}" "${f#*=}"
		done
		printf -- '--%s\r\nContent-Disposition: form-data; name="file"; filename="%s"\r\n' \
		    $b "$name"
		printf 'Content-Type: application/octet-stream\r\n\r\n'
		cat "$file"
		printf '\r\n--%s--\r\n' $b
	} > upload
	REQUEST_METHOD=POST CONTENT_TYPE="multipart/form-data; boundary=$b" \
	    CONTENT_LENGTH=$(wc -c < upload) dl-web < upload
}

# the response's body (after the blank line), to standard output
body_of() {
	awk 'done { print; next } /^\r$/ { done = 1 }' "$1"
}

# the page's PDF, from its data: link
page_pdf() {
	sed -n 's/.*href="data:application\/pdf;base64,\([^"]*\)".*/\1/p' "$1" | base64 -d
}

# the hand record of the page, without the aside above it
hand_record_of() {
	body_of "$1" | sed '/^<style>\.dl-web /,/^<\/aside>$/d' | grep -v '^$'
}


# a club's file: 24 boards dealt by dl, in PBN, with the event, the site
# and the date
club_pbn() {
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    --event 'Riverside Pairs' --site 'Riverside Hall' --date 2026.11.30 2> /dev/null |
	    dl-stream -n 1-24 | dl-map | dl-fmt -f pbn -p club
}

@test "the form offers a hand record of the scoring program's file: the file, the paper, the analysis ticked" {
	run -0 env REQUEST_METHOD=GET dl-web
	printf '%s\n' "$output" > r
	grep -qx '<h2 id="record">A hand record from your scoring program'"'"'s file</h2>' r
	sed -n '/name="action" value="record"/,/<\/form>/p' r > f
	grep -qx '<label for="record-file">The session'"'"'s file</label><input type="file" id="record-file" name="file" required>' f
	grep -qx '<label for="record-paper">Paper</label><select id="record-paper" name="paper"><option value="a4">A4</option><option value="letter">Letter</option></select>' f
	grep -qx '<label><input type="checkbox" id="record-dd" name="dd" value="on" checked> Double-dummy tricks and par</label>' f
	grep -qx '<button type="submit">Make the hand record</button>' f
	# every id of the page once: the dealing form has a paper and a box too
	[ -z "$(grep -o ' id="[^"]*"' r | sort | uniq -d)" ]
}

# bats test_tags=slow
@test "record: a PBN file made into the hand record as the page, with double dummy, par and the PDF; nothing archived or checked" {
	club_pbn
	# a set in the archive already, this very file among them, not played:
	# a check would say so; the hand record says nothing of it
	dl-archive -q add club.pbn
	run -0 dl-archive count
	[ "$output" = "1 sets, 24 deals; played 0 sets, 0 deals" ]
	run -0 --separate-stderr record club.pbn club.pbn dd=on
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
	[ -z "$stderr" ]
	printf '%s\n' "$output" > r
	# the file's event, site and date in the hand record's head
	grep -qx '<title>Riverside Pairs</title>' r
	grep -qx '<header class="head"><h1 class="event">Riverside Pairs</h1><span class="date">Riverside Hall, 2026.11.30</span><span class="range">Boards 1&#8211;6</span></header>' r
	[ "$(grep -c '^<section class="board" id="board-' r)" -eq 24 ]
	# each board's par, as the hand records print it, and its tricks
	[ "$(grep -c '^<div class="par">Par: ' r)" -eq 24 ]
	grep -qx '<div class="par">Par: <span class="s">4&#9824;</span> by N-S, +420</div>' r
	grep -qx '<div class="par">Par: <span class="nt">3NT</span>+2 by West, +660</div>' r
	[ "$(grep -c '^<table class="dd">' r)" -eq 24 ]
	# above it, not printed: what it is, and the PDF
	grep -qx "<p>The hand record of club.pbn: 24 boards, with each board's double-dummy tricks and par. It is not recorded in the archive: the set was not dealt here.</p>" r
	grep -q '^<p><a download="riverside-pairs-2026-11-30.pdf" href="data:application/pdf;base64,[A-Za-z0-9+/=]*">Download the PDF (riverside-pairs-2026-11-30.pdf)</a>, or print this page.</p>$' r
	grep -qx '<p><a href="./#record">A hand record of another file</a></p>' r
	page_pdf r > got.pdf
	pdfinfo got.pdf > info
	grep -qx 'Pages: *4' info
	grep -q '^Page size: *595.276 x 841.89 pts (A4)$' info
	grep -qx 'Title: *Riverside Pairs' info
	# the page streamed its progress, a line a board solved, then hid it
	[ "$(grep -e '^<p>Solving' -e '^<p>Board [0-9]* solved' -e '^<p>Done' r)" = "<p>Solving 24 boards&hellip;</p>
$(for i in $(seq 24); do echo "<p>Board $i solved ($i of 24)</p>"; done)
<p>Done: the hand record follows.</p>" ]
	[ "$(grep -c '^<style>.dl-web-progress { display: none; }</style>' r)" -eq 1 ]
	[ "$(grep -c '<head>' r)" -eq 1 ]
	# the same hand record the pipeline makes: dl-read | dl-dd | dl-fmt
	dl-read club.pbn | dl-dd -q | dl-fmt -f html -p cli
	diff <(hand_record_of r | sed -n '/^<main>$/,$p') <(grep -v '^$' cli.html | sed -n '/^<main>$/,$p')
	# neither recorded nor checked: the archive as it was, no check's words
	run -0 dl-archive count
	[ "$output" = "1 sets, 24 deals; played 0 sets, 0 deals" ]
	[ "$(grep -c 'seen before\|not yet played\|dealt here on' r)" -eq 0 ]
	clean_tmp
}

@test "record: on Letter, and without the analysis (a script that sends no dd)" {
	club_pbn
	run -0 record club.pbn club.pbn paper=letter
	printf '%s\n' "$output" > r
	grep -qx "<p>The hand record of club.pbn: 24 boards. It is not recorded in the archive: the set was not dealt here.</p>" r
	[ "$(grep -c '^<section class="board" id="board-' r)" -eq 24 ]
	[ "$(grep -c 'class="par"' r)" -eq 0 ]
	[ "$(grep -c '<table class="dd">' r)" -eq 0 ]
	page_pdf r | pdfinfo - > info
	grep -qx 'Pages: *4' info
	grep -q '^Page size: *612 x 792 pts (letter)$' info
	# an archive never made for it
	[ ! -e archive.sqlite ]
	clean_tmp
}

# bats test_tags=slow
@test "record: a club's scoring program's PBN (TableTalk, 36 boards): its event, and every par its file gives" {
	f=$BATS_TEST_DIRNAME/data/real/tabletalk-fr04jul25.pbn
	run -0 --separate-stderr record "$f" fr04jul25.pbn dd=on paper=a4
	printf '%s\n' "$output" > r
	grep -qx '<title>fr04jul25</title>' r
	grep -qx '<header class="head"><h1 class="event">fr04jul25</h1><span class="range">Boards 1&#8211;6</span></header>' r
	[ "$(grep -c '^<section class="board" id="board-' r)" -eq 36 ]
	grep -qx "<p>The hand record of fr04jul25.pbn: 36 boards, with each board's double-dummy tricks and par. It is not recorded in the archive: the set was not dealt here.</p>" r
	grep -qx '<div class="par">Par: <span class="s">4&#9824;</span> by N-S, +420</div>' r
	grep -qx '<div class="par">Par: <span class="d">5&#9830;</span> or <span class="nt">3NT</span> by E-W, +400</div>' r
	# every board's par score North-South's, as the file's
	# [OptimumScore "NS 4S; 420"] gives it, board by board
	tr -d '\r' < "$f" | sed -n 's/^\[OptimumScore ".*; \(-\{0,1\}[0-9]*\)"\]$/\1/p' > want
	[ "$(wc -l < want)" -eq 36 ]
	sed -n 's/^<div class="par">Par: .* by \([^,]*\), \(+\|&#8722;\)\([0-9]*\)<\/div>$/\1 \2 \3/p' r |
	    awk '{ s = ($2 == "+" ? $3 : -$3); if ($1 ~ /^(E-W|East|West)$/) s = -s; print s }' > got
	diff want got
	page_pdf r | pdfinfo - > info
	grep -qx 'Pages: *6' info
	grep -qx 'Title: *fr04jul25' info
	clean_tmp
}

@test "record: boards dealt by another rule than their numbers' keep their own dealer and vulnerability, and their par is for them" {
	# Bridge Composer's teaching boards, each dealt by South at love
	f=$BATS_TEST_DIRNAME/data/real/bridgecomposer-title-game.pbn
	run -0 record "$f" 'Balancing Weak 2.pbn' dd=on
	printf '%s\n' "$output" > r
	[ "$(grep -c '<p class="meta">Dealer South<br>None vulnerable</p></div>$' r)" -eq 5 ]
	# board 2 by its number would be East's, North-South vulnerable
	grep -qx '<div class="par">Par: <span class="s">1&#9824;</span> by E-W, +80</div>' r
	dl-read "$f" 2> /dev/null | dl-dd -q | dl-fmt -f html -p cli
	diff <(hand_record_of r | sed -n '/^<main>$/,$p') <(grep -v '^$' cli.html | sed -n '/^<main>$/,$p')
	grep -q '^<p><a download="balancing-weak-2-[0-9-]*.pdf" href="data:application/pdf;base64,' r
	clean_tmp
}

@test "record: a file that cannot be made into a hand record is refused in one line naming it" {
	# refused FILE NAME LINE LOG: refused (400) with the page's line and the log's
	refused() {
		run -1 --separate-stderr record "$1" "$2" dd=on
		[ "${lines[0]}" = $'Status: 400 Bad Request\r' ] || { echo "${lines[0]}"; return 1; }
		printf '%s\n' "$output" > r
		grep -qx '<h1>Bad Request</h1>' r
		[ "$(grep -c '^<p>' r)" -eq 2 ]
		grep -qxF "<p>$3</p>" r || { grep '^<p>' r; return 1; }
		[ "$stderr" = "dl-web: 400 Bad Request: $4" ] || { echo "$stderr"; return 1; }
	}
	printf 'garbage\n' > g
	refused g notes.txt 'notes.txt: not a file of a format dl reads (PBN, LIN, DUP, BRI, DGE, ...)' \
	    'the file for a hand record: not of a format dl reads'
	printf '[Event "x"]\n[Board "1"]\n[Deal "N:AKQ"]\n' > p
	refused p 'Club <b>.pbn' 'Club &lt;b&gt;.pbn:3: board 1: North has 1 suits, not 4 (three dots)' \
	    'the file for a hand record: not read'
	printf '%% PBN 2.1\n[Event "Nothing"]\n' > empty
	refused empty empty.pbn 'empty.pbn: no boards in it' 'the file for a hand record: not read'
	# boards not in a row, more than a session
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 2> /dev/null |
	    dl-stream -n 1-101 | dl-map | dl-fmt -f pbn -p big
	awk 'BEGIN { RS = ""; ORS = "\n\n" } NR != 4 && NR <= 6' big.pbn > gap.pbn
	refused gap.pbn gap.pbn 'gap.pbn: board 5 after board 3: board 4 is missing, and a hand record&#39;s boards run in a row' \
	    'the file for a hand record: not made'
	refused big.pbn big.pbn 'big.pbn: 101 boards: a hand record of at most 100 (a session)' \
	    'the file for a hand record: more than a session'
	# no file; a paper not offered
	printf 'action=record' > body
	run -1 --separate-stderr env REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=$(wc -c < body) dl-web < body
	[[ $output == *"<p>no file for a hand record</p>"* ]]
	[ "$stderr" = "dl-web: 400 Bad Request: no file for a hand record" ]
	club_pbn
	run -1 --separate-stderr record club.pbn club.pbn paper=a5
	[[ $output == *"<p>the paper: a4 or letter</p>"* ]]
	[ "$stderr" = "dl-web: 400 Bad Request: the paper" ]
	[ ! -e archive.sqlite ]
	clean_tmp
}

# the form's own refusal: REFUSED FILE NAME STATUS LOG SUMMARY ERROR [FIELD=VALUE...]:
# answered STATUS, the log LOG, the page again with the summary's one
# line SUMMARY (its link included) and the field's error line ERROR
form_refused() {
	local file=$1 name=$2 want=$3 log=$4 li=$5 error=$6
	shift 6
	run --separate-stderr record "$file" "$name" form=record "$@"
	# the exit status by the tools' one policy: 1 refused, 2 the server's
	[ "$status" -eq "$([ "${want%% *}" -ge 500 ] && echo 2 || echo 1)" ] || { echo "$status"; return 1; }
	[ "${lines[0]}" = "Status: $want"$'\r' ] || { echo "${lines[0]}"; return 1; }
	[ "$stderr" = "dl-web: $want: $log" ] || { echo "$stderr"; return 1; }
	printf '%s\n' "$output" > r
	grep -qx '<title>Deal a session</title>' r
	grep -qxF "$li" r || { grep '^<li>' r; return 1; }
	grep -qxF "$error" r || { grep 'class="error"' r; return 1; }
	# one field marked: the other forms blank
	[ "$(grep -c 'aria-invalid="true"' r)" -eq 1 ]
}

@test "record from the form: each refusal the page again, the form's fields kept, the file asked for again, the error beside its field, a summary at the top" {
	printf 'garbage\n' > g
	run -1 --separate-stderr record g 'Club <b>.txt' form=record paper=letter per_page=4 dd=on
	[ "${lines[0]}" = $'Status: 400 Bad Request\r' ]
	[ "$stderr" = "dl-web: 400 Bad Request: the file for a hand record: not of a format dl reads" ]
	printf '%s\n' "$output" > r
	grep -qx '<title>Deal a session</title>' r
	[ "$(sed -n '/<div class="error-summary"/,/<\/div>/p' r)" = '<div class="error-summary" role="alert" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">No hand record was made: 1 field to put right</h2>
<ul>
<li><a href="#record-file">Club &lt;b&gt;.txt: not a file of a format dl reads (PBN, LIN, DUP, BRI, DGE, ...)</a></li>
</ul>
</div>' ]
	# the form's fields as sent; the file, which a page cannot give
	# back, asked for again by the name it was sent with
	[ "$(sed -n '/name="action" value="record"/,/<\/form>/p' r)" = '<input type="hidden" name="action" value="record">
<input type="hidden" name="form" value="record">
<label for="record-file">The session'"'"'s file</label><p class="error" id="record-file-error"><span class="visually-hidden">Error: </span>Club &lt;b&gt;.txt: not a file of a format dl reads (PBN, LIN, DUP, BRI, DGE, ...)</p><p class="note" id="record-file-again">Choose the file again (you chose Club &lt;b&gt;.txt): a page cannot keep it for you.</p><input type="file" id="record-file" name="file" required aria-invalid="true" aria-describedby="record-file-error record-file-again">
<label for="record-paper">Paper</label><select id="record-paper" name="paper"><option value="a4">A4</option><option value="letter" selected>Letter</option></select>
<label for="record-per_page">Boards a page on the hand record</label><select id="record-per_page" name="per_page"><option value="6">Six (two columns of three)</option><option value="4" selected>Four, larger</option><option value="1">One, for teaching</option></select>
<label><input type="checkbox" id="record-dd" name="dd" value="on" checked> Double-dummy tricks and par</label>
<button type="submit">Make the hand record</button>
</form>' ]
	# the other forms blank: the dealing form's paper not the one sent,
	# nothing marked but the file
	[ "$(sed -n '/^<form /,$p' r | sed '/<\/form>/q' | grep -c ' selected\|aria-invalid=')" -eq 0 ]
	[ "$(grep -c 'aria-invalid="true"' r)" -eq 1 ]
	grep -qx '<label for="played-set">The set played (its number, on the hand record)</label><input type="number" id="played-set" name="set" min="1" required>' r
	# the analysis not asked for: its box as sent, unticked
	run -1 record g g.txt form=record
	grep -qx '<label><input type="checkbox" id="record-dd" name="dd" value="on"> Double-dummy tricks and par</label>' <<< "$output"
	# every id of the page still once
	[ -z "$(grep -o ' id="[^"]*"' r | sort | uniq -d)" ]

	# each other refusal, beside its own field
	printf '[Event "x"]\n[Board "1"]\n[Deal "N:AKQ"]\n' > p
	form_refused p bad.pbn '400 Bad Request' 'the file for a hand record: not read' \
	    '<li><a href="#record-file">bad.pbn:3: board 1: North has 1 suits, not 4 (three dots)</a></li>' \
	    '<label for="record-file">The session'"'"'s file</label><p class="error" id="record-file-error"><span class="visually-hidden">Error: </span>bad.pbn:3: board 1: North has 1 suits, not 4 (three dots)</p><p class="note" id="record-file-again">Choose the file again (you chose bad.pbn): a page cannot keep it for you.</p><input type="file" id="record-file" name="file" required aria-invalid="true" aria-describedby="record-file-error record-file-again">' \
	    dd=on
	printf '%% PBN 2.1\n[Event "Nothing"]\n' > empty
	form_refused empty empty.pbn '400 Bad Request' 'the file for a hand record: not read' \
	    '<li><a href="#record-file">empty.pbn: no boards in it</a></li>' \
	    '<label for="record-file">The session'"'"'s file</label><p class="error" id="record-file-error"><span class="visually-hidden">Error: </span>empty.pbn: no boards in it</p><p class="note" id="record-file-again">Choose the file again (you chose empty.pbn): a page cannot keep it for you.</p><input type="file" id="record-file" name="file" required aria-invalid="true" aria-describedby="record-file-error record-file-again">'
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 2> /dev/null |
	    dl-stream -n 1-101 | dl-map | dl-fmt -f pbn -p big
	awk 'BEGIN { RS = ""; ORS = "\n\n" } NR != 4 && NR <= 6' big.pbn > gap.pbn
	form_refused gap.pbn gap.pbn '400 Bad Request' 'the file for a hand record: not made' \
	    '<li><a href="#record-file">gap.pbn: board 5 after board 3: board 4 is missing, and a hand record&#39;s boards run in a row</a></li>' \
	    '<label for="record-file">The session'"'"'s file</label><p class="error" id="record-file-error"><span class="visually-hidden">Error: </span>gap.pbn: board 5 after board 3: board 4 is missing, and a hand record&#39;s boards run in a row</p><p class="note" id="record-file-again">Choose the file again (you chose gap.pbn): a page cannot keep it for you.</p><input type="file" id="record-file" name="file" required aria-invalid="true" aria-describedby="record-file-error record-file-again">'
	form_refused big.pbn big.pbn '400 Bad Request' 'the file for a hand record: more than a session' \
	    '<li><a href="#record-file">big.pbn: 101 boards: a hand record of at most 100 (a session)</a></li>' \
	    '<label for="record-file">The session'"'"'s file</label><p class="error" id="record-file-error"><span class="visually-hidden">Error: </span>big.pbn: 101 boards: a hand record of at most 100 (a session)</p><p class="note" id="record-file-again">Choose the file again (you chose big.pbn): a page cannot keep it for you.</p><input type="file" id="record-file" name="file" required aria-invalid="true" aria-describedby="record-file-error record-file-again">'
	# no file chosen: a browser sends the field empty, with no name
	: > none
	form_refused none '' '400 Bad Request' 'no file for a hand record' \
	    '<li><a href="#record-file">No file for a hand record</a></li>' \
	    '<label for="record-file">The session'"'"'s file</label><p class="error" id="record-file-error"><span class="visually-hidden">Error: </span>No file for a hand record</p><input type="file" id="record-file" name="file" required aria-invalid="true" aria-describedby="record-file-error">'
	# a paper not offered: the file read all the same, to be chosen again
	club_pbn
	form_refused club.pbn club.pbn '400 Bad Request' 'the paper' \
	    '<li><a href="#record-paper">The paper: a4 or letter</a></li>' \
	    '<label for="record-paper">Paper</label><p class="error" id="record-paper-error"><span class="visually-hidden">Error: </span>A4 or letter</p><select id="record-paper" name="paper" aria-invalid="true" aria-describedby="record-paper-error"><option value="a4">A4</option><option value="letter">Letter</option></select>' \
	    paper=a5
	grep -qx '<label for="record-file">The session'"'"'s file</label><p class="note" id="record-file-again">Choose the file again (you chose club.pbn): a page cannot keep it for you.</p><input type="file" id="record-file" name="file" required aria-describedby="record-file-again">' r
	[ ! -e archive.sqlite ]
	clean_tmp
}

@test "record: the analysis on as many requests at once as there are cores, then 503; without it, made" {
	club_pbn
	mkdir -p locks
	for i in $(seq 0 $(($(nproc) - 1))); do
		exec {fd}> "locks/slot$i"
		flock -n "$fd"
	done
	run -2 --separate-stderr record club.pbn club.pbn dd=on
	[ "${lines[0]}" = $'Status: 503 Service Unavailable\r' ]
	[[ $output == *$'Retry-After: 30\r'* ]]
	[[ $output == *"<p>every core is analysing another session: try again in half a minute, or make the hand record without the analysis</p>"* ]]
	[ "$stderr" = "dl-web: 503 Service Unavailable: every core is analysing another session" ]
	# from the form: the page again, the box said busy, the file to
	# choose again
	form_refused club.pbn club.pbn '503 Service Unavailable' 'every core is analysing another session' \
	    '<li><a href="#record-dd">Every core is analysing another session: try again in half a minute, or make the hand record without the analysis</a></li>' \
	    '<p class="error" id="record-dd-error"><span class="visually-hidden">Error: </span>Every core is analysing another session: try again in half a minute, or make the hand record without the analysis</p><label><input type="checkbox" id="record-dd" name="dd" value="on" checked aria-invalid="true" aria-describedby="record-dd-error"> Double-dummy tricks and par</label>' \
	    dd=on paper=letter
	[ "$status" -eq 2 ]
	[[ $output == *$'Retry-After: 30\r'* ]]
	grep -qx '<h2 id="error-summary-title">No hand record was made yet: the server is busy</h2>' r
	grep -q '<option value="letter" selected>Letter</option></select>$' r
	grep -q 'id="record-file-again">Choose the file again (you chose club.pbn)' r
	run -0 record club.pbn club.pbn
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
	clean_tmp
}

# get QUERY: dl-web answering a GET of the page with this query string
get() {
	REQUEST_METHOD=GET QUERY_STRING=$1 dl-web
}

@test "played: the set's hand record published at the address dealt with it; before play, and for any other address, the same 404" {
	export HTTP_HOST=localhost SCRIPT_NAME=/dl-web
	printf 'event=Spring+Pairs&boards=1-4&formats=pbn&formats=tablecards&dd=off&download=zip' > body
	REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=$(wc -c < body) dl-web < body > zip.out
	[ "$(sed -n '1s/\r$//p' zip.out)" = "Status: 200 OK" ]
	# the address's token, kept with the set's number
	[ "$(stat -c %a dl-web-published)" = 700 ]
	token=$(cat dl-web-published/set-1.token)
	[[ $token =~ ^[0-9a-f]{32}$ ]]
	[[ $(cat "dl-web-published/token-$token") =~ ^1\ [0-9a-f]{64}$ ]]
	# the table cards' QR code holds it
	body_of zip.out > set.zip
	mkdir z && (cd z && unzip -q ../set.zip)
	name=spring-pairs-$(date +%Y-%m-%d)
	[ "$(ls z | tr '\n' ' ')" = "$name.cards.pdf $name.pbn $name.seed " ]
	pdftoppm -r 300 -f 1 -l 1 -png "z/$name.cards.pdf" cards
	[ "$(zbarimg --raw -q cards-1.png 2> /dev/null | sort -u)" = "http://localhost/dl-web?record=$token" ]
	not_yet='<p>no hand record is published at this address yet: a set&#39;s hand record appears here once its session is played. Come back after the session.</p>'
	for query in "record=$token" "record=$token&file=pdf" "record=$token&file=zip" \
	    record=0123456789abcdef0123456789abcdef record=../archive.sqlite record=; do
		run -1 --separate-stderr get "$query"
		[ "${lines[0]}" = $'Status: 404 Not Found\r' ]
		[[ $output == *"$not_yet"* ]]
		[ "$stderr" = "dl-web: 404 Not Found: a hand record not published (no such set, or not played)" ]
	done
	# marked played: published, the page names the address
	printf 'action=played&set=1' > body
	REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=$(wc -c < body) dl-web < body > played.out
	grep -qx '<p>Set 1 is marked played.</p>' played.out
	# streamed while its hand record is solved, the progress then hidden
	[ "$(tr -d '\r' < played.out | grep -e '^<p>Set 1' -e '^<p>Board [0-9]* solved' -e '^<p>Done')" = "<p>Set 1 is marked played. Making its hand record for the players: solving 4 boards&hellip;</p>
<p>Board 1 solved (1 of 4)</p>
<p>Board 2 solved (2 of 4)</p>
<p>Board 3 solved (3 of 4)</p>
<p>Board 4 solved (4 of 4)</p>
<p>Done.</p>
<p>Set 1 is marked played.</p>" ]
	[ "$(grep -c '<head>' played.out)" -eq 1 ]
	grep -qx "<p>Its hand record is published for the players at <a href=\"http://localhost/dl-web?record=$token\">http://localhost/dl-web?record=$token</a>, where the QR code on its hand record and table cards leads.</p>" played.out
	day=$(dl-archive sets | awk '$1 == 1 { print substr($6, 1, 10) }')
	run --separate-stderr get "record=$token"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
	[[ $output == *"<p>The hand record of set 1, played on $day.</p>"* ]]
	[[ $output == *"<a href=\"/dl-web?record=$token&amp;file=pdf\" download>Download it as a PDF</a>"* ]]
	[[ $output == *"Spring Pairs"* ]]
	# double dummy and par on each of its 4 boards
	[ "$(grep -c 'Par: ' <<< "$output")" -eq 4 ]
	run --separate-stderr get "record=$token&file=pdf"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
	[ "${lines[1]}" = $'Content-Type: application/pdf\r' ]
	[[ $output == *$'Content-Disposition: attachment; filename="set-1.pdf"\r'* ]]
	[[ $output == *"%PDF-"* ]]
	# made once: the same file the next time
	before=$(stat -c %Y.%i "dl-web-published/record-$token.html")
	get "record=$token" > /dev/null
	[ "$(stat -c %Y.%i "dl-web-published/record-$token.html")" = "$before" ]
	run -1 --separate-stderr get "record=$token&file=zip"
	[ "${lines[0]}" = $'Status: 404 Not Found\r' ]
	# the archive replaced, its numbers given again: the old address names
	# the old set alone, the new set 1 gets an address of its own
	mv archive.sqlite old-archive.sqlite
	printf 'event=Autumn+Pairs&boards=1-4&formats=pbn&dd=off&download=zip' > body
	REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=$(wc -c < body) dl-web < body > /dev/null
	autumn=$(cat dl-web-published/set-1.token)
	[ "$autumn" != "$token" ]
	printf 'action=played&set=1' > body
	REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=$(wc -c < body) dl-web < body > /dev/null
	run -1 --separate-stderr get "record=$token"
	[ "${lines[0]}" = $'Status: 404 Not Found\r' ]
	run -0 --separate-stderr get "record=$autumn"
	[[ $output == *"Autumn Pairs"* ]]
	[[ $output != *"Spring Pairs"* ]]
	clean_tmp
}

@test "played elsewhere (dl-archive played): the record made by the first request for its address, with the analysis, which waits for a core; every core busy, 503 and nothing kept" {
	export HTTP_HOST=club.example SCRIPT_NAME=/dl-web DL_WEB_HOSTS=club.example
	printf 'event=Spring+Pairs&boards=1-4&formats=pbn&dd=off&download=zip' > body
	REQUEST_METHOD=POST CONTENT_TYPE=application/x-www-form-urlencoded \
	    CONTENT_LENGTH=$(wc -c < body) dl-web < body > /dev/null
	token=$(cat dl-web-published/set-1.token)
	dl-archive played 1 2> /dev/null
	mkdir -p locks
	for i in $(seq 0 $(($(nproc) - 1))); do
		exec {fd}> "locks/slot$i"
		flock -n "$fd"
		held="$held $fd"
	done
	run -2 --separate-stderr get "record=$token"
	[ "${lines[0]}" = $'Status: 503 Service Unavailable\r' ]
	[[ $output == *$'Retry-After: 30\r'* ]]
	[[ $output == *"<p>the hand record is being made, and every core of the server is busy: try again in a minute.</p>"* ]]
	[ "$stderr" = "dl-web: 503 Service Unavailable: a hand record published: every core busy" ]
	[ ! -e "dl-web-published/record-$token.html" ]
	[ ! -e "dl-web-published/record-$token.pdf" ]
	# a core free a second later: the request waits for it
	(sleep 1; for fd in $held; do exec {fd}>&-; done) &
	for fd in $held; do exec {fd}>&-; done
	run -0 --separate-stderr get "record=$token"
	[ "${lines[0]}" = $'Status: 200 OK\r' ]
	[ "$(grep -c 'Par: ' <<< "$output")" -eq 4 ]
	[ -s "dl-web-published/record-$token.pdf" ]
	clean_tmp
}
