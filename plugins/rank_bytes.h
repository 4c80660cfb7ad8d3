/* The 13-byte board of kops and cds: a byte per rank A..2, holding the
 * holder of that rank in each suit, two bits a suit, spades highest. */
#ifndef DL_PLUGINS_RANK_BYTES_H
#define DL_PLUGINS_RANK_BYTES_H

#include "dl/plugin.h"
#include "reading.h"

/* shift: added to every seat number, mod 4 (cds numbers the seats from
 * West: W = 0, N = 1, E = 2, S = 3). */
static inline void
rank_bytes(const struct dl_deal *deal, unsigned shift, unsigned char bytes[DL_HAND_CARDS])
{
	for (unsigned rank = 0; rank < DL_HAND_CARDS; rank++) {
		unsigned byte = 0;
		for (unsigned suit = 0; suit < 4; suit++) {
			unsigned seat = (deal->owner[suit * DL_HAND_CARDS + rank] + shift) % 4;
			byte |= seat << (2 * (3 - suit));
		}
		bytes[rank] = (unsigned char)byte;
	}
}

/* Reading: the inverse, each holder (seat + shift) mod 4 as written. */
static inline void
rank_bytes_read(const unsigned char bytes[DL_HAND_CARDS], unsigned shift,
    unsigned char owner[DL_CARDS])
{
	for (unsigned rank = 0; rank < DL_HAND_CARDS; rank++)
		for (unsigned suit = 0; suit < 4; suit++) {
			unsigned held = bytes[rank] >> (2 * (3 - suit)) & 3;
			owner[suit * DL_HAND_CARDS + rank] = (unsigned char)((held + 4 - shift) % 4);
		}
}

/* Sniffing: 13 bytes that give every seat 13 cards. */
static inline int
rank_bytes_look_right(const unsigned char bytes[DL_HAND_CARDS])
{
	unsigned char owner[DL_CARDS];

	rank_bytes_read(bytes, 0, owner);
	return thirteen_each(owner);
}

#endif
