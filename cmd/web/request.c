/* A request: its body read to its length and no further, its refusals
 * (the page says why, the log what, never a value of the request), its
 * private folder, and the analysis's slots, one a core. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/deal_archive.h"
#include "base/cleanup.h"
#include "base/util.h"
#include "tool.h"
#include "page.h"

const struct cgi_limits limits = {
	.fields = 64, .name = 32, .value = 4096, .file = UPLOAD_MAX,
};

/* The private directory of this request, and what is in it. */
static char *workdir;

void
remove_workdir(void)
{
	if (workdir == NULL)
		return;
	/* every file in it was registered with cleanup_add_file */
	cleanup_now();
	rmdir(workdir);
}

/* What the request was at, for the log of refuse_error: a literal. */
const char *request_step = "the request";

/* Once a streamed page's head is out (stream_begun), a refusal can no
 * longer change the status: it ends the page with its line (after tail,
 * which closes what the page has open), and the process still ends by the
 * tools' one policy. */
static const char *streamed_tail;

void
stream_begun(const char *tail)
{
	streamed_tail = tail;
}

int
stream_is_begun(void)
{
	return streamed_tail != NULL;
}

/* A request that cannot be taken: a page that says why (the message, made
 * from fmt, which may quote what was sent, escaped), one line in the web
 * server's error log that says what was refused (logged: a literal, never
 * a value of the request: a field, a file's name or content, a header),
 * and the end. */
void __attribute__((noreturn, format(printf, 4, 5)))
refuse_logged(int status, const char *reason, const char *logged, const char *fmt, ...)
{
	char msg[DL_ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	tool_warn("%d %s: %s", status, reason, logged);
	if (streamed_tail != NULL) {
		printf("%s<p class=\"error\" role=\"alert\">Failed (%d %s): ", streamed_tail,
		    status, reason);
		put_html(stdout, msg);
		printf("</p>\n");
		put_again_plain();
		printf("</body>\n</html>\n");
		fflush(stdout);
		remove_workdir();
		exit(status >= 500 ? EXIT_TROUBLE : EXIT_REFUSED);
	}
	head(status, reason, "text/html; charset=utf-8",
	    status == 503 ? "Retry-After: 30\r\n" : status == 405 ? "Allow: GET, HEAD, POST\r\n" :
	    NULL);
	page_begin(reason);
	printf("<p>");
	put_html(stdout, msg);
	printf("</p>\n");
	page_end();
	fflush(stdout);
	remove_workdir();
	/* answered; the status says how, by the tools' one policy: a request
	 * refused is input refused, a server that could not serve it trouble */
	exit(status >= 500 ? EXIT_TROUBLE : EXIT_REFUSED);
}

/* As refuse_logged, with fmt itself for the log, each conversion in it
 * written "...": whatever its arguments hold, none of it reaches the log. */
void __attribute__((noreturn, format(printf, 3, 4)))
refuse(int status, const char *reason, const char *fmt, ...)
{
	char msg[DL_ERROR_MAX], logged[DL_ERROR_MAX];
	size_t n = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	for (const char *p = fmt; *p != '\0' && n + 4 < sizeof logged; p++) {
		if (*p != '%') {
			logged[n++] = *p;
			continue;
		}
		if (p[1] == '%') {
			logged[n++] = *++p;
			continue;
		}
		/* flags, width, precision, length, then the conversion */
		p += 1 + strspn(p + 1, "-+ #0123456789.*hlLqjzt");
		if (*p == '\0')
			break;
		memcpy(logged + n, "...", 3);
		n += 3;
	}
	logged[n] = '\0';
	refuse_logged(status, reason, logged, "%s", msg);
}

static const char *
reason_of(int status)
{
	return status == 400 ? "Bad Request" : status == 413 ? "Payload Too Large" :
	    status == 415 ? "Unsupported Media Type" : "Internal Server Error";
}

/* The server's own fault, not the request's (a folder of its, its
 * archive, a system call): 500, what failed and its cause (a path, a
 * host, the system's error: the server's, never the request's) in the
 * log, the page plain, with no path, host or port on it.  what: a
 * literal. */
void __attribute__((noreturn, format(printf, 2, 3)))
server_fault(const char *what, const char *cause_fmt, ...)
{
	char cause[DL_ERROR_MAX], logged[2 * DL_ERROR_MAX];
	va_list ap;

	va_start(ap, cause_fmt);
	vsnprintf(cause, sizeof cause, cause_fmt, ap);
	va_end(ap);
	snprintf(logged, sizeof logged, "%s: %s", what, cause);
	refuse_logged(500, "Internal Server Error", logged, "%s: the server's administrator will"
	    " find why in its error log", what);
}

/* An error's message on the page; the log told what failed (a literal).
 * A system's failure at 5xx (a file, the archive's database) is the
 * server's: its cause to the log, the page plain (server_fault); a file
 * of the private folder is named from the request (its event), so such
 * a cause is logged as the system's error alone. */
void __attribute__((noreturn))
refuse_at(int status, const char *what, const struct dl_error *e)
{
	if (status >= 500 && e->kind == DL_ERR_SYSTEM) {
		const char *base = workdir != NULL ? strrchr(workdir, '/') : NULL;
		char *failed = xasprintf("%s failed on the server", what);

		if (base != NULL && strstr(e->msg, base + 1) != NULL)
			server_fault(failed, "a file of the request's private folder: %s",
			    e->errnum != 0 ? strerror(e->errnum) : "not written");
		server_fault(failed, "%s", e->msg);
	}
	refuse_logged(status, reason_of(status), what, "%s", e->msg);
}

void __attribute__((noreturn))
refuse_error(int status, const struct dl_error *e)
{
	refuse_at(status, request_step, e);
}

/* A text field's value, or NULL when it is not sent or empty. */
const char *
text_field(const struct cgi_form *form, const char *name)
{
	const struct cgi_field *f = cgi_field(form, name);

	return f != NULL && f->filename == NULL && f->len > 0 ? f->value : NULL;
}

/* The body, as CONTENT_LENGTH says, never more than the limit. */
char *
read_body(size_t *len)
{
	const char *cl = getenv("CONTENT_LENGTH"), *errstr;
	long long n;
	char *body;
	size_t got = 0;

	if (cl == NULL || *cl == '\0')
		refuse(411, "Length Required", "a request without its length");
	n = strtonum(cl, 0, LLONG_MAX, &errstr);
	if (errstr != NULL)
		refuse_logged(400, "Bad Request", "its length is not a number",
		    "its length is not a number");
	if ((unsigned long long)n > BODY_MAX) {
		/* read and dropped, up to a bound, so that a server that hands
		 * the body on as it comes (fcgiwrap) can give the page, not a
		 * broken pipe */
		char sink[65536];
		unsigned long long left = (unsigned long long)n < (64ull << 20) ? (unsigned long long)n : 0;
		ssize_t r;

		while (left > 0 && ((r = read(STDIN_FILENO, sink, left < sizeof sink ? left :
		    sizeof sink)) > 0 || (r == -1 && errno == EINTR)))
			if (r > 0)
				left -= (unsigned long long)r;
		refuse(413, "Payload Too Large", "a request of %lld bytes: at most %u (a file of"
		    " %u MiB)", n, BODY_MAX, UPLOAD_MAX >> 20);
	}
	body = xmalloc((size_t)n + 1);
	while (got < (size_t)n) {
		ssize_t r = read(STDIN_FILENO, body + got, (size_t)n - got);

		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			refuse(400, "Bad Request", "a request shorter than its length");
		got += (size_t)r;
	}
	body[got] = '\0';
	*len = got;
	return body;
}

/* The private directory: mode 0700, removed at the end whatever the end. */
void
make_workdir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir;

	if (tmp == NULL || *tmp != '/')
		tmp = "/tmp";
	dir = xasprintf("%s/dl-web.XXXXXX", tmp);
	if (mkdtemp(dir) == NULL) {
		int errnum = errno;

		free(dir);
		server_fault("no private folder for the request", "TMPDIR %s: %s", tmp,
		    strerror(errnum));
	}
	workdir = dir;
	cleanup_add_dir(dir);
}

char *
work_file(const char *name)
{
	char *path = xasprintf("%s/%s", workdir, name);

	cleanup_add_file(path);
	return path;
}

/* A file of the private directory, whole, in memory (wiped by the
 * caller: a hand record holds the deals), with a NUL after it. */
char *
read_work_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	struct stat st;
	char *data;

	if (fp == NULL || fstat(fileno(fp), &st) == -1)
		refuse(500, "Internal Server Error", "a file of the answer is missing");
	data = xmalloc((size_t)st.st_size + 1);
	*len = fread(data, 1, (size_t)st.st_size, fp);
	if (ferror(fp) || *len != (size_t)st.st_size)
		refuse(500, "Internal Server Error", "a file of the answer could not be read");
	fclose(fp);
	data[*len] = '\0';
	return data;
}

/* A folder of the server's own, for state that outlives a request (the
 * analysis's lock files, the hand records published after play): env, the
 * value of the variable env_name that names it, else name beside the archive when it is a file (a
 * folder of the server user's own, made private as the archive makes it),
 * else in the user's state folder.  Never in a shared TMPDIR, where
 * another user could make it first.  what: the folder in messages. */
char *
server_folder(const char *env, const char *env_name, const char *name, const char *what)
{
	const char *state, *home;
	struct dl_error e;
	char *spec, *slash, *folder;

	if (env != NULL && *env == '/')
		return xstrdup(env);
	if (archive_default(&spec, &e) == 0) {
		if (strncmp(spec, "postgresql://", 13) != 0 && strncmp(spec, "postgres://", 11) != 0 &&
		    strncmp(spec, "pg:", 3) != 0) {
			slash = strrchr(spec, '/');
			folder = slash != NULL ? xasprintf("%.*s/%s", (int)(slash - spec), spec, name) :
			    xstrdup(name);
			free(spec);
			return folder;
		}
		free(spec);
	}
	if ((state = getenv("XDG_STATE_HOME")) != NULL && *state == '/')
		return xasprintf("%s/dl/%s", state, name);
	if ((home = getenv("HOME")) != NULL && *home == '/')
		return xasprintf("%s/.local/state/dl/%s", home, name);
	server_fault(xasprintf("%s has no place", what), "no %s, no archive file beside which to"
	    " make it, no XDG_STATE_HOME or HOME: set %s (docs/web.md)", env_name, env_name);
}

/* The folder made if need be, and checked to be the server user's alone.
 * A folder that cannot be made, or that is not the server user's own
 * (another user's, writable by others, a link) is the server's fault, a
 * 500 that says so: not a busy 503 that would last for ever.  what: the
 * folder in messages and the log, a literal; env_name: the variable that
 * names another. */
void
server_folder_check(const char *folder, const char *what, const char *env_name)
{
	struct dl_error e;
	struct stat st;

	if (make_private_parents(folder, &e) == -1)
		server_fault(xasprintf("%s cannot be made", what), "%s", e.msg);
	if (mkdir(folder, 0700) == -1 && errno != EEXIST)
		server_fault(xasprintf("%s cannot be made", what), "%s: %s", folder, strerror(errno));
	if (lstat(folder, &st) == -1)
		server_fault(xasprintf("%s cannot be read", what), "%s: %s", folder, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		server_fault(xasprintf("%s is not a folder", what), "%s is a link or a file: remove"
		    " it (docs/web.md)", folder);
	if (st.st_uid != geteuid())
		server_fault(xasprintf("%s is another user's", what), "%s is user %lu's, not the"
		    " server's (%lu): remove it, or set %s (docs/web.md)", folder,
		    (unsigned long)st.st_uid, (unsigned long)geteuid(), env_name);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		server_fault(xasprintf("%s is writable by others", what), "%s, mode %04o: make it"
		    " the server user's alone (docs/web.md)", folder, (unsigned)(st.st_mode & 07777));
}

/* The double-dummy analysis runs on as many requests at once as there are
 * cores: a slot is a lock on one of that many files in the lock folder
 * (DL_WEB_LOCKS, else dl-web-locks: server_folder).  A slot, or 0 when
 * every one is held and wait seconds have passed. */
static int analysis_slot = -1;

/* The lock folder, made when missing, and checked (server_folder_check):
 * the analysis's slots and the dealing form's one-time tokens (once.c)
 * lock their files there. */
char *
lock_folder(void)
{
	static const char what[] = "the analysis's lock folder";
	char *locks = server_folder(getenv("DL_WEB_LOCKS"), "DL_WEB_LOCKS", "dl-web-locks", what);

	server_folder_check(locks, what, "DL_WEB_LOCKS");
	return locks;
}

int
take_analysis_slot_waiting(unsigned wait)
{
	char *locks = lock_folder();
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	for (unsigned tries = 0; analysis_slot == -1; tries++) {
		for (long i = 0; i < (cores > 0 ? cores : 1); i++) {
			char *path = xasprintf("%s/slot%ld", locks, i);
			int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

			if (fd == -1)
				server_fault("the analysis's lock file cannot be opened", "%s: %s",
				    path, strerror(errno));
			if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
				free(path);
				analysis_slot = fd;	/* held until the process ends */
				break;
			}
			/* held by another request: the next; any other failure
			 * is the server's, never "every core is analysing" for
			 * ever */
			if (errno != EWOULDBLOCK)
				server_fault("the analysis's lock file cannot be locked", "%s: %s",
				    path, strerror(errno));
			free(path);
			close(fd);
		}
		/* a slot looked for twice a second */
		if (analysis_slot != -1 || tries >= 2 * wait)
			break;
		usleep(500000);
	}
	free(locks);
	return analysis_slot != -1;
}

/* A slot now, or 0: every core is analysing another request's boards. */
int
take_analysis_slot(void)
{
	return take_analysis_slot_waiting(0);
}
