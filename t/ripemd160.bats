#!/usr/bin/env bats
# RIPEMD-160 against the test vectors published with the algorithm.

load helper

hash() { printf %s "$1" | "$HELPERS/rmd160"; }

@test "RIPEMD-160 of the short published messages" {
	[ "$(hash '')" = 9c1185a5c5e9fc54612808977ee8f548b2258d31 ]
	[ "$(hash a)" = 0bdc9d2d256b3ee9daae347be6f4dc835a467ffe ]
	[ "$(hash abc)" = 8eb208f7e05d987a9b044a8e98c6b087f15a0bfc ]
	[ "$(hash 'message digest')" = 5d0689ef49d2fae572b881b123a85ffa21595f36 ]
	[ "$(hash abcdefghijklmnopqrstuvwxyz)" = f71c27109c692c1b56bbdceb5b9d2865b3708dbc ]
}

@test "RIPEMD-160 of the multi-block published messages" {
	[ "$(hash abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq)" = \
	    12a053384a9c0c88e405a06c27dcf49ada62eb2b ]
	[ "$(hash ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789)" = \
	    b0e20b6e3116640286ed3a87a5713079b21f5189 ]
	[ "$(hash 12345678901234567890123456789012345678901234567890123456789012345678901234567890)" = \
	    9b752e45573d4b39f4dbd3323cab82bf63326bfb ]
}

@test "RIPEMD-160 of one million 'a'" {
	run -0 bash -c "set -o pipefail; head -c 1000000 /dev/zero | tr '\\0' a | '$HELPERS/rmd160'"
	[ "$output" = 52783243c1697bdbe16d37f97f68f08325dc1528 ]
}
