#!/bin/sh
# make bench-archive-large: make bench-archive's figures on 10^8 deals
# ($ARCHIVE_BOARDS), for docs/archive.md's "Checks at scale".  It says
# first what it needs, and stops unless the temporary folder's file system
# has it: the deals as a stream (65 bytes a deal), the SQLite archive (130
# bytes a deal before compact), PostgreSQL's tables (some 110 bytes a
# deal, and as much again for the buckets while compact rewrites them,
# with its write-ahead log), with a tenth more to spare; ARCHIVE_BACKENDS
# (sqlite postgresql) says which are measured.  An hour or more of both
# cores of a machine like the project's.
set -eu
build=$1
ARCHIVE_BOARDS=${ARCHIVE_BOARDS:-100000000}
dir=${TMPDIR:-/tmp}
ARCHIVE_BACKENDS=${ARCHIVE_BACKENDS:-sqlite postgresql}
per=65
case " $ARCHIVE_BACKENDS " in *" sqlite "*) per=$((per + 130)) ;; esac
case " $ARCHIVE_BACKENDS " in *" postgresql "*) per=$((per + 250)) ;; esac
need=$(awk -v n="$ARCHIVE_BOARDS" -v per="$per" 'BEGIN { printf "%.0f", n * per * 1.1 }')
have=$(df -P -k "$dir" | awk 'NR == 2 { printf "%.0f", $4 * 1024 }')
gb() { awk -v b="$1" 'BEGIN { printf "%.1f GB", b / 1e9 }'; }
echo "bench-archive-large: $ARCHIVE_BOARDS deals need $(gb "$need") in $dir; it has $(gb "$have")"
if [ "$have" -lt "$need" ]; then
	echo "bench-archive-large: not enough room in $dir (TMPDIR names another folder)" >&2
	exit 2
fi
ARCHIVE_BOARDS=$ARCHIVE_BOARDS ARCHIVE_BACKENDS=$ARCHIVE_BACKENDS exec sh "$(dirname "$0")/bench-archive.sh" "$build"
