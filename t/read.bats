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
	cc -shared -fPIC -I"$BATS_TEST_DIRNAME/../lib" \
	    "$BATS_TEST_DIRNAME/../share/examples/hcp.c" -o "$BATS_FILE_TMPDIR/hcp.so"
	# a writer whose loading ends the tool that loads it: its constructor
	# runs inside dlopen, before the host can look at it
	cc -shared -fPIC -I"$BATS_TEST_DIRNAME/../lib" -x c - -o "$BATS_FILE_TMPDIR/trap.so" <<-'EOF'
		#include <unistd.h>
		#include <dl/plugin.h>
		__attribute__((constructor)) static void
		sprung(void)
		{
			static const char said[] = "trap.so was loaded\n";
			write(2, said, sizeof said - 1);
			_exit(99);
		}
		const struct dl_plugin dl_plugin = { DL_PLUGIN_HEAD, .name = "trap",
		    .suffix = "trp", .description = "a writer that must not be loaded",
		    .kind = DL_TEXT };
	EOF
}

# trap_dir DIR: a plugin directory of the example reader and trap.so, a
# writer alone whose loading ends the tool with status 99, and an index
# written by hand, newer than both, that says so
trap_dir() {
	mkdir "$1"
	cp "$BATS_FILE_TMPDIR/plugins/handlist.so" "$BATS_FILE_TMPDIR/trap.so" "$1/"
	touch -d @1000000000 "$1/handlist.so" "$1/trap.so"
	printf 'dl-plugin-index 1\nhandlist hands reads\ntrap trp writes\n' > "$1/plugins.index"
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

@test "telling a file's format never loads a writer its plugin directory's index names" {
	trap_dir trap
	session 4 > s.tso
	dl-fmt -f pbn,lin -p x < s.tso
	DL_PLUGIN_PATH=$BATS_FILE_TMPDIR/plugins dl-fmt -f handlist -p x < s.tso
	dl-read x.pbn > want
	cp x.pbn x.txt
	cp x.pbn x.trp
	export DL_PLUGIN_PATH=$PWD/trap
	# by its suffix, by its content (no suffix of a reader's: a writer's,
	# none, standard input), the third party's reader too
	for f in x.pbn x.lin x.txt x.trp x.hands; do
		run -0 --separate-stderr dl-read "$f"
		[ "$output" = "$(cat want)" ] && [ -z "$stderr" ]
	done
	run -0 --separate-stderr dl-read < x.txt
	[ "$output" = "$(cat want)" ] && [ -z "$stderr" ]
	# every tool that reads
	run -0 --separate-stderr dl-diff x.txt x.hands
	[ -z "$output" ] && [ -z "$stderr" ]
	session 8 | dl-board -b 5-8 > other.tso
	dl-archive -q add other.tso
	run -0 --separate-stderr dl-archive check x.txt
	[ -z "$output" ] && [ -z "$stderr" ]
	run -0 --separate-stderr dl-read --list
	[ "${lines[0]}" = "FORMAT     SUFFIX DESCRIPTION" ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^handlist   .hands one line a board')" -eq 1 ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^trap ')" -eq 0 ]
	[ -z "$stderr" ]
	refuses 2 "dl-read: format trap has no reader (dl-read --list shows the formats it reads)" \
	    dl-read -f trap x.pbn
	# the trap is real: whatever does not hold the index loads it
	refuses 99 "trap.so was loaded" dl-fmt --list
	# a plugin newer than the index, which does not describe it
	touch trap/trap.so
	refuses 99 "trap.so was loaded" dl-read x.txt
	touch -d @1000000000 trap/trap.so
	# an index its group may write, trusted no more than such a plugin
	chmod g+w trap/plugins.index
	refuses 99 "trap.so was loaded" dl-read x.txt
	chmod g-w trap/plugins.index
	# an index not as dl-read --index writes it is not read at all
	printf 'dl-plugin-index 1\nhandlist hands reads\ntrap trp writes-only\n' > trap/plugins.index
	refuses 99 "trap.so was loaded" dl-read x.txt
	printf 'dl-plugin-index 2\nhandlist hands reads\ntrap trp writes\n' > trap/plugins.index
	refuses 99 "trap.so was loaded" dl-read x.txt
	rm trap/plugins.index
	refuses 99 "trap.so was loaded" dl-read x.txt
}

@test "an index that says a writer reads is found out: the file is told as without it" {
	mkdir lies
	cp "$BATS_FILE_TMPDIR/plugins/handlist.so" "$BATS_FILE_TMPDIR/hcp.so" lies/
	touch -d @1000000000 lies/*.so
	# hcp writes alone, and its suffix is hcp
	printf 'dl-plugin-index 1\nhandlist hands reads\nhcp hcp reads\n' > lies/plugins.index
	export DL_PLUGIN_PATH=$PWD/lies
	session 4 > s.tso
	dl-fmt -f handlist -p x < s.tso
	cp x.hands x.hcp
	run -0 --separate-stderr dl-read x.hcp
	[ "$output" = "$(dl-read x.hands)" ] && [ -z "$stderr" ]
	refuses 2 "dl-read: format hcp has no reader (dl-read --list shows the formats it reads)" \
	    dl-read -f hcp x.hands
}

@test "dl-read --index: each plugin's suffix and whether it reads; one that cannot be loaded is left out" {
	mkdir mine
	cp "$BATS_FILE_TMPDIR/plugins/handlist.so" "$BATS_FILE_TMPDIR/hcp.so" mine/
	echo 'not a plugin' > mine/broken.so
	umask 002
	run -0 --separate-stderr dl-read --index "$PWD/mine"
	[ -z "$output" ]
	[ "$stderr" = "dl-read: $PWD/mine/broken.so: not a whole shared object for this machine (truncated, or built for another): not loading it: left out of the index" ]
	[ "$(cat mine/plugins.index)" = "dl-plugin-index 1
# NAME SUFFIX reads|writes: made by dl-read --index (docs/plugins.md)
handlist hands reads
hcp hcp writes" ]
	# never writable by its group, whatever the umask: it would not be read
	[ "$(stat -c %a mine/plugins.index)" = 644 ]
	# made again, replaced
	rm mine/broken.so
	run -0 --separate-stderr dl-read --index mine
	[ -z "$output" ] && [ -z "$stderr" ]
	[ "$(grep -vc '^#' mine/plugins.index)" -eq 3 ]
	refuses 2 "dl-read: cannot create a file next to $PWD/none/plugins.index: No such file or directory" \
	    dl-read --index "$PWD/none"
	run -2 dl-read --index mine x.pbn
	run -2 dl-read-pbn --index mine
}

@test "the build's index: a .pbn file loads pbn.so alone, a file told by its content the readers alone" {
	strace -f -qq -o /dev/null true || skip_unless_possible "strace cannot trace here (ptrace not permitted)"
	[ -f "$DL_BUILD/plugins/plugins.index" ]
	session 4 | dl-fmt -f pbn -p x
	cp x.pbn x.txt
	session 8 | dl-board -b 5-8 > other.tso
	dl-archive -q add other.tso
	# plugins_opened TOOL...: the plugins the command opens, by name
	# (LeakSanitizer cannot run under ptrace: off for this one run)
	plugins_opened() {
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		    strace -f -qq -o trace -e trace=openat "$@" > /dev/null
		sed -n 's|.*"[^"]*/plugins/\([a-z0-9_]*\)\.so".*= [0-9].*|\1|p' trace | sort -u | tr '\n' ' '
	}
	[ "$(plugins_opened dl-archive check x.pbn)" = "pbn " ]
	[ "$(plugins_opened dl-read x.pbn)" = "pbn " ]
	[ "$(plugins_opened dl-diff x.pbn x.pbn)" = "pbn " ]
	readers=$(dl-read --list | awk 'NR > 1 { print $1 }' | sort | tr '\n' ' ')
	[ "$(plugins_opened dl-archive check x.txt)" = "$readers" ]
	[ "$(plugins_opened dl-read --list)" = "$readers" ]
	[ "$(plugins_opened dl-read -f pdf x.pbn)" = "" ]
}

# bats test_tags=slow
@test "an index that is a FIFO, a directory, a link to one anyone may write or too large is not read, and nothing hangs" {
	trap_dir trap
	session 4 | dl-fmt -f pbn -p x
	cp x.pbn x.txt
	export DL_PLUGIN_PATH=$PWD/trap
	rm trap/plugins.index
	mkfifo trap/plugins.index
	refuses 99 "trap.so was loaded" timeout 10 dl-read x.txt
	rm trap/plugins.index
	mkdir trap/plugins.index
	refuses 99 "trap.so was loaded" timeout 10 dl-read x.txt
	rmdir trap/plugins.index
	mkdir -m 777 open
	printf 'dl-plugin-index 1\nhandlist hands reads\ntrap trp writes\n' > open/plugins.index
	ln -s "$PWD/open/plugins.index" trap/plugins.index
	refuses 99 "trap.so was loaded" dl-read x.txt
	rm trap/plugins.index
	# the same lines, and comments past 256 KiB
	{ printf 'dl-plugin-index 1\nhandlist hands reads\ntrap trp writes\n'
	    for i in $(seq 4100); do printf '# %062d\n' "$i"; done; } > trap/plugins.index
	refuses 99 "trap.so was loaded" dl-read x.txt
	# and under the limit they are comments
	head -n 100 trap/plugins.index > short && mv short trap/plugins.index
	chmod 644 trap/plugins.index
	run -0 --separate-stderr dl-read x.txt
	[ "$output" = "$(DL_PLUGIN_PATH= dl-read x.pbn)" ] && [ -z "$stderr" ]
}
