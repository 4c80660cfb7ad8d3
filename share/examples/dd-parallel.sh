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

awk -v n="$boards" -v c="$chunk" 'BEGIN {
	for (a = 1; a <= n; a += c) print a "-" (a + c - 1 > n ? n : a + c - 1)
}' |
parallel --keep-order --halt now,fail=1 -S "$hosts" --transferfile "$key" --cleanup \
    "dl-stream -n {} < '$key' | dl-map | dl-dd -q" |
# one stream: the first job's headers, with the whole range, then every
# job's records in order (--keep-order); the other jobs' headers are the
# first's but for their #B:
awk -v range="1-$boards" '
	/^#/ { if (!records) print (/^#B: / ? "#B: " range : $0); next }
	{ records = 1; print }
'
