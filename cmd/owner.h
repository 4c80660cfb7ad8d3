/* Big Deal's owner identification as the tools take it: the hash Big
 * Deal makes of it (lib/keys/bigdeal.h), with the warnings a tool gives
 * where Big Deal would read it otherwise (docs/bigdeal-compat.md). */
#ifndef DL_OWNER_H
#define DL_OWNER_H

/* Big Deal's owner hash of an identification (NULL: the default), with
 * a warning when Big Deal would cut it. */
void owner_from_identification(const char *identification, unsigned char owner[20]);
/* The same for .bigdealrc's owner (NULL: the default).  Its owner= line
 * in CR LF: the reference keeps the CR (as_reference, the drop-ins), the
 * dl tools drop it with a warning. */
struct bigdealrc;
void owner_from_bigdealrc(const struct bigdealrc *rc, int as_reference,
    unsigned char owner[20]);

#endif
