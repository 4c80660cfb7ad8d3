/* Big Deal's owner identification as the tools take it (owner.h). */
#include <stdlib.h>

#include "keys/bigdeal.h"
#include "files/bigdealrc.h"
#include "owner.h"
#include "tool.h"
#include "base/util.h"

void
owner_from_identification(const char *identification, unsigned char owner[BIGDEAL_SECRET])
{
	if (bigdeal_owner_hash(identification, owner))
		tool_warn("the owner identification has more than %d bytes: only the first "
		    "%d count, as in Big Deal", BIGDEAL_OWNER_MAX, BIGDEAL_OWNER_MAX);
}

void
owner_from_bigdealrc(const struct bigdealrc *rc, int as_reference,
    unsigned char owner[BIGDEAL_SECRET])
{
	char *with_cr;

	if (!rc->owner_crlf) {
		owner_from_identification(rc->owner, owner);
		return;
	}
	if (!as_reference) {
		/* Big Deal keeps the CR, or, after a "[BigDeal]\r" header,
		 * reads nothing of the file: either way not this owner */
		tool_warn("%s has CR LF line ends: %s takes its owner without the CR, "
		    "where Big Deal (and dl-bigdealx) would not (docs/bigdeal-compat.md)",
		    BIGDEALRC, getprogname());
		owner_from_identification(rc->owner, owner);
		return;
	}
	with_cr = xasprintf("%s\r", rc->owner);
	owner_from_identification(with_cr, owner);
	free(with_cr);
}
