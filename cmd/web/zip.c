/* The set's files zipped in memory (libarchive), for one download. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <archive.h>
#include <archive_entry.h>
#include <sodium.h>

#include "base/util.h"
#include "page.h"

/* The zip as libarchive writes it: a block that grows, wiped when it
 * moves (the seed is in it). */
struct zip_buffer {
	unsigned char *data;
	size_t len, cap;
};

static la_ssize_t
zip_append(struct archive *z, void *arg, const void *data, size_t len)
{
	struct zip_buffer *b = arg;

	(void)z;
	if (len > b->cap - b->len) {
		size_t cap = b->cap != 0 ? b->cap : 1u << 16;

		while (len > cap - b->len)
			cap *= 2;
		b->data = grow_wiped(b->data, b->len, b->cap, cap, 1);
		b->cap = cap;
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return (la_ssize_t)len;
}

/* The files of the set, zipped in memory (libarchive). */
void *
zip_files(char *const *paths, const char *const *names, size_t n, size_t *size)
{
	struct archive *z = archive_write_new();
	struct zip_buffer b = { NULL, 0, 0 };
	int ok = archive_write_set_format_zip(z) == ARCHIVE_OK &&
	    archive_write_open2(z, &b, NULL, zip_append, NULL, NULL) == ARCHIVE_OK;

	for (size_t i = 0; i < n && ok; i++) {
		struct archive_entry *entry = archive_entry_new();
		FILE *fp = fopen(paths[i], "r");
		char chunk[65536];
		size_t got;
		struct stat st;

		if (fp == NULL || fstat(fileno(fp), &st) == -1)
			ok = 0;
		else {
			archive_entry_set_pathname(entry, names[i]);
			archive_entry_set_size(entry, st.st_size);
			archive_entry_set_filetype(entry, AE_IFREG);
			archive_entry_set_perm(entry, 0600);
			archive_entry_set_mtime(entry, st.st_mtime, 0);
			ok = archive_write_header(z, entry) == ARCHIVE_OK;
			while (ok && (got = fread(chunk, 1, sizeof chunk, fp)) > 0)
				ok = archive_write_data(z, chunk, got) == (la_ssize_t)got;
			ok = ok && !ferror(fp);
			sodium_memzero(chunk, sizeof chunk);
		}
		if (fp != NULL)
			fclose(fp);
		archive_entry_free(entry);
	}
	if (ok)
		ok = archive_write_close(z) == ARCHIVE_OK;
	archive_write_free(z);
	if (!ok) {
		if (b.data != NULL)
			sodium_memzero(b.data, b.cap);
		free(b.data);
		refuse(500, "Internal Server Error", "the zip could not be made");
	}
	*size = b.len;
	return b.data;
}
