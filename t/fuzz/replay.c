/* Runs a harness over saved inputs without libFuzzer, so that make check
 * replays the corpus with the ordinary compiler:
 *
 *	fuzz_NAME FILE|DIRECTORY...
 *
 * A directory stands for its files, in name order.  Each input is read into
 * a buffer of exactly its size, so that the sanitizers of make sanitize see
 * a read past its end.  The exit status is 0 when every input was run; a
 * harness that finds a fault aborts, and the status says so. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* The file into a buffer of exactly its size. */
static unsigned char *
slurp(const char *path, size_t *size)
{
	struct stat st;
	unsigned char *buf;
	size_t got = 0;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1 || fstat(fd, &st) == -1) {
		fprintf(stderr, "replay: %s: cannot read\n", path);
		exit(2);
	}
	if ((buf = malloc(st.st_size ? (size_t)st.st_size : 1)) == NULL) {
		fprintf(stderr, "replay: out of memory\n");
		exit(2);
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n <= 0) {
			fprintf(stderr, "replay: %s: read error\n", path);
			exit(2);
		}
		got += (size_t)n;
	}
	close(fd);
	*size = got;
	return buf;
}

static void
run_file(const char *path)
{
	size_t size;
	unsigned char *data = slurp(path, &size);
	int status;

	fprintf(stderr, "replay: %s\n", path);
	status = LLVMFuzzerTestOneInput(data, size);
	free(data);
	if (status != 0 && status != -1) {
		fprintf(stderr, "replay: %s: harness returned %d\n", path, status);
		exit(1);
	}
}

static int
not_hidden(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* The number of inputs run. */
static int
run_path(const char *path)
{
	struct dirent **names;
	struct stat st;
	int n;

	if (stat(path, &st) == -1) {
		fprintf(stderr, "replay: %s: no such file or directory\n", path);
		exit(2);
	}
	if (!S_ISDIR(st.st_mode)) {
		run_file(path);
		return 1;
	}
	if ((n = scandir(path, &names, not_hidden, alphasort)) == -1) {
		fprintf(stderr, "replay: %s: cannot list\n", path);
		exit(2);
	}
	for (int i = 0; i < n; i++) {
		char *file;
		if (asprintf(&file, "%s/%s", path, names[i]->d_name) == -1)
			exit(2);
		run_file(file);
		free(file);
		free(names[i]);
	}
	free(names);
	return n;
}

int
main(int argc, char *argv[])
{
	int total = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s file|directory...\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize != NULL)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
		total += run_path(argv[i]);
	/* an empty corpus would pass without testing anything */
	if (total == 0) {
		fprintf(stderr, "replay: no inputs\n");
		return 2;
	}
	fprintf(stderr, "replay: %d inputs, no fault\n", total);
	return 0;
}
