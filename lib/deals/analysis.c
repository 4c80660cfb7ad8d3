/* The text form of a double-dummy analysis, written and read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deals/analysis.h"

const char analysis_strain_letters[DL_STRAINS + 1] = "NSHDC";

/* Duplicate bridge scoring (Laws of Duplicate Bridge, law 77), for the
 * contracts par can name: undoubled makes and doubled sacrifices. */
int
contract_score(const struct dl_contract *c, int vulnerable)
{
	int level = c->level, made = c->result >= 0;

	if (!made) {
		int down = -c->result;
		if (!c->doubled)
			return -(vulnerable ? 100 : 50) * down;
		/* doubled: vulnerable 200, then 300 a trick; not vulnerable 100,
		 * 200, 200, then 300 a trick */
		if (vulnerable)
			return -(200 + 300 * (down - 1));
		return -(down == 1 ? 100 : down == 2 ? 300 : 500 + 300 * (down - 3));
	}
	int per = c->strain <= 2 ? 30 : 20;	/* NT, spades, hearts: 30 */
	int trick_score = per * level + (c->strain == 0 ? 10 : 0);
	int mult = c->doubled ? 2 : 1;
	int score = trick_score * mult;
	score += score >= 100 ? (vulnerable ? 500 : 300) : 50;
	if (level == 6)
		score += vulnerable ? 750 : 500;
	if (level == 7)
		score += vulnerable ? 1500 : 1000;
	if (c->doubled)
		score += 50 + c->result * (vulnerable ? 200 : 100);
	else
		score += c->result * per;
	return score;
}

const char *
declarers_text(unsigned declarers)
{
	static const char *const names[16] = {
		"", "N", "E", "NE", "S", "NS", "ES", "NES",
		"W", "NW", "EW", "NEW", "SW", "NSW", "ESW", "NESW",
	};

	return names[declarers & 15];
}

const char *
contract_text(const struct dl_contract *c, char *buf, size_t size)
{
	static const char *const strains[DL_STRAINS] = { "NT", "S", "H", "D", "C" };

	if (c->result == 0)
		snprintf(buf, size, "%u%s%s", c->level, strains[c->strain], c->doubled ? "x" : "");
	else
		snprintf(buf, size, "%u%s%s%+d", c->level, strains[c->strain],
		    c->doubled ? "x" : "", c->result);
	return buf;
}

void
analysis_format(const struct dl_analysis *a, char *text)
{
	char *p = text;

	for (unsigned seat = 0; seat < 4; seat++)
		for (unsigned strain = 0; strain < DL_STRAINS; strain++)
			*p++ = "0123456789abcd"[a->tricks[seat][strain]];
	p += sprintf(p, " %d ", a->par_score);
	if (a->ncontracts == 0) {
		strcpy(p, "pass");
		return;
	}
	for (unsigned i = 0; i < a->ncontracts; i++) {
		const struct dl_contract *c = &a->contracts[i];
		p += sprintf(p, "%s%u%c%s-%s", i > 0 ? "," : "", c->level,
		    analysis_strain_letters[c->strain], c->doubled ? "x" : "",
		    declarers_text(c->declarers));
		if (c->result != 0)
			p += sprintf(p, "%+d", c->result);
	}
}

static const char *
parse_tricks(const char **pp, struct dl_analysis *a)
{
	const char *p = *pp;

	/* a digit's value is its place in this one string (two equal
	 * literals need not be one object) */
	static const char digits[] = "0123456789abcd";

	for (unsigned i = 0; i < ANALYSIS_TRICKS_HEX; i++, p++) {
		const char *digit = *p != '\0' ? strchr(digits, *p) : NULL;
		if (digit == NULL)
			return "analysis: not 20 trick counts (lowercase hex digits 0 to d)";
		a->tricks[i / DL_STRAINS][i % DL_STRAINS] = (unsigned char)(digit - digits);
	}
	if (*p != ' ')
		return "analysis: not 20 trick counts (lowercase hex digits 0 to d)";
	*pp = p + 1;
	return NULL;
}

static const char *
parse_score(const char **pp, int *score)
{
	const char *p = *pp;
	int negative = *p == '-', n = 0;

	if (negative)
		p++;
	if (*p < '0' || *p > '9' || (*p == '0' && p[1] >= '0' && p[1] <= '9'))
		return "analysis: the par score is not a number";
	for (; *p >= '0' && *p <= '9'; p++)
		if ((n = n * 10 + (*p - '0')) > 9999)
			return "analysis: the par score is out of range";
	if (*p != ' ' || (negative && n == 0))
		return "analysis: the par score is not a number";
	*score = negative ? -n : n;
	*pp = p + 1;
	return NULL;
}

/* "4Sx-EW-2": one contract, up to the comma or the end. */
static const char *
parse_contract(const char **pp, struct dl_contract *c)
{
	static const char *const seats[] = { "NS", "EW", "N", "E", "S", "W" };
	static const unsigned masks[] = { 5, 10, 1, 2, 4, 8 };
	static const char strains[] = "NSHDC";
	const char *p = *pp, *strain;
	size_t i;

	if (*p < '1' || *p > '7' || p[1] == '\0' || (strain = strchr(strains, p[1])) == NULL)
		return "analysis: a par contract is not LEVEL STRAIN (4S, 3N)";
	c->level = (unsigned char)(*p - '0');
	c->strain = (unsigned char)(strain - strains);
	p += 2;
	c->doubled = *p == 'x';
	p += c->doubled;
	if (*p++ != '-')
		return "analysis: a par contract has no declarers (4S-NS)";
	for (i = 0; i < sizeof seats / sizeof *seats; i++)
		if (strncmp(p, seats[i], strlen(seats[i])) == 0)
			break;
	if (i == sizeof seats / sizeof *seats)
		return "analysis: a par contract's declarers are not N, E, S, W, NS or EW";
	c->declarers = (unsigned char)masks[i];
	p += strlen(seats[i]);
	c->result = 0;
	if (*p == '+' || *p == '-') {
		int sign = *p == '-' ? -1 : 1, n = 0;
		if (*++p < '1' || *p > '9')
			return "analysis: a par contract's result is not +N or -N";
		for (; *p >= '0' && *p <= '9' && n < 100; p++)
			n = n * 10 + (*p - '0');
		int tricks = c->level + 6 + sign * n;
		if (tricks < 0 || tricks > 13)
			return "analysis: a par contract's result is out of range";
		c->result = (signed char)(sign * n);
	}
	if (*p != ',' && *p != '\0')
		return "analysis: garbage after a par contract";
	*pp = p;
	return NULL;
}

/* Whether declarers (a side's seats) are vulnerable. */
static int
side_vulnerable(unsigned declarers, unsigned vulnerability)
{
	int ns = (declarers & 5) != 0;

	return vulnerability == DL_VUL_ALL || (ns ? vulnerability == DL_VUL_NS :
	    vulnerability == DL_VUL_EW);
}

const char *
analysis_parse(const char *text, unsigned vulnerability, struct dl_analysis *a)
{
	const char *p = text, *why;

	memset(a, 0, sizeof *a);
	if ((why = parse_tricks(&p, a)) != NULL || (why = parse_score(&p, &a->par_score)) != NULL)
		return why;
	if (strcmp(p, "pass") == 0)
		return a->par_score == 0 ? NULL : "analysis: passed out, but a par score not 0";
	for (;;) {
		if (a->ncontracts == DL_PAR_CONTRACTS_MAX)
			return "analysis: more than 10 par contracts";
		struct dl_contract *c = &a->contracts[a->ncontracts++];
		if ((why = parse_contract(&p, c)) != NULL)
			return why;
		int score = contract_score(c, side_vulnerable(c->declarers, vulnerability));
		if ((c->declarers & 5) == 0)
			score = -score;
		if (score != a->par_score)
			return "analysis: a par contract does not score the par score";
		if (*p == '\0')
			return NULL;
		p++;
	}
}
