/* The paper the hand records are laid out for, one rule for the html and
 * pdf writers: US Letter when PAPERSIZE, or else the first line of
 * /etc/papersize that is no comment, says "letter" (libpaper's
 * convention); A4 otherwise.  dl-fmt --paper and dl-deal --paper set
 * PAPERSIZE for the run. */
#ifndef DL_PLUGINS_PAPER_H
#define DL_PLUGINS_PAPER_H

#include <stdio.h>
#include <stdlib.h>
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

#endif
