/* A file sent to be read (a check, a hand record): kept in the private
 * folder under a name of the server's own and read by the code dl-archive
 * reads a file with. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "page.h"

/* A file that cannot be read: its reader's message, which names the file
 * by its own name (set_input's label, never the server's private path),
 * and no advice for a command line, as field f's error. */
static void
upload_refused(struct form_errors *errs, int f, const struct dl_error *e, const char *label,
    const struct upload_words *w)
{
	if (e->cause == DL_CAUSE_FORMAT_UNKNOWN)
		file_error(errs, f, w->unknown,
		    "%s: not a file of a format dl reads (PBN, LIN, DUP, BRI, DGE, ...)", label);
	else if (strstr(e->msg, label) == NULL)
		file_error(errs, f, w->unread, "%s: %s", label, e->msg);
	else
		file_error(errs, f, w->unread, "%s", e->msg);
}

/* The file uploaded in field f of errs's form ("file"), read as
 * dl-archive reads a file, by the same code (lib/session/set_input.c: a
 * dl stream with its headers, any other format through the reader
 * plugins), its boards into *u; NULL, and the field's error in errs (w's
 * words in the log), when there is none or it cannot be read, named by
 * the name it was uploaded with.  It is kept for the reading in the
 * private directory, under a name of the server's own (its suffix, if a
 * plain one, saying its format): that path, the caller's to free,
 * set_input_free(in) and set_boards_free(u) after. */
char *
read_upload(const struct cgi_form *form, struct form_errors *errs, int f,
    const struct upload_words *w, struct set_input *in, struct set_boards *u)
{
	const struct cgi_field *file = cgi_field(form, errs->table->fields[f].name);
	struct dl_error e;
	const char *dot;
	char *name;

	if (file == NULL || file->filename == NULL || file->len == 0) {
		field_error(errs, f, w->none, 0, "%s", w->none);
		return NULL;
	}
	make_workdir();
	dot = strrchr(file->filename, '.');
	if (dot != NULL && strlen(dot + 1) >= 1 && strlen(dot + 1) <= 8 &&
	    strspn(dot + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") ==
	    strlen(dot + 1))
		name = xasprintf("upload.%s", dot + 1);
	else
		name = xstrdup("upload");
	char *path = work_file(name);
	free(name);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd == -1 || write(fd, file->value, file->len) != (ssize_t)file->len || close(fd) != 0)
		refuse(500, "Internal Server Error", "the file could not be kept to be read");
	*in = (struct set_input){ .path = path, .shown = file->filename, .board = set_boards_take,
	    .arg = u };
	if (set_input_read(in, &e) == -1) {
		upload_refused(errs, f, &e, in->label, w);
		set_input_free(in);
		set_boards_free(u);
		free(path);
		return NULL;
	}
	return path;
}
