/* dl-web's parts, as cgit is built: html.c (text, attributes, the page's
 * head and frame), request.c (what a request may be, its refusals, its
 * private folder, the analysis's slots), origin.c (who may ask, from
 * where), form.c (a table of each form's fields, which draws the form and
 * reads it, and its errors by field), files.c and zip.c (the
 * answer's files), upload.c (a file sent to be read), and a file a page:
 * once.c (the dealing form's one-time token: a second press harmless),
 * publish.c (a set's hand record published after play), page_form.c
 * (GET: the forms), page_published.c (GET ?record=: a hand record
 * published), page_deal.c, page_check.c, page_record.c, page_played.c
 * (each a POST's action).  cmd/dl-web.c reads the request
 * and hands it to its page.  docs/web.md. */
#ifndef DL_WEB_PAGE_H
#define DL_WEB_PAGE_H

#include <stdint.h>
#include <stdio.h>

#include "web/cgi.h"
#include "base/error.h"
#include "files/format_list.h"
#include "stream/proto.h"
#include "session/set_input.h"

/* A session, not a simulation: as dl-deal without --many. */
#define BOARDS_MAX 100
/* A request's body: the largest upload and the form around it. */
#define UPLOAD_MAX (10u << 20)
#define BODY_MAX (UPLOAD_MAX + (64u << 10))
#define PREFIX_MAX 64

/* html.c: text and attributes escaped, the response's head, a page's
 * frame */
void put_html(FILE *fp, const char *s);
void put_html_sentence(FILE *fp, const char *s);
void put_attr(FILE *fp, const char *name, const char *value);
void put_query_value(FILE *fp, const char *s);
void put_data_link(const char *type, const char *name, const void *data, size_t len);
void head(int status, const char *reason, const char *type, const char *extra);
void page_begin(const char *title);
void page_begin_in_body(const char *title);
void page_end(void);
void put_again_plain(void);

/* request.c: the request and its refusals */
extern const struct cgi_limits limits;
/* what the request is at, for the log of refuse_error: a literal */
extern const char *request_step;
void __attribute__((noreturn, format(printf, 4, 5)))
    refuse_logged(int status, const char *reason, const char *logged, const char *fmt, ...);
void __attribute__((noreturn, format(printf, 3, 4)))
    refuse(int status, const char *reason, const char *fmt, ...);
void __attribute__((noreturn, format(printf, 2, 3)))
    server_fault(const char *what, const char *cause_fmt, ...);
void __attribute__((noreturn)) refuse_at(int status, const char *what, const struct dl_error *e);
void __attribute__((noreturn)) refuse_error(int status, const struct dl_error *e);
const char *text_field(const struct cgi_form *form, const char *name);
char *read_body(size_t *len);
void make_workdir(void);
void remove_workdir(void);
char *work_file(const char *name);
char *read_work_file(const char *path, size_t *len);
char *server_folder(const char *env, const char *env_name, const char *name, const char *what);
void server_folder_check(const char *folder, const char *what, const char *env_name);
int take_analysis_slot(void);
int take_analysis_slot_waiting(unsigned seconds);
char *lock_folder(void);
/* a streamed page's head is out: a refusal ends it after tail */
void stream_begun(const char *tail);
int stream_is_begun(void);

/* progress.c: a page that streams its analysis's progress; put_solved
 * is a session's or hand record's solved, its argument a progress_page */
struct progress_page {
	unsigned low;		/* the first board */
	unsigned long shown;	/* the boards said solved */
};
void stream_top(const char *title, const char *doing, unsigned long boards);
void put_solved(void *arg, unsigned long done, unsigned long total);
void stream_done(const char *words, int hide);

/* once.c: the dealing form's one-time token, and a second press */
void put_once_field(const struct cgi_form *sent);
void once_sweep(void);
void once_begin(const struct cgi_form *form);
void once_dealt(long long set_id);
void once_end(void);

/* origin.c */
void check_host(void);
void check_same_origin(void);

/* form.c: what a club asks for in its own words (its dealing machine,
 * its scoring program, each the format it reads), and the dealing form's
 * table */
struct club_choice {
	const char *value;	/* the form's */
	const char *words;	/* the director's */
	const char *format;	/* the plugin's name; NULL: none */
};

/* Each form of the page is a table (struct form_table): one table draws
 * the form (put_form_page) and reads it (deal_value, choice_sent, each
 * page's checks), so that a field's name is written once.  An error is a
 * field's (struct form_errors), told by its index, never by its message's
 * words. */
enum field_kind {
	FIELD_TEXT,		/* a line of text */
	FIELD_DATE,		/* a date: the browser's calendar */
	FIELD_CHOICE,		/* one of a table of choices */
	FIELD_FORMATS,		/* the hand record's box, and "Every format" */
	FIELD_BOX,		/* a box ticked ("on") or not */
	FIELD_TEXTAREA,		/* lines of text */
	FIELD_FILE,		/* a file: a browser's, never filled again */
	FIELD_NUMBER,		/* a whole number */
};

enum {
	F_EVENT, F_SITE, F_DATE, F_SESSION, F_BOARDS, F_MACHINE, F_SCORING, F_FORMATS, F_DD,
	F_PAPER, F_PER_PAGE, F_PREFIX, F_ENTROPY, F_COUNT
};
/* the other forms': "Played before?" (action=check), "A hand record from
 * your scoring program's file" (action=record), "After the session"
 * (action=played) */
enum { C_FILE, C_COUNT };
enum { R_FILE, R_PAPER, R_PER_PAGE, R_DD, R_COUNT };
enum { P_SET, P_COUNT };
/* the most fields a form has: the dealing form's */
#define FORM_FIELDS_MAX ((int)F_COUNT)

struct form_field {
	const char *name;
	const char *label;	/* markup, a literal */
	enum field_kind kind;
	int limit;		/* bytes of a text (its maxlength); 0: none */
	const char *attrs;	/* the input's other attributes, a literal */
	const char *blank;	/* the blank form's value ("on": a box ticked) */
	const struct club_choice *choices;
	size_t n_choices;
	const char *what;	/* the field in a message, "the boards" */
	int again;		/* carried to "Deal another session" */
};

extern const struct form_field deal_fields[F_COUNT];

/* A form of the page: its fields, and what tells it apart from the
 * others on the one page. */
struct form_table {
	const struct form_field *fields;
	int n;
	const char *form;	/* its own requests' hidden form=..., a literal */
	const char *id_prefix;	/* before each field's name in its id: the
				 * page's ids once each ("record-paper") */
	const char *not_done;	/* the summary's first words: "Nothing was dealt" */
};

extern const struct form_table deal_form, check_form, record_form, played_form;

/* The fields of one form (table) refused, each once, in the order they
 * are read: a script is answered the first's line, the form itself with
 * each beside its field. */
struct form_errors {
	const struct form_table *table;
	size_t n;
	struct {
		int field;
		const char *logged;	/* for the server's log: a literal */
		char line[DL_ERROR_MAX];	/* the one line a script is answered */
		size_t words;		/* where the field's own words begin in it */
		int verbatim;		/* begins with a name sent (a file's): never
					 * given a capital */
	} e[FORM_FIELDS_MAX];
};

/* The formats a browser may choose: the plugins that write, each with
 * what it says it is (a plugin's words: escaped). */
struct writer_names {
	char names[64][32];
	char descriptions[64][96];
	size_t n;
};

const char *deal_value(const struct cgi_form *form, int f);
void __attribute__((format(printf, 5, 6)))
    field_error(struct form_errors *errs, int f, const char *logged, int named, const char *fmt, ...);
void __attribute__((format(printf, 4, 5)))
    file_error(struct form_errors *errs, int f, const char *logged, const char *fmt, ...);
const struct club_choice *choice_sent(const struct cgi_form *form, int f, const char *logged,
    const char *refused, struct form_errors *errs);
int format_sent(const struct cgi_form *sent, const char *name);
void collect_writers(struct writer_names *w);
void put_options(const struct form_field *d, const char *chosen);
void put_field(const struct form_table *t, int f, const struct cgi_form *sent,
    const struct form_errors *errs, const struct writer_names *w);
void put_field_id(const struct form_table *t, int f);
void put_error_line(const struct form_errors *errs, size_t i);
void put_again_link(const struct cgi_form *form);
void __attribute__((noreturn)) refuse_fields(int status, const char *reason,
    const struct cgi_form *form, const struct form_errors *errs, const char *heading);

/* files.c: the answer's files */
int prefix_is_valid(const char *p);
void file_name_of_event(const char *event, const char *date_pbn, char out[PREFIX_MAX + 1]);
void add_format(struct format_list *list, const char *name);
char *format_work_file(const char *format, const char *prefix, char **name);
void put_hand_record_page(const char *path, const char *label, void (*aside)(void *arg),
    void *arg, int streamed);

/* zip.c */
void *zip_files(char *const *paths, const char *const *names, size_t n, size_t *size);

/* upload.c: a file sent to be read, what it is for in the server's log
 * ("the file to check: not read"), each a literal */
struct upload_words {
	const char *none;		/* no file sent */
	const char *unknown;		/* not of a format dl reads */
	const char *unread;		/* its reader refused it */
};

char *read_upload(const struct cgi_form *form, struct form_errors *errs, int f,
    const struct upload_words *w, struct set_input *in, struct set_boards *u);

/* publish.c: a set's hand record published after play, at an address
 * its hand record prints (?record=TOKEN) */
#define RECORD_TOKEN_SIZE 33	/* 32 hex digits and the NUL */
struct archive;
struct archive_set;
char *published_folder(void);
void record_token_new(char token[RECORD_TOKEN_SIZE]);
int record_token_is_valid(const char *s);
char *record_address(const char *token);
void record_token_keep(const char *token, int64_t set);
int record_token_set(struct archive *a, const char *token, struct archive_set *set);
char *record_token_of_set(const struct archive_set *set);
char *published_file(const char *token, const char *suffix);
/* What a page that waits for a hand record to be made is told: begin
 * once its analysis is to run (so many boards, the first numbered low),
 * then solved(solved_arg, ...) as its boards are solved. */
struct publish_watch {
	void (*begin)(void *arg, unsigned long boards, unsigned low);
	void *arg;
	void (*solved)(void *arg, unsigned long done, unsigned long total);
	void *solved_arg;
};
int publish_set(struct archive *a, const struct archive_set *set, const char *token,
    unsigned wait, const struct publish_watch *watch);

/* The pages: page_form.c answers GET, the others a POST's action. */
void put_form_page(const struct cgi_form *sent, const struct form_errors *errs,
    const char *heading);
void form_page(int head_only);
void published_page(const struct cgi_form *query, int head_only);
void deal(const struct cgi_form *form);
void check(const struct cgi_form *form);
void record(const struct cgi_form *form);
void played(const struct cgi_form *form);

#endif
