/* A set read from one file of any format (set_input.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "stream/proto.h"
#include "session/set_input.h"
#include "stream/tso.h"
#include "base/util.h"

static char *
dup_or_null(const char *s)
{
	return s == NULL ? NULL : xstrdup(s);
}

/* A dl stream, with every header it carries. */
static int
read_stream(struct set_input *in, FILE *fp, struct dl_error *e)
{
	struct stream_in s;
	char *const *headers;
	size_t nheaders, len;
	char *line;
	int got;

	if (stream_open_deals(&s, fp, STREAM_TAKES_ANALYSED | STREAM_TAKES_OWN_DV, e) == -1)
		return -1;
	in->set.event = dup_or_null(stream_header(&s, 'I'));
	in->set.site = dup_or_null(stream_header(&s, 'S'));
	in->set.date = dup_or_null(stream_header(&s, 'D'));
	in->set.generator = dup_or_null(stream_header(&s, 'G'));
	headers = stream_headers(&s, &nheaders);
	in->set.headers = archive_headers_text(headers, nheaders);
	while ((got = stream_next_record(&s, &line, &len, e)) == 1) {
		unsigned board;
		unsigned char owner[CARDS];
		int dealer, vulnerability;

		if (record_deal(&s, line, len, &board, owner, e) == -1)
			break;
		stream_board_dv(&s, &dealer, &vulnerability);
		in->boards++;
		if (in->board(in, board, owner, dealer, vulnerability, e) == -1)
			break;
	}
	if (got == 0 && stream_check_complete(&s, e) == -1)
		got = -1;
	stream_close(&s);
	return got == 0 ? 0 : -1;
}

/* A file of another format, through the reader plugins. */
static int
read_file(struct set_input *in, const char *path, struct dl_error *e)
{
	struct deal_reader *r;
	struct dl_board_in b;
	int got;

	if (reader_open(&r, path, &in->reader, e) == -1)
		return -1;
	while ((got = reader_next(r, &b, e)) == 1) {
		if (in->set.event == NULL && b.event != NULL)
			in->set.event = xstrdup(b.event);
		if (in->set.site == NULL && b.site != NULL)
			in->set.site = xstrdup(b.site);
		if (in->set.date == NULL && b.date != NULL)
			in->set.date = xstrdup(b.date);
		in->boards++;
		if (in->board(in, b.board, b.owner, b.dealer, b.vulnerability, e) == -1) {
			got = -1;
			break;
		}
	}
	reader_close(r);
	return got;
}

/* Standard input, a pipe or a terminal is read whole into memory: a
 * descriptor of a memory file, or -1. */
static int
to_memory(int from, const char *label, struct dl_error *e)
{
	char buf[65536];
	ssize_t got;
	int fd = memfd_create("dl set input", MFD_CLOEXEC);

	if (fd == -1)
		return dl_error_sys(e, "%s", label);
	while ((got = read(from, buf, sizeof buf)) != 0) {
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1 || write(fd, buf, (size_t)got) != got) {
			dl_error_sys(e, "%s", label);
			close(fd);
			return -1;
		}
	}
	sodium_memzero(buf, sizeof buf);
	return fd;
}

/* A message that names the file by the path it was read from names it by
 * its label instead (a memory file's /proc path, a private path). */
static void
name_by_label(struct dl_error *e, const char *read_path, const char *label)
{
	char *at = strstr(e->msg, read_path);
	char msg[sizeof e->msg];

	if (at == NULL || strcmp(read_path, label) == 0)
		return;
	snprintf(msg, sizeof msg, "%.*s%s%s", (int)(at - e->msg), e->msg, label,
	    at + strlen(read_path));
	memcpy(e->msg, msg, sizeof e->msg);
}

int
set_input_read(struct set_input *in, struct dl_error *e)
{
	char head[8] = "", path[64];
	const char *name = in->path;
	int from_stdin = in->path == NULL || strcmp(in->path, "-") == 0;
	FILE *fp;
	int fd = -1, r;
	size_t got;
	struct stat st;

	if (in->shown != NULL)
		in->label = text_escaped(in->shown);
	else if (from_stdin)
		in->label = xstrdup("standard input");
	else
		in->label = text_escaped(in->path);
	if (from_stdin) {
		if ((fd = to_memory(STDIN_FILENO, in->label, e)) == -1)
			return -1;
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		name = path;
	} else if (stat(in->path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		/* a pipe (<(...), a FIFO) can be read once: into memory first */
		int source = open(in->path, O_RDONLY | O_CLOEXEC);

		if (source == -1)
			return dl_error_sys(e, "%s", in->label);
		fd = to_memory(source, in->label, e);
		close(source);
		if (fd == -1)
			return -1;
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		name = path;
	}
	in->set.source = xstrdup(in->shown != NULL ? in->shown :
	    from_stdin ? "standard input" : in->path);
	if ((fp = fopen(name, "r")) == NULL) {
		r = dl_error_sys(e, "%s", in->label);
		goto out;
	}
	got = fread(head, 1, sizeof head - 1, fp);
	head[got] = '\0';
	if (strncmp(head, "#P: dl/", 7) == 0 && in->reader.format == NULL) {
		rewind(fp);
		r = read_stream(in, fp, e);
		/* standard input's lines are "line N", as every tool says them */
		if (r == -1 && !from_stdin)
			dl_error_prefix(e, "%s", in->label);
		fclose(fp);
	} else {
		fclose(fp);
		r = read_file(in, name, e);
		if (r == -1 && (fd != -1 || in->shown != NULL))
			name_by_label(e, name, in->label);
	}
	/* an empty file, or a header with no boards (a file cut short),
	 * is no set: a check of it must not read as "never played" */
	if (r == 0 && in->boards == 0)
		r = dl_error_set(e, DL_ERR_INPUT, "%s: no boards in it", in->label);
out:
	if (fd != -1)
		close(fd);
	return r;
}

int
set_boards_take(struct set_input *in, unsigned board, const unsigned char owner[CARDS],
    int dealer, int vulnerability, struct dl_error *e)
{
	struct set_boards *b = in->arg;

	(void)e;
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;

		/* the deals of a set perhaps not yet played: the old block
		 * wiped */
		b->owner = grow_wiped(b->owner, b->n, b->cap, cap, sizeof *b->owner);
		b->numbers = xreallocarray(b->numbers, cap, sizeof *b->numbers);
		b->dealer = xreallocarray(b->dealer, cap, sizeof *b->dealer);
		b->vulnerability = xreallocarray(b->vulnerability, cap, sizeof *b->vulnerability);
		b->cap = cap;
	}
	memcpy(b->owner[b->n], owner, CARDS);
	/* a match is of the deal alone; a hand record shows them */
	b->dealer[b->n] = dealer;
	b->vulnerability[b->n] = vulnerability;
	b->numbers[b->n++] = board;
	return 0;
}

void
set_boards_free(struct set_boards *b)
{
	if (b->owner != NULL)
		sodium_memzero(b->owner, b->cap * sizeof *b->owner);
	free(b->owner);
	free(b->numbers);
	free(b->dealer);
	free(b->vulnerability);
	b->owner = NULL;
	b->numbers = NULL;
	b->dealer = b->vulnerability = NULL;
	b->n = b->cap = 0;
}

void
set_input_free(struct set_input *in)
{
	archive_set_clear(&in->set);
	free(in->label);
	in->label = NULL;
}
