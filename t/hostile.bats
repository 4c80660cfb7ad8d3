#!/usr/bin/env bats
# Hostile files, signals and races (docs/robustness.md, "Hostile input"):
# each test is a way the tools once broke a promise, tried as an attacker
# would, and what they do now.

load helper

PHRASE=0123456789012345678901234567890123456789abcdef

@test "the seed history: a .bigdealrc owner does not exempt a reused phrase" {
	printf '[BigDeal]\nowner=Some Club\n' > .bigdealrc
	dl-seed -o -e "$PHRASE" > first
	refuses 1 "dl-seed: this seed was made before (it is in $DL_SEED_HISTORY): refusing to deal the same series again" \
	    dl-seed -o -e "$PHRASE"
	# an owner given on the command line reproduces a known set, as
	# bigdealx -W does for SquareDeal
	dl-seed -o -w 'Some Club' -e "$PHRASE" > again
	[ "$(tail -1 again)" = "$(tail -1 first)" ]
}

@test "the seed history: a last line without its newline does not swallow the next" {
	printf 'not a fingerprint' > "$DL_SEED_HISTORY"
	dl-seed -o -e "$PHRASE" > /dev/null
	[ "$(sed -n 1p "$DL_SEED_HISTORY")" = "not a fingerprint" ]
	[ "$(wc -l < "$DL_SEED_HISTORY")" -eq 2 ]
	refuses 1 "dl-seed: this seed was made before (it is in $DL_SEED_HISTORY): refusing to deal the same series again" \
	    dl-seed -o -e "$PHRASE"
}

@test "the seed history must be a regular file: /dev/zero, /dev/full, a FIFO, a directory" {
	for dev in /dev/zero /dev/full; do
		DL_SEED_HISTORY=$dev refuses 2 "dl-seed: $dev: the seed history must be a regular file" \
		    timeout 10 dl-seed
	done
	mkfifo fifo
	DL_SEED_HISTORY=$PWD/fifo refuses 2 "dl-seed: $PWD/fifo: the seed history must be a regular file" \
	    timeout 10 dl-seed
	mkdir dir
	DL_SEED_HISTORY=$PWD/dir refuses 2 "dl-seed: $PWD/dir: Is a directory" timeout 10 dl-seed
}

@test "dl-seed -V with a short commitment is refused, not read past" {
	seed_of v1 > seed
	refuses 1 "dl-seed: the seed and event do NOT match the commitment" dl-seed -V ab < seed
	refuses 1 "dl-seed: the seed and event do NOT match the commitment" dl-seed -V "" < seed
}

@test "entropy files are capped: -E /dev/urandom is refused, not read for ever" {
	refuses 1 "dl-seed: /dev/urandom: more than 1 MiB of entropy: not an entropy file" \
	    timeout 20 dl-seed -E /dev/urandom
}

@test "secret options are never echoed by the option parser, and -w is blanked" {
	refuses_usage() {
		run --separate-stderr "$@"
		[ "$status" -eq 2 ]
		[ "$stderr" = "$1: unknown, ambiguous or misused option '${2%%=*}' ($1 --help shows the usage)" ]
		[[ $stderr != *SECRET* ]]
	}
	refuses_usage dl-seed --he=SECRETSECRET
	refuses_usage dl-seed --entr=SECRETSECRET
	refuses_usage dl-seed --no=SECRETSECRET
	refuses_usage dl-bigdealx --hel=SECRETSECRET
	# dl-seed -w: the owner is half a SquareDeal key
	mkfifo in
	dl-seed -o -w SECRETOWNER -e "$PHRASE" -E in > /dev/null &
	pid=$!
	sleep 0.5
	cmdline=$(tr '\0' ' ' < /proc/$pid/cmdline)
	: > in
	wait $pid
	[[ $cmdline != *SECRETOWNER* ]]
	[[ $cmdline != *"$PHRASE"* ]]
}

# bats test_tags=slow
@test "secrets leave argv before any option runs: after a blocking -E, after --help or a wrong option, in every spelling" {
	mkfifo in
	key=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
	# -E reads a FIFO before getopt reaches the secrets after it
	for cmd in "dl-seed -E in -o -w SECRETOWNER -x $key -eSECRETPHRASE --owner=SECRETOWNER2 --hex $key" \
	    "dl-bigdealx -E in -W SECRETOWNER -e SECRETPHRASE -hSECRETHASH"; do
		$cmd < /dev/null > /dev/null 2>&1 &
		pid=$!
		sleep 0.5
		cmdline=$(tr '\0' ' ' < /proc/$pid/cmdline)
		# bigdealx opens its entropy file twice (a look, then the bytes):
		# a writer for each open, for as long as it waits (a loaded
		# machine may reach the FIFO later than the half second above)
		for _ in $(seq 20); do
			kill -0 "$pid" 2> /dev/null || break
			timeout 1 sh -c ': > in' || true
		done
		wait $pid || true
		[[ $cmdline != *SECRET* && $cmdline != *"$key"* ]] || { echo "$cmdline"; return 1; }
		[[ $cmdline == *" -E in "* ]] || { echo "$cmdline"; return 1; }
	done
	# an option that ends the run, before the secrets are reached: its
	# output blocks on a pipe already full
	mkfifo out
	exec 8<> out
	head -c 65536 /dev/zero >&8
	for first in --help --bogus; do
		dl-seed $first -e SECRETPHRASE --hex=$key -w SECRETOWNER >&8 2>&8 &
		pid=$!
		sleep 0.5
		cmdline=$(tr '\0' ' ' < /proc/$pid/cmdline)
		kill $pid
		wait $pid || true
		[[ $cmdline == "dl-seed $first "* ]] || { echo "$first: not blocked: $cmdline"; return 1; }
		[[ $cmdline != *SECRET* && $cmdline != *"$key"* ]] || { echo "$first: $cmdline"; return 1; }
	done
	exec 8<&-
	# the values are the same to the tool: a hidden --hex deals as a plain one
	[ "$(dl-seed --no-history --hex=$key | tail -1)" = "dl256 $key" ]
}

# bats test_tags=slow
@test "no core file can carry a secret away: core dumps are off before any secret is read" {
	for tool in dl-stream dl-seed dl-map dl-fmt dl-sqd; do
		mkfifo in.$tool
		case $tool in
		dl-seed) dl-seed -V 00 < in.$tool > /dev/null 2>&1 & ;;
		dl-sqd) dl-sqd in.$tool show > /dev/null 2>&1 & ;;
		*) $tool < in.$tool > /dev/null 2>&1 & ;;
		esac
		pid=$!
		sleep 0.3
		limit=$(awk '/^Max core file size/ { print $5 }' /proc/$pid/limits)
		: > in.$tool
		wait $pid || true
		[ "$limit" = 0 ] || { echo "$tool: core limit $limit"; return 1; }
	done
}

@test "dl-stat: read and write errors are status 2, not a failed battery" {
	"$HELPERS/runs" dl256 10 40 > sample
	refuses 2 "dl-stat: write error on standard output: No space left on device" \
	    sh -c 'dl-stat -q < sample > /dev/full 2> err; s=$?; grep -v "too few" err >&2; exit $s' 
	refuses 2 "dl-stat: read error: Is a directory" dl-stat < .
}

@test "terminal escapes in input are written escaped in every message" {
	# a hostile event in a stream, a hostile .sqd name, a hostile key
	printf '#P: dl/1 deals\n#I: x\033]0;pwned\007y\n' > stream
	refuses 1 'dl-fmt-pbn: line 2: header #I: is not one line of valid UTF-8 text' dl-fmt-pbn < stream
	printf '#P: dl/1 deals\n1 \033[2J\033[H\n' > stream
	refuses 1 'dl-fmt: line 2: deal is not 52 digits' dl-fmt < stream
	printf 'TN ok\nXX \033[2Jwiped\n' > evil.sqd
	refuses 1 'dl-sqd: evil.sqd:2: unknown tag "XX"' dl-sqd evil.sqd show
	printf 'TN ok\nSN 1:\033[2J:p:d\n' > evil.sqd
	refuses 1 'dl-sqd: evil.sqd:2: bad boards "\x1b[2J"' dl-sqd evil.sqd show
	printf '[BigDeal]\nowner=a\rb\n' > .bigdealrc
	refuses 1 'dl-seed: .bigdealrc:2: value of owner holds a stray CR' dl-seed
	# the file name itself
	cp evil.sqd "$(printf 'e\033[31mvil.sqd')"
	refuses 1 'dl-sqd: e\x1b[31mvil.sqd:2: bad boards "\x1b[2J"' dl-sqd "$(printf 'e\033[31mvil.sqd')" show
}

@test "event descriptions: no C1 controls or direction overrides, at most 500 bytes" {
	rlo=$(printf '\342\200\256')	# U+202E RIGHT-TO-LEFT OVERRIDE
	c1=$(printf '\302\233')		# U+009B, a CSI on some terminals
	refuses 2 "dl-seed: --event: not one line of valid UTF-8 text" dl-seed --event "a${rlo}b"
	refuses 2 "dl-seed: --event: not one line of valid UTF-8 text" dl-seed --event "a${c1}b"
	refuses 2 "dl-deal: --event: not one line of valid UTF-8 text" dl-deal --event "a${rlo}b"
	refuses 2 "dl-seed: --event: longer than 500 bytes" dl-seed --event "$(printf '%501s' x)"
	refuses 2 "dl-deal: --event: longer than 500 bytes" dl-deal --event "$(printf '%501s' x)"
	dl-seed --event "$(printf '%500s' x)" > seed
	printf '#P: dl/1 deals\n#I: a%sb\n' "$rlo" > stream
	refuses 1 'dl-fmt-pbn: line 2: header #I: is not one line of valid UTF-8 text' dl-fmt-pbn < stream
	printf '#P: dl/1 deals\n#I: %501s\n' x > stream
	refuses 1 'dl-fmt-pbn: line 2: header #I: longer than 500 bytes' dl-fmt-pbn < stream
}

# deals_stream: 4 boards of vector v1 as a deals stream
deals_stream() {
	seed_of v1 | dl-stream -n 4 | dl-map
}

@test "a set is published whole or not at all: a name that appears meanwhile rolls back the others" {
	deals_stream > deals
	mkfifo in
	exec 7<> in	# a writer, so that dl-fmt starts and checks its names now
	dl-fmt -f pbn,tso -p s < in > out 2> err 7>&- &
	pid=$!
	sleep 0.5
	echo theirs > s.tso	# another run, after dl-fmt checked the names
	cat deals >&7
	exec 7>&-
	wait $pid && st=0 || st=$?
	[ "$st" -eq 1 ]
	[ "$(cat err)" = "dl-fmt: s.tso exists: refusing to overwrite deal files (use --force)" ]
	[ "$(ls -A)" = "$(printf 'deals\nerr\nin\nout\ns.tso')" ]
	[ "$(cat s.tso)" = theirs ]
}

@test "--force: a name that cannot be replaced leaves every old file as it was" {
	mkdir w && cd w
	deals_stream > deals
	echo old > s.pbn
	mkdir s.tso
	refuses 1 "dl-fmt: s.tso exists and is not a regular file: refusing to write over it" \
	    dl-fmt -f pbn,tso --force -p s < deals
	[ "$(cat s.pbn)" = old ]
	[ "$(ls -A | tr '\n' ' ')" = "deals s.pbn s.tso " ]
	# a FIFO at an output name is refused, not opened (it would hang)
	rmdir s.tso
	mkfifo s.tso
	refuses 1 "dl-fmt: s.tso exists and is not a regular file: refusing to write over it" \
	    timeout 10 dl-fmt -f pbn,tso --force -p s < deals
	[ "$(cat s.pbn)" = old ]
}

@test "--force in a sticky directory: another user's file stops the set before anything is replaced" {
	if [ "$(id -u)" -ne 0 ] || ! setpriv --inh-caps=-fowner true 2> /dev/null; then
		skip_unless_possible "needs root to make another user's file, and setpriv"
	fi
	deals_stream > deals
	mkdir -m 1777 sticky
	echo mine > sticky/s.pbn
	echo theirs > sticky/s.tso
	chown nobody sticky/s.tso
	run --separate-stderr setpriv --inh-caps=-fowner,-dac_override --bounding-set=-fowner,-dac_override \
	    -- dl-fmt -f pbn,tso --force -p sticky/s < deals
	[ "$status" -eq 2 ]
	[ "$stderr" = "dl-fmt: cannot replace sticky/s.tso: Operation not permitted" ]
	[ "$(cat sticky/s.pbn)" = mine ]
	[ "$(cat sticky/s.tso)" = theirs ]
	[ "$(ls -A sticky | tr '\n' ' ')" = "s.pbn s.tso " ]
}

@test "a FIFO at an output path is refused by dl-sqd make, not opened" {
	cp "$SQUAREDEAL/club/club.sqd" "$SQUAREDEAL/club/club.sqk" .
	chmod 600 club.sqk
	mkdir out
	mkfifo out/rr01.pbn
	refuses 1 "dl-sqd: out/rr01.pbn exists and is not a regular file: refusing to write over it" \
	    timeout 10 dl-sqd club.sqd make -d out 1 1
}

@test "\"use --force\" only where --force exists and means overwriting" {
	mkdir out && touch out/s.pbn
	refuses 1 "dl-deal: out/s.pbn exists: refusing to overwrite deal files" dl-deal -p out/s
	touch c
	refuses 1 "dl-seed: c exists: refusing to overwrite deal files" dl-seed -c c
	refuses 1 "dl-fmt: out/s.pbn exists: refusing to overwrite deal files (use --force)" \
	    dl-fmt -p out/s < <(seed_of v1 | dl-stream -n 1 | dl-map)
}

# hcp_plugin SED: the example plugin, edited by SED, built into ./mine/hcp.so
hcp_plugin() {
	mkdir -p mine
	sed "$1" "$BATS_TEST_DIRNAME/../share/examples/hcp.c" |
	    cc -shared -fPIC -I"$BATS_TEST_DIRNAME/../lib" -x c - -o mine/hcp.so
}

@test "plugins: a suffix that is not a plain name is refused (it names the output file)" {
	hcp_plugin 's|\.suffix = "hcp"|.suffix = "../evil"|'
	mkdir out
	DL_PLUGIN_PATH=$PWD/mine refuses 2 "dl-fmt: $PWD/mine/hcp.so: malformed plugin description" \
	    dl-fmt -f hcp -p out/s < "$BIGDEAL/v4/deals.tso"
	[ "$(ls -A out)" = "" ]
	[ ! -e evil ] && [ ! -e s.../evil ]
	# two names parted by one dot, as the table cards' cards.pdf; no
	# other dot
	for bad in .hcp hcp. a..b a.b.c a/b . hcp.TXT 'a b' x.123456789012345; do
		hcp_plugin "s|\.suffix = \"hcp\"|.suffix = \"$bad\"|"
		DL_PLUGIN_PATH=$PWD/mine refuses 2 "dl-fmt: $PWD/mine/hcp.so: malformed plugin description" \
		    dl-fmt -f hcp -p out/s < "$BIGDEAL/v4/deals.tso"
	done
	[ "$(ls -A out)" = "" ]
	hcp_plugin 's|\.suffix = "hcp"|.suffix = "hcp.txt"|'
	DL_PLUGIN_PATH=$PWD/mine dl-fmt -f hcp -p out/s < "$BIGDEAL/v4/deals.tso"
	[ "$(ls -A out)" = "s.hcp.txt" ]
}

@test "plugins: none is loaded from a directory, or a file, anyone may write to" {
	hcp_plugin 's|x|x|'
	chmod 777 mine
	DL_PLUGIN_PATH=$PWD/mine refuses 2 "dl-fmt: $PWD/mine/hcp.so: $PWD/mine is writable by anyone: not loading it" \
	    dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso"
	chmod 775 mine
	DL_PLUGIN_PATH=$PWD/mine refuses 2 "dl-fmt: $PWD/mine/hcp.so: $PWD/mine is writable by its group: not loading it" \
	    dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso"
	chmod 755 mine
	chmod 666 mine/hcp.so
	DL_PLUGIN_PATH=$PWD/mine refuses 2 "dl-fmt: $PWD/mine/hcp.so: the file is writable by anyone: not loading it" \
	    dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso"
	chmod 664 mine/hcp.so
	DL_PLUGIN_PATH=$PWD/mine refuses 2 "dl-fmt: $PWD/mine/hcp.so: the file is writable by its group: not loading it" \
	    dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso"
	chmod 644 mine/hcp.so
	DL_PLUGIN_PATH=$PWD/mine dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso" > /dev/null
}

# marker_plugin DIR NAME: a plugin of that name whose constructor, which
# runs at dlopen before any check of ours could, leaves DIR/NAME.ran
marker_plugin() {
	mkdir -p "$1"
	printf '%s\n' '#include <fcntl.h>' '#include <unistd.h>' \
	    "__attribute__((constructor)) static void ran(void) { close(open(\"$PWD/$2.ran\", O_CREAT | O_WRONLY, 0644)); }" |
	    cc -shared -fPIC -x c - -o "$1/$2.so"
}

# every_plugin_user: the commands that open every plugin to list them or to
# tell a file's format; none may run code from an untrusted place
every_plugin_user() {
	seed_of v1 | dl-stream -n 2 | dl-map > deals
	dl-fmt -f pbn < deals > x.pbn
	dl-fmt --list > /dev/null 2>&1 || true
	dl-read x.pbn > /dev/null 2>&1 || true
	dl-diff x.pbn x.pbn > /dev/null 2>&1 || true
	dl-read --list > /dev/null 2>&1 || true
}

@test "plugins: code in a place a stranger controls never runs: owner, parents, links" {
	[ "$(id -u)" -eq 0 ] || skip_unless_possible "needs root to give files to another user"
	stranger=65534
	# a plugin file of a stranger's, in a directory of ours
	marker_plugin own evil
	chown "$stranger" own/evil.so
	DL_PLUGIN_PATH=$PWD/own refuses 2 "dl-fmt: $PWD/own/evil.so: the file belongs to user $stranger, neither root nor you: not loading it" \
	    dl-fmt -f evil < "$BIGDEAL/v4/deals.tso"
	DL_PLUGIN_PATH=$PWD/own every_plugin_user
	# a directory a stranger made (as under /tmp), files of ours in it
	marker_plugin theirs evil2
	chown "$stranger" theirs
	DL_PLUGIN_PATH=$PWD/theirs refuses 2 "dl-fmt: $PWD/theirs/evil2.so: $PWD/theirs belongs to user $stranger, neither root nor you: not loading it" \
	    dl-fmt -f evil2 < "$BIGDEAL/v4/deals.tso"
	DL_PLUGIN_PATH=$PWD/theirs every_plugin_user
	# a safe directory inside one anyone may write to
	marker_plugin open/safe evil3
	chmod 777 open
	DL_PLUGIN_PATH=$PWD/open/safe refuses 2 "dl-fmt: $PWD/open/safe/evil3.so: $PWD/open is writable by anyone: not loading it" \
	    dl-fmt -f evil3 < "$BIGDEAL/v4/deals.tso"
	DL_PLUGIN_PATH=$PWD/open/safe every_plugin_user
	# a link from a safe directory to a file in an unsafe one, and a
	# directory that is a link into one
	mkdir linked
	ln -s "$PWD/open/safe/evil3.so" linked/evil4.so
	DL_PLUGIN_PATH=$PWD/linked refuses 2 "dl-fmt: $PWD/linked/evil4.so: $PWD/open is writable by anyone: not loading it" \
	    dl-fmt -f evil4 < "$BIGDEAL/v4/deals.tso"
	ln -s "$PWD/open/safe" dirlink
	DL_PLUGIN_PATH=$PWD/dirlink refuses 2 "dl-fmt: $PWD/dirlink/evil3.so: $PWD/open is writable by anyone: not loading it" \
	    dl-fmt -f evil3 < "$BIGDEAL/v4/deals.tso"
	DL_PLUGIN_PATH=$PWD/linked:$PWD/dirlink every_plugin_user
	[ "$(ls *.ran 2> /dev/null)" = "" ]
}

@test "plugins: below a sticky directory of root's (as /tmp) only owners and modes count" {
	[ "$(id -u)" -eq 0 ] || skip_unless_possible "needs root to make a directory of root's"
	mkdir -m 1777 sticky
	hcp_plugin 's|x|x|'
	mv mine sticky/mine
	DL_PLUGIN_PATH=$PWD/sticky/mine dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso" > out
	[ "$(cat out)" = "$(printf '# no event, boards 1-1\n1 N:13 E:17 S:7 W:3')" ]
	# sticky but another user's: anyone it lets in may have put it there
	chown 65534 sticky
	DL_PLUGIN_PATH=$PWD/sticky/mine refuses 2 "dl-fmt: $PWD/sticky/mine/hcp.so: $PWD/sticky belongs to user 65534, neither root nor you: not loading it" \
	    dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso"
}

@test "plugins: a truncated object, a FIFO, a directory or a device named x.so is refused, and other commands go on" {
	mkdir mine
	head -c 3000 "$DL_BUILD/plugins/pbn.so" > mine/cut.so
	mkfifo mine/fifo.so
	mkdir mine/dir.so
	ln -s /dev/zero mine/zero.so
	: > mine/empty.so
	seed_of v1 | dl-stream -n 2 | dl-map > deals
	dl-fmt -f pbn < deals > x.pbn
	DL_PLUGIN_PATH=$PWD/mine timeout 20 dl-read x.pbn > read
	[ "$(cat read)" = "$(dl-read x.pbn)" ]
	DL_PLUGIN_PATH=$PWD/mine timeout 20 dl-diff x.pbn x.pbn > /dev/null
	bad="not a whole shared object for this machine (truncated, or built for another): not loading it"
	for name in cut empty; do
		DL_PLUGIN_PATH=$PWD/mine refuses 2 "dl-fmt: $PWD/mine/$name.so: $bad" \
		    timeout 20 dl-fmt -f "$name" < deals
	done
	for name in fifo dir zero; do
		DL_PLUGIN_PATH=$PWD/mine refuses 2 "dl-fmt: $PWD/mine/$name.so: not a regular file: not loading it" \
		    timeout 20 dl-fmt -f "$name" < deals
	done
	DL_PLUGIN_PATH=$PWD/mine run --separate-stderr timeout 20 dl-fmt --list
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$stderr" | sort)" = "$(printf 'dl-fmt: %s\n' \
	    "$PWD/mine/cut.so: $bad" "$PWD/mine/dir.so: not a regular file: not loading it" \
	    "$PWD/mine/empty.so: $bad" "$PWD/mine/fifo.so: not a regular file: not loading it" \
	    "$PWD/mine/zero.so: not a regular file: not loading it" | sort)" ]
}

@test "plugins: a description or failure message with terminal escapes is printed escaped, one line" {
	hcp_plugin 's|"high-card points of each hand (example plugin)"|"x\\033]0;pwned\\007y"|; s|out->print(out, "\\n");|out->fail(out, "line\\none\\033[2J"); return -1;|'
	run --separate-stderr env DL_PLUGIN_PATH="$PWD/mine" dl-fmt --list
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -qx 'hcp  *\.hcp  *text  *-  *x\\x1b]0;pwned\\x07y'
	DL_PLUGIN_PATH=$PWD/mine refuses 1 'dl-fmt: hcp: line\x0aone\x1b[2J' \
	    dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso"
}

# bats test_tags=slow
@test "keyboard entropy: keys that arrive together (pasted, typed while stopped) earn nothing" {
	{ sleep 0.5; printf 'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz0123456789'
	    sleep 1; printf '\003'; sleep 1; } |
	    script -qec 'trap "" INT; dl-seed --keyboard -o -f > seed; echo $? > status' /dev/null > screen
	[ "$(cat status)" = 130 ]
	# 62 keys typed one by one would have been plenty (213 bits)
	left=$(tr '\r' '\n' < screen | sed -n 's/^ *\([0-9]*\) bits still needed *$/\1/p' | tail -1)
	[ -n "$left" ] && [ "$left" -gt 200 ]
}

# played_club: the club tournament and its session 1,1 as dl-sqd makes it
played_club() {
	cp "$SQUAREDEAL/club/club.sqd" "$SQUAREDEAL/club/club.sqk" .
	chmod 600 club.sqk
	dl-sqd club.sqd make 1 1 > /dev/null
	[ "$(wc -l < rr01.pbn)" -eq 164 ]
}

@test "verify --deals: a board given again with another deal fails, even when its first deal is right" {
	played_club
	other=$(sed -n 's/^\[Deal "\(.*\)"\]$/\1/p' rr01.pbn | sed -n 6p)
	printf '[Board "5"]\n[Deal "%s"]\n\n' "$other" >> rr01.pbn
	refuses 1 "dl-sqd: rr01.pbn:167: board 5: given again with another deal" dl-sqd club.sqd verify --deals rr01.pbn
}

@test "verify --deals: a deal tag must be exactly a deal; other tags on its line are PBN's import format" {
	played_club
	cp rr01.pbn good.pbn
	line=$(grep -n '^\[Board "3"\]$' good.pbn | cut -d: -f1)
	line=$((line + 7))
	# a fifth hand, a hand of five suits
	sed '/^\[Board "3"\]$/,/^\[Deal "/ s/^\[Deal "\(.*\)"\]$/[Deal "\1 AKQ..."]/' good.pbn > rr01.pbn
	refuses 1 "dl-sqd: rr01.pbn:$line: board 3: more than four hands" dl-sqd club.sqd verify --deals rr01.pbn
	sed '/^\[Board "3"\]$/,/^\[Deal "/ s/^\[Deal "\(N:[^.]*\)\./[Deal "\1../' good.pbn > rr01.pbn
	refuses 1 "dl-sqd: rr01.pbn:$line: board 3: North has more than four suits" dl-sqd club.sqd verify --deals rr01.pbn
	sed 's/^\[Board "3"\]$/[Board "3 x"]/' good.pbn > rr01.pbn
	refuses 1 "dl-sqd: rr01.pbn:$((line + 5)): [Board \"3 x\"]: not a board number (1 and up)" dl-sqd club.sqd verify --deals rr01.pbn
	# a tag after the deal on its line is another tag pair, not part of the deal
	sed '/^\[Board "3"\]$/,/^\[Deal "/ s/^\(\[Deal ".*"\]\)$/\1 [Event "spoof"]/' good.pbn > rr01.pbn
	run -0 dl-sqd club.sqd verify --deals rr01.pbn
	[ "${lines[-1]}" = "rr01.pbn: matches, session 1,1 (original), boards 1-10: 10 of 10 boards checked" ]
}

@test "verify --deals: a file without boards is refused, not a vacuous match" {
	played_club
	printf '%% PBN 2.1\n[Event "x"]\n' > rr01.pbn
	refuses 1 "dl-sqd: no boards in rr01.pbn" dl-sqd club.sqd verify --deals rr01.pbn
	printf '#P: dl/1 deals\n' > rr01.tso
	refuses 1 "dl-sqd: no boards in rr01.tso" dl-sqd club.sqd verify --deals rr01.tso
}

@test "verify --deals: a board beyond the session fails the check" {
	played_club
	deal=$(sed -n 's/^\[Deal "\(.*\)"\]$/\1/p' rr01.pbn | sed -n 1p)
	printf '[Board "11"]\n[Deal "%s"]\n\n' "$deal" >> rr01.pbn
	run dl-sqd club.sqd verify --deals rr01.pbn
	[ "$status" -eq 1 ]
	[ "${lines[-2]}" = "board 11: not a board of the session (1-10)" ]
	[ "${lines[-1]}" = "rr01.pbn: DOES NOT MATCH, session 1,1 (original), boards 1-10: 10 of 10 boards checked, 1 not of the session" ]
}

# bats test_tags=slow
@test "every signal that ends a tool leaves no temporary file behind" {
	# more than the 64 KiB a reader takes at once, so that the files begin
	seed_of v1 | dl-stream -n 2000 | dl-map > deals
	for sig in HUP INT QUIT TERM PIPE ALRM USR1 USR2 XCPU VTALRM PROF \
	    SEGV ABRT BUS FPE ILL TRAP SYS; do
		mkdir "$sig" && cd "$sig"
		mkfifo in
		exec 7<> in
		# a background job of a script starts with INT and QUIT ignored,
		# and bats -j (GNU parallel) ignores ALRM: a tool leaves an ignored
		# signal so, so give it every default, as from a terminal
		env --default-signal dl-fmt -f pbn,tso -p s < in 7>&- &
		pid=$!
		head -1500 ../deals >&7	# the headers and some boards: files begun
		sleep 0.3
		[ "$(ls -A | grep -c '^\.s\.')" -eq 2 ] || { echo "$sig: no temporaries"; return 1; }
		# what is left behind by a machine that dies holds the deals
		[ "$(stat -c %a .s.*)" = "$(printf '600\n600')" ] || { echo "$sig: modes $(stat -c %a .s.*)"; return 1; }
		kill -s "$sig" $pid
		wait $pid && st=0 || st=$?
		exec 7>&-
		[ "$st" -eq $((128 + $(kill -l "$sig"))) ] || { echo "$sig: status $st"; return 1; }
		[ "$(ls -A)" = in ] || { echo "$sig: left $(ls -A)"; return 1; }
		cd ..
	done
}

@test "a writer plugin that crashes leaves no temporary file behind, with any -j" {
	mkdir mine
	# board 3 dereferences a null pointer, another kind of crash a board each
	for crash in '*(volatile int *)0 = 1' 'abort()' '__builtin_trap()' 'raise(SIGBUS)'; do
		sed "s|out->print(out, \"\\\\n\");|if (deal->board == 3) $crash; out->print(out, \"\\\\n\");|" \
		    "$BATS_TEST_DIRNAME/../share/examples/hcp.c" |
		    cc -shared -fPIC -I"$BATS_TEST_DIRNAME/../lib" -include signal.h -include stdlib.h \
		    -x c - -o mine/hcp.so
		seed_of v1 | dl-stream -n 20 | dl-map > deals
		for j in 1 2; do
			mkdir out
			DL_PLUGIN_PATH=$PWD/mine env --default-signal dl-fmt -j $j -f pbn,hcp,tso -p out/s < deals 2> /dev/null &&
			    st=0 || st=$?
			[ "$st" -gt 128 ] || { echo "$crash -j $j: status $st"; return 1; }
			[ "$(ls -A out)" = "" ] || { echo "$crash -j $j: left $(ls -A out)"; return 1; }
			rmdir out
		done
	done
}

@test "publish: an interrupted publish that left a key file is finished with --force" {
	dl-sqd t.sqd create --name T --di D
	dl-sqd t.sqd add-phase 1 10 s > /dev/null
	cp t.sqd before.sqd
	printf '1,1:keysnobodysawpublished\r\n' > t.sqk
	refuses 1 "dl-sqd: t.sqk exists: refusing to overwrite deal files (use --force)" dl-sqd t.sqd publish
	cmp t.sqd before.sqd
	run dl-sqd t.sqd publish --force
	[ "$status" -eq 0 ]
	kh=$(sed -n 's/^KH //p' t.sqd)
	[ "$kh" = "$(sha256sum < t.sqk | cut -d' ' -f1)" ]
	[ "$(stat -c %a t.sqk)" = 600 ]
	# once published, --force changes nothing
	refuses 1 "dl-sqd: t.sqd is published already" dl-sqd t.sqd publish --force
	[ "$(sed -n 's/^KH //p' t.sqd)" = "$kh" ]
}

@test "publish: a failed write of the .sqd leaves no key file and no KH" {
	dl-sqd t.sqd create --name T --di D
	dl-sqd t.sqd add-phase 1 10 s > /dev/null
	mkdir keys
	chmod 500 keys
	if [ "$(id -u)" -eq 0 ]; then
		run setpriv --inh-caps=-dac_override --bounding-set=-dac_override -- true
		[ "$status" -eq 0 ] || skip_unless_possible "cannot drop root's capabilities here"
		run --separate-stderr setpriv --inh-caps=-dac_override,-dac_read_search \
		    --bounding-set=-dac_override,-dac_read_search -- dl-sqd --sqk keys/t.sqk t.sqd publish
	else
		run --separate-stderr dl-sqd --sqk keys/t.sqk t.sqd publish
	fi
	[ "$status" -eq 2 ]
	[ "$stderr" = "dl-sqd: cannot create a file next to keys/t.sqk: Permission denied" ]
	run grep -c '^KH' t.sqd
	[ "$output" = 0 ]
	[ "$(ls -A keys)" = "" ]
}

@test "a hostile .sqd prefix is refused on reading: no command from dl-sqd makefile, no path" {
	cp "$SQUAREDEAL/club/club.sqd" "$SQUAREDEAL/club/club.sqk" .
	chmod 600 club.sqk
	line=$(grep -n '^SN' club.sqd | head -1 | cut -d: -f1)
	for prefix in 'r$(shell touch pwned)#' '../../../escaped#' 'a b#' '-rf#' '.hidden#' 'a"] [Event "spoof#'; do
		sed "${line}s|^SN \([0-9]*\):\([^:]*\):[^:]*:|SN \1:\2:$prefix:|" club.sqd > evil.sqd
		grep -qF -- "$prefix" evil.sqd
		run --separate-stderr dl-sqd evil.sqd makefile -f pbn
		[ "$status" -eq 1 ] || { echo "$prefix: status $status"; return 1; }
		[[ $stderr == "dl-sqd: evil.sqd:$line: bad file prefix"* ]] || { echo "$prefix: $stderr"; return 1; }
		[ -z "$output" ]
		run dl-sqd evil.sqd make -d out 1 1
		[ "$status" -eq 1 ]
	done
	[ ! -e pwned ]
	[ ! -e ../../../escaped01.pbn ]
	dl-sqd new.sqd create --name N --di D
	refuses 2 "dl-sqd: bad file prefix \"a/b\": letters, digits, '.', '_', '+', '-' and one run of '#', not first a '.' or '-', at most 90 characters" \
	    dl-sqd new.sqd add-phase 1 10 a/b
}

@test "dl-sqd makefile: directories with spaces, quotes and dollars work; a path make cannot name is refused" {
	for dir in 'my event' "it's \$HOME" 'a#b'; do
		mkdir "$dir"
		cp "$SQUAREDEAL/club/club.sqd" "$SQUAREDEAL/club/club.sqk" "$dir/"
		chmod 600 "$dir/club.sqk"
		dl-sqd "$dir/club.sqd" makefile -f pbn,dupblind > club.mk
		make -s -j2 -f club.mk DL_SQD=dl-sqd > /dev/null
		[ -f "$dir/rr01.pbn" ] && [ -f "$dir/ko2.dup" ] || { echo "$dir: $(ls "$dir")"; return 1; }
		run make -q -f club.mk DL_SQD=dl-sqd
		[ "$status" -eq 0 ]
		rm club.mk
	done
	mkdir 'x:y'
	cp "$SQUAREDEAL/club/club.sqd" 'x:y/'
	refuses 2 "dl-sqd: x:y/club.sqd: a Makefile cannot name a file whose path holds ':'" \
	    dl-sqd x:y/club.sqd makefile
}

@test "dl-sqd show and set-dv print what a .sqd says with its escapes written out" {
	printf 'TN Club \033]0;pwned\007\nDI draw\033[2J\nSN 1:10:rr:Round \033[31mred\n' > evil.sqd
	run -0 dl-sqd evil.sqd show
	[ "${lines[0]}" = 'Tournament: Club \x1b]0;pwned\x07' ]
	[ "${lines[1]}" = 'Delayed information: draw\x1b[2J' ]
	[ "${lines[4]}" = 'Phase 1: Round \x1b[31mred, 1 session, boards 10' ]
	[[ $output != *$'\033'* ]]
}

@test "concurrent edits of a .sqd: ten add-phase at once keep ten phases; one set-dv wins" {
	dl-sqd t.sqd create --name T --di D
	for i in 1 2 3 4 5 6 7 8 9 10; do
		dl-sqd t.sqd add-phase 1 10 "p$i" > "out.$i" 2>&1 &
	done
	wait
	[ "$(grep -c '^SN ' t.sqd)" -eq 10 ]
	for i in 1 2 3 4 5 6 7 8 9 10; do grep -q "^SN 1:10:p$i:" t.sqd; done
	dl-sqd t.sqd publish > /dev/null
	for i in 1 2 3 4 5 6; do
		dl-sqd t.sqd set-dv "$i $i" > "dv.$i" 2> "err.$i" &
	done
	wait
	[ "$(cat dv.* | wc -l)" -eq 1 ]
	[ "$(cat err.* | grep -c 'has its delayed value already')" -eq 5 ]
	[ "$(grep '^DV ' t.sqd)" = "$(cat dv.*)" ]
}

@test "a played .tso with a bad line: the message names the file" {
	played_club
	dl-sqd club.sqd seed 1 1 | dl-stream | dl-map > rr01.tso
	sed -i '9s/ .*/ 123/' rr01.tso
	refuses 1 "dl-sqd: rr01.tso:9: board 4: 3 digits, not 52" dl-sqd club.sqd verify --deals rr01.tso
}

@test "a history written by earlier versions still refuses their seeds" {
	# the fingerprint dl-seed -o -e "$PHRASE" (owner "") recorded at the
	# version of 2026-11-22, before seeds were generator-table records
	echo d2e5b304be367fa3961bffe344fd3f73 > "$DL_SEED_HISTORY"
	printf '[BigDeal]\nowner=\n' > .bigdealrc
	refuses 1 "dl-seed: this seed was made before (it is in $DL_SEED_HISTORY): refusing to deal the same series again" \
	    dl-seed -o -e "$PHRASE"
}

# bats test_tags=slow
@test "every tool fails when it cannot write --help, --list or any output: /dev/full, a closed descriptor" {
	tools=$(cd "$DL_BUILD/bin" && ls | grep -v -e '^dl-fmt-' -e '^dl-read-')
	[ "$(echo $tools)" = "dl-archive dl-bigdeal dl-bigdealx dl-board dl-cat dl-dd dl-deal dl-diff dl-fmt dl-map dl-read dl-seed dl-sqd dl-stat dl-stream dl-web" ]
	for t in $tools; do
		run --separate-stderr "$t" --help
		[ "$status" -eq 0 ] && [[ $output == usage:* ]] || { echo "$t --help: $status"; return 1; }
		refuses 2 "$t: write error on standard output: No space left on device" \
		    sh -c "exec $t --help > /dev/full"
		refuses 2 "$t: write error on standard output: Bad file descriptor" \
		    sh -c "exec $t --help >&-"
	done
	for t in dl-fmt dl-read; do
		refuses 2 "$t: write error on standard output: No space left on device" \
		    sh -c "exec $t --list > /dev/full"
	done
}

@test "a message quoting text escaped once already is not escaped again: a .sqd's prefix, a stream's date, a file's date" {
	dl-sqd t.sqd create --name T --di D
	dl-sqd t.sqd add-phase 1 10 s > /dev/null
	sed 's/^\(SN.*\):s:/\1:a\\b:/' t.sqd > w.sqd
	refuses 1 "dl-sqd: w.sqd:7: bad file prefix \"a\\\\b\": letters, digits, '.', '_', '+', '-' and one run of '#', not first a '.' or '-', at most 90 characters" \
	    dl-sqd w.sqd show
	printf '#P: dl/1 deals\n#D: 2020.13\\.01\n' > stream
	refuses 1 'dl-fmt: line 2: header #D: not YYYY.MM.DD (PBN'"'"'s form, ? for a part not known)' \
	    dl-fmt < stream
	printf '[Date "2020.13\\\\.01"]\n[Board "1"]\n[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n' > d.pbn
	run --separate-stderr dl-read d.pbn
	[ "$status" -eq 0 ]
	[ "$stderr" = 'dl-read: d.pbn:1: date "2020.13\\.01": not YYYY.MM.DD (PBN'"'"'s form, ? for a part not known): the stream gets no #D:' ]
}

@test "dl-stream -j: a write error is reported with its own cause, whatever the thread that met it" {
	dl-seed --hex 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f > seed
	for j in 1 2 3; do
		refuses 2 "dl-stream: write error on standard output: No space left on device" \
		    sh -c "exec dl-stream -j $j -n 200000 < seed > /dev/full"
	done
}

# bats test_tags=slow
@test "a seed read is wiped from every buffer it went through, and no process of the same user may read a tool's memory" {
	[ "$(id -u)" -eq 0 ] || skip_unless_possible "reading another process's memory needs root"
	key=5a5b5c5d5e5f606162636465666768696a6b6c6d6e6f70717273747576777879
	dl-seed --hex "$key" > seed
	# the seed record straddling the line reader's 64 KiB, and not
	{ head -3 seed
	  for n in $(seq 1309); do printf '#W: padding line %04d of the headers, fifty bytes\n' "$n"; done
	  tail -1 seed; } > long
	[ "$(grep -b '^dl256' long | cut -d: -f1)" -lt 65537 ]
	[ "$(wc -c < long)" -gt 65537 ]
	for input in seed long; do
		mkfifo out
		dl-stream -n 1000000 < "$input" > out &
		pid=$!
		exec 8< out	# dl-stream blocks on its full pipe, the seed read
		sleep 0.5
		run "$HELPERS/memfind" "$pid" "$key"
		kill $pid; wait $pid || true; exec 8<&-; rm out
		[ "$status" -eq 0 ] && [ "$output" = "" ] || { echo "$input: $output"; return 1; }
	done
	# memfind does find a key where one is: read, not yet parsed (a FIFO
	# held open keeps dl-stream's first read waiting for more)
	mkfifo in
	dl-stream -n 10 < in > /dev/null 2>&1 &
	pid=$!
	exec 7> in
	cat seed >&7
	sleep 0.5
	run "$HELPERS/memfind" "$pid" "$key"
	exec 7>&-; wait $pid || true
	# in the heap, or in a mapping of the sanitizers' allocator
	[ "$status" -eq 1 ] && { [ "$output" = "[heap]" ] || [ "$output" = "[anonymous]" ]; }
	# not dumpable: /proc/PID/mem is root's, not the user's
	exec 7<> in
	setpriv --reuid=65534 --regid=65534 --clear-groups "$DL_BUILD/bin/dl-stream" -n 10 < in > /dev/null 2>&1 7>&- &
	pid=$!
	sleep 0.5
	owner=$(stat -c %U "/proc/$pid/mem")
	exec 7>&-; wait $pid || true
	[ "$owner" = root ]
}

@test "a tool run under a name with terminal escapes (a link) writes its name escaped" {
	ln -s "$DL_BUILD/bin/dl-map" "$(printf 'dl-\033]0;pwned\007map')"
	refuses 2 'dl-\x1b]0;pwned\x07map: unknown mapping "nosuch" (known: bigdeal, pavlicek)' \
	    ./"$(printf 'dl-\033]0;pwned\007map')" -m nosuch < /dev/null
}
