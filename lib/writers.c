#include <err.h>
#include <libgen.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "plugins.h"
#include "util.h"
#include "writers.h"

struct writer {
	struct loaded_plugin lp;
	struct dl_out out;
	FILE *fp;
	char *name;		/* for messages */
	struct outfile file;
	int crlf;
	void *state;
	char *failure;
};

struct writers {
	struct writer *w;
	size_t n;
	struct writers_options opt;
	struct dl_run run;
};

static void
sink_write(struct dl_out *out, const void *bytes, size_t len)
{
	struct writer *w = out->host;
	const char *p = bytes, *end = p + len, *nl;

	if (!w->crlf) {
		fwrite(bytes, 1, len, w->fp);
		return;
	}
	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		fwrite(p, 1, (size_t)(nl - p), w->fp);
		fwrite("\r\n", 1, 2, w->fp);
		p = nl + 1;
	}
	fwrite(p, 1, (size_t)(end - p), w->fp);
}

static void
sink_print(struct dl_out *out, const char *fmt, ...)
{
	char buf[1024], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof buf) {
		sink_write(out, buf, (size_t)n);
		return;
	}
	va_start(ap, fmt);
	n = vasprintf(&big, fmt, ap);
	va_end(ap);
	if (n < 0)
		err(2, "vasprintf");
	sink_write(out, big, (size_t)n);
	free(big);
}

static void
sink_fail(struct dl_out *out, const char *fmt, ...)
{
	struct writer *w = out->host;
	va_list ap;

	if (w->failure != NULL)
		return;
	va_start(ap, fmt);
	if (vasprintf(&w->failure, fmt, ap) == -1)
		err(2, "vasprintf");
	va_end(ap);
}

/* A plugin callback returned -1: nothing is published. */
static void
check_callback(struct writer *w, int status)
{
	if (status == 0 && w->failure == NULL)
		return;
	errx(1, "%s: %s", w->lp.plugin->name,
	    w->failure ? w->failure : "format writer failed");
}

static char *
output_path(const char *prefix, const char *suffix)
{
	char *path;

	if (asprintf(&path, "%s.%s", prefix, suffix) == -1)
		err(2, "asprintf");
	return path;
}

/* Loads the plugins of a format list into ws; NULL, or what is wrong. */
static char *
load_formats(struct writers *ws, const char *formats)
{
	char *list, *save = NULL, *why = NULL;

	if (*formats == '\0' || formats[strlen(formats) - 1] == ',' || strstr(formats, ",,")) {
		if (asprintf(&why, "bad format list \"%s\"", formats) == -1)
			err(2, "asprintf");
		return why;
	}
	list = xstrdup(formats);
	for (char *name = strtok_r(list, ",", &save); name != NULL && why == NULL;
	    name = strtok_r(NULL, ",", &save)) {
		ws->w = xreallocarray(ws->w, ws->n + 1, sizeof *ws->w);
		struct writer *w = &ws->w[ws->n];
		memset(w, 0, sizeof *w);
		if ((why = plugin_try_load(name, &w->lp)) != NULL)
			break;
		ws->n++;
		for (size_t i = 0; i + 1 < ws->n && why == NULL; i++)
			if (strcmp(ws->w[i].lp.plugin->suffix, w->lp.plugin->suffix) == 0 &&
			    asprintf(&why, "formats %s and %s both write .%s files",
			    ws->w[i].lp.plugin->name, name, w->lp.plugin->suffix) == -1)
				err(2, "asprintf");
	}
	free(list);
	return why;
}

static void
free_formats(struct writers *ws)
{
	for (size_t i = 0; i < ws->n; i++) {
		free(ws->w[i].name);
		plugin_unload(&ws->w[i].lp);
	}
	free(ws->w);
	free(ws);
}

char *
writers_check(const char *formats)
{
	struct writers *ws = xcalloc(1, sizeof *ws);
	char *why = load_formats(ws, formats);

	free_formats(ws);
	return why;
}

struct writers *
writers_open(const char *formats, const struct writers_options *opt)
{
	struct writers *ws = xcalloc(1, sizeof *ws);
	char *why;

	ws->opt = *opt;
	if ((why = load_formats(ws, formats)) != NULL)
		errx(2, "%s", why);
	if (opt->prefix == NULL && ws->n != 1)
		errx(2, "several formats need a file prefix (-p)");
	if (opt->prefix != NULL && *opt->prefix == '\0')
		errx(2, "empty file prefix");
	for (size_t i = 0; i < ws->n; i++) {
		struct writer *w = &ws->w[i];
		const struct dl_plugin *p = w->lp.plugin;
		w->crlf = opt->crlf && p->kind == DL_TEXT;
		w->out = (struct dl_out){ sink_write, sink_print, sink_fail, w };
		if (opt->prefix == NULL) {
			if (p->kind == DL_BINARY && isatty(STDOUT_FILENO))
				errx(2, "%s is a binary format: not writing it to a terminal",
				    p->name);
			w->name = xstrdup("standard output");
			continue;
		}
		w->name = output_path(opt->prefix, p->suffix);
		if (opt->publish == PUBLISH_NEW && access(w->name, F_OK) == 0)
			errx(1, "%s exists: refusing to overwrite deal files (use --force)",
			    w->name);
	}
	return ws;
}

void
writers_begin(struct writers *ws, unsigned low, unsigned high, const char *event,
    char *const *headers, size_t nheaders)
{
	ws->run = (struct dl_run){
		.low = low, .high = high, .nboards = high - low + 1,
		.event = event,
		.generator = ws->opt.generator ? ws->opt.generator : DL_VERSION_STRING,
		.headers = (const char *const *)headers, .nheaders = nheaders,
	};
	for (size_t i = 0; i < ws->n; i++) {
		const struct dl_plugin *p = ws->w[i].lp.plugin;
		if (p->max_board != 0 && high > p->max_board)
			errx(1, "format %s holds boards up to %u, not board %u: "
			    "no files written", p->name, p->max_board, high);
	}
	for (size_t i = 0; i < ws->n; i++) {
		struct writer *w = &ws->w[i];
		w->fp = ws->opt.prefix == NULL ? stdout :
		    outfile_create(&w->file, w->name, 0666);
		if (w->lp.plugin->begin != NULL)
			check_callback(w, w->lp.plugin->begin(&w->out, &ws->run, &w->state));
	}
}

void
writers_board(struct writers *ws, unsigned board, const unsigned char owner[CARDS])
{
	struct dl_deal deal;

	deal.board = board;
	memcpy(deal.owner, owner, CARDS);
	deal_hands(owner, deal.hand);
	deal_number_to_bytes(number_from_deal(owner), deal.number);
	for (size_t i = 0; i < ws->n; i++) {
		struct writer *w = &ws->w[i];
		if (w->lp.plugin->board != NULL)
			check_callback(w, w->lp.plugin->board(&w->out, &ws->run, &deal, w->state));
	}
}

void
writers_finish(struct writers *ws)
{
	for (size_t i = 0; i < ws->n; i++) {
		struct writer *w = &ws->w[i];
		if (w->lp.plugin->end != NULL)
			check_callback(w, w->lp.plugin->end(&w->out, &ws->run, w->state));
		if (ws->opt.prefix == NULL)
			xfflush(w->fp, w->name);
		else if (fflush(w->fp) == EOF || ferror(w->fp))
			err(1, "write error on %s", w->name);
	}
	for (size_t i = 0; i < ws->n; i++) {
		if (ws->opt.prefix == NULL)
			continue;
		outfile_publish(&ws->w[i].file, ws->opt.publish);
		if (ws->opt.report != NULL)
			fprintf(ws->opt.report, "%s\n", basename(ws->w[i].name));
	}
	free_formats(ws);
}
