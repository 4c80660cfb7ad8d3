/* The hand records' layout options (layout.h). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "layout.h"
#include "tool.h"

void
layout_paper(const char *name)
{
	if (strcasecmp(name, "a4") != 0 && strcasecmp(name, "letter") != 0)
		tool_fail(DL_ERR_USAGE, "--paper %s: a4 or letter", name);
	if (setenv("PAPERSIZE", strcasecmp(name, "a4") == 0 ? "a4" : "letter", 1) == -1)
		tool_fail_sys("--paper");
}

void
layout_per_page(const char *value)
{
	if (strcmp(value, "6") != 0 && strcmp(value, "4") != 0 && strcmp(value, "1") != 0)
		tool_fail(DL_ERR_USAGE, "--per-page %s: must be 6, 4 or 1", value);
	if (setenv("DL_PER_PAGE", value, 1) == -1)
		tool_fail_sys("--per-page");
}
