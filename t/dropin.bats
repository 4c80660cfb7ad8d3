#!/usr/bin/env bats
# dl-bigdeal and dl-bigdealx, drop-ins for Big Deal 2.0's bigdeal and
# bigdealx: the reference's command lines, .bigdealrc and files.

load helper

CLUB=$SQUAREDEAL/club

# rc OWNER: a ./.bigdealrc with that owner, as the reference writes it
rc() {
	printf '[BigDeal]\nformats=dup,pbn\naskformats=no\nowner=%s\n' "$1" > .bigdealrc
}

# every_format CASE: dl-bigdealx -h writes every golden file of a vector,
# in the two runs that keep the suffixes apart
every_format() {
	mkdir "$1" && cd "$1"
	rc "$(param "$1" owner)"
	# at most ten formats a run, as Big Deal reads them
	dl-bigdealx -h "$(param "$1" random)" -n "$(param "$1" boards)" -p out \
	    -f pbn,lin,csv,bri,dge,dup > stdout
	warned stdout 0
	dl-bigdealx -h "$(param "$1" random)" -n "$(param "$1" boards)" -p out \
	    -f dlm,ber,borel,kops,cds,goedel > stdout
	warned stdout 0
	dl-bigdealx -h "$(param "$1" random)" -n "$(param "$1" boards)" -p blind -f "$RUN_TWO" > stdout
	warned stdout 0
	local want
	for name in ${RUN_ONE//,/ }; do
		want=$(golden "$1" "$name")
		same_as_golden "out.${want##*.}" "$1" "$name"
	done
	for name in ${RUN_TWO//,/ }; do
		want=$(golden "$1" "$name")
		same_as_golden "blind.${want##*.}" "$1" "$name"
	done
	[ "$(ls out.* | wc -l)" -eq 12 ]
	[ "$(ls blind.* | wc -l)" -eq 2 ]
}

@test "dl-bigdealx -h writes Big Deal's files, every format: v1 (boards 1-32)" {
	every_format v1
}

@test "dl-bigdealx -h writes Big Deal's files, every format: v2 (boards 17-32)" {
	every_format v2
}

@test "dl-bigdealx -h writes Big Deal's files, every format: v3 (99 boards)" {
	every_format v3
}

@test "dl-bigdealx -h writes Big Deal's files, every format: v4 (one board, no owner)" {
	every_format v4
}

# session KEYLINE RANGE NAME KIND [sesN]: one session of the club
# tournament, run as SquareDeal runs bigdealx (docs/squaredeal.md); KEYLINE is
# "phase,session" in the .sqk
session() {
	local key half dv
	key=$(sed -n "s/^$1:\(.*\)\r\$/\1/p" "$CLUB/club.sqk")
	half=$((${#key} / 2))
	dv=$(sed -n 's/^DV //p' "$CLUB/club.sqd")
	dl-bigdealx -W "${key:0:half}" -e "${key:half}" -e "$(printf %s "$dv" | base64 -w0)" \
	    -e "$4" ${5:+-e "$5"} -p "$3" -n "$2" -f pbn > "$3.stdout" < /dev/null
	two_lines "$3.stdout"
	cmp <(strip_generator "$3.pbn") <(strip_generator "$CLUB/expected/$3.pbn")
}

# bats test_tags=slow
@test "SquareDeal's runs of bigdealx make every session of the club tournament" {
	# no .bigdealrc and no terminal, as under SquareDeal: defaults, no question
	for kind in original reserve; do
		r=; [ $kind = reserve ] && r=reserve
		session 1,1 1-10 rr01$r $kind
		session 1,2 11-20 rr02$r $kind
		session 1,3 21-30 rr03$r $kind
		session 2,1 12 ko1$r $kind
		session 2,2 12 ko2$r $kind
		# a phase with nsessions 0: one key, and "ses<N>" appended
		for s in 1 2 3 4; do
			session 3,0 1-8 sw0$s$r $kind ses$s
		done
	done
	grep -qx 'formats=dup,pbn' .bigdealrc
	[ "$(ls *.pbn | wc -l)" -eq 18 ]
	[ ! -e rr01.dup ]
}

@test "SquareDeal makes a set again: the files are replaced, as the reference does" {
	rc ''
	echo old > w.pbn
	dl-bigdealx -W left -e right -n 4 -p w -f pbn > /dev/null
	cp w.pbn first.pbn
	dl-bigdealx -W left -e right -n 4 -p w -f pbn > /dev/null
	cmp w.pbn first.pbn
	[ "$(grep -c '^\[Board ' w.pbn)" -eq 4 ]
}

@test "-o -e: only the given entropy, as dl-seed --only-given --entropy" {
	rc 'Club owner'
	a=0123456789abcdefghijklmnopqrstuvwxyzABCD
	dl-bigdealx -o -e "$a" -e tail -n 5 -p o -f pbn,tso > stdout
	warned stdout 176
	dl-seed --only-given --no-history --entropy "$a" --entropy tail |
	    dl-stream -n 5 | dl-map | dl-fmt-pbn > want.pbn
	cmp <(strip_generator o.pbn) <(strip_generator want.pbn)
	dl-fmt-pbn < o.tso | cmp - o.pbn
}

@test "-o with fewer than 160 bits of given entropy is refused" {
	mkdir run && cd run
	rc ''
	fails dl-bigdealx -o -e 0123456789 -n 1 -p s
	[ "$status" -eq 1 ]
	[ "$output" = "dl-bigdealx: only 40 bits of entropy, 160 needed: give longer -e strings (4 bits a character) or drop -o" ]
	[ "$(ls -A)" = .bigdealrc ]
}

@test "-W and -h need no entropy minimum: they make known sets again" {
	rc ''
	dl-bigdealx -W x -n 2 -p w -f pbn > /dev/null
	dl-seed --only-given --owner x --not-for-play | dl-stream -n 2 | dl-map | dl-fmt-pbn > want.pbn
	cmp <(strip_generator w.pbn) <(strip_generator want.pbn)
	dl-bigdealx -o -h "$(param v1 random)" -n 1 -p h -f pbn > /dev/null
	[ -s h.pbn ]
}

@test "a fresh secret is never dealt twice; -W and -h sets are made again" {
	rc ''
	a=0123456789012345678901234567890123456789
	# a mistyped format: nothing to write, and the secret has not
	# entered the history
	run --separate-stderr dl-bigdealx -o -e "$a" -n 1 -p one -f pbm
	[ "$status" -eq 0 ]
	[ "$stderr" = 'dl-bigdealx: unknown format "pbm" (dl-fmt --list shows the formats): ignored' ]
	[ ! -e one.pbn ]
	dl-bigdealx -o -e "$a" -n 1 -p one -f pbn > /dev/null
	fails dl-bigdealx -o -e "$a" -n 1 -p two -f pbn
	[[ "$output" == "dl-bigdealx: this seed was made before"* ]]
	[ ! -e two.pbn ]
	for i in 1 2; do
		dl-bigdealx -W x -e "$a" -n 1 -p w$i -f pbn > /dev/null
		dl-bigdealx -h "$(param v1 random)" -n 1 -p h$i -f pbn > /dev/null
	done
	cmp w1.pbn w2.pbn && cmp h1.pbn h2.pbn
}

@test "-W is hashed whole, however long: the 113-byte cut is .bigdealrc's" {
	rc ''
	# a SquareDeal key's left half of 150 bytes: bigdealx hashes all of
	# it (main.c: RMDhash(wizard, strlen(wizard)))
	w=$(printf 'K%.0s' {1..147})abc
	run --separate-stderr dl-bigdealx -W "$w" -e right -n 3 -p w -f pbn
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	printf 'bigdeal %s %s\n' "$(printf right | "$HELPERS/rmd160")" \
	    "$(printf %s "$w" | "$HELPERS/rmd160")" |
	    dl-stream -n 3 | dl-map | dl-fmt-pbn > want.pbn
	cmp <(strip_generator w.pbn) <(strip_generator want.pbn)
	# not the first 113 bytes alone
	dl-bigdealx -W "${w:0:113}" -e right -n 3 -p cut -f pbn > /dev/null
	run -1 cmp -s w.pbn cut.pbn
}

@test "-E: every byte of the file as a 4-byte int, in order with -e" {
	rc ''
	printf 'AB' > ab
	# on a little-endian machine, what -E hashes for "AB"
	printf 'A\0\0\0B\0\0\0' > ab4
	dl-bigdealx -o -E ab -W x -n 4 -p e -f pbn > /dev/null
	dl-seed --only-given --entropy-file ab4 --owner x --not-for-play |
	    dl-stream -n 4 | dl-map | dl-fmt-pbn > want.pbn
	cmp <(strip_generator e.pbn) <(strip_generator want.pbn)
	dl-bigdealx -W x -e pre -E ab -e post -n 4 -p mixed -f pbn > /dev/null
	dl-seed --only-given --owner x --not-for-play --entropy pre --entropy-file ab4 \
	    --entropy post |
	    dl-stream -n 4 | dl-map | dl-fmt-pbn > want.pbn
	cmp <(strip_generator mixed.pbn) <(strip_generator want.pbn)
	run -1 cmp -s e.pbn mixed.pbn
}

@test "a normal run: OS entropy and the owner of .bigdealrc, a new set each time" {
	rc 'Club owner'
	dl-bigdealx -n 3 -p a -f pbn > stdout
	two_lines stdout
	dl-bigdeal -n 3 -p b -f pbn > stdout
	[[ "$(head -1 stdout)" =~ ^dl-bigdeal\ \(dl\ [0-9.]+\),\ compatible\ with\ Big\ Deal\ version\ 2\.0$ ]]
	[ "$(grep -c '^\[Board ' a.pbn)" -eq 3 ]
	[ "$(grep -c '^\[Board ' b.pbn)" -eq 3 ]
	run -1 cmp -s <(grep Deal a.pbn) <(grep Deal b.pbn)
	[ "$(wc -l < "$DL_SEED_HISTORY")" -eq 2 ]
}

@test "-n 17-32 numbers the boards 17 to 32 with the deals of 1-16" {
	rc ''
	dl-bigdealx -W x -e y -n 17-32 -p high -f pbn > /dev/null
	dl-bigdealx -W x -e y -n 16 -p low -f pbn > /dev/null
	[ "$(grep '^\[Board ' high.pbn | head -1)" = '[Board "17"]' ]
	[ "$(grep '^\[Board ' high.pbn | tail -1)" = '[Board "32"]' ]
	cmp <(grep '^\[Deal ' high.pbn) <(grep '^\[Deal ' low.pbn)
}

@test "dl-bigdeal deals at most 100 boards, dl-bigdealx more" {
	mkdir run && cd run
	rc ''
	fails dl-bigdeal -n 101 -p s -f pbn
	[ "$status" -eq 2 ]
	[ "$output" = "dl-bigdeal: -n 101: at most 100 boards a run (dl-bigdealx deals more)" ]
	[ "$(ls -A)" = .bigdealrc ]
	dl-bigdeal -n 101-200 -p s -f pbn > /dev/null
	[ "$(grep -c '^\[Board ' s.pbn)" -eq 100 ]
	dl-bigdealx -W x -n 101 -p x -f pbn > /dev/null
	[ "$(grep -c '^\[Board ' x.pbn)" -eq 101 ]
}

@test "a format that cannot hold the boards is left out, as Big Deal does" {
	mkdir run && cd run
	rc ''
	run --separate-stderr dl-bigdealx -W x -n 95-105 -p s -f dup,pbn,dlmblind
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "dl-bigdealx: format dup holds boards up to 99, not board 105: no .dup file" ]
	[ "${stderr_lines[1]}" = "dl-bigdealx: format dlmblind holds boards up to 99, not board 105: no .dlm file" ]
	[ "$(ls)" = s.pbn ]
	# every format left out: the reference's two banner lines, status 0
	run --separate-stderr dl-bigdealx -W x -n 100 -p t -f dup
	[ "$status" -eq 0 ]
	[ "$stderr" = "dl-bigdealx: format dup holds boards up to 99, not board 100: no .dup file" ]
	[[ $output =~ $BANNER_RE ]]
	[ "$(ls)" = s.pbn ]
}

@test "bad command lines: one line on stderr, no files" {
	mkdir run && cd run
	rc ''
	h=$(param v1 random)
	fails dl-bigdealx -h "${h:1}" -n 1 -p s
	[ "$output" = "dl-bigdealx: -h: a hash is 40 hex digits, not 39" ]
	fails dl-bigdealx -h "${h:1}x" -n 1 -p s
	[ "$output" = "dl-bigdealx: -h: a hash is 40 hex digits, 0-9 and A-F" ]
	fails dl-bigdealx -h "$h" -n 1 -p ''
	[ "$output" = "dl-bigdealx: -p: the file prefix is empty" ]
	fails dl-bigdealx -h "$h" -n 1 -p a/b
	[ "$output" = "dl-bigdealx: -p: a file prefix has no '/': the files go to the current directory" ]
	fails dl-bigdealx -h "$h" -n 1 -p 'a b'
	[ "$output" = "dl-bigdealx: -p: a file prefix has no spaces" ]
	fails dl-bigdealx -h "$h" -n 1 -p "$(printf 'x%.0s' {1..101})"
	[ "$output" = "dl-bigdealx: -p: a file prefix has at most 100 characters" ]
	dl-bigdealx -h "$h" -n 1 -p "$(printf 'x%.0s' {1..100})" -f pbn > /dev/null
	rm x*.pbn
	fails dl-bigdealx -h "$h" -n 0 -p s
	[ "$output" = "dl-bigdealx: -n 0: boards are numbered from 1" ]
	fails dl-bigdealx -h "$h" -n 9-8 -p s
	[ "$output" = "dl-bigdealx: -n 9-8: board range runs backwards" ]
	fails dl-bigdeal -e x -n 1 -p s
	[ "$status" -eq 2 ]
	[ "$(ls -A)" = .bigdealrc ]
}

@test "missing -n or -p, and no answer on standard input" {
	rc ''
	fails dl-bigdealx -W x -p s < /dev/null
	[ "$output" = "dl-bigdealx: no -n: give the boards on the command line or on standard input" ]
	[ "$status" -eq 2 ]
	fails dl-bigdealx -W x -n 2 < /dev/null
	[ "$output" = "dl-bigdealx: no -p: give the file prefix on the command line or on standard input" ]
	[ "$status" -eq 2 ]
	[ "$(ls -A)" = .bigdealrc ]
}

@test "no .bigdealrc and no answers on standard input: the defaults, written down" {
	mkdir run && cd run
	run --separate-stderr dl-bigdealx -W x -n 2 -p s < /dev/null
	[ "$status" -eq 0 ]
	[ "$stderr" = "dl-bigdealx: no .bigdealrc here and no answers on standard input: writing one with formats=dup,pbn and the default owner (-R changes it)" ]
	printf '[BigDeal]\nformats=dup,pbn\naskformats=no\nowner=Identification of owner or tournament\n' | cmp - .bigdealrc
	[ "$(ls)" = "$(printf 's.dup\ns.pbn')" ]
	# the default owner is the reference's text
	dl-bigdealx -h "$(param v4 random)" -n 1 -p d -f pbn > /dev/null
	dl-seed -x "$(param v4 random)" -w 'Identification of owner or tournament' |
	    dl-stream -n 1 | dl-map | dl-fmt-pbn | strip_generator > want.pbn
	strip_generator d.pbn | cmp - want.pbn
	# an empty owner= is the empty string: v4's secret gives v4's deal
	printf '[BigDeal]\nowner=\n' > .bigdealrc
	dl-bigdealx -h "$(param v4 random)" -n 1 -p v4 -f pbn > /dev/null
	same_as_golden v4.pbn v4 pbn
}

@test "-R asks the first-run questions on the terminal and rewrites .bigdealrc" {
	rc 'Old owner'
	printf 'pbn,nosuch\nlin,pbn\nyes\nNew owner\n' |
	    script -qec 'dl-bigdealx -R' /dev/null > screen
	printf '[BigDeal]\nformats=lin,pbn\naskformats=yes\nowner=New owner\n' | cmp - .bigdealrc
	grep -q 'unknown format "nosuch"' screen
	grep -q 'Owner identification: \[Old owner\]' screen
	[ "$(ls -A | grep -v '^screen$' | grep -v '^seed-history$')" = .bigdealrc ]
	fails dl-bigdealx -R < /dev/null
	[ "$output" = "dl-bigdealx: -R: no answers to its questions on standard input" ]
	[ "$status" -eq 2 ]
	printf '[BigDeal]\nformats=lin,pbn\naskformats=yes\nowner=New owner\n' | cmp - .bigdealrc
}

@test "on a terminal: the first run asks, then -n, -p and (askformats=yes) the formats" {
	printf '\nyes\nExample Owner\n0\n32\nv 1\nv1\nlin\n' |
	    script -qec "dl-bigdealx -h $(param v1 random)" /dev/null > screen
	printf '[BigDeal]\nformats=dup,pbn\naskformats=yes\nowner=Example Owner\n' | cmp - .bigdealrc
	grep -q 'a file prefix has no spaces' screen
	[ "$(ls v1.*)" = v1.lin ]
	same_as_golden v1.lin v1 lin
	# SquareDeal's -W runs never stop to ask for the formats
	dl-bigdealx -W x -n 1 -p w > /dev/null
	[ -f w.dup ]
	[ -f w.pbn ]
}

@test "the secrets do not stay in dl-bigdealx's argv" {
	# a FIFO for .bigdealrc holds it still after it parsed its arguments
	mkfifo .bigdealrc
	dl-bigdealx -W secretleft -e secretright -h "$(param v1 random)" -n 1 -p s -f pbn > stdout &
	sleep 0.5
	cmdline=$(tr '\0' ' ' < /proc/$!/cmdline)
	echo 'owner=x' > .bigdealrc
	wait $!
	[[ "$cmdline" == "dl-bigdealx -W "* ]]
	[[ "$cmdline" != *secretleft* && "$cmdline" != *secretright* ]]
	[[ "$cmdline" != *"$(param v1 random)"* ]]
	[[ "$cmdline" == *" -n 1 -p s -f pbn " ]]
	two_lines stdout
}

@test ".bigdealrc: only the [BigDeal] section counts, odd lines are ignored with a warning" {
	printf '[BigDeal]\nformats=pbn\nthis is odd\nowner=Example Owner\n[Other]\nowner=Someone Else\n' > .bigdealrc
	run -0 --separate-stderr dl-seed --hex "$(param v1 random)"
	[ "$stderr" = "dl-seed: .bigdealrc:3: not key=value: ignored" ]
	printf '%s\n' "$output" | dl-stream -n 32 | grep -v '^#' | cmp - "$BIGDEAL/v1/uids.txt"
}

# pipeline_deals HEX OWNER N: the [Deal] tags of N boards of that secret and
# owner, made by the pipeline
pipeline_deals() {
	dl-seed -x "$1" -w "$2" --no-history | dl-stream -n "$3" | dl-map | dl-fmt-pbn |
	    grep '^\[Deal '
}

@test "a .bigdealrc in CR LF (a Windows editor's): nothing in it is used, as Big Deal reads it, with a warning" {
	# Big Deal cuts the LF alone: "[BigDeal]\r" is another section, where
	# its reading stops (main.c read_init_file)
	printf '[BigDeal]\r\nformats=pbn\r\naskformats=yes\r\nowner=Club\r\n' > .bigdealrc
	h=$(param v1 random)
	# askformats=yes is not read either: no question takes "lin"
	echo lin | dl-bigdealx -h "$h" -n 2 -p r > stdout 2> stderr
	warned stdout 0
	[ "$(cat stderr)" = 'dl-bigdealx: .bigdealrc:1: "[BigDeal]" ends in CR LF (as a Windows editor writes it): Big Deal takes it for another section and stops reading, so nothing in the file is used: the formats, askformats and the owner are the defaults' ]
	[ "$(ls r.*)" = "$(printf 'r.dup\nr.pbn')" ]
	[ "$(grep '^\[Deal ' r.pbn)" = "$(pipeline_deals "$h" 'Identification of owner or tournament' 2)" ]
	run --separate-stderr dl-bigdeal -n 2 -p s
	[ "$status" -eq 0 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == 'dl-bigdeal: .bigdealrc:1: "[BigDeal]" ends in CR LF'* ]]
	[ "$(ls s.*)" = "$(printf 's.dup\ns.pbn')" ]
	# the file is left as it is
	printf '[BigDeal]\r\nformats=pbn\r\naskformats=yes\r\nowner=Club\r\n' | cmp - .bigdealrc
	# dl-seed keeps its own reading: the owner Club, without its CR
	run -0 --separate-stderr dl-seed -x "$h" --no-history
	[ "${lines[-1]}" = "bigdeal $(param v1 random | tr A-F a-f) $(printf Club | "$HELPERS/rmd160")" ]
}

@test "an owner= line of 113 bytes and more text: Big Deal reads the rest as a line of its own" {
	o=$(printf 'o%.0s' {1..113})
	# 119 bytes a read: owner= and 113 bytes, then "formats=lin" as a line
	printf '[BigDeal]\nformats=pbn\nowner=%sformats=lin\n' "$o" > .bigdealrc
	h=$(param v1 random)
	run --separate-stderr dl-bigdealx -h "$h" -n 2 -p r
	[ "$status" -eq 0 ]
	[ "$stderr" = "dl-bigdealx: .bigdealrc:3: an owner of more than 113 bytes: only the first 113 count, as in Big Deal, which reads the rest of the line as a line of its own" ]
	[ "$(ls r.*)" = r.lin ]
	dl-seed -x "$h" -w "$o" --no-history | dl-stream -n 2 | dl-map | dl-fmt-lin |
	    cmp - r.lin
	# 113 bytes and the line's end: nothing more
	printf '[BigDeal]\nformats=pbn\nowner=%s\n' "$o" > .bigdealrc
	run --separate-stderr dl-bigdealx -h "$h" -n 2 -p s
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(grep '^\[Deal ' s.pbn)" = "$(pipeline_deals "$h" "$o" 2)" ]
}

# The operating system's 40 bytes for bigdeal_os: 00 01 ... 27
OS_HEX=$(printf '%02x' {0..39})

# os_run PROG ARGS...: dl-bigdeal (PROG bigdeal) or dl-bigdealx (bigdealx)
# with those bytes from the operating system (t/helpers/bigdeal_os.c)
os_run() {
	DL_TEST_OS_BYTES=$OS_HEX "$HELPERS/bigdeal_os" "$@"
}

# os_bytes: those bytes
os_bytes() {
	printf "$(printf '\\x%s' $(fold -w2 <<< "$OS_HEX"))"
}

# secret_of TEXT...: Big Deal's random from the OS's bytes and the texts
# collected after them (printf %b: \r and the like)
secret_of() {
	{ os_bytes; printf '%b' "$@"; } | "$HELPERS/rmd160"
}

# deals_from RANDOM OWNER BOARDS FORMAT: the file the pipeline writes
deals_from() {
	printf 'bigdeal %s %s\n' "$1" "$(printf %s "$2" | "$HELPERS/rmd160")" |
	    dl-stream -n "$3" | dl-map | dl-fmt -f "$4"
}

@test "answers are entropy: the board count and the prefix are hashed after the OS's bytes, as Big Deal collects them" {
	printf '[BigDeal]\nformats=pbn\naskformats=yes\nowner=Club\n' > .bigdealrc
	printf '17-32\ns1\nlin\n' | os_run bigdealx > stdout
	two_lines stdout
	# of 17-32 Big Deal collects what setboards() leaves, 17; the formats
	# are not collected.  The reference's deallog.txt for these bytes and
	# answers says hash = EE48C46388CF98DF6FC6EEB5DB0620FFE753F481.
	[ "$(secret_of 17 s1)" = ee48c46388cf98df6fc6eeb5db0620ffe753f481 ]
	deals_from "$(secret_of 17 s1)" Club 17-32 lin | cmp - s1.lin
	# the same in dl-bigdeal; the same bytes and answers, the same deals
	printf '[BigDeal]\nformats=pbn\naskformats=no\nowner=Club\n' > .bigdealrc
	printf '16\ns2\n' | os_run bigdeal > /dev/null
	deals_from "$(secret_of 16 s2)" Club 16 pbn | strip_generator > want.pbn
	strip_generator s2.pbn | cmp - want.pbn
	# made again (the seed history would refuse it)
	printf '16\ns2\n' | DL_SEED_HISTORY=off os_run bigdeal > /dev/null
	strip_generator s2.pbn | cmp - want.pbn
	# -e comes before the OS's bytes, the answers after them
	printf '16\ns3\n' | os_run bigdealx -e hello > /dev/null
	deals_from "$({ printf hello; os_bytes; printf 16s3; } | "$HELPERS/rmd160")" Club 16 pbn |
	    strip_generator | cmp - <(strip_generator s3.pbn)
	# on a terminal a wrong answer is asked again, and collected too
	script -qec "env DL_TEST_OS_BYTES=$OS_HEX $HELPERS/bigdeal_os bigdealx" /dev/null \
	    <<< $'0\n16\ns4' > screen
	grep -q 'boards are numbered from 1' screen
	deals_from "$(secret_of 0 16 s4)" Club 16 pbn | strip_generator |
	    cmp - <(strip_generator s4.pbn)
}

@test "answers with CR LF line ends keep their CR, as Big Deal reads them: in the secret and in the file prefix" {
	printf '[BigDeal]\nformats=pbn\naskformats=no\nowner=Club\n' > .bigdealrc
	run --separate-stderr os_run bigdealx <<< $'16\r\ns1\r'
	[ "$status" -eq 0 ]
	[ "$stderr" = "bigdeal_os: standard input has CR LF line ends: Big Deal keeps the CR in an answer, and so does bigdeal_os (in a file prefix, a format, an owner)" ]
	# the reference names its file s1\r.pbn, and collects 16\r and s1\r
	[ "$(ls s1*)" = "$(printf 's1\r.pbn')" ]
	deals_from "$(secret_of '16\r' 's1\r')" Club 16 pbn | strip_generator |
	    cmp - <(strip_generator $'s1\r.pbn')
}

@test "the input ends: Big Deal's buffer keeps the answer before, which it takes again" {
	h=$(param v1 random)
	printf '[BigDeal]\nformats=pbn\naskformats=no\nowner=Club\n' > .bigdealrc
	# no prefix: the board count's answer is the prefix
	run --separate-stderr dl-bigdealx -h "$h" <<< 16
	[ "$status" -eq 0 ]
	[ "$stderr" = 'dl-bigdealx: standard input has ended: the answer to the file prefix is the one before, "16", as Big Deal takes it' ]
	[ "$(ls 16.*)" = 16.pbn ]
	[ "$(grep '^\[Deal ' 16.pbn)" = "$(pipeline_deals "$h" Club 16)" ]
	# and collected again: 16 and 16 after the OS's bytes
	rm 16.pbn
	os_run bigdealx <<< 17-32 2> /dev/null > /dev/null
	deals_from "$(secret_of 17 17)" Club 17-32 pbn | strip_generator |
	    cmp - <(strip_generator 17.pbn)
	# askformats=yes and no formats: the prefix is the formats, unknown
	printf '[BigDeal]\nformats=pbn\naskformats=yes\nowner=Club\n' > .bigdealrc
	run --separate-stderr dl-bigdealx -h "$h" <<< $'16\ns1'
	[ "$status" -eq 0 ]
	[ "$stderr" = 'dl-bigdealx: standard input has ended: the answer to the formats of this run is the one before, "s1", as Big Deal takes it
dl-bigdealx: unknown format "s1" (dl-fmt --list shows the formats): ignored' ]
	[ -z "$(ls s1.* 2> /dev/null)" ]
	# a first run answered twice: the owner is the second answer
	mkdir first && cd first
	run --separate-stderr dl-bigdealx -h "$h" -n 2 -p s <<< $'pbn\nyes'
	[ "$status" -eq 0 ]
	[ "$stderr" = 'dl-bigdealx: standard input has ended: the answer to the owner identification is the one before, "yes", as Big Deal takes it' ]
	printf '[BigDeal]\nformats=pbn\naskformats=yes\nowner=yes\n' | cmp - .bigdealrc
	[ "$(grep '^\[Deal ' s.pbn)" = "$(pipeline_deals "$h" yes 2)" ]
	# -R fed one answer: the formats, which are then no yes and the owner
	run --separate-stderr dl-bigdealx -R <<< lin
	[ "$status" -eq 0 ]
	[ "${#stderr_lines[@]}" -eq 2 ]
	[ "${stderr_lines[0]}" = 'dl-bigdealx: standard input has ended: the answer to whether to ask for the formats is the one before, "lin", as Big Deal takes it' ]
	[ "${stderr_lines[1]}" = 'dl-bigdealx: standard input has ended: the answer to the owner identification is the one before, "lin", as Big Deal takes it' ]
	printf '[BigDeal]\nformats=lin\naskformats=no\nowner=lin\n' | cmp - .bigdealrc
}

@test "a first-run answer of more than 99 bytes: Big Deal reads 99, and the rest answers the next question" {
	h=$(param v1 random)
	o=$(printf 'o%.0s' {1..99})
	run --separate-stderr dl-bigdealx -h "$h" -p s <<< "$(printf 'pbn\nno\n%s12' "$o")"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	printf '[BigDeal]\nformats=pbn\naskformats=no\nowner=%s\n' "$o" | cmp - .bigdealrc
	[ "$(grep -c '^\[Board ' s.pbn)" -eq 12 ]
	[ "$(grep '^\[Deal ' s.pbn)" = "$(pipeline_deals "$h" "$o" 12)" ]
}

# stats_warning: the eight lines bigdealx prints on standard output with
# its stats (the words are dl's)
stats_warning() {
	printf '\nStatistics of the set are written to the .txt file beside the deals.\n'
	printf 'Deciding from them whether or when to play the set goes\n'
	printf 'against the spirit of the Laws of Duplicate Contract\nBridge.\n\n'
	printf 'The statistics are for display only.\n\n'
}

@test "-f stats: Big Deal's statistics in PREFIX.txt, and its warning's eight lines on standard output" {
	rc "$(param v1 owner)"
	h=$(param v1 random)
	dl-bigdealx -h "$h" -n 32 -p s -f stats,lin > stdout
	cmp s.txt "$BIGDEAL/v1/stats.txt"
	same_as_golden s.lin v1 lin
	[ "$(sed -n 8,15p stdout)" = "$(stats_warning)" ]
	sed 8,15d stdout > without
	warned without 0
	# Big Deal's ints wrap past a few thousand boards: so do these
	dl-bigdealx -h "$h" -n 100000 -p big -f stats > /dev/null
	cmp big.txt "$BIGDEAL/v1/stats-100000.txt"
	# SquareDeal's runs: the banner, then the eight lines
	dl-bigdealx -W x -n 2 -p w -f stats > stdout
	[ "$(sed -n 3,10p stdout)" = "$(stats_warning)" ]
	sed 3,10d stdout > without
	two_lines without
	# bigdeal has no stats (nor goedel, nor stdout)
	run --separate-stderr dl-bigdeal -n 2 -p b -f stats,goedel,stdout,pbn
	[ "$status" -eq 0 ]
	[ "$stderr" = 'dl-bigdeal: unknown format "stats" (dl-bigdealx writes it, as bigdealx): ignored
dl-bigdeal: unknown format "goedel" (dl-bigdealx writes it, as bigdealx): ignored
dl-bigdeal: unknown format "stdout" (dl-bigdealx writes it, as bigdealx): ignored' ]
	[ "$(ls b.*)" = b.pbn ]
	printf '%s\n\n' "$output" > stdout
	two_lines stdout
}

@test "-f stdout: PBN on standard output, after the banner and warnings, as bigdealx writes it" {
	rc "$(param v1 owner)"
	h=$(param v1 random)
	dl-bigdealx -h "$h" -n 32 -p s -f stdout,stats > stdout
	[ "$(ls s.*)" = s.txt ]
	head -15 stdout | sed 8,15d > head
	warned head 0
	tail -n +16 stdout > out.pbn
	same_as_golden out.pbn v1 pbn
	# beside a .pbn file: the same bytes in both
	dl-bigdealx -W x -e y -n 4 -p w -f pbn,stdout > stdout
	head -2 stdout > head
	two_lines head
	tail -n +3 stdout | cmp - w.pbn
	# one standard output
	run --separate-stderr dl-bigdealx -W x -n 1 -p t -f stdout,stdout
	[ "$status" -eq 0 ]
	[ "$stderr" = 'dl-bigdealx: format stdout: standard output is written already: ignored' ]
	[ "$(grep -c '^\[Board ' <<< "$output")" -eq 1 ]
	# a first run may name them
	mkdir first && cd first
	printf 'stats,stdout\n\n\n' | dl-bigdealx -h "$h" -n 1 -p s > stdout
	grep -qx 'formats=stats,stdout' .bigdealrc
	[ "$(ls s.*)" = s.txt ]
	grep -q '^\[Deal ' stdout
}
