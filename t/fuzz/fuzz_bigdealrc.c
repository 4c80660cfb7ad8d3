/* Big Deal's settings file .bigdealrc as dl-bigdeal, dl-bigdealx, dl-deal
 * and dl-seed read it (lib/bigdealrc.c).  What it reads is valid UTF-8 on
 * one line, and reads back the same after bigdealrc_write, which -R and a
 * first run use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bigdealrc.h"
#include "fuzz.h"
#include "util.h"

struct run {
	const char *path;
	struct bigdealrc rc;
	int found;
};

static void
read_rc(void *arg)
{
	struct run *run = arg;

	run->found = bigdealrc_read(run->path, &run->rc) == 0;
}

static void
write_rc(void *arg)
{
	struct run *run = arg;

	bigdealrc_write(run->path, &run->rc);
}

static void
check_value(const char *key, const char *value)
{
	if (value == NULL)
		return;
	if (strchr(value, '\n') != NULL || !utf8_is_valid(value, strlen(value)))
		fuzz_fail("%s is not one line of UTF-8", key);
}

/* bigdealrc_write writes an unset key as empty. */
static int
same(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run run = { "fuzz.bigdealrc", { 0 }, 0 };
	struct run again = { 0 };

	fuzz_file_add(run.path, data, size);
	if (fuzz_call(read_rc, &run) == -1) {
		fuzz_abandon();
		fuzz_files_reset();
		return 0;
	}
	if (!run.found)
		fuzz_fail("the file was not found");
	check_value("formats", run.rc.formats);
	check_value("askformats", run.rc.askformats);
	check_value("owner", run.rc.owner);
	again.path = fuzz_tmp_path("bigdealrc");
	again.rc = run.rc;
	if (fuzz_call(write_rc, &again) == -1)
		fuzz_fail("bigdealrc_write: %s", fuzz_message);
	memset(&again.rc, 0, sizeof again.rc);
	if (fuzz_call(read_rc, &again) == -1 || !again.found)
		fuzz_fail("the file bigdealrc_write wrote is refused: %s", fuzz_message);
	if (!same(run.rc.formats, again.rc.formats) ||
	    !same(run.rc.askformats, again.rc.askformats) ||
	    !same(run.rc.owner, again.rc.owner))
		fuzz_fail("the settings changed on the way: owner \"%s\", then \"%s\"",
		    run.rc.owner ? run.rc.owner : "", again.rc.owner ? again.rc.owner : "");
	unlink(again.path);
	bigdealrc_free(&again.rc);
	bigdealrc_free(&run.rc);
	fuzz_files_reset();
	return 0;
}
