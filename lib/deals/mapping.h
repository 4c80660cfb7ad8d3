/* The mappings between deal numbers and deals (docs/mappings.md): Big
 * Deal's, the default, and Pavlicek's.  A deals stream names its mapping in
 * its #M: header.
 *
 * Threads: the mappings' functions and mapping_find may be called from
 * several threads at once: the mappings make their tables
 * once (dealnum.h, pavlicek.h).  mapping_names builds its text in a static
 * buffer on first use, unguarded: the main flow's, one thread at a time. */
#ifndef DL_MAPPING_H
#define DL_MAPPING_H

#include <stddef.h>

#include "deals/dealnum.h"
#include "base/error.h"

struct mapping {
	const char *name;
	void (*deal)(u128 number, unsigned char owner[CARDS]);
	u128 (*number)(const unsigned char owner[CARDS]);
	/* count deals at once, owner[i] numbers[i]'s: Big Deal's mapping
	 * unranks two side by side, faster than one after the other */
	void (*deals)(const u128 *numbers, size_t count, unsigned char (*owner)[CARDS]);
};

extern const struct mapping mappings[];	/* the first is the default */
extern const size_t nmappings;

/* NULL for an unknown name. */
const struct mapping *mapping_find(const char *name);
/* "bigdeal, pavlicek": for messages. */
const char *mapping_names(void);


#endif
