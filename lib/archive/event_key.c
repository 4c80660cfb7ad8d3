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
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/uvernum.h>

#include "archive/event_key.h"
#include "base/util.h"

/* ICU is loaded when a key is first made, not with the program: linked,
 * its libraries (some 30 MB of them) cost 3 ms of every run of every tool
 * that keeps sets, dl-web's requests above all, where most runs make no
 * key.  Its functions by its header's types, each by its versioned name
 * (the header renames uspoof_open to uspoof_open_72), in the library of
 * the version the headers are (libicui18n brings libicuuc). */
#define ICU_NAME_(f) #f
#define ICU_NAME(f) ICU_NAME_(f)
#define ICU_LIBRARY "libicui18n.so." ICU_NAME(U_ICU_VERSION_MAJOR_NUM)
#define ICU_FUNCTIONS(X) \
	X(unorm2_getNFKCCasefoldInstance) \
	X(unorm2_normalize) \
	X(uspoof_open) \
	X(uspoof_close) \
	X(uspoof_getSkeleton) \
	X(u_strToUpper) \
	X(u_strFromUTF8WithSub) \
	X(u_strToUTF8) \
	X(u_errorName) \
	X(u_isUWhiteSpace) \
	X(u_charType) \
	X(u_hasBinaryProperty)

static struct {
#define ICU_POINTER(name) __typeof__(&name) name;
	ICU_FUNCTIONS(ICU_POINTER)
#undef ICU_POINTER
} icu;
static pthread_once_t icu_once = PTHREAD_ONCE_INIT;
static char icu_load_error[256];
static int icu_ready;

static void
icu_load(void)
{
	void *h = dlopen(ICU_LIBRARY, RTLD_NOW | RTLD_LOCAL);

	if (h == NULL) {
		snprintf(icu_load_error, sizeof icu_load_error, "%s", dlerror());
		return;
	}
#define ICU_SYMBOL(name) \
	if ((*(void **)&icu.name = dlsym(h, ICU_NAME(name))) == NULL) { \
		snprintf(icu_load_error, sizeof icu_load_error, "%s has no %s", ICU_LIBRARY, \
		    ICU_NAME(name)); \
		return; \
	}
	ICU_FUNCTIONS(ICU_SYMBOL)
#undef ICU_SYMBOL
	icu_ready = 1;
}

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
	    icu.u_errorName(status));
}

struct event_keyer *
event_keyer_new(struct dl_error *e)
{
	struct event_keyer *k;
	UErrorCode status = U_ZERO_ERROR;

	pthread_once(&icu_once, icu_load);
	if (!icu_ready) {
		dl_error_set(e, DL_ERR_SYSTEM, "an event's key: ICU's library: %s (Debian: libicu%d)",
		    icu_load_error, U_ICU_VERSION_MAJOR_NUM);
		return NULL;
	}
	k = xcalloc(1, sizeof *k);

	k->fold = icu.unorm2_getNFKCCasefoldInstance(&status);
	if (U_SUCCESS(status))
		k->spoof = icu.uspoof_open(&status);
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
		icu.uspoof_close(k->spoof);
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
		    icu.unorm2_normalize(k->fold, k->a, n, k->b, k->cap, &status) :
		    which == SKELETON ?
		    icu.uspoof_getSkeleton(k->spoof, 0, k->a, n, k->b, k->cap, &status) :
		    icu.u_strToUpper(k->b, k->cap, k->a, n, "", &status);
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
	icu.u_strFromUTF8WithSub(k->a, k->cap, &n, event, -1, 0xfffd, NULL, &status);
	if (U_FAILURE(status))
		return icu_error(e, "UTF-8", status);
	if ((n = step(k, FOLD, n, e)) == -1 || (n = step(k, UPPER, n, e)) == -1 ||
	    (n = step(k, SKELETON, n, e)) == -1 || (n = step(k, FOLD, n, e)) == -1)
		return -1;
	/* white space collapsed, in place: the text only shrinks */
	for (int32_t i = 0; i < n;) {
		UChar32 c;

		U16_NEXT(k->a, i, n, c);
		if (icu.u_isUWhiteSpace(c) || icu.u_charType(c) == U_SPACE_SEPARATOR) {
			space = len > 0;
			continue;
		}
		if (icu.u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT))
			continue;
		if (space)
			k->a[len++] = ' ';
		space = 0;
		U16_APPEND_UNSAFE(k->a, len, c);
	}
	icu.u_strToUTF8(NULL, 0, &bytes, k->a, len, &status);
	if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status))
		return icu_error(e, "UTF-8", status);
	*key = xmalloc((size_t)bytes + 1);
	status = U_ZERO_ERROR;
	icu.u_strToUTF8(*key, bytes + 1, NULL, k->a, len, &status);
	if (U_FAILURE(status)) {
		free(*key);
		*key = NULL;
		return icu_error(e, "UTF-8", status);
	}
	return 0;
}
