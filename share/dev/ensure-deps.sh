#!/bin/sh
# Installs what building and testing dl needs on a Debian-like machine, or
# prints the exact command when it cannot (not root, no password-less sudo).
# Used by `make run`, `make serve` (--serve), `make check` (--test), `make
# check-quick` (--quick: what the suite needs but the browser, PostgreSQL
# and the web servers), `make bench` (--bench), `make deb` (--deb) and
# .ci/run.
set -eu

packages=""
need() { packages="$packages $1"; }

command -v cc >/dev/null 2>&1 || need gcc
command -v make >/dev/null 2>&1 || need make
command -v pkg-config >/dev/null 2>&1 || need pkg-config
if command -v pkg-config >/dev/null 2>&1; then
	pkg-config --exists libsodium || need libsodium-dev
	pkg-config --exists libbsd-overlay || need libbsd-dev
	# the archive (dl-archive): SQLite, and PostgreSQL's client library
	pkg-config --exists sqlite3 || need libsqlite3-dev
	pkg-config --exists libpq || need libpq-dev
	# dl-web's zip
	pkg-config --exists libarchive || need libarchive-dev
	# the archive's key of an event's name (Unicode)
	pkg-config --exists icu-i18n || need libicu-dev
	# the QR code of the hand record's address (plugins/qr.h)
	pkg-config --exists libqrencode || need libqrencode-dev
else
	need libsodium-dev
	need libbsd-dev
	need libsqlite3-dev
	need libpq-dev
	need libarchive-dev
	need libicu-dev
	need libqrencode-dev
fi
# libdds has no pkg-config file: its header says it is there
[ -f /usr/include/dds/dll.h ] || need libdds-dev
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists pangocairo; then
	:
else
	need libpango1.0-dev
	need libcairo2-dev
fi
# the hand records' fonts: DejaVu, and Noto CJK for Chinese, Japanese and
# Korean event names (DejaVu has none of their characters)
[ -d /usr/share/fonts/truetype/dejavu ] || need fonts-dejavu-core
[ -d /usr/share/fonts/opentype/noto ] && ls /usr/share/fonts/opentype/noto/NotoSansCJK* \
    >/dev/null 2>&1 || need fonts-noto-cjk
case ${1:-} in
--test | --quick)
	command -v bats >/dev/null 2>&1 || need bats
	# the hand-record tests read the PDF's text back
	command -v pdftotext >/dev/null 2>&1 || need poppler-utils
	# and the QR codes they print, read back from the page
	command -v zbarimg >/dev/null 2>&1 || need zbar-tools
	# the archive's tests look into its SQLite file
	command -v sqlite3 >/dev/null 2>&1 || need sqlite3
	# bats --jobs, and the recipe for analyses over many machines
	# (docs/distributed.md)
	command -v parallel >/dev/null 2>&1 || need parallel
	# dl-web's tests: which files it forces onto the disk, its zips, the
	# names a form is posted with
	command -v strace >/dev/null 2>&1 || need strace
	command -v unzip >/dev/null 2>&1 || need unzip
	command -v jq >/dev/null 2>&1 || need jq
	# and the processes a request leaves (pgrep)
	command -v pgrep >/dev/null 2>&1 || need procps
	;;
esac
if [ "${1:-}" = --test ]; then
	# the hand-record tests render HTML in Chromium
	command -v chromium >/dev/null 2>&1 || need chromium
	# npm fetches axe-core, the HTML hand record's accessibility checker
	command -v npm >/dev/null 2>&1 || need npm
	# a throwaway PostgreSQL server for the shared archive's tests
	[ -x "$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | tail -1)" ] || need postgresql
	# dl-web behind a real server (t/web-server.bats) and in a real
	# browser driven over WebDriver (t/web-browser.bats)
	command -v lighttpd >/dev/null 2>&1 || [ -x /usr/sbin/lighttpd ] || need lighttpd
	# and behind nginx with fcgiwrap (t/web-nginx.bats, which starts its
	# own on a free port: Debian's package also starts the system's nginx
	# on port 80, which the tests leave alone)
	command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need nginx
	command -v fcgiwrap >/dev/null 2>&1 || [ -x /usr/sbin/fcgiwrap ] || need fcgiwrap
	command -v chromedriver >/dev/null 2>&1 || need chromium-driver
	command -v curl >/dev/null 2>&1 || need curl
	command -v python3 >/dev/null 2>&1 || need python3
	# the Debian packages (t/deb.bats): built, checked by lintian,
	# installed and served with basic authentication (htpasswd), port 80
	# looked at (ss)
	command -v dpkg-buildpackage >/dev/null 2>&1 || need dpkg-dev
	command -v dh >/dev/null 2>&1 || need debhelper
	command -v lintian >/dev/null 2>&1 || need lintian
	command -v htpasswd >/dev/null 2>&1 || need apache2-utils
	command -v ss >/dev/null 2>&1 || need iproute2
fi

if [ "${1:-}" = --serve ]; then
	# make serve: dl-web through lighttpd (share/web/lighttpd.conf)
	command -v lighttpd >/dev/null 2>&1 || [ -x /usr/sbin/lighttpd ] || need lighttpd
fi

if [ "${1:-}" = --bench ]; then
	# make bench: GNU time for peak memory, Debian's dealer as the reference;
	# dl-web's figures: lighttpd, ApacheBench, curl, sqlite3, nginx
	[ -x /usr/bin/time ] || need time
	command -v dealer >/dev/null 2>&1 || [ -x /usr/games/dealer ] || need dealer
	command -v lighttpd >/dev/null 2>&1 || [ -x /usr/sbin/lighttpd ] || need lighttpd
	command -v ab >/dev/null 2>&1 || need apache2-utils
	# slow clients against nginx too (share/web/nginx.conf)
	command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need nginx
	command -v fcgiwrap >/dev/null 2>&1 || [ -x /usr/sbin/fcgiwrap ] || need fcgiwrap
	command -v curl >/dev/null 2>&1 || need curl
	command -v sqlite3 >/dev/null 2>&1 || need sqlite3
	command -v python3 >/dev/null 2>&1 || need python3
fi

if [ "${1:-}" = --deb ]; then
	# make deb: the Debian packages, checked by lintian
	command -v dpkg-buildpackage >/dev/null 2>&1 || need dpkg-dev
	command -v dh >/dev/null 2>&1 || need debhelper
	command -v lintian >/dev/null 2>&1 || need lintian
fi

[ -z "$packages" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo="sudo"
else
	echo "dl needs:$packages" >&2
	echo "run: sudo apt-get install -y$packages" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "dl needs:$packages (no apt-get here: install them with your package manager)" >&2
	exit 1
fi
echo "installing:$packages" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $packages >/dev/null
