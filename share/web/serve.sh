#!/bin/sh
# make serve: dl-web on http://127.0.0.1:${DL_WEB_PORT:-8080}/ through
# lighttpd in the foreground (share/web/lighttpd.conf), until Ctrl-C.
#   sh share/web/serve.sh BUILD/bin/dl-web
# The archive is DL_ARCHIVE, or the user's own (as the tools'); the empty
# document root is in a private folder, and the CGI's temporary files in
# DL_WEB_TMP or a private folder in memory (below), removed at the end.
# DL_WEB_HOSTS, when set, is passed on: the host names the site answers
# to (unset, dl-web answers the loopback names only).
set -eu
# Everything made here and by lighttpd (the archive's folders, lighttpd's
# error log, the files of request bodies it buffers) is the user's alone,
# as the tools' files are.
umask 077

bin=${1:?usage: serve.sh BUILD/bin/dl-web}
here=$(cd "$(dirname "$0")" && pwd)
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
[ -x "$bin" ] || { echo "serve.sh: no $bin (make all)" >&2; exit 2; }
lighttpd=$(command -v lighttpd 2>/dev/null || echo /usr/sbin/lighttpd)
[ -x "$lighttpd" ] || { echo "serve.sh: no lighttpd (sh share/dev/ensure-deps.sh --serve)" >&2; exit 2; }

if [ -z "${DL_ARCHIVE:-}" ]; then
	if [ -n "${XDG_DATA_HOME:-}" ]; then
		DL_ARCHIVE=$XDG_DATA_HOME/dl/archive.sqlite
	else
		DL_ARCHIVE=${HOME:?no HOME: set DL_ARCHIVE}/.local/share/dl/archive.sqlite
	fi
fi
# its folders, those that are missing, made 0700 (the umask)
case $DL_ARCHIVE in
/*) mkdir -p "$(dirname "$DL_ARCHIVE")" ;;
esac
DL_WEB_PORT=${DL_WEB_PORT:-8080}
dir=$(mktemp -d "${TMPDIR:-/tmp}/dl-serve.XXXXXX")
tmp=
trap 'rm -rf "$dir" ${tmp:+"$tmp"}' EXIT
trap 'exit 130' INT TERM
mkdir -m 700 "$dir/root"
# The CGI's temporary folder: DL_WEB_TMP when it is given, else one in
# memory (/dev/shm, a tmpfs) where there is one: the deals and the seed
# dl-web writes there for a moment then never reach a disk.
if [ -n "${DL_WEB_TMP:-}" ]; then
	[ -d "$DL_WEB_TMP" ] || { echo "serve.sh: DL_WEB_TMP: no folder $DL_WEB_TMP" >&2; exit 2; }
elif [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	tmp=$(mktemp -d /dev/shm/dl-web-tmp.XXXXXX)
	DL_WEB_TMP=$tmp
else
	mkdir -m 700 "$dir/tmp"
	DL_WEB_TMP=$dir/tmp
fi
DL_WEB_BIN=$bin DL_WEB_ROOT=$dir/root
export DL_ARCHIVE DL_WEB_PORT DL_WEB_BIN DL_WEB_ROOT DL_WEB_TMP
if [ -n "${DL_WEB_HOSTS:-}" ]; then export DL_WEB_HOSTS; fi

echo "dl-web: http://127.0.0.1:$DL_WEB_PORT/ (archive $DL_ARCHIVE; Ctrl-C stops it)"
"$lighttpd" -D -f "$here/lighttpd.conf"
