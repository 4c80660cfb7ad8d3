#!/usr/bin/env bats
# Hand records for people: the html and pdf writers (plugins/html.c,
# plugins/pdf.c).  The HTML is rendered by headless Chromium (its DOM,
# and printed to PDF), the PDF read back by pdftotext: every board's
# hands, tricks and par must be there, and six boards a page.

load helper

setup_file() {
	cd "$BATS_FILE_TMPDIR"
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    --event 'Club <night> & "pairs"' 2> /dev/null | dl-stream -n 1-8 | dl-map > s.tso
	dl-dd -q < s.tso > s.dd
	# what every hand record must show, made from the PBN writer's [Deal]
	# tags and the analysed stream, not from the writers under test
	dl-fmt -f pbn < s.tso > s.pbn
	# the program every page's foot names ("dl 0.1.0")
	GENERATOR=$(sed -n 's/^\[Generator "\(.*\)"\]\r*$/\1/p' s.pbn | head -1)
	export GENERATOR
	awk -F'"' '
	    /^\[Board / { board = $2 }
	    /^\[Deal / {
		split(substr($2, 3), hand, " ")
		split("\342\231\240 \342\231\245 \342\231\246 \342\231\243", sym, " ")
		split("North East South West", seat, " ")
		for (h = 1; h <= 4; h++) {
			split(hand[h], suit, ".")
			line = board " " seat[h]
			for (s = 1; s <= 4; s++) {
				ranks = ""
				for (k = 1; k <= length(suit[s]); k++) {
					c = substr(suit[s], k, 1)
					ranks = ranks (k > 1 ? " " : "") (c == "T" ? "10" : c)
				}
				line = line "|" sym[s] " " (ranks == "" ? "\342\200\224" : ranks)
			}
			print line
		}
	    }' s.pbn | sort > hands.expected
	# the tricks, as rows N S E W of NT S H D C
	grep -v '^#' s.dd | awk '{
		for (r = 1; r <= 4; r++) {
			d = substr("0213", r, 1) + 0
			row = $1 " " substr("NSEW", r, 1)
			for (s = 0; s < 5; s++)
				row = row " " index("0123456789abcd", substr($3, d * 5 + s + 1, 1)) - 1
			print row
		}
	}' | sort > tricks.expected
	# the par line in players' words, as "Par: 3NT by N-S or 5♣ by North,
	# +600" or "Par: 5♣ or 5♦ by N-S, +400", the score from the declaring
	# side
	grep -v '^#' s.dd | awk '{
		if ($5 == "pass") { print $1 " Par 0: passed out"; next }
		n = split($5, c, ",")
		ew = c[1] !~ /-[^-+]*[NS]/
		score = ew ? -$4 : $4
		split("N North S South E East W West NS N-S EW E-W", w, " ")
		for (i = 1; i < 12; i += 2)
			words[w[i]] = w[i + 1]
		line = "Par:"
		for (i = 1; i <= n; i++) {
			match(c[i], /^[1-7][NSHDC]x?/)
			head[i] = substr(c[i], 1, RLENGTH); rest = substr(c[i], RLENGTH + 2)
			k = match(rest, /[+-]/)
			who[i] = k ? substr(rest, 1, k - 1) : rest
			result[i] = k ? substr(rest, k) : ""
			sub(/^-/, "\342\210\222", result[i])
		}
		for (i = 1; i <= n; i++) {
			strain = substr(head[i], 2, 1)
			sym = strain == "N" ? "NT" : strain == "S" ? "\342\231\240" : strain == "H" ? \
			    "\342\231\245" : strain == "D" ? "\342\231\246" : "\342\231\243"
			line = line (i > 1 ? " or" : "") " " substr(head[i], 1, 1) sym \
			    (head[i] ~ /x$/ ? "\303\227" : "") result[i] \
			    (i == n || who[i + 1] != who[i] ? " by " words[who[i]] : "")
		}
		print $1 " " line ", " (score < 0 ? "\342\210\222" (-score) : "+" score)
	}' > par.expected
	grep -v '^#' s.tso | sha256sum | cut -c1-16 > fingerprint
}

setup() {
	cd "$BATS_FILE_TMPDIR"
}

# chromium_pdf HTML PDF: HTML printed as Chromium prints it
chromium_pdf() {
	chromium --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/chromium-profile" --no-pdf-header-footer \
	    --print-to-pdf="$2" "file://$PWD/$1" 2> /dev/null
}

# bats test_tags=browser
@test "html: one self-contained file; each board's hands, tricks and par in the DOM Chromium builds" {
	rm -f r.html
	dl-fmt -f html -p r < s.dd
	# nothing from the network, no script
	run grep -Ec '<script|<link|src=|url\(|@import' r.html
	[ "$output" = 0 ]
	chromium --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/chromium-profile" --dump-dom "file://$PWD/r.html" \
	    2> /dev/null > dom.html
	[ "$(grep -c '<section class="board"' dom.html)" -eq 8 ]
	# each hand: board, seat, suits as shown
	awk '/<section class="board"/ { split($0, a, "board-"); board = a[2] + 0 }
	    /<div class="hand / {
		seat = $0; sub(/.*<h3 class="vh">/, "", seat); sub(/<.*/, "", seat)
		line = $0
		sub(/<h3 class="vh">[^<]*<\/h3>/, "", line)
		gsub(/<span aria-hidden="true">[^<]*<\/span><span class="vh">void<\/span>/, "\342\200\224", line)
		gsub(/<span class="sym">/, "", line); gsub(/<\/span>/, " ", line)
		gsub(/<\/div><div class="[shdc]">/, "|", line)
		gsub(/<[^>]*>/, "", line)
		print board " " seat "|" line
	    }' dom.html | sort > hands.html
	diff hands.expected hands.html
	awk '/<section class="board"/ { split($0, a, "board-"); board = a[2] + 0 }
	    /^<tr><th scope="row">/ { line = $0; gsub(/<span class="vh">[^<]*<\/span>/, "", line)
		gsub(/<[^>]*>/, " ", line)
		$0 = line; $1 = $1; print board " " $0 }' dom.html | sort > tricks.html
	diff tricks.expected tricks.html
	awk '/<section class="board"/ { split($0, a, "board-"); board = a[2] + 0 }
	    /<div class="par">/ { line = $0; gsub(/<[^>]*>/, "", line); print board " " line }' \
	    dom.html > par.html
	diff par.expected par.html
	# the event as text, escaped; the set's fingerprint
	grep -q '<title>Club &lt;night&gt; &amp; "pairs"</title>' dom.html
	grep -q "<p hidden=\"\">set $(cat fingerprint)</p>" dom.html
}

# bats test_tags=browser
@test "html printed by Chromium: six boards a page, none cut, A4 and Letter; page numbers and fingerprint" {
	rm -f r.html
	dl-fmt -f html -p r < s.dd
	rm -f letter.html a4.html
	PAPERSIZE=letter dl-fmt -f html -p letter < s.dd
	grep -qxF '@page { size: letter; margin: 0; }' letter.html
	chromium_pdf letter.html letter.pdf
	[ "$(pdfinfo letter.pdf | awk '/^Pages:/ { print $2 }')" -eq 2 ]
	pdfinfo letter.pdf | grep -q '^Page size: *612 x 792 pts'
	PAPERSIZE=a4 dl-fmt -f html -p a4 < s.dd
	grep -qxF '@page { size: A4; margin: 0; }' a4.html
	chromium_pdf a4.html a4.pdf
	[ "$(pdfinfo a4.pdf | awk '/^Pages:/ { print $2 }')" -eq 2 ]
	pdfinfo a4.pdf | grep -q '^Page size: *594.96 x 841.92 pts (A4)'
	fp=$(cat fingerprint)
	for pdf in letter.pdf a4.pdf; do
		pdftotext -f 1 -l 1 "$pdf" - | tr -d ' ' > page1
		grep -qx "Page1of2" page1
		grep -qx "Setfingerprint${fp:0:16}·handrecordby${GENERATOR// /}" page1
		grep -qx "Boards1–6" page1
		# boards 1-6 on page 1, 7 and 8 on page 2
		for b in 1 2 3 4 5 6; do grep -qx "$b" page1; done
		pdftotext -f 2 -l 2 "$pdf" - | tr -d ' ' > page2
		grep -qx 7 page2
		grep -qx 8 page2
		grep -qx "Boards7–8" page2
		run grep -cx 1 page2
		[ "$output" = 0 ]
	done
	# the foot is the page's last line: A4 is filled, not left 2 cm short
	pdftotext -f 1 -l 1 -bbox a4.pdf - |
	    awk -F'"' '/<word/ && $8 > y { y = $8 } END { exit !(y > 800) }'
}

# bats test_tags=browser
@test "html printed by Chromium: four boards a page and one, A4 and Letter: a page for each, its own boards in its head" {
	fp=$(cat fingerprint)
	for paper in a4 letter; do
		for per in 4 1; do
			pages=$(( (8 + per - 1) / per ))
			rm -f p.html
			dl-fmt --paper "$paper" --per-page "$per" -f html -p p < s.dd
			chromium_pdf p.html p.pdf
			[ "$(pdfinfo p.pdf | awk '/^Pages:/ { print $2 }')" -eq "$pages" ] ||
			    { echo "$paper, $per a page: not $pages pages" >&2; return 1; }
			for page in $(seq "$pages"); do
				first=$(( (page - 1) * per + 1 ))
				last=$(( first + per - 1 ))
				if [ "$per" -eq 1 ]; then range="Board$first"; else range="Boards$first–$last"; fi
				pdftotext -f "$page" -l "$page" p.pdf - | tr -d ' ' > text
				grep -qx "$range" text || { echo "$paper, $per a page: page $page has no $range" >&2; return 1; }
				grep -qx "Page${page}of$pages" text
				grep -qx "Setfingerprint${fp:0:16}·handrecordby${GENERATOR// /}" text
				# the page's own boards' numbers (22 points and more, a
				# box 1.164 em high), no other board's
				[ "$(pdftotext -f "$page" -l "$page" -bbox p.pdf - |
				    awk -F'"' '/<word / && $8 - $4 > 25 { t = $0; sub(/^.*">/, "", t)
					sub(/<\/word>.*$/, "", t); print t }' | paste -sd' ')" = \
				    "$(seq -s' ' "$first" "$last")" ] ||
				    { echo "$paper, $per a page: page $page, not boards $first-$last" >&2; return 1; }
			done
			# the par and the tricks on every board
			[ "$(pdftotext p.pdf - | grep -c '^Par[: ]')" -eq 8 ]
			[ "$(pdftotext p.pdf - | grep -c '^Tricks (double dummy)$')" -eq 8 ]
		done
	done
}

@test "html: four and one boards a page are the printed page's and a wide screen's; a phone keeps one board under another" {
	for per in 4 1; do
		rm -f p.html
		dl-fmt --per-page "$per" -f html -p p < s.dd
		# the layout's style after the phone's, and only where the
		# phone's is not
		awk '/^@media screen and \(max-width: 700px\) \{$/ { phone = NR }
		    /^@media print, screen and \(min-width: 701px\) \{$/ { layout = NR }
		    END { exit !(phone && layout > phone) }' p.html
		[ "$(grep -c '<div class="page">' p.html)" -eq $(( (8 + per - 1) / per )) ]
	done
	# six a page: no style of another layout
	rm -f p.html
	dl-fmt -f html -p p < s.dd
	run ! grep -q 'min-width: 701px' p.html
}

# bats test_tags=browser
@test "html printed by a browser's defaults: no header or footer of the browser's, none doubled" {
	rm -f d.html
	PAPERSIZE=a4 dl-fmt -f html -p d < s.dd
	# headless Chromium prints its header and footer (date, title,
	# address, page numbers) unless told not to: the page leaves it no
	# margin to print them in
	chromium --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/chromium-profile" --print-to-pdf=d.pdf \
	    "file://$PWD/d.html" 2> /dev/null
	[ "$(pdfinfo d.pdf | awk '/^Pages:/ { print $2 }')" -eq 2 ]
	pdftotext d.pdf - > text
	run grep -c 'file:\|/2\b' text
	[ "$output" = 0 ]
	[ "$(grep -c 'Page [12] of 2' text)" -eq 2 ]
	[ "$(grep -c 'Club <night> & "pairs"' text)" -eq 2 ]
}

@test "html: a phone's viewport; each board a heading, seats named, the trick table captioned" {
	rm -f a.html
	dl-fmt -f html -p a < s.dd
	grep -qxF '<meta name="viewport" content="width=device-width, initial-scale=1">' a.html
	grep -qxF '@media screen and (max-width: 700px) {' a.html
	# one <h1>, the event; each board an <h2>; each hand an <h3> by seat
	[ "$(grep -o '<h1' a.html | wc -l)" -eq 1 ]
	grep -q '^<header class="head"><h1 class="event">Club &lt;night&gt; &amp; &quot;pairs&quot;</h1><span class="date">dealt [0-9-]*</span><span class="range">Boards 1&#8211;6</span></header>$' a.html
	grep -q '^<header class="head"><div class="event">Club &lt;night&gt; &amp; &quot;pairs&quot;</div><span class="date">dealt [0-9-]*</span><span class="range">Boards 7&#8211;8</span></header>$' a.html
	[ "$(grep -c '<h2 class="num"><span class="vh">Board </span>[1-8]</h2>' a.html)" -eq 8 ]
	for seat in North East South West; do
		[ "$(grep -c "<div class=\"hand ${seat,}\"><h3 class=\"vh\">$seat</h3>" a.html)" -eq 8 ]
	done
	# board 2: dealer East, N-S vulnerable, points labelled by seat
	run -0 grep -A6 '^<section class="board" id="board-2">' a.html
	[[ $output == *'<p class="meta">Dealer East<br>N-S vulnerable</p>'* ]]
	[[ $output == *'<div class="compass" role="group" aria-label="High-card points"><div class="n vul"><b aria-hidden="true">N</b><span class="vh">North</span> '[0-9]*'</div><div class="e dlr"><b aria-hidden="true">E</b><span class="vh">East</span> '*'<div class="s vul"><b aria-hidden="true">S</b>'*'<div class="w"><b aria-hidden="true">W</b>'* ]]
	# the trick table: a caption, column and row headers
	[ "$(grep -cxF '<table class="dd"><caption>Tricks (double dummy)</caption>' a.html)" -eq 8 ]
	grep -qxF '<tr><th scope="col"><span class="vh">Declarer</span></th><th scope="col" class="nt">NT</th><th scope="col" class="s">&#9824;</th><th scope="col" class="h">&#9829;</th><th scope="col" class="d">&#9830;</th><th scope="col" class="c">&#9827;</th></tr>' a.html
	[ "$(grep -c '^<tr><th scope="row"><span aria-hidden="true">S</span><span class="vh">South</span></th><td>' a.html)" -eq 8 ]
	# a void: a dash shown, the word read
	grep -qF '<div class="s"><span class="sym">&#9824;</span><span aria-hidden="true">&#8212;</span><span class="vh">void</span></div>' a.html
	# hearts and diamonds red in the par line too
	grep -qF '.par .h, .par .d { color: #c00; }' a.html
	grep -qF "<footer class=\"foot\"><span>Set fingerprint <span class=\"fp\"></span> &#183; hand record by $GENERATOR</span><span>Page 2 of 2</span></footer>" a.html
}

@test "pdf: fonts embedded, text selectable: every board's hands and tricks read back by pdftotext" {
	rm -f r.pdf
	dl-fmt -f pdf -p r < s.dd
	pdfinfo r.pdf | grep -q '^Pages: *2$'
	pdfinfo r.pdf | grep -q '^Page size: *595.276 x 841.89 pts (A4)$'
	pdfinfo r.pdf | grep -q '^Title: *Club <night> & "pairs"$'
	# every font embedded
	run bash -c "pdffonts r.pdf | awk 'NR > 2 && \$(NF - 4) != \"yes\"' | wc -l"
	[ "$output" = 0 ]
	# in the order the text is drawn (and tagged): a hand, the trick
	# table's rows, the par, each whole (-raw; by the page's layout,
	# pdftotext may read a row of tricks and South's line beside it as
	# one line); the figure spaces that pad 0 to 9 in a row dropped
	pdftotext -raw r.pdf - | tr -d ' ' | sed 's/\xe2\x80\x87//g' > text
	# pdftotext drops the spaces between letters: compare without them
	cut -d'|' -f2- hands.expected | tr '|' '\n' | tr -d ' ' | sort -u > suits.expected
	while read -r suit; do
		grep -qxF "$suit" text || { echo "missing: $suit" >&2; return 1; }
	done < suits.expected
	cut -d' ' -f2- tricks.expected | tr -d ' ' | sort -u > rows.expected
	while read -r row; do
		grep -qxF "$row" text || { echo "missing: $row" >&2; return 1; }
	done < rows.expected
	while read -r board par; do
		grep -qxF "$(printf '%s' "$par" | tr -d ' ')" text ||
		    { echo "missing: $par" >&2; return 1; }
	done < par.expected
	grep -qx "Setfingerprint$(cat fingerprint)·handrecordby${GENERATOR// /}" text
	grep -qx "Page2of2" text
	# US Letter when the system's paper is
	PAPERSIZE=letter dl-fmt -f pdf < s.dd > letter.pdf
	pdfinfo letter.pdf | grep -q '^Page size: *612 x 792 pts (letter)$'
}

@test "without analysis: the same hand records, without grid and par" {
	rm -f p.html p.pdf
	dl-fmt -f html,pdf -p p < s.tso
	run grep -c '<table class="dd">\|class="par"' p.html
	[ "$output" = 0 ]
	[ "$(grep -c '<div class="hand ' p.html)" -eq 32 ]
	pdftotext p.pdf - | tr -d ' ' > text
	run grep -c '^Par' text
	[ "$output" = 0 ]
	grep -qx "$(head -1 hands.expected | cut -d'|' -f2 | tr -d ' ')" text
}

# bats test_tags=browser
@test "html printed by Chromium: the head wraps, a club's event, site and date whole; 500 bytes of each stop at two lines, six boards a page" {
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    --event 'Riverside Bridge Club — Monday Evening Pairs' \
	    --site 'Riverside Community Hall, Mill Lane' --date 2026.11.30 2> /dev/null |
	    dl-stream -n 1-8 | dl-map > club.tso
	rm -f club.html
	dl-fmt -f html -p club < club.tso
	chromium_pdf club.html club.pdf
	pdftotext -f 1 -l 1 -layout club.pdf - | sed -n '/Riverside/p' > head
	[ "$(wc -l < head)" -eq 2 ]
	[[ $(sed -n 1p head) =~ ^\ *Riverside\ Bridge\ Club\ —\ Monday\ Evening\ Pairs\ +Boards\ 1–6$ ]]
	[[ $(sed -n 2p head) =~ ^\ *Riverside\ Community\ Hall,\ Mill\ Lane,\ 2026\.11\.30$ ]]
	# nor cut on a screen, a phone's: the style cuts no part of the head
	# to one line
	run -1 grep -E 'text-overflow|nowrap; overflow: hidden' club.html
	ev=$(printf 'Championship %.0s' $(seq 38))
	site=$(printf 'Club room %.0s' $(seq 45))
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    --event "$ev" --site "$site" 2> /dev/null | dl-stream -n 1-8 | dl-map > long.tso
	rm -f long.html
	dl-fmt -f html -p long < long.tso
	chromium_pdf long.html long.pdf
	[ "$(pdfinfo long.pdf | awk '/^Pages:/ { print $2 }')" -eq 2 ]
	pdftotext -f 1 -l 1 long.pdf - | tr -d ' ' > page1
	for b in 1 2 3 4 5 6; do grep -qx "$b" page1 || { echo "board $b not on page 1"; return 1; }; done
	# two lines of the event, the boards at the end of its first, two of
	# the site: the rest of each cut, as the PDF cuts its event
	pdftotext -f 1 -l 1 -layout long.pdf - | sed -n '/Championship\|Club room/p' > head
	[ "$(grep -c Championship head)" -eq 2 ]
	[ "$(grep -c 'Club room' head)" -eq 2 ]
	[[ $(sed -n 1p head) == *"Boards 1–6" ]]
}

# axe-core, the accessibility rules' engine: make fetches it from the npm
# registry into the build directory (the Makefile's AXE_CORE, pinned by
# share/dev/npm/package-lock.json); DL_AXE_CORE names another copy
# bats test_tags=browser
@test "html: axe-core finds no violation of WCAG 2.x A and AA, nor of its best practices, wide and at 400 pixels" {
	axe=${DL_AXE_CORE:-$DL_BUILD/npm/node_modules/axe-core/axe.min.js}
	[ -f "$axe" ] || { echo "no axe-core at $axe: make test-progs fetches it" >&2; return 1; }
	rm -f x.html xu.html
	dl-fmt -f html -p x < s.dd
	# and with the record's address: its QR code, caption and links
	{ sed -n '1p' s.dd; echo '#U: https://club.example/r/1'; sed -n '2,$p' s.dd; } |
	    dl-fmt -f html -p xu
	for page in x xu; do
	# the page, and after it axe run on it, its violations written into
	# the page for --dump-dom to show
	{
		sed '/^<\/body>$/,$d' "$page.html"
		printf '<script>'
		cat "$axe"
		printf '</script>\n<script>axe.run(document, { runOnly: ["wcag2a", "wcag2aa",'
		printf ' "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] }).then(function (r) {'
		printf ' var p = document.createElement("pre"); p.id = "axe";'
		printf ' p.textContent = "axe " + r.violations.map(function (v) {'
		printf ' return v.id + ":" + v.impact + ":" + v.nodes.length; }).join(" ") + " end";'
		printf ' document.body.appendChild(p); });</script>\n</body>\n</html>\n'
	} > axe.html
	for width in 1200 400; do
		chromium --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/chromium-profile" --virtual-time-budget=30000 \
		    --window-size="$width,2000" --dump-dom "file://$PWD/axe.html" 2> /dev/null > axe.dom
		run -0 grep -o '<pre id="axe">[^<]*</pre>' axe.dom
		[ "$output" = '<pre id="axe">axe  end</pre>' ] || { echo "$page, $width: $output"; return 1; }
	done
	done
}

@test "#N: the set's number among its event's, on every page's foot of both hand records; a header that is no count, nowhere" {
	{ sed -n '1p' s.dd; echo '#N: 3'; sed -n '2,$p' s.dd; } > n.dd
	dl-fmt -f html,pdf -p n < n.dd
	[ "$(grep -c "hand record by $GENERATOR; set 3 dealt for this event</span>" n.html)" -eq 2 ]
	# the PDF's beside the page's number, where the fingerprint's words leave room
	[ "$(pdftotext n.pdf - | grep -c 'Set 3 dealt for this event · Page [0-9] of 2')" -eq 2 ]
	for bad in 0 x 3x 01; do
		{ sed -n '1p' s.dd; echo "#N: $bad"; sed -n '2,$p' s.dd; } > b.dd
		dl-fmt -f html < b.dd > b.html
		run grep -c 'dealt for this event' b.html
		[ "$output" = 0 ] || { echo "#N: $bad"; return 1; }
	done
}

# qr_in_head PDF PAGE: the text of the QR codes zbarimg finds in the top
# 38 mm of the page, rendered at 300 dpi
qr_in_head() {
	pdftoppm -r 300 -f "$2" -l "$2" -x 0 -y 0 -W 2600 -H 450 -png "$1" qr
	zbarimg -q --raw qr-*.png 2> /dev/null
	rm -f qr-*.png
}

# bats test_tags=browser,slow
@test "#U: the address where the record is published after play, a QR code and a link in every page's head of the HTML; Chromium's print reads back the address, A4 and Letter, 6, 4 and 1 a page" {
	url="https://club.example/r/2026-11-24?s=1&t='x'"
	{ sed -n '1p' s.dd; echo "#U: $url"; sed -n '2,$p' s.dd; } > u.dd
	rm -f u.html
	dl-fmt -f html -p u < u.dd
	# the address escaped in its links and in its words, the code an
	# image named for a screen reader, its caption under the range
	href="https://club.example/r/2026-11-24?s=1&amp;t=&#39;x&#39;"
	[ "$(grep -c '<header class="head has-qr">' u.html)" -eq 2 ]
	[ "$(grep -o "<a class=\"qr\" href=\"$href\"><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"qr\" role=\"img\" aria-label=\"QR code of this hand record's address\" width=\"20mm\" height=\"20mm\" viewBox=\"0 0 [0-9]* [0-9]*\" shape-rendering=\"crispEdges\">" u.html | wc -l)" -eq 2 ]
	[ "$(grep -o '<span class="qrcap">This hand record<br>online after play</span>' u.html | wc -l)" -eq 2 ]
	[ "$(grep -o "<span class=\"url\"><a href=\"$href\">$href</a></span></header>" u.html | wc -l)" -eq 2 ]
	# none without the header
	rm -f n.html
	dl-fmt -f html -p n < s.dd
	run -1 grep -c 'class="qr' n.html
	for paper in a4 letter; do
		for per in 6 4 1; do
			pages=$(( (8 + per - 1) / per ))
			rm -f p.html
			dl-fmt --paper "$paper" --per-page "$per" -f html -p p < u.dd
			chromium_pdf p.html p.pdf
			[ "$(pdfinfo p.pdf | awk '/^Pages:/ { print $2 }')" -eq "$pages" ] ||
			    { echo "$paper, $per a page: not $pages pages" >&2; return 1; }
			for page in 1 "$pages"; do
				[ "$(qr_in_head p.pdf "$page")" = "$url" ] ||
				    { echo "$paper, $per a page: page $page has no code of $url" >&2; return 1; }
			done
			# every board's par and tricks still there
			[ "$(pdftotext p.pdf - | grep -c '^Par[: ]')" -eq 8 ]
			[ "$(pdftotext p.pdf - | grep -c '^Tricks (double dummy)$')" -eq 8 ]
		done
	done
}
