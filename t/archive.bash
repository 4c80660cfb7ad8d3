# What the archive's suites share (t/archive.bats, t/archive-postgres.bats).

# variant HOW < stream: the stream's deals changed, as a deals stream of
# the same boards; HOW: turn (each hand one seat on), swap (North and East
# change hands), one-card (a card of North's goes to South and one of
# South's to North), two-cards (two each way), one-hand (East, South and
# West pass three cards round: North's hand alone stays), near-pairs (a
# card between North and East, another between South and West),
# near-chain (a card between North and East, then between East and South)
variant() {
	awk -v how="$1" '
	function put(s, i, c) { return substr(s, 1, i - 1) c substr(s, i + 1) }
	# the first card of hand a and the first of hand b change hands
	function swap(s, a, b,   i, j) {
		i = index(s, a); j = index(s, b)
		return put(put(s, i, b), j, a)
	}
	# the cards at i and j change hands
	function swap_at(s, i, j,   a) {
		a = substr(s, i, 1)
		return put(put(s, i, substr(s, j, 1)), j, a)
	}
	# the first and last cards of North and of South change hands
	function two(s,   i, n0, n1, s0, s1) {
		for (i = 1; i <= 52; i++) {
			c = substr(s, i, 1)
			if (c == "0") { if (!n0) n0 = i; n1 = i }
			if (c == "2") { if (!s0) s0 = i; s1 = i }
		}
		s = put(s, n0, "2"); s = put(s, n1, "2")
		return put(put(s, s0, "0"), s1, "0")
	}
	/^#/ { print; next }
	{
		d = $2
		if (how == "turn") { gsub(/0/, "x", d); gsub(/3/, "0", d); gsub(/2/, "3", d); gsub(/1/, "2", d); gsub(/x/, "1", d) }
		else if (how == "swap") { gsub(/0/, "x", d); gsub(/1/, "0", d); gsub(/x/, "1", d) }
		else if (how == "one-card") d = swap(d, "0", "2")
		else if (how == "two-cards") d = two(d)
		else if (how == "one-hand") {
			# E gives S three cards, S gives W three, W gives E three:
			# nine cards at other seats, no near deal
			n1 = n2 = n3 = 0; e = ""
			for (i = 1; i <= 52; i++) {
				c = substr(d, i, 1)
				if (c == "1" && n1++ < 3) c = "2"
				else if (c == "2" && n2++ < 3) c = "3"
				else if (c == "3" && n3++ < 3) c = "1"
				e = e c
			}
			d = e
		}
		# a card between North and East, another between South and West:
		# no hand the same, four cards at other seats
		else if (how == "near-pairs") d = swap(swap(d, "0", "1"), "2", "3")
		# North and East exchange a card, then East and South: West the
		# same
		else if (how == "near-chain") {
			i = index(d, "0"); j = index(d, "1")
			d = put(put(d, i, "1"), j, "0")
			# the last card of East (not the one North gave) to South,
			# and the first of South to East
			for (k = 52; substr(d, k, 1) != "1" || k == i; k--)
				;
			d = swap_at(d, k, index(d, "2"))
		}
		print $1, d
	}'
}

# The sets the archive's tests deal with, in BATS_FILE_TMPDIR: club.tso
# (32 boards, an event and a date), teams.tso (24, an event), fresh.tso
# (32 never archived).
archive_test_sets() {
	cd "$BATS_FILE_TMPDIR" || return 1
	export DL_SEED_HISTORY=$BATS_FILE_TMPDIR/history
	dl-seed --not-for-play --no-history --hex 3333333333333333333333333333333333333333 \
	    --event 'Club Pairs' --date 2026.11.02 2> /dev/null | dl-stream -n 1-32 | dl-map > club.tso
	dl-seed --not-for-play --no-history --hex 4444444444444444444444444444444444444444 \
	    --event 'Club Teams' 2> /dev/null | dl-stream -n 1-24 | dl-map > teams.tso
	dl-seed --not-for-play --no-history --hex 5555555555555555555555555555555555555555 \
	    2> /dev/null | dl-stream -n 1-32 | dl-map > fresh.tso
}

# with_record RECORD < stream: the stream as dl-archive export writes its
# set, the archive's record of it, "#R: RECORD", after its headers
with_record() {
	awk -v record="$1" '!done && !/^#/ { print "#R: " record; done = 1 } { print }'
}

# fingerprint SET: the set's fingerprint, as dl-archive sets says it
fingerprint() {
	dl-archive sets | awk -v set="$1" '$1 == set { print $3 }'
}

# reversed_pbn < deals: the deals as a PBN file whose games run backwards,
# as a file written last board first holds them
reversed_pbn() {
	dl-fmt -f pbn | sed '/^%/d; /^\[Generator /d' |
	    awk 'BEGIN { RS = ""; ORS = "\n\n" } { game[NR] = $0 } END { for (i = NR; i >= 1; i--) print game[i] }'
}

# The archive's sets, every column but the numbers this archive gave
# (id, first_deal): what moving an archive must keep
set_rows() {
	sqlite3 "$1" 'SELECT hex(digest), fingerprint, boards, low, high, event, site, date, generator,
	    headers, source, archived, played, user, dv, event_key FROM sets ORDER BY id'
}
