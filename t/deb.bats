#!/usr/bin/env bats
# make deb: the Debian packages (debian/) built and checked by lintian;
# then, as root, installed on this machine, dl-web served through nginx
# and through lighttpd as docs/web.md sets them up (basic authentication,
# fcgiwrap started the way without systemd), nothing of a request left on
# a disk, the packages removed and purged with nothing left behind.
#
# Installing takes the machine's /etc, /var/lib/dl-web, /run/dl-web and
# port 80 for the file's run: it is skipped (a failure under CI) when not
# root, when dl-web is installed already (never a machine's own
# installation), or when port 80 is taken.

# the packages built, lintian, a server on port 80: not in make
# check-quick; run alone, after the other files (web-server)
# bats file_tags=slow,web-server
load helper

ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
ARCH=$(dpkg --print-architecture 2> /dev/null || echo unknown)

setup_file() {
	export DEBS=$BATS_FILE_TMPDIR/build/deb
	# what the file did to the machine, for teardown_file to undo
	export DID=$BATS_FILE_TMPDIR/did
	mkdir -p "$DID"
}

# the servers the file started, stopped
stop_servers() {
	if [ -e "$DID/lighttpd" ]; then service lighttpd stop > /dev/null 2>&1; rm "$DID/lighttpd"; fi
	if [ -e "$DID/nginx" ]; then service nginx stop > /dev/null 2>&1; rm "$DID/nginx"; fi
	if [ -e "$DID/fcgiwrap" ]; then
		/usr/libexec/dl-web/fcgiwrap stop > /dev/null 2>&1
		rm "$DID/fcgiwrap"
	fi
	return 0
}

# the file's own undoing, also when a test failed half-way
teardown_file() {
	stop_servers
	[ -e "$DID/mounted" ] && umount /run/dl-web
	if [ -e "$DID/installed" ]; then
		rm -f /etc/nginx/sites-enabled/dl-web /etc/lighttpd/conf-enabled/50-dl-web.conf
		dpkg --purge dl-web dl-dev dl > /dev/null 2>&1
	fi
	return 0
}

# root, and a machine the file may install on; else skipped, saying why
installing() {
	[ "$(id -u)" = 0 ] || skip_unless_possible "not root: the packages are installed on the machine itself"
	[ -e "$DID/installed" ] || skip_unless_possible "the packages were not installed (the test before says why)"
}

# get URL [CURL-ARGS...]: the answer, the director's credentials given
# from a file (never on a command line); code: the status alone
get() {
	curl -s --netrc-file "$BATS_FILE_TMPDIR/netrc" "$@"
}
code() {
	curl -s -o /dev/null -w '%{http_code}' "$@"
}

# what a request must not leave on a disk: its body, the seed it made,
# its answer, found by their text in the files written since the file
# began in the folders the servers and dl-web write, the system's
# temporary folders (the suite's own aside) and the logs
left_on_disk() {
	find /var/lib/nginx /var/lib/dl-web /var/cache/lighttpd /var/log /var/tmp /tmp \
	    -path "$BATS_RUN_TMPDIR" -prune -o -type f -newer "$DID" -print0 2> /dev/null |
	    xargs -0 -r grep -lF "$@" 2> /dev/null || :
}

# session NAME: a session dealt from the form (the page), its seed's key
# and its PBN deal of board 1 in NAME.key and NAME.deal; then a file
# checked whose body (2 MiB, past what the servers hold in memory) holds
# the text in NAME.marker
session() {
	get -o "$1.page" -w '%{http_code}\n' -F event="Packaged $1" -F boards=1-4 \
	    -F formats=pbn -F paper=a4 http://localhost/dl-web > "$1.status"
	[ "$(cat "$1.status")" = 200 ] || { cat "$1.status" "$1.page"; return 1; }
	sed -n 's/.*href="data:text\/plain;base64,\([^"]*\)".*/\1/p' "$1.page" | base64 -d > "$1.seed"
	awk 'END { print $2 }' "$1.seed" > "$1.key"
	[ "$(wc -c < "$1.key")" = 65 ]
	sed -n 's/.*href="data:application\/zip;base64,\([^"]*\)".*/\1/p' "$1.page" | base64 -d > "$1.zip"
	unzip -p "$1.zip" '*.pbn' | sed -n 's/^\[Deal "\(.*\)"\]\r*$/\1/p' | head -1 > "$1.deal"
	[ -s "$1.deal" ]
	# its address for the players, printed in its QR code
	sed -n 's/^#U: //p' "$1.seed" > "$1.url"
	[[ $(cat "$1.url") == "http://localhost/dl-web?record="* ]]
	# a PBN file of 2 MiB: its one board and a comment of a marker
	echo "marker-$1-$RANDOM$RANDOM$RANDOM" > "$1.marker"
	{
		printf '[Event "Packaged"]\n[Board "1"]\n[Deal "%s"]\n' "$(cat "$1.deal")"
		yes "; $(cat "$1.marker") $(printf '%0100d' 0)" | head -n 16384
	} > "$1.pbn"
	[ "$(get -o "$1.check" -w '%{http_code}' -F action=check -F "file=@$1.pbn" \
	    http://localhost/dl-web)" = 200 ]
	grep -q 'same deal' "$1.check"
}

# published NAME: the players' hand record of session NAME, public: its
# address without a password is dl-web's 404 until the set is played,
# then the hand record; a post to it, or no token, a director's request
published() {
	local set
	[ "$(code "$(cat "$1.url")")" = 404 ]
	[ "$(code -d action=played "$(cat "$1.url")")" = 401 ]
	[ "$(code 'http://localhost/dl-web?record=')" = 401 ]
	set=$(sqlite3 /var/lib/dl-web/archive.sqlite 'SELECT max(id) FROM sets')
	[ "$(get -o "$1.played" -w '%{http_code}' -F action=played -F set="$set" \
	    http://localhost/dl-web)" = 200 ]
	[ "$(curl -s -o "$1.public" -w '%{http_code}' "$(cat "$1.url")")" = 200 ]
	grep -q "Packaged $1" "$1.public"
}

@test "make deb: dl, dl-dev and dl-web, lintian finding nothing" {
	command -v dpkg-buildpackage > /dev/null && command -v lintian > /dev/null ||
	    skip_unless_possible "no dpkg-buildpackage or lintian (make deb installs them on Debian, as root)"
	run -0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u WERROR -u OPT \
	    -u LDFLAGS -u BUILD make --no-print-directory -s -C "$ROOT" \
	    BUILD="$BATS_FILE_TMPDIR/build" deb
	# lintian reports nothing (it says only that root runs it, if it does)
	[ "$(grep -E '^[EWIPXON]: ' <<< "$output")" = "" ]
	[ "$(cd "$DEBS" && ls ./*.deb)" = "$(printf '%s\n' ./dl-dbgsym_0.1.0_${ARCH}.deb \
	    ./dl-dev_0.1.0_all.deb ./dl-web-dbgsym_0.1.0_${ARCH}.deb ./dl-web_0.1.0_${ARCH}.deb \
	    ./dl_0.1.0_${ARCH}.deb)" ]
}

@test "the packages: the tools, the SDK and the web page apart, each file in its place" {
	[ -f "$DEBS/dl_0.1.0_${ARCH}.deb" ] || skip_unless_possible "no packages (the test before failed)"
	contents() { dpkg-deb -c "$DEBS/$1" | awk '{ print $6 $7 $8 }' | sed 's|^\./|/|' | LC_ALL=C sort; }
	run -0 contents dl-web_0.1.0_${ARCH}.deb
	[ "$output" = "$(printf '%s\n' / /etc/ /etc/dl/ /etc/dl/dl-web.conf /etc/lighttpd/ \
	    /etc/lighttpd/conf-available/ /etc/lighttpd/conf-available/50-dl-web.conf /etc/nginx/ \
	    /etc/nginx/sites-available/ /etc/nginx/sites-available/dl-web /etc/nginx/snippets/ \
	    /etc/nginx/snippets/dl-web.conf /lib/ /lib/systemd/ /lib/systemd/system/ \
	    /lib/systemd/system/dl-web-fcgiwrap.service /lib/systemd/system/dl-web-fcgiwrap.socket \
	    /usr/ /usr/bin/ /usr/bin/dl-web /usr/lib/ /usr/lib/tmpfiles.d/ \
	    /usr/lib/tmpfiles.d/dl-web.conf /usr/libexec/ /usr/libexec/dl-web/ \
	    /usr/libexec/dl-web/fcgiwrap /usr/share/ /usr/share/dl/ /usr/share/dl/web/ \
	    /usr/share/dl/web/lighttpd.conf /usr/share/dl/web/nginx.conf \
	    /usr/share/dl/web/serve.sh /usr/share/doc/ /usr/share/doc/dl-web/ \
	    /usr/share/doc/dl-web/changelog.gz /usr/share/doc/dl-web/copyright /usr/share/lintian/ \
	    /usr/share/lintian/overrides/ /usr/share/lintian/overrides/dl-web /usr/share/man/ \
	    /usr/share/man/man1/ /usr/share/man/man1/dl-web.1.gz)" ]
	run -0 dpkg-deb -f "$DEBS/dl-web_0.1.0_${ARCH}.deb" Depends Recommends
	[[ ${lines[0]} == "Depends: "*"dl (= 0.1.0)" ]]
	[ "${lines[1]}" = "Recommends: nginx | lighttpd, fcgiwrap" ]
	run -0 contents dl-dev_0.1.0_all.deb
	[ "$(grep -v '/$' <<< "$output")" = "$(printf '%s\n' /usr/include/dl/plugin.h \
	    /usr/share/dl/examples/dd-parallel.sh /usr/share/dl/examples/handlist.c \
	    /usr/share/dl/examples/hcp.c /usr/share/doc/dl-dev/changelog.gz \
	    /usr/share/doc/dl-dev/copyright /usr/share/man/man3/dl-plugin.3.gz \
	    /usr/share/pkgconfig/dl-plugin.pc)" ]
	# every tool but dl-web, every plugin, every link with its page
	run -0 contents dl_0.1.0_${ARCH}.deb
	tools=$(cd "$ROOT/cmd" && ls dl-*.c | sed 's/\.c$//' | grep -vx dl-web)
	[ "$(grep -E '^/usr/bin/dl-[a-z]+$' <<< "$output" | sed 's|/usr/bin/||')" = "$tools" ]
	[ "$(grep -c '^/usr/lib/dl/plugins/.*\.so$' <<< "$output")" = "$(ls "$ROOT"/plugins/*.c | wc -l)" ]
	[ "$(grep -c '^/usr/bin/dl-fmt-' <<< "$output")" = "$(grep -c '^/usr/share/man/man1/dl-fmt-' <<< "$output")" ]
	[ "$(grep -c '^/usr/bin/dl-read-' <<< "$output")" = "$(grep -c '^/usr/share/man/man1/dl-read-' <<< "$output")" ]
	grep -qx /usr/lib/dl/plugins/plugins.index <<< "$output"
	[ "$(grep -c dl-web <<< "$output")" = 0 ]
}

@test "installed as root: the settings 0640 root:www-data, the archive's folder www-data's alone, /run/dl-web in memory; the SDK builds a plugin" {
	[ "$(id -u)" = 0 ] || skip_unless_possible "not root: the packages are installed on the machine itself"
	[ -f "$DEBS/dl-web_0.1.0_${ARCH}.deb" ] || skip_unless_possible "no packages (the first test failed)"
	if dpkg-query -W -f '${Status}' dl-web 2> /dev/null | grep -q installed ||
	    [ -e /etc/dl ] || [ -e /var/lib/dl-web ]; then
		skip_unless_possible "dl-web is installed on this machine: the test would purge it"
	fi
	if ss -Hltn 'sport = :80' | grep -q .; then
		skip_unless_possible "port 80 is taken: the packaged sites listen there"
	fi
	# /run is a tmpfs where systemd or an init runs; where it is not (a
	# container), one of the test's own
	if [ "$(stat -f -c %T /run)" != tmpfs ]; then
		mkdir -p /run/dl-web
		mount -t tmpfs -o mode=0700,size=64m tmpfs /run/dl-web
		touch "$DID/mounted"
	fi
	touch "$DID/installed"
	run -0 env DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=300 \
	    "$DEBS/dl_0.1.0_${ARCH}.deb" "$DEBS/dl-dev_0.1.0_all.deb" "$DEBS/dl-web_0.1.0_${ARCH}.deb"
	mode() { stat -c '%a %U:%G' "$1"; }
	[ "$(mode /etc/dl/dl-web.conf)" = "640 root:www-data" ]
	[ "$(mode /var/lib/dl-web)" = "700 www-data:www-data" ]
	for d in /run/dl-web /run/dl-web/tmp /run/dl-web/nginx-body /run/dl-web/lighttpd; do
		[ "$(mode $d)" = "700 www-data:www-data" ] || { echo "$d: $(mode $d)"; return 1; }
	done
	[ "$(stat -f -c %T /run/dl-web/tmp)" = tmpfs ]
	[ "$(mode /usr/bin/dl-web)" = "755 root:root" ]
	# the tools and their plugins, installed
	run -0 bash -c '/usr/bin/dl-seed --hex 0123456789ABCDEF0123456789ABCDEF01234567 \
	    --owner "Example Owner" | /usr/bin/dl-stream -n 2 | /usr/bin/dl-map | /usr/bin/dl-fmt-pbn |
	    grep -c "^\[Deal "'
	[ "$output" = 2 ]
	# a plugin of one's own, built against the SDK as the README says
	run -0 pkg-config --modversion dl-plugin
	[ "$output" = 0.1.0 ]
	cc -shared -fPIC $(pkg-config --cflags dl-plugin) /usr/share/dl/examples/hcp.c -o hcp.so
	run -0 bash -c '/usr/bin/dl-seed | /usr/bin/dl-stream -n 1 | /usr/bin/dl-map |
	    DL_PLUGIN_PATH=$PWD /usr/bin/dl-fmt -f hcp -p out && ls out.*'
	[ "$output" = out.hcp ]
}

@test "nginx: the site and fcgiwrap as docs/web.md says, basic authentication, a session dealt and a file checked, nothing of them on a disk" {
	installing
	# basic authentication on as shipped
	[ "$(grep -c '^	auth_basic' /etc/nginx/snippets/dl-web.conf)" = 2 ]
	(umask 077 && printf 'machine localhost\nlogin director\npassword %s\n' \
	    "$(head -c 12 /dev/urandom | base64)" > "$BATS_FILE_TMPDIR/netrc")
	# the site enabled, fcgiwrap started by its socket (systemd: the
	# package did it) or without systemd: the commands docs/web.md gives
	ln -s ../sites-available/dl-web /etc/nginx/sites-enabled/dl-web
	if [ -d /run/systemd/system ]; then
		run -0 systemctl is-active dl-web-fcgiwrap.socket
		[ "$(stat -c '%a %U' /run/dl-web/fcgiwrap.sock)" = "600 www-data" ]
	else
		touch "$DID/fcgiwrap"
		/usr/libexec/dl-web/fcgiwrap start
		[ "$(stat -c '%a %U' /run/dl-web/fcgiwrap.sock)" = "700 www-data" ]
	fi
	touch "$DID/nginx"
	run -0 service nginx start
	# no password file yet: nothing served to a director, with
	# credentials or without
	[ "$(code http://localhost/dl-web)" = 401 ]
	[ "$(get -o /dev/null -w '%{http_code}' http://localhost/dl-web)" = 403 ]
	# the file made, as docs/web.md says
	awk '/^password/ { print $2 }' "$BATS_FILE_TMPDIR/netrc" |
	    htpasswd -B -i -c /etc/dl/htpasswd director
	chown root:www-data /etc/dl/htpasswd
	chmod 640 /etc/dl/htpasswd
	# no credentials: 401; / is the form's address
	[ "$(code http://localhost/dl-web)" = 401 ]
	[ "$(curl -s -o /dev/null -w '%{redirect_url}' http://localhost/)" = http://localhost/dl-web ]
	[ "$(code http://localhost/other)" = 403 ]
	# a query named "Record" is no hand record's: nginx's $arg_ matches
	# in any case, dl-web does not
	[ "$(code 'http://localhost/dl-web?Record=x&event=Hi')" = 401 ]
	[ "$(get -o form.html -w '%{http_code}' http://localhost/dl-web)" = 200 ]
	grep -q '^<title>Deal a session</title>$' form.html
	session nginx
	published nginx
	# recorded in the package's archive, as the authenticated director
	[ "$(sqlite3 /var/lib/dl-web/archive.sqlite 'SELECT count(*), user FROM sets')" = "1|director" ]
	[ "$(stat -c '%a %U' /var/lib/dl-web/archive.sqlite)" = "600 www-data" ]
	# nothing of the requests on a disk: the body (its marker), the
	# seed, the answer (a deal of it); nothing left in /run/dl-web either
	[ "$(left_on_disk -e "$(cat nginx.marker)" -e "$(cat nginx.key)" -e "$(cat nginx.deal)")" = "" ]
	[ "$(find /run/dl-web/tmp /run/dl-web/nginx-body -mindepth 1 | wc -l)" = 0 ]
	# dl-web's log lines in nginx's error log: a refused request's
	get -o /dev/null -F boards=1-200 -F formats=pbn http://localhost/dl-web
	grep -q 'FastCGI sent in stderr: "dl-web: 400 Bad Request: the boards' /var/log/nginx/error.log
	run -0 service nginx stop
	rm "$DID/nginx"
	if [ -e "$DID/fcgiwrap" ]; then
		/usr/libexec/dl-web/fcgiwrap stop
		rm "$DID/fcgiwrap"
		[ ! -e /run/dl-web/fcgiwrap.sock ]
	fi
}

@test "lighttpd: the module enabled as docs/web.md says, basic authentication, a session dealt and a file checked, nothing of them on a disk" {
	installing
	[ -f /etc/dl/htpasswd ] || skip_unless_possible "no password file (the nginx test failed)"
	# the module's authentication on as shipped, then enabled
	[ "$(grep -c '^[[:space:]]*auth\.' /etc/lighttpd/conf-available/50-dl-web.conf)" = 4 ]
	[ "$(grep -c '^server\.modules += ( "mod_auth", "mod_authn_file" )$' /etc/lighttpd/conf-available/50-dl-web.conf)" = 1 ]
	run -0 lighttpd-enable-mod dl-web
	[ -L /etc/lighttpd/conf-enabled/50-dl-web.conf ]
	touch "$DID/lighttpd"
	run -0 service lighttpd start
	for _ in $(seq 50); do [ "$(code http://localhost/dl-web)" = 401 ] && break; sleep 0.1; done
	[ "$(code http://localhost/dl-web)" = 401 ]
	[ "$(get -o form.html -w '%{http_code}' http://localhost/dl-web)" = 200 ]
	grep -q '^<title>Deal a session</title>$' form.html
	session lighttpd
	published lighttpd
	[ "$(sqlite3 /var/lib/dl-web/archive.sqlite 'SELECT count(*), min(user), max(user) FROM sets')" = "2|director|director" ]
	[ "$(left_on_disk -e "$(cat lighttpd.marker)" -e "$(cat lighttpd.key)" -e "$(cat lighttpd.deal)")" = "" ]
	[ "$(find /run/dl-web/tmp /run/dl-web/lighttpd -mindepth 1 | wc -l)" = 0 ]
	# dl-web's log lines in the CGI's log beside lighttpd's
	get -o /dev/null -F boards=1-200 -F formats=pbn http://localhost/dl-web
	grep -q '^dl-web: 400 Bad Request: the boards' /var/log/lighttpd/cgi.log
	run -0 service lighttpd stop
	rm "$DID/lighttpd"
}

@test "removed, the archive is kept and said so; purged, it goes, said so, and nothing of dl is left" {
	installing
	stop_servers
	run -0 dpkg -r dl-web
	[[ $output == *"dl-web: the archive in /var/lib/dl-web is kept (purge removes it)"* ]]
	[ -f /var/lib/dl-web/archive.sqlite ] && [ -f /etc/dl/dl-web.conf ] && [ ! -e /usr/bin/dl-web ]
	# a tmpfs of the test's own at /run/dl-web goes first, as at a reboot
	if [ -e "$DID/mounted" ]; then
		umount /run/dl-web
		rm "$DID/mounted"
	fi
	run -0 dpkg --purge dl-web
	[[ $output == *"dl-web: removing /var/lib/dl-web, the archive of every set dealt by dl-web"* ]]
	[[ $output == *"dl-web: removing /etc/dl/htpasswd"* ]]
	run -0 dpkg --purge dl-dev dl
	rm "$DID/installed"
	for f in /etc/dl /var/lib/dl-web /run/dl-web /etc/nginx/sites-available/dl-web \
	    /etc/nginx/sites-enabled/dl-web /etc/nginx/snippets/dl-web.conf \
	    /etc/lighttpd/conf-available/50-dl-web.conf /etc/lighttpd/conf-enabled/50-dl-web.conf \
	    /usr/lib/tmpfiles.d/dl-web.conf /lib/systemd/system/dl-web-fcgiwrap.socket \
	    /lib/systemd/system/dl-web-fcgiwrap.service /usr/libexec/dl-web /usr/bin/dl-web \
	    /usr/bin/dl-deal /usr/bin/dl-fmt-pbn /usr/lib/dl /usr/share/dl /usr/include/dl \
	    /usr/share/pkgconfig/dl-plugin.pc; do
		[ ! -e "$f" ] && [ ! -L "$f" ] || { echo "left: $f"; return 1; }
	done
	run -1 dpkg-query -W -f '${Status}\n' dl dl-dev dl-web
	# the servers' configurations are whole without dl-web's
	run -0 nginx -t -q
	run -0 lighttpd -tt -f /etc/lighttpd/lighttpd.conf
}
