/* Test helper: deliberately flawed dealers, which dl-stat must catch
 * (t/stat.bats, docs/statistics.md).  Each writes BOARDS deals as a deals
 * stream, from fixed seeds so that the tests are repeatable.
 *
 *   flawed NAME BOARDS
 *
 * rand-mod-52    swaps every card with a card at rand() % 52 (the naive
 *                shuffle), after srand() with a 32-bit seed
 * off-by-one     Fisher-Yates picking among the cards below i, not up to i
 * biased-card    North holds the ace of spades 27 % of the time, not 25 %
 * riffle         four riffle shuffles of a sorted deck, dealt round the table
 * no-yarborough  deals again while a hand has fewer than 3 points
 * no-freaks      deals again while a hand has a suit of 8 cards or more
 * rotate         2 % of the boards are the board before, turned one seat
 * mod-d          96 random bits reduced modulo D instead of drawn again
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "deals/dealnum.h"
#include "stream/tso.h"
#include "base/util.h"

/* A good random source for everything but the flaw itself: ChaCha20 key
 * stream from a fixed key. */
static unsigned char pool[4096];
static size_t pool_used = sizeof pool;
static uint64_t pool_block;

static uint32_t
random32(void)
{
	static const unsigned char key[crypto_stream_chacha20_KEYBYTES] = "dl-stat flawed dealers";
	unsigned char nonce[crypto_stream_chacha20_NONCEBYTES] = { 0 };
	uint32_t v;

	if (pool_used + sizeof v > sizeof pool) {
		memcpy(nonce, &pool_block, sizeof pool_block);
		pool_block++;
		crypto_stream_chacha20(pool, sizeof pool, nonce, key);
		pool_used = 0;
	}
	memcpy(&v, pool + pool_used, sizeof v);
	pool_used += sizeof v;
	return v;
}

/* Uniform in 0 .. n - 1, without modulo bias. */
static unsigned
uniform(unsigned n)
{
	uint32_t limit = UINT32_MAX - UINT32_MAX % n, v;

	while ((v = random32()) >= limit)
		;
	return v % n;
}

static void
swap(unsigned char *a, unsigned char *b)
{
	unsigned char t = *a;

	*a = *b;
	*b = t;
}

static void
sorted_deck(unsigned char deck[CARDS])
{
	for (unsigned c = 0; c < CARDS; c++)
		deck[c] = (unsigned char)c;
}

/* The first 13 cards of the deck to North, the next to East, ... */
static void
deal_in_blocks(const unsigned char deck[CARDS], unsigned char owner[CARDS])
{
	for (unsigned p = 0; p < CARDS; p++)
		owner[deck[p]] = (unsigned char)(p / HAND_CARDS);
}

static void
good_deal(unsigned char owner[CARDS])
{
	unsigned char deck[CARDS];

	sorted_deck(deck);
	for (unsigned i = CARDS - 1; i > 0; i--)
		swap(&deck[i], &deck[uniform(i + 1)]);
	deal_in_blocks(deck, owner);
}

static void
rand_mod_52(unsigned char owner[CARDS])
{
	static int seeded;
	unsigned char deck[CARDS];

	if (!seeded++)
		srand(20261122u);
	sorted_deck(deck);
	for (unsigned i = 0; i < CARDS; i++)
		swap(&deck[i], &deck[rand() % CARDS]);
	deal_in_blocks(deck, owner);
}

static void
off_by_one(unsigned char owner[CARDS])
{
	unsigned char deck[CARDS];

	sorted_deck(deck);
	for (unsigned i = CARDS - 1; i > 0; i--)
		swap(&deck[i], &deck[uniform(i)]);
	deal_in_blocks(deck, owner);
}

static void
biased_card(unsigned char owner[CARDS])
{
	/* 1/4 + 3/4 q = 0.27 */
	const uint32_t q = (uint32_t)(0.02 / 0.75 * 4294967296.0);

	good_deal(owner);
	if (owner[0] != 0 && random32() < q) {
		unsigned pick = uniform(HAND_CARDS), seen = 0;
		for (unsigned c = 0; c < CARDS; c++)
			if (owner[c] == 0 && seen++ == pick) {
				owner[c] = owner[0];
				owner[0] = 0;
				break;
			}
	}
}

/* Gilbert-Shannon-Reeds: cut binomially, then drop cards from either half
 * with probability proportional to its size. */
static void
riffle_once(unsigned char deck[CARDS])
{
	unsigned char out[CARDS];
	unsigned cut = 0, left, right, i = 0, j;

	for (unsigned c = 0; c < CARDS; c++)
		cut += random32() & 1;
	j = cut;
	for (unsigned k = 0; k < CARDS; k++) {
		left = cut - i;
		right = CARDS - j;
		if (uniform(left + right) < left)
			out[k] = deck[i++];
		else
			out[k] = deck[j++];
	}
	memcpy(deck, out, CARDS);
}

static void
riffle(unsigned char owner[CARDS])
{
	unsigned char deck[CARDS];

	sorted_deck(deck);
	for (unsigned r = 0; r < 4; r++)
		riffle_once(deck);
	for (unsigned p = 0; p < CARDS; p++)
		owner[deck[p]] = (unsigned char)(p % HANDS);
}

static unsigned
fewest_points(const unsigned char owner[CARDS])
{
	unsigned points[HANDS] = { 0 }, fewest = 40;

	for (unsigned c = 0; c < CARDS; c++)
		points[owner[c]] += card_points(c);
	for (unsigned h = 0; h < HANDS; h++)
		if (points[h] < fewest)
			fewest = points[h];
	return fewest;
}

static unsigned
longest_suit(const unsigned char owner[CARDS])
{
	unsigned length[HANDS][4] = { { 0 } }, longest = 0;

	for (unsigned c = 0; c < CARDS; c++)
		if (++length[owner[c]][c / 13] > longest)
			longest = length[owner[c]][c / 13];
	return longest;
}

static void
no_yarborough(unsigned char owner[CARDS])
{
	do
		good_deal(owner);
	while (fewest_points(owner) < 3);
}

static void
no_freaks(unsigned char owner[CARDS])
{
	do
		good_deal(owner);
	while (longest_suit(owner) >= 8);
}

static void
rotate(unsigned char owner[CARDS])
{
	static int dealt;

	if (dealt++ && uniform(50) == 0) {
		for (unsigned c = 0; c < CARDS; c++)
			owner[c] = (owner[c] + 1) & 3;
		return;
	}
	good_deal(owner);
}

static void
mod_d(unsigned char owner[CARDS])
{
	u128 number = 0;

	for (unsigned i = 0; i < 3; i++)
		number = number << 32 | random32();
	deal_from_number(number % DEAL_COUNT, owner);
}

static const struct flaw {
	const char *name;
	void (*deal)(unsigned char owner[CARDS]);
} flaws[] = {
	{ "rand-mod-52", rand_mod_52 },
	{ "off-by-one", off_by_one },
	{ "biased-card", biased_card },
	{ "riffle", riffle },
	{ "no-yarborough", no_yarborough },
	{ "no-freaks", no_freaks },
	{ "rotate", rotate },
	{ "mod-d", mod_d },
	{ "good", good_deal },
};

int
main(int argc, char *argv[])
{
	const struct flaw *f = NULL;
	unsigned char owner[CARDS];
	char tso[TSO_DIGITS + 1] = "";
	const char *why;
	long long boards;

	if (argc != 3)
		errx(2, "usage: flawed NAME BOARDS");
	for (size_t i = 0; i < sizeof flaws / sizeof flaws[0]; i++)
		if (strcmp(flaws[i].name, argv[1]) == 0)
			f = &flaws[i];
	if (f == NULL)
		errx(2, "%s: no such flaw", argv[1]);
	boards = strtonum(argv[2], 1, 100000000, &why);
	if (why != NULL)
		errx(2, "%s: %s", argv[2], why);
	if (sodium_init() < 0)
		errx(2, "cannot initialise libsodium");
	printf("#P: dl/1 deals\n#B: 1-%lld\n#M: bigdeal\n", boards);
	for (long long b = 1; b <= boards; b++) {
		f->deal(owner);
		deal_to_tso(owner, tso);
		printf("%lld %s\n", b, tso);
	}
	return 0;
}
