/*
 * Reading sources and writing outputs for the driver. Inputs are regular
 * files (a named pipe, a directory or a device is refused, never waited
 * on), read up to a size limit; an output file is written to a temporary in
 * its folder and renamed over the old one, so that a failed write (a full
 * disk) leaves the old file as it was (driver/outputs.c has checked that
 * it is no input and no other output).
 */
#include "driver/driver.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What f holds into b, up to max bytes and one more (so that passing max
 * shows); false on a read error. */
static bool
slurp(FILE *f, StrBuf *b, uint64_t max)
{
	char chunk[65536];
	size_t n;
	while (b->len <= max && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_putn(b, chunk, n);
	return !ferror(f);
}

/* What a file that is not a regular one is, for the message refusing it. */
static const char *
file_kind(mode_t m)
{
	return S_ISDIR(m) ? "it is a directory" : S_ISFIFO(m) ? "it is a named pipe" :
	       S_ISCHR(m) || S_ISBLK(m) ? "it is a device" : S_ISSOCK(m) ? "it is a socket" :
	       "it is not a regular file";
}

/* path opened for reading if it is a regular file; NULL with *why (errno's
 * text, or what the file is, *irregular set) otherwise. Opening does not
 * block: a named pipe without a writer is refused, not waited for. */
static FILE *
open_regular(const char *path, const char **why, bool *irregular)
{
	*irregular = false;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		*why = strerror(errno);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	FILE *f = NULL;
	if (!S_ISREG(st.st_mode)) {
		*why = file_kind(st.st_mode);
		*irregular = true;
	}
	else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
	         !(f = fdopen(fd, "rb")))
		*why = strerror(errno);
	if (!f)
		close(fd);
	return f;
}

uint32_t
drv_read_source(Sources *src, Diags *d, const char *path, const Limits *lim)
{
	const char *why = NULL;
	bool irregular;
	FILE *f = strcmp(path, "-") == 0 ? stdin : open_regular(path, &why, &irregular);
	if (!f) {
		Diag *e = diag_error(d, (SrcSpan){0}, "cannot %s '%s': %s", irregular ? "read" : "open",
		                     path, why);
		if (irregular)
			diag_note(d, e, (SrcSpan){0}, "glc reads only regular files (and standard "
			          "input as '-')");
		return 0;
	}
	const char *name = f == stdin ? "<stdin>" : path;
	uint64_t max = lim->max[LIM_INPUT_BYTES];
	StrBuf b = {0};
	bool failed = !slurp(f, &b, max);
	int err = errno;
	if (f != stdin)
		fclose(f);
	if (failed) {
		diag_error(d, (SrcSpan){0}, "cannot read '%s': %s", name, strerror(err));
		buf_free(&b);
		return 0;
	}
	if (b.len > max) {
		Diag *e = diag_error(d, (SrcSpan){0}, "'%s' is larger than %llu bytes", name,
		                     (unsigned long long)max);
		diag_limit_note(d, e, lim, LIM_INPUT_BYTES);
		buf_free(&b);
		return 0;
	}
	uint32_t id = src_add(src, name, b.s ? b.s : "", b.len);
	buf_free(&b);
	return id;
}

uint32_t
drv_load_source(void *ctx, Sources *src, const char *path)
{
	const Limits *lim = ctx;
	const char *why;
	bool irregular;
	FILE *f = open_regular(path, &why, &irregular);
	if (!f)
		return 0;
	StrBuf b = {0};
	bool ok = slurp(f, &b, lim->max[LIM_INPUT_BYTES]) && b.len <= lim->max[LIM_INPUT_BYTES];
	fclose(f);
	uint32_t id = ok ? src_add(src, path, b.s ? b.s : "", b.len) : 0;
	buf_free(&b);
	return id;
}

/* Writes all len bytes to fd; false with errno set on failure. */
static bool
write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return false;
		}
		data += n;
		len -= (size_t)n;
	}
	return true;
}

/* Writes over path in place (a device, a pipe: something that is not a
 * regular file and cannot be replaced). */
static bool
write_in_place(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0)
		return false;
	bool ok = write_all(fd, data, len);
	int err = errno;
	ok &= close(fd) == 0;
	if (!ok && err)
		errno = err;
	return ok;
}

/* Writes a temporary file next to path, then renames it over path. On
 * failure the temporary is removed and path is untouched. */
static bool
write_replace(Arena *a, const char *path, const char *data, size_t len)
{
	const char *slash = strrchr(path, '/');
	char *tmp = slash ? arena_printf(a, "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1)
	                  : arena_printf(a, ".%s.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return errno == EACCES || errno == EPERM ? write_in_place(path, data, len) : false;
	mode_t mask = umask(0);
	umask(mask);
	bool ok = fchmod(fd, 0666 & ~mask) == 0 && write_all(fd, data, len);
	int err = errno;
	ok &= close(fd) == 0;
	if (ok)
		ok = rename(tmp, path) == 0;
	else if (err)
		errno = err;
	if (!ok) {
		err = errno;
		unlink(tmp);
		errno = err;
	}
	return ok;
}

bool
drv_write_output(Arena *a, Diags *d, const char *path, const StrBuf *out, const Limits *lim)
{
	if (out->over) {
		Diag *e = diag_error(d, (SrcSpan){0}, "the output is larger than %llu bytes",
		                     (unsigned long long)lim->max[LIM_OUTPUT_BYTES]);
		diag_limit_note(d, e, lim, LIM_OUTPUT_BYTES);
		return false;
	}
	const char *data = out->s ? out->s : "";
	bool to_stdout = !path || strcmp(path, "-") == 0;
	bool ok;
	if (to_stdout) {
		ok = fwrite(data, 1, out->len, stdout) == out->len;
		ok &= fflush(stdout) == 0;
	} else {
		struct stat os;
		ok = stat(path, &os) == 0 && !S_ISREG(os.st_mode)
		     ? write_in_place(path, data, out->len)
		     : write_replace(a, path, data, out->len);
	}
	if (!ok)
		diag_error(d, (SrcSpan){0}, "cannot write '%s': %s",
		           to_stdout ? "<stdout>" : path, strerror(errno));
	return ok;
}
