/*
 * The files one compilation writes (the output, the header beside a .py
 * file's C, the depfile) are checked before any is written: each must be a
 * file of its own, neither another output nor any file the compilation
 * read (the input, every imported module, the source an .ir file names).
 * Two paths name one file when they are the same existing file (device and
 * inode: links and hard links included) or, for files that do not exist
 * yet, the same path once its folder is resolved. An output that exists and
 * is not a regular file (/dev/null, a pipe) is written in place and may be
 * named more than once.
 */
#include "driver/driver.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Which file a path names. */
typedef struct FileId {
	bool exists, regular;
	dev_t dev;
	ino_t ino;
	const char *path;   /* !exists: the path with its folder resolved */
} FileId;

static FileId
file_id(Arena *a, const char *path)
{
	FileId f = {0};
	struct stat st;
	if (stat(path, &st) == 0) {
		f.exists = true;
		f.regular = S_ISREG(st.st_mode);
		f.dev = st.st_dev;
		f.ino = st.st_ino;
		return f;
	}
	const char *slash = strrchr(path, '/');
	const char *dir = slash ? arena_strndup(a, path, (size_t)(slash - path) + 1) : ".";
	char real[PATH_MAX];
	f.path = realpath(dir, real) ? arena_printf(a, "%s/%s", real, slash ? slash + 1 : path)
	                             : path;
	return f;
}

static bool
same_file(const FileId *x, const FileId *y)
{
	if (x->exists != y->exists)
		return false;
	return x->exists ? x->dev == y->dev && x->ino == y->ino : strcmp(x->path, y->path) == 0;
}

bool
drv_check_outputs(const DrvOutput *outs, size_t n, const Sources *src, Arena *a, Diags *d)
{
	FileId *ids = arena_alloc(a, (n + 1) * sizeof *ids);
	bool ok = true;
	for (size_t i = 0; i < n; i++) {
		const DrvOutput *o = &outs[i];
		ids[i] = file_id(a, o->path);
		if (ids[i].exists && !ids[i].regular)
			continue;
		for (size_t j = 0; j < i && ok; j++)
			if (same_file(&ids[i], &ids[j])) {
				diag_error(d, (SrcSpan){0}, "the %s '%s' and the %s '%s' are one file; "
				           "refusing to write one over the other (give the %s another "
				           "name with %s)", outs[j].role, outs[j].path, o->role, o->path,
				           o->role, o->option);
				ok = false;
			}
		/* every file read; pseudo-files (<stdin>, <-D ...>) are in angle
		 * brackets; the cases of --split-input-file are parts of one file */
		const char *last = NULL;
		for (uint32_t f = 1; ok && ids[i].exists; f++) {
			const char *in = src_path(src, f);
			if (strcmp(in, "<unknown>") == 0)
				break;
			bool seen = last && strcmp(in, last) == 0;
			last = in;
			if (in[0] == '<' || seen)
				continue;
			FileId g = file_id(a, in);
			if (!same_file(&ids[i], &g))
				continue;
			diag_error(d, (SrcSpan){0}, "the %s '%s' is the input file '%s'; refusing to "
			           "overwrite it (give another name with %s)", o->role, o->path, in,
			           o->option);
			ok = false;
		}
	}
	return ok;
}
