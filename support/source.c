/* The table of source texts, with line starts for rendering diagnostics. */
#include "support.h"

#include <string.h>

typedef struct SrcFile {
	const char *path;
	const char *text;    /* NUL-terminated copy */
	size_t len;
	uint32_t first_line; /* the number of the text's first line */
	VEC(uint32_t) lines; /* byte offset of each line start */
} SrcFile;

struct Sources {
	Arena *arena;
	VEC(SrcFile) files;
};

Sources *
src_new(Arena *a)
{
	Sources *s = arena_alloc(a, sizeof *s);
	s->arena = a;
	return s;
}

uint32_t
src_add(Sources *s, const char *path, const char *text, size_t len)
{
	return src_add_part(s, path, text, len, 1);
}

uint32_t
src_add_part(Sources *s, const char *path, const char *text, size_t len, uint32_t first_line)
{
	SrcFile f = {0};
	f.first_line = first_line ? first_line : 1;
	f.path = arena_strndup(s->arena, path, strlen(path));
	f.text = arena_strndup(s->arena, text, len);
	f.len = len;
	vec_push(s->arena, &f.lines, 0u);
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n' && i + 1 <= len)
			vec_push(s->arena, &f.lines, (uint32_t)(i + 1));
	vec_push(s->arena, &s->files, f);
	return (uint32_t)s->files.len;
}

static const SrcFile *
file_of(const Sources *s, uint32_t file)
{
	if (!s || file == 0 || file > s->files.len)
		return NULL;
	return &s->files.data[file - 1];
}

const char *
src_path(const Sources *s, uint32_t file)
{
	const SrcFile *f = file_of(s, file);
	return f ? f->path : "<unknown>";
}

const char *
src_text(const Sources *s, uint32_t file)
{
	const SrcFile *f = file_of(s, file);
	return f ? f->text : "";
}

size_t
src_len(const Sources *s, uint32_t file)
{
	const SrcFile *f = file_of(s, file);
	return f ? f->len : 0;
}

uint32_t
src_first_line(const Sources *s, uint32_t file)
{
	const SrcFile *f = file_of(s, file);
	return f ? f->first_line : 1;
}

const char *
src_line(const Sources *s, uint32_t file, uint32_t line, size_t *len)
{
	const SrcFile *f = file_of(s, file);
	if (!f || line < f->first_line || line - f->first_line >= f->lines.len)
		return NULL;
	size_t start = f->lines.data[line - f->first_line];
	if (start > f->len)
		return NULL;
	size_t end = start;
	while (end < f->len && f->text[end] != '\n' && f->text[end] != '\r')
		end++;
	*len = end - start;
	return f->text + start;
}

SrcSpan
span_join(SrcSpan a, SrcSpan b)
{
	if (a.file != b.file || b.line < a.line || a.file == 0)
		return a;
	SrcSpan r = a;
	if (b.line == a.line) {
		uint32_t end = b.col + b.len;
		r.len = end > a.col ? end - a.col : a.len;
	} else {
		/* Multi-line: the underline stops at the end of the first line;
		 * the renderer clamps it. */
		r.len = UINT32_MAX / 2;
	}
	return r;
}
