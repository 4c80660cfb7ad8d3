#include <stdio.h>
#include <string.h>

#include "stream/date.h"
#include "stream/proto.h"

#define NOT_A_FORM "not YYYY.MM.DD (PBN's form, ? for a part not known)"

struct day {
	unsigned year, month, day;
};

static int
leap(unsigned year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

/* A day of the (proleptic Gregorian) calendar, years 1 to 9999. */
static int
real_day(struct day d)
{
	static const unsigned char days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return d.year >= 1 && d.year <= 9999 && d.month >= 1 && d.month <= 12 && d.day >= 1 &&
	    d.day <= days[d.month - 1] + (unsigned)(d.month == 2 && leap(d.year));
}

/* A run of digits at *p, at most max of them (more: -1): its value and
 * length, *p moved past it. */
static int
digits(const char **p, size_t max, unsigned *value, size_t *len)
{
	*value = 0;
	*len = 0;
	while (**p >= '0' && **p <= '9') {
		if (++*len > max)
			return -1;
		*value = *value * 10 + (unsigned)(**p - '0');
		(*p)++;
	}
	return 0;
}

/* The n digits at *p (whatever follows them), at most top: 0, *p moved
 * past them. */
static int
field(const char **p, size_t n, unsigned top, unsigned *value)
{
	*value = 0;
	for (size_t i = 0; i < n; i++, (*p)++) {
		if (!(**p >= '0' && **p <= '9'))
			return -1;
		*value = *value * 10 + (unsigned)(**p - '0');
	}
	return *value <= top ? 0 : -1;
}

/* What may follow a date: nothing, or a time of day, "11:23", "9:05:30",
 * "23:59:60.5", with a zone ("Z", "+01:00", "-0500", "+02") or none. */
static int
time_of_day(const char *p)
{
	unsigned hour, minute, second;
	size_t len;

	if (digits(&p, 2, &hour, &len) == -1 || len == 0 || hour > 23 || *p++ != ':' ||
	    field(&p, 2, 59, &minute) == -1)
		return -1;
	if (*p == ':') {
		p++;
		if (field(&p, 2, 60, &second) == -1)
			return -1;
		if (*p == '.') {
			p++;
			if (!(*p >= '0' && *p <= '9'))
				return -1;
			while (*p >= '0' && *p <= '9')
				p++;
		}
	}
	if (*p == 'Z')
		p++;
	else if (*p == '+' || *p == '-') {
		p++;
		if (field(&p, 2, 23, &hour) == -1)
			return -1;
		/* "+01", "+0100", "+01:00" */
		if (*p == ':') {
			p++;
			if (field(&p, 2, 59, &minute) == -1)
				return -1;
		} else if (*p >= '0' && *p <= '9' && field(&p, 2, 59, &minute) == -1)
			return -1;
	}
	return *p == '\0' ? 0 : -1;
}

/* A two-digit year: 1970 to 2069. */
static unsigned
full_year(unsigned yy)
{
	return yy < 70 ? 2000 + yy : 1900 + yy;
}

/* The days a text may be read as, one for each order its form allows,
 * real days or not. */
struct readings {
	struct day day[3];
	size_t n;
};

static void
reading(struct readings *r, unsigned year, unsigned month, unsigned day)
{
	r->day[r->n++] = (struct day){ year, month, day };
}

/* "YYYYMMDD" or "YYMMDD": every order, since digits alone say none; years
 * of two digits are 1970 to 2069. */
static int
digits_only(const char *text, struct readings *r)
{
	size_t len = strlen(text);
	const char *p = text;
	unsigned y, m, d, x, z;

	if (len == 8) {
		/* YYYY MM DD, then DD MM YYYY and MM DD YYYY */
		(void)field(&p, 4, 9999, &y);
		(void)field(&p, 2, 99, &m);
		(void)field(&p, 2, 99, &d);
		reading(r, y, m, d);
		p = text;
		(void)field(&p, 2, 99, &x);
		(void)field(&p, 2, 99, &z);
		(void)field(&p, 4, 9999, &y);
		reading(r, y, z, x);
		reading(r, y, x, z);
		return 0;
	}
	if (len != 6)
		return -1;
	(void)field(&p, 2, 99, &x);
	(void)field(&p, 2, 99, &m);
	(void)field(&p, 2, 99, &z);
	reading(r, full_year(x), m, z);
	reading(r, full_year(z), m, x);
	reading(r, full_year(z), x, m);
	return 0;
}

/* An English month's name at *p, in any case: its first three letters,
 * or the whole name ("Dec", "December"; "Sept" too): 0 and *month, *p
 * moved past it, or -1. */
static int
month_name(const char **p, unsigned *month)
{
	static const char *const names[12] = {
		"january", "february", "march", "april", "may", "june", "july",
		"august", "september", "october", "november", "december",
	};

	for (unsigned m = 0; m < 12; m++) {
		size_t full = strlen(names[m]), n = 0;
		while (n < full && ((*p)[n] | 0x20) == names[m][n] &&
		    (((*p)[n] >= 'a' && (*p)[n] <= 'z') || ((*p)[n] >= 'A' && (*p)[n] <= 'Z')))
			n++;
		if (((*p)[n] >= 'a' && (*p)[n] <= 'z') || ((*p)[n] >= 'A' && (*p)[n] <= 'Z'))
			continue;
		if (n == full || n == 3 || (m == 8 && n == 4)) {
			*p += n;
			*month = m + 1;
			return 0;
		}
	}
	return -1;
}

/* A month by name, "1-Dec-2023" (BEN's), "23 November 2013" or "Nov 23,
 * 2013": one order, the name says which part is the month.  0, or -1 for
 * no such form. */
static int
named_month(const char *text, struct readings *r)
{
	const char *p = text;
	unsigned day, month, year;
	size_t ld, ly;
	char sep;

	if (digits(&p, 2, &day, &ld) == 0 && ld > 0) {
		sep = *p++;
		if ((sep != '-' && sep != ' ' && sep != '.') || month_name(&p, &month) == -1 ||
		    *p++ != sep)
			return -1;
	} else {
		p = text;
		if (month_name(&p, &month) == -1 || *p++ != ' ' ||
		    digits(&p, 2, &day, &ld) == -1 || ld == 0)
			return -1;
		if (*p == ',')
			p++;
		if (*p++ != ' ')
			return -1;
	}
	if (digits(&p, 4, &year, &ly) == -1 || ly != 4)
		return -1;
	reading(r, year, month, day);
	if (*p == '\0')
		return 0;
	return *p == ' ' ? time_of_day(p + 1) : -1;
}

/* The days text may be, by its form: 0, or -1 for no form read here. */
static int
readings_of(const char *text, struct readings *r)
{
	const char *p = text;
	unsigned a, b, c;
	size_t la, lb, lc;
	char sep;

	r->n = 0;
	if (strspn(text, "0123456789") == strlen(text))
		return digits_only(text, r);
	if (named_month(text, r) == 0)
		return 0;
	r->n = 0;
	if (digits(&p, 4, &a, &la) == -1 || la == 0 || la == 3)
		return -1;
	sep = *p;
	if (sep != '.' && sep != '-' && sep != '/')
		return -1;
	p++;
	if (digits(&p, 2, &b, &lb) == -1 || lb == 0 || *p++ != sep ||
	    digits(&p, 4, &c, &lc) == -1)
		return -1;
	if (la == 4) {
		/* year first, as ISO and PBN: one order everywhere */
		if (lc != 1 && lc != 2)
			return -1;
		reading(r, a, b, c);
	} else {
		/* year last: the dotted form is day first wherever it is
		 * written; with a slash or a dash, day first in Europe,
		 * month first in the United States */
		if (lc != 4)
			return -1;
		reading(r, c, b, a);
		if (sep != '.')
			reading(r, c, a, b);
	}
	if (*p == '\0')
		return 0;
	if (*p == ' ' || (*p == 'T' && la == 4 && sep == '-'))
		return time_of_day(p + 1);
	return -1;
}

static void
pbn_text(struct day d, char out[DATE_PBN_SIZE])
{
	snprintf(out, DATE_PBN_SIZE, "%04u.%02u.%02u", d.year % 10000, d.month % 100, d.day % 100);
}

int
date_to_pbn(const char *text, char out[DATE_PBN_SIZE], struct dl_error *e)
{
	struct day found[3];
	size_t nfound = 0;
	struct readings r;

	if (date_text_check(text, e) == 0) {
		memcpy(out, text, DATE_PBN_SIZE);
		return 0;
	}
	if (readings_of(text, &r) == -1)
		return dl_error_set(e, DL_ERR_INPUT, NOT_A_FORM);
	for (size_t i = 0; i < r.n; i++) {
		struct day d = r.day[i];
		size_t j;
		if (!real_day(d))
			continue;
		for (j = 0; j < nfound; j++)
			if (memcmp(&found[j], &d, sizeof d) == 0)
				break;
		if (j == nfound)
			found[nfound++] = d;
	}
	if (nfound == 1) {
		pbn_text(found[0], out);
		return 0;
	}
	if (nfound == 0)
		/* digits alone that make no day may be no date at all */
		return dl_error_set(e, DL_ERR_INPUT, "%s", strspn(text, "0123456789") ==
		    strlen(text) ? NOT_A_FORM : "no such day");
	char days[3][DATE_PBN_SIZE];
	for (size_t i = 0; i < nfound; i++)
		pbn_text(found[i], days[i]);
	if (nfound == 2)
		return dl_error_set(e, DL_ERR_INPUT, "could be %s or %s", days[0], days[1]);
	return dl_error_set(e, DL_ERR_INPUT, "could be %s, %s or %s", days[0], days[1], days[2]);
}

#define TYPED_FORMS "YYYY-MM-DD, DD/MM/YYYY (day first) or YYYY.MM.DD"

int
date_typed_to_pbn(const char *text, char out[DATE_PBN_SIZE], struct dl_error *e)
{
	const char *p = text, *form;
	struct day d;
	size_t ld, lm;

	if (date_text_check(text, e) == 0) {
		/* PBN's form: a part not known (?) leaves no day to check */
		if (strchr(text, '?') != NULL) {
			memcpy(out, text, DATE_PBN_SIZE);
			return 0;
		}
		(void)field(&p, 4, 9999, &d.year);
		p++;
		(void)field(&p, 2, 99, &d.month);
		p++;
		(void)field(&p, 2, 99, &d.day);
		form = "YYYY.MM.DD";
	} else if (field(&p, 4, 9999, &d.year) == 0 && *p == '-') {
		p++;
		if (field(&p, 2, 99, &d.month) == -1 || *p++ != '-' ||
		    field(&p, 2, 99, &d.day) == -1 || *p != '\0')
			return dl_error_set(e, DL_ERR_USAGE, "not a date: " TYPED_FORMS);
		form = "YYYY-MM-DD";
	} else {
		p = text;
		if (digits(&p, 2, &d.day, &ld) == -1 || ld == 0 || *p++ != '/' ||
		    digits(&p, 2, &d.month, &lm) == -1 || lm == 0 || *p++ != '/' ||
		    field(&p, 4, 9999, &d.year) == -1 || *p != '\0')
			return dl_error_set(e, DL_ERR_USAGE, "not a date: " TYPED_FORMS);
		form = "DD/MM/YYYY, day first";
	}
	if (!real_day(d))
		return dl_error_set(e, DL_ERR_USAGE, "no such day (read as %s)", form);
	pbn_text(d, out);
	return 0;
}
