#!/usr/bin/env bats
# dl-deal, the one-command front end, and make run.

load helper

@test "by default: 32 boards of PBN on standard output, a fresh seed each time" {
	dl-deal > a.pbn
	dl-deal > b.pbn
	[ "$(grep -c '^\[Board ' a.pbn)" -eq 32 ]
	grep -q '^\[Board "32"\]$' a.pbn
	run -1 cmp -s a.pbn b.pbn
	[ "$(wc -l < "$DL_SEED_HISTORY")" -eq 2 ]
}

@test "the event, the time and the generator travel into the files" {
	dl-deal -n 17-20 -f pbn,tso,dlm -p out -i 'Club Pairs, 24 Nov 2026'
	[ "$(grep -c '^\[Event "Club Pairs, 24 Nov 2026"\]$' out.pbn)" -eq 4 ]
	grep -qx 'Headline=Club Pairs, 24 Nov 2026' out.dlm
	run -0 grep '^#' out.tso
	[ "${lines[0]}" = "#P: dl/1 deals" ]
	[[ "${lines[2]}" =~ ^#T:\ 20[0-9-]{8}T[0-9:]{8}Z$ ]]
	[ "${lines[3]}" = "#I: Club Pairs, 24 Nov 2026" ]
	[ "${lines[5]}" = "#B: 17-20" ]
	dl-fmt-pbn < out.tso | cmp - out.pbn
}

@test "--site and --date: where and when the session is played, into the files and the hand record's head" {
	dl-deal -n 2 -f pbn,tso,html -p out -i 'Monday Pairs' --site 'Riverside Hall' \
	    --date 30/11/2026 --no-analysis
	[ "$(grep -c '^\[Site "Riverside Hall"\]$' out.pbn)" -eq 2 ]
	[ "$(grep -c '^\[Date "2026.11.30"\]$' out.pbn)" -eq 2 ]
	run -0 grep -E '^#[SD]: ' out.tso
	[ "$output" = $'#S: Riverside Hall\n#D: 2026.11.30' ]
	# the day played, not the day dealt
	grep -q '<span class="date">Riverside Hall, 2026.11.30</span>' out.html
	run -1 grep -q 'dealt 20' out.html
	# each form a director types, as PBN's
	while read -r typed pbn; do
		dl-deal -n 1 --date "$typed" > d.pbn
		run -0 grep '^\[Date ' d.pbn
		[ "$output" = "[Date \"$pbn\"]" ] || { echo "$typed: $output"; return 1; }
	done <<-'EOF'
	2026-11-30 2026.11.30
	30/11/2026 2026.11.30
	1/2/2026 2026.02.01
	2026.11.30 2026.11.30
	2026.11.?? 2026.11.??
	EOF
}

@test "--site and --date refused: no such day, a form not taken, a site that is no line of text" {
	run -2 dl-deal -n 1 --date 31/02/2026
	[ "$output" = "dl-deal: --date: no such day (read as DD/MM/YYYY, day first)" ]
	# never month first
	run -2 dl-deal -n 1 --date 11/30/2026
	[ "$output" = "dl-deal: --date: no such day (read as DD/MM/YYYY, day first)" ]
	run -2 dl-deal -n 1 --date 2026/11/30
	[ "$output" = "dl-deal: --date: not a date: YYYY-MM-DD, DD/MM/YYYY (day first) or YYYY.MM.DD" ]
	run -2 dl-deal -n 1 --site $'Mill\tLane'
	[ "$output" = "dl-deal: --site: not one line of valid UTF-8 text" ]
	# nothing dealt: no seed used
	[ ! -s "$DL_SEED_HISTORY" ]
}

@test "--record-url: where the hand record is published after play, into the stream's #U:; a bad address refused before dealing" {
	run -2 dl-deal -n 1 --record-url club.example/r/monday
	[ "$output" = "dl-deal: --record-url: not an http:// or https:// address" ]
	run -2 dl-deal -n 1 --record-url 'https://club.example/monday pairs'
	[ "$output" = "dl-deal: --record-url: a space at byte 28 (write it %20)" ]
	# nothing dealt: no seed used
	[ ! -s "$DL_SEED_HISTORY" ]
	dl-deal -n 2 -f tso,pbn -p out -i 'Monday Pairs' --record-url https://club.example/r/monday
	run -0 grep -E '^#[IU]: ' out.tso
	[ "$output" = $'#I: Monday Pairs\n#U: https://club.example/r/monday' ]
	# PBN has no tag for it: Big Deal's file as it was
	run -1 grep -c 'club.example' out.pbn
}

@test "formats come from ./.bigdealrc when not given" {
	printf '[BigDeal]\nformats=lin,csv\n' > .bigdealrc
	dl-deal -n 2 -p s
	[ -f s.lin ]
	[ -f s.csv ]
	[ ! -f s.pbn ]
}

@test "more than 100 boards only with --many" {
	fails dl-deal -n 101
	[ "$output" = "dl-deal: 101 boards: at most 100 without --many" ]
	[ "$(dl-deal -n 150 --many | grep -c '^\[Board ')" -eq 150 ]
}

@test "existing deal files are never overwritten, and nothing is half written" {
	mkdir out
	echo old > out/s.dup
	fails dl-deal -f pbn,dup -p out/s
	[ "$output" = "dl-deal: out/s.dup exists: refusing to overwrite deal files" ]
	[ "$(ls out)" = s.dup ]
	fails dl-deal -n 99-100 -f pbn,dup -p out/t
	[ "$output" = "dl-deal: format dup holds boards up to 99, not board 100: no files written" ]
	[ "$(ls out)" = s.dup ]
}

@test "progress on a terminal when dealing many boards to files" {
	script -qec 'dl-deal -n 20000 --many -f ber -p big' /dev/null > screen
	grep -q 'dl-deal: 20000 of 20000 boards' screen
	[ "$(stat -c %s big.ber)" -eq $((20000 * 52)) ]
	dl-deal -n 20000 --many -f ber -p quiet 2> err
	[ ! -s err ]
}

# unanalysed FILE: a PBN file without the analysis tags and table rows
unanalysed() {
	grep -vE '^\[(DoubleDummyTricks|OptimumScore|ParContract|OptimumResultTable) |^[NESW] +(NT|[SHDC]) +[0-9]+$' "$1"
}

# bats test_tags=slow
@test "--analysis: PBN's tables and par are dl-dd's for the same deals, which are those of the run without it" {
	dl-deal -n 8 -f pbn,tso -p s --analysis
	[ "$(grep -c '^\[DoubleDummyTricks "[0-9a-d]\{20\}"\]$' s.pbn)" -eq 8 ]
	[ "$(grep -c '^\[OptimumScore ' s.pbn)" -eq 8 ]
	[ "$(grep -c '^\[ParContract ' s.pbn)" -eq 8 ]
	# the .tso holds the deals alone, as a deals stream
	[ "$(head -1 s.tso)" = "#P: dl/1 deals" ]
	run -1 grep -q '^#A:' s.tso
	dl-dd -q -j 1 < s.tso | dl-fmt-pbn | cmp - s.pbn
	# the analysis only adds: the rest is the file without it
	dl-fmt-pbn < s.tso > plain.pbn
	run -1 grep -q 'DoubleDummyTricks' plain.pbn
	unanalysed s.pbn | cmp - plain.pbn
}

# bats test_tags=slow
@test "hand records (html, pdf) bring the analysis by default; PBN alone does not" {
	dl-deal -n 4 -f html,pbn,tso -p h
	[ "$(grep -c '<table class="dd">' h.html)" -eq 4 ]
	[ "$(grep -c '<div class="par">' h.html)" -eq 4 ]
	dl-dd -q < h.tso | dl-fmt -f html,pbn -p again
	cmp again.html h.html
	cmp again.pbn h.pbn
	dl-deal -n 4 -f pbn -p alone
	run -1 grep -q 'DoubleDummyTricks' alone.pbn
}

@test "--no-analysis: the hand records and PBN as before, without grid and par" {
	dl-deal -n 4 -f html,pbn,tso -p n --no-analysis
	run -1 grep -q '<table class="dd">\|class="par"' n.html
	run -1 grep -q 'DoubleDummyTricks' n.pbn
	dl-fmt -f html,pbn -p again < n.tso
	cmp again.html n.html
	cmp again.pbn n.pbn
}

# bats test_tags=slow
@test "--many analyses only when asked, and says so" {
	dl-deal -n 101-104 --many -f html,tso -p m 2> err
	run -1 grep -q '<table class="dd">' m.html
	[ "$(cat err)" = "dl-deal: --many: the hand records go without the analysis (--analysis solves every board)" ]
	dl-fmt -f html < m.tso | cmp - m.html
	dl-deal -n 101-102 --many --no-analysis -f html -p quiet 2> err
	[ ! -s err ]
	[ "$(dl-deal -n 2 --many --analysis -f pbn | grep -c '^\[DoubleDummyTricks ')" -eq 2 ]
}

# bats test_tags=slow
@test "the analysis shows its progress on a terminal, and nothing elsewhere" {
	script -qec 'dl-deal -n 4 -f html -p p' /dev/null > screen
	grep -q 'dl-deal: analysed 4/4 boards, ' screen
	dl-deal -n 4 -f html -p q 2> err
	[ ! -s err ]
}

@test "make run deals one session in PBN" {
	run make -s -C "$BATS_TEST_DIRNAME/.." BUILD="$DL_BUILD" run
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^\[Board ')" -eq 32 ]
	[ "${lines[0]}" = "% PBN 2.1" ]
}
