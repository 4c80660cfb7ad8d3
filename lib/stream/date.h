/* An event's date as other programs write it, made PBN's "YYYY.MM.DD",
 * the form of #D: and of PBN's [Date] (docs/formats-in.md, "Dates").
 *
 * A date is read only when its day is certain: a form whose order of day
 * and month is a convention of its own (ISO's year first; the dotted
 * European day first), or a text that only one order makes a real day
 * of.  A date that two orders read as two days is no date, never a guess.
 *
 * Threads: date_to_pbn and date_typed_to_pbn may be called from several
 * threads at once: they keep no state. */
#ifndef DL_DATE_H
#define DL_DATE_H

#include "base/error.h"

#define DATE_PBN_SIZE 11	/* "YYYY.MM.DD" and its NUL */

/* text as PBN's date: 0 and out filled, or -1 with an input error whose
 * message says why (to follow the text quoted):
 *   "not YYYY.MM.DD (PBN's form, ? for a part not known)": no form this
 *	function reads (date_text_check's words);
 *   "no such day": a form it reads, naming no day of the calendar
 *	("2024-02-30");
 *   "could be 2021.03.04 or 2021.04.03": two orders, two days.
 * PBN's own form, question marks and all, is taken as it is
 * (date_text_check). */
int date_to_pbn(const char *text, char out[DATE_PBN_SIZE], struct dl_error *e);

/* A date a person typed, in a form that says which forms it takes, as
 * PBN's date: 0 and out filled, or -1 with a usage error naming the
 * forms.  Where date_to_pbn reads what other programs wrote and refuses
 * what two orders could read, a typed date has one reading per form:
 *   "YYYY-MM-DD", ISO's, what a browser's date picker sends;
 *   "DD/MM/YYYY", day first (as European clubs write it; "D/M/YYYY" too),
 *	never month first: a form that takes it says so;
 *   "YYYY.MM.DD", PBN's own, ? for a part not known (date_text_check).
 * A date whose every part is known must be a day of the calendar:
 * "31/02/2026" is refused "no such day", with the form it was read as. */
int date_typed_to_pbn(const char *text, char out[DATE_PBN_SIZE], struct dl_error *e);

#endif
