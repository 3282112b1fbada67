/* Reading sources and writing outputs for the driver. */
#include "driver/driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t
drv_read_source(Sources *src, Diags *d, const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f) {
		diag_error(d, (SrcSpan){0}, "cannot open '%s': %s", path, strerror(errno));
		return 0;
	}
	StrBuf b = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_putn(&b, chunk, n);
	bool failed = ferror(f);
	int err = errno;
	if (f != stdin)
		fclose(f);
	if (failed) {
		diag_error(d, (SrcSpan){0}, "cannot read '%s': %s", path, strerror(err));
		buf_free(&b);
		return 0;
	}
	uint32_t id = src_add(src, strcmp(path, "-") == 0 ? "<stdin>" : path,
	                      b.s ? b.s : "", b.len);
	buf_free(&b);
	return id;
}

bool
drv_write_output(Diags *d, const char *path, const char *data, size_t len)
{
	bool to_stdout = !path || strcmp(path, "-") == 0;
	FILE *f = to_stdout ? stdout : fopen(path, "wb");
	if (!f) {
		diag_error(d, (SrcSpan){0}, "cannot write '%s': %s", path, strerror(errno));
		return false;
	}
	bool ok = fwrite(data, 1, len, f) == len;
	ok &= fflush(f) == 0;
	if (!to_stdout)
		ok &= fclose(f) == 0;
	if (!ok)
		diag_error(d, (SrcSpan){0}, "cannot write '%s': %s",
		           to_stdout ? "<stdout>" : path, strerror(errno));
	return ok;
}
