# Set-up common to the bats suites: the uninstalled tree on PATH, the test
# vectors in t/data (t/data/README.md), a scratch directory per test.
bats_require_minimum_version 1.5.0
DL_BUILD=${DL_BUILD:-$BATS_TEST_DIRNAME/../build}
PATH="$DL_BUILD/bin:$PATH"
VECTORS=${DL_VECTORS:-$BATS_TEST_DIRNAME/data}
BIGDEAL=$VECTORS/bigdeal
SQUAREDEAL=$VECTORS/squaredeal
HELPERS=$DL_BUILD/t
export PATH
# the archive every dealing tool records its sets in: the suite's own,
# never the user's (setup() gives each test its own)
DL_ARCHIVE=${BATS_FILE_TMPDIR:-${BATS_RUN_TMPDIR:-/tmp}}/archive.sqlite
export DL_ARCHIVE
# dl-web reads no settings file, not even the machine's /etc/dl/dl-web.conf
# (a test that wants one names it)
DL_WEB_CONFIG=
export DL_WEB_CONFIG

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	unset DL_PLUGIN_PATH
	# each test has a seed history of its own, so that it is exercised
	export DL_SEED_HISTORY=$BATS_TEST_TMPDIR/seed-history
	# outside the test's folder, which some tests list
	export DL_ARCHIVE=$BATS_FILE_TMPDIR/archive-$BATS_TEST_NUMBER.sqlite
}

# skip_unless_possible REASON: for a test this machine cannot run (not
# root, no setpriv, no ptrace, no tmpfs): skipped, saying REASON; under CI
# (CI=true: .ci/run sets it, as CI services do) a failure instead, so that
# a test CI cannot run never passes there quietly.
skip_unless_possible() {
	if [ "${CI:-}" = true ]; then
		echo "CI=true: this test must run here, but cannot: $1" >&2
		return 1
	fi
	skip "$1"
}

# param CASE KEY: a value from a vector's PARAMS file (v4's owner is empty);
# fails when the file or the key is missing
param() {
	grep -q "^$2=" "$BIGDEAL/$1/PARAMS" || { echo "no $2 in $BIGDEAL/$1/PARAMS" >&2; return 1; }
	sed -n "s/^$2=//p" "$BIGDEAL/$1/PARAMS"
}

# seed_of CASE: the seed stream of a Big Deal vector
seed_of() {
	dl-seed --hex "$(param "$1" random)" --owner "$(param "$1" owner)"
}

# deals_of CASE: the deal stream of a Big Deal vector
deals_of() {
	seed_of "$1" | dl-stream -n "$(param "$1" boards)" | dl-map
}

# The generator tags name the program that wrote a file: ours differs.
strip_generator() {
	sed -e '/^\[Generator /d' -e '/^Headline=/d' "$@"
}

# Every format Big Deal writes, as NAME.SUFFIX of the golden files; dup and
# dlm come in two variants each, sharing a suffix.
BIGDEAL_FORMATS="pbn lin csv bri dge dup dupblind dlm dlmblind ber borel kops cds goedel"
# Formats with pairwise distinct suffixes, and the rest: one dl-fmt run each.
RUN_ONE="pbn,lin,csv,bri,dge,dup,dlm,ber,borel,kops,cds,goedel"
RUN_TWO="dupblind,dlmblind"

# golden CASE NAME: Big Deal's file of format NAME for CASE
golden() {
	local files=("$BIGDEAL/$1/$2".*)
	[ -f "${files[0]}" ] || { echo "no golden $1/$2" >&2; return 1; }
	echo "${files[0]}"
}

# same_as_golden FILE CASE NAME: FILE is Big Deal's output, the generator
# tags (pbn, dlm) aside.
same_as_golden() {
	local want
	want=$(golden "$2" "$3") || return 1
	case $3 in
	pbn | dlm | dlmblind)
		cmp <(strip_generator "$1") <(strip_generator "$want") ;;
	*)
		cmp "$1" "$want" ;;
	esac || { echo "$3 differs for $2" >&2; return 1; }
}

# fails CMD...: runs CMD, which must fail with status 1 or 2 and print
# exactly one line, newline-terminated, on standard error; that line
# (without its newline) is left in $output and $stderr, CMD's standard
# output in $lines.  Success, any other status (a crash or another signal,
# a command that could not be run), no message, an empty or unterminated
# line, or several lines fail the test, saying which.
fails() {
	local err problem=
	err=$(mktemp "${BATS_SUITE_TMPDIR:-${TMPDIR:-/tmp}}/fails.XXXXXX") || return 1
	run fails_stderr_to "$err" "$@"
	case $status in
	0) problem="succeeded (status 0)" ;;
	1 | 2) ;;
	126 | 127) problem="could not be run (status $status)" ;;
	*)
		local sig
		if [ "$status" -gt 128 ] && sig=$(kill -l "$status" 2> /dev/null); then
			problem="was killed by SIG$sig (status $status)"
		else
			problem="exited with status $status, not 1 or 2"
		fi ;;
	esac
	local nlines
	nlines=$(wc -l < "$err")
	if [ -n "$problem" ]; then
		:
	elif [ ! -s "$err" ]; then
		problem="failed (status $status) with nothing on stderr"
	elif [ -n "$(tail -c 1 "$err")" ]; then
		problem="failed (status $status) with an unterminated line on stderr"
	elif [ "$nlines" -ne 1 ]; then
		problem="failed (status $status) with $nlines lines on stderr, not one"
	elif [ "$(wc -c < "$err")" -eq 1 ]; then
		problem="failed (status $status) with an empty line on stderr"
	fi
	if [ -n "$problem" ]; then
		{
			printf 'fails: %s\n  %s\n' "$*" "$problem"
			if [ -s "$err" ]; then
				printf '  stderr:\n'
				sed 's/^/    | /' "$err"
			fi
		} >&2
		rm -f "$err"
		return 1
	fi
	output=$(cat "$err")
	stderr=$output
	stderr_lines=("$output")
	rm -f "$err"
}

# fails_stderr_to FILE CMD...: CMD with its standard error into FILE.
fails_stderr_to() {
	local err=$1
	shift
	"$@" 2> "$err"
}

# refuses STATUS MESSAGE CMD...: CMD exits with STATUS and prints exactly
# MESSAGE, one line, on standard error.
refuses() {
	local want_status=$1 want=$2
	shift 2
	run --separate-stderr "$@"
	if [ "$status" -ne "$want_status" ] || [ "$stderr" != "$want" ]; then
		printf 'command: %s\nstatus:  %s, not %s\nstderr:  %s\nwanted:  %s\n' \
		    "$*" "$status" "$want_status" "$stderr" "$want" >&2
		return 1
	fi
}

# The drop-ins' standard output (dropin.bats, compat.bats)
BANNER_RE='^dl-bigdealx? \(dl [0-9.]+\), compatible with Big Deal version 2\.0$'

# two_lines FILE: FILE is the banner and an empty line, as SquareDeal counts
two_lines() {
	[ "$(wc -l < "$1")" -eq 2 ] || { echo "not two lines: $(cat "$1")" >&2; return 1; }
	[[ "$(head -1 "$1")" =~ $BANNER_RE ]]
	[ -z "$(sed -n 2p "$1")" ]
}

# warned FILE BITS: FILE is the banner, an empty line and the warnings a
# run with -h, -e, -E or -o prints there, as many lines as the reference
# prints; BITS, if given, is the given entropy below 213 bits
warned() {
	{
		sed -n 1,2p "$1"
		[ -n "$2" ] && echo "WARNING: only $2 bits of entropy given on the command line; Big Deal wants 213."
		echo 'WARNING: -e, -E, -h or -o can make a set of deals that is not new:'
		echo 'the same entropy, or the same hash, gives the same deals again.'
		echo 'Play these deals only with the permission of your national authority.'
		echo
	} | cmp - "$1"
	[[ "$(head -1 "$1")" =~ $BANNER_RE ]]
}
