#!/usr/bin/env bats
# The lists in the man pages and docs that mirror a table of the code, each
# compared with the code's table both ways: nothing missing, nothing extra
# (docs/hacking.md's recipes say which list a new entry goes in). The
# exit statuses have t/status.bats; the usage lines, t/pipeline.bats.

load helper

ROOT=$BATS_TEST_DIRNAME/..
MAN=$ROOT/man
DOCS=$ROOT/docs

# words: the words of standard input, split at spaces and commas, sorted,
# one line joined by spaces
words() {
	tr ' ,\t' '\n\n\n' | sed '/^$/d' | LC_ALL=C sort | paste -sd' '
}

# same WHAT WANT GOT: WANT and GOT are equal, else say what differs
same() {
	[ "$2" = "$3" ] || { printf '%s:\n  code: %s\n  text: %s\n' "$1" "$2" "$3" >&2; return 1; }
}

# paragraph FILE ERE: the lines of the troff paragraph whose first line
# matches ERE, up to the next .TP, .PP, .IP, .SH, .SS or .RE
paragraph() {
	START=$2 awk 'on && /^\.(TP|PP|IP|SH|SS|RE)/ { exit }
	    on { print } !on && $0 ~ ENVIRON["START"] { on = 1; print }' "$1"
}

# bold: the names ([a-z0-9_]) set in bold on the .B and .BR lines of
# standard input, man page references (.BR name (N)) left out: not
# options (\-x), files (./.bigdealrc) or headers (#G:)
bold() {
	awk '/^\.BR? / && $3 !~ /^\([0-9]\)/ { gsub(/"/, "", $2); if ($2 ~ /^[a-z0-9_]+$/) print $2 }' |
	    words
}

# flat: standard input as one line of text, troff's requests and fonts gone
flat() {
	sed -e 's/^\.[A-Z]* //' -e 's/\\f[BIR]//g' -e 's/"//g' | tr '\n' ' ' | tr -s ' '
}

# generators [AWK-CONDITION]: the names of the generators of the table
# (t/helpers/generators.c: NAME KEY_DIGITS OWNER_DIGITS FRESH MAPPING
# COORDINATES SEQUENTIAL), those the condition selects
generators() {
	"$HELPERS/generators" | awk "${1:-1} { print \$1 }" | words
}

# mappings: the names of lib/deals/mapping.c's mappings[], as dl-map's
# message lists them
mappings() {
	dl-map -m nosuch 2>&1 | sed -n 's/.*(known: \(.*\))$/\1/p' | words
}

@test "the generators helper prints the table dl-seed's message lists" {
	run -0 "$HELPERS/generators"
	[ "${#lines[@]}" -ge 3 ]
	run -2 dl-seed -g nosuch
	same "dl-seed's message" "$(generators)" \
	    "$(echo "$output" | sed -n 's/.*(known: \(.*\))$/\1/p' | words)"
}

@test "dl-seed(1), dl-deal(1) and dl-stream(1) name the generators of the table" {
	# dl-seed -g: every generator
	same "dl-seed(1) -g" "$(generators)" \
	    "$(paragraph "$MAN/dl-seed.1" '^\.BR \\-g ", " \\-\\-generator' | bold)"
	# dl-seed --hex: for each key length, the first generator of that length
	want=$("$HELPERS/generators" | awk '!seen[$2]++ { print $2, $1 }' | paste -sd, | sed 's/,/, /g')
	got=$(flat < "$MAN/dl-seed.1" | grep -o 'the number of digits says the generator ([^)]*)' |
	    sed 's/.*(\(.*\))/\1/')
	same "dl-seed(1) --hex's digits" "$want" "$got"
	# dl-deal -g: the generators whose keys are made fresh
	same "dl-deal(1) -g" "$(generators '$4 != "none"')" \
	    "$(paragraph "$MAN/dl-deal.1" '^\.BR \\-g ", " \\-\\-generator' | bold)"
	# dl-stream's description: a paragraph a generator, "The NAME generator ..."
	same "dl-stream(1)'s description" "$(generators)" \
	    "$(awk 'p2 == "The" && p1 ~ /^\.B / && /^generator / { print p1 } { p2 = p1; p1 = $0 }' \
	        "$MAN/dl-stream.1" | sed 's/^\.B //' | words)"
	# -j and --shard: the generators that make any board alone
	got=$(flat < "$MAN/dl-stream.1" | grep -o 'Only generators that make any board alone ([^)]*)' |
	    sed 's/.*(\(.*\))/\1/')
	[ "$(echo "$got" | wc -l)" -eq 2 ]
	while read -r list; do
		same "dl-stream(1) -j, --shard" "$(generators '$7 == "any"')" "$(echo "$list" | words)"
	done <<< "$got"
	# --event and --session: the generators that take coordinates
	got=$(grep -E '^The (event number|session) of ' "$MAN/dl-stream.1" |
	    sed -E 's/^The (event number|session) of (.*), 0 to .*/\2/; s/ and /,/g')
	[ "$(echo "$got" | wc -l)" -eq 2 ]
	while read -r list; do
		same "dl-stream(1) --event, --session" "$(generators '$6 == "coordinates"')" "$(echo "$list" | words)"
	done <<< "$got"
}

@test "dl-protocol(5), dl-map(1), generator.md and protocol.md name the generators of the table" {
	# dl-protocol(5)'s seed record: each generator's record and its digits
	want=$("$HELPERS/generators" | awk '{ print $1, $2 }' | LC_ALL=C sort)
	got=$(paragraph "$MAN/dl-protocol.5" '^seed$' |
	    awk '/^\.I "/ { sub(/^\.I "/, ""); name = $1; next }
	        name != "" && /^\\\(em [0-9]+ hex digits/ { print name, $2; name = "" }' | LC_ALL=C sort)
	same "dl-protocol(5)'s seed record" "$want" "$got"
	# dl-map(1): the generators whose natural mapping is not Big Deal's
	# are named; "the others" have Big Deal's
	got=$(flat < "$MAN/dl-map.1" | grep -o "header names (Pavlicek's for [^)]*Big Deal's for the others" |
	    sed "s/.*Pavlicek's for \(.*\), Big Deal's.*/\1/")
	same "dl-map(1)'s natural mappings" "$(generators '$5 == "pavlicek"')" "$(echo "$got" | words)"
	[ "$(generators '$5 != "pavlicek" && $5 != "bigdeal"')" = "" ]
	# generator.md's table: name, seed record, coordinates, natural mapping
	want=$("$HELPERS/generators" | awk '{ print $1, $1, ($6 == "coordinates" ? "yes" : "none"), $5 }' |
	    LC_ALL=C sort)
	got=$(sed -n '/^## The table of generators/,/^## /p' "$DOCS/generator.md" |
	    awk -F' *\\| *' '/^\| `/ && $2 != "name" {
	        gsub(/`/, ""); split($3, record, " ")
	        print $2, record[1], ($4 ~ /^none/ ? "none" : "yes"), $5 }' | LC_ALL=C sort)
	same "generator.md's table" "$want" "$got"
	# protocol.md's seed records
	same "protocol.md's seed records" "$(generators)" \
	    "$(sed -n '/^### seed/,/^### /p' "$DOCS/protocol.md" | sed -n 's/^    \([a-z0-9]*\) .*/\1/p' | words)"
}

@test "dl-map(1), mappings.md and protocol.md name the mappings of the table" {
	[ "$(mappings)" != "" ]
	# the #M: sentence of the description, and -m
	same "dl-map(1)'s #M:" "$(mappings)" \
	    "$(sed -n '/^with the name of the mapping,$/,/\.$/p' "$MAN/dl-map.1" | bold)"
	same "dl-map(1) -m" "$(mappings)" \
	    "$(paragraph "$MAN/dl-map.1" '^\.BR \\-m ", " \\-\\-mapping' | sed '/^Without$/,$d' | bold)"
	# a paragraph a mapping: "The NAME mapping is ..."
	same "dl-map(1)'s description" "$(mappings)" \
	    "$(awk 'p2 == "The" && p1 ~ /^\.B / && /^mapping / { print p1 } { p2 = p1; p1 = $0 }' \
	        "$MAN/dl-map.1" | sed 's/^\.B //' | words)"
	same "mappings.md's sections" "$(mappings)" \
	    "$(sed -n 's/^## \([a-z0-9]*\)$/\1/p' "$DOCS/mappings.md" | words)"
	same "protocol.md's #M:" "$(mappings)" \
	    "$(grep '^| `#M: NAME`' "$DOCS/protocol.md" | grep -o '(`[^(]*, see' | grep -o '`[a-z0-9]*`' | tr -d '`' | words)"
}

@test "dl-fmt(1), formats.md and the README name the formats dl-fmt --list shows" {
	run -0 dl-fmt --list
	[ "${#lines[@]}" -ge 17 ]
	# NAME SUFFIX KIND MAX of every format
	want=$(dl-fmt --list | awk 'NR > 1 { print $1, $2, $3, $4 }' | LC_ALL=C sort)
	names=$(echo "$want" | cut -d' ' -f1 | words)
	got=$(sed -n '/^\.TS/,/^\.TE/p' "$MAN/dl-fmt.1" | awk -F'\t' 'NF >= 4 && $1 != "name" { print $1, $2, $3, $4 }' |
	    LC_ALL=C sort)
	same "dl-fmt(1)'s FORMATS" "$want" "$got"
	# formats.md's table of limits, "dlm, dlmblind" a row for two
	got=$(awk -F' *\\| *' '/^\| name \| suffix \| kind \| highest board/ { on = 1; next }
	    on && !/^\|/ { exit } on && $2 !~ /^-+$/ {
	        n = split($2, name, ", "); for (i = 1; i <= n; i++) print name[i], $3, $4, $5 }' \
	    "$DOCS/formats.md" | LC_ALL=C sort)
	same "formats.md's table" "$want" "$got"
	# formats.md's sections, "## dup, dupblind: ...", "## borel (.bhg)"
	same "formats.md's sections" "$names" \
	    "$(grep -E '^## [a-z0-9_]+((, | and )[a-z0-9_]+)*(:| \(|$)' "$DOCS/formats.md" |
	        sed -E 's/^## //; s/(:| \().*//; s/ and /,/g' | words)"
	# the README's list
	got=$(sed -n '/^`dl-fmt --list` shows them/,/^$/p' "$ROOT/README.md" |
	    tr '\n' ' ' | grep -o '`[a-z0-9_]*`' | tr -d '`' | words)
	same "the README's formats" "$names" "$got"
}

@test "formats-in.md has a section for each reader dl-read --list shows" {
	run -0 dl-read --list
	[ "${#lines[@]}" -ge 15 ]
	same "formats-in.md's sections" "$(dl-read --list | awk 'NR > 1 { print $1 }' | words)" \
	    "$(sed -n 's/^## \([A-Z0-9_]*\)$/\1/p' "$DOCS/formats-in.md" | grep -vx 'Dates' | tr 'A-Z' 'a-z' | words)"
}

@test "dl-read(1) names the readers of the formats that number no boards" {
	# t/read-formats.bats's NUMBERED says which readers' files number their
	# boards (its test of ranges fails otherwise), pbn and lin aside (their
	# own suites); a "blind" variant reads as its format does
	numbered=$(sed -n 's/^NUMBERED="\(.*\)"$/\1/p' "$BATS_TEST_DIRNAME/read-formats.bats")
	[ -n "$numbered" ]
	want=$(dl-read --list | awk -v numbered=" $numbered pbn lin " 'NR > 1 && $1 !~ /blind$/ &&
	    index(numbered, " " $1 " ") == 0 { print $1 }' | words)
	got=$(paragraph "$MAN/dl-read.1" '^\.BI \\-\\-first " board"' | flat |
	    grep -o 'the boards of a [^:]* file count from it' |
	    sed 's/^the boards of a \(.*\) file count from it/\1/; s/ or /,/' | tr 'A-Z' 'a-z' | words)
	same "dl-read(1) --first" "$want" "$got"
	# and the description's "Files of ... number no boards"
	got=$(flat < "$MAN/dl-read.1" | grep -o 'Files of [^(]* number no boards' |
	    sed 's/^Files of \(.*\) number no boards/\1/; s/ and /,/' | tr 'A-Z' 'a-z' | words)
	same "dl-read(1)'s description" "$want" "$got"
}

@test "dl.7, the README and man/ name the tools of cmd/" {
	tools=$(cd "$ROOT/cmd" && ls dl-*.c | sed 's/\.c$//' | words)
	[ -n "$tools" ]
	same "man/dl-*.1" "$tools" "$(cd "$MAN" && ls dl-*.1 | sed 's/\.1$//' | words)"
	# dl(7): a .TP entry for each, ".BR dl-NAME (1)" (two on one line)
	same "dl(7)'s tools" "$tools" \
	    "$(awk 'tp && /^\.BR dl-/ { print } { tp = /^\.TP/ }' "$MAN/dl.7" |
	        grep -o 'dl-[a-z0-9]*' | words)"
	# the README's table: its first column, dl-fmt-NAME and dl-read-NAME
	# being links, not tools
	same "the README's tools" "$tools" \
	    "$(sed -n '/^## The tools/,/^## /p' "$ROOT/README.md" | awk -F'|' '/^\| `/ { print $2 }' |
	        grep -o '`dl-[a-zA-Z0-9-]*' | tr -d '`' | grep -v -e '-NAME$' | words)"
}

@test "dl-archive(1) and archive.md name the kinds of match of lib/archive/archive.c, in order" {
	want=$(sed -n '/^static const struct archive_match_kind match_kinds\[/,/^};/p' "$ROOT/lib/archive/archive.c" |
	    sed -n 's/^.*= { "\([^"]*\)".*/\1/p' | paste -sd,)
	[ "$(echo "$want" | tr ',' '\n' | wc -l)" -ge 5 ]
	same "dl-archive(1)'s matches" "$want" \
	    "$(sed -n '/^The matches are:$/,/^\.RE$/p' "$MAN/dl-archive.1" |
	        awk 'tp && /^\.B / { sub(/^\.B /, ""); print } { tp = /^\.TP/ }' | paste -sd,)"
	same "archive.md's table" "$want" \
	    "$(sed -n '/^## What a match is/,/^## /p' "$DOCS/archive.md" |
	        awk -F' *\\| *' '/^\| / && $2 != "match" && $2 !~ /^-+$/ { print $2 }' | paste -sd,)"
}

@test "dl-web(1) lists the fields of dl-web's form" {
	# the dealing form's fields (the check form's are action and file)
	want=$(REQUEST_METHOD=GET dl-web | sed -n '/<form/,/<\/form>/p' | sed '/<\/form>/q' |
	    grep -o ' name="[a-z_]*"' | sed 's/ name="\(.*\)"/\1/' | sort -u | words)
	[ -n "$want" ]
	got=$(sed -n '/^deals a session from these fields:$/,/^\.PP$/p' "$MAN/dl-web.1" |
	    awk 'tp && /^\.BR? / { print } { tp = /^\.TP/ }' | sed -e 's/^\.BR\{0,1\} //' -e 's/"//g' | words)
	same "dl-web(1)'s fields" "$want" "$got"
}

@test "dl-web(1) lists the fields of dl-web's hand record of a file (action=record)" {
	want=$(REQUEST_METHOD=GET dl-web | sed -n '/name="action" value="record"/,/<\/form>/p' |
	    grep -o ' name="[a-z_]*"' | sed 's/ name="\(.*\)"/\1/' | grep -vx action | sort -u | words)
	[ "$want" = "dd file form paper per_page" ]
	got=$(sed -n '/^\.B action=record$/,/^\.PP$/p' "$MAN/dl-web.1" |
	    awk 'tp && /^\.BR? / { print } { tp = /^\.TP/ }' | sed -e 's/^\.BR\{0,1\} //' -e 's/"//g' | words)
	same "dl-web(1)'s fields of action=record" "$want" "$got"
}

# commands TOOL: the names of cmd/TOOL.c's commands[], in order
commands() {
	sed -n '/} commands\[\] = {/,/^	*};$/p' "$ROOT/cmd/$1.c" | sed -n 's/^	*{ "\([a-z-]*\)",.*/\1/p' | paste -sd' '
}

@test "dl-archive(1), dl-sqd(1) and the README name the commands of dl-archive's and dl-sqd's tables" {
	want=$(commands dl-archive)
	[ "$(echo "$want" | wc -w)" -ge 8 ]
	same "dl-archive(1)'s synopsis" "$want" \
	    "$(sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$MAN/dl-archive.1" |
	        sed -n 's/^dl-archive \(\[[^]]*\] \)*\([a-z-]*\).*/\2/p' | paste -sd' ')"
	same "the README's dl-archive" "$want" \
	    "$(grep -o '^| `dl-archive [a-z|\\-]*`' "$ROOT/README.md" | sed 's/^| `dl-archive //; s/`$//; s/\\|/ /g')"
	want=$(commands dl-sqd)
	[ "$(echo "$want" | wc -w)" -ge 11 ]
	same "dl-sqd(1)'s synopsis" "$want" \
	    "$(sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$MAN/dl-sqd.1" |
	        sed -n 's/^dl-sqd .*file\.sqd \([a-z-]*\).*/\1/p' | paste -sd' ')"
	# COMMANDS: an entry a command (".BR set-name ", " set-di" for two),
	# the verdicts of verify nested in it left out
	same "dl-sqd(1)'s COMMANDS" "$want" \
	    "$(awk '/^\.SH COMMANDS/ { on = 1; next } /^\.SH/ { on = 0 } on && /^\.RS/ { depth++ }
	        on && /^\.RE/ { depth-- } on && tp && !depth { print } { tp = /^\.TP/ }' "$MAN/dl-sqd.1" |
	        sed -E 's/^\.BR? //; s/ \\f.*//; s/ ", " / /; s/"//g' | cut -d' ' -f1,2 |
	        sed -E 's/ [^a-z].*//; s/ \\.*//' | paste -sd' ')"
}

@test "dl-stream(1), dl(7), building.md and hacking.md name the levels DL_SIMD takes" {
	want=$(sed -n 's/.*level_names\[\] = { \(.*\) };$/\1/p' "$ROOT/lib/base/simd.c" | tr -d '"' | words)
	[ "$(echo "$want" | wc -w)" -ge 3 ]
	for page in dl-stream.1 dl.7; do
		# (dl-stream(1) ends with "Any other value means plain")
		same "$page's DL_SIMD" "$want" \
		    "$(paragraph "$MAN/$page" '^\.B DL_SIMD$' | sed '/^Any other value/,$d' | bold)"
	done
	for doc in building.md hacking.md; do
		same "$doc's DL_SIMD" "$want" \
		    "$(tr '\n' ' ' < "$DOCS/$doc" | grep -o '`DL_SIMD=[a-z0-9]*`\(, *`[a-z0-9]*`\)* *or *`[a-z0-9]*`' |
		        sed 's/DL_SIMD=//; s/ or /,/' | tr -d '`' | words)"
	done
}

@test "dl-plugin(3) and plugins.md say every flag of lib/dl/plugin.h, and no name it lacks" {
	# the flags: needs' and a reader's (#define DL_NAME Nu)
	flags=$(sed -n 's/^#define \(DL_[A-Z_]*\) [0-9]*u$/\1/p' "$ROOT/lib/dl/plugin.h" | words)
	[ "$(echo "$flags" | wc -w)" -ge 10 ]
	header=$(grep -o 'DL_[A-Z0-9_]*' "$ROOT/lib/dl/plugin.h" | sort -u)
	env=$(cat "$ROOT"/cmd/*.c "$ROOT"/cmd/web/*.c "$ROOT"/lib/*/*.c | grep -o 'getenv("DL_[A-Z0-9_]*")' | cut -d'"' -f2 | sort -u)
	for doc in "$MAN/dl-plugin.3" "$DOCS/plugins.md"; do
		# a shell variable of an example ($DL_TREE) is no name of dl's
		names=$(sed 's/\$DL_[A-Z0-9_]*//g' "$doc" | grep -o 'DL_[A-Z0-9_]*' | LC_ALL=C sort -u)
		same "${doc##*/}'s flags" "$flags" \
		    "$(echo "$flags" | tr ' ' '\n' | grep -Fx -f <(echo "$names") | words)"
		same "${doc##*/}'s names the header lacks" "" \
		    "$(echo "$names" | grep -Fxv -f <(printf '%s\n' "$header" "$env") | words)"
	done
}

@test "the man pages' ENVIRONMENT sections say every DL_ variable the code reads, and none it does not" {
	want=$(cat "$ROOT"/cmd/*.c "$ROOT"/cmd/web/*.c "$ROOT"/lib/*/*.c "$ROOT"/plugins/*.[ch] |
	    grep -o 'getenv("DL_[A-Z0-9_]*")' | cut -d'"' -f2 | LC_ALL=C sort -u | words)
	[ "$(echo "$want" | wc -w)" -ge 8 ]
	same "the man pages' DL_ variables" "$want" \
	    "$(for page in "$MAN"/*.[1-8]; do sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$page"; done |
	        awk 'tp && /^\.BR? DL_/ { print $2 } { tp = /^\.TP/ }' | LC_ALL=C sort -u | words)"
}

@test "fuzzing.md's table has a row for each harness of t/fuzz" {
	want=$(cd "$ROOT/t/fuzz" && ls fuzz_*.c | sed 's/\.c$//' | words)
	[ -n "$want" ]
	same "fuzzing.md's harnesses" "$want" \
	    "$(awk -F' *\\| *' '/^\| harness \| entry points/ { on = 1; next } on && !/^\|/ { exit }
	        on && $2 !~ /^-+$/ { print $2 }' "$DOCS/fuzzing.md" | tr -d '`' | words)"
}

@test "web.md shows the packaged nginx site, its snippet and the lighttpd module whole, as share/web has them" {
	for f in nginx-site nginx-snippet.conf lighttpd-dl-web.conf; do
		want=$(sed 's/^\(.\)/    \1/' "$ROOT/share/web/$f")
		[[ $(cat "$DOCS/web.md") == *"$want"* ]] || { echo "web.md: not share/web/$f as it is"; return 1; }
	done
}
