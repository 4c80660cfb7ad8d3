/* Big Deal 2.0's bigdeal and bigdealx command lines (docs/bigdeal-compat.md
 * section 6), for the drop-ins dl-bigdeal and dl-bigdealx: the same options,
 * .bigdealrc and output files, and the two lines on standard output that
 * SquareDeal counts. */
#ifndef DL_BIGDEAL_CLI_H
#define DL_BIGDEAL_CLI_H

enum bigdeal_program {
	BIGDEAL_SAFE,		/* bigdeal: at most 100 boards, OS entropy only */
	BIGDEAL_EXTENDED,	/* bigdealx: -e -E -o -W -h, up to 10^9 boards */
};

#define BIGDEAL_COMPATIBLE "2.0"	/* the Big Deal version reproduced */
#define BIGDEAL_SAFE_BOARDS 100
#define BIGDEAL_PREFIX_MAX 100

/* The whole program; returns the exit status, or exits on an error. */
int bigdeal_cli_main(int argc, char *argv[], enum bigdeal_program which);

#endif
