#!/usr/bin/env bats
# The layers of docs/hacking.md ("Layers") against the includes of the
# tree: each lib/ group includes only the groups its row of the table
# names, every lib/ header by its group and name, the tools lib/ and cmd/,
# the plugins their ABI and their own headers.  The table is read from
# the document, so that the two cannot drift apart.

load helper

top() {
	cd "$BATS_TEST_DIRNAME/.." && pwd
}

# The table's rows: "GROUP INCLUDED..." a line ("none" for none).
layer_table() {
	sed -n 's/^| `lib\/\([a-z]*\)\/` | .* | \([a-z, ]*\) |$/\1 \2/p' "$1/docs/hacking.md" | tr -d ,
}

# Every quoted #include of FILE: its path, a line each.
quoted_includes() {
	sed -n 's/^#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$1"
}

@test "every lib/ group has its row in docs/hacking.md's table of layers, and every row its group" {
	t=$(top)
	layer_table "$t" | cut -d' ' -f1 | sort > rows
	[ "$(wc -l < rows)" -ge 9 ]
	for d in "$t"/lib/*/; do
		g=$(basename "$d")
		[ "$g" = dl ] || echo "$g"
	done | sort > groups
	diff rows groups
}

@test "each lib/ group includes only the groups its row names, each header by its group and name" {
	t=$(top)
	layer_table "$t" > table
	bad=0
	while read -r group allowed; do
		for f in "$t"/lib/"$group"/*.[ch]; do
			for inc in $(quoted_includes "$f"); do
				case $inc in
				*/*) g=${inc%%/*} ;;
				*)
					echo "${f#"$t"/}: \"$inc\" is not included by its group" >&2
					bad=1
					continue
					;;
				esac
				[ "$g" = "$group" ] && continue
				[ -e "$t/lib/$inc" ] ||
				    { echo "${f#"$t"/}: \"$inc\" is no header of lib/" >&2; bad=1; }
				case " $allowed " in
				*" $g "*) ;;
				*)
					echo "${f#"$t"/}: includes \"$inc\", but $group may include: $allowed" >&2
					bad=1
					;;
				esac
			done
		done
	done < table
	[ "$bad" -eq 0 ]
}

@test "the table's layers have no cycle: each group includes only groups above it in the table" {
	t=$(top)
	layer_table "$t" > table
	seen=" dl "
	while read -r group allowed; do
		for g in $allowed; do
			[ "$g" = none ] && continue
			case $seen in
			*" $g "*) ;;
			*)
				echo "$group includes $g, which is not above it in the table" >&2
				return 1
				;;
			esac
		done
		seen="$seen$group "
	done < table
}

@test "the tools include lib/ headers by group and their own by name; the plugins only their ABI and their own" {
	t=$(top)
	bad=0
	# dl-web's parts (cmd/web/) include their own header by name, and
	# the tools' shared ones; dl-web.c includes theirs as web/page.h
	for f in "$t"/cmd/*.[ch] "$t"/cmd/web/*.[ch]; do
		for inc in $(quoted_includes "$f"); do
			case $inc in
			web/page.h) [ "${f#"$t"/}" = cmd/dl-web.c ] || { echo "${f#"$t"/}: \"$inc\": dl-web's own" >&2; bad=1; } ;;
			*/*) [ -e "$t/lib/$inc" ] || { echo "${f#"$t"/}: \"$inc\"" >&2; bad=1; } ;;
			*) [ -e "$(dirname "$f")/$inc" ] || [ -e "$t/cmd/$inc" ] || { echo "${f#"$t"/}: \"$inc\" is no cmd/ header" >&2; bad=1; } ;;
			esac
		done
	done
	for f in "$t"/plugins/*.[ch]; do
		for inc in $(quoted_includes "$f"); do
			case $inc in
			dl/plugin.h) ;;
			*/*) echo "${f#"$t"/}: \"$inc\": a plugin includes lib/ only through dl/plugin.h" >&2; bad=1 ;;
			*) [ -e "$t/plugins/$inc" ] || { echo "${f#"$t"/}: \"$inc\"" >&2; bad=1; } ;;
			esac
		done
	done
	[ "$bad" -eq 0 ]
}
