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
	# the par line, as "Par NS +600: 3NT NS, 5♣ NS"
	grep -v '^#' s.dd | awk '{
		if ($5 == "pass") { print $1 " Par 0: passed out"; next }
		n = split($5, c, ",")
		ew = c[1] !~ /-[^-+]*[NS]/
		score = ew ? -$4 : $4
		line = "Par " (ew ? "EW" : "NS") " " (score < 0 ? "\342\210\222" (-score) : "+" score) ":"
		for (i = 1; i <= n; i++) {
			match(c[i], /^[1-7][NSHDC]x?/)
			head = substr(c[i], 1, RLENGTH); rest = substr(c[i], RLENGTH + 2)
			strain = substr(head, 2, 1)
			sym = strain == "N" ? "NT" : strain == "S" ? "\342\231\240" : strain == "H" ? \
			    "\342\231\245" : strain == "D" ? "\342\231\246" : "\342\231\243"
			k = match(rest, /[+-]/)
			who = k ? substr(rest, 1, k - 1) : rest
			result = k ? substr(rest, k) : ""
			sub(/^-/, "\342\210\222", result)
			line = line (i > 1 ? "," : "") " " substr(head, 1, 1) sym \
			    (head ~ /x$/ ? "\303\227" : "") " " who (result != "" ? " " result : "")
		}
		print $1 " " line
	}' > par.expected
	grep -v '^#' s.tso | sha256sum | cut -c1-16 > fingerprint
}

setup() {
	cd "$BATS_FILE_TMPDIR"
}

# chromium_pdf HTML PDF: HTML printed as Chromium prints it
chromium_pdf() {
	chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
	    --print-to-pdf="$2" "file://$PWD/$1" 2> /dev/null
}

@test "html: one self-contained file; each board's hands, tricks and par in the DOM Chromium builds" {
	rm -f r.html
	dl-fmt -f html -p r < s.dd
	# nothing from the network, no script
	run grep -Ec '<script|<link|src=|url\(|@import' r.html
	[ "$output" = 0 ]
	chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$PWD/r.html" \
	    2> /dev/null > dom.html
	[ "$(grep -c '<section class="board"' dom.html)" -eq 8 ]
	# each hand: board, seat, suits as shown
	awk '/<section class="board"/ { split($0, a, "board-"); board = a[2] + 0 }
	    /<div class="hand / {
		seat = $0; sub(/.*aria-label="/, "", seat); sub(/".*/, "", seat)
		line = $0
		gsub(/<span class="sym">/, "", line); gsub(/<\/span>/, " ", line)
		gsub(/<\/div><div class="[shdc]">/, "|", line)
		gsub(/<[^>]*>/, "", line)
		print board " " seat "|" line
	    }' dom.html | sort > hands.html
	diff hands.expected hands.html
	awk '/<section class="board"/ { split($0, a, "board-"); board = a[2] + 0 }
	    /^<tr><th>[NESW]<\/th>/ { line = $0; gsub(/<[^>]*>/, " ", line)
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

@test "html printed by Chromium: six boards a page, none cut, A4 and Letter; page numbers and fingerprint" {
	rm -f r.html
	dl-fmt -f html -p r < s.dd
	chromium_pdf r.html letter.pdf
	[ "$(pdfinfo letter.pdf | awk '/^Pages:/ { print $2 }')" -eq 2 ]
	pdfinfo letter.pdf | grep -q '^Page size: *612 x 792 pts'
	sed 's/@page { margin: 12mm; }/@page { size: A4; margin: 12mm; }/' r.html > a4.html
	chromium_pdf a4.html a4.pdf
	[ "$(pdfinfo a4.pdf | awk '/^Pages:/ { print $2 }')" -eq 2 ]
	fp=$(cat fingerprint)
	for pdf in letter.pdf a4.pdf; do
		pdftotext -f 1 -l 1 "$pdf" - | tr -d ' ' > page1
		grep -qx "page1of2" page1
		grep -qx "set${fp:0:16}" page1
		# boards 1-6 on page 1, 7 and 8 on page 2
		for b in 1 2 3 4 5 6; do grep -qx "$b" page1; done
		pdftotext -f 2 -l 2 "$pdf" - | tr -d ' ' > page2
		grep -qx 7 page2
		grep -qx 8 page2
		run grep -cx 1 page2
		[ "$output" = 0 ]
	done
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
	pdftotext r.pdf - | tr -d ' ' > text
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
	grep -qx "Setfingerprint$(cat fingerprint):matchesthefilesofthedeals(dl-fmt(1))" text
	grep -qx "page2of2" text
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

@test "html printed by Chromium: a 500-byte event and site keep the head to one line and six boards a page" {
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
	# the head is one line: its event cut short, the boards at its end
	pdftotext -f 1 -l 1 -layout long.pdf - | sed -n '/Championship/p' > head
	[ "$(wc -l < head)" -eq 1 ]
	[[ $(cat head) == *"boards 1–8"* ]]
}
