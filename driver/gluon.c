/*
 * Gluon .py files: the kernel named with -n, specialized once per -s, the
 * files it imports read from next to it and from -I folders, and the
 * depfile of -MD listing every file read.
 */
#include "driver/driver.h"
#include "sema/sema.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct Importer {
	const Options *o;
	Arena *a;
	Interner *in;
	Sources *src;
	Diags *d;
} Importer;

/* `pkg.mod` -> `pkg/mod.py` in dir (dir "" for the current folder). */
static const char *
candidate(Arena *a, const char *dir, size_t dir_len, const char *name)
{
	char *rel = arena_printf(a, "%s.py", name);
	for (char *p = rel; p[3]; p++)
		if (*p == '.')
			*p = '/';
	return dir_len ? arena_printf(a, "%.*s/%s", (int)dir_len, dir, rel) : rel;
}

static const Node *
import_file(void *ctx, const char *name, const char *from, uint32_t *file)
{
	Importer *im = ctx;
	const char *slash = from ? strrchr(from, '/') : NULL;
	size_t n_dirs = im->o->includes.len + 1;
	for (size_t i = 0; i < n_dirs; i++) {
		const char *dir = i == 0 ? from : im->o->includes.data[i - 1];
		size_t len = i == 0 ? (slash ? (size_t)(slash - from) : 0) : strlen(dir);
		const char *path = candidate(im->a, dir, len, name);
		if (access(path, R_OK) != 0)
			continue;
		*file = drv_read_source(im->src, im->d, path, &im->o->limits);
		if (!*file)
			return NULL;
		return parse_module(im->a, im->in, im->src, *file, im->d, &im->o->limits);
	}
	return NULL;
}

TProgram *
drv_check_gluon(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d,
                const Node *m, uint32_t file)
{
	if (!o->kernel) {
		diag_error(d, (SrcSpan){0}, "%s is a Gluon file: name the kernel to compile with "
		           "-n NAME (and its parameters with -s SIGNATURE)", o->input);
		return NULL;
	}
	if (!o->signatures.len) {
		diag_error(d, (SrcSpan){0}, "-n %s: give the kernel's signature with -s, e.g. "
		           "-s \"*fp32:16, *fp32:16, i32, 1024\"", o->kernel);
		return NULL;
	}
	if (o->defines.len) {
		diag_error(d, (SrcSpan){0}, "-D does not apply to .py files: give constexpr "
		           "values in the signature (-s)");
		return NULL;
	}
	Importer im = {o, a, in, src, d};
	SemaGluon g = {o->kernel, o->signatures.data, o->signatures.len,
	               o->num_warps ? o->num_warps : 4, o->out_name, import_file, &im};
	return sema_check_gluon(a, in, src, d, m, file, &g, &o->limits);
}

/* A file name in make's syntax: spaces and '#' escaped with '\', '$' as
 * "$$". A newline cannot be written: false after an error. */
static bool
put_make_name(StrBuf *b, Diags *d, const char *name)
{
	if (strpbrk(name, "\n\r")) {
		diag_error(d, (SrcSpan){0}, "cannot write a depfile naming '%s': make has no way "
		           "to write a newline in a file name", name);
		return false;
	}
	for (const char *c = name; *c; c++) {
		if (*c == ' ' || *c == '\t' || *c == '#')
			buf_putc(b, '\\');
		if (*c == '$')
			buf_putc(b, '$');
		buf_putc(b, *c);
	}
	return true;
}

const char *
drv_depfile_path(const Options *o, Arena *a, const char *target)
{
	if (o->depfile_path)
		return o->depfile_path;
	const char *dot = strrchr(target, '.'), *sl = strrchr(target, '/');
	size_t n = dot && (!sl || dot > sl) ? (size_t)(dot - target) : strlen(target);
	return arena_printf(a, "%.*s.d", (int)n, target);
}

bool
drv_write_depfile(const Options *o, Arena *a, const Sources *src, Diags *d,
                  const char *target, const char *path)
{
	StrBuf b = {0};
	bool ok = true;
	if (!o->dep_targets.len)
		ok = put_make_name(&b, d, target);
	for (size_t i = 0; ok && i < o->dep_targets.len; i++) {
		buf_puts(&b, i ? " " : "");
		if (o->dep_targets.data[i].quote)
			ok = put_make_name(&b, d, o->dep_targets.data[i].name);
		else
			buf_puts(&b, o->dep_targets.data[i].name);
	}
	buf_putc(&b, ':');
	/* every file read: pseudo-files (<-s ...>, <-D ...>) are in angle brackets;
	 * the cases of --split-input-file are parts of one file */
	VEC(const char *) read = {0};
	for (uint32_t f = 1; ok; f++) {
		const char *p = src_path(src, f);
		if (strcmp(p, "<unknown>") == 0)
			break;
		if (p[0] != '<' && (!read.len || strcmp(p, read.data[read.len - 1]) != 0)) {
			buf_puts(&b, " \\\n  ");
			ok = put_make_name(&b, d, p);
			vec_push(a, &read, p);
		}
	}
	buf_putc(&b, '\n');
	for (size_t i = 1; ok && o->dep_phony && i < read.len; i++) {
		buf_putc(&b, '\n');
		put_make_name(&b, d, read.data[i]);
		buf_puts(&b, ":\n");
	}
	ok = ok && drv_write_output(a, d, path, &b, &o->limits);
	buf_free(&b);
	return ok;
}
