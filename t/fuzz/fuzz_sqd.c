/* A SquareDeal .sqd as dl-sqd reads it (lib/squaredeal/sqd.c sqd_read), then what
 * dl-sqd derives from it: session names and board ranges (show, make), the
 * phase and session a file name belongs to (verify), the canonical DV.
 * A file it reads must read back the same after sqd_write, which every
 * command that changes the file uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "squaredeal/sqd.h"
#include "base/util.h"

static void
check_range(unsigned p, unsigned s, const struct board_range *r)
{
	if (r->low < 1 || r->low > r->high || r->high > BOARD_MAX)
		fuzz_fail("phase %u session %u: boards %u-%u", p, s, r->low, r->high);
}

/* Session s of phase p, as show and make name it and verify finds it. */
static void
check_session(const struct sqd *t, unsigned p, unsigned s, const char *desc)
{
	const struct sqd_phase *ph = &t->phases[p - 1];
	struct board_range r;
	char *d = sqd_expand(desc, s);

	if (sqd_session_range(ph, s, &r) == 0)
		check_range(p, s, &r);
	else if (ph->nranges != 0)
		fuzz_fail("phase %u session %u: no boards", p, s);
	for (int reserve = 0; reserve <= 1; reserve++) {
		char *name = sqd_session_name(ph, s, reserve);
		unsigned fp, fs;
		int fr;
		if (sqd_match_name(t, name, &fp, &fs, &fr) == -1)
			fuzz_fail("phase %u session %u: its name \"%s\" is not found", p, s, name);
		/* an earlier phase may claim the same name; this one must agree */
		if (fp == p && (fs != s || fr != reserve))
			fuzz_fail("\"%s\" is phase %u session %u%s, not session %u%s", name,
			    fp, fs, fr ? " reserve" : "", s, reserve ? " reserve" : "");
		free(name);
	}
	free(d);
}

/* The DV as set-dv tidies it: white space only as single inner spaces;
 * tidied again, only a '.' or ',' may go (between digits that the
 * first pass's matches had taken: "1.2.3.4", "12.34", "1234"). */
static void
check_canonical_dv(const char *dv)
{
	char *once = sqd_canonical_dv(dv), *twice = sqd_canonical_dv(once);
	size_t n = strlen(once), j = 0;

	for (size_t i = 0; i < n; i++)
		if (once[i] == ' ' ? i == 0 || i == n - 1 || once[i - 1] == ' ' :
		    once[i] >= '\t' && once[i] <= '\r')
			fuzz_fail("the canonical DV \"%s\" holds white space at %zu", once, i);
	for (size_t i = 0; i < n; i++)
		if (once[i] == twice[j])
			j++;
		else if (once[i] != '.' && once[i] != ',')
			fuzz_fail("the canonical DV \"%s\" tidied again is \"%s\"", once, twice);
	if (twice[j] != '\0')
		fuzz_fail("the canonical DV \"%s\" tidied again is \"%s\"", once, twice);
	free(once);
	free(twice);
}

static void
check_derived(const struct sqd *t)
{
	for (unsigned p = 1; p <= t->nphases; p++) {
		const struct sqd_phase *ph = &t->phases[p - 1];
		char *desc = sqd_description_pattern(ph->description, ph->nsessions);
		unsigned last = ph->nsessions ? ph->nsessions : 120;
		/* the first sessions, the last, and where the digits grow */
		unsigned some[] = { 1, 2, 9, 10, 99, 100, last - 1, last };
		for (size_t i = 0; i < sizeof some / sizeof *some; i++)
			if (some[i] >= 1 && some[i] <= last)
				check_session(t, p, some[i], desc);
		free(desc);
	}
	if (t->dv != NULL)
		check_canonical_dv(t->dv);
}

static int
same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* sqd_write writes an unset TN or DI as empty. */
static const char *
empty_if_unset(const char *s)
{
	return s ? s : "";
}

static void
compare(const struct sqd *a, const struct sqd *b)
{
	if (strcmp(empty_if_unset(a->name), empty_if_unset(b->name)) != 0 ||
	    strcmp(empty_if_unset(a->di), empty_if_unset(b->di)) != 0 ||
	    !same(a->dv, b->dv) || !same(a->kh, b->kh))
		fuzz_fail("TN, DI, DV or KH changed on the way: DV \"%s\", then \"%s\"",
		    a->dv ? a->dv : "(unset)", b->dv ? b->dv : "(unset)");
	if (a->nphases != b->nphases)
		fuzz_fail("%zu phases written, %zu read", a->nphases, b->nphases);
	for (size_t p = 0; p < a->nphases; p++) {
		const struct sqd_phase *x = &a->phases[p], *y = &b->phases[p];
		if (x->nsessions != y->nsessions || strcmp(x->boards, y->boards) != 0 ||
		    strcmp(x->prefix, y->prefix) != 0 ||
		    strcmp(x->description, y->description) != 0 ||
		    x->nranges != y->nranges ||
		    (x->nranges && memcmp(x->ranges, y->ranges, x->nranges * sizeof *x->ranges)))
			fuzz_fail("phase %zu changed on the way", p + 1);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_tmp_file("fuzz.sqd", data, size);
	const char *written = fuzz_tmp_path("written.sqd");
	struct sqd t, again;
	struct dl_error e = { 0 };

	if (sqd_read(path, &t, &e) == -1) {
		fuzz_check_error(&e, "sqd_read");
		if (t.phases != NULL || t.nphases != 0 || t.name != NULL || t.dv != NULL)
			fuzz_fail("sqd_read refused the file and kept what it read");
		return 0;
	}
	check_derived(&t);
	if (sqd_write(written, &t, &e) == -1)
		fuzz_fail("sqd_write: %s", e.msg);
	dl_error_clear(&e);
	if (sqd_read(written, &again, &e) == -1)
		fuzz_fail("the file sqd_write wrote is refused: %s", e.msg);
	compare(&t, &again);
	sqd_free(&again);
	sqd_free(&t);
	return 0;
}
