/* Big Deal's settings file .bigdealrc in the current directory: a
 * "[BigDeal]" line and key=value lines (docs/bigdeal-compat.md section 6). */
#ifndef DL_BIGDEALRC_H
#define DL_BIGDEALRC_H

#define BIGDEALRC ".bigdealrc"

struct bigdealrc {
	char *formats;		/* NULL when not set */
	char *askformats;
	char *owner;
};

/* 0 when read, -1 when there is no such file; exits on a malformed file. */
int bigdealrc_read(const char *path, struct bigdealrc *rc);
void bigdealrc_free(struct bigdealrc *rc);
/* Writes the three keys (NULL as empty), replacing the file atomically. */
void bigdealrc_write(const char *path, const struct bigdealrc *rc);

#endif
