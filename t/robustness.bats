#!/usr/bin/env bats
# The catalogue of docs/robustness.md: one test per class of bad input, with
# each tool's exact message and exit status, and for files that nothing
# already written is lost and nothing is left half-written.  Cases that
# t/errors.bats and t/sqd.bats check already are not repeated here; the
# catalogue names them.

load helper

CLUB=$SQUAREDEAL/club

# Directories made read-only must not keep bats from removing the scratch
# directory when a test fails half-way.
teardown() {
	chmod -R u+rwX "$BATS_TEST_TMPDIR" 2> /dev/null || true
}
GOOD_DEAL=0000000000000111111111111122222222222223333333333333

# streams: the seed, numbers and deals of boards 1-4 of vector v1.  Lines:
# the seed record is line 4, numbers' records lines 6-9, deals' 7-10.
streams() {
	seed_of v1 > seed
	dl-stream -n 1-4 < seed > numbers
	dl-map < numbers > deals
}

# club: SquareDeal's example tournament, published and with its DV.
club() {
	cp "$CLUB/club.sqd" "$CLUB/club.sqk" .
	chmod 644 club.sqd club.sqk
}

# files_in DIR: every name in DIR, hidden ones too (a temporary file is
# hidden), sorted, on one line.
files_in() {
	ls -A "$1" | LC_ALL=C sort | tr '\n' ' '
}

# keep FILE...: copies of FILEs as FILE.kept, for intact to compare with.
keep() {
	for f in "$@"; do cp -p "$f" "$f.kept"; done
}

# intact FILE...: each FILE still has the bytes keep saw.
intact() {
	for f in "$@"; do cmp "$f" "$f.kept" || return 1; done
}

# big N CHAR: N bytes of CHAR, no newline.
big() {
	head -c "$1" /dev/zero | tr '\0' "$2"
}

# CMD... with standard output closed, standard input closed, standard
# output on a device that is always full
closed_stdout() { "$@" >&-; }
closed_stdin() { "$@" <&-; }
full_stdout() { "$@" > /dev/full; }

# limited KIB CMD...: CMD may write files of at most KIB KiB (ulimit -f),
# with SIGXFSZ at its default action, which would kill it mid-write.
limited() {
	local kib=$1
	shift
	(ulimit -f "$kib" && exec env --default-signal=XFSZ "$@")
}

# as_user CMD...: CMD meets file permissions as an ordinary user does.
# Root passes them all through CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH:
# as root CMD runs with these two dropped, still as root, so that the
# test's scratch directory stays its own.
as_user() {
	if [ "$(id -u)" -ne 0 ]; then
		"$@"
		return
	fi
	setpriv --inh-caps=-dac_override,-dac_read_search \
	    --bounding-set=-dac_override,-dac_read_search -- "$@"
}

# permissions_hold CMD...: as_user works, and as_user CMD is refused, as
# it must be for the test to mean anything; else the test is skipped
# saying why (under CI, failed: skip_unless_possible), never passed.
permissions_hold() {
	if ! as_user true 2> /dev/null; then
		skip_unless_possible "root's capabilities cannot be dropped here (setpriv)"
	fi
	if as_user "$@" > /dev/null 2>&1; then
		skip_unless_possible "file permissions are not enforced here, even through setpriv"
	fi
}

# on_full_tmpfs SCRIPT: runs SCRIPT with bash in ./disk, a 64 KiB tmpfs
# mounted in a mount namespace of its own: through a user namespace where
# the kernel allows that, which needs no privilege, else as root.  The
# tmpfs goes with the namespace: SCRIPT leaves its findings in ./.
on_full_tmpfs() {
	local ns
	mkdir -p disk
	for ns in "unshare --user --map-root-user --mount" "unshare --mount"; do
		if $ns mount -t tmpfs -o size=64k tmpfs disk 2> /dev/null; then
			$ns bash -c 'mount -t tmpfs -o size=64k tmpfs disk && cd disk && eval "$1"' \
			    bash "$1"
			return
		fi
	done
	skip_unless_possible "no tmpfs can be mounted here: no user namespaces, and not root"
}

@test "truncated line: a line cut short is refused for what it lacks; no file is written" {
	streams
	refuses 1 "dl-stream: line 4: garbled seed record" dl-stream < <(head -c -20 seed)
	refuses 1 "dl-map: line 9: deal number is not 24 lowercase hex digits" \
	    dl-map < <(head -c -10 numbers)
	refuses 1 "dl-map: line 10: deal is not 52 digits" dl-map -r < <(head -c -10 deals)
	refuses 1 'dl-fmt-pbn: line 1: unknown stream kind "dea"' \
	    dl-fmt-pbn < <(printf '#P: dl/1 dea')
	mkdir out
	echo old > out/s.pbn
	keep out/s.pbn
	# --force: the run would replace s.pbn, had it succeeded
	refuses 1 "dl-fmt: line 10: deal is not 52 digits" \
	    dl-fmt -f pbn,dup --force -p out/s < <(head -c -10 deals)
	[ "$(files_in out)" = "s.pbn s.pbn.kept " ]
	intact out/s.pbn
	# a last line that only lacks its newline is whole
	cmp <(dl-fmt-pbn < deals) <(head -c -1 deals | dl-fmt-pbn)
	# files of dl-sqd: the .sqd's KH line, a key, a played deal
	club
	head -c -40 club.sqd > cut.sqd
	refuses 1 "dl-sqd: cut.sqd:11: KH is not 64 hex digits" dl-sqd cut.sqd show
	head -c -30 club.sqk > cut.sqk
	refuses 1 "dl-sqd: cut.sqk does not match the KH of club.sqd: not this tournament's key file, or changed" \
	    dl-sqd --sqk cut.sqk club.sqd make -d out 1 1
	[ "$(files_in out)" = "s.pbn s.pbn.kept " ]
	pbn=$CLUB/expected/rr01.pbn
	head -c "$(($(grep -b '^\[Deal ' "$pbn" | sed -n 2p | cut -d: -f1) + 30))" "$pbn" > rr01.pbn
	refuses 1 "dl-sqd: rr01.pbn:31: [Deal: its value's closing quote is not on the line" dl-sqd club.sqd verify --deals rr01.pbn
}

@test "overlong line (1 MiB): refused by every stage and in .sqd, .sqk and played files" {
	streams
	refuses 1 "dl-stream: line 2: line too long (over 65536 bytes)" \
	    dl-stream < <(echo '#P: dl/1 seed'; big 1048576 a; echo)
	refuses 1 "dl-map: line 1: line too long (over 65536 bytes)" \
	    dl-map < <(big 1048576 0; echo)
	refuses 1 "dl-map: line 8: line too long (over 65536 bytes)" \
	    dl-map -r < <(head -7 deals; echo -n '2 '; big 1048576 0; echo)
	mkdir out
	refuses 1 "dl-fmt: line 8: line too long (over 65536 bytes)" \
	    dl-fmt -f pbn,dup -p out/s < <(head -7 deals; big 1048576 0)
	[ "$(files_in out)" = "" ]
	# the limit itself: a 65536-byte line passes, one byte more does not
	dl-fmt-pbn < <(echo '#P: dl/1 deals'; echo -n '#X: '; big 65532 x; echo; echo "1 $GOOD_DEAL") > /dev/null
	refuses 1 "dl-fmt-pbn: line 2: line too long (over 65536 bytes)" \
	    dl-fmt-pbn < <(echo '#P: dl/1 deals'; echo -n '#X: '; big 65533 x; echo; echo "1 $GOOD_DEAL")
	# a CR LF's CR is its line end's, not its line's
	dl-fmt-pbn < <(echo '#P: dl/1 deals'; echo -n '#X: '; big 65532 x; printf '\r\n'; echo "1 $GOOD_DEAL") > /dev/null
	refuses 1 "dl-fmt-pbn: line 2: line too long (over 65536 bytes)" \
	    dl-fmt-pbn < <(echo '#P: dl/1 deals'; echo -n '#X: '; big 65533 x; printf '\r\n'; echo "1 $GOOD_DEAL")
	# a value that could not be read back is refused before it is written
	# (an argument holds at most 128 KiB: 100 000 bytes stand for 1 MiB)
	long=$(big 100000 x)
	refuses 2 "dl-seed: --event: not one line of valid UTF-8 text" dl-seed --event "$long"
	refuses 2 "dl-deal: --event: not one line of valid UTF-8 text" dl-deal -i "$long"
	club
	sed -i '/^DV /d' club.sqd
	keep club.sqd
	refuses 2 "dl-sqd: the delayed value is one line of text, not empty" \
	    dl-sqd club.sqd set-dv "$long"
	intact club.sqd
	dl-sqd club.sqd show > /dev/null
	# files of dl-sqd
	club
	{ cat club.sqd; big 1048576 '#'; echo; } > long.sqd
	refuses 1 "dl-sqd: long.sqd:14: line too long (over 65536 bytes)" dl-sqd long.sqd show
	{ cat club.sqk; big 1048576 a; printf '\r\n'; } > long.sqk
	refuses 1 "dl-sqd: long.sqk: larger than a key file can be" \
	    dl-sqd --sqk long.sqk club.sqd verify
	{ echo '[Board "1"]'; echo -n '[Deal "N:'; big 1048576 A; echo '"]'; } > rr01.pbn
	refuses 1 "dl-sqd: rr01.pbn:2: a line longer than 1 MiB" \
	    dl-sqd club.sqd verify --deals rr01.pbn
}

@test "a stream's line end on the last byte of a read: LF and CR LF end the line once, a CR alone ends none" {
	# the reader takes 65538 bytes at a time: after the first line's 15,
	# a header of 65522 puts its line end's first byte last in the first
	# read; the bad record on line 4 shows the lines counted right
	for end in '\n' '\r\n'; do
		refuses 1 "dl-fmt-pbn: line 4: deal is not 52 digits" \
		    dl-fmt-pbn < <(echo '#P: dl/1 deals'; echo -n '#X: '; big 65518 x; printf "$end"
		    echo "1 $GOOD_DEAL"; echo "2 0")
	done
	# a CR alone is the line's, and refused with it
	refuses 1 "dl-fmt-pbn: line 2: header #X: is not one line of valid UTF-8 text" \
	    dl-fmt-pbn < <(echo '#P: dl/1 deals'; echo -n '#X: '; big 65518 x; printf '\rx\n'
	    echo "1 $GOOD_DEAL")
}

@test "NUL bytes: refused by every stage and in .sqd, .sqk and played files" {
	streams
	refuses 1 "dl-stream: line 4: NUL byte in line" \
	    dl-stream < <(head -3 seed; printf 'bigdeal \0\n')
	refuses 1 "dl-map: line 6: NUL byte in line" \
	    dl-map -r < <(head -5 deals; printf '#M: big\0deal\n')
	mkdir out
	refuses 1 "dl-fmt: line 8: NUL byte in line" \
	    dl-fmt -f pbn -p out/s < <(head -7 deals; printf '2 \0%s\n' "$GOOD_DEAL")
	[ "$(files_in out)" = "" ]
	refuses 1 "dl-fmt-pbn: line 1: NUL byte in line" dl-fmt-pbn < <(printf '\0\n')
	club
	{ head -3 club.sqd; printf 'DI a\0b\n'; } > nul.sqd
	refuses 1 "dl-sqd: nul.sqd:4: NUL byte in line" dl-sqd nul.sqd show
	{ head -2 club.sqk; printf '1,3:ab\0cd\r\n'; } > nul.sqk
	refuses 1 "dl-sqd: nul.sqk:3: stray NUL or CR" dl-sqd --sqk nul.sqk club.sqd verify
	printf '[Board "1"]\n[Deal "N:\0"]\n' > rr01.pbn
	refuses 1 "dl-sqd: rr01.pbn:2: a NUL byte: not a text file" dl-sqd club.sqd verify --deals rr01.pbn
}

@test "invalid UTF-8 in an event name: refused in streams, options and .sqd files" {
	streams
	# a lone Latin-1 byte, an overlong '/', a surrogate, beyond U+10FFFF, a cut sequence
	for bad in $'Caf\xe9' $'\xc0\xaf' $'\xed\xa0\x80' $'\xf4\x90\x80\x80' $'\xe2\x82'; do
		refuses 1 "dl-stream: line 4: header #I: is not one line of valid UTF-8 text" \
		    dl-stream < <(head -3 seed; echo "#I: $bad"; tail -1 seed)
	done
	refuses 1 "dl-map: line 7: header #I: is not one line of valid UTF-8 text" \
	    dl-map -r < <(head -6 deals; echo $'#I: Caf\xe9'; tail -4 deals)
	mkdir out
	refuses 1 "dl-fmt: line 2: header #I: is not one line of valid UTF-8 text" \
	    dl-fmt -f pbn,lin -p out/s < <(head -1 deals; echo $'#I: Caf\xe9'; tail -n +2 deals)
	[ "$(files_in out)" = "" ]
	refuses 2 "dl-seed: --event: not one line of valid UTF-8 text" \
	    dl-seed --event $'Caf\xe9'
	refuses 2 "dl-deal: --event: not one line of valid UTF-8 text" \
	    dl-deal -i $'Caf\xe9' -p out/s
	[ "$(files_in out)" = "" ]
	refuses 2 "dl-sqd: the name and the delayed information are one line of UTF-8 text" \
	    dl-sqd t.sqd create --name $'Caf\xe9' --di x
	[ ! -e t.sqd ]
	# UTF-8 is fine (PBN holds it in Latin-1, its character set)
	dl-fmt-pbn < <(head -1 deals; echo $'#I: Caf\xc3\xa9'; tail -n +2 deals) |
	    grep -aqxF $'[Event "Caf\xe9"]'
	club
	sed $'s/^TN .*/TN Caf\xe9/' club.sqd > bad.sqd
	refuses 1 "dl-sqd: bad.sqd:3: TN is not valid UTF-8" dl-sqd bad.sqd show
	sed $'s/^SN 2:12:ko#:Knockout/SN 2:12:ko#:Knock\xf6ut/' club.sqd > bad.sqd
	refuses 1 "dl-sqd: bad.sqd:9: a phase description is not valid UTF-8" dl-sqd bad.sqd show
}

@test "out-of-range numbers: boards, board ranges, coordinates, sessions" {
	streams
	for bad in 0-5 1-1000000001 1-99999999999999999999 -1-5; do
		refuses 1 "dl-stream: line 4: #B: not a board count or range (N or LOW-HIGH, boards 1 to 1000000000)" \
		    dl-stream < <(head -3 seed; echo "#B: $bad"; tail -1 seed)
	done
	for bad in 0 1000000001 18446744073709551617 +1 -1; do
		refuses 1 "dl-map: line 1: bad board number \"$bad\"" \
		    dl-map < <(echo "$bad 000000000000000000000000")
	done
	refuses 1 'dl-map: line 2: bad board number "1000000001"' \
	    dl-map -r < <(echo "1000000000 $GOOD_DEAL"; echo "1000000001 $GOOD_DEAL")
	mkdir out
	refuses 1 'dl-fmt: line 1: bad board number "4294967297"' \
	    dl-fmt -f pbn -p out/s < <(echo "4294967297 $GOOD_DEAL")
	[ "$(files_in out)" = "" ]
	dl256="dl256 $(printf '%064d' 0)"
	refuses 2 "dl-stream: --event 18446744073709551616: too large (0 to 18446744073709551615)" \
	    dl-stream --event 18446744073709551616 < <(echo "$dl256")
	refuses 2 "dl-stream: --session 4294967296: too large (0 to 4294967295)" \
	    dl-stream --session 4294967296 < <(echo "$dl256")
	refuses 2 "dl-stream: --session -1: too small (0 to 4294967295)" \
	    dl-stream --session -1 < <(echo "$dl256")
	# sessions: what add-phase writes, a later read must take
	mkdir tour
	dl-sqd tour/t.sqd create --name T --di D
	keep tour/t.sqd
	refuses 2 "dl-sqd: 1000000000 sessions in all: a tournament has at most 10000" \
	    dl-sqd tour/t.sqd add-phase 1000000000 16 x
	refuses 2 'dl-sqd: bad number of sessions "1000000001"' \
	    dl-sqd tour/t.sqd add-phase 1000000001 16 x
	intact tour/t.sqd
	# and publish checks before it writes a key: 999999999 would be 66 GB
	echo 'SN 999999999:16:x:' >> tour/t.sqd
	refuses 1 "dl-sqd: tour/t.sqd has 999999999 sessions in all: a tournament has at most 10000" \
	    dl-sqd tour/t.sqd publish
	[ "$(files_in tour)" = "t.sqd t.sqd.kept " ]
	club
	refuses 2 "dl-sqd: no phase 99: there are 3" dl-sqd club.sqd make 99
	refuses 2 "dl-sqd: no session 3: there are 2" dl-sqd club.sqd make 2 3
	{ cat club.sqk; printf '4294967297,1:abc\r\n'; } > big.sqk
	refuses 1 "dl-sqd: big.sqk:7: expected PHASE,SESSION:KEY" dl-sqd --sqk big.sqk club.sqd verify
	[ "$(files_in out)" = "" ]
}

@test "wrong protocol version: refused on line 1 by every stage" {
	streams
	refuses 1 "dl-stream: line 1: unsupported protocol version dl/2 (this tool reads dl/1)" \
	    dl-stream < <(echo '#P: dl/2 seed'; tail -n +2 seed)
	refuses 1 "dl-map: line 1: unsupported protocol version dl/0 (this tool reads dl/1)" \
	    dl-map -r < <(echo '#P: dl/0 deals'; tail -n +2 deals)
	refuses 1 "dl-map: line 1: unsupported protocol version dl/99999999999999999999 (this tool reads dl/1)" \
	    dl-map < <(echo '#P: dl/999999999999999999999999 numbers'; tail -n +2 numbers)
	mkdir out
	for bad in 'dl/1.0' 'dl/ 1' 'dl/+1' 'dl/' 'dl/1'$'\t'; do
		refuses 1 "dl-fmt: line 1: garbled protocol line" \
		    dl-fmt -f pbn -p out/s < <(echo "#P: $bad deals"; tail -n +2 deals)
	done
	refuses 1 'dl-fmt: line 1: not a dl stream (expected "#P: dl/1 deals")' \
	    dl-fmt -f pbn -p out/s < <(echo '#P: DL/1 deals'; tail -n +2 deals)
	[ "$(files_in out)" = "" ]
}

@test "reordered headers: #P: first, the others in any order and kept in it" {
	streams
	refuses 1 'dl-stream: line 1: a stream with headers must begin with "#P: dl/1 seed"' \
	    dl-stream < <(sed -n 2p seed; sed -n 1p seed; tail -n +3 seed)
	refuses 1 'dl-map: line 5: protocol line #P: out of place' \
	    dl-map < <(head -4 numbers; head -1 numbers; tail -n +5 numbers)
	refuses 1 'dl-map: line 1: a stream with headers must begin with "#P: dl/1 deals"' \
	    dl-map -r < <(tail -n +2 deals)
	mkdir out
	refuses 1 'dl-fmt: line 8: header line after the first record' \
	    dl-fmt -f pbn -p out/s < <(head -7 deals; echo '#I: late'; tail -3 deals)
	[ "$(files_in out)" = "" ]
	# the other headers in reverse order: the same deals, the order kept
	{ head -1 deals; sed -n '2,6p' deals | tac; tail -4 deals; } > reordered
	[ "$(dl-map -r < reordered | head -5)" = "$(echo '#P: dl/1 numbers'; sed -n '3,6p' reordered)" ]
	cmp <(dl-map -r < deals | grep -v '^#') <(dl-map -r < reordered | grep -v '^#')
	cmp <(dl-fmt-pbn < deals) <(dl-fmt-pbn < reordered)
	[ "$(dl-fmt-tso < reordered | sed -n 2,6p)" = "$(sed -n 2,6p reordered)" ]
}

@test "full disk, standard output (/dev/full): every tool says so" {
	streams
	club
	refuses 2 "dl-seed: write error on standard output: No space left on device" \
	    full_stdout seed_of v1
	refuses 2 "dl-stream: write error on standard output: No space left on device" \
	    full_stdout dl-stream < seed
	refuses 2 "dl-map: write error on standard output: No space left on device" \
	    full_stdout dl-map < numbers
	refuses 2 "dl-map: write error on standard output: No space left on device" \
	    full_stdout dl-map -r < deals
	refuses 2 "dl-fmt: write error on standard output: No space left on device" \
	    full_stdout dl-fmt -f tso < deals
	refuses 2 "dl-deal: write error on standard output: No space left on device" \
	    full_stdout dl-deal
	refuses 2 "dl-sqd: write error on standard output: No space left on device" \
	    full_stdout dl-sqd club.sqd seed 1 1
	refuses 2 "dl-sqd: write error on standard output: No space left on device" \
	    full_stdout dl-sqd club.sqd verify
}

@test "full disk, files (a file size limit): nothing half-written, nothing lost" {
	streams
	mkdir out
	echo old > out/s.pbn
	keep out/s.pbn
	# 1 KiB: every PBN of four boards is longer
	refuses 2 "dl-fmt: write error on out/s.pbn: File too large" \
	    limited 1 dl-fmt -f lin,pbn --force -p out/s < deals
	[ "$(files_in out)" = "s.pbn s.pbn.kept " ]
	intact out/s.pbn
	refuses 2 "dl-deal: write error on out/t.pbn: File too large" \
	    limited 1 dl-deal --no-archive -n 8 -f lin,pbn -p out/t
	[ "$(files_in out)" = "s.pbn s.pbn.kept " ]
	# the archive, written first, may be what the limit stops: no file then
	refuses 2 "dl-deal: archive: $DL_ARCHIVE: cannot write to the archive: disk I/O error" \
	    limited 1 dl-deal -n 8 -f lin,pbn -p out/t
	[ "$(files_in out)" = "s.pbn s.pbn.kept " ]
	# dl-seed --commit, and its seed history: no part of a line is left
	for i in $(seq 31); do echo 0123456789abcdef0123456789abcdef; done > seed-history
	keep seed-history
	refuses 2 "dl-seed: $DL_SEED_HISTORY: File too large" limited 1 dl-seed --commit out/c
	intact seed-history
	[ "$(files_in out)" = "s.pbn s.pbn.kept " ]
	rm seed-history
	# dl-sqd: the session files, the .sqd, and publish, whose key file
	# fits but whose .sqd does not: the keys are taken back
	club
	refuses 2 "dl-sqd: write error on out/rr01.pbn: File too large" \
	    limited 1 dl-sqd club.sqd make --no-archive -d out 1
	[ "$(files_in out)" = "s.pbn s.pbn.kept " ]
	refuses 2 "dl-sqd: archive: $DL_ARCHIVE: cannot write to the archive: disk I/O error" \
	    limited 1 dl-sqd club.sqd make -d out 1
	[ "$(files_in out)" = "s.pbn s.pbn.kept " ]
	mkdir tour
	dl-sqd tour/t.sqd create --name "$(big 2000 T)" --di D
	dl-sqd tour/t.sqd add-phase 1 16 s > /dev/null
	keep tour/t.sqd
	refuses 2 "dl-sqd: write error on tour/t.sqd: File too large" \
	    limited 1 dl-sqd tour/t.sqd publish
	refuses 2 "dl-sqd: write error on tour/t.sqd: File too large" \
	    limited 1 dl-sqd tour/t.sqd set-name "$(big 2000 U)"
	[ "$(files_in tour)" = "t.sqd t.sqd.kept " ]
	intact tour/t.sqd
	# with room, publish runs again
	dl-sqd tour/t.sqd publish > /dev/null
	[ "$(files_in tour)" = "t.sqd t.sqd.kept t.sqk " ]
}

@test "full disk, files (a full tmpfs): nothing half-written, nothing lost" {
	deals_of v1 > deals
	club
	sed -i '/^DV /d' club.sqd
	cp club.sqd waiting.sqd
	on_full_tmpfs '
		echo old > s.pbn
		cp ../waiting.sqd ../club.sqk .
		head -c 1M /dev/zero > fill 2> /dev/null
		dl-fmt -f pbn,lin --force -p s < ../deals 2> ../fmt.err
		echo $? > ../fmt.status
		dl-sqd waiting.sqd set-dv 1234 2> ../dv.err > /dev/null
		echo $? > ../dv.status
		ls -A | LC_ALL=C sort | tr "\n" " " > ../files
		cat s.pbn > ../s.pbn.after
		cat waiting.sqd > ../waiting.sqd.after'
	[ "$(cat fmt.status)" = 2 ]
	[ "$(cat fmt.err)" = "dl-fmt: write error on s.pbn: No space left on device" ]
	[ "$(cat dv.status)" = 2 ]
	[ "$(cat dv.err)" = "dl-sqd: write error on waiting.sqd: No space left on device" ]
	[ "$(cat files)" = "club.sqk fill s.pbn waiting.sqd " ]
	[ "$(cat s.pbn.after)" = old ]
	cmp waiting.sqd.after waiting.sqd
}

@test "closed standard output: an error where output is lost, none where there is none" {
	streams
	refuses 2 "dl-seed: write error on standard output: Bad file descriptor" \
	    closed_stdout seed_of v1
	refuses 2 "dl-stream: write error on standard output: Bad file descriptor" \
	    closed_stdout dl-stream < seed
	refuses 2 "dl-map: write error on standard output: Bad file descriptor" \
	    closed_stdout dl-map < numbers
	refuses 2 "dl-fmt-pbn: write error on standard output: Bad file descriptor" \
	    closed_stdout dl-fmt-pbn < deals
	refuses 2 "dl-map: read error: Bad file descriptor" closed_stdin dl-map
	# files only: the descriptor is not handed to a temporary file, and
	# the run succeeds with whole files
	mkdir out
	closed_stdout dl-fmt -f pbn,lin -p out/s < deals
	dl-fmt -f pbn,lin -p out/t < deals
	cmp out/s.pbn out/t.pbn
	cmp out/s.lin out/t.lin
	closed_stdout dl-deal -n 4 -f pbn,lin -p out/d
	[ "$(files_in out)" = "d.lin d.pbn s.lin s.pbn t.lin t.pbn " ]
	# dl-sqd make reports its files on standard output: that is lost
	club
	refuses 2 "dl-sqd: write error on standard output: Bad file descriptor" \
	    closed_stdout dl-sqd club.sqd make -d out 1 1
	cmp <(strip_generator out/rr01.pbn) <(strip_generator "$CLUB/expected/rr01.pbn")
}

@test "read-only output directory: refused, the files in it untouched" {
	streams
	club
	mkdir ro keys
	echo old > ro/s.pbn
	cp club.sqd ro/
	keep ro/s.pbn ro/club.sqd
	chmod 555 ro
	permissions_hold mkdir ro/probe
	refuses 2 "dl-fmt: cannot create a file next to ro/s.pbn: Permission denied" \
	    as_user dl-fmt -f pbn --force -p ro/s < deals
	refuses 2 "dl-deal: cannot create a file next to ro/t.pbn: Permission denied" \
	    as_user dl-deal -n 4 -p ro/t
	refuses 2 "dl-seed: cannot create a file next to ro/c: Permission denied" \
	    as_user dl-seed --commit ro/c
	refuses 2 "dl-sqd: cannot create a file next to ro/rr01.pbn: Permission denied" \
	    as_user dl-sqd club.sqd make -d ro 1 1
	# the .sqd's directory read-only, its key file elsewhere: publish
	# takes the keys back when it cannot record their KH
	chmod 755 ro
	dl-sqd ro/t.sqd create --name T --di D
	dl-sqd ro/t.sqd add-phase 2 16 s > /dev/null
	keep ro/t.sqd
	chmod 555 ro
	refuses 2 "dl-sqd: cannot create a file next to ro/t.sqd: Permission denied" \
	    as_user dl-sqd --sqk keys/t.sqk ro/t.sqd publish
	[ "$(files_in keys)" = "" ]
	refuses 2 "dl-sqd: cannot create a file next to ro/t.sqd: Permission denied" \
	    as_user dl-sqd ro/t.sqd set-di E
	[ "$(files_in ro)" = "club.sqd club.sqd.kept s.pbn s.pbn.kept t.sqd t.sqd.kept " ]
	intact ro/s.pbn ro/club.sqd ro/t.sqd
}

@test ".sqk with wrong permissions: unreadable is refused, readable by others is accepted" {
	club
	mkdir out
	chmod 000 club.sqk
	permissions_hold cat club.sqk
	refuses 2 "dl-sqd: club.sqk: the session keys are needed to deal: Permission denied" \
	    as_user dl-sqd club.sqd make -d out 1 1
	refuses 2 "dl-sqd: club.sqk: the session keys are needed to deal: Permission denied" \
	    as_user dl-sqd club.sqd seed 1 1
	refuses 2 "dl-sqd: club.sqk: Permission denied" as_user dl-sqd club.sqd verify
	run as_user dl-sqd club.sqd show
	[ "$status" -eq 0 ]
	[ "${lines[3]}" = "Stage: delayed value set (the key file here cannot be read)" ]
	[ "$(files_in out)" = "" ]
	mv club.sqk keys
	mkdir club.sqk
	refuses 2 "dl-sqd: club.sqk: Is a directory" dl-sqd club.sqd make -d out 1 1
	[ "$(files_in out)" = "" ]
	# after the event the key file is public: players check with a copy
	rmdir club.sqk
	mv keys club.sqk
	chmod 644 club.sqk
	run --separate-stderr dl-sqd club.sqd verify
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	# publish makes it 0600 whatever the umask
	dl-sqd t.sqd create --name T --di D
	dl-sqd t.sqd add-phase 1 16 s > /dev/null
	(umask 000 && dl-sqd t.sqd publish > /dev/null)
	[ "$(stat -c %a t.sqk)" = 600 ]
}
