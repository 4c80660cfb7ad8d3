#!/usr/bin/env bats
# The exit statuses each man page documents are the ones the tool returns:
# for every status a man page lists, a command that must end with it.

load helper

MAN=$BATS_TEST_DIRNAME/../man

# documented TOOL: the statuses in TOOL's EXIT STATUS section (".TP" ".B N")
documented() {
	sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$MAN/$1.1" |
	    awk '/^\.TP/ { tp = 1; next } tp && /^\.B [0-9]+$/ { print $2 } { tp = 0 }' |
	    tr '\n' ' '
}

# ends_with STATUS CMD...: CMD ends with STATUS and, when it fails, says
# why on standard error: every line there "TOOL: ..." (warnings may come
# before the error) or the usage
ends_with() {
	local want=$1 line
	shift
	run --separate-stderr "$@"
	[ "$status" -eq "$want" ] ||
	    { echo "$*: status $status, not $want; stderr: $stderr" >&2; return 1; }
	if [ "$want" -ne 0 ]; then
		[ "${#stderr_lines[@]}" -ge 1 ] || { echo "$*: no message" >&2; return 1; }
		for line in "${stderr_lines[@]}"; do
			[[ $line == "$1: "* || $line == "usage: "* || $line == " "* ]] ||
			    { echo "$*: stray line: $line" >&2; return 1; }
		done
	fi
}

tso_seed() {
	seed_of v1
}

# check TOOL STATUS: runs the command that must end with STATUS for TOOL
check() {
	local tool=$1 want=$2
	case $tool:$want in
	dl-seed:0) ends_with 0 dl-seed -x "$(param v1 random)" -w x ;;
	dl-seed:1) ends_with 1 dl-seed -o -e short ;;
	dl-seed:2) ends_with 2 dl-seed --nosuch ;;
	dl-stream:0) ends_with 0 dl-stream -n 2 < <(tso_seed) ;;
	dl-stream:1) ends_with 1 dl-stream < <(echo garbage) ;;
	dl-stream:2) ends_with 2 dl-stream -n 0 < <(tso_seed) ;;
	dl-map:0) ends_with 0 dl-map < "$BIGDEAL/v1/uids.txt" ;;
	dl-map:1) ends_with 1 dl-map < <(echo "1 zz") ;;
	dl-map:2) ends_with 2 dl-map -m nosuch < /dev/null ;;
	dl-diff:0) deals_of v1 > a.tso; ends_with 0 dl-diff a.tso a.tso ;;
	dl-diff:1) deals_of v1 > a.tso; dl-board -b 1 < a.tso > b.tso; ends_with 1 dl-diff a.tso b.tso ;;
	dl-diff:2) ends_with 2 dl-diff nosuch.tso nosuch.tso ;;
	dl-fmt:0) ends_with 0 dl-fmt-pbn < "$BIGDEAL/v1/deals.tso" ;;
	dl-fmt:1) ends_with 1 dl-fmt-pbn < <(echo 1 123) ;;
	dl-fmt:2) ends_with 2 dl-fmt -f nosuch < "$BIGDEAL/v1/deals.tso" ;;
	dl-cat:0) deals_of v1 > a.tso; ends_with 0 dl-cat a.tso ;;
	dl-cat:1) ends_with 1 dl-cat <(echo 1 123) ;;
	dl-cat:2) ends_with 2 dl-cat nosuch.tso ;;
	dl-board:0) ends_with 0 dl-board -b 2-3 < <(deals_of v1) ;;
	dl-board:1) ends_with 1 dl-board < <(echo 1 123) ;;
	dl-board:2) ends_with 2 dl-board -b 1,3 < <(deals_of v1) ;;
	dl-dd:0) ends_with 0 dl-dd -q < <(deals_of v1) ;;
	dl-dd:1) ends_with 1 dl-dd -q < <(echo 1 123) ;;
	dl-dd:2) ends_with 2 dl-dd -j many < <(deals_of v1) ;;
	dl-deal:0) ends_with 0 dl-deal -n 2 ;;
	dl-deal:1) touch s.pbn; ends_with 1 dl-deal -n 2 -p s ;;
	dl-deal:2) ends_with 2 dl-deal -n 0 ;;
	dl-sqd:0)
		dl-sqd t.sqd create --name T --di D > /dev/null
		ends_with 0 dl-sqd t.sqd show ;;
	dl-sqd:1) printf 'XX y\n' > bad.sqd; ends_with 1 dl-sqd bad.sqd show ;;
	dl-sqd:2) ends_with 2 dl-sqd t.sqd nosuch ;;
	dl-stat:0) "$HELPERS/runs" dl256 50 40 > sample; ends_with 0 dl-stat -q < sample ;;
	dl-stat:1) "$HELPERS/flawed" rotate 4000 > sample; ends_with 1 dl-stat -q < sample ;;
	dl-stat:2) ends_with 2 dl-stat < <(echo "1 123") ;;
	dl-bigdeal:0) ends_with 0 dl-bigdeal -n 2 -p b -f pbn < /dev/null ;;
	dl-bigdeal:1) ends_with 1 dl-bigdeal -p b -f pbn < <(echo 0) ;;
	dl-bigdeal:2) ends_with 2 dl-bigdeal -n 101 -p b -f pbn < /dev/null ;;
	dl-bigdealx:0) ends_with 0 dl-bigdealx -h "$(param v1 random)" -n 2 -p b -f pbn < /dev/null ;;
	dl-bigdealx:1) ends_with 1 dl-bigdealx -o -e short -n 2 -p b -f pbn < /dev/null ;;
	dl-bigdealx:2) ends_with 2 dl-bigdealx -n x -p b -f pbn < /dev/null ;;
	dl-archive:0) deals_of v1 > a.tso; ends_with 0 dl-archive --db a.sqlite add a.tso ;;
	dl-archive:1)
		deals_of v1 > a.tso
		dl-archive --db a.sqlite add --played a.tso 2> /dev/null
		ends_with 1 dl-archive --db a.sqlite check a.tso ;;
	dl-archive:2) ends_with 2 dl-archive --db nosuch.sqlite check a.tso ;;
	dl-web:0) REQUEST_METHOD=GET ends_with 0 dl-web ;;
	dl-web:1) REQUEST_METHOD=PUT ends_with 1 dl-web ;;
	dl-web:2) ends_with 2 dl-web ;;
	dl-read:0) ends_with 0 dl-read "$BIGDEAL/v1/ber.ber" ;;
	dl-read:1) printf 'hello\n' > what; ends_with 1 dl-read what ;;
	dl-read:2) ends_with 2 dl-read nosuch.ber ;;
	*) echo "no command for $tool status $want: add one" >&2; return 1 ;;
	esac
}

# bats test_tags=slow
@test "every man page documents 0, 1 and 2, and each tool returns them as documented" {
	local pages=0
	for page in "$MAN"/dl-*.1; do
		tool=$(basename "$page" .1)
		statuses=$(documented "$tool")
		[ "$statuses" = "0 1 2 " ] || { echo "$tool documents: $statuses" >&2; return 1; }
		for want in $statuses; do
			mkdir -p "$tool.$want" && cd "$tool.$want"
			check "$tool" "$want"
			cd ..
		done
		pages=$((pages + 1))
	done
	[ "$pages" -ge 9 ]
}
