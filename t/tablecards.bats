#!/usr/bin/env bats
# The table cards (plugins/tablecards.c): a card a table, two a page, the
# table's number, the event, where and when, and the QR code of the
# address where the hand record is published after play (#U:), read
# back from the rendered page by zbarimg.

load helper

URL="https://club.example/records/2026-11-24?set=1&s='x'"

setup_file() {
	cd "$BATS_FILE_TMPDIR"
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    2> /dev/null | dl-stream -n 1-8 | dl-map | grep -v '^#' > records
}

# stream FILE HEADER...: a deals stream of boards 1-8 with these headers
stream() {
	local file=$1
	shift
	{
		echo '#P: dl/1 deals'
		[ $# -eq 0 ] || printf '%s\n' "$@"
		echo '#B: 1-8'
		cat "$BATS_FILE_TMPDIR/records"
	} > "$file"
}

# codes PDF: the QR codes zbarimg reads on each page rendered at 150 dpi,
# a line "PAGE TEXT" each, sorted
codes() {
	local pages page
	pages=$(pdfinfo "$1" | sed -n 's/^Pages: *//p')
	for page in $(seq "$pages"); do
		pdftoppm -r 150 -f "$page" -l "$page" -png "$1" code
		zbarimg -q --raw code-*.png 2> /dev/null | sed "s/^/$page /"
		rm -f code-*.png
	done | LC_ALL=C sort
}

# words_inside PDF: every word of every page inside the paper's 10 mm
# margin, and no two words of a page overlapping (pdftotext's boxes,
# whichever way up the text is)
words_inside() {
	pdftotext -bbox "$1" - | awk -F'"' '
	    /<page / { p++; w = $2; h = $4; n = 0 }
	    /<word / {
		n++; x0[n] = $2; y0[n] = $4; x1[n] = $6; y1[n] = $8
		if ($2 < 28.3 || $4 < 28.3 || $6 > w - 28.3 || $8 > h - 28.3) {
			print "page " p ": a word outside the margin: " $0; bad = 1
		}
		for (i = 1; i < n; i++)
			if (x0[i] < $6 - 0.5 && $2 < x1[i] - 0.5 && y0[i] < $8 - 0.5 && $4 < y1[i] - 0.5) {
				print "page " p ": words overlap: " $0; bad = 1
			}
	    }
	    END { exit bad }'
}

# bats test_tags=slow
@test "tablecards: a card for each two boards, two a page, each face the table's number, the event, where and when, and the address's QR code" {
	stream s.tso '#I: Tuesday Pairs' '#S: Riverside Bridge Club' '#D: 2026.11.24' "#U: $URL"
	run -0 --separate-stderr dl-fmt -f tablecards -p s < s.tso
	[ -z "$stderr" ]
	[ -f s.cards.pdf ]
	pdfinfo s.cards.pdf > info
	[ "$(sed -n 's/^Pages: *//p' info)" -eq 2 ]
	grep -q '^Page size: *595.276 x 841.89 pts (A4)' info
	[ "$(sed -n 's/^Title: *//p' info)" = "Table cards: Tuesday Pairs" ]
	# four tables, each card's two faces: the code on each, read back
	run -0 codes s.cards.pdf
	[ "$output" = "1 $URL
1 $URL
1 $URL
1 $URL
2 $URL
2 $URL
2 $URL
2 $URL" ]
	# each face its table's number, and its words
	for page in 1 2; do
		pdftotext -f "$page" -l "$page" s.cards.pdf - > text
		[ "$(grep -cx 'Table' text)" -eq 4 ]
		[ "$(grep -cx "$((2 * page - 1))" text)" -eq 2 ]
		[ "$(grep -cx "$((2 * page))" text)" -eq 2 ]
		[ "$(grep -cx 'Tuesday Pairs' text)" -eq 4 ]
		[ "$(grep -cx 'Riverside Bridge Club, 2026.11.24' text)" -eq 4 ]
		[ "$(grep -cx 'Hand records after play' text)" -eq 4 ]
		[ "$(grep -cx 'Scan the code with your phone' text)" -eq 4 ]
		[ "$(grep -cxF "$URL" text)" -eq 4 ]
		[ "$(grep -c '✂ cut' text)" -eq 1 ]
		[ "$(grep -cx 'fold' text)" -eq 2 ]
	done
	words_inside s.cards.pdf
	# the cards show no deal: no suit, no board of the set
	run -1 grep -c '[♠♥♦♣]' <(pdftotext s.cards.pdf -)
	# on Letter too
	rm -f s.cards.pdf
	PAPERSIZE=letter dl-fmt -f tablecards -p s < s.tso
	pdfinfo s.cards.pdf | grep -q '^Page size: *612 x 792 pts (letter)'
	[ "$(codes s.cards.pdf | wc -l)" -eq 8 ]
	words_inside s.cards.pdf
}

# bats test_tags=slow
@test "tablecards: DL_TABLES cards, 1 to 200; another value, one for each two boards" {
	stream s.tso '#I: Pairs' "#U: $URL"
	for tables in 1 3 12 200; do
		DL_TABLES=$tables dl-fmt -f tablecards < s.tso > c.pdf
		[ "$(pdfinfo c.pdf | sed -n 's/^Pages: *//p')" -eq $(( (tables + 1) / 2 )) ] ||
		    { echo "DL_TABLES=$tables" >&2; return 1; }
		[ "$(pdftotext -l 1 c.pdf - | grep -cx 'Table')" -eq $(( tables == 1 ? 2 : 4 )) ]
	done
	pdftotext -f 100 -l 100 c.pdf - | grep -qx 200
	# the last page of an odd number holds one card
	DL_TABLES=3 dl-fmt -f tablecards < s.tso > c.pdf
	[ "$(pdftotext -f 2 -l 2 c.pdf - | grep -cx 'Table')" -eq 2 ]
	run -1 grep -c 'cut' <(pdftotext -f 2 -l 2 c.pdf -)
	for bad in 0 201 x 3x -1 ''; do
		DL_TABLES=$bad dl-fmt -f tablecards < s.tso > c.pdf
		[ "$(pdfinfo c.pdf | sed -n 's/^Pages: *//p')" -eq 2 ] || { echo "DL_TABLES=$bad" >&2; return 1; }
	done
	# 27 boards, three a round: 14 cards, 7 pages
	seed=$(dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 2> /dev/null)
	dl-stream -n 1-27 <<< "$seed" | dl-map | dl-fmt -f tablecards > c.pdf
	[ "$(pdfinfo c.pdf | sed -n 's/^Pages: *//p')" -eq 7 ]
}

# bats test_tags=slow
@test "tablecards without an address: the cards all the same, no code, and a word on standard error" {
	stream s.tso '#I: Tuesday Pairs' '#S: Riverside Bridge Club'
	run -0 --separate-stderr dl-fmt -f tablecards -p s < s.tso
	[ "$stderr" = "dl-fmt: tablecards: no address for the hand record (#U:, dl-deal --record-url): the cards have no QR code" ]
	[ "$(codes s.cards.pdf)" = "" ]
	pdftotext -f 1 -l 1 s.cards.pdf - > text
	[ "$(grep -cx 'Table' text)" -eq 4 ]
	[ "$(grep -cx 'Tuesday Pairs' text)" -eq 4 ]
	run -1 grep -c 'Scan the code\|after play' text
	words_inside s.cards.pdf
}

# bats test_tags=slow
@test "dl-deal: the hand record and the table cards in one run, the same address in every code" {
	url=https://club.example/records/2026-11-24-tuesday
	DL_TABLES=2 dl-deal -n 4 -f pdf,html,tablecards -p tue -i 'Tuesday Pairs' \
	    --site 'Riverside Bridge Club' --date 24/11/2026 --record-url "$url"
	[ -f tue.pdf ] && [ -f tue.html ] && [ -f tue.cards.pdf ]
	run -0 codes tue.cards.pdf
	[ "$output" = "1 $url
1 $url
1 $url
1 $url" ]
	pdftoppm -r 300 -f 1 -l 1 -x 0 -y 0 -W 2600 -H 450 -png tue.pdf head
	[ "$(zbarimg -q --raw head-*.png 2> /dev/null)" = "$url" ]
	grep -qF "<span class=\"url\"><a href=\"$url\">$url</a></span>" tue.html
}
