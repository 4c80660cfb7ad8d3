/* Test helper: the credit of keystrokes after the given intervals (µs). */
#include <stdio.h>
#include <stdlib.h>

#include "keys/entropy.h"

int
main(int argc, char *argv[])
{
	for (int i = 1; i < argc; i++)
		printf("%s%u", i > 1 ? " " : "", keystroke_bits(strtoul(argv[i], NULL, 10)));
	printf("\n");
	return 0;
}
