#!/usr/bin/env bats
# Big Deal and SquareDeal at the edges (docs/bigdeal-compat.md,
# docs/squaredeal.md): inputs on which the reference programs and
# pysquaredeal must give the same deals as dl.

load helper

club() {
	cp "$SQUAREDEAL/club/club.sqd" "$SQUAREDEAL/club/club.sqk" .
	chmod 600 club.sqk
}

@test ".sqd: trailing white space is stripped, as SquareDeal's programs do: the DV deals as without it" {
	club
	dl-sqd club.sqd make 1 1 > /dev/null
	mv rr01.pbn want.pbn
	sed -i -e 's/^DV .*/& \t /' -e 's/^KH .*/&  /' -e 's/^TN .*/& /' club.sqd
	run -0 dl-sqd club.sqd make 1 1
	cmp rr01.pbn want.pbn
	run -0 dl-sqd club.sqd show
	[ "${lines[0]}" = "Tournament: $(sed -n 's/^TN \(.*[^ ]\) *$/\1/p' club.sqd)" ]
}

# "perl_dv" in the comments below is the DV of club.sqd as squaredeal.pl's
# readtourn reads it, by its own expressions (perl 5.36):
#   perl -ne 'chomp; s/\r$//; s/\s*$//; print "[$_]\n" if s/^DV *//' club.sqd
@test ".sqd: Perl's white space at a line's end and the spaces after its tag are stripped, as squaredeal.pl does" {
	club
	dl-sqd club.sqd make 1 1 > /dev/null
	mv rr01.pbn want.pbn
	# vertical tab, form feed and CR are Perl's \s too; a line of white
	# space is no line. perl_dv: [3 6 9 13 26 40 44901.92]
	ws=$' \v\f\r\r'
	sed -i -e "s/^DV \(.*\)/DV   \1$ws/" -e 's/^KH /KH  /' -e 's/^SN /SN   /' \
	    -e 's/^TN /TN  /' club.sqd
	printf ' \t\v\f\n' >> club.sqd
	run -0 dl-sqd club.sqd make 1 1
	cmp rr01.pbn want.pbn
	run -0 dl-sqd club.sqd show
	[ "${lines[0]}" = "Tournament: Example Club Championship 2026" ]
	[ "${lines[2]}" = "Delayed value: 3 6 9 13 26 40 44901.92" ]
	# a CR inside a line: Perl keeps it, Python's reading ends the line
	sed -i 's/^DV .*/DV 3 6\r9/' club.sqd
	refuses 1 "dl-sqd: club.sqd:5: stray CR" dl-sqd club.sqd show
}

@test ".sqd: a DV ending in what Python's strip() takes and Perl's \\s does not is hashed whole, as squaredeal.pl does" {
	club
	key=$(sed -n 's/^1,1:\(.*\)\r$/\1/p' club.sqk)
	printf '[BigDeal]\nformats=pbn\n' > .bigdealrc
	# a no-break space, U+001F, an ideographic space: pysquaredeal strips
	# each; squaredeal.pl reads bytes, and keeps them in the DV it gives
	# bigdealx. perl_dv: [3 6 9 13 26 40 44901.92\302\240], and so on
	for tail in $'\xc2\xa0' $'\x1f' $'\xe3\x80\x80'; do
		cp "$SQUAREDEAL/club/club.sqd" .
		sed -i "s/^DV .*/&$tail/" club.sqd
		rm -f rr01.pbn
		run -0 dl-sqd club.sqd make 1 1
		dl-bigdealx -W "${key:0:30}" -e "${key:30}" \
		    -e "$(printf '3 6 9 13 26 40 44901.92%s' "$tail" | base64 -w0)" \
		    -e original -p want -n 1-10 -f pbn > /dev/null < /dev/null
		cmp <(strip_generator rr01.pbn) <(strip_generator want.pbn)
	done
	run -0 dl-sqd club.sqd show
	[ "${lines[2]}" = "Delayed value: 3 6 9 13 26 40 44901.92"$'\xe3\x80\x80' ]
	sed -i 's/^DV .*/&\x1f/' club.sqd
	run -0 dl-sqd club.sqd show
	[ "${lines[2]}" = "Delayed value: 3 6 9 13 26 40 44901.92"$'\xe3\x80\x80''\x1f' ]
}

@test ".sqd: an empty DV line is a DV not set yet, as pysquaredeal writes it" {
	club
	sed -i 's/^DV .*/DV /' club.sqd
	run -0 dl-sqd club.sqd show
	[ "${lines[2]}" = "Delayed value: (not set)" ]
	fails dl-sqd club.sqd make 1 1
	[ "$output" = "dl-sqd: club.sqd has no delayed value yet: run 'dl-sqd club.sqd set-dv VALUE' once it is known" ]
	run -0 dl-sqd club.sqd set-dv '1 2 3'
	[ "$(grep '^DV' club.sqd)" = "DV 1 2 3" ]
	run -0 dl-sqd club.sqd make 1 1
	[ "$output" = rr01.pbn ]
}

# set_dv TYPED WANT: set-dv on a fresh copy of t.sqd stores and shows WANT
set_dv() {
	cp fresh.sqd t.sqd
	run -0 dl-sqd t.sqd set-dv "$1"
	[ "$output" = "DV $2" ]
	[ "$(grep '^DV' t.sqd)" = "DV $2" ]
}

@test "set-dv tidies as squaredeal.pl's getDV: Perl's white space, then separators removed match after match" {
	dl-sqd t.sqd create --name T --di D
	dl-sqd t.sqd add-phase 1 4 s > /dev/null
	dl-sqd t.sqd publish > /dev/null
	cp t.sqd fresh.sqd
	# Each WANT is what the reference's own substitutions give, run as
	#   perl -e '$_ = shift; s/^\s+//; s/\s+$//; s/\s+/ /g;
	#       s/([0-9])[\,\.]([0-9])/$1$2/g; print' -- TYPED
	# (perl 5.36). A match takes the digits on both sides: the next match
	# starts after them.
	set_dv 1.2.3.4 12.34
	set_dv 7,5.3 75.3
	set_dv 1,2,3 12,3
	set_dv 0.5,0.5 05,05
	set_dv 1..2 1..2
	set_dv ' 1. 2 ,3 ' '1. 2 ,3'
	set_dv '12 345.67   8,9 x.y' '12 34567 89 x.y'
	# Perl's \s: space, tab, LF, vertical tab, form feed, CR
	set_dv $'\v\f 43275.91 \f\v' 4327591
	set_dv $'a\v\r\n\tb' 'a b'
	# on the bytes it reads, not a no-break space (Python's strip() is
	# another matter: docs/squaredeal.md)
	set_dv $'\xc2\xa01 2\xc2\xa0' $'\xc2\xa01 2\xc2\xa0'
}

DEFAULT_OWNER='Identification of owner or tournament'

# deal_of_rc RC: the PBN deal of v4's secret, one board, from dl-bigdealx in
# a directory whose .bigdealrc is RC (printf format)
deal_of_rc() {
	rm -rf rc.d && mkdir rc.d
	printf "$1" > rc.d/.bigdealrc
	(cd rc.d && dl-bigdealx -h "$(param v4 random)" -n 1 -p x -f pbn > /dev/null 2> err) &&
	    grep '^\[Deal ' rc.d/x.pbn
}

# deal_of_owner OWNER: the same board from the pipeline with that owner
deal_of_owner() {
	dl-seed -x "$(param v4 random)" -w "$1" | dl-stream -n 1 | dl-map | dl-fmt-pbn |
	    grep '^\[Deal '
}

@test "no owner= line: Big Deal's default owner text, in the drop-ins and dl-seed" {
	want=$(deal_of_owner "$DEFAULT_OWNER")
	[ "$want" != "$(deal_of_owner '')" ]
	for rc in '' '[BigDeal]\n' '[BigDeal]\nOwner=x\n' '[BigDeal]\nowner =x\n' \
	    '[Other]\nowner=x\n[BigDeal]\nowner=y\n' '[BigDeal]\nformats=pbn\n'; do
		[ "$(deal_of_rc "$rc")" = "$want" ] || { echo "rc: $rc"; return 1; }
	done
	# an owner= line with nothing after it is the empty owner
	[ "$(deal_of_rc '[BigDeal]\nowner=\n')" = "$(deal_of_owner '')" ]
	# dl-seed without -w and without .bigdealrc
	[ "$(dl-seed -x "$(param v4 random)" | tail -1)" = \
	    "$(dl-seed -x "$(param v4 random)" -w "$DEFAULT_OWNER" | tail -1)" ]
}

@test "an owner longer than 113 bytes: from .bigdealrc only the first 113 count, with a warning; dl-seed -w hashes it whole, as bigdealx -W" {
	long=$(printf 'x%.0s' $(seq 120))
	want=$(deal_of_owner "${long:0:113}")
	[ "$(deal_of_rc "[BigDeal]\nowner=$long\n")" = "$want" ]
	# Big Deal reads 119 bytes at a time: the other 7 are a line of their own
	[ "$(cat rc.d/err)" = "dl-bigdealx: .bigdealrc:2: an owner of more than 113 bytes: only the first 113 count, as in Big Deal, which reads the rest of the line as a line of its own
dl-bigdealx: .bigdealrc:2: not key=value: ignored" ]
	# given on the command line, the owner is the wizard string of
	# bigdealx -W, hashed whole (main.c): dl-seed -w L deals as -W L
	run --separate-stderr dl-seed -x "$(param v4 random)" -w "$long"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	mkdir w.d
	(cd w.d && dl-bigdealx -W "$long" -h "$(param v4 random)" -n 1 -p x -f pbn > /dev/null)
	[ "$(deal_of_owner "$long")" = "$(grep '^\[Deal ' w.d/x.pbn)" ]
	[ "$(deal_of_owner "$long")" != "$want" ]
}

@test "a CR LF .bigdealrc: the drop-ins hash the owner with its CR, as Big Deal on Unix; dl-seed warns" {
	# without the header (with it, Big Deal reads nothing: t/dropin.bats)
	[ "$(deal_of_rc 'owner=Club\r\n')" = "$(deal_of_owner $'Club\r')" ]
	[ "$(deal_of_rc '[BigDeal]\nowner=Club\r\n')" = "$(deal_of_owner $'Club\r')" ]
	[ "$(cat rc.d/err)" = "dl-bigdealx: .bigdealrc:2: CR LF line end: Big Deal keeps the CR in the value of owner (and of every such line)" ]
	[ "$(deal_of_owner $'Club\r')" != "$(deal_of_owner Club)" ]
	printf '[BigDeal]\r\nowner=Club\r\n' > .bigdealrc
	run --separate-stderr dl-seed -x "$(param v4 random)"
	[ "$status" -eq 0 ]
	[ "$stderr" = "dl-seed: .bigdealrc has CR LF line ends: dl-seed takes its owner without the CR, where Big Deal (and dl-bigdealx) would not (docs/bigdeal-compat.md)" ]
	[ "$(tail -1 <<< "$output")" = "$(dl-seed -x "$(param v4 random)" -w Club | tail -1)" ]
}

@test "a Latin-1 owner is bytes to hash, in the drop-ins and dl-seed" {
	owner=$(printf 'J\374rgen')
	[ "$(deal_of_rc '[BigDeal]\nowner=J\374rgen\n')" = "$(deal_of_owner "$owner")" ]
	printf '[BigDeal]\nowner=J\374rgen\n' > .bigdealrc
	[ "$(dl-seed -x "$(param v4 random)" | tail -1)" = \
	    "$(dl-seed -x "$(param v4 random)" -w "$owner" | tail -1)" ]
}

@test "format lists as Big Deal reads them: bad entries warned of and left out, ten at most" {
	h=$(param v1 random)
	printf '[BigDeal]\nowner=\n' > .bigdealrc
	run --separate-stderr dl-bigdealx -h "$h" -n 1 -p s -f 'pbn,nosuch,PBN, lin,,dup,dupblind,lin'
	[ "$status" -eq 0 ]
	[ "${#stderr_lines[@]}" -eq 5 ]
	[ "${stderr_lines[0]}" = 'dl-bigdealx: unknown format "nosuch" (dl-fmt --list shows the formats): ignored' ]
	[ "${stderr_lines[1]}" = 'dl-bigdealx: bad format name "PBN": ignored' ]
	[ "${stderr_lines[2]}" = 'dl-bigdealx: bad format name " lin": ignored' ]
	[ "${stderr_lines[3]}" = 'dl-bigdealx: an empty format name in "-f": ignored' ]
	[ "${stderr_lines[4]}" = 'dl-bigdealx: format dupblind: a .dup file is written already: ignored' ]
	[ "$(ls s.* | tr '\n' ' ')" = "s.dup s.lin s.pbn " ]
	# the eleventh format and after are not read
	rm s.*
	run --separate-stderr dl-bigdealx -h "$h" -n 1 -p s \
	    -f x1,x2,x3,x4,x5,x6,x7,x8,x9,pbn,lin
	[ "$status" -eq 0 ]
	[ "${#stderr_lines[@]}" -eq 9 ]
	[ "$(ls s.*)" = s.pbn ]
	# .bigdealrc's formats= the same way
	printf '[BigDeal]\nformats=pbn, lin\nowner=\n' > .bigdealrc
	rm s.*
	run --separate-stderr dl-bigdealx -h "$h" -n 1 -p s
	[ "$status" -eq 0 ]
	[ "$stderr" = 'dl-bigdealx: bad format name " lin": ignored' ]
	[ "$(ls s.*)" = s.pbn ]
}

@test "dl-sqd make leaves out a format a phase's boards do not fit, with a word, as SquareDeal does" {
	dl-sqd t.sqd create --name T --di D
	dl-sqd t.sqd add-phase 2 10 small > /dev/null
	dl-sqd t.sqd add-phase 1 95-105 big > /dev/null
	dl-sqd t.sqd publish > /dev/null
	dl-sqd t.sqd set-dv 1 > /dev/null
	run --separate-stderr dl-sqd t.sqd make -f dup,pbn all
	[ "$status" -eq 0 ]
	[ "$stderr" = "dl-sqd: format dup holds boards up to 99, not board 105: no ./big.dup" ]
	[ "$(ls small* big* | tr '\n' ' ')" = "big.pbn small1.dup small1.pbn small2.dup small2.pbn " ]
}

@test "dl-sqd make takes its formats from ./.bigdealrc without -f, as SquareDeal's bigdealx" {
	cp "$SQUAREDEAL/club/club.sqd" "$SQUAREDEAL/club/club.sqk" .
	chmod 600 club.sqk
	printf '[BigDeal]\nformats=lin,dup\n' > .bigdealrc
	run -0 dl-sqd club.sqd make 1 1
	[ "$output" = "$(printf 'rr01.lin\nrr01.dup')" ]
	# no .bigdealrc: PBN, as the one pysquaredeal writes for bigdealx says
	rm .bigdealrc rr01.*
	run -0 dl-sqd club.sqd make 1 1
	[ "$output" = rr01.pbn ]
}

# both_ways RC: session 1,1 of the club made in sqd/ by dl-sqd and in bdx/
# by SquareDeal's command line of bigdealx (no -f), each directory with the
# .bigdealrc RC (printf format); dl-sqd's status is $status
both_ways() {
	local key dv
	key=$(sed -n 's/^1,1:\(.*\)\r$/\1/p' club.sqk)
	dv=$(sed -n 's/^DV //p' club.sqd)
	rm -rf sqd bdx
	mkdir sqd bdx
	printf "$1" > sqd/.bigdealrc
	printf "$1" > bdx/.bigdealrc
	(cd bdx && dl-bigdealx -W "${key:0:30}" -e "${key:30}" \
	    -e "$(printf %s "$dv" | base64 -w0)" -e original -p rr01 -n 1-10 \
	    > /dev/null 2>&1 < /dev/null)
	cd sqd
	run --separate-stderr dl-sqd ../club.sqd make -d . 1 1
	cd ..
}

# same_files LIST: sqd/ and bdx/ hold the files LIST (none: ""), the same
# bytes
same_files() {
	[ "$(ls sqd | xargs)" = "$1" ]
	[ "$(ls bdx | xargs)" = "$1" ]
	for f in $1; do cmp <(strip_generator "sqd/$f") <(strip_generator "bdx/$f"); done
}

@test "dl-sqd make reads .bigdealrc's formats= as bigdealx: dup,pbn without the line; an empty one makes nothing, refused" {
	club
	# no formats= line, or another section before it: Big Deal's default
	both_ways '[BigDeal]\nowner=Club\n'
	[ "$status" -eq 0 ]
	same_files "rr01.dup rr01.pbn"
	both_ways '[Other]\nformats=lin\n[BigDeal]\nformats=lin\n'
	[ "$status" -eq 0 ]
	same_files "rr01.dup rr01.pbn"
	both_ways '\n'
	[ "$status" -eq 0 ]
	same_files "rr01.dup rr01.pbn"
	both_ways '[BigDeal]\nformats=lin,dup\n'
	[ "$status" -eq 0 ]
	same_files "rr01.dup rr01.lin"
	# a CR LF file: its "[BigDeal]\r" is another section, so bigdealx
	# reads nothing of it, and dl-sqd takes Big Deal's default too
	both_ways '[BigDeal]\r\nformats=lin\r\n'
	[ "$status" -eq 0 ]
	same_files "rr01.dup rr01.pbn"
	# formats= with nothing after it: bigdealx makes no file at all (and
	# says so on the terminal only); dl-sqd makes none either, and fails
	both_ways '[BigDeal]\nformats=\nowner=Club\n'
	[ "$status" -eq 2 ]
	[ "$stderr" = "dl-sqd: .bigdealrc has an empty formats=: SquareDeal's bigdealx would make no files (give -f, or name formats there)" ]
	[ "$output" = "" ]
	same_files ""
	cd sqd
	refuses 2 "dl-sqd: .bigdealrc has an empty formats=: SquareDeal's bigdealx would make no files (give -f, or name formats there)" \
	    dl-sqd ../club.sqd makefile
	run -0 dl-sqd ../club.sqd make -d . -f lin 1 1
	[ "$output" = rr01.lin ]
}

@test "the drop-ins write cds past board 255 (its board byte wraps) and kops past 65535, as Big Deal; dl-fmt refuses" {
	printf '[BigDeal]\nowner=\n' > .bigdealrc
	h=$(param v1 random)
	run -0 dl-bigdealx -h "$h" -n 250-260 -p x -f cds
	[ "$(od -An -tu1 -w14 -v x.cds | awk '{ printf "%s ", $1 }')" = "250 251 252 253 254 255 0 1 2 3 4 " ]
	run -0 dl-bigdealx -h "$h" -n 65535-65536 -p y -f kops
	[ "$(od -An -tu1 -N2 y.rzd | tr -s ' ')" = " 2 0" ]
	[ "$(stat -c %s y.rzd)" -eq $((13 + 2 * 13)) ]
	# the deals are those of boards 1-11, numbered 250-260
	dl-seed -x "$h" -w '' | dl-stream -n 1-11 | dl-map | dl-fmt-cds > want.cds
	cmp <(od -An -tu1 -w14 -v x.cds | cut -c5-) <(od -An -tu1 -w14 -v want.cds | cut -c5-)
	fails dl-fmt-cds < <(dl-seed -x "$h" -w '' | dl-stream -n 250-260 | dl-map)
	[ "$output" = "dl-fmt-cds: format cds holds boards up to 255, not board 260: no files written" ]
}

# v_rc CASE [ASK]: a .bigdealrc for a Big Deal vector, pbn only
v_rc() {
	printf '[BigDeal]\nformats=pbn\naskformats=%s\nowner=%s\n' "${2:-no}" "$(param "$1" owner)" > .bigdealrc
}

@test "answers piped on standard input are read in the reference's order: the deals of the command line" {
	v_rc v1
	printf '32\nv1\n' | dl-bigdealx -h "$(param v1 random)" > stdout
	warned stdout 0
	same_as_golden v1.pbn v1 pbn
	# askformats=yes: the formats follow the prefix
	v_rc v2 yes
	printf '17-32\nv2\nlin\n' | dl-bigdealx -h "$(param v2 random)" > /dev/null
	[ "$(ls v2.*)" = v2.lin ]
	same_as_golden v2.lin v2 lin
	# an empty answer is the .bigdealrc's formats
	printf '17-32\nv2\n\n' | dl-bigdealx -h "$(param v2 random)" > /dev/null
	same_as_golden v2.pbn v2 pbn
	rm v2.pbn
	# none at all: Big Deal's buffer still holds the prefix, which it
	# takes for the formats (t/dropin.bats has more of these)
	run -0 --separate-stderr dl-bigdealx -h "$(param v2 random)" <<< $'17-32\nv2'
	[ "$stderr" = 'dl-bigdealx: standard input has ended: the answer to the formats of this run is the one before, "v2", as Big Deal takes it
dl-bigdealx: unknown format "v2" (dl-fmt --list shows the formats): ignored' ]
	[ ! -e v2.pbn ]
	# no .bigdealrc: the three first-run questions come first
	mkdir first && cd first
	printf 'pbn\nno\n%s\n32\nv1\n' "$(param v1 owner)" | dl-bigdealx -h "$(param v1 random)" > /dev/null
	printf '[BigDeal]\nformats=pbn\naskformats=no\nowner=Example Owner\n' | cmp - .bigdealrc
	same_as_golden v1.pbn v1 pbn
	# empty answers: the reference's defaults, without a warning
	rm .bigdealrc
	run -0 --separate-stderr dl-bigdealx -W x -n 1 -p w <<< $'\n\n\n'
	[ -z "$stderr" ]
	printf '[BigDeal]\nformats=dup,pbn\naskformats=no\nowner=Identification of owner or tournament\n' | cmp - .bigdealrc
	# -R reads its answers there too
	printf 'lin\nyes\nNew owner\n' | dl-bigdealx -R > /dev/null
	printf '[BigDeal]\nformats=lin\naskformats=yes\nowner=New owner\n' | cmp - .bigdealrc
}

@test "a wrong answer on a pipe ends the run at once, where the reference would ask for ever" {
	v_rc v1
	fails dl-bigdealx -h "$(param v1 random)" <<< $'0\n32\nv1'
	[ "$output" = 'dl-bigdealx: standard input: "0" as the boards: boards are numbered from 1' ]
	[ "$status" -eq 1 ]
	fails dl-bigdeal <<< $'101\nv1'
	[ "$output" = 'dl-bigdeal: standard input: "101" as the boards: at most 100 boards a run (dl-bigdealx deals more)' ]
	fails dl-bigdealx -h "$(param v1 random)" <<< $'32\nv 1\nv1'
	[ "$output" = 'dl-bigdealx: standard input: "v 1" as the file prefix: a file prefix has no spaces' ]
	# no prefix after the boards: Big Deal takes the boards' answer again
	# (t/dropin.bats), unless it is no prefix, where it would ask for ever
	fails dl-bigdealx -h "$(param v1 random)" <<< $' 32'
	[ "$output" = 'dl-bigdealx: no -p: standard input has ended, and the answer before, " 32", which Big Deal would take, is no file prefix: a file prefix has no spaces' ]
	[ "$status" -eq 2 ]
	fails dl-bigdealx -h "$(param v1 random)" -n 32 < /dev/null
	[ "$output" = 'dl-bigdealx: no -p: give the file prefix on the command line or on standard input' ]
	[ "$status" -eq 2 ]
	# answers meant for -n and -p, given where .bigdealrc's questions come first
	rm .bigdealrc
	fails dl-bigdealx -h "$(param v1 random)" <<< $'32\nv1'
	[ "$output" = 'dl-bigdealx: standard input: "32" as the formats: unknown format "32" (dl-fmt --list shows the formats)' ]
	[ "$(ls -A)" = "" ]
	# escaped, as every message quoting its input
	fails dl-bigdeal <<< $'\e[2J'
	[ "$output" = 'dl-bigdeal: standard input: "\x1b[2J" as the formats: bad format name "\x1b[2J"' ]
}

@test "standard output has as many lines as the reference's in every mode: -h, -e, -E and -o add warnings, -W none" {
	v_rc v1
	printf 'abcdefghij%.0s' {1..6} > entropy
	dl-bigdealx -n 1 -p a > out && two_lines out
	dl-bigdeal -n 1 -p a > out && two_lines out
	dl-bigdealx -W x -n 1 -p a > out && two_lines out
	dl-bigdealx -W x -e y -E entropy -o -n 1 -p a > out && two_lines out
	dl-bigdealx -W x -h "$(param v1 random)" -n 1 -p a > out && two_lines out
	# with the OS's entropy, the given bits do not count
	dl-bigdealx -e y -n 1 -p a > out && warned out
	dl-bigdealx -E entropy -n 1 -p a > out && warned out
	# only the given entropy: below 213 bits, one line more
	dl-bigdealx -o -E entropy -n 1 -p a > out && warned out
	head -c 53 entropy > short
	dl-bigdealx -o -E short -n 1 -p a > out && warned out 212
	dl-bigdealx -o -e 0123456789012345678901234567890123456789012345678901 -n 1 -p a > out && warned out 208
	dl-bigdealx -h "$(param v1 random)" -n 1 -p a > out && warned out 0
	dl-bigdealx -h "$(param v1 random)" -e 0123456789012345678901234567890123456789012345678901234 -n 1 -p a > out && warned out
}

# bats test_tags=slow
@test "-n as the reference reads it: blanks and a plus sign taken; trailing letters and board 0 refused" {
	v_rc v1
	for n in ' 32' '32 ' '+32' ' +32 '; do
		dl-bigdealx -h "$(param v1 random)" -n "$n" -p v1 > /dev/null
		same_as_golden v1.pbn v1 pbn || { echo "-n '$n'"; return 1; }
		rm v1.pbn
	done
	v_rc v2
	for n in ' 17-32' '17 - 32' '+17-+32'; do
		dl-bigdealx -h "$(param v2 random)" -n "$n" -p v2 > /dev/null
		same_as_golden v2.pbn v2 pbn || { echo "-n '$n'"; return 1; }
		rm v2.pbn
	done
	fails dl-bigdealx -h "$(param v2 random)" -n 16abc -p x
	[ "$output" = 'dl-bigdealx: -n 16abc: not a board count or range (N or LOW-HIGH)' ]
	fails dl-bigdealx -h "$(param v2 random)" -n 0-3 -p x
	[ "$output" = 'dl-bigdealx: -n 0-3: boards are numbered from 1' ]
	fails dl-bigdealx -h "$(param v2 random)" -n 3-00 -p x
	[ "$output" = 'dl-bigdealx: -n 3-00: boards are numbered from 1' ]
	for n in '' '-' '1-' '-3' '++3' '3-4-5' '0x10' '1e3'; do
		fails dl-bigdealx -h "$(param v2 random)" -n "$n" -p x
		[ "$output" = "dl-bigdealx: -n $n: not a board count or range (N or LOW-HIGH)" ] ||
		    { echo "-n '$n': $output"; return 1; }
	done
	# digits past a board number's ten, however many
	zeros=$(printf '0%.0s' {1..70})
	for n in 1000000001 "${zeros}1" "1-${zeros}1"; do
		fails dl-bigdealx -h "$(param v2 random)" -n "$n" -p x
		[ "$output" = "dl-bigdealx: -n $n: not a board count or range (N or LOW-HIGH, boards 1 to 1000000000)" ] ||
		    { echo "-n '$n': $output"; return 1; }
	done
	fails dl-bigdealx -h "$(param v2 random)" -n "$zeros" -p x
	[ "$output" = "dl-bigdealx: -n $zeros: boards are numbered from 1" ]
	fails dl-bigdealx -h "$(param v2 random)" -n ' 5 - 3 ' -p x
	[ "$output" = "dl-bigdealx: -n  5 - 3 : board range runs backwards" ]
	[ "$(ls -A)" = .bigdealrc ]
}

@test "-E with a file that cannot be opened: a warning, and the deals of the other sources, as the reference" {
	v_rc v1
	dl-bigdealx -W left -e right -n 4 -p want -f pbn > /dev/null
	run -0 --separate-stderr dl-bigdealx -W left -e right -E nofile -n 4 -p got -f pbn
	[ "$stderr" = 'dl-bigdealx: -E nofile: No such file or directory: dealing without it' ]
	[[ "${lines[0]}" =~ $BANNER_RE ]] && [ "${#lines[@]}" -eq 1 ]
	cmp <(strip_generator got.pbn) <(strip_generator want.pbn)
	# alone with -o it leaves too little entropy: refused as ever
	run -1 --separate-stderr dl-bigdealx -o -E nofile -n 4 -p x
	[ "$stderr" = "dl-bigdealx: -E nofile: No such file or directory: dealing without it
dl-bigdealx: only 0 bits of entropy, 160 needed: give longer -e strings (4 bits a character) or drop -o" ]
	# a file that breaks while read is an error
	fails dl-bigdealx -E . -n 4 -p x
	[ "$output" = 'dl-bigdealx: .: Is a directory' ]
}
