/* dl-web's settings file: web_config.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "web/web_config.h"

/* The environment variables dl-web reads that a site sets once: the
 * archives and the club, the names the site answers to, the limits, the
 * folders.  (Not the CGI's own variables, which are the request's, nor
 * those dl-web sets itself for each request: PAPERSIZE, DL_PER_PAGE.) */
const char *const web_config_keys[] = {
	"DL_ARCHIVE",
	"DL_ARCHIVE_WAIT",
	"DL_CLUB",
	"DL_PLUGIN_PATH",
	"DL_SHARED_ARCHIVE",
	"DL_WEB_CPU",
	"DL_WEB_HOSTS",
	"DL_WEB_LOCKS",
	"DL_WEB_PUBLIC_URL",
	"DL_WEB_PUBLISHED",
	"TMPDIR",
	NULL,
};

#define KEYS (sizeof web_config_keys / sizeof web_config_keys[0] - 1)

static int
key_index(const char *key, size_t len)
{
	for (size_t i = 0; i < KEYS; i++)
		if (strlen(web_config_keys[i]) == len && memcmp(web_config_keys[i], key, len) == 0)
			return (int)i;
	return -1;
}

static char *
known_keys(void)
{
	size_t n = 0;

	for (size_t i = 0; i < KEYS; i++)
		n += strlen(web_config_keys[i]) + 2;
	char *s = xmalloc(n + 1), *p = s;

	for (size_t i = 0; i < KEYS; i++)
		p += sprintf(p, "%s%s", i > 0 ? ", " : "", web_config_keys[i]);
	return s;
}

/* the file's text, checked to be root's or ours, not writable by another
 * user, not readable outside its group */
static char *
read_settings(const char *path, size_t *len, struct dl_error *e)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd == -1)
		return dl_error_sys(e, "%s", path), NULL;
	if (fstat(fd, &st) == -1) {
		dl_error_sys(e, "%s", path);
		close(fd);
		return NULL;
	}
	const char *wrong = !S_ISREG(st.st_mode) ? "not a file" :
	    st.st_uid != 0 && st.st_uid != geteuid() ? "not root's" :
	    st.st_mode & (S_IWGRP | S_IWOTH) ? "writable by other users than its owner" :
	    st.st_mode & S_IROTH ? "readable by every user (it may hold a password)" :
	    st.st_size > WEB_CONFIG_MAX ? "longer than 64 KiB" : NULL;
	if (wrong != NULL) {
		close(fd);
		dl_error_set(e, DL_ERR_INPUT, "%s: %s: make it root's, mode 0640, group the web"
		    " server's (chown root:www-data; chmod 0640)", path, wrong);
		return NULL;
	}
	char *text = xmalloc((size_t)st.st_size + 1);
	size_t got = 0;

	for (;;) {
		ssize_t r = read(fd, text + got, (size_t)st.st_size - got);

		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			dl_error_sys(e, "%s", path);
			close(fd);
			free(text);
			return NULL;
		}
		if (r == 0)
			break;
		got += (size_t)r;
		if (got == (size_t)st.st_size)
			break;
	}
	close(fd);
	text[got] = '\0';
	*len = got;
	return text;
}

int
web_config_load_file(const char *path, struct dl_error *e)
{
	size_t len, lineno = 0;
	char *text = read_settings(path, &len, e);
	/* each key's value in the file, and the line that gave it */
	char *value[KEYS] = { 0 };
	size_t given_at[KEYS] = { 0 };
	int r = -1;

	if (text == NULL)
		return -1;
	if (memchr(text, '\0', len) != NULL) {
		dl_error_set(e, DL_ERR_INPUT, "%s: a NUL byte: not a text file", path);
		goto out;
	}
	for (char *line = text, *next; line < text + len; line = next) {
		char *end = strchr(line, '\n');

		next = end != NULL ? end + 1 : text + len;
		if (end == NULL)
			end = text + len;
		lineno++;
		while (line < end && (*line == ' ' || *line == '\t'))
			line++;
		if (line == end || *line == '#')
			continue;
		/* KEY = VALUE, spaces around both ends of each */
		const char *key = line;
		size_t klen = strspn(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789_");
		char *p = line + klen;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (klen == 0 || klen > 64 || p == end || *p != '=') {
			dl_error_at(e, DL_ERR_INPUT, path, lineno, "not KEY = VALUE");
			goto out;
		}
		int k = key_index(key, klen);

		if (k == -1) {
			char *known = known_keys();

			dl_error_at(e, DL_ERR_INPUT, path, lineno, "unknown key \"%.*s\" (known: %s)",
			    (int)klen, key, known);
			free(known);
			goto out;
		}
		if (value[k] != NULL) {
			dl_error_at(e, DL_ERR_INPUT, path, lineno, "%s given twice (first at line %zu)",
			    web_config_keys[k], given_at[k]);
			goto out;
		}
		for (p++; p < end && (*p == ' ' || *p == '\t'); p++)
			;
		char *v_end = end;

		while (v_end > p && (v_end[-1] == ' ' || v_end[-1] == '\t' || v_end[-1] == '\r'))
			v_end--;
		if (v_end == p) {
			dl_error_at(e, DL_ERR_INPUT, path, lineno, "%s has no value (leave the line"
			    " out, or make it a comment)", web_config_keys[k]);
			goto out;
		}
		for (const char *c = p; c < v_end; c++)
			if ((unsigned char)*c < 0x20 && *c != '\t') {
				dl_error_at(e, DL_ERR_INPUT, path, lineno, "%s: a control character"
				    " in its value", web_config_keys[k]);
				goto out;
			}
		value[k] = xstrndup(p, (size_t)(v_end - p));
		given_at[k] = lineno;
	}
	/* the whole file was right: its keys the server did not set */
	for (size_t k = 0; k < KEYS; k++) {
		const char *env = getenv(web_config_keys[k]);

		if (value[k] != NULL && (env == NULL || *env == '\0') &&
		    setenv(web_config_keys[k], value[k], 1) == -1) {
			dl_error_sys(e, "%s: %s", path, web_config_keys[k]);
			goto out;
		}
	}
	r = 0;
out:
	for (size_t k = 0; k < KEYS; k++)
		if (value[k] != NULL) {
			explicit_bzero(value[k], strlen(value[k]));
			free(value[k]);
		}
	explicit_bzero(text, len);
	free(text);
	return r;
}

int
web_config_load(struct dl_error *e)
{
	const char *path = getenv("DL_WEB_CONFIG");

	if (path != NULL)
		return *path == '\0' ? 0 : web_config_load_file(path, e);
	if (access(WEB_CONFIG_PATH, F_OK) == -1 && errno == ENOENT)
		return 0;
	return web_config_load_file(WEB_CONFIG_PATH, e);
}
