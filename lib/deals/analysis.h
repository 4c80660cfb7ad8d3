/* A board's double-dummy analysis as an analysed deals stream carries it
 * (docs/protocol.md, docs/analysis.md): "TRICKS SCORE PAR" after the deal,
 * e.g. "98a98a98a98a8989a8989 420 4S-NS".  Reading it back is checking it:
 * a stream is input like any other.
 *
 * Threads: every function may be called from several threads at once: none
 * keeps state between calls.  Nothing here calls DDS: dl-dd calls it from
 * its main thread, and DDS's own threads run DDS alone. */
#ifndef DL_ANALYSIS_H
#define DL_ANALYSIS_H

#include <stddef.h>

#include "dl/plugin.h"
#include "base/error.h"

#define ANALYSIS_TRICKS_HEX 20
/* the longest text: 20 digits, a score, ten contracts of "7Nx-NS-13," */
#define ANALYSIS_TEXT_MAX (ANALYSIS_TRICKS_HEX + 1 + 6 + 1 + DL_PAR_CONTRACTS_MAX * 10 + 1)

/* The score of a contract made or set, from declarer's side (negative when
 * set): duplicate scoring, doubled when doubled. */
int contract_score(const struct dl_contract *c, int vulnerable);

/* The text form of a; text holds ANALYSIS_TEXT_MAX bytes. */
void analysis_format(const struct dl_analysis *a, char *text);

/* The analysis of the text form, checked: 20 trick counts of 0 to 13,
 * and par contracts whose score, with the board's vulnerability (enum
 * dl_vulnerability), is the par score.  NULL, or why not. */
const char *analysis_parse(const char *text, unsigned vulnerability, struct dl_analysis *a);

/* "NT", "S", "H", "D", "C"; "N" in contracts. */
extern const char analysis_strain_letters[DL_STRAINS + 1];	/* "NSHDC" */

/* A contract as people write it: "4S", "3NT+1", "5Dx-2" (buf >= 16). */
const char *contract_text(const struct dl_contract *c, char *buf, size_t size);
/* The declarers of a contract: "N", "EW", ... */
const char *declarers_text(unsigned declarers);

#endif
