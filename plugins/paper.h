/* The page the hand records are laid out on, one rule for the html and
 * pdf writers.  The paper: US Letter when PAPERSIZE, or else the first
 * line of /etc/papersize that is no comment, says "letter" (libpaper's
 * convention); A4 otherwise.  dl-fmt --paper and dl-deal --paper set
 * PAPERSIZE for the run.  The boards a page: DL_PER_PAGE, which
 * dl-fmt --per-page and dl-deal --per-page set. */
#ifndef DL_PLUGINS_PAPER_H
#define DL_PLUGINS_PAPER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static inline int
paper_is_letter(void)
{
	const char *env = getenv("PAPERSIZE");
	char name[32] = "";
	FILE *fp;

	if (env != NULL && *env != '\0')
		snprintf(name, sizeof name, "%s", env);
	else if ((fp = fopen("/etc/papersize", "r")) != NULL) {
		while (fgets(name, sizeof name, fp) != NULL && name[0] == '#')
			;
		fclose(fp);
	}
	return strncasecmp(name, "letter", 6) == 0;
}

/* The boards a page: 4 (two by two) or 1 (for teaching) when
 * DL_PER_PAGE says so, else 6 (two columns of three), the layout a
 * variable unset or mistyped leaves as it was (the tools refuse another
 * value before they set it). */
static inline unsigned
boards_per_page(void)
{
	const char *env = getenv("DL_PER_PAGE");

	if (env != NULL && (strcmp(env, "4") == 0 || strcmp(env, "1") == 0))
		return (unsigned)(env[0] - '0');
	return 6;
}

#endif
