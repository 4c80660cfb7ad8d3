/* Big Deal's settings file .bigdealrc as dl-deal and dl-seed read it, and
 * as Big Deal and the drop-ins read it (lib/files/bigdealrc.c).  Each value
 * read is one line of bytes, whatever their encoding (Big Deal hashes the
 * owner as bytes: a Latin-1 owner deals), its warnings are lines the tool
 * can print, and it reads back the same after bigdealrc_write, which -R
 * and a first run use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files/bigdealrc.h"
#include "fuzz.h"
#include "base/util.h"

static void
check_value(const char *key, const char *value)
{
	if (value == NULL)
		return;
	if (strchr(value, '\n') != NULL)
		fuzz_fail("%s is not one line", key);
}

/* bigdealrc_write writes an unset key as empty. */
static int
same(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* Big Deal's reading (the drop-ins'): nothing refused, no value longer
 * than its 119-byte read leaves room for, and the same settings again
 * from what bigdealrc_write makes of them. */
static void
as_bigdeal(const char *path, const char *written)
{
	struct bigdealrc rc, again;
	struct dl_error e = { 0 };

	if (bigdealrc_read_bigdeal(path, &rc, &e) == -1)
		fuzz_fail("bigdealrc_read_bigdeal refused a readable file: %s", e.msg);
	for (size_t i = 0; i < rc.warnings.n; i++)
		fuzz_check_message(rc.warnings.msgs[i], "a warning of bigdealrc_read_bigdeal");
	check_value("formats", rc.formats);
	check_value("askformats", rc.askformats);
	check_value("owner", rc.owner);
	if ((rc.formats && strlen(rc.formats) > 111) ||
	    (rc.askformats && strlen(rc.askformats) > 108) ||
	    (rc.owner && strlen(rc.owner) > 113))
		fuzz_fail("a value longer than Big Deal reads");
	if (bigdealrc_write(written, &rc, &e) == -1)
		fuzz_fail("bigdealrc_write: %s", e.msg);
	if (bigdealrc_read_bigdeal(written, &again, &e) == -1 || !again.found)
		fuzz_fail("the file bigdealrc_write wrote is refused: %s", e.msg);
	if (!same(rc.formats, again.formats) || !same(rc.askformats, again.askformats) ||
	    !same(rc.owner, again.owner))
		fuzz_fail("Big Deal's reading: the settings changed on the way: owner \"%s\", "
		    "then \"%s\"", rc.owner ? rc.owner : "", again.owner ? again.owner : "");
	bigdealrc_free(&again);
	bigdealrc_free(&rc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_tmp_file("fuzz.bigdealrc", data, size);
	const char *written = fuzz_tmp_path("written.bigdealrc");
	struct bigdealrc rc, again;
	struct dl_error e = { 0 };

	if (bigdealrc_read(path, &rc, &e) == -1) {
		fuzz_check_error(&e, "bigdealrc_read");
		/* a refusal leaves nothing to free */
		if (rc.formats != NULL || rc.askformats != NULL || rc.owner != NULL ||
		    rc.warnings.n != 0)
			fuzz_fail("bigdealrc_read refused the file and kept its settings");
		return 0;
	}
	if (!rc.found)
		fuzz_fail("the file was not found");
	for (size_t i = 0; i < rc.warnings.n; i++)
		fuzz_check_message(rc.warnings.msgs[i], "a warning of bigdealrc_read");
	check_value("formats", rc.formats);
	check_value("askformats", rc.askformats);
	check_value("owner", rc.owner);
	if (bigdealrc_write(written, &rc, &e) == -1)
		fuzz_fail("bigdealrc_write: %s", e.msg);
	dl_error_clear(&e);
	if (bigdealrc_read(written, &again, &e) == -1 || !again.found)
		fuzz_fail("the file bigdealrc_write wrote is refused: %s", e.msg);
	if (again.warnings.n != 0)
		fuzz_fail("the file bigdealrc_write wrote draws a warning: %s",
		    again.warnings.msgs[0]);
	if (!same(rc.formats, again.formats) || !same(rc.askformats, again.askformats) ||
	    !same(rc.owner, again.owner))
		fuzz_fail("the settings changed on the way: owner \"%s\", then \"%s\"",
		    rc.owner ? rc.owner : "", again.owner ? again.owner : "");
	bigdealrc_free(&again);
	bigdealrc_free(&rc);
	as_bigdeal(path, written);
	return 0;
}
