#!/bin/bash
# dd-parallel KEY BOARDS CHUNK [SSHLOGIN]: the double-dummy analysis of
# boards 1..BOARDS of the dl256 (or wwdeal) seed in file KEY, CHUNK boards
# a job, the jobs spread by GNU parallel over the machines SSHLOGIN names
# (parallel's -S: "host1,host2", "4/host3", ":" this machine, the default),
# each of which has dl installed.  The result, on standard output, is the
# deals+dd stream of one run over all the boards, byte for byte
# (docs/distributed.md).
#
# dl256 deals any board from the key alone, so a job needs nothing of the
# others.  The key travels as a file (--transferfile, removed after the
# job by --cleanup), never on a command line.
set -eu -o pipefail

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
	echo "usage: dd-parallel KEY BOARDS CHUNK [SSHLOGIN]" >&2
	exit 2
fi
key=$1 boards=$2 chunk=$3 hosts=${4:-:}
case $key in
/*) echo "dd-parallel: give KEY as a path relative to here, as it will be on the other machines" >&2; exit 2 ;;
esac

# the jobs' streams come back in files (--files), in order (--keep-order),
# which dl-cat joins into the stream of one run, checking that each
# follows on from the one before; the files are deals before play
umask 077
parts=$(mktemp)
trap 'xargs rm -f < "$parts"; rm -f "$parts"' EXIT
awk -v n="$boards" -v c="$chunk" 'BEGIN {
	for (a = 1; a <= n; a += c) print a "-" (a + c - 1 > n ? n : a + c - 1)
}' |
parallel --keep-order --files --halt now,fail=1 -S "$hosts" --transferfile "$key" --cleanup \
    "dl-stream -n {} < '$key' | dl-map | dl-dd -q" > "$parts"
# shellcheck disable=SC2046
dl-cat $(cat "$parts")
