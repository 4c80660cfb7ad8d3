/* What the writers of analysed boards share (pbn, html, pdf): the names of
 * par contracts' declarers, in PBN's letters and in a hand record's words,
 * the par score as each names it, high-card points.  Header-only, as
 * plugins call nothing in the host. */
#ifndef DL_PLUGINS_ANALYSED_H
#define DL_PLUGINS_ANALYSED_H

#include "dl/plugin.h"

/* A contract's declarers (a bit 1 << seat each) as people write them:
 * "N", "EW"; NULL for a set no par contract has. */
static inline const char *
declarers_name(unsigned declarers)
{
	static const char *const names[16] = {
		[1] = "N", [2] = "E", [4] = "S", [8] = "W", [5] = "NS", [10] = "EW",
	};

	return names[declarers & 15];
}

/* A contract's declarers as a hand record names them for players: a seat
 * by its name ("North"), a side as the record's vulnerability names it
 * ("N-S", as in "N-S vulnerable"); NULL for a set no par contract has. */
static inline const char *
declarers_words(unsigned declarers)
{
	static const char *const words[16] = {
		[1] = "North", [2] = "East", [4] = "South", [8] = "West", [5] = "N-S", [10] = "E-W",
	};

	return words[declarers & 15];
}

/* The side that declares par, "NS" or "EW" (NS when passed out), and the
 * par score from that side: negative for a sacrifice ("EW -100"). */
static inline const char *
par_side(const struct dl_analysis *a, int *score)
{
	int ew = a->ncontracts > 0 && (a->contracts[0].declarers & 5) == 0;

	*score = ew ? -a->par_score : a->par_score;
	return ew ? "EW" : "NS";
}

/* Every seat's high-card points, Milton Work's count (ace 4, king 3,
 * queen 2, jack 1), from the owners of the sixteen honours. */
static inline void
high_card_points(const struct dl_deal *deal, unsigned points[4])
{
	points[0] = points[1] = points[2] = points[3] = 0;
	for (unsigned suit = 0; suit < 4; suit++)
		for (unsigned rank = 0; rank < 4; rank++)
			points[deal->owner[13 * suit + rank] & 3] += 4 - rank;
}

#endif
