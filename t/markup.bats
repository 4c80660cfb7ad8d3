#!/usr/bin/env bats
# Text from the stream in markup (plugins/untrusted.h): every header,
# holding markup of every language a writer speaks (HTML, Pango's, PBN's
# strings, LIN's bars, CSV's quotes), is written as text by every writer,
# escaped where it enters the markup; and the PDF's head keeps to its
# lines whatever it is given.

load helper

# The tests want nothing on standard error: under the sanitizers (make
# sanitize), not LeakSanitizer's list of the suppressions it used either.
export LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0

# Markup of each language a writer speaks: an HTML comment, elements
# whose content is not HTML, Pango's bold, an entity already escaped,
# PBN's quote, backslash and bracket, LIN's bar, CSV's quote and comma.
HOSTILE="<!-- <script>alert(1)</script> <xmp> <style> <b>bold</b> &amp; \"q\" 's \\ ] | , x"
# ... escaped for HTML, once
HOSTILE_HTML="&lt;!-- &lt;script&gt;alert(1)&lt;/script&gt; &lt;xmp&gt; &lt;style&gt; &lt;b&gt;bold&lt;/b&gt; &amp;amp; &quot;q&quot; &#39;s \\ ] | , x"
# Pango's markup that Pango would take, short enough to be shown whole
SHORT='<b>bold</b> <i>&amp;</i> <span foreground="red">x</span>'
# ... as a PBN string: '"' and '\' after a backslash
HOSTILE_PBN="<!-- <script>alert(1)</script> <xmp> <style> <b>bold</b> &amp; \\\"q\\\" 's \\\\ ] | , x"

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

# formats: every writer dl-fmt has
formats() {
	dl-fmt --list | awk 'NR > 1 { print $1 }'
}

# pdf_words PDF: the size of page 1 and the box of each of its words
pdf_words() {
	pdftotext -f 1 -l 1 -bbox "$1" - | awk -F'"' '
	    /<page / { print "page", $2, $4 }
	    /<word / { print "word", $2, $4, $6, $8 }'
}

# no_overlap WORDS: in pdf_words' output, every word inside the page,
# and no word of the head (above the first board's number, the only
# words over 30 points high) intersecting another word
no_overlap() {
	awk '
	    $1 == "page" { w = $2; h = $3; top = h; next }
	    {
		n++; x0[n] = $2; y0[n] = $3; x1[n] = $4; y1[n] = $5
		if ($5 - $3 > 30 && $3 < top) top = $3
		if ($2 < 0 || $3 < 0 || $4 > w || $5 > h) {
			print "word " n " off the page: " $0; bad = 1
		}
	    }
	    END {
		for (i = 1; i <= n; i++) {
			if (y1[i] > top) continue
			for (j = 1; j <= n; j++)
				if (j != i && x0[i] < x1[j] - 0.01 && x0[j] < x1[i] - 0.01 &&
				    y0[i] < y1[j] - 0.01 && y0[j] < y1[i] - 0.01) {
					print "words overlap: " i " and " j; bad = 1
				}
		}
		exit bad
	    }' "$1"
}

@test "every header with markup, through every writer: escaped where markup takes it, elsewhere as it is" {
	headers=()
	# (#D: and #U: are a date and an address or nothing: below)
	for k in A C E F G H I J K L M N O Q R S T V W X Y Z; do
		headers+=("#$k: $HOSTILE")
	done
	stream hostile.tso "${headers[@]}"
	stream plain.tso
	# the table cards say when they have no address to print as a code
	stream hostile-url.tso "${headers[@]}" '#U: https://club.example/r/1'
	stream plain-url.tso '#U: https://club.example/r/1'
	[ "$(formats | wc -l)" -ge 18 ]
	for f in $(formats); do
		in=hostile.tso plain=plain.tso
		[ "$f" != tablecards ] || in=hostile-url.tso plain=plain-url.tso
		run --separate-stderr dl-fmt -f "$f" -p "hostile-$f" < "$in"
		[ "$status" -eq 0 ] || { echo "$f: status $status: $stderr" >&2; return 1; }
		# not a word on the terminal (Pango warned of markup it refused)
		[ -z "$stderr" ] || { echo "$f: $stderr" >&2; return 1; }
		dl-fmt -f "$f" -p "plain-$f" < "$plain"
	done

	# html: in the title and every page's head, escaped once (the
	# "&amp;" given is "&amp;amp;"); no markup comes from the stream
	grep -qxF "<title>$HOSTILE_HTML</title>" hostile-html.html
	grep -qxF "<header class=\"head\"><h1 class=\"event\">$HOSTILE_HTML</h1><span class=\"date\">$HOSTILE_HTML</span><span class=\"range\">Boards 1&#8211;6</span></header>" \
	    hostile-html.html
	grep -qxF "<header class=\"head\"><div class=\"event\">$HOSTILE_HTML</div><span class=\"date\">$HOSTILE_HTML</span><span class=\"range\">Boards 7&#8211;8</span></header>" \
	    hostile-html.html
	[ "$(grep -cF "$HOSTILE_HTML" hostile-html.html)" -eq 3 ]
	run grep -c '<!--\|<script\|<xmp\|<b>bold' hostile-html.html
	[ "$output" = 0 ]
	[ "$(grep -c '<style>' hostile-html.html)" -eq "$(grep -c '<style>' plain-html.html)" ]
	# the same file as without the headers, the escaped text aside
	html=$(< hostile-html.html)
	html=${html//"$HOSTILE_HTML"/Hand record}
	html=${html//'<span class="date">Hand record</span>'/}
	diff <(printf '%s\n' "$html") plain-html.html

	# pdf: drawn as text, not read as Pango's markup (the head cuts
	# values this long: the short ones below are whole); the title as
	# given
	pdftotext -f 1 -l 1 hostile-pdf.pdf - > text
	grep -qF '<!-- <script>alert(1)' text
	[ "$(pdfinfo hostile-pdf.pdf | sed -n 's/^Title: *//p')" = "$HOSTILE" ]
	for k in I S T; do
		stream short-$k.tso "#$k: $SHORT"
		dl-fmt -f pdf -p short-$k < short-$k.tso 2> err
		[ ! -s err ]
		want=$SHORT
		[ $k = T ] && want="dealt ${SHORT:0:10}"
		# the event may wrap to a second line
		pdftotext -f 1 -l 1 short-$k.pdf - | tr '\n' ' ' | grep -qF "$want" ||
		    { echo "#$k: no \"$want\" in the PDF" >&2; return 1; }
	done

	# the table cards: the event and site drawn as text, the title as
	# given
	pdftotext -f 1 -l 1 hostile-tablecards.cards.pdf - > text
	grep -qF '<!-- <script>alert(1)' text
	[ "$(pdfinfo hostile-tablecards.cards.pdf | sed -n 's/^Title: *//p')" = "Table cards: $HOSTILE" ]

	# pbn: each tag's string escaped as PBN says, and read back as it was
	grep -qxF "[Event \"$HOSTILE_PBN\"]" hostile-pbn.pbn
	grep -qxF "[Site \"$HOSTILE_PBN\"]" hostile-pbn.pbn
	[ "$(grep -cxF "[Event \"$HOSTILE_PBN\"]" hostile-pbn.pbn)" -eq 8 ]
	dl-read hostile-pbn.pbn > back.tso
	grep -qxF "#I: $HOSTILE" back.tso
	grep -qxF "#S: $HOSTILE" back.tso

	# dlm: the rest of its line is the headline
	for f in dlm dlmblind; do
		grep -qxF "Headline=$HOSTILE" "hostile-$f.dlm"
		diff <(grep -v '^Headline=' "hostile-$f.dlm") <(grep -v '^Headline=' "plain-$f.dlm")
	done

	# tso: the stream's headers, byte for byte (#A: belongs to analysed
	# streams, which it does not write)
	diff <(grep '^#' hostile-tso.tso) \
	    <(grep '^#' hostile.tso | grep -v '^#A: ')

	# every other writer takes no text from the stream: the same bytes
	for f in $(formats); do
		case $f in html | pdf | tablecards | pbn | dlm | dlmblind | tso) continue ;; esac
		cmp hostile-"$f".* plain-"$f".*
	done
}

@test "#D: is a date or nothing: markup there is refused before any writer" {
	stream bad.tso '#D: <b>2026</b>'
	refuses 1 "dl-fmt: line 2: header #D: not YYYY.MM.DD (PBN's form, ? for a part not known)" \
	    dl-fmt -f html < bad.tso
}

@test "#U: is an address or nothing: markup there is refused before any writer" {
	stream bad.tso '#U: https://club.example/<script>'
	refuses 1 "dl-fmt: line 2: header #U: '<' at byte 22 is not a character of an address (write it %3C)" \
	    dl-fmt -f html,pdf,tablecards -p bad < bad.tso
	stream bad.tso '#U: javascript:alert(1)'
	refuses 1 "dl-fmt: line 2: header #U: not an http:// or https:// address" \
	    dl-fmt -f html < bad.tso
}

# bats test_tags=browser
@test "html: #T: <!-- hides no board; the day is escaped, as text" {
	stream t.tso '#T: <!--<!--<!--'
	dl-fmt -f html,pdf -p t < t.tso
	grep -qF '<span class="date">dealt &lt;!--&lt;!--&lt;!</span>' t.html
	run grep -c '<!--' t.html
	[ "$output" = 0 ]
	# every board is there, in the DOM Chromium builds
	chromium --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/chromium-profile" --dump-dom "file://$PWD/t.html" \
	    2> /dev/null > dom.html
	[ "$(grep -c '<section class="board"' dom.html)" -eq 8 ]
	pdftotext -f 1 -l 1 t.pdf - | grep -qF 'dealt <!--<!--<!'

	stream s.tso '#T: <script>alert(1)</script>'
	dl-fmt -f html -p s < s.tso
	grep -qF '<span class="date">dealt &lt;script&gt;al</span>' s.html
	run grep -c '<script' s.html
	[ "$output" = 0 ]
}

@test "the day of #T: is its first ten characters: a character is never cut" {
	# ten bytes end in the middle of the e acute
	stream cut.tso "$(printf '#T: 2026-11-2\303\251T19:30:00Z')"
	run --separate-stderr dl-fmt -f html,pdf -p cut < cut.tso
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	grep -qF "$(printf '<span class="date">dealt 2026-11-2\303\251</span>')" cut.html
	pdftotext cut.pdf - | grep -qF "$(printf 'dealt 2026-11-2\303\251')"
}

@test "what a line may not hold never reaches a writer; line separators are spaces" {
	# the host refuses control characters and bytes that are not UTF-8
	for bad in '\033[31m' '\377' '\302\205' '\342\200\256'; do
		stream bad.tso "$(printf "#I: a${bad}b")"
		refuses 1 'dl-fmt: line 2: header #I: is not one line of valid UTF-8 text' \
		    dl-fmt -f html,pdf -p bad < bad.tso
	done
	# U+2028 and U+2029 are text to the host, but would break the head
	stream ls.tso "$(printf '#I: a\342\200\250b\342\200\251c')"
	run --separate-stderr dl-fmt -f html,pdf -p ls < ls.tso
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	grep -qF '<title>a b c</title>' ls.html
	grep -qF '<h1 class="event">a b c</h1>' ls.html
	# the PDF draws what it draws for spaces
	stream spaces.tso '#I: a b c'
	dl-fmt -f pdf -p spaces < spaces.tso
	diff <(pdftotext -bbox ls.pdf - | grep '<word') <(pdftotext -bbox spaces.pdf - | grep '<word')
}

@test "should a control character or a byte that is not UTF-8 get through: a space, U+FFFD, the rest shown" {
	# past the host's checks (t/helpers/rawtext): an escape, a lone
	# 0xff, a character cut short at the end; a surrogate (three bytes
	# that begin no character); in #T:, a cut made after a bad byte
	fffd=$(printf '\357\277\275')
	run --separate-stderr "$HELPERS/rawtext" html,pdf r "$(printf 'a\033b\377c<\303')" \
	    "$(printf '#S: s\001\355\240\200t')" < "$BATS_FILE_TMPDIR/records"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	grep -qxF "<title>a b${fffd}c&lt;${fffd}</title>" r.html
	grep -qF "<h1 class=\"event\">a b${fffd}c&lt;${fffd}</h1><span class=\"date\">s ${fffd}${fffd}${fffd}t</span>" r.html
	# Pango drew them, cairo wrote its title
	pdftotext -f 1 -l 1 r.pdf - > text
	grep -qF "a b${fffd}c<${fffd}" text
	grep -qF "s ${fffd}${fffd}${fffd}t" text
	[ "$(pdfinfo r.pdf | sed -n 's/^Title: *//p')" = "a b${fffd}c<${fffd}" ]

	run --separate-stderr "$HELPERS/rawtext" html,pdf t '' \
	    "$(printf '#T: \360\237\202\241\3772345678\0339Z')" < "$BATS_FILE_TMPDIR/records"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	grep -qF "$(printf '<span class="date">dealt \360\237\202\241%s2345678 </span>' "$fffd")" t.html
	pdftotext -f 1 -l 1 t.pdf - | grep -qF "$(printf 'dealt \360\237\202\241%s2345678' "$fffd")"
}

@test "pdf: a 500-byte event and site are cut to the head's lines, overlapping nothing, on the paper" {
	long=$(printf 'Championship %.0s' $(seq 40))
	long=${long:0:500}
	site="$HOSTILE $long"
	stream long.tso "#I: $long" "#S: ${site:0:500}" '#D: 2026.01.02'
	stream event.tso "#I: $long"
	for paper in a4 letter; do
		for s in long event; do
			PAPERSIZE=$paper dl-fmt -f pdf < $s.tso > $s-$paper.pdf
			pdf_words $s-$paper.pdf > words
			no_overlap words
			# cut on the paper (with an ellipsis, after two
			# lines), the text a reader selects or searches is the
			# whole event; the page's range of boards is whole
			pdftotext -f 1 -l 1 $s-$paper.pdf - | tr '\n' ' ' > text
			grep -qF "$long" text
			grep -qF 'Boards 1–6' text
		done
		# the site's start is there, as text
		pdftotext -f 1 -l 1 long-$paper.pdf - | grep -qF '<!-- <script>'
		# the title keeps the whole event
		[ "$(pdfinfo long-$paper.pdf | sed -n 's/^Title: *//p')" = "$long" ]
	done
	# a hostile event and site, each too long to sit beside the other
	stream both.tso "#I: $HOSTILE" "#S: $HOSTILE"
	dl-fmt -f pdf < both.tso > both.pdf
	pdf_words both.pdf > words
	no_overlap words
}
