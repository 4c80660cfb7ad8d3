#!/usr/bin/env bats
# The pipeline dl-seed | dl-stream | dl-map | dl-fmt-pbn against Big Deal's
# own output.

load helper

body() { grep -v '^#' "$@"; }

@test "deal numbers equal Big Deal's for every vector" {
	for c in v1 v2 v3 v4; do
		seed_of $c | dl-stream -n "$(param $c boards)" | body | cmp - "$BIGDEAL/$c/uids.txt"
	done
}

@test "deals equal Big Deal's .tso for every vector" {
	for c in v1 v2 v3 v4; do
		deals_of $c | body | cut -d' ' -f2 | cmp - "$BIGDEAL/$c/deals.tso"
	done
}

@test "PBN equals Big Deal's for every vector, Generator tag aside" {
	for c in v1 v2 v3 v4; do
		deals_of $c | dl-fmt-pbn > out.pbn
		cmp <(strip_generator out.pbn) <(strip_generator "$BIGDEAL/$c/pbn.pbn")
		grep -qx '\[Generator "dl [0-9.]*"\]' out.pbn
	done
}

@test "dl-map --reverse gives Big Deal's numbers back" {
	for c in v1 v2 v3 v4; do
		deals_of $c | dl-map --reverse | body | cmp - "$BIGDEAL/$c/uids.txt"
	done
}

@test "board numbers never enter the hash: 17-32 deals what 1-16 deals" {
	seed_of v1 | dl-stream -n 16 | body | cut -d' ' -f2 > low
	seed_of v1 | dl-stream -n 17-32 | body | cut -d' ' -f2 > high
	cmp low high
	seed_of v1 | dl-stream -n 17-32 | body | head -1 | grep -q '^17 '
}

@test "SquareDeal's bigdealx -W/-e is dl-seed --only-given --entropy --owner" {
	key=$(sed -n 's/^1,1:\(.*\)\r$/\1/p' "$SQUAREDEAL/club/club.sqk")
	half=$((${#key} / 2))
	dv=$(sed -n 's/^DV //p' "$SQUAREDEAL/club/club.sqd")
	dl-seed --only-given --owner "${key:0:half}" \
	    --entropy "${key:half}$(printf %s "$dv" | base64 -w0)" --entropy original |
	    dl-stream -n 1-10 | dl-map | dl-fmt-pbn > rr01.pbn
	cmp <(strip_generator rr01.pbn) <(strip_generator "$SQUAREDEAL/club/expected/rr01.pbn")
}

@test "the stream headers: protocol, generator, range, mapping, event, time" {
	dl-seed --hex "$(param v1 random)" --event 'Club Pairs' | dl-stream -n 3-4 | dl-map > deals
	run -0 grep '^#' deals
	[ "${lines[0]}" = "#P: dl/1 deals" ]
	[ "${lines[1]}" = "#V: dl 0.1.0" ]
	[[ "${lines[2]}" =~ ^#T:\ [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$ ]]
	[ "${lines[3]}" = "#I: Club Pairs" ]
	[ "${lines[4]}" = "#G: bigdeal" ]
	[ "${lines[5]}" = "#B: 3-4" ]
	[ "${lines[6]}" = "#M: bigdeal" ]
	[ "${#lines[@]}" -eq 7 ]
	grep -q '^\[Event "Club Pairs"\]$' <(dl-fmt-pbn < deals)
}

@test "the seed record holds random and the owner's hash" {
	run -0 seed_of v1
	[ "${lines[-1]}" = "bigdeal $(param v1 random | tr A-F a-f) $(printf 'Example Owner' | "$HELPERS/rmd160")" ]
}

@test "the owner comes from owner= in ./.bigdealrc" {
	printf '[BigDeal]\nformats=pbn\nowner=Example Owner\n' > .bigdealrc
	dl-seed --hex "$(param v1 random)" | dl-stream -n 32 | grep -v '^#' | cmp - "$BIGDEAL/v1/uids.txt"
}

@test "a plain uids list maps, numbered as it is" {
	dl-map < "$BIGDEAL/v2/uids.txt" | cut -d' ' -f2 | cmp - "$BIGDEAL/v2/deals.tso"
	dl-map < "$BIGDEAL/v2/uids.txt" | head -1 | grep -q '^17 '
}

@test "a plain .tso file goes to every stage that reads deals" {
	dl-map --reverse < "$BIGDEAL/v1/deals.tso" | cmp - "$BIGDEAL/v1/uids.txt"
	dl-fmt-pbn < "$BIGDEAL/v1/deals.tso" > plain.pbn
	cmp <(strip_generator plain.pbn) <(strip_generator "$BIGDEAL/v1/pbn.pbn")
}

@test "OS entropy: two seeds differ; dl256 keys by default, Big Deal's on request" {
	a=$(dl-seed | tail -1)
	b=$(dl-seed | tail -1)
	[ "$a" != "$b" ]
	[[ "$a" =~ ^dl256\ [0-9a-f]{64}$ ]]
	c=$(dl-seed -g bigdeal | tail -1)
	[[ "$c" =~ ^bigdeal\ [0-9a-f]{40}\ [0-9a-f]{40}$ ]]
}

@test "--entropy alone must reach 160 bits" {
	fails dl-seed --only-given --entropy 0123456789
	[ "$output" = "dl-seed: only 40 bits of entropy, 160 needed: give more --entropy (4 bits a character) or drop --only-given" ]
	run dl-seed --only-given --entropy 0123456789012345678901234567890123456789
	[ "$status" -eq 0 ]
}

@test "--not-for-play makes a weak seed and says so in the stream" {
	dl-seed --only-given --entropy 0123456789 --not-for-play > weak
	grep -qx '#W: not for play: the seed has only 40 bits of entropy' weak
	dl-stream -n 1 < weak | dl-map | grep -q '^#W: not for play'
}

@test "--entropy strings are concatenated, as bigdealx's -e" {
	one=$(dl-seed -o -e 0123456789012345678901234567890123456789 | tail -1)
	two=$(dl-seed --no-history -o -e 01234567890123456789 -e 01234567890123456789 | tail -1)
	[ "$one" = "$two" ]
}

@test "dl-seed refuses to show the secret on a terminal unless forced" {
	run script -qec 'dl-seed' /dev/null
	[ "$status" -eq 2 ]
	[[ "$output" == *"dl-seed: refusing to write a secret seed to a terminal (use --force)"* ]]
	run script -qec 'dl-seed --force' /dev/null
	[ "$status" -eq 0 ]
	[[ "$output" == *dl256* ]]
}

@test "the secret does not stay in dl-seed's argv" {
	# a FIFO for .bigdealrc holds dl-seed still after it parsed its arguments
	mkfifo .bigdealrc
	dl-seed --hex "$(param v1 random)" > seed &
	sleep 0.5
	cmdline=$(tr '\0' ' ' < /proc/$!/cmdline)
	echo 'owner=x' > .bigdealrc
	wait $!
	[[ "$cmdline" == "dl-seed --hex "* ]]
	[[ "$cmdline" != *"$(param v1 random)"* ]]
	grep -q "^bigdeal $(param v1 random | tr A-F a-f) " seed
}

@test "a broken pipe downstream ends the upstream tools quietly" {
	run bash -c 'dl-seed --hex '"$(param v1 random)"' 2>&1 | dl-stream -n 1000000 2>&1 | dl-map 2>&1 | head -c 100 > /dev/null'
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "dl-stream without -n deals 32 boards, or the range a seed announces" {
	[ "$(seed_of v1 | dl-stream | grep -vc '^#')" -eq 32 ]
	run -0 bash -c "set -o pipefail; { echo '#P: dl/1 seed'; echo '#B: 5-7'; dl-seed --hex $(param v1 random) | tail -1; } | dl-stream | grep -v '^#'"
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == "5 "* ]]
}

# stream_field_reads [ROOT]: where a file of cmd/ or lib/ outside lib/stream/
# reads a field of a struct stream_in, as "FILE:LINE:TEXT".  The fields are
# those proto.h declares; a file's names for a stream are those it declares
# a struct stream_in (variables, parameters, members such as dl-cat's
# sh->in), each followed by . or -> and a field.
stream_field_reads() {
	local root=${1:-$BATS_TEST_DIRNAME/..} fields names f
	fields=$(sed -n '/^struct stream_in {/,/^};/p' "$root/lib/stream/proto.h" |
	    sed 's|/\*.*||' | grep -oE '[a-z_]+ *[;,]' | tr -d ' ;,' | paste -sd '|')
	# the declaration read as it is written: not an empty list that matches nothing
	[[ "|$fields|" == *"|kind|"*"|has_range|"*"|first_board|"* ]] ||
	    { echo "struct stream_in's fields not found in proto.h: '$fields'"; return 1; }
	for f in "$root"/cmd/*.[ch] "$root"/cmd/web/*.[ch] "$root"/lib/*/*.[ch]; do
		case $f in "$root"/lib/stream/*) continue ;; esac
		names=$(grep -oE 'struct stream_in +\**[a-z_]+' "$f" | sed 's/.*[ *]//' |
		    sort -u | paste -sd '|')
		[ -z "$names" ] ||
		    grep -nE "\\b($names)(\\.|->)($fields)\\b" "$f" | sed "s|^|${f#"$root"/}:|"
	done
	return 0
}

@test "no file outside lib/stream/ reads a struct stream_in's fields: they are proto.c's" {
	run stream_field_reads
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	# and the check sees one: a tool that reads #B: by hand again
	root=$BATS_TEST_DIRNAME/..
	mkdir -p tree/lib
	cp -R "$root/cmd" tree/
	cp -R "$root"/lib/* tree/lib/
	echo 'static int ranged(const struct stream_in *s) { return s->has_range; }' >> tree/cmd/dl-dd.c
	run stream_field_reads "$PWD/tree"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "cmd/dl-dd.c:"*":static int ranged(const struct stream_in *s) { return s->has_range; }" ]]
}

@test "usage messages match the man pages' synopses" {
	for t in dl-seed dl-stream dl-map dl-fmt dl-sqd dl-deal dl-bigdeal dl-bigdealx dl-stat dl-board dl-diff dl-dd dl-read dl-archive dl-web; do
		run "$t" -h
		[ "$status" -eq 0 ]
		synopsis=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH/p' "$BATS_TEST_DIRNAME/../man/$t.1" |
		    grep -v '^\.' | tr -s ' \n' ' ' | sed 's/ $//')
		usage=$(printf '%s\n' "$output" | sed 's/^usage: //' | tr -s ' \n' ' ' | sed 's/ $//')
		[ "$usage" = "$synopsis" ] || { echo "$t: '$usage' vs '$synopsis'"; false; }
	done
}

@test "the event's site and date travel from dl-seed to PBN and the hand records; a date not in PBN's form is refused" {
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    --event 'Club night' --site 'Hall "A" & B' --date 2026.11.?? 2> /dev/null > seed
	grep -qx '#S: Hall "A" & B' seed
	grep -qx '#D: 2026.11.??' seed
	dl-stream -n 1-2 < seed | dl-map > s.tso
	grep -qx '#S: Hall "A" & B' s.tso
	dl-fmt -f pbn,html -p s < s.tso
	[ "$(grep -c '^\[Site "Hall \\"A\\" & B"\]$' s.pbn)" -eq 2 ]
	[ "$(grep -c '^\[Date "2026.11.??"\]$' s.pbn)" -eq 2 ]
	grep -q '<span class="date">Hall &quot;A&quot; &amp; B, 2026.11.??</span>' s.html
	# and back: dl-read takes them from the PBN file
	run -0 dl-read s.pbn
	[ "${lines[2]}" = '#S: Hall "A" & B' ]
	[ "${lines[3]}" = '#D: 2026.11.??' ]
	run -2 --separate-stderr dl-seed --not-for-play --date 24.11.2026
	[ "$stderr" = "dl-seed: --date: not YYYY.MM.DD (PBN's form, ? for a part not known)" ]
	printf '#P: dl/1 deals\n#D: 2026-11-24\n1 %s\n' \
	    "$(grep -v '^#' s.tso | head -1 | cut -d' ' -f2)" > baddate.tso
	run -1 --separate-stderr dl-fmt -f pbn < baddate.tso
	[ "$stderr" = "dl-fmt: line 2: header #D: not YYYY.MM.DD (PBN's form, ? for a part not known)" ]
}

@test "the hand record's address (#U:) travels from dl-seed through every stage; a bad one is refused on reading" {
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    --event 'Club night' --record-url 'https://club.example/records/2026-11-24?s=1#top' \
	    2> /dev/null > seed
	run -0 grep '^#[IU]: ' seed
	[ "$output" = $'#I: Club night\n#U: https://club.example/records/2026-11-24?s=1#top' ]
	dl-stream -n 1-2 < seed | dl-map | dl-board -b 1-2 | dl-fmt -f tso > s.tso
	run -0 grep '^#U: ' s.tso
	[ "$output" = '#U: https://club.example/records/2026-11-24?s=1#top' ]
	deal=$(grep -v '^#' s.tso | head -1 | cut -d' ' -f2)
	while IFS='|' read -r url message; do
		printf '#P: dl/1 deals\n#U: %b\n1 %s\n' "$url" "$deal" > bad.tso
		run -1 --separate-stderr dl-fmt -f pbn < bad.tso
		[ "$stderr" = "dl-fmt: line 2: header #U: $message" ] || { echo "$url: $stderr"; return 1; }
	done <<-'EOF'
	ftp://club.example/r|not an http:// or https:// address
	https://club.example/a b|a space at byte 23 (write it %20)
	https://club.example/<b>|'<' at byte 22 is not a character of an address (write it %3C)
	https://club.example/cafÃ©|byte 25 is not a printable ASCII character (write it %XX)
	https://director:pw@club.example/|a user or password before the host ('@'): a printed address carries none
	https://?x|no host after https://
	https://club.example/100%|'%' at byte 25 is not followed by two hex digits
	EOF
	printf '#P: dl/1 deals\n#U: https://x.example/%0190d\n1 %s\n' 0 "$deal" > long.tso
	run -1 --separate-stderr dl-fmt -f pbn < long.tso
	[ "$stderr" = "dl-fmt: line 2: header #U: longer than 200 bytes (a QR code that large is hard to scan from paper)" ]
	# 200 bytes are taken
	printf '#P: dl/1 deals\n#U: https://x.example/%0180d\n1 %s\n' 0 "$deal" > long.tso
	dl-fmt -f tso < long.tso | grep -q '^#U: https://x.example/0*$'
}

@test "one process deals what the pipeline deals, over many chunks of deals made ahead" {
	# dl-bigdealx deals through deal_boards, whose thread makes the deals
	# 4096 at a time while the writers take the ones before
	e=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
	dl-bigdealx -o -W ownerkey -e "$e" -n 10000 -f tso -p x < /dev/null > /dev/null
	dl-seed --only-given --owner ownerkey --entropy "$e" | dl-stream -n 10000 | dl-map |
	    grep -v '^#' > piped
	grep -v '^#' x.tso | cmp - piped
	[ "$(wc -l < piped)" -eq 10000 ]
}
