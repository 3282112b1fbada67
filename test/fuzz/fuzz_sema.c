/*
 * libFuzzer target for semantic analysis: the input bytes are parsed as a
 * module and, when that succeeds, checked (every kernel specialized with its
 * defaults, layouts inferred where left out) and the typed program printed;
 * every diagnostic is rendered. Any crash, sanitizer report or leak is a
 * bug: sema must take any parseable input.
 */
#include "parser/parser.h"
#include "sema/sema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Arena *a = arena_new();
	Interner *in = intern_new(a);
	Sources *src = src_new(a);
	uint32_t file = src_add(src, "fuzz.gl", (const char *)data, size);
	Diags d;
	diag_init(&d, a, src);
	d.max_errors = 50;
	StrBuf out = {0};

	Node *m = parse_module(a, in, src, file, &d);
	if (m && d.errors == 0) {
		TProgram *p = sema_check(a, in, src, &d, m, NULL, 0, NULL);
		if (p)
			sema_print(p, true, &out);
	}

	diag_render(&d, DIAG_TEXT, "glc", &out);
	buf_free(&out);
	arena_free(a);
	return 0;
}
