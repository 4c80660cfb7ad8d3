#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigdealrc.h"
#include "lines.h"
#include "outfile.h"
#include "util.h"

static void
set_value(char **slot, const char *value)
{
	free(*slot);
	*slot = xstrdup(value);
}

int
bigdealrc_read(const char *path, struct bigdealrc *rc, struct dl_error *e)
{
	struct line_reader r;
	FILE *fp;
	char *line;
	int got, status = 0;

	memset(rc, 0, sizeof *rc);
	if ((fp = fopen(path, "r")) == NULL) {
		if (errno == ENOENT)
			return 0;
		return dl_error_sys(e, "%s", path);
	}
	rc->found = 1;
	line_reader_open(&r, fp, path);
	while ((got = line_next(&r, &line, NULL, e)) == 1) {
		char *eq = strchr(line, '=');
		if (line[0] == '[') {
			/* Big Deal reads its own section only, and stops at another */
			if (strcmp(line, "[BigDeal]") != 0)
				break;
			continue;
		}
		if (line[0] == '\0' || line[0] == '#' || line[0] == ';')
			continue;
		if (eq == NULL) {
			dl_warn(&rc->warnings, "%s:%lu: not key=value: ignored", path, r.lineno);
			continue;
		}
		*eq = '\0';
		/* an owner is bytes to hash (Latin-1 ones too, as Big Deal
		 * takes them); the other values are names */
		if (strcmp(line, "owner") != 0 && !utf8_is_valid(eq + 1, strlen(eq + 1))) {
			got = line_error(&r, e, "value of %s is not valid UTF-8", line);
			break;
		}
		/* only the CR of a CRLF is a line end: an owner "x\r" would come
		 * back from bigdealrc_write as "x", and the deals with it */
		if (strchr(eq + 1, '\r') != NULL) {
			got = line_error(&r, e, "value of %s holds a stray CR", line);
			break;
		}
		if (strcmp(line, "formats") == 0)
			set_value(&rc->formats, eq + 1);
		else if (strcmp(line, "askformats") == 0)
			set_value(&rc->askformats, eq + 1);
		else if (strcmp(line, "owner") == 0) {
			set_value(&rc->owner, eq + 1);
			rc->owner_crlf = r.crlf;
		}
	}
	if (got == -1)
		status = -1;
	line_reader_close(&r);
	fclose(fp);
	if (status == -1)
		bigdealrc_free(rc);
	return status;
}

void
bigdealrc_free(struct bigdealrc *rc)
{
	free(rc->formats);
	free(rc->askformats);
	free(rc->owner);
	dl_warnings_free(&rc->warnings);
	memset(rc, 0, sizeof *rc);
}

int
bigdealrc_write(const char *path, const struct bigdealrc *rc, struct dl_error *e)
{
	struct outfile of;
	FILE *fp = outfile_create(&of, path, 0666, e);

	if (fp == NULL)
		return -1;
	fprintf(fp, "[BigDeal]\nformats=%s\naskformats=%s\nowner=%s\n",
	    rc->formats ? rc->formats : "", rc->askformats ? rc->askformats : "",
	    rc->owner ? rc->owner : "");
	return outfile_publish(&of, PUBLISH_REPLACE, NULL, e);
}
