/* memfind PID TEXT: prints, one line each, the writable memory regions of
 * process PID that hold TEXT (the heap, the stack, anonymous maps), and
 * exits 0 when there are none, 1 when there are.  The tests use it to
 * show that a secret was wiped from every buffer it went through; a
 * program's read-only mappings (its code, a hex table) are not looked at. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>


int
main(int argc, char *argv[])
{
	char maps_path[64], mem_path[64], line[512];
	FILE *maps, *mem;
	int found = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: memfind pid text\n");
		return 2;
	}
	snprintf(maps_path, sizeof maps_path, "/proc/%s/maps", argv[1]);
	snprintf(mem_path, sizeof mem_path, "/proc/%s/mem", argv[1]);
	if ((maps = fopen(maps_path, "r")) == NULL || (mem = fopen(mem_path, "r")) == NULL) {
		perror(argv[1]);
		return 2;
	}
	size_t want = strlen(argv[2]);
	/* read a chunk at a time, each overlapping the last by the text's
	 * length less one; a region of gigabytes is a sanitizer's shadow or
	 * a reservation, never one of our buffers */
	size_t chunk = 1 << 20;
	char *copy = malloc(chunk + want);
	if (copy == NULL)
		return 2;
	while (fgets(line, sizeof line, maps) != NULL) {
		unsigned long low, high;
		char perms[8], name[256] = "[anonymous]";
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %255s", &low, &high, perms, name) < 3)
			continue;
		if (perms[0] != 'r' || perms[1] != 'w' || high - low > (1UL << 30))
			continue;
		int here = 0;
		for (unsigned long at = low; at < high && !here; at += chunk) {
			size_t size = high - at < chunk + want - 1 ? high - at : chunk + want - 1;
			if (fseek(mem, (long)at, SEEK_SET) != 0 || fread(copy, 1, size, mem) != size) {
				clearerr(mem);
				continue;	/* a guard page, or gone meanwhile */
			}
			here = memmem(copy, size, argv[2], want) != NULL;
		}
		if (here) {
			printf("%s\n", name);
			found = 1;
		}
	}
	free(copy);
	fclose(maps);
	fclose(mem);
	return found;
}
