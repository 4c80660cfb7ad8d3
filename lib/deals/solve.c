#include <dds/dll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "deals/analysis.h"
#include "deals/solve.h"
#include "base/util.h"

/* DDS's batch and its results: the deals, so in secret memory. */
struct solver {
	struct ddTableDeals deals;
	struct ddTablesRes results;
	struct allParResults pars;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
dds_failed(struct dl_error *e, const char *what, int code)
{
	char message[80];

	ErrorMessage(code, message);
	return dl_error_set(e, DL_ERR_SYSTEM, "DDS: %s: %s", what, message);
}

/* DDS's holding of a suit: bit 14 the ace ... bit 2 the two. */
static void
table_deal(const unsigned char owner[CARDS], struct ddTableDeal *deal)
{
	memset(deal, 0, sizeof *deal);
	for (unsigned c = 0; c < CARDS; c++)
		deal->cards[owner[c]][c / 13] |= 1u << (14 - c % 13);
}

/* DDS's vulnerability: 0 none, 1 both, 2 North-South, 3 East-West. */
static int
dds_vulnerable(int vulnerability)
{
	static const int by_ours[4] = { 0, 2, 3, 1 };

	return by_ours[vulnerability];
}

/* Par contracts from the lowest strain up (clubs first, notrump last),
 * then by level: the order Bridge Composer lists them in. */
static int
contract_order(const void *a, const void *b)
{
	const struct dl_contract *x = a, *y = b;

	if (x->strain != y->strain)
		return (int)y->strain - (int)x->strain;
	return (int)x->level - (int)y->level;
}

/* The par result DDS finds for the board's dealer and vulnerability, in
 * our terms, checked against the scoring table. */
static int
board_par(unsigned board, int dealer, int vulnerability, struct ddTableResults *table,
    struct dl_analysis *a, struct dl_error *e)
{
	static const unsigned char seats_mask[6] = { 1, 2, 4, 8, 5, 10 };
	struct parResultsMaster par;
	char text[ANALYSIS_TEXT_MAX];
	struct dl_analysis check;
	const char *why;
	int rc;

	if ((rc = DealerParBin(table, &par, dealer, dds_vulnerable(vulnerability))) !=
	    RETURN_NO_FAULT)
		return dds_failed(e, "par", rc);
	a->par_score = par.score;
	a->ncontracts = 0;
	if (par.score != 0)
		for (int i = 0; i < par.number && i < DL_PAR_CONTRACTS_MAX; i++) {
			const struct contractType *ct = &par.contracts[i];
			if (ct->seats < 0 || ct->seats > 5 || ct->denom < 0 || ct->denom > 4)
				return dl_error_set(e, DL_ERR_SYSTEM, "board %u: DDS's par names "
				    "seats %d, strain %d", board, ct->seats, ct->denom);
			struct dl_contract *c = &a->contracts[a->ncontracts++];
			c->level = (unsigned char)ct->level;
			c->strain = (unsigned char)ct->denom;	/* 0 NT, 1 S ... 4 C, as ours */
			c->doubled = ct->underTricks > 0;
			c->declarers = seats_mask[ct->seats];
			c->result = (signed char)(ct->overTricks - ct->underTricks);
		}
	qsort(a->contracts, a->ncontracts, sizeof *a->contracts, contract_order);
	analysis_format(a, text);
	if ((why = analysis_parse(text, (unsigned)vulnerability, &check)) != NULL)
		return dl_error_set(e, DL_ERR_SYSTEM, "board %u: DDS's par \"%s\" does not add "
		    "up: %s", board, text + ANALYSIS_TRICKS_HEX + 1, why);
	return 0;
}

struct solver *
solver_start(unsigned threads)
{
	SetMaxThreads((int)threads);
	return secret_alloc(sizeof(struct solver));
}

/* One CalcAllTables call, or with timed one CalcDDtable a deal (DDS then
 * runs a deal's strains in parallel, and each deal's time is known); then
 * par deal by deal. */
int
solver_solve(struct solver *s, size_t n, const unsigned board[],
    const unsigned char (*owner)[CARDS], const int dealer[], const int vulnerability[],
    struct dl_analysis analysis[], void (*timed)(void *ctx, unsigned board, double seconds),
    void *ctx, struct dl_error *e)
{
	int filter[DDS_STRAINS] = { 0 }, rc;

	s->deals.noOfTables = (int)n;
	for (size_t i = 0; i < n; i++)
		table_deal(owner[i], &s->deals.deals[i]);
	if (timed != NULL)
		for (size_t i = 0; i < n; i++) {
			double start = now();
			if ((rc = CalcDDtable(s->deals.deals[i], &s->results.results[i])) !=
			    RETURN_NO_FAULT)
				return dds_failed(e, "table", rc);
			timed(ctx, board[i], now() - start);
		}
	else if ((rc = CalcAllTables(&s->deals, -1, filter, &s->results, &s->pars)) !=
	    RETURN_NO_FAULT)
		return dds_failed(e, "tables", rc);
	for (size_t i = 0; i < n; i++) {
		struct ddTableResults *table = &s->results.results[i];
		/* DDS's strains run spades, hearts, diamonds, clubs, notrump */
		for (unsigned seat = 0; seat < 4; seat++)
			for (unsigned strain = 0; strain < DL_STRAINS; strain++)
				analysis[i].tricks[seat][(strain + 1) % DL_STRAINS] =
				    (unsigned char)table->resTable[strain][seat];
		if (board_par(board[i], dealer[i], vulnerability[i], table, &analysis[i], e) == -1)
			return -1;
	}
	return 0;
}

int
solver_solve_run(struct solver *s, unsigned first, size_t n,
    const unsigned char (*owner)[CARDS], const int own_dealer[], const int own_vulnerability[],
    struct dl_analysis analysis[],
    void (*done)(void *ctx, size_t boards), void *ctx, struct dl_error *e)
{
	unsigned board[SOLVE_BATCH];
	int dealer[SOLVE_BATCH], vulnerability[SOLVE_BATCH];

	for (size_t at = 0; at < n; at += SOLVE_BATCH) {
		size_t count = n - at < SOLVE_BATCH ? n - at : SOLVE_BATCH;
		for (size_t i = 0; i < count; i++) {
			board[i] = first + (unsigned)(at + i);
			dealer[i] = own_dealer != NULL && own_dealer[at + i] != -1 ?
			    own_dealer[at + i] : (int)dl_dealer(board[i]);
			vulnerability[i] = own_vulnerability != NULL &&
			    own_vulnerability[at + i] != -1 ? own_vulnerability[at + i] :
			    (int)dl_vulnerability(board[i]);
		}
		if (solver_solve(s, count, board, owner + at, dealer, vulnerability,
		    analysis + at, NULL, NULL, e) == -1)
			return -1;
		if (done != NULL)
			done(ctx, at + count);
	}
	return 0;
}

void
solver_name(char *buf, size_t size)
{
	struct DDSInfo info;

	GetDDSInfo(&info);
	snprintf(buf, size, "dds %d.%d.%d", info.major, info.minor, info.patch);
}

void
solver_free(struct solver *s)
{
	secret_free(s);
	FreeMemory();
}
