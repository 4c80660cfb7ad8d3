#!/usr/bin/env bats
# The Makefile: what a plain make builds, header dependencies, install and
# uninstall.  One build of the tree in a directory of its own (not the
# suite's), made once for the file; the tests ask make what it would do.

# the tree built again: not in make check-quick
# bats file_tags=slow
load helper

ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)

# mk ARGS...: make in the tree, into the file's build directory $B, as a
# user would run it: nothing inherited from a make running the suite (its
# jobs, BUILD, WERROR, the sanitizer flags of make sanitize).
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
	    -u OPT -u LDFLAGS -u WERROR -u BUILD \
	    make --no-print-directory -C "$ROOT" BUILD="$B" "$@"
}

# made: the files a make -n output writes (their -o), relative to $B, sorted
made() {
	sed -n 's/.* -o \([^ ]*\).*/\1/p' | sed "s|^$B/||" | LC_ALL=C sort
}

setup_file() {
	export B=$BATS_FILE_TMPDIR/b
	mk -j4 > "$BATS_FILE_TMPDIR/make.log" 2>&1 ||
	    { cat "$BATS_FILE_TMPDIR/make.log"; return 1; }
}

@test "a plain make builds the tools and plugins, no test helper or fuzz binary" {
	run find "$B" -mindepth 1 -maxdepth 2 -type d
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]}" | sed "s|^$B/||" | LC_ALL=C sort)" = "$(printf '%s\n' \
	    bin lib obj obj/cmd obj/lib obj/plugins plugins)" ]
	[ -x "$B/bin/dl-seed" ] && [ -L "$B/bin/dl-fmt-pbn" ] && [ -f "$B/plugins/pbn.so" ]
}

@test "a second make does nothing" {
	run mk
	[ "$status" -eq 0 ]
	[ "$output" = "make: Nothing to be done for 'all'." ]
	run mk -q all
	[ "$status" -eq 0 ]
	# nor with the build directory spelt another way
	run mk -q all BUILD="$(realpath --relative-to="$ROOT" "$B")"
	[ "$status" -eq 0 ]
}

@test "a plugin no longer in the tree leaves the build directory at the next make" {
	# the tools load every plugin next to them: a stale one would be used
	touch "$B/plugins/gone.so"
	ln -s dl-fmt "$B/bin/dl-fmt-gone"
	ln -s dl-read "$B/bin/dl-read-gone"
	run mk
	[ "$status" -eq 0 ]
	[ "$output" = "rm -f $B/plugins/gone.so $B/bin/dl-fmt-gone $B/bin/dl-read-gone
make: Nothing to be done for 'all'." ]
	run ls "$B/plugins/gone.so" "$B/bin/dl-fmt-gone" "$B/bin/dl-read-gone"
	[ "$status" -eq 2 ]
	[ -e "$B/plugins/pbn.so" ]
	[ -e "$B/bin/dl-read-pbn" ]
}

@test "a build directory from before its name was made absolute is compiled again, once" {
	# its .d files named the objects relatively: make would miss a header
	rm "$B/obj/.absolute-names"
	run mk -n
	[ "$status" -eq 0 ]
	[ "$(made <<< "$output" | grep -c '\.o$')" -eq "$(find "$B/obj" -name '*.o' | wc -l)" ]
	# the stamp made before the objects it covers: nothing to do
	touch -d @0 "$B/obj/.absolute-names"
	run mk -q all
	[ "$status" -eq 0 ]
}

@test "make test-progs builds the test helpers and fuzz replay binaries" {
	run mk -n test-progs
	[ "$status" -eq 0 ]
	want=$(cd "$ROOT/t" && for f in helpers/*.c; do
		f=${f#helpers/}; echo "obj/t/${f%.c}.o"; echo "t/${f%.c}"; done
	    for f in fuzz/*.c; do
		f=${f#fuzz/}
		case $f in
		stub_*) echo "fuzz/${f%.c}.so" ;;	# fuzz_plugin's plugins
		*) echo "obj/fuzz/${f%.c}.o" ;;
		esac
	    done
	    for f in fuzz/fuzz_*.c; do echo "${f%.c}"; done
	    # fuzz_read's reader plugins, compiled to .o.tmp and renamed by objcopy
	    for r in $(cd "$B/bin" && ls dl-read-* | sed 's/^dl-read-//'); do
		echo "obj/fuzz/reader_$r.o.tmp"; done)
	[ "$(made <<< "$output")" = "$(LC_ALL=C sort <<< "$want")" ]
}

@test "a plugin header rebuilds the plugins that include it, and nothing else" {
	run mk -n -W plugins/bri_dge.h
	[ "$status" -eq 0 ]
	# dup and dupblind include it through dup_common.h
	[ "$(made <<< "$output")" = "$(printf '%s\n' \
	    obj/plugins/bri.o obj/plugins/dge.o obj/plugins/dup.o obj/plugins/dupblind.o \
	    plugins/bri.so plugins/dge.so plugins/dup.so plugins/dupblind.so)" ]
	# and so it does with the build directory spelt another way than the
	# one it was built with (a .d file names the object as make was told)
	run mk -n -W plugins/bri_dge.h BUILD="$(realpath --relative-to="$ROOT" "$B")"
	[ "$status" -eq 0 ]
	[ "$(made <<< "$output")" = "$(printf '%s\n' \
	    obj/plugins/bri.o obj/plugins/dge.o obj/plugins/dup.o obj/plugins/dupblind.o \
	    plugins/bri.so plugins/dge.so plugins/dup.so plugins/dupblind.so)" ]
	run mk -n -W plugins/rank_bytes.h
	[ "$status" -eq 0 ]
	[ "$(made <<< "$output" | grep -c '\.so$')" -ge 1 ]
	[ "$(made <<< "$output" | grep -v '^obj/plugins/\|^plugins/')" = "" ]
}

@test "lib/dl/plugin.h rebuilds every plugin" {
	run mk -n -W lib/dl/plugin.h
	[ "$status" -eq 0 ]
	[ "$(made <<< "$output" | grep '^plugins/')" = \
	    "$(cd "$ROOT/plugins" && for f in *.c; do echo "plugins/${f%.c}.so"; done | LC_ALL=C sort)" ]
}

@test "a lib header recompiles only the sources that include it" {
	# each object compiled is one whose .d names the header, and each of those is
	run mk -n -W lib/keys/ripemd160.h
	[ "$status" -eq 0 ]
	compiled=$(made <<< "$output" | grep '\.o$')
	[ -n "$compiled" ]
	[ "$compiled" = "$(cd "$B" && grep -rl --include='*.d' '[ /]lib/keys/ripemd160\.h\b' obj |
	    sed 's/\.d$/.o/' | LC_ALL=C sort)" ]
}

@test "shared tool code in cmd/*.c goes into libcmd.a, linked into every tool" {
	src=$BATS_TEST_TMPDIR/src
	mkdir "$src"
	(cd "$ROOT" && cp -R Makefile cmd lib plugins share "$src"/)
	printf '%s\n' 'const char *zz_shared(void);' > "$src/cmd/zz_shared.h"
	printf '%s\n' '#include "zz_shared.h"' '#include "base/util.h"' \
	    'const char *zz_shared(void) { return "zz"; }' > "$src/cmd/zz_shared.c"
	ROOT=$src B=$src/build
	mk -j4 all > make.log 2>&1 || { cat make.log; return 1; }
	run nm "$B/lib/libcmd.a"
	[ "$status" -eq 0 ]
	[[ "$output" == *" T zz_shared"* ]]
	grep -q "dl-seed.o -o $B/bin/dl-seed $B/lib/libcmd.a $B/lib/libdl.a " make.log
	# its header: the objects of the sources including it, libcmd.a, then
	# every tool relinked
	echo '#include "zz_shared.h"' >> "$src/cmd/dl-seed.c"
	run mk -q all
	[ "$status" -eq 1 ]
	mk all > /dev/null
	run mk -n -W cmd/zz_shared.h all
	[ "$status" -eq 0 ]
	[ "$(made <<< "$output" | grep -v '^bin/')" = "$(printf '%s\n' \
	    obj/cmd/dl-seed.o obj/cmd/zz_shared.o)" ]
	[[ "$output" == *"rcs $B/lib/libcmd.a "* ]]
	[ "$(made <<< "$output" | grep -c '^bin/')" -eq "$(ls "$src"/cmd/dl-*.c | wc -l)" ]
	# moved to lib/ (a group of it, its includers naming the group), then
	# back: each archive holds its own sources only
	mv "$src"/cmd/zz_shared.[ch] "$src/lib/base/"
	sed -i 's|"zz_shared.h"|"base/zz_shared.h"|' "$src/cmd/dl-seed.c"
	mk all > /dev/null
	run ar t "$B/lib/libdl.a"
	[ "$status" -eq 0 ]
	[[ "$output" == *zz_shared.o* ]]
	mv "$src"/lib/base/zz_shared.[ch] "$src/cmd/"
	sed -i 's|"base/zz_shared.h"|"zz_shared.h"|' "$src/cmd/dl-seed.c"
	mk all > /dev/null
	run ar t "$B/lib/libdl.a"
	[ "$status" -eq 0 ]
	[[ "$output" != *zz_shared.o* ]]
	run ar t "$B/lib/libcmd.a"
	[ "$status" -eq 0 ]
	[ "$(grep -cx zz_shared.o <<< "$output")" -eq 1 ]
}

@test "make uninstall removes what make install installed, and dl's empty directories" {
	mk install DESTDIR="$PWD/dest" PREFIX=/usr > /dev/null
	[ -x dest/usr/bin/dl-fmt ] && [ -L dest/usr/bin/dl-fmt-pbn ]
	[ -f dest/usr/lib/dl/plugins/pbn.so ] && [ -f dest/usr/share/dl/examples/hcp.c ]
	# every dl-fmt-NAME and dl-read-NAME has its manual page, the tool's
	[ "$(readlink dest/usr/share/man/man1/dl-fmt-pbn.1)" = dl-fmt.1 ]
	[ "$(readlink dest/usr/share/man/man1/dl-read-pbn.1)" = dl-read.1 ]
	[ "$(find dest/usr/share/man/man1 -name 'dl-fmt-*.1' | wc -l)" -eq \
	    "$(find dest/usr/bin -name 'dl-fmt-*' | wc -l)" ]
	[ "$(find dest/usr/share/man/man1 -name 'dl-read-*.1' | wc -l)" -eq \
	    "$(find dest/usr/bin -name 'dl-read-*' | wc -l)" ]
	# make serve's configurations and script, to try dl-web installed
	[ -f dest/usr/share/dl/web/lighttpd.conf ] && [ -f dest/usr/share/dl/web/nginx.conf ]
	[ -x dest/usr/share/dl/web/serve.sh ]
	mk uninstall DESTDIR="$PWD/dest" PREFIX=/usr > /dev/null
	run find dest
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]}" | LC_ALL=C sort)" = "$(printf '%s\n' \
	    dest dest/usr dest/usr/bin dest/usr/include dest/usr/lib dest/usr/lib/pkgconfig \
	    dest/usr/share dest/usr/share/man dest/usr/share/man/man1 dest/usr/share/man/man3 \
	    dest/usr/share/man/man5 dest/usr/share/man/man7)" ]
}

@test "make uninstall leaves others' files, and the directories holding them" {
	run -0 mk install DESTDIR="$PWD/dest" PREFIX=/opt/dl
	# a prefix pkg-config does not look in: the variable to set
	want="make install: pkg-config does not look in /opt/dl/lib/pkgconfig:"
	want+=" PKG_CONFIG_PATH=/opt/dl/lib/pkgconfig pkg-config --cflags dl-plugin"
	[ "${lines[-1]}" = "$want" ]
	touch dest/opt/dl/bin/other dest/opt/dl/lib/dl/plugins/mine.so \
	    dest/opt/dl/share/man/man1/other.1
	# another PREFIX: nothing of this one goes
	mk uninstall DESTDIR="$PWD/dest" PREFIX=/usr > /dev/null
	[ -x dest/opt/dl/bin/dl-fmt ]
	mk uninstall DESTDIR="$PWD/dest" PREFIX=/opt/dl > /dev/null
	run find dest -type f -o -type l
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]}" | LC_ALL=C sort)" = "$(printf '%s\n' \
	    dest/opt/dl/bin/other dest/opt/dl/lib/dl/plugins/mine.so \
	    dest/opt/dl/share/man/man1/other.1)" ]
	run find dest/opt/dl/include dest/opt/dl/share -type d
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]}" | LC_ALL=C sort)" = "$(printf '%s\n' \
	    dest/opt/dl/include dest/opt/dl/share dest/opt/dl/share/man \
	    dest/opt/dl/share/man/man1 dest/opt/dl/share/man/man3 \
	    dest/opt/dl/share/man/man5 dest/opt/dl/share/man/man7)" ]
}

@test "a change of the flags compiles and links again; -Werror alone does not" {
	run mk -q all WERROR=1
	[ "$status" -eq 0 ]
	run mk -n CFLAGS=-DDL_FLAGS_TEST
	[ "$status" -eq 0 ]
	[ "$(made <<< "$output" | grep -c '\.o$')" -eq "$(find "$B/obj" -name '*.o' | wc -l)" ]
	[ "$(made <<< "$output" | grep -c '^bin/dl-seed$')" -eq 1 ]
	[ "$(made <<< "$output" | grep -c '^plugins/pbn\.so$')" -eq 1 ]
	# the flags the objects were made with again: a dry run rewrote the
	# stamp, so it is dated before them, as a real build would leave it
	mk -n > /dev/null
	touch -d @0 "$B/obj/.flags"
	run mk -q all
	[ "$status" -eq 0 ]
}
