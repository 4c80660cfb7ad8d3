/* dl-bigdeal: a drop-in for Big Deal 2.0's bigdeal, its command line,
 * .bigdealrc and files. */
#include "bigdeal_cli.h"

int
main(int argc, char *argv[])
{
	return bigdeal_cli_main(argc, argv, BIGDEAL_SAFE);
}
