/* An event's key (event_key.h): the name as a reader of a printed hand
 * record sees it, so that a director cannot start the count of an event's
 * sets again under a name that only looks different.  ICU does the
 * Unicode: NFKC with case folding (which also drops the default ignorable
 * code points: zero-width spaces and joiners, soft hyphens, direction
 * marks), then capitals and UTS #39's skeleton (a Cyrillic or Greek
 * letter that looks like a Latin one becomes that one; the skeleton tells
 * case, and a Cyrillic capital's small letter has another prototype than
 * the Latin small letter, so both are taken as capitals first), then case
 * folding again (for a key that reads as the name), and white
 * space of every kind (a non-breaking space, an ideographic one, a tab)
 * collapsed to one space, none at either end.  docs/archive.md, "An
 * event's sets". */
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>

#include "event_key.h"
#include "util.h"

struct event_keyer {
	const UNormalizer2 *fold;	/* ICU's own, never freed */
	USpoofChecker *spoof;
	UChar *a, *b;			/* the text between the steps */
	int32_t cap;
};

static int
icu_error(struct dl_error *e, const char *what, UErrorCode status)
{
	return dl_error_set(e, DL_ERR_SYSTEM, "an event's key: %s: %s", what,
	    u_errorName(status));
}

struct event_keyer *
event_keyer_new(struct dl_error *e)
{
	struct event_keyer *k = xcalloc(1, sizeof *k);
	UErrorCode status = U_ZERO_ERROR;

	k->fold = unorm2_getNFKCCasefoldInstance(&status);
	if (U_SUCCESS(status))
		k->spoof = uspoof_open(&status);
	if (U_FAILURE(status)) {
		icu_error(e, "ICU's data", status);
		event_keyer_free(k);
		return NULL;
	}
	return k;
}

void
event_keyer_free(struct event_keyer *k)
{
	if (k == NULL)
		return;
	if (k->spoof != NULL)
		uspoof_close(k->spoof);
	free(k->a);
	free(k->b);
	free(k);
}

/* Room for n UTF-16 units in both buffers. */
static void
room(struct event_keyer *k, int32_t n)
{
	if (n <= k->cap)
		return;
	k->a = xreallocarray(k->a, (size_t)n, sizeof *k->a);
	k->b = xreallocarray(k->b, (size_t)n, sizeof *k->b);
	k->cap = n;
}

/* The steps of a key, each from k->a into k->b. */
enum key_step { FOLD, SKELETON, UPPER };

/* k->a, n units, through one step into k->b, then swapped back into
 * k->a: its new length. */
static int32_t
step(struct event_keyer *k, enum key_step which, int32_t n, struct dl_error *e)
{
	for (;;) {
		UErrorCode status = U_ZERO_ERROR;
		int32_t len = which == FOLD ?
		    unorm2_normalize(k->fold, k->a, n, k->b, k->cap, &status) :
		    which == SKELETON ?
		    uspoof_getSkeleton(k->spoof, 0, k->a, n, k->b, k->cap, &status) :
		    u_strToUpper(k->b, k->cap, k->a, n, "", &status);
		UChar *swap;

		if (status == U_BUFFER_OVERFLOW_ERROR) {
			/* the text grew past the room (a ligature, an
			 * expansion): once more with room for it (k->a
			 * keeps its text through the realloc) */
			room(k, len + 1);
			continue;
		}
		if (U_FAILURE(status))
			return icu_error(e, which == FOLD ? "normalisation" : which == SKELETON ?
			    "skeleton" : "capitals", status);
		swap = k->a;
		k->a = k->b;
		k->b = swap;
		return len;
	}
}

int
event_key(struct event_keyer *k, const char *event, char **key, struct dl_error *e)
{
	UErrorCode status = U_ZERO_ERROR;
	int32_t n, len = 0, bytes;
	int space = 0;

	*key = NULL;
	if (strlen(event) > INT32_MAX / 4)
		return dl_error_set(e, DL_ERR_INPUT, "an event's name too long for a key");
	room(k, (int32_t)strlen(event) + 1);
	/* a byte that is not UTF-8 stands as U+FFFD: the archive's texts are
	 * checked as UTF-8 when read, this is only not to fail on one */
	u_strFromUTF8WithSub(k->a, k->cap, &n, event, -1, 0xfffd, NULL, &status);
	if (U_FAILURE(status))
		return icu_error(e, "UTF-8", status);
	if ((n = step(k, FOLD, n, e)) == -1 || (n = step(k, UPPER, n, e)) == -1 ||
	    (n = step(k, SKELETON, n, e)) == -1 || (n = step(k, FOLD, n, e)) == -1)
		return -1;
	/* white space collapsed, in place: the text only shrinks */
	for (int32_t i = 0; i < n;) {
		UChar32 c;

		U16_NEXT(k->a, i, n, c);
		if (u_isUWhiteSpace(c) || u_charType(c) == U_SPACE_SEPARATOR) {
			space = len > 0;
			continue;
		}
		if (u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT))
			continue;
		if (space)
			k->a[len++] = ' ';
		space = 0;
		U16_APPEND_UNSAFE(k->a, len, c);
	}
	u_strToUTF8(NULL, 0, &bytes, k->a, len, &status);
	if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status))
		return icu_error(e, "UTF-8", status);
	*key = xmalloc((size_t)bytes + 1);
	status = U_ZERO_ERROR;
	u_strToUTF8(*key, bytes + 1, NULL, k->a, len, &status);
	if (U_FAILURE(status)) {
		free(*key);
		*key = NULL;
		return icu_error(e, "UTF-8", status);
	}
	return 0;
}
