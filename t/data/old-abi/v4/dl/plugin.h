/*
 * dl format plugins, writers and readers: the public ABI.  See dl-plugin(3)
 * and docs/plugins.md.
 *
 * A plugin is a shared object that exports one symbol,
 *
 *	const struct dl_plugin dl_plugin = { DL_PLUGIN_HEAD, ... };
 *
 * The host reads abi_version and struct_size first and refuses a plugin
 * built for another ABI.  Everything a writer needs arrives through the
 * callbacks; a plugin calls nothing in the host but the functions in the
 * struct dl_out it is given.
 */
#ifndef DL_PLUGIN_H
#define DL_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised on every change of the structures below.  Version 2 added
 * readers at the end of struct dl_plugin; version 3 the analysis of a
 * board and what a writer needs computed; version 4 each board's own
 * dealer and vulnerability, at the end of struct dl_deal (and struct
 * dl_run's own_dv), a writer's warnings (struct dl_out's warn), and the
 * first board's number for a reader (struct dl_in's first_board).  The host still loads plugins of versions 1 to 3:
 * it reads their struct_size, and what their structure has not, it takes
 * as NULL and 0. */
#define DL_PLUGIN_ABI_VERSION 4
#define DL_PLUGIN_SYMBOL "dl_plugin"

#define DL_CARDS 52
#define DL_HAND_CARDS 13
#define DL_DEAL_NUMBER_BYTES 12

enum dl_seat { DL_NORTH, DL_EAST, DL_SOUTH, DL_WEST };
/* The seats' letters, in enum dl_seat's order: "NESW"[DL_WEST] is 'W'. */
#define DL_SEAT_LETTERS "NESW"
enum dl_vulnerability { DL_VUL_NONE, DL_VUL_NS, DL_VUL_EW, DL_VUL_ALL };

/* One board.  Cards are numbered 0 = AS, 1 = KS, ... 12 = 2S, 13 = AH, ...
 * 51 = 2C; card c is of suit c / 13 (spades, hearts, diamonds, clubs) and
 * rank "AKQJT98765432"[c % 13]. */
struct dl_deal {
	unsigned board;				/* board number */
	unsigned char owner[DL_CARDS];		/* seat holding each card */
	unsigned char hand[4][DL_HAND_CARDS];	/* each seat's cards, increasing */
	/* Big Deal's number of this deal, most significant byte first: for
	 * a plugin of version 3 or later only when it needs
	 * DL_NEEDS_DEAL_NUMBER. */
	unsigned char number[DL_DEAL_NUMBER_BYTES];
	/* Version 3: the double-dummy analysis (dl-dd), or NULL. */
	const struct dl_analysis *analysis;
	/* Version 4: the board's dealer (enum dl_seat) and vulnerability
	 * (enum dl_vulnerability): its own when the stream gives boards
	 * theirs (a deals+dv stream, read from a file whose boards say
	 * them), else its number's, dl_dealer(board) and
	 * dl_vulnerability(board).  A writer that shows them takes them from
	 * here, and says so (DL_KEEPS_DEALER). */
	int dealer, vulnerability;
};

/* The double-dummy analysis of a board (dl-dd, docs/analysis.md).
 * Strains are numbered 0 = notrump, 1 = spades, 2 = hearts, 3 = diamonds,
 * 4 = clubs. */
#define DL_STRAINS 5
#define DL_PAR_CONTRACTS_MAX 10

struct dl_contract {
	unsigned char level;		/* 1..7 */
	unsigned char strain;		/* 0 NT, 1 S, 2 H, 3 D, 4 C */
	unsigned char doubled;		/* 1: a sacrifice, doubled */
	unsigned char declarers;	/* bit 1 << seat for each seat that can declare it */
	signed char result;		/* tricks over (+) or under (-) the level */
};

struct dl_analysis {
	/* tricks[declarer][strain]: what declarer takes, double dummy */
	unsigned char tricks[4][DL_STRAINS];
	int par_score;			/* North-South's par score; 0: passed out */
	unsigned ncontracts;		/* par contracts; 0 when passed out */
	struct dl_contract contracts[DL_PAR_CONTRACTS_MAX];
};

/* The run being written. */
struct dl_run {
	unsigned low, high;		/* first and last board number */
	unsigned nboards;		/* high - low + 1 */
	const char *event;		/* event description (#I:), or NULL */
	const char *generator;		/* e.g. "dl 0.1.0", for generator tags */
	const char *const *headers;	/* the stream's header lines ("#I: ..."), */
	size_t nheaders;		/*   #P: excepted */
	/* Version 3: 1 when every board comes with its analysis. */
	int analysed;
	/* Version 3, for end() only (NULL before), when the plugin needs
	 * DL_NEEDS_FINGERPRINT: the set's fingerprint, 16 hex digits of
	 * SHA-256 over its deals as .tso records ("BOARD DIGITS\n" each), for
	 * a printed sheet to be matched with its files. */
	const char *fingerprint;
	/* Version 3: where and when the event is played (#S:, #D:
	 * "YYYY.MM.DD"), or NULL. */
	const char *site, *date;
	/* Version 4: 1 when the boards have their own dealers and
	 * vulnerabilities (struct dl_deal's), not all their numbers'. */
	int own_dv;
};

/* Where a plugin writes.  The host checks every write, turns LF into CRLF
 * for text formats when asked, and publishes the file only when the whole
 * run succeeded: a plugin need not check anything it writes. */
struct dl_out {
	void (*write)(struct dl_out *out, const void *bytes, size_t len);
	void (*print)(struct dl_out *out, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
	/* Make the run fail with this message (e.g. out of memory). */
	void (*fail)(struct dl_out *out, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
	void *host;			/* the host's, not to be touched */
	/* Version 4: say something the user should know while the run goes
	 * on (a character no font draws): one line on the tool's standard
	 * error, after the format's name.  Say it once, not board by board;
	 * it may be called from the thread the writer runs on. */
	void (*warn)(struct dl_out *out, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
};

enum dl_kind { DL_TEXT, DL_BINARY };

/* Reading (ABI version 2).  Where a reader reads: the host buffers the
 * file, counts its lines for messages and checks every board a reader
 * returns (13 cards a hand, a board number in range).  A reader reads
 * either by lines or by bytes, not both. */
struct dl_in {
	/* The next line without its line end (LF, CR LF or a lone CR),
	 * NUL-terminated, and its length in *len; NULL at the end of the
	 * file or after a failure (a NUL byte, a line over 1 MiB, a read
	 * error).  Valid until the next call. */
	const char *(*line)(struct dl_in *in, size_t *len);
	/* Up to len bytes into buf: how many, 0 at the end (or after a
	 * failure).  Fewer than len only at the end. */
	size_t (*read)(struct dl_in *in, void *buf, size_t len);
	/* Make the read fail with this message; the host adds the file's
	 * name and the line (or byte offset) it has reached. */
	void (*fail)(struct dl_in *in, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
	/* One line of warning, named the same way; the read goes on. */
	void (*warn)(struct dl_in *in, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
	unsigned flags;			/* DL_IN_* below */
	void *host;			/* the host's, not to be touched */
	/* The board being read began on the line last returned.  Without
	 * it, a board begins on the first line with something on it since
	 * read_board was called; a reader that learns where a board begins
	 * only by reading into it from the board before (LIN) says so. */
	void (*board_begins)(struct dl_in *in);
	/* Version 4: the number the host gives the first board of this file
	 * that the file does not number (board 0 from read_board): 1, or
	 * where the user says the file starts (dl-read --first; dl-sqd
	 * verify: the session's first board), or the board after the boards
	 * of the files before.  Set before read_begin.  A reader whose file
	 * numbers no boards leaves the numbering to the host; it reads this
	 * when a deal is read by its number (Borel: the dealer's hand comes
	 * first), or when the file gives only part of the number (CDS's
	 * byte, modulo 256) or a number that may stand for none (DUP's
	 * lowest board, which Big Deal writes as 1 whatever the run). */
	unsigned first_board;
};

/* --partial: a board whose hands are not all known (a "-" hand, fewer
 * than 13 cards) is passed over with in->warn, instead of failing. */
#define DL_IN_PARTIAL 1u
/* A file must say one thing about each board.  Where it says two (two
 * different [Deal] tags in one PBN game, LIN's qx| and ah| numbering a
 * board differently), a reader reads one of them by its format's rule
 * and says so with in->warn, since another program may read the other;
 * under this flag the read fails instead (dl-sqd verify, dl-diff: a check
 * cannot pass on a file that can be read two ways).  A flag, not a
 * member: a reader that knows no such case ignores it, and no structure
 * changes. */
#define DL_IN_STRICT 2u
/* The host numbers the boards itself, 1, 2, ... as they come (dl-read
 * --renumber): a file's board numbers are labels.  A board given again
 * with the same label and the same deal is still the same board (another
 * table's), read once; with another deal it is another board (a file of
 * several sets numbered alike), returned with its number, not refused;
 * a label that is no board number ([Board "1-1"]) is returned as a board
 * the file does not number (0). */
#define DL_IN_RENUMBER 4u
/* The host could number the boards so (dl-read without --renumber): a
 * refusal that DL_IN_RENUMBER would lift may say "--renumber numbers the
 * boards 1, 2, ... as they come".  A host that has no such option (dl-sqd
 * verify, dl-diff) sets neither flag. */
#define DL_IN_OFFER_RENUMBER 8u

/* What a reader returns for one board.  The host clears it before each
 * call.  Text fields are NULL when the file does not say; they need not
 * be NUL-free UTF-8 (the host checks and escapes them) and stay valid
 * until the next read_board call. */
struct dl_board_in {
	unsigned board;			/* 0: the file numbers no boards */
	unsigned char owner[DL_CARDS];	/* seat (enum dl_seat) of each card */
	int dealer;			/* enum dl_seat, -1 when not given */
	int vulnerability;		/* enum dl_vulnerability, -1 when not given */
	const char *event, *site, *date;
	const char *players[4];		/* by enum dl_seat */
};

struct dl_plugin {
	uint32_t abi_version;		/* DL_PLUGIN_ABI_VERSION */
	uint32_t struct_size;		/* sizeof (struct dl_plugin) */
	const char *name;		/* "pbn": [a-z0-9_] only */
	const char *suffix;		/* file suffix without the dot: "pbn" */
	const char *description;	/* one line for dl-fmt --list */
	enum dl_kind kind;
	unsigned max_board;		/* highest board it can hold; 0: no limit */
	/* Each callback may be NULL.  *state starts NULL; begin may set it and
	 * end must free what begin allocated.  A callback returns 0, or -1
	 * after out->fail().  Once begin has returned 0, end is called
	 * exactly once, also when the run fails (bad input, another writer,
	 * this one): what it writes then is thrown away.  A begin that fails
	 * frees what it allocated itself. */
	int (*begin)(struct dl_out *out, const struct dl_run *run, void **state);
	int (*board)(struct dl_out *out, const struct dl_run *run,
	    const struct dl_deal *deal, void *state);
	int (*end)(struct dl_out *out, const struct dl_run *run, void *state);

	/* ABI version 2: reading.  A plugin without a reader leaves these
	 * NULL (0). */
	/* How sure the plugin is that a file beginning with these bytes (at
	 * most 4096 of them, fewer for a short file) is of its format: 0 not
	 * at all ... 100 certain.  The host asks the readers of the file's
	 * suffix, or when none has it every reader: the surest wins, ties
	 * going to the first by name (by content, only above 0).  Which
	 * plugins read, and their suffixes, the host learns without loading
	 * them from their directory's index where there is one
	 * (plugins.index, made by dl-read --index: docs/plugins.md, "The
	 * index"); a plugin no index names is loaded to be asked.  No
	 * structure changes for it: a plugin of any version is indexed. */
	int (*sniff)(const unsigned char *head, size_t len);
	/* As the writer callbacks: *state starts NULL, read_end frees what
	 * read_begin allocated, and runs after a failure too.  read_board
	 * returns 1 with *board filled, 0 at the end of the file, -1 after
	 * in->fail(). */
	int (*read_begin)(struct dl_in *in, void **state);
	int (*read_board)(struct dl_in *in, struct dl_board_in *board, void *state);
	void (*read_end)(struct dl_in *in, void *state);

	/* ABI version 3: what the host computes for the writer only when
	 * asked, since it costs (DL_NEEDS_* below). */
	unsigned needs;
};

/* Big Deal's number of each deal, in struct dl_deal's number: the goedel
 * format holds it.  Plugins of versions 1 and 2 get it always. */
#define DL_NEEDS_DEAL_NUMBER 1u
/* The set's fingerprint, in struct dl_run's fingerprint at end(): the
 * hand records print it.  A hash of every board: only on demand. */
#define DL_NEEDS_FINGERPRINT 2u
/* Not a need but a promise: the writer may run in a thread of the host's
 * beside the other writers of the run, since its callbacks share nothing
 * with other code (no static buffers of its own, no library calls that
 * keep state between calls, such as strtok or localtime).  The host
 * still calls a writer's callbacks one at a time and board after board,
 * though not always from the same thread.  A writer without it is called
 * from the thread that called begin, as before. */
#define DL_CONCURRENT 4u
/* What the host asks of a format before a run, so that no tool keeps a
 * list of formats of its own (bits a plugin of any version may leave 0):
 * past max_board, the format's board numbers wrap (CDS's byte, KOPS's
 * count); Big Deal writes such a file all the same, and so do its
 * drop-ins, while dl-fmt refuses the run. */
#define DL_WRAPS_PAST_MAX 8u
/* SquareDeal joins the files of consecutive sessions into one file of
 * this format (PBN, BRI, DGE, BER). */
#define DL_JOINABLE 16u
/* Version 4: the format writes each board's dealer and vulnerability, as
 * struct dl_deal gives them (PBN, LIN, CSV, the hand records).  When
 * boards have their own, the tools warn of every format of the run
 * without it: its file shows the numbers' dealers instead. */
#define DL_KEEPS_DEALER 32u

/* A version-1 plugin's structure: everything before the readers; a
 * version-2 plugin's: everything before needs. */
#define DL_PLUGIN_V1_SIZE offsetof(struct dl_plugin, sniff)
#define DL_PLUGIN_V2_SIZE offsetof(struct dl_plugin, needs)

#define DL_PLUGIN_HEAD DL_PLUGIN_ABI_VERSION, sizeof(struct dl_plugin)

/* Board conventions shared by every format. */
static inline enum dl_seat
dl_dealer(unsigned board)
{
	return (enum dl_seat)((board + 3) % 4);
}

static inline enum dl_vulnerability
dl_vulnerability(unsigned board)
{
	static const unsigned char cycle[16] = {
		DL_VUL_EW, DL_VUL_NONE, DL_VUL_NS, DL_VUL_EW,
		DL_VUL_ALL, DL_VUL_NS, DL_VUL_EW, DL_VUL_ALL,
		DL_VUL_NONE, DL_VUL_EW, DL_VUL_ALL, DL_VUL_NONE,
		DL_VUL_NS, DL_VUL_ALL, DL_VUL_NONE, DL_VUL_NS,
	};
	return (enum dl_vulnerability)cycle[board % 16];
}

static inline char
dl_rank_char(unsigned card)
{
	return "AKQJT98765432"[card % 13];
}

static inline unsigned
dl_suit(unsigned card)
{
	return card / 13;
}

#ifdef __cplusplus
}
#endif

#endif
