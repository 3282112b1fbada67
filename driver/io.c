/* Reading sources and writing outputs for the driver. */
#include "driver/driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Everything f holds into b; false on a read error. */
static bool
slurp(FILE *f, StrBuf *b)
{
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_putn(b, chunk, n);
	return !ferror(f);
}

uint32_t
drv_read_source(Sources *src, Diags *d, const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f) {
		diag_error(d, (SrcSpan){0}, "cannot open '%s': %s", path, strerror(errno));
		return 0;
	}
	StrBuf b = {0};
	bool failed = !slurp(f, &b);
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

uint32_t
drv_load_source(void *ctx, Sources *src, const char *path)
{
	(void)ctx;
	struct stat st;
	FILE *f;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !(f = fopen(path, "rb")))
		return 0;
	StrBuf b = {0};
	bool ok = slurp(f, &b);
	fclose(f);
	uint32_t id = ok ? src_add(src, path, b.s ? b.s : "", b.len) : 0;
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
