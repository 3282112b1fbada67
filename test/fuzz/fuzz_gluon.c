/*
 * libFuzzer target for Gluon .py files (`glc FILE.py -n NAME -s SIG`): the
 * input bytes are a .py file (Python's rules for lines in brackets), parsed
 * with its host code, and its kernel is read and specialized as the command
 * line would: the name and signature come from a first line
 *
 *     # fuzz: NAME | SIGNATURE [| SIGNATURE]...
 *
 * (the seeds are the Gluon tests, whose RUN lines give them; without such
 * a line the first function of the module, with an i32 per parameter).
 * Imports find no file. The typed program is printed and verified; every
 * diagnostic is rendered. Any crash, sanitizer report or leak is a bug.
 */
#include "parser/parser.h"
#include "sema/sema.h"
#include "test/fuzz/fuzz_input.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* At most this many -s signatures from the header line. */
enum { MAX_SIGNATURES = 4 };

static const Node *
no_import(void *ctx, const char *name, const char *from, uint32_t *file)
{
	(void)ctx, (void)name, (void)from, (void)file;
	return NULL;
}

/* The trimmed text [s, e) copied into the arena. */
static const char *
trimmed(Arena *a, const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return arena_strndup(a, s, (size_t)(e - s));
}

/* The header line's kernel and signatures; false when there is none. */
static bool
header(Arena *a, const char *text, size_t len, SemaGluon *g, const char **sigs)
{
	static const char tag[] = "# fuzz:";
	const char *nl = memchr(text, '\n', len);
	const char *end = nl ? nl : text + len;
	if ((size_t)(end - text) < sizeof tag - 1 || memcmp(text, tag, sizeof tag - 1) != 0)
		return false;
	const char *p = text + sizeof tag - 1;
	const char *bar = memchr(p, '|', (size_t)(end - p));
	g->kernel = trimmed(a, p, bar ? bar : end);
	while (bar && g->n_signatures < MAX_SIGNATURES) {
		p = bar + 1;
		bar = memchr(p, '|', (size_t)(end - p));
		sigs[g->n_signatures++] = trimmed(a, p, bar ? bar : end);
	}
	return g->n_signatures > 0;
}

/* The first function of the module, with an i32 for each parameter. */
static bool
first_function(Arena *a, const Node *m, SemaGluon *g, const char **sigs)
{
	for (size_t i = 0; i < m->u.module.body.len; i++) {
		const Node *f = m->u.module.body.data[i];
		if (f->kind != N_FUNC)
			continue;
		StrBuf b = {0};
		for (size_t k = 0; k < f->u.func.params.len; k++)
			buf_puts(&b, k ? ", i32" : "i32");
		g->kernel = f->u.func.name;
		sigs[0] = arena_strndup(a, b.s ? b.s : "", b.len);
		g->n_signatures = 1;
		buf_free(&b);
		return true;
	}
	return false;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FuzzInput f;
	fuzz_begin_as(&f, data, size, "fuzz.py");

	Node *m = parse_module(f.a, f.in, f.src, f.file, &f.d, &f.lim);
	const char *sigs[MAX_SIGNATURES];
	SemaGluon g = {NULL, sigs, 0, 4, NULL, no_import, NULL};
	if (m && f.d.errors == 0 &&
	    (header(f.a, (const char *)data, size, &g, sigs) || first_function(f.a, m, &g, sigs))) {
		TProgram *p = sema_check_gluon(f.a, f.in, f.src, &f.d, m, f.file, &g, &f.lim);
		if (p) {
			ir_verify(p, false, &f.d);
			ir_print(p, f.src, f.file, true, &f.out);
		}
	}

	fuzz_end(&f);
	return 0;
}
