#!/bin/sh
# make stat-long: dl-stat's battery on 10 million boards of each generator,
# dealt by the real tools from fixed seeds, so that anyone can repeat the
# run and get the figures of docs/statistics.md.
set -eu
build=$1
PATH="$build/bin:$PATH"
BOARDS=${BOARDS:-10000000}

bigdeal_seed() {
	# the secret and owner of the first 4000 x 40 run (t/helpers/runs.c)
	printf '#P: dl/1 seed\nbigdeal %s %s\n' \
	    aa0482a290a53644709775b54abaf5d8c9b30903 7790a160fb8f41e745ca40c9baf64ed7a8aa70f4
}
dl256_seed() {
	printf '#P: dl/1 seed\ndl256 %s\n' \
	    fd676a98ed0df3ed95af335b7c56acd367d70bfc570b690bfb8a50850c378bdc
}

status=0
for g in bigdeal dl256; do
	echo "== $g: $BOARDS boards"
	${g}_seed | dl-stream -n "$BOARDS" | dl-map | dl-stat || status=1
done
exit $status
