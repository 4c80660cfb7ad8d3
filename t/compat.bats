#!/usr/bin/env bats
# Big Deal and SquareDeal at the edges (docs/bigdeal-compat.md,
# docs/squaredeal.md): inputs on which the reference programs and
# pysquaredeal must give the same deals as dl.

load helper

club() {
	cp "$SQUAREDEAL/club/club.sqd" "$SQUAREDEAL/club/club.sqk" .
	chmod 600 club.sqk
}

@test ".sqd: trailing white space is stripped, as SquareDeal's programs do: the DV deals as without it" {
	club
	dl-sqd club.sqd make 1 1 > /dev/null
	mv rr01.pbn want.pbn
	sed -i -e 's/^DV .*/& \t /' -e 's/^KH .*/&  /' -e 's/^TN .*/& /' club.sqd
	run -0 dl-sqd club.sqd make 1 1
	cmp rr01.pbn want.pbn
	run -0 dl-sqd club.sqd show
	[ "${lines[0]}" = "Tournament: $(sed -n 's/^TN \(.*[^ ]\) *$/\1/p' club.sqd)" ]
}

@test ".sqd: an empty DV line is a DV not set yet, as pysquaredeal writes it" {
	club
	sed -i 's/^DV .*/DV /' club.sqd
	run -0 dl-sqd club.sqd show
	[ "${lines[2]}" = "Delayed value: (not set)" ]
	fails dl-sqd club.sqd make 1 1
	[ "$output" = "dl-sqd: club.sqd has no delayed value yet: run 'dl-sqd club.sqd set-dv VALUE' once it is known" ]
	run -0 dl-sqd club.sqd set-dv '1 2 3'
	[ "$(grep '^DV' club.sqd)" = "DV 1 2 3" ]
	run -0 dl-sqd club.sqd make 1 1
	[ "$output" = rr01.pbn ]
}
