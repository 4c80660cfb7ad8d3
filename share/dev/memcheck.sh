#!/bin/sh
# make memcheck: every tool of the main pipelines under valgrind's memcheck,
# which must report no error and no leak of any kind (docs/robustness.md,
# "valgrind").  Each stage runs alone, reading and writing files, so that
# its exit status and its valgrind log are its own; what it writes must
# equal what the same stage writes without valgrind.
#
#   sh share/dev/memcheck.sh BUILD_DIR
#
# Not part of make check: valgrind is a dependency of this target only.
set -eu
build=${1:?usage: memcheck.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v valgrind > /dev/null 2>&1; then
	sudo=sudo
	[ "$(id -u)" -eq 0 ] && sudo=
	echo "make memcheck needs valgrind, which is not installed" >&2
	echo "run: ${sudo:+$sudo }apt-get install -y valgrind" >&2
	exit 1
fi

PATH="$build/bin:$PATH"
export PATH
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
umask 077
# the seed history is exercised (dl-seed and dl-deal write it) but kept here
DL_SEED_HISTORY=$work/seed-history
# and so is the archive the dealing tools record in: not the user's
DL_ARCHIVE=$work/archive.sqlite
export DL_SEED_HISTORY DL_ARCHIVE
unset DL_PLUGIN_PATH

runs=0
failed=0
# the stages' standard output goes to files: the report to the saved one
exec 3>&1

# vg NAME CMD...: CMD under memcheck, its log in log/NAME.  A leak of any
# kind counts (still reachable too), and any report fails: --error-exitcode
# for errors, and a log that is not empty for what valgrind says besides.
mkdir log
vg() {
	name=$1
	shift
	runs=$((runs + 1))
	status=0
	# --num-callers: deep enough for a suppression to name dl's caller
	# of a library (valgrind.supp)
	valgrind --quiet --error-exitcode=99 --leak-check=full \
	    --show-leak-kinds=all --errors-for-leak-kinds=all --num-callers=40 \
	    --suppressions="$here/valgrind.supp" --log-file="log/$name" \
	    "$@" || status=$?
	if [ "$status" -eq 99 ] || [ -s "log/$name" ]; then
		echo "memcheck: $name: valgrind reports errors (exit status $status):" >&2
		cat "log/$name" >&2
		failed=$((failed + 1))
	elif [ "$status" -ne 0 ]; then
		echo "memcheck: $name: exit status $status" >&2
		failed=$((failed + 1))
	else
		echo "ok  $name" >&3
	fi
}

# same NAME FILE FILE: what a stage wrote under valgrind equals its plain run.
same() {
	if ! cmp -s "$2" "$3"; then
		echo "memcheck: $1: $2 differs from $3, the run without valgrind" >&2
		failed=$((failed + 1))
	fi
}

# The seeds: Big Deal's from a known secret, so that the plain runs agree;
# dl256 from a fixed key; fresh ones from the OS, with the history.
SECRET=0123456789ABCDEF0123456789ABCDEF01234567
vg seed-bigdeal dl-seed --hex "$SECRET" --owner 'Example Owner' --event 'memcheck' > seed.bigdeal
printf '#P: dl/1 seed\n#I: memcheck\ndl256 %s\n' \
    000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f > seed.dl256
vg seed-os dl-seed > seed.os
vg seed-entropy dl-seed -o -e 'memcheck entropy, a phrase long enough for 160 bits of credit' \
    -w 'Example Owner' > seed.entropy
echo 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef > hex
vg seed-commit dl-seed --hex-file hex --commit commit.seed --event 'memcheck' > commitment
vg seed-verify dl-seed --verify "$(sed -n 's/^commitment //p' commitment)" \
    < commit.seed > verified.seed 2> /dev/null

# seed -> numbers -> deals -> numbers, for both generators
for g in bigdeal dl256; do
	vg "stream-$g" dl-stream -n 1-32 < "seed.$g" > "numbers.$g"
	vg "map-$g" dl-map < "numbers.$g" > "deals.$g"
	vg "map-reverse-$g" dl-map --reverse < "deals.$g" > "back.$g"
	dl-stream -n 1-32 < "seed.$g" > "plain-numbers.$g"
	dl-map < "plain-numbers.$g" > "plain-deals.$g"
	same "stream-$g" "numbers.$g" "plain-numbers.$g"
	same "map-$g" "deals.$g" "plain-deals.$g"
	same "map-reverse-$g" "back.$g" "numbers.$g"
done
vg stream-dl256-coordinates dl-stream -n 17-32 --event 7 --session 2 < seed.dl256 > numbers.coord
vg map-pavlicek dl-map -m pavlicek < numbers.bigdeal > deals.pavlicek
vg map-reverse-pavlicek dl-map --reverse < deals.pavlicek > back.pavlicek
same map-reverse-pavlicek back.pavlicek numbers.bigdeal
vg stream-os dl-stream < seed.os > numbers.os

# every format: dl-fmt -f with all of them (two runs: dup and dupblind,
# dlm and dlmblind share a suffix), a plain .tso file, dl-fmt-NAME
all=$(dl-fmt --list | awk 'NR > 1 && $1 != "dupblind" && $1 != "dlmblind" { printf "%s%s", s, $1; s = "," }')
mkdir vg plain
vg fmt-all dl-fmt -f "$all" -p vg/s < deals.bigdeal
vg fmt-blind dl-fmt -f dupblind,dlmblind -p vg/b < deals.bigdeal
vg fmt-crlf dl-fmt --crlf -f lin,pbn -p vg/c < deals.dl256
dl-fmt -f "$all" -p plain/s < deals.bigdeal
dl-fmt -f dupblind,dlmblind -p plain/b < deals.bigdeal
for f in plain/s.* plain/b.*; do
	same fmt-all "vg/${f#plain/}" "$f"
done
grep -v '^#' deals.bigdeal | cut -d' ' -f2 > plain.tso
vg fmt-plain-tso dl-fmt -f dup,pbn -p vg/t < plain.tso
vg fmt-pbn-stdout dl-fmt-pbn < deals.bigdeal > stdout.pbn
same fmt-pbn-stdout stdout.pbn vg/s.pbn
vg fmt-list dl-fmt --list > list

# dl-deal: to standard output, and to files with the history
vg deal-stdout dl-deal -n 8 > deal.pbn
vg deal-files dl-deal -n 32 -f pbn,dup,lin -p dealt -i 'memcheck'
vg deal-bigdeal dl-deal -g bigdeal -n 4 -f tso > deal.tso

# dl-sqd: a whole tournament, then the players' check
vg sqd-create dl-sqd t.sqd create --name 'Memcheck Open' --di 'a draw to come'
vg sqd-add-phase dl-sqd t.sqd add-phase 3 1-10,11-20,21-30 rr 'Round Robin' > /dev/null
vg sqd-add-phase-open dl-sqd t.sqd add-phase 0 1-8 sw 'Swiss' > /dev/null
vg sqd-publish dl-sqd t.sqd publish > /dev/null
vg sqd-set-dv dl-sqd t.sqd set-dv '3 6 9 13 26 40' > /dev/null
vg sqd-make dl-sqd t.sqd make -f pbn,dup > made
vg sqd-make-open dl-sqd t.sqd make --reserve 2 1-2 > /dev/null
vg sqd-show dl-sqd t.sqd show > /dev/null
vg sqd-verify dl-sqd t.sqd verify > /dev/null
vg sqd-verify-deals dl-sqd t.sqd verify --deals rr2.pbn > /dev/null
vg sqd-seed dl-sqd t.sqd seed 1 2 > seed.sqd
vg sqd-makefile dl-sqd t.sqd makefile -f pbn,dup > sqd.mk
dl-stream < seed.sqd | dl-map > rr2.tso
vg sqd-verify-tso dl-sqd t.sqd verify --deals rr2.tso 1 2 > /dev/null

# Big Deal's programs: a .bigdealrc, then bigdealx's SquareDeal line
printf 'owner=Example Owner\nformats=pbn,dup\n' > .bigdealrc
vg bigdeal dl-bigdeal -n 10 -p bd > /dev/null
vg bigdealx dl-bigdealx -W left -e right -e original -p bdx -n 1-10 > /dev/null
vg bigdealx-hash dl-bigdealx -h "$SECRET" -p bdh -n 4 -f lin > /dev/null
rm .bigdealrc

echo "memcheck: $runs runs, $failed failed" >&3
[ "$failed" -eq 0 ]
