#!/usr/bin/env bats
# The PDF hand record's layout (plugins/pdf.c), read back from the file
# with pdftotext -bbox: every word on the paper, inside the margins, no two
# words overlapping, every word of a board inside that board's box, the
# head's text shown whole (not hidden behind an ellipsis), and no hand
# drawn smaller than the legible minimum, whatever the event, site and
# date (long, short, Latin, Greek, Hebrew, Arabic, Chinese), the paper and the
# deals (a 13-card suit, par lines of three contracts).

load helper

# The writer's geometry the checks rebuild the boards' boxes from: the
# paper's margins (12 mm), the gap between boards (3 mm), a board's
# padding (its number's left edge is 7 points in, its top 4 down, at six
# and four boards a page; 1.8 times that at one), the footer (16 points
# above the bottom margin).
MARGIN=34.0157
GAP=8.50394
# The smallest size a hand is drawn in (points): docs/hand-records.md
HAND_MIN=8

# Sixteen boards with their analysis, as dl-dd wrote them for dl-seed
# --hex 1123456789abcdef0123456789abcdef01234567 boards 1-600, each
# numbered here as a board of the same dealer and vulnerability (one of
# the same number modulo 16): 1, 10, 12, 15 and 16 are 401, 282, 204, 111
# and 432, whose par has three contracts; 3 is made by hand (East holds
# thirteen spades, West ten clubs from the jack) and analysed by dl-dd.
records() {
	cat <<-'EOF'
	1 0133202320003101213021133112233213003102223230211010 77468558756746855875 -100 3Cx-NS-1,2Sx-NS-1,2Nx-N-1
	2 3013033132232203131122201130010300323322011201120210 75689576547578957654 110 3C-NS
	3 1111111111111000000022222200000022223332223333333333 00dd50d007d0dd60d007 1520 7N-S
	4 1013123302313221103000220332023302100221023131131210 639937a44a638937a44a -500 5Dx-NS-2,5Hx-N-2
	5 3023322103301110220200200012223310131102213131302133 649536847a659536847a -130 4C-EW
	6 0002032121023323210110332100101320312123332103210123 68475647687867564768 110 2S-NS
	7 1120213313130223203223021030230111013210333002220110 54747795965474779596 -140 1S-EW+2
	8 1112310323020003201123312301003021032322130231312102 76686577577668657757 90 2D-NS,1N-NS
	9 1123233112030200101121213001022223032000103223331133 a49b428429948a428429 430 4N-N
	10 3113120010202312302222213102323133300032020013301111 66645776886664577688 -90 1C-EW+1,1D-EW+1,1N-EW
	11 1232001320211010332102103113202210233103133203213200 23242b9a9b23242b9a9b -460 3N-EW+2
	12 1002030312220200203032211133121132012323330130012131 3a933933aa3a933933aa 100 5Cx-EW-1,5Dx-EW-1,4Nx-EW-1
	13 1033210021200023131113030120221320310133122213302320 68588448456858844845 110 2S-NS
	14 1323300020301131321301101213203120232331000120321222 01015dbdc801015dbdc8 -1520 7N-EW
	15 1210003200132103212013312302121001320131302320313232 68475758686747565867 100 3Cx-E-1,3Hx-EW-1,2Nx-E-1
	16 1102101302112100233223132120030322133122100013330230 77899364447789936444 110 1C-NS+2,1D-NS+2,1H-NS+1
	EOF
}

# stream FILE HEADER...: the sixteen analysed boards with these headers
stream() {
	local file=$1
	shift
	{
		echo '#P: dl/1 deals+dd'
		[ $# -eq 0 ] || printf '%s\n' "$@"
		echo '#B: 1-16'
		echo '#A: dds 2.9.0'
		records
	} > "$file"
}

# layout_ok PDF [WHOLE]: on every page, every word inside the margins (by
# a point at most), no two words overlapping, the head's words above the
# first board, every other word but the footer's inside one board's box,
# and every word of the head shown whole (unless WHOLE is 0).  A word's
# box is pdftotext's from the top of its line down by the font's ascent
# and descent (DejaVu Sans: 0.928 + 0.236 em of pdftotext's 1.551 em),
# the box of a line as Pango lays it out; two boxes overlap when they
# share more than 0.75 points across (pdftotext makes a word of each
# letter of Hebrew or Arabic, its box the letter's advance, which the
# shaping's kerning closes by half a point).  A board's box is rebuilt
# from its number (the only words over 30 points high).  PER (6, 4 or 1)
# says the boards a page the PDF was written with: two columns, or one.
# Every pair of words is weighed, as by comparing each with each, but
# through a grid of 20-point cells: a word is listed in each cell its box
# touches, and a pair in the one cell that holds the corner where their
# boxes would start to share (the greater x0, the greater y0), which lies
# in both boxes when they overlap; pairs in no common cell cannot overlap.
layout_ok() {
	local whole=${2:-1} per=${PER:-6}
	pdftotext -bbox "$1" - | awk -F'"' -v m="$MARGIN" -v gap="$GAP" -v whole="$whole" \
	    -v per="$per" '
	    BEGIN { pad = per == 1 ? 1.8 : 1 }
	    /<page / { p++; w[p] = $2; h[p] = $4; next }
	    /<word / {
		n = ++words[p]
		t = $0; sub(/^.*">/, "", t); sub(/<\/word>.*$/, "", t)
		x0[p, n] = $2; y0[p, n] = $4; x1[p, n] = $6
		y1[p, n] = $4 + ($8 - $4) * 1.164 / 1.551
		ht[p, n] = $8 - $4; text[p, n] = t
		if ($8 - $4 > 30) {
			nb[p]++; bx[p, nb[p]] = $2 - 7 * pad; by[p, nb[p]] = $4 - 4 * pad
		}
	    }
	    function fail(msg) { print "page " q ": " msg; bad = 1 }
	    END {
		# a board'"'"'s height: from one row of numbers to the next (the
		# words come column by column or row by row), less the gap;
		# at one a page, down to the footer
		for (q = 1; q <= p; q++)
			for (a = 1; a <= nb[q]; a++)
				for (b = 1; b <= nb[q]; b++)
					if (by[q, b] > by[q, a] + 1 &&
					    (ch == 0 || by[q, b] - by[q, a] - gap < ch))
						ch = by[q, b] - by[q, a] - gap
		if (per == 1)
			ch = h[1] - m - 16 - by[1, 1]
		for (q = 1; q <= p; q++) {
			cw = per == 1 ? w[q] - 2 * m : (w[q] - 2 * m - gap) / 2
			top = by[q, 1]
			for (b = 2; b <= nb[q]; b++)
				if (by[q, b] < top) top = by[q, b]
			foot = h[q] - m - 16
			split("", cell)
			for (i = 1; i <= words[q]; i++)
				for (cx = int(x0[q, i] / 20); cx <= int(x1[q, i] / 20); cx++)
					for (cy = int(y0[q, i] / 20); cy <= int(y1[q, i] / 20); cy++)
						cell[cx, cy] = cell[cx, cy] " " i
			for (i = 1; i <= words[q]; i++) {
				if (x0[q, i] < m - 1 || x1[q, i] > w[q] - m + 1 ||
				    y0[q, i] < m - 1 || y1[q, i] > h[q] - m + 1)
					fail("\"" text[q, i] "\" outside the margins")
				for (cx = int(x0[q, i] / 20); cx <= int(x1[q, i] / 20); cx++)
					for (cy = int(y0[q, i] / 20); cy <= int(y1[q, i] / 20); cy++) {
						k = split(cell[cx, cy], near, " ")
						for (c = 1; c <= k; c++) {
							j = near[c] + 0
							if (j <= i ||
							    int((x0[q, i] > x0[q, j] ? x0[q, i] : x0[q, j]) / 20) != cx ||
							    int((y0[q, i] > y0[q, j] ? y0[q, i] : y0[q, j]) / 20) != cy)
								continue
							if (x0[q, i] < x1[q, j] - 0.75 && x0[q, j] < x1[q, i] - 0.75 &&
							    y0[q, i] < y1[q, j] - 0.01 && y0[q, j] < y1[q, i] - 0.01)
								fail("\"" text[q, i] "\" and \"" text[q, j] "\" overlap")
						}
					}
				if (y0[q, i] < top) {
					if (y1[q, i] > top + 0.01)
						fail("\"" text[q, i] "\" of the head runs into the boards")
					# shown whole: 0.25 em a character at least
					# (an ellipsis hides text its box lacks room for)
					s = text[q, i]; gsub(/&[a-z]+;/, "x", s)
					gsub(/[\200-\277]/, "", s)
					if (whole && x1[q, i] - x0[q, i] < 0.25 * ht[q, i] / 1.551 * length(s))
						fail("\"" text[q, i] "\" of the head not shown whole")
					continue
				}
				if (y0[q, i] >= foot)
					continue
				inside = 0
				for (b = 1; b <= nb[q]; b++)
					if (x0[q, i] >= bx[q, b] - 0.01 && x1[q, i] <= bx[q, b] + cw + 0.01 &&
					    y0[q, i] >= by[q, b] - 0.01 && y1[q, i] <= by[q, b] + ch + 0.01)
						inside = 1
				if (!inside)
					fail("\"" text[q, i] "\" in no board'"'"'s box")
			}
		}
		if (ch <= 0) { print "no board'"'"'s height"; bad = 1 }
		exit bad
	    }'
}

# head_text PDF: the words of page 1 above its first board, on one line
head_text() {
	pdftotext -f 1 -l 1 -bbox "$1" - | awk -F'"' '
	    /<word / {
		t = $0; sub(/^.*">/, "", t); sub(/<\/word>.*$/, "", t)
		n++; y[n] = $4; word[n] = t
		if ($8 - $4 > 30 && (top == "" || $4 < top)) top = $4
	    }
	    END {
		for (i = 1; i <= n; i++)
			if (y[i] < top) printf "%s%s", k++ ? " " : "", word[i]
		print ""
	    }' | sed 's/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&apos;/'"'"'/g'
}

# bats test_tags=slow
@test "pdf head: event, site and date of every kind, on A4 and Letter: nothing overlaps or leaves the paper, the whole of them shown" {
	long=$(printf 'Championship %.0s' $(seq 40))
	events=(
	    'Pairs'
	    'Monday Evening Duplicate'
	    'Spring Swiss Teams, Round 3'
	    'Riverside Bridge Club Autumn Congress: Open Pairs Championship, Final Session'
	    'Πανελλήνιο Πρωτάθλημα Ομάδων, Γύρος 3'
	    'אליפות ישראל בברידג׳ לזוגות, סבב שלישי'
	    'بطولة الجسر العربية للفرق، الجولة الثالثة'
	    '俱乐部双人赛 第三轮'
	)
	sites=('' 'Riverside Bridge Club' 'Αθλητικό Κέντρο Αθηνών' 'מועדון הברידג׳ תל אביב' 'نادي الجسر في القاهرة' '上海桥牌俱乐部')
	for paper in a4 letter; do
		for event in "${events[@]}"; do
			for site in "${sites[@]}"; do
				headers=("#I: $event")
				[ -z "$site" ] || headers+=("#S: $site" '#D: 2026.04.12')
				stream s.dd "${headers[@]}"
				PAPERSIZE=$paper dl-fmt -f pdf < s.dd > s.pdf
				layout_ok s.pdf || { echo "$paper, \"$event\", \"$site\"" >&2; return 1; }
				# every word of the head, whole, and nothing else
				head=$(head_text s.pdf)
				want="$event Boards 1–6"
				[ -z "$site" ] || want="$event $site, 2026.04.12 Boards 1–6"
				[ "$(tr -d ' ' <<< "$head" | fold -w1 | LC_ALL=C sort | tr -d '\n')" = \
				    "$(tr -d ' ' <<< "$want" | fold -w1 | LC_ALL=C sort | tr -d '\n')" ] ||
				    { echo "$paper: head \"$head\", not \"$want\"" >&2; return 1; }
			done
		done
		# 500 bytes of event and of site: cut, on the paper, overlapping
		# nothing; the date stays
		stream s.dd "#I: ${long:0:500}" "#S: ${long:0:500}" '#D: 2026.04.12'
		PAPERSIZE=$paper dl-fmt -f pdf < s.dd > s.pdf
		# (cut with an ellipsis, the text is read back whole: not
		# all of it is shown)
		layout_ok s.pdf 0
		pdftotext -bbox s.pdf - | grep -qF '>2026.04.12</word>'
		# two lines of event, one of site and date
		pdftotext -f 1 -l 1 -bbox s.pdf - |
		    awk -F'"' '/<word / { if ($8 - $4 > 30) exit; print $4 }' | sort -u > lines
		[ "$(wc -l < lines)" -eq 4 ] # the range is 3 points lower than the event
	done
}

# hand_sizes PDF: the size in points of each line of a hand (a suit
# symbol followed by a rank or a void's dash, up to the first word that is
# neither), from its words' height (pdftotext's box is 1.551 em of DejaVu
# Sans).  pdftotext may make one line of several level with each other:
# compass labels ("W 14 E") before East's suit or after it, West's suit
# and East's; each suit in it is counted.  It may also make one word of
# ranks the narrow gaps part ("AQ9653"): such a word is the suit's.
hand_sizes() {
	pdftotext -bbox-layout "$1" - | awk -F'"' '
	    /<line / { n = 0; next }
	    /<word / {
		t = $0; sub(/^.*">/, "", t); sub(/<\/word>.*$/, "", t)
		word[++n] = t; size[n] = ($8 - $4) / 1.551; x0[n] = $2; x1[n] = $6
	    }
	    /<\/line>/ {
		for (k = 1; k < n; k++) {
			if (word[k] !~ /^(♠|♥|♦|♣)$/ || word[k + 1] !~ /^(([AKQJ2-9]|10)+|—)$/)
				continue
			# the words of the suit, up to a gap wider than a space
			least = size[k]; line = word[k]
			for (i = k + 1; i <= n && word[i] ~ /^(([AKQJ2-9]|10)+|—)$/ &&
			    x0[i] - x1[i - 1] < size[k] * 0.5; i++) {
				if (size[i] < least) least = size[i]
				line = line " " word[i]
			}
			printf "%.2f %s\n", least, line
			k = i - 1
		}
	    }'
}

# suit_block PDF SYMBOL RANK RANK: the suit of page 1 that begins SYMBOL
# and those two ranks,
# read from where its words are rather than in pdftotext's order (which
# may put a compass label level with the suit between its lines): its
# words in its hand's column (under 88 points wide) from its first line
# down to the next, joined, then the number of lines they are on
suit_block() {
	pdftotext -f 1 -l 1 -bbox "$1" - | awk -F'"' -v sym="$2" -v r1="$3" -v r2="$4" '
	    /<word / { t = $0; sub(/^.*">/, "", t); sub(/<\/word>.*$/, "", t)
		n++; w[n] = t; x0[n] = $2; y0[n] = $4; x1[n] = $6; y1[n] = $8 }
	    END {
		for (i = 1; i < n - 1; i++)
			if (w[i] == sym && w[i + 1] == r1 && w[i + 2] == r2)
				break
		x = x0[i]; y = y0[i]; hg = y1[i] - y0[i]
		# its lines (a wrapped suit'"'"'s are a line of the hand'"'"'s
		# font apart, under its box'"'"'s 1.5 times), left to right and
		# top to bottom as they come
		for (j = 1; j <= n; j++)
			if (x0[j] >= x - 0.5 && x1[j] <= x + 88 && y0[j] >= y - 0.5 &&
			    y0[j] < y + 1.5 * hg) {
				row = int((y0[j] - y) / hg + 0.5)
				text[row] = text[row] w[j]
				if (row + 1 > lines) lines = row + 1
			}
		for (r = 0; r < lines; r++) out = out text[r]
		print out, lines
	    }'
}

# bats test_tags=slow
@test "pdf boards: a long suit wraps rather than shrink a hand below the legible minimum; par lines of three contracts stay in their box" {
	for paper in a4 letter; do
		for event in 'Pairs' 'Riverside Bridge Club Autumn Congress: Open Pairs Championship, Final Session'; do
			stream s.dd "#I: $event" '#S: Riverside Bridge Club' '#D: 2026.04.12'
			PAPERSIZE=$paper dl-fmt -f pdf < s.dd > s.pdf
			layout_ok s.pdf
			hand_sizes s.pdf > sizes
			# 16 boards, four hands of four suits
			[ "$(wc -l < sizes)" -eq 256 ]
			awk -v min="$HAND_MIN" '$1 < min - 0.05 { print "too small: " $0; bad = 1 }
			    END { exit bad }' sizes
			# East's thirteen spades and West's ten clubs of board 3,
			# each on two lines, the ranks whole and in order
			pdftotext -f 1 -l 1 s.pdf - | tr -d ' ' > text
			[ "$(suit_block s.pdf ♠ A K)" = '♠AKQJ1098765432 2' ]
			[ "$(suit_block s.pdf ♣ J 10)" = '♣J1098765432 2' ]
			run ! grep -qx '♠AKQJ1098765432' text
			run ! grep -qx '♣J1098765432' text
			# every par contract on the page, none cut
			pdftotext s.pdf - | tr -d ' \n' > flat
			for par in 'Par:3♣×−1or2♠×−1byN-Sor2NT×−1byNorth,−100' \
			    'Par:1♣+1or1♦+1or1NTbyE-W,+90' 'Par:5♣×−1or5♦×−1or4NT×−1byE-W,−100' \
			    'Par:3♣×−1byEastor3♥×−1byE-Wor2NT×−1byEast,−100' \
			    'Par:1♣+2or1♦+2or1♥+1byN-S,+110'; do
				grep -qF "$par" flat || { echo "$paper: no $par" >&2; return 1; }
			done
			run ! grep -F '…' flat
		done
	done
}

# pixel PDF PAGE X Y: the colour at X, Y (points) of a page, as "R G B"
pixel() {
	pdftoppm -r 144 -f "$2" -l "$2" -x "$(awk -v x="$3" 'BEGIN { printf "%d", x * 2 }')" \
	    -y "$(awk -v y="$4" 'BEGIN { printf "%d", y * 2 }')" -W 1 -H 1 "$1" | tail -c 3 |
	    od -An -tu1 | awk '{ print $1, $2, $3 }'
}

@test "pdf page: its own boards in its head, the fingerprint in words at its foot, the vulnerable seats shaded and the dealer marked on the compass" {
	stream s.dd '#I: Pairs'
	dl-fmt -f pdf < s.dd > s.pdf
	fp=$(grep -v '^#' s.dd | cut -d' ' -f1,2 | sha256sum | cut -c1-16)
	for page in 1 2 3; do
		pdftotext -f $page -l $page s.pdf - > text
		range=$(sed -n "${page}p" <<< $'Boards 1–6\nBoards 7–12\nBoards 13–16')
		grep -qxF "$range" text
		grep -qx "Set fingerprint ${fp:0:4} ${fp:4:4} ${fp:8:4} ${fp:12:4} · hand record by dl [0-9.]*" text
	done
	# boards 1 to 4: dealer North, East, South, West; vulnerable none,
	# N-S, E-W, all.  At the left of the compass's N (the N whose centre
	# is the board's): black (the dealer's disc), or the red shade of a
	# vulnerable side, or white
	pdftotext -f 1 -l 1 -bbox s.pdf - | awk -F'"' -v m="$MARGIN" -v gap="$GAP" '
	    /<word / { t = $0; sub(/^.*">/, "", t); sub(/<\/word>.*$/, "", t)
		if ($8 - $4 > 30) { b++; bx[b] = $2 - 7; by[b] = $4 - 4; next }
		if (t == "N") { n++; nx[n] = ($2 + $6) / 2; ny[n] = $4 } }
	    /<page / { cw = ($2 - 2 * m - gap) / 2 }
	    END {
		for (i = 1; i <= 4; i++)
			for (k = 1; k <= n; k++)
				if (nx[k] - bx[i] - cw / 2 < 1 && bx[i] + cw / 2 - nx[k] < 1 &&
				    ny[k] > by[i] && ny[k] < by[i] + 120)
					print nx[k] - 4.2, ny[k] + 4.1
	    }' > at
	[ "$(wc -l < at)" -eq 4 ]
	colours=()
	while read -r x y; do colours+=("$(pixel s.pdf 1 "$x" "$y")"); done < at
	kind() {
		awk '$1 < 60 && $2 < 60 && $3 < 60 { print "dealer"; next }
		    $1 > 220 && $2 > 150 && $2 < 210 && $3 > 150 && $3 < 210 { print "vulnerable"; next }
		    $1 > 240 && $2 > 240 && $3 > 240 { print "white"; next }
		    { print "other " $0 }' <<< "$1"
	}
	[ "$(kind "${colours[0]}")" = dealer ]
	[ "$(kind "${colours[1]}")" = vulnerable ]
	[ "$(kind "${colours[2]}")" = white ]
	[ "$(kind "${colours[3]}")" = vulnerable ]
}

@test "pdf: a character no font here draws is said on standard error, not printed unseen as a box" {
	# Chinese is drawn (fonts-noto-cjk, which make installs); a character
	# of Unicode's private use area has no glyph in any font dl installs
	stream s.dd '#I: 俱乐部双人赛'
	run -0 --separate-stderr dl-fmt -f pdf < s.dd
	[ -z "$stderr" ]
	stream s.dd $'#I: Club \xee\x80\x80 night'
	run -0 --separate-stderr dl-fmt -f pdf < s.dd
	want="dl-fmt: pdf: no font here draws every character of the event, site or date: they print as boxes (a font for their script draws them, such as Debian's fonts-noto-cjk for Chinese, Japanese and Korean)"
	[ "$stderr" = "$want" ]
	# the site's line, and said once for a document of many pages
	stream s.dd '#I: Club night' $'#S: \xee\x80\x80' '#D: 2026.04.12'
	run -0 --separate-stderr dl-fmt -f pdf < s.dd
	[ "$stderr" = "$want" ]
}

@test "--paper sets the hand records' paper, whatever PAPERSIZE says; another name is a usage error" {
	stream s.dd '#I: Club night'
	PAPERSIZE=a4 dl-fmt --paper letter -f pdf < s.dd > letter.pdf
	PAPERSIZE=letter dl-fmt --paper A4 -f pdf < s.dd > a4.pdf
	[ "$(pdfinfo letter.pdf | sed -n 's/^Page size: *//p')" = "612 x 792 pts (letter)" ]
	[ "$(pdfinfo a4.pdf | sed -n 's/^Page size: *//p')" = "595.276 x 841.89 pts (A4)" ]
	PAPERSIZE=a4 dl-fmt --paper letter -f html < s.dd > letter.html
	grep -q 'size: letter' letter.html
	refuses 2 "dl-fmt: --paper legal: a4 or letter" dl-fmt --paper legal -f pdf
}

@test "pdf: tagged for a screen reader: the event the heading, each board a section headed by its number, its text in reading order" {
	stream s.dd '#I: Club night' '#S: Riverside Bridge Club' '#D: 2026.04.12'
	dl-fmt -f pdf < s.dd > s.pdf
	# marked as tagged (cairo 1.16 leaves that out: mark_tagged adds it),
	# its tree one Document as poppler checks it, without a warning
	[ "$(pdfinfo s.pdf | sed -n 's/^Tagged: *//p')" = yes ]
	run -0 --separate-stderr pdfinfo -struct s.pdf
	[ "$stderr" = "" ]
	[ "${lines[0]}" = Document ]
	[ "$(grep -vc '^  ' <<< "$output")" -eq 1 ]
	# a section's children are indented under it, under the Document
	tags=$(sed -e 1d -e 's/^  //' -e 's/ (block)$//' <<< "$output")
	# one heading; a section for each of the 16 boards, its number an H2,
	# then eight paragraphs: dealer and vulnerability, North, West, East,
	# South, the compass's points, the tricks, the par
	[ "$(grep -cx H1 <<< "$tags")" -eq 1 ]
	[ "$(grep -cx Sect <<< "$tags")" -eq 16 ]
	[ "$(awk '$0 == "Sect" { if (s != "") print s; s = "" } /^  / { s = s $1 " " }
	    END { print s }' <<< "$tags" | sort | uniq -c)" = "     16 H2 P P P P P P P P " ]
	# the page heads and feet, outside the sections: the first page's
	# head after its H1, the two others' event and head, each page's foot
	[ "$(grep -cx P <<< "$tags")" -eq $((1 + 2 * 2 + 3)) ]
	[ "$(head -2 <<< "$tags")" = "H1
P" ]
}

# sizes PDF: the hand lines' sizes (hand_sizes), the most common first
# with its count, then the least: "10.00 251 8.00"
sizes() {
	hand_sizes "$1" | awk '{ n[$1]++; if (least == "" || $1 < least) least = $1 }
	    END { for (s in n) if (n[s] > most) { most = n[s]; mode = s }
		print mode, most, least }'
}

# tricks_type PDF: the boards whose trick table has its caption, the size
# of the table's type (its strains' row, "NT", from the words' height as
# hand_sizes has it) and of the caption, each size once: "16 9.00 5.75"
tricks_type() {
	pdftotext -bbox "$1" - | awk -F'"' '
	    /<word / {
		t = $0; sub(/^.*">/, "", t); sub(/<\/word>.*$/, "", t)
		size = sprintf("%.2f", ($8 - $4) / 1.551)
		if (t == "Tricks") { n++; if (!(size in cap)) { cap[size]; c = c (c == "" ? "" : ",") size } }
		if (t == "NT" && !(size in nt)) { nt[size]; s = s (s == "" ? "" : ",") size }
	    }
	    END { print n + 0, s, c }'
}

# bats test_tags=slow
@test "pdf: four and one boards a page on A4 and Letter: a page for each four or each board, its own boards in its head, nothing overlapping or leaving its box, the hands larger" {
	for paper in a4 letter; do
		for per in 4 1; do
			pages=$(( (16 + per - 1) / per ))
			for event in 'Pairs' 'Riverside Bridge Club Autumn Congress: Open Pairs Championship, Final Session' \
			    'אליפות ישראל בברידג׳ לזוגות, סבב שלישי'; do
				stream s.dd "#I: $event" '#S: Riverside Bridge Club' '#D: 2026.04.12'
				dl-fmt --paper "$paper" --per-page "$per" -f pdf < s.dd > s.pdf
				PER=$per layout_ok s.pdf || { echo "$paper, $per a page, \"$event\"" >&2; return 1; }
				[ "$(pdfinfo s.pdf | awk '/^Pages:/ { print $2 }')" -eq "$pages" ]
				# every hand, none under the minimum
				[ "$(hand_sizes s.pdf | wc -l)" -eq 256 ]
				awk -v min="$HAND_MIN" '$1 < min - 0.05 { print "too small: " $0; bad = 1 }
				    END { exit bad }' <(hand_sizes s.pdf)
			done
			# each page: its own boards' numbers, the range in its head,
			# its number of the pages
			for page in $(seq "$pages"); do
				first=$(( (page - 1) * per + 1 ))
				last=$(( first + per - 1 ))
				[ "$last" -le 16 ] || last=16
				if [ "$per" -eq 1 ]; then range="Board $first"; else range="Boards $first–$last"; fi
				pdftotext -f "$page" -l "$page" s.pdf - > text
				grep -qxF "$range" text || { echo "$paper, $per a page: page $page has no $range" >&2; return 1; }
				grep -qF "Page $page of $pages" text
				# (in the order of their numbers: the order pdftotext
				# reads a grid of boards in is its own guess)
				[ "$(pdftotext -f "$page" -l "$page" -bbox s.pdf - |
				    awk -F'"' '/<word / && $8 - $4 > 30 { t = $0; sub(/^.*">/, "", t)
					sub(/<\/word>.*$/, "", t); print t }' | sort -n | paste -sd' ')" = "$(seq -s' ' "$first" "$last")" ]
			done
		done
		# the hands' type: 10 points at six a page, 11.5 at four, 18 at
		# one (the longest suits smaller, to fit their column)
		for per in 6 4 1; do
			dl-fmt --paper "$paper" --per-page "$per" -f pdf < s.dd > s$per.pdf
		done
		read -r six n6 least6 <<< "$(sizes s6.pdf)"
		read -r four n4 least4 <<< "$(sizes s4.pdf)"
		read -r one n1 least1 <<< "$(sizes s1.pdf)"
		[ "$six" = 10.00 ] && [ "$four" = 11.50 ] && [ "$one" = 18.00 ]
		[ "$n6" -ge 200 ] && [ "$n4" -ge 200 ] && [ "$n1" -ge 200 ]
		# at one a page even the longest suit is larger than six a page's type
		awk -v a="$least1" 'BEGIN { exit !(a > 10) }'
		# the trick table under its caption on every board, its type 9
		# points at six a page (it was 8), 11 at four (10.4), 16 at one
		# (14.4), the same on every board; the caption 5.5 at least (8
		# at four, 11 at one; at six as wide as West's column lets it)
		for per in 6 4 1; do
			read -r n type caption <<< "$(tricks_type s$per.pdf)"
			want=$(awk -v per="$per" '$1 == per { print $2 }' <<< $'6 9.00\n4 11.00\n1 16.00')
			[ "$n" -eq 16 ] && [ "$type" = "$want" ] ||
			    { echo "$paper, $per a page: $n captions, type $type, not 16, $want" >&2; return 1; }
			case $per in
			6) awk -v c="$caption" 'BEGIN { exit !(c + 0 >= 5.5 && c !~ /,/) }' ;;
			4) [ "$caption" = 8.00 ] ;;
			1) [ "$caption" = 11.00 ] ;;
			esac
		done
	done
}

@test "pdf: one board a page keeps the structure of six: a section a board, the notes outside it" {
	stream s.dd '#I: Club night' '#S: Riverside Bridge Club' '#D: 2026.04.12'
	dl-fmt --per-page 1 -f pdf < s.dd > s.pdf
	run -0 pdfinfo -struct s.pdf
	tags=$(sed -e 1d -e 's/^  //' -e 's/ (block)$//' <<< "$output")
	[ "$(grep -cx Sect <<< "$tags")" -eq 16 ]
	[ "$(awk '$0 == "Sect" { if (s != "") print s; s = "" } /^  / { s = s $1 " " }
	    END { print s }' <<< "$tags" | sort | uniq -c)" = "     16 H2 P P P P P P P P " ]
	[ "$(pdftotext s.pdf - | grep -cx Notes)" -eq 16 ]
}

@test "--per-page: 6, 4 or 1; another value is a usage error of dl-fmt and dl-deal" {
	refuses 2 "dl-fmt: --per-page 5: must be 6, 4 or 1" dl-fmt --per-page 5 -f pdf
	refuses 2 "dl-fmt: --per-page : must be 6, 4 or 1" dl-fmt --per-page '' -f html
	refuses 2 "dl-fmt-pdf: --per-page four: must be 6, 4 or 1" dl-fmt-pdf --per-page four
	refuses 2 "dl-deal: --per-page 2: must be 6, 4 or 1" dl-deal --per-page 2 -n 4 -f pdf
	# the variable alone, as the tools set it; a value of its own is six
	stream s.dd '#I: Club night'
	[ "$(DL_PER_PAGE=4 dl-fmt -f pdf < s.dd | pdfinfo - | awk '/^Pages:/ { print $2 }')" -eq 4 ]
	[ "$(DL_PER_PAGE=5 dl-fmt -f pdf < s.dd | pdfinfo - | awk '/^Pages:/ { print $2 }')" -eq 3 ]
	# --per-page over the variable; dl-deal too
	[ "$(DL_PER_PAGE=4 dl-fmt --per-page 1 -f pdf < s.dd | pdfinfo - | awk '/^Pages:/ { print $2 }')" -eq 16 ]
	dl-deal --no-analysis --per-page 4 -n 5 -f pdf,html -p d 2> /dev/null
	[ "$(pdfinfo d.pdf | awk '/^Pages:/ { print $2 }')" -eq 2 ]
	[ "$(grep -c '<div class="page">' d.html)" -eq 2 ]
}

# qr_reads PDF PAGE: the text of the QR codes zbarimg finds in the page's
# head (its top 38 mm), rendered at 300 dpi
qr_reads() {
	pdftoppm -r 300 -f "$2" -l "$2" -x 0 -y 0 -W 2600 -H 450 -png "$1" qr
	zbarimg -q --raw qr-*.png 2> /dev/null
	rm -f qr-*.png
}

# bats test_tags=slow
@test "pdf: the hand record's address (#U:) as a QR code on every page's head, with its caption and the address in words; nothing overlaps, no par is cut, at 6, 4 and 1 boards a page on A4 and Letter" {
	short=https://rbc.example/r/1
	club=https://riverside-bridge.example/records/2026-11-24-monday
	long=https://riverside-bridge.example/records/$(printf 'x%.0s' $(seq 159))
	[ ${#long} -eq 200 ]
	for paper in a4 letter; do
		for per in 6 4 1; do
			for event in 'Pairs' 'Riverside Bridge Club Autumn Congress: Open Pairs Championship, Final Session'; do
				for url in "$short" "$club" "$long"; do
					stream s.dd "#I: $event" '#S: Riverside Bridge Club' '#D: 2026.04.12' "#U: $url"
					PAPERSIZE=$paper DL_PER_PAGE=$per dl-fmt -f pdf < s.dd > s.pdf
					# the head's words whole but the event's, which may be cut
					PER=$per layout_ok s.pdf 0 ||
					    { echo "$paper, $per, \"$event\", $url" >&2; return 1; }
					# every par whole, as without the code
					run -1 grep -c '…' <(pdftotext s.pdf - | grep -A1 '^Par')
					pages=$(pdfinfo s.pdf | sed -n 's/^Pages: *//p')
					for page in 1 "$pages"; do
						[ "$(qr_reads s.pdf "$page")" = "$url" ] ||
						    { echo "$paper, $per, page $page: no $url" >&2; return 1; }
					done
				done
				# the caption, and the address beside the site and date
				[ "$(pdftotext -f 1 -l 1 -layout s.pdf - | grep -o 'This hand record')" = 'This hand record' ]
				[ "$(pdftotext -f 1 -l 1 -layout s.pdf - | grep -o 'online after play')" = 'online after play' ]
			done
		done
	done
	stream s.dd '#I: Pairs' '#S: Riverside Bridge Club' '#D: 2026.04.12' "#U: $club"
	dl-fmt -f pdf < s.dd > s.pdf
	# every word of the head, whole, and nothing else (pdftotext parts
	# some words where Pango kerns them: their characters are compared)
	head=$(head_text s.pdf)
	want="Pairs Boards 1–6 This hand record online after play Riverside Bridge Club, 2026.04.12 $club"
	[ "$(tr -d ' ' <<< "$head" | fold -w1 | LC_ALL=C sort | tr -d '\n')" = \
	    "$(tr -d ' ' <<< "$want" | fold -w1 | LC_ALL=C sort | tr -d '\n')" ]
	# the code and the address a link to it, inside the head's paragraph
	run -0 --separate-stderr pdfinfo -struct s.pdf
	[ "$stderr" = "" ]
	[ "$(sed -n 2,4p <<< "$output")" = "  H1 (block)
  P (block)
    Link (inline)" ]
	# no address: no code, no caption, the head as it was
	stream s.dd '#I: Pairs' '#S: Riverside Bridge Club' '#D: 2026.04.12'
	dl-fmt -f pdf < s.dd > s.pdf
	[ "$(qr_reads s.pdf 1)" = "" ]
	head=$(head_text s.pdf)
	want="Pairs Boards 1–6 Riverside Bridge Club, 2026.04.12"
	[ "$(tr -d ' ' <<< "$head" | fold -w1 | LC_ALL=C sort | tr -d '\n')" = \
	    "$(tr -d ' ' <<< "$want" | fold -w1 | LC_ALL=C sort | tr -d '\n')" ]
}
