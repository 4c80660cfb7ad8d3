#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "page.h"

/* Who may ask, and from where.  A page of another site can have the
 * director's browser post a form here, with the director's credentials
 * (the set is dealt and recorded in the director's name, and the event's
 * count, the evidence against shopping, forged); a page that points a
 * name of its own at this server (DNS rebinding) can read what it
 * answers.  So the Host must be a name the site is set up for, and a post
 * must come from a page of this site by what the browser says of it
 * (Sec-Fetch-Site, Origin, Referer).  A request with none of those is no
 * browser's (curl, a script) and is taken.  docs/web.md, "Who may post,
 * from where". */

/* How many of the first len bytes of s are in set. */
static size_t
span(const char *s, size_t len, const char *set)
{
	size_t n = 0;

	while (n < len && s[n] != '\0' && strchr(set, s[n]) != NULL)
		n++;
	return n;
}

/* A host as a Host header or DL_WEB_HOSTS names it: a name, or an IPv6
 * address in brackets, and a port or none (-1). */
struct host {
	const char *name;
	size_t len;
	long port;
};

/* host[:port] in the len bytes of s; 0 when they are not one.  A trailing
 * dot names the same host: it is dropped. */
static int
host_parse(const char *s, size_t len, struct host *h)
{
	static const char name_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789-._";
	size_t n, digits;

	if (len > 0 && s[0] == '[') {
		n = 1 + span(s + 1, len - 1, "0123456789abcdefABCDEF:.");
		if (n == 1 || n == len || s[n] != ']')
			return 0;
		h->len = ++n;
	} else {
		n = span(s, len, name_chars);
		h->len = n > 1 && s[n - 1] == '.' ? n - 1 : n;
		if (n == 0 || h->len == 0)
			return 0;
	}
	h->name = s;
	h->port = -1;
	if (n == len)
		return 1;
	if (s[n] != ':')
		return 0;
	digits = span(s + n + 1, len - n - 1, "0123456789");
	if (digits == 0 || digits > 5 || n + 1 + digits != len)
		return 0;
	h->port = 0;
	for (size_t i = n + 1; i < len; i++)
		h->port = h->port * 10 + (s[i] - '0');
	return h->port <= 65535;
}

/* The Host one of the names the site is set up for (DL_WEB_HOSTS, else
 * the loopback's), on every request: else 421. */
void
check_host(void)
{
	const char *host = getenv("HTTP_HOST"), *list = getenv("DL_WEB_HOSTS");
	struct host h, want;
	int ok, found = 0;

	ok = host != NULL && host_parse(host, strlen(host), &h);
	if (list == NULL || list[strspn(list, " \t\n")] == '\0')
		list = "localhost 127.0.0.1 [::1]";
	for (const char *p = list + strspn(list, " \t\n"); *p != '\0';
	    p += strspn(p, " \t\n")) {
		size_t n = strcspn(p, " \t\n");

		if (!host_parse(p, n, &want))
			refuse_logged(500, "Internal Server Error", "DL_WEB_HOSTS: not a list of"
			    " host[:port]", "the server's list of its names (DL_WEB_HOSTS) cannot"
			    " be read: host names, each with :port or not, separated by spaces");
		if (ok && h.len == want.len && strncasecmp(h.name, want.name, h.len) == 0 &&
		    (want.port == -1 || want.port == h.port))
			found = 1;
		p += n;
	}
	/* no browser sends no Host: HTTP/1.0, a script, a test */
	if (host != NULL && !found)
		refuse_logged(421, "Misdirected Request", "a host name not in DL_WEB_HOSTS",
		    "a request for a host name this server does not answer to: it answers to"
		    " the names DL_WEB_HOSTS lists (localhost, 127.0.0.1 and [::1] unless it"
		    " is set), so that a page of another site cannot reach it under a name of"
		    " its own");
}

/* The host[:port] of an origin (whole: an Origin header) or of a URL
 * (a Referer), http or https; 0 when it has none. */
static int
origin_host(const char *url, int whole, const char **host, size_t *len)
{
	const char *rest;
	struct host h;
	size_t n;

	if (strncasecmp(url, "http://", 7) == 0)
		rest = url + 7;
	else if (strncasecmp(url, "https://", 8) == 0)
		rest = url + 8;
	else
		return 0;
	n = strcspn(rest, "/?#");
	if ((whole && rest[n] != '\0') || !host_parse(rest, n, &h))
		return 0;
	*host = rest;
	*len = n;
	return 1;
}

/* The request's own host and port: an origin's, as the Host says them.
 * The scheme is not compared: a proxy that ends TLS may stand between. */
static int
is_own_host(const char *host, size_t len)
{
	const char *own = getenv("HTTP_HOST");

	return own != NULL && strlen(own) == len && strncasecmp(own, host, len) == 0;
}

/* A post from a page of another site: 403, before the body is read. */
void
check_same_origin(void)
{
	const char *site = getenv("HTTP_SEC_FETCH_SITE"), *origin = getenv("HTTP_ORIGIN");
	const char *referer = getenv("HTTP_REFERER"), *host;
	size_t len;

	/* "none": the user's own navigation (typed, a bookmark) */
	if (site != NULL && strcmp(site, "same-origin") != 0 && strcmp(site, "none") != 0)
		refuse_logged(403, "Forbidden", "a form posted from another site (Sec-Fetch-Site)",
		    "a form posted from another site: the browser says it comes from a page of"
		    " another site (Sec-Fetch-Site). Deal from this server's own form.");
	if (origin != NULL) {
		/* "null": an origin the browser hides (a data: URL, a
		 * sandboxed frame, a redirect from another site) */
		if (!origin_host(origin, 1, &host, &len))
			refuse_logged(403, "Forbidden", "a form posted from another site (Origin"
			    " hidden or unreadable)", "a form posted from another site: its origin is"
			    " hidden (Origin: null) or cannot be read. Deal from this server's own"
			    " form.");
		if (!is_own_host(host, len))
			refuse_logged(403, "Forbidden", "a form posted from another site (Origin)",
			    "a form posted from another site: its origin is not this server"
			    " (Origin). Deal from this server's own form.");
	} else if (referer != NULL &&
	    (!origin_host(referer, 0, &host, &len) || !is_own_host(host, len)))
		refuse_logged(403, "Forbidden", "a form posted from another site (Referer)",
		    "a form posted from another site: the page it was posted from is not this"
		    " server's (Referer). Deal from this server's own form.");
}
