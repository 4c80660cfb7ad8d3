/* A set's hand record published after play, at a permanent address that
 * the hand record and the table cards print as a QR code when the set is
 * dealt (#U:), for the players' phones: ?record=TOKEN, TOKEN 32 hex
 * digits drawn at random for the set, so that the addresses of a club's
 * sets cannot be counted through.  Before the set is played the address
 * answers what it answers for no set at all; once it is marked played the
 * hand record (HTML and PDF, double dummy and par) is made from the
 * archive's deals and kept, made once.  The folder (DL_WEB_PUBLISHED,
 * else dl-web-published beside the archive: server_folder) holds, each
 * written whole under a temporary name then renamed:
 *   token-TOKEN          the set's number and digest, written when it is
 *                        dealt: a token names one set, even when the
 *                        archive is replaced and its numbers given again;
 *   set-N.token          its token, for the page that marks it played;
 *   record-TOKEN.html, .pdf  its hand record, once it is played.
 * docs/web.md, "After the session". */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "archive/deal_archive.h"
#include "files/format_list.h"
#include "session/session.h"
#include "session/set_input.h"
#include "base/util.h"
#include "tool.h"
#include "page.h"

static const char published_words[] = "the folder of the hand records published";

char *
published_folder(void)
{
	char *folder = server_folder(getenv("DL_WEB_PUBLISHED"), "DL_WEB_PUBLISHED",
	    "dl-web-published", published_words);

	server_folder_check(folder, published_words, "DL_WEB_PUBLISHED");
	return folder;
}

void
record_token_new(char token[RECORD_TOKEN_SIZE])
{
	unsigned char bytes[(RECORD_TOKEN_SIZE - 1) / 2];

	randombytes_buf(bytes, sizeof bytes);
	sodium_bin2hex(token, RECORD_TOKEN_SIZE, bytes, sizeof bytes);
}

int
record_token_is_valid(const char *s)
{
	return strlen(s) == RECORD_TOKEN_SIZE - 1 &&
	    strspn(s, "0123456789abcdef") == RECORD_TOKEN_SIZE - 1;
}

/* The page's public address: DL_WEB_PUBLIC_URL, else the request's own
 * (its scheme, its Host, which check_host took, and SCRIPT_NAME); NULL
 * when the request names no host. */
static char *
public_address(void)
{
	const char *url = getenv("DL_WEB_PUBLIC_URL"), *host = getenv("HTTP_HOST");
	const char *script = getenv("SCRIPT_NAME"), *https = getenv("HTTPS");

	/* the address's query is the token's alone */
	if (url != NULL && *url != '\0') {
		if (strpbrk(url, "?#") != NULL)
			refuse_logged(500, "Internal Server Error", "DL_WEB_PUBLIC_URL holds a query or"
			    " a fragment", "the page's public address (DL_WEB_PUBLIC_URL) holds a"
			    " query or a fragment ('?', '#'): the server's administrator must give"
			    " the page's address alone (docs/web.md)");
		return xstrdup(url);
	}
	if (host == NULL || *host == '\0')
		return NULL;
	return xasprintf("%s://%s%s", https != NULL && strcasecmp(https, "on") == 0 ? "https" :
	    "http", host, script != NULL && *script == '/' ? script : "/");
}

char *
record_address(const char *token)
{
	char *base = public_address(), *url;

	if (base == NULL)
		return NULL;
	url = xasprintf("%s?record=%s", base, token);
	free(base);
	return url;
}

/* A small file of the folder written whole: a temporary name, then the
 * rename; 0 or -1 (errno). */
static int
write_whole(const char *folder, const char *name, const char *text)
{
	char *tmp = xasprintf("%s/.%s.XXXXXX", folder, name), *path;
	int fd = mkstemp(tmp), r = -1;
	size_t len = strlen(text);

	if (fd == -1) {
		free(tmp);
		return -1;
	}
	path = xasprintf("%s/%s", folder, name);
	if (write(fd, text, len) == (ssize_t)len && fsync(fd) == 0 && close(fd) == 0) {
		fd = -1;
		r = rename(tmp, path);
	}
	if (fd != -1)
		close(fd);
	if (r == -1)
		unlink(tmp);
	free(tmp);
	free(path);
	return r;
}

/* A file of the folder read whole (at most a line), or NULL. */
static char *
read_small(const char *folder, const char *name)
{
	char *path = xasprintf("%s/%s", folder, name), line[160];
	FILE *fp = fopen(path, "r");
	char *text = NULL;

	free(path);
	if (fp == NULL)
		return NULL;
	if (fgets(line, sizeof line, fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		text = xstrdup(line);
	}
	fclose(fp);
	return text;
}

/* What token-TOKEN holds: the set's number and its digest in hex, so
 * that an address names the one set it was given to, even when the
 * archive is replaced and its numbers given to other sets. */
static char *
token_text(const struct archive_set *set)
{
	char hex[2 * SET_DIGEST_BYTES + 1];

	sodium_bin2hex(hex, sizeof hex, set->digest, SET_DIGEST_BYTES);
	return xasprintf("%lld %s\n", (long long)set->id, hex);
}

static void
token_keep(const char *token, const struct archive_set *set)
{
	char *folder = published_folder(), *name, *text;

	name = xasprintf("token-%s", token);
	text = token_text(set);
	if (write_whole(folder, name, text) == -1)
		refuse(500, "Internal Server Error", "the hand record's address could not be kept");
	free(name);
	free(text);
	name = xasprintf("set-%lld.token", (long long)set->id);
	text = xasprintf("%s\n", token);
	if (write_whole(folder, name, text) == -1)
		refuse(500, "Internal Server Error", "the hand record's address could not be kept");
	free(name);
	free(text);
	free(folder);
}

void
record_token_keep(const char *token, int64_t id)
{
	struct archive *a;
	struct archive_set set = { 0 };
	struct dl_error e;
	char *spec;

	if (archive_default(&spec, &e) == -1 || archive_open(&a, spec, 0, &e) == -1)
		refuse_error(500, &e);
	free(spec);
	if (archive_set_get(a, id, &set, &e) != 1)
		refuse(500, "Internal Server Error", "the set just dealt is not in the archive");
	token_keep(token, &set);
	archive_set_clear(&set);
	archive_close(a);
}

/* Whether token-TOKEN names this set of the archive: its number and its
 * digest both. */
static int
token_names(const char *token, const struct archive_set *set)
{
	char *folder = published_folder(), *name = xasprintf("token-%s", token);
	char *text = read_small(folder, name), *want = token_text(set);
	int same = text != NULL && strlen(text) + 1 == strlen(want) &&
	    strncmp(text, want, strlen(text)) == 0;

	free(want);
	free(text);
	free(name);
	free(folder);
	return same;
}

int
record_token_set(struct archive *a, const char *token, struct archive_set *set)
{
	char *folder = published_folder(), *name = xasprintf("token-%s", token);
	char *text = read_small(folder, name);
	const char *errstr = NULL;
	struct dl_error e;
	int64_t id = 0;
	int found = 0;

	if (text != NULL) {
		text[strcspn(text, " ")] = '\0';
		id = strtonum(text, 1, INT64_MAX, &errstr);
	}
	if (id != 0 && errstr == NULL) {
		switch (archive_set_get(a, id, set, &e)) {
		case -1:
			refuse_error(500, &e);
		case 1:
			found = token_names(token, set);
			if (!found)
				archive_set_clear(set);
		}
	}
	free(text);
	free(name);
	free(folder);
	return found;
}

char *
record_token_of_set(const struct archive_set *set)
{
	char *folder = published_folder(), *name = xasprintf("set-%lld.token", (long long)set->id);
	char *token = read_small(folder, name);

	if (token != NULL && (!record_token_is_valid(token) || !token_names(token, set))) {
		free(token);
		token = NULL;
	}
	/* a set dealt elsewhere (dl-deal) or before addresses were given,
	 * or in an archive since replaced: one now, which its hand record
	 * did not print */
	if (token == NULL) {
		token = xmalloc(RECORD_TOKEN_SIZE);
		record_token_new(token);
		token_keep(token, set);
	}
	free(name);
	free(folder);
	return token;
}

char *
published_file(const char *token, const char *suffix)
{
	char *folder = published_folder(), *path;

	path = xasprintf("%s/record-%s.%s", folder, token, suffix);
	free(folder);
	return path;
}

/* A board of the archive's set, with its own dealer and vulnerability. */
struct set_reading {
	const struct archive_set *set;
	struct set_boards *boards;
};

static int
take_board(unsigned board, const unsigned char owner[CARDS], void *arg)
{
	struct set_reading *r = arg;
	struct set_input in = { .arg = r->boards };
	struct dl_error e;
	int dealer, vulnerability;

	archive_set_board_dv(r->set, r->boards->n, board, &dealer, &vulnerability);
	return set_boards_take(&in, board, owner, dealer, vulnerability, &e);
}

/* The set's own lock in the folder, held while its hand record is made,
 * so that two requests for it (a player's phone asking again, two
 * players at once) make it once: the second waits for the first.  The
 * descriptor, or -1 when wait seconds passed. */
static int
lock_set(const char *token, unsigned wait)
{
	char *folder = published_folder(), *path;
	int fd;

	path = xasprintf("%s/record-%s.lock", folder, token);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd == -1)
		server_fault("a published hand record's lock cannot be opened", "%s: %s", path,
		    strerror(errno));
	for (unsigned tries = 0; flock(fd, LOCK_EX | LOCK_NB) == -1; tries++) {
		/* held by another request: waited for; any other failure is
		 * the server's */
		if (errno != EWOULDBLOCK)
			server_fault("a published hand record's lock cannot be taken", "%s: %s",
			    path, strerror(errno));
		if (tries >= 2 * wait) {
			close(fd);
			fd = -1;
			break;
		}
		usleep(500000);
	}
	free(path);
	free(folder);
	return fd;
}

int
publish_set(struct archive *a, const struct archive_set *set, const char *token, unsigned wait,
    const struct publish_watch *watch)
{
	char *html = published_file(token, "html");
	struct stat st;
	struct set_boards u = { 0 };
	struct set_reading r = { set, &u };
	struct format_list formats = { 0 };
	struct dl_error e;
	int lock;

	if (set->played[0] == '\0') {
		free(html);
		return 0;
	}
	/* made once: the hand record of a set played does not change */
	if (stat(html, &st) == 0) {
		free(html);
		return 1;
	}
	if ((lock = lock_set(token, wait)) == -1) {
		free(html);
		return -1;
	}
	/* made by the request this one waited for */
	if (stat(html, &st) == 0) {
		close(lock);
		free(html);
		return 1;
	}
	/* a hand record for the players is made once and kept: with the
	 * analysis, or not yet */
	if (!take_analysis_slot_waiting(wait)) {
		close(lock);
		free(html);
		return -1;
	}
	if (archive_set_boards(a, set, take_board, &r, &e) == -1)
		refuse_at(500, "the boards of a set played", &e);
	add_format(&formats, "pdf");
	add_format(&formats, "html");
	char *prefix = xasprintf("%.*s", (int)(strlen(html) - strlen(".html")), html);
	struct hand_record h = {
		.formats = &formats, .event = set->event, .site = set->site, .date = set->date,
		.analysis = 1, .analyser = &session_dl_dd, .boards = &u,
	};
	h.wo.prefix = prefix;
	/* under the set's lock: a PDF left by a request that ended between
	 * the two is replaced.  The PDF first, the HTML, whose presence says
	 * the record is made, last: the writers publish in the list's order */
	h.wo.publish = PUBLISH_REPLACE;
	h.wo.threads = 1;
	if (watch != NULL) {
		watch->begin(watch->arg, (unsigned long)u.n, u.n > 0 ? u.numbers[0] : 1);
		h.solved = watch->solved;
		h.solved_arg = watch->solved_arg;
	}
	if (session_hand_record(&h, &e) == -1)
		refuse_at(500, "the hand record of a set played", &e);
	close(lock);
	set_boards_free(&u);
	format_list_free(&formats);
	free(prefix);
	free(html);
	return 1;
}
