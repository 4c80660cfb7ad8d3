/* Deal numbers: the 96-bit integers 0 <= g < D that name one deal each, and
 * Big Deal's mapping to and from deals (docs/bigdeal-compat.md section 4).
 *
 * Threads: every function may be called from several threads at once: the
 * tables (binomials, buckets, spread) and the choice of PDEP and PEXT are
 * made once, by whichever thread first needs them (pthread_once). */
#ifndef DL_DEALNUM_H
#define DL_DEALNUM_H

#include <stddef.h>
#include <stdint.h>

typedef unsigned __int128 u128;

#define DEAL_NUMBER_BYTES 12
#define DEAL_NUMBER_HEX 24
#define CARDS 52
#define HANDS 4
#define HAND_CARDS 13

/* D = C(52,13) * C(39,13) * C(26,13), the number of distinct deals. */
#define DEAL_COUNT (((u128)0xad55e315u << 64) | 0x634dda658bf49200u)

/* owner[c] is the hand (0 N, 1 E, 2 S, 3 W) holding card c, with cards in
 * the order AS KS ... 2S AH ... 2H AD ... 2D AC ... 2C.  number must be
 * below DEAL_COUNT (every reader of numbers refuses a larger one): on
 * x86-64 one larger than 2^64 C(39,13) C(26,13) would fault the
 * division. */
void deal_from_number(u128 number, unsigned char owner[CARDS]);
/* The same for count numbers, owner[i] the deal of numbers[i]; faster, as
 * two deals are unranked side by side. */
void deals_from_numbers(const u128 *numbers, size_t count, unsigned char (*owner)[CARDS]);
u128 number_from_deal(const unsigned char owner[CARDS]);

/* 1 when every owner is 0..3 and every hand holds 13 cards. */
int deal_is_complete(const unsigned char owner[CARDS]);

/* hand[h][i]: the cards of hand h in increasing card order, of a complete
 * deal (13 cards each, as deal_from_tso and the readers check); a hand of
 * fewer has card 63 for those it lacks, one of more its lowest 13. */
void deal_hands(const unsigned char owner[CARDS], unsigned char hand[HANDS][HAND_CARDS]);

/* The deal as PBN writes it from North: "N:" and four hands, suits by
 * dots (text holds at least PBN_DEAL_MAX bytes). */
#define PBN_DEAL_MAX (2 + CARDS + 4 * 3 + 3 + 1)
void deal_to_pbn(const unsigned char owner[CARDS], char *text);

/* A hand as PBN writes it, "AKQ2.JT9.876.54" (spades to clubs, T or 10
 * for the ten, a void empty), into a mask: bit c for card c.  -1 when it
 * is not 13 different cards. */
int hand_from_pbn(const char *text, uint64_t *hand);
/* A deal as PBN writes it, "N:" (or E:, S:, W:, its first hand's seat)
 * and four hands by spaces; a hand left out ("-") holds the cards the
 * others do not.  -1 when it is not a whole deal. */
int deal_from_pbn(const char *text, unsigned char owner[CARDS]);

u128 deal_number_from_bytes(const unsigned char bytes[DEAL_NUMBER_BYTES]);
void deal_number_to_bytes(u128 number, unsigned char bytes[DEAL_NUMBER_BYTES]);
/* Exactly 24 lowercase hex digits; 0 on success, -1 otherwise. */
int deal_number_from_hex(const char *hex, u128 *number);
void deal_number_to_hex(u128 number, char hex[DEAL_NUMBER_HEX + 1]);

uint64_t binomial(unsigned n, unsigned k);	/* n <= 52, k <= 13 */

/* High-card points of card c: A 4, K 3, Q 2, J 1. */
static inline unsigned
card_points(unsigned c)
{
	unsigned rank = c % 13;

	return rank < 4 ? 4 - rank : 0;
}

#endif
