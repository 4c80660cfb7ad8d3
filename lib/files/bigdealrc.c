#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys/bigdeal.h"
#include "files/bigdealrc.h"
#include "base/lines.h"
#include "files/outfile.h"
#include "base/util.h"

static void
set_value(char **slot, const char *value)
{
	free(*slot);
	*slot = xstrdup(value);
}

/* rc emptied and the file open: NULL when there is none (rc->found 0:
 * not an error) or it cannot be read (rc->found 1, *e). */
static FILE *
open_rc(const char *path, struct bigdealrc *rc, struct dl_error *e)
{
	FILE *fp;

	memset(rc, 0, sizeof *rc);
	if ((fp = fopen(path, "r")) == NULL) {
		if (errno != ENOENT) {
			rc->found = 1;
			dl_error_sys(e, "%s", path);
		}
		return NULL;
	}
	rc->found = 1;
	return fp;
}

int
bigdealrc_read(const char *path, struct bigdealrc *rc, struct dl_error *e)
{
	struct line_reader r;
	FILE *fp;
	char *line;
	int got, status = 0;

	if ((fp = open_rc(path, rc, e)) == NULL)
		return rc->found ? -1 : 0;
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

/* Big Deal reads .bigdealrc with fgets into MESSLEN + LONGESTKEYWORD = 120
 * bytes (main.c): a piece of at most 119 bytes, through its LF. */
#define BIGDEAL_PIECE 119
#define BIGDEAL_HEADER "[BigDeal]"

/* The next piece as fgets reads it, its LF cut as Big Deal cuts it
 * (strchr: a NUL byte ends the text first, as it ends Big Deal's).  0 at
 * the end of the file; *more: the line goes on in the next piece. */
static int
read_piece(FILE *fp, char buf[BIGDEAL_PIECE + 1], int *more)
{
	size_t n = 0;
	int c = EOF;
	char *lf;

	while (n < BIGDEAL_PIECE && (c = getc(fp)) != EOF) {
		buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	buf[n] = '\0';
	*more = 0;
	/* a line of 119 bytes exactly: its LF, which Big Deal reads as an
	 * empty line and passes over, is taken with it */
	if (n == BIGDEAL_PIECE && c != '\n' && (c = getc(fp)) != EOF && c != '\n') {
		ungetc(c, fp);
		*more = 1;
	}
	if ((lf = strchr(buf, '\n')) != NULL)
		*lf = '\0';
	return n > 0;
}

/* One line (or piece of a line) as read_init_file takes it.  0 when
 * reading stops there; *key: the setting it set, or NULL. */
static int
take_line(const char *path, unsigned long lineno, char *line, struct bigdealrc *rc,
    const char **key, int *cr_said)
{
	char *eq, **slot = NULL;
	size_t len;

	*key = NULL;
	if (line[0] == '\0' || strcmp(line, BIGDEAL_HEADER) == 0)
		return 1;
	if (line[0] == '[') {
		/* Big Deal cuts the LF alone: the header of a CR LF file is
		 * "[BigDeal]\r", which is another section */
		if (strcmp(line, BIGDEAL_HEADER "\r") == 0)
			dl_warn(&rc->warnings, "%s:%lu: \"%s\" ends in CR LF (as a Windows "
			    "editor writes it): Big Deal takes it for another section and "
			    "stops reading, so %s", path, lineno, BIGDEAL_HEADER,
			    rc->formats || rc->askformats || rc->owner ? "nothing after it "
			    "is used" : "nothing in the file is used: the formats, "
			    "askformats and the owner are the defaults");
		return 0;
	}
	/* no comments in Big Deal: such a line has no = or no known key,
	 * and is ignored all the same */
	if (line[0] == '#' || line[0] == ';')
		return 1;
	if ((eq = strchr(line, '=')) == NULL) {
		dl_warn(&rc->warnings, "%s:%lu: not key=value: ignored", path, lineno);
		return 1;
	}
	*eq = '\0';
	if (strcmp(line, "formats") == 0)
		slot = &rc->formats;
	else if (strcmp(line, "askformats") == 0)
		slot = &rc->askformats;
	else if (strcmp(line, "owner") == 0)
		slot = &rc->owner;
	if (slot == NULL)
		return 1;
	set_value(slot, eq + 1);
	*key = line;
	len = strlen(eq + 1);
	if (len > 0 && eq[len] == '\r' && !*cr_said) {
		dl_warn(&rc->warnings, "%s:%lu: CR LF line end: Big Deal keeps the CR in "
		    "the value of %s (and of every such line)", path, lineno, line);
		*cr_said = 1;
	}
	return 1;
}

int
bigdealrc_read_bigdeal(const char *path, struct bigdealrc *rc, struct dl_error *e)
{
	char piece[BIGDEAL_PIECE + 1];
	unsigned long lineno = 1;
	int more, cr_said = 0, status = 0;
	const char *key;
	FILE *fp;

	if ((fp = open_rc(path, rc, e)) == NULL)
		return rc->found ? -1 : 0;
	while (read_piece(fp, piece, &more)) {
		int go_on = take_line(path, lineno, piece, rc, &key, &cr_said);
		if (more && go_on && key != NULL && strcmp(key, "owner") == 0)
			dl_warn(&rc->warnings, "%s:%lu: an owner of more than %d bytes: only "
			    "the first %d count, as in Big Deal, which reads the rest of the "
			    "line as a line of its own", path, lineno, BIGDEAL_OWNER_MAX,
			    BIGDEAL_OWNER_MAX);
		else if (more && go_on)
			dl_warn(&rc->warnings, "%s:%lu: a line of more than %d bytes: Big Deal "
			    "reads the rest of it as a line of its own", path, lineno,
			    BIGDEAL_PIECE);
		if (!go_on)
			break;
		lineno += !more;
	}
	if (ferror(fp)) {
		status = dl_error_sys(e, "%s", path);
		bigdealrc_free(rc);
	}
	fclose(fp);
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
