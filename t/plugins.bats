#!/usr/bin/env bats
# The plugin SDK as a third party uses it, and the loader's refusals.

load helper

# plugin NAME SOURCE: compile a plugin from C source on stdin into ./NAME.so
plugin() {
	cc -shared -fPIC -I"$BATS_TEST_DIRNAME/../lib" -x c - -o "$1.so"
}

@test "install into a DESTDIR, build the example plugin out of tree, use it" {
	make -s -C "$BATS_TEST_DIRNAME/.." BUILD="$DL_BUILD" DESTDIR="$PWD/root" \
	    PREFIX=/opt/dl install > /dev/null
	root=$PWD/root/opt/dl
	[ -x "$root/bin/dl-fmt" ]
	[ -L "$root/bin/dl-fmt-pbn" ]
	[ -f "$root/lib/dl/plugins/pbn.so" ]
	# the plugins' index beside them, newer than every one (else it would
	# not be read for them)
	cmp "$root/lib/dl/plugins/plugins.index" "$DL_BUILD/plugins/plugins.index"
	[ -z "$(find "$root/lib/dl/plugins" -name '*.so' -newer "$root/lib/dl/plugins/plugins.index")" ]
	[ -f "$root/include/dl/plugin.h" ]
	[ -f "$root/share/man/man1/dl-seed.1" ]
	[ -f "$root/share/man/man5/dl-protocol.5" ]
	cflags=$(PKG_CONFIG_PATH="$root/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$PWD/root" \
	    pkg-config --cflags dl-plugin)
	[ "${cflags% }" = "-I$PWD/root/opt/dl/include" ]
	mkdir mine
	cc -shared -fPIC $cflags "$root/share/dl/examples/hcp.c" -o mine/hcp.so
	PATH="$root/bin:$PATH" DL_PLUGIN_PATH="$PWD/mine" dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso" > out
	[ "$(cat out)" = "$(printf '# no event, boards 1-1\n1 N:13 E:17 S:7 W:3')" ]
	PATH="$root/bin:$PATH" DL_PLUGIN_PATH="$PWD/mine" dl-fmt --list | grep -q '^hcp  *\.hcp  *text'
}

@test "the installed tools find their plugins next to themselves" {
	make -s -C "$BATS_TEST_DIRNAME/.." BUILD="$DL_BUILD" DESTDIR="$PWD/root" \
	    PREFIX=/usr install > /dev/null
	run "$PWD/root/usr/bin/dl-fmt-pbn" < "$BIGDEAL/v4/deals.tso"
	[ "$status" -eq 0 ]
	[ "${lines[7]}" = '[Board "1"]' ]
}

@test "plugins are never taken from the current directory" {
	plugin hcp < "$BATS_TEST_DIRNAME/../share/examples/hcp.c"
	fails dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso"
	[ "$output" = 'dl-fmt: unknown format "hcp" (dl-fmt --list shows the formats)' ]
	DL_PLUGIN_PATH=".::mine" fails dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso"
	[ "$output" = 'dl-fmt: unknown format "hcp" (dl-fmt --list shows the formats)' ]
}

@test "dl-fmt-NAME works for a third-party plugin" {
	mkdir mine
	(cd mine && plugin hcp < "$BATS_TEST_DIRNAME/../share/examples/hcp.c")
	ln -s "$(command -v dl-fmt)" dl-fmt-hcp
	DL_PLUGIN_PATH=$PWD/mine ./dl-fmt-hcp < "$BIGDEAL/v4/deals.tso" > out
	[ "$(tail -1 out)" = "1 N:13 E:17 S:7 W:3" ]
}

@test "a plugin for another ABI version is refused, naming the file and both versions" {
	mkdir mine && cd mine
	sed 's/DL_PLUGIN_HEAD/6, sizeof(struct dl_plugin)/' \
	    "$BATS_TEST_DIRNAME/../share/examples/hcp.c" | plugin hcp
	DL_PLUGIN_PATH=$PWD fails dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso"
	[ "$output" = "dl-fmt: $PWD/hcp.so: plugin ABI version 6, this program takes versions 1 to 5" ]
	sed 's/DL_PLUGIN_HEAD/1, sizeof(struct dl_plugin)/' \
	    "$BATS_TEST_DIRNAME/../share/examples/hcp.c" | plugin hcp
	DL_PLUGIN_PATH=$PWD fails dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso"
	[ "$output" = "dl-fmt: $PWD/hcp.so: plugin structure of 104 bytes, ABI version 1 has 64 (built against another dl/plugin.h)" ]
}

@test "a version-1 plugin (writers only, the structure before the readers) still loads and writes" {
	mkdir mine && cd mine
	sed 's/DL_PLUGIN_HEAD/1, DL_PLUGIN_V1_SIZE/' \
	    "$BATS_TEST_DIRNAME/../share/examples/hcp.c" | plugin hcp
	DL_PLUGIN_PATH=$PWD dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso" > out
	[ "$(tail -1 out)" = "1 N:13 E:17 S:7 W:3" ]
	# and it has no reader
	DL_PLUGIN_PATH=$PWD fails dl-read -f hcp < "$BIGDEAL/v4/deals.tso"
	[ "$output" = "dl-read: format hcp has no reader (dl-read --list shows the formats it reads)" ]
}

# numbers_plugin HEADERDIR NEEDS: a plugin "num" built against that
# dl/plugin.h, writing each board's Big Deal number in hex
numbers_plugin() {
	cat > num.c <<-EOF
	#include "dl/plugin.h"
	static int
	num_board(struct dl_out *out, const struct dl_run *run, const struct dl_deal *deal, void *s)
	{
		(void)run; (void)s;
		out->print(out, "%u ", deal->board);
		for (int i = 0; i < DL_DEAL_NUMBER_BYTES; i++)
			out->print(out, "%02x", deal->number[i]);
		out->print(out, "\\n");
		return 0;
	}
	const struct dl_plugin dl_plugin = { DL_PLUGIN_HEAD, .name = "num", .suffix = "num",
	    .description = "numbers", .kind = DL_TEXT, .board = num_board $2 };
	EOF
	cc -shared -fPIC -I"$1" num.c -o num.so
}

@test "plugins built from the headers of ABI versions 1 and 2 load, write, and get Big Deal's number unasked" {
	mkdir mine && cd mine
	old=$BATS_TEST_DIRNAME/data/old-abi
	cc -shared -fPIC -I"$old/v1" "$BATS_TEST_DIRNAME/../share/examples/hcp.c" -o hcp.so
	DL_PLUGIN_PATH=$PWD dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso" > out
	[ "$(tail -1 out)" = "1 N:13 E:17 S:7 W:3" ]
	numbers_plugin "$old/v2" ""
	DL_PLUGIN_PATH=$PWD dl-fmt -f num < "$BIGDEAL/v4/deals.tso" > out
	dl-map --reverse < "$BIGDEAL/v4/deals.tso" | grep -v '^#' | diff - out
	# a plugin of version 3 or later gets it when it says it needs it, and only then
	numbers_plugin "$old/v3" ", .needs = DL_NEEDS_DEAL_NUMBER"
	DL_PLUGIN_PATH=$PWD dl-fmt -f num < "$BIGDEAL/v4/deals.tso" > out
	dl-map --reverse < "$BIGDEAL/v4/deals.tso" | grep -v '^#' | diff - out
	numbers_plugin "$BATS_TEST_DIRNAME/../lib" ", .needs = DL_NEEDS_DEAL_NUMBER"
	DL_PLUGIN_PATH=$PWD dl-fmt -f num < "$BIGDEAL/v4/deals.tso" > out
	dl-map --reverse < "$BIGDEAL/v4/deals.tso" | grep -v '^#' | diff - out
	numbers_plugin "$BATS_TEST_DIRNAME/../lib" ""
	DL_PLUGIN_PATH=$PWD dl-fmt -f num < "$BIGDEAL/v4/deals.tso" > out
	[ "$(head -1 out)" = "1 000000000000000000000000" ]
}

@test "a reader built from the header of ABI version 3 (before struct dl_in's first_board) still reads" {
	mkdir mine && cd mine
	cc -shared -fPIC -I"$BATS_TEST_DIRNAME/data/old-abi/v3" \
	    "$BATS_TEST_DIRNAME/../share/examples/handlist.c" -o handlist.so
	DL_PLUGIN_PATH=$PWD dl-fmt -f handlist -p x < "$BIGDEAL/v4/deals.tso"
	DL_PLUGIN_PATH=$PWD dl-read x.hands | grep -v '^#' | cut -d' ' -f2 | cmp - "$BIGDEAL/v4/deals.tso"
	DL_PLUGIN_PATH=$PWD run -0 --separate-stderr dl-read --first 1 x.hands
	[ -z "$stderr" ]
}

# run_plugin HEADERDIR: a plugin "run" built against that dl/plugin.h,
# writing what struct dl_run says of the set, as far as that header knows it
run_plugin() {
	cat > run.c <<-EOF
	#include "dl/plugin.h"
	static int
	run_begin(struct dl_out *out, const struct dl_run *run, void **s)
	{
		(void)s;
		out->print(out, "%u-%u %s %s %s %d\\n", run->low, run->high, run->event, run->site,
		    run->date, run->own_dv);
	#if DL_PLUGIN_ABI_VERSION >= 5
		out->print(out, "%s\\n", run->record_url ? run->record_url : "(none)");
	#endif
		return 0;
	}
	const struct dl_plugin dl_plugin = { DL_PLUGIN_HEAD, .name = "run", .suffix = "run",
	    .description = "the run", .kind = DL_TEXT, .begin = run_begin };
	EOF
	cc -shared -fPIC -I"$1" run.c -o run.so
}

@test "a writer built from the header of ABI version 4 (before struct dl_run's record_url) still writes; one of version 5 reads #U:" {
	mkdir mine && cd mine
	printf '#P: dl/1 deals\n#I: Pairs\n#S: Hall\n#D: 2026.11.24\n#U: https://club.example/r/1\n' > in
	grep -v "^#" "$BIGDEAL/v4/deals.tso" | head -1 | sed "s/^/1 /" >> in
	run_plugin "$BATS_TEST_DIRNAME/data/old-abi/v4"
	run -0 env DL_PLUGIN_PATH=$PWD dl-fmt -f run < in
	[ "$output" = "1-1 Pairs Hall 2026.11.24 0" ]
	run_plugin "$BATS_TEST_DIRNAME/../lib"
	run -0 env DL_PLUGIN_PATH=$PWD dl-fmt -f run < in
	[ "$output" = $'1-1 Pairs Hall 2026.11.24 0\nhttps://club.example/r/1' ]
	grep -v '^#U:' in > without
	run -0 env DL_PLUGIN_PATH=$PWD dl-fmt -f run < without
	[ "$output" = $'1-1 Pairs Hall 2026.11.24 0\n(none)' ]
}

@test "a plugin built against another plugin.h is refused" {
	mkdir mine && cd mine
	sed 's/DL_PLUGIN_HEAD/DL_PLUGIN_ABI_VERSION, sizeof(struct dl_plugin) - 8/' \
	    "$BATS_TEST_DIRNAME/../share/examples/hcp.c" | plugin hcp
	DL_PLUGIN_PATH=$PWD fails dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso"
	[ "$output" = "dl-fmt: $PWD/hcp.so: plugin structure of 96 bytes, ABI version 5 has 104 (built against another dl/plugin.h)" ]
}

@test "a shared object without the dl_plugin symbol is refused" {
	mkdir mine && cd mine
	echo 'int not_a_plugin = 1;' | plugin hcp
	DL_PLUGIN_PATH=$PWD fails dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso"
	[ "$output" = "dl-fmt: $PWD/hcp.so: no \"dl_plugin\" symbol: not a dl plugin" ]
}

@test "a file that is not a shared object is refused" {
	mkdir mine && cd mine
	echo 'not an ELF file' > hcp.so
	DL_PLUGIN_PATH=$PWD fails dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso"
	[ "$output" = "dl-fmt: $PWD/hcp.so: not a whole shared object for this machine (truncated, or built for another): not loading it" ]
}

@test "a plugin whose name differs from its file is refused" {
	mkdir mine && cd mine
	plugin other < "$BATS_TEST_DIRNAME/../share/examples/hcp.c"
	DL_PLUGIN_PATH=$PWD fails dl-fmt -f other < "$BIGDEAL/v4/deals.tso"
	[ "$output" = "dl-fmt: $PWD/other.so: plugin calls itself \"hcp\", not \"other\"" ]
}

@test "a plugin's failure publishes no file" {
	mkdir mine out
	sed 's/out->print(out, "\\n");/out->fail(out, "board %u is unlucky", deal->board); return -1;/' \
	    "$BATS_TEST_DIRNAME/../share/examples/hcp.c" | (cd mine && plugin hcp)
	DL_PLUGIN_PATH=$PWD/mine fails dl-fmt -f pbn,hcp -p out/s < "$BIGDEAL/v4/deals.tso"
	[ "$output" = "dl-fmt: hcp: board 1 is unlucky" ]
	[ "$(ls -A out)" = "" ]
}

@test "dl-fmt --list skips a broken plugin with a warning" {
	mkdir mine
	echo 'not an ELF file' > mine/zzz.so
	DL_PLUGIN_PATH=$PWD/mine run --separate-stderr dl-fmt --list
	[ "$status" -eq 0 ]
	[ "$stderr" = "dl-fmt: $PWD/mine/zzz.so: not a whole shared object for this machine (truncated, or built for another): not loading it" ]
	[[ "$output" == *"pbn "* ]]
}

@test "dl-fmt --list: name, suffix, kind, highest board, description" {
	run dl-fmt --list
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "FORMAT     SUFFIX KIND   MAX   DESCRIPTION" ]
	printf '%s\n' "${lines[@]}" | grep -qx "cds        .cds   binary 255   CDS"
	printf '%s\n' "${lines[@]}" | grep -qx "dup        .dup   binary 99    Duplimate"
	printf '%s\n' "${lines[@]}" | grep -qx "html       .html  text   -     hand record for people, printable (HTML)"
	printf '%s\n' "${lines[@]}" | grep -qx "pdf        .pdf   binary -     hand record for people, printable (PDF)"
	printf '%s\n' "${lines[@]}" | grep -qx "pbn        .pbn   text   -     Portable Bridge Notation"
	# every plugin of the tree (plugins/NAME.c), in name order
	[ "$(printf '%s\n' "${lines[@]:1}" | cut -d' ' -f1)" = \
	    "$(cd "$BATS_TEST_DIRNAME/../plugins" && ls *.c | sed 's/\.c$//' | LC_ALL=C sort)" ]
}

@test "cds refuses board numbers above 255 rather than truncate them" {
	seed_of v1 | dl-stream -n 250-256 | dl-map > deals
	fails dl-fmt-cds < deals
	[ "$output" = "dl-fmt-cds: format cds holds boards up to 255, not board 256: no files written" ]
	seed_of v1 | dl-stream -n 250-255 | dl-map | dl-fmt-cds | od -An -tu1 -N1 | grep -qx ' *250'
}

@test "DL_PLUGIN_PATH: a plugin in its seventieth directory is found (the path is not cut short)" {
	path=
	for i in $(seq 69); do mkdir "d$i"; path=$path:$PWD/d$i; done
	mkdir d70 && (cd d70 && plugin hcp < "$BATS_TEST_DIRNAME/../share/examples/hcp.c")
	DL_PLUGIN_PATH=${path#:}:$PWD/d70 dl-fmt -f hcp < "$BIGDEAL/v4/deals.tso" > out
	[ "$(cat out)" = "$(printf '# no event, boards 1-1\n1 N:13 E:17 S:7 W:3')" ]
}

# holder: a writer whose begin allocates, whose end frees and says so in
# ./ended (with how many boards it saw) and writes a trailer line
holder() {
	cat <<'C' | plugin holder
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <dl/plugin.h>
static int b(struct dl_out *o, const struct dl_run *r, void **s) { (void)o; (void)r; *s = calloc(1, sizeof(unsigned)); return *s ? 0 : -1; }
static int w(struct dl_out *o, const struct dl_run *r, const struct dl_deal *d, void *s) { (void)r; ++*(unsigned *)s; o->print(o, "%u\n", d->board); return 0; }
static int e(struct dl_out *o, const struct dl_run *r, void *s) { (void)r; FILE *f = fopen("ended", "w"); fprintf(f, "%u\n", *(unsigned *)s); fclose(f); free(s); o->print(o, "trailer\n"); return 0; }
const struct dl_plugin dl_plugin = { DL_PLUGIN_HEAD, .name = "holder", .suffix = "hold", .description = "frees in end", .kind = DL_TEXT, .begin = b, .board = w, .end = e };
C
}

@test "a writer gets its end() after a failed run too, to free what begin made; what it writes then is thrown away" {
	mkdir mine && (cd mine && holder)
	seed_of v1 | dl-stream -n 6 | dl-map > deals
	# the fifth record garbled: four boards written, then the run fails
	awk '/^5 / { $0 = "5 garbled" } { print }' deals > bad
	DL_PLUGIN_PATH=$PWD/mine run -1 --separate-stderr dl-fmt -f holder < bad
	[ "$output" = "$(printf '1\n2\n3\n4')" ]	# no trailer: the run did not end
	[ "$(cat ended)" = 4 ]
	rm ended
	# into files, with another writer: nothing published, end() all the same
	mkdir out
	DL_PLUGIN_PATH=$PWD/mine run -1 --separate-stderr dl-fmt -f pbn,holder -p out/s < bad
	[ "$(ls -A out)" = "" ]
	[ "$(cat ended)" = 4 ]
	rm ended
	# a whole run: end() once, its trailer written
	DL_PLUGIN_PATH=$PWD/mine dl-fmt -f holder < deals > whole
	[ "$(tail -1 whole)" = trailer ]
	[ "$(cat ended)" = 6 ]
}
