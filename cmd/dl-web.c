/* dl-web: a session's deals and hand records from a browser, as Shufflix
 * gave them, as a CGI program (RFC 3875): one process a request, so that
 * a secret or a crash dies with its request.  GET gives the form; a POST
 * of it deals (lib/session/session.c, as dl-deal does) into a private directory,
 * records the set in the archive, and answers with the hand record and
 * one zip of everything (the formats, the PDF, the seed), or the zip
 * alone; a POST of a file checks it against the archive, or makes the
 * hand record of a set dealt elsewhere (a scoring program's PBN).
 * docs/web.md.  Its parts, a file a page as cgit is built: cmd/web/page.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <sodium.h>

#include "base/util.h"
#include "tool.h"
#include "web/page.h"
#include "web/web_config.h"

static void __attribute__((noreturn))
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: dl-web\n");
	exit(status);
}

/* A POST's actions, each a page of its own (cmd/web/page_*.c); the form
 * of a set to deal sends none.  step: what the request is at, for the
 * server's log. */
struct action {
	const char *name, *step;
	void (*page)(const struct cgi_form *form);
};

static const struct action actions[] = {
	{ "", "dealing the set", deal },
	{ "check", "the check of a file", check },
	{ "record", "a hand record of a file", record },
	{ "played", "a set marked played", played },
};

int
main(int argc, char *argv[])
{
	const char *method;
	struct cgi_form form = { 0 };
	int status;

	tool_start();
	tool_sodium_init();
	if (argc > 1) {
		if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
			usage(stdout, 0);
		usage(stderr, EXIT_TROUBLE);
	}
	if ((method = getenv("REQUEST_METHOD")) == NULL)
		tool_fail(DL_ERR_USAGE, "a CGI program: run by a web server (docs/web.md), or with"
		    " REQUEST_METHOD and the others set");
	umask(077);
	atexit(remove_workdir);
	/* the site's settings (/etc/dl/dl-web.conf), where the server's
	 * environment does not set them: before anything reads one */
	{
		struct dl_error e;

		if (web_config_load(&e) == -1) {
			tool_warn("the settings: %s", e.msg);
			refuse_logged(500, "Internal Server Error", "the server's settings",
			    "the server's settings could not be read: its administrator will"
			    " find why in the server's error log");
		}
	}
	/* a request whose client went away is not told so (the server tells
	 * a CGI nothing): its analysis, here or in dl-dd, which inherits the
	 * limit, ends after DL_WEB_CPU seconds of work all the same */
	{
		const char *cpu = getenv("DL_WEB_CPU"), *errstr = NULL;
		long long seconds = cpu != NULL ? strtonum(cpu, 1, 86400, &errstr) : 300;
		struct rlimit rl = { (rlim_t)(errstr == NULL ? seconds : 300),
		    (rlim_t)(errstr == NULL ? seconds : 300) + 5 };

		setrlimit(RLIMIT_CPU, &rl);
	}
	check_host();
	/* the responses kept for a press again (once.c) removed when old,
	 * by whatever request comes first */
	once_sweep();
	if (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0)
		form_page(strcmp(method, "HEAD") == 0);
	else if (strcmp(method, "POST") == 0) {
		size_t len;

		/* before a byte of the body is read, or anything dealt */
		check_same_origin();
		char *body = read_body(&len);
		struct dl_error e;

		status = cgi_parse_body(&form, getenv("CONTENT_TYPE"), body, len, &limits, &e);
		sodium_memzero(body, len);
		free(body);
		if (status != 0)
			refuse_at(status, "the form's body", &e);
		const char *action = text_field(&form, "action");
		const struct action *a = &actions[0];

		for (size_t i = 1; action != NULL && i < sizeof actions / sizeof actions[0]; i++)
			if (strcmp(action, actions[i].name) == 0)
				a = &actions[i];
		request_step = a->step;
		a->page(&form);
		cgi_form_free(&form);
	} else
		refuse_logged(405, "Method Not Allowed", "a method but GET, HEAD and POST",
		    "%s: this page takes GET and POST only", method);
	xfflush(stdout, "standard output");
	return 0;
}
