/* Dates as other programs write them, made PBN's YYYY.MM.DD for #D:
 * (lib/stream/date.c, date_to_pbn; dl-read, a file's [Date]), against a
 * model of the forms as regular expressions and of the calendar as libc's
 * timegm: the same day read, or the same refusal (no form, no such day,
 * two days), and a date read is PBN's form, which reads back as itself. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stream/date.h"
#include "fuzz.h"
#include "stream/proto.h"

/* Whether y-m-d is a day: timegm takes any numbers and normalises them,
 * so a day is one that comes back unchanged. */
static int
model_day(long y, long m, long d)
{
	struct tm tm = { .tm_year = (int)(y - 1900), .tm_mon = (int)(m - 1), .tm_mday = (int)d,
	    .tm_hour = 12 };
	struct tm back;
	time_t t;

	if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31)
		return 0;
	t = timegm(&tm);
	return gmtime_r(&t, &back) != NULL && back.tm_year == y - 1900 &&
	    back.tm_mon == m - 1 && back.tm_mday == d;
}

static regex_t *
compiled(regex_t *re, int *done, const char *pattern)
{
	if (!*done && regcomp(re, pattern, REG_EXTENDED) != 0)
		fuzz_fail("the model's expression %s does not compile", pattern);
	*done = 1;
	return re;
}

static long
number(const char *text, regmatch_t m)
{
	long v = 0;

	for (regoff_t i = m.rm_so; i < m.rm_eo; i++)
		v = v * 10 + (text[i] - '0');
	return v;
}

/* What may follow a separated date: a time of day with a zone or none. */
static int
model_time(const char *rest)
{
	static regex_t re;
	static int done;

	return regexec(compiled(&re, &done, "^([01]?[0-9]|2[0-3]):[0-5][0-9]"
	    "(:([0-5][0-9]|60)(\\.[0-9]+)?)?(Z|[-+]([01][0-9]|2[0-3])(:?[0-5][0-9])?)?$"),
	    rest, 0, NULL, 0) == 0;
}

struct model {
	enum { M_READ, M_NO_FORM, M_NO_DAY, M_TWO } verdict;
	long days[3][3];	/* year, month, day of each distinct reading */
	int n;
};

static void
add(struct model *m, long y, long mo, long d)
{
	if (!model_day(y, mo, d))
		return;
	for (int i = 0; i < m->n; i++)
		if (m->days[i][0] == y && m->days[i][1] == mo && m->days[i][2] == d)
			return;
	m->days[m->n][0] = y;
	m->days[m->n][1] = mo;
	m->days[m->n][2] = d;
	m->n++;
}

static long
two_digit_year(long yy)
{
	return yy >= 70 ? 1900 + yy : 2000 + yy;
}

/* An English month's name (matched by MONTHS, in any case): its number. */
#define MONTHS "(jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|" \
	"aug|august|sep|sept|september|oct|october|nov|november|dec|december)"

static long
month_of(const char *text, regmatch_t g)
{
	static const char firsts[] = "janfebmaraprmayjunjulaugsepoctnovdec";
	char three[4];

	for (int i = 0; i < 3; i++)
		three[i] = (char)(text[g.rm_so + i] | 0x20);
	three[3] = '\0';
	return (long)((strstr(firsts, three) - firsts) / 3 + 1);
}

/* The month by name: "1-Dec-2023", "23 November 2013", "Nov 23, 2013".
 * 1 when text is of such a form (m says what it reads), else 0. */
static int
model_named(const char *text, struct model *m)
{
	static regex_t day_first, month_first;
	static int done[2];
	regmatch_t g[8];
	long day, month, year;

	if (!done[0]) {
		if (regcomp(&day_first, "^([0-9]{1,2})([- .])" MONTHS "([- .])([0-9]{4})( (.*))?$",
		    REG_EXTENDED | REG_ICASE) != 0 ||
		    regcomp(&month_first, "^" MONTHS " ([0-9]{1,2}),? ([0-9]{4})( (.*))?$",
		    REG_EXTENDED | REG_ICASE) != 0)
			fuzz_fail("the model's month expressions do not compile");
		done[0] = done[1] = 1;
	}
	if (regexec(&day_first, text, 8, g, 0) == 0) {
		if (text[g[2].rm_so] != text[g[4].rm_so])
			return 0;
		day = number(text, g[1]);
		month = month_of(text, g[3]);
		year = number(text, g[5]);
		if (g[6].rm_so != -1 && !model_time(text + g[7].rm_so))
			return 0;
	} else if (regexec(&month_first, text, 6, g, 0) == 0) {
		month = month_of(text, g[1]);
		day = number(text, g[2]);
		year = number(text, g[3]);
		if (g[4].rm_so != -1 && !model_time(text + g[5].rm_so))
			return 0;
	} else
		return 0;
	add(m, year, month, day);
	m->verdict = m->n == 0 ? M_NO_DAY : M_READ;
	return 1;
}

static void
model(const char *text, struct model *m)
{
	static regex_t pbn, first, last, six, eight;
	static int done[5];
	regmatch_t g[8];

	memset(m, 0, sizeof *m);
	if (regexec(compiled(&pbn, &done[0], "^[0-9?]{4}\\.[0-9?]{2}\\.[0-9?]{2}$"), text, 0,
	    NULL, 0) == 0) {
		m->verdict = M_READ;
		return;
	}
	m->verdict = M_NO_FORM;
	if (regexec(compiled(&six, &done[1], "^([0-9]{2})([0-9]{2})([0-9]{2})$"), text, 4, g,
	    0) == 0) {
		long a = number(text, g[1]), b = number(text, g[2]), c = number(text, g[3]);
		add(m, two_digit_year(a), b, c);
		add(m, two_digit_year(c), b, a);
		add(m, two_digit_year(c), a, b);
		m->verdict = m->n == 0 ? M_NO_FORM : m->n == 1 ? M_READ : M_TWO;
		return;
	}
	if (regexec(compiled(&eight, &done[2], "^([0-9]{2})([0-9]{2})([0-9]{2})([0-9]{2})$"),
	    text, 5, g, 0) == 0) {
		long p = number(text, g[1]), q = number(text, g[2]), r = number(text, g[3]),
		    s = number(text, g[4]);
		add(m, p * 100 + q, r, s);
		add(m, r * 100 + s, q, p);
		add(m, r * 100 + s, p, q);
		m->verdict = m->n == 0 ? M_NO_FORM : m->n == 1 ? M_READ : M_TWO;
		return;
	}
	if (model_named(text, m))
		return;
	int year_first = regexec(compiled(&first, &done[3],
	    "^([0-9]{4})([-./])([0-9]{1,2})([-./])([0-9]{1,2})([ T](.*))?$"), text, 8, g, 0) == 0;
	if (!year_first && regexec(compiled(&last, &done[4],
	    "^([0-9]{1,2})([-./])([0-9]{1,2})([-./])([0-9]{4})([ T](.*))?$"), text, 8, g, 0) != 0)
		return;
	char sep = text[g[2].rm_so];
	if (text[g[4].rm_so] != sep)
		return;
	if (g[6].rm_so != -1 && ((text[g[6].rm_so] == 'T' && !(year_first && sep == '-')) ||
	    !model_time(text + g[7].rm_so)))
		return;
	long a = number(text, g[1]), b = number(text, g[3]), c = number(text, g[5]);
	if (year_first)
		add(m, a, b, c);
	else {
		add(m, c, b, a);
		if (sep != '.')
			add(m, c, a, b);
	}
	m->verdict = m->n == 0 ? M_NO_DAY : m->n == 1 ? M_READ : M_TWO;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	char out[DATE_PBN_SIZE], again[DATE_PBN_SIZE], want[96];
	struct dl_error e = { 0 };
	struct model m;
	int got = date_to_pbn(text, out, &e);

	model(text, &m);
	if ((got == 0) != (m.verdict == M_READ))
		fuzz_fail("date_to_pbn(\"%.40s\") %s", text, got == 0 ? "reads what the model "
		    "does not" : "refuses what the model reads");
	if (got == 0) {
		struct dl_error e2;
		if (date_text_check(out, &e2) == -1)
			fuzz_fail("date_to_pbn(\"%.40s\") gave \"%.20s\", not PBN's form", text, out);
		if (m.n == 1) {
			snprintf(want, sizeof want, "%04ld.%02ld.%02ld", m.days[0][0], m.days[0][1],
			    m.days[0][2]);
			if (strcmp(out, want) != 0)
				fuzz_fail("\"%.40s\" read as %s, not %s", text, out, want);
		} else if (strcmp(out, text) != 0)
			fuzz_fail("PBN's own \"%.40s\" came back as %s", text, out);
		if (date_to_pbn(out, again, &e2) == -1 || strcmp(again, out) != 0)
			fuzz_fail("%s does not read back as itself", out);
		free(text);
		return 0;
	}
	fuzz_check_error(&e, "date_to_pbn");
	if (e.kind != DL_ERR_INPUT)
		fuzz_fail("date_to_pbn(\"%.40s\"): a refusal of kind %d", text, (int)e.kind);
	switch (m.verdict) {
	case M_NO_FORM:
		snprintf(want, sizeof want, "not YYYY.MM.DD (PBN's form, ? for a part not known)");
		break;
	case M_NO_DAY:
		snprintf(want, sizeof want, "no such day");
		break;
	default: {
		char d[3][DATE_PBN_SIZE];
		for (int i = 0; i < m.n; i++)
			snprintf(d[i], sizeof d[i], "%04ld.%02ld.%02ld", m.days[i][0], m.days[i][1],
			    m.days[i][2]);
		if (m.n == 2)
			snprintf(want, sizeof want, "could be %s or %s", d[0], d[1]);
		else
			snprintf(want, sizeof want, "could be %s, %s or %s", d[0], d[1], d[2]);
	}
	}
	if (strcmp(e.msg, want) != 0)
		fuzz_fail("date_to_pbn(\"%.40s\"): \"%s\", not \"%s\"", text, e.msg, want);
	free(text);
	return 0;
}
