#!/usr/bin/env bats
# dl-read, the host side of reading (lib/files/readers.c): finding the format,
# numbering and checking boards, one stream out of several files.  The
# readers of dl's own formats have their own tests; here the example
# plugin share/examples/handlist.c, built as a third party builds it.

load helper

setup_file() {
	mkdir -p "$BATS_FILE_TMPDIR/plugins"
	cc -shared -fPIC -I"$BATS_TEST_DIRNAME/../lib" \
	    "$BATS_TEST_DIRNAME/../share/examples/handlist.c" -o "$BATS_FILE_TMPDIR/plugins/handlist.so"
}

# session N: a deals stream of boards 1-N with an event
session() {
	dl-seed --not-for-play --no-history --hex 0123456789abcdef0123456789abcdef01234567 \
	    --event 'Club night' 2> /dev/null | dl-stream -n "$1" | dl-map
}

# deals_only: a stream's records
records() {
	grep -v '^#' "$@"
}

@test "dl-read: a file back into the deals it was written from, event and boards in the headers" {
	export DL_PLUGIN_PATH=$BATS_FILE_TMPDIR/plugins
	session 16 > s.tso
	dl-fmt -f handlist -p x < s.tso
	run -0 --separate-stderr dl-read x.hands
	[ "${lines[0]}" = "#P: dl/1 deals" ]
	[ "${lines[1]}" = "#I: Club night" ]
	[ "${lines[2]}" = "#B: 1-16" ]
	[ "${#lines[@]}" -eq 19 ]
	[ -z "$stderr" ]
	diff <(records s.tso) <(printf '%s\n' "${lines[@]}" | records)
	# from standard input and under another name: by content
	cp x.hands plain.txt
	dl-read < plain.txt | cmp - <(dl-read x.hands)
	dl-read plain.txt | cmp - <(dl-read x.hands)
	dl-read -f handlist plain.txt | cmp - <(dl-read x.hands)
	ln -s "$(command -v dl-read)" dl-read-handlist
	./dl-read-handlist plain.txt | cmp - <(dl-read x.hands)
	fails ./dl-read-handlist -f pbn plain.txt
	[ "$output" = "dl-read-handlist: dl-read-handlist reads handlist only: no -f" ]
	# and it feeds dl-fmt
	dl-read x.hands | dl-fmt -f handlist -p again
	cmp again.hands x.hands
}

@test "dl-read: several files make one stream; a board again or missing is refused unless --renumber" {
	export DL_PLUGIN_PATH=$BATS_FILE_TMPDIR/plugins
	session 8 > s.tso
	dl-fmt -f handlist -p x < s.tso
	head -5 x.hands > a.hands
	{ head -1 x.hands; tail -4 x.hands; } > b.hands
	dl-read a.hands b.hands | cmp - <(dl-read x.hands)
	fails dl-read x.hands x.hands
	[ "$output" = "dl-read: x.hands:1: board 1 after board 8: a board again, or out of order (--renumber numbers the boards 1, 2, ... as they come)" ]
	fails dl-read a.hands a.hands
	[ "$status" -eq 1 ]
	{ head -3 x.hands; tail -2 x.hands; } > gap.hands
	fails dl-read gap.hands
	[ "$output" = "dl-read: gap.hands:4: board 7 after board 2: boards 3 to 6 are missing (--renumber numbers the boards 1, 2, ... as they come)" ]
	run -0 dl-read --renumber x.hands x.hands
	[ "${lines[2]}" = "#B: 1-16" ]
	diff <(printf '%s\n' "${lines[@]:3}" | cut -d' ' -f2) <(records s.tso s.tso | cut -d' ' -f2)
	[ "${lines[11]%% *}" = 9 ]
	# a file that starts past 1 keeps its numbers
	run -0 dl-read b.hands a.hands --renumber
	run -0 dl-read b.hands
	[ "${lines[2]}" = "#B: 5-8" ]
}

@test "dl-read: a pipe is read once, its deals held in a temporary file that nobody else can open" {
	export DL_PLUGIN_PATH=$BATS_FILE_TMPDIR/plugins
	session 40 > s.tso
	dl-fmt -f handlist -p x < s.tso
	mkdir spool
	TMPDIR=$PWD/spool dl-read < x.hands > piped.tso
	cmp piped.tso <(dl-read x.hands)
	# unlinked as soon as made
	[ -z "$(ls -A spool)" ]
	# and where it cannot be made, one line and no stream
	TMPDIR=$PWD/absent run -2 --separate-stderr dl-read < x.hands
	[ "$stderr" = "dl-read: a temporary file in $PWD/absent: No such file or directory" ]
	[ -z "$output" ]
}

@test "dl-read: what cannot be read is one line naming the file and line, and no stream" {
	export DL_PLUGIN_PATH=$BATS_FILE_TMPDIR/plugins
	session 4 | dl-fmt -f handlist -p x
	sed '3s/K/Q/' x.hands > twice.hands
	fails dl-read twice.hands
	[[ "$output" == "dl-read: twice.hands:3: board 2: a card twice" ]]
	[ "${#lines[@]}" -eq 0 ]
	fails dl-read nosuch.hands
	[ "$output" = "dl-read: nosuch.hands: No such file or directory" ]
	[ "$status" -eq 2 ]
	echo 'hello' > what.txt
	fails dl-read what.txt
	[ "$output" = "dl-read: what.txt: cannot tell its format (give -f; dl-read --list shows the formats it reads)" ]
	fails dl-read -f nosuch what.txt
	[ "$status" -eq 2 ]
	: > empty.hands
	fails dl-read empty.hands
	[ "$output" = "dl-read: no boards in empty.hands" ]
	# NUL bytes and endless lines
	printf '1 N:\0\n' > nul.hands
	fails dl-read nul.hands
	[ "$output" = "dl-read: nul.hands:1: a NUL byte: not a text file" ]
	head -c 1100000 /dev/zero | tr '\0' 'x' > long.hands
	fails dl-read long.hands
	[ "$output" = "dl-read: long.hands:1: a line longer than 1 MiB" ]
	# escaped, as every message quoting its input
	printf '= x\n1 N:\033[2J\n' > esc.hands
	fails dl-read esc.hands
	[ "$output" = 'dl-read: esc.hands:2: board 1: not a deal' ]
	printf '1 N:.....\033[2J\n' > esc2.hands
	fails dl-read -f handlist esc2.hands
	[ "$output" = 'dl-read: esc2.hands:1: board 1: not a deal' ]
}

@test "dl-read: line ends LF, CR LF and a lone CR; the event as UTF-8, from Latin-1 too" {
	export DL_PLUGIN_PATH=$BATS_FILE_TMPDIR/plugins
	session 3 | dl-fmt -f handlist -p x
	dl-read x.hands > want
	sed 's/$/\r/' x.hands > crlf.hands
	dl-read crlf.hands | cmp - want
	tr '\n' '\r' < x.hands > cr.hands
	dl-read cr.hands | cmp - want
	{ printf '= J\xfcrgen\xa0Cup\n'; tail -3 x.hands; } > latin1.hands
	run -0 dl-read latin1.hands
	[ "${lines[1]}" = $'#I: J\xc3\xbcrgen\xc2\xa0Cup' ]
	{ printf '= Tab\there\x85\n'; tail -3 x.hands; } > controls.hands
	run -0 dl-read controls.hands
	[ "${lines[1]}" = "#I: Tab here" ]
	# an event that differs between files: the first kept, said once
	{ printf '= Other\n'; tail -3 x.hands; } > other.hands
	run -0 --separate-stderr dl-read --renumber x.hands other.hands other.hands
	[ "${lines[1]}" = "#I: Club night" ]
	[ "$stderr" = 'dl-read: other.hands:1: board 1: event "Other", not the first board'"'"'s: #I: keeps the first' ]
	{ printf '= %0505d\n' 0; tail -3 x.hands; } > long.hands
	run -0 --separate-stderr dl-read long.hands
	[ "${lines[1]}" = "#B: 1-3" ]
	[ "$stderr" = "dl-read: long.hands:1: event: longer than 500 bytes: the stream gets no #I:" ]
}


# comment N END: a handlist comment line of N bytes ended by END (printf's)
comment() {
	printf '#'
	head -c "$(($1 - 1))" /dev/zero | tr '\0' x
	printf "$2"
}

@test "dl-read: a line of 1 MiB passes and one byte more does not, with each line end; a line end the reads cut is one" {
	export DL_PLUGIN_PATH=$BATS_FILE_TMPDIR/plugins
	session 4 | dl-fmt -f handlist -p x
	dl-read x.hands > want
	# a card twice on line 3, to show which line the reader is on
	sed '3s/K/Q/' x.hands > twice.hands
	for end in '\n' '\r\n' '\r'; do
		{ comment 1048576 "$end"; cat x.hands; } > limit.hands
		dl-read limit.hands | cmp - want
		{ comment 1048577 "$end"; cat x.hands; } > over.hands
		refuses 1 "dl-read: over.hands:1: a line longer than 1 MiB" dl-read over.hands
		# the host reads a file 64 KiB at a time: the line end's first
		# byte is the last of the first read
		{ comment 65535 "$end"; cat twice.hands; } > cut.hands
		refuses 1 "dl-read: cut.hands:4: board 2: a card twice" dl-read cut.hands
		# and 1 MiB, its line end's first byte the last of a read
		{ comment 65534 '\n'; comment 1048576 "$end"; cat twice.hands; } > cut.hands
		refuses 1 "dl-read: cut.hands:5: board 2: a card twice" dl-read cut.hands
	done
	# the last line needs no line end, and a CR alone ends it
	{ cat x.hands; comment 1048576 ''; } > last.hands
	dl-read last.hands | cmp - want
	{ cat x.hands; comment 1048576 '\r'; } > last.hands
	dl-read last.hands | cmp - want
	{ cat x.hands; comment 1048577 ''; } > last.hands
	refuses 1 "dl-read: last.hands:$(($(wc -l < x.hands) + 1)): a line longer than 1 MiB" \
	    dl-read last.hands
}
@test "dl-read --list: the formats with a reader" {
	export DL_PLUGIN_PATH=$BATS_FILE_TMPDIR/plugins
	run -0 dl-read --list
	[ "${lines[0]}" = "FORMAT     SUFFIX DESCRIPTION" ]
	printf '%s\n' "${lines[@]}" | grep -qx 'handlist   .hands one line a board: BOARD N:hands (an example)'
	printf '%s\n' "${lines[@]}" | grep -v -q '^dupblind '
}

@test "the dl-read-NAME links name exactly the plugins that read" {
	# what the plugins say (a read_board), against the Makefile's READERS
	# (found in the sources: .read_board set); t/fuzz.bats checks fuzz_read's
	readers=$(dl-read --list | awk 'NR > 1 { print $1 }' | sort | tr '\n' ' ')
	made=$(cd "$DL_BUILD/bin" && ls dl-read-* | sed 's/^dl-read-//' | sort | tr '\n' ' ')
	[ -n "$readers" ]
	[ "$made" = "$readers" ] || { echo "Makefile: $made; plugins: $readers"; return 1; }
}
