/*
 * libFuzzer target for semantic analysis: the input bytes are parsed as a
 * module and, when that succeeds, checked (every kernel specialized with its
 * defaults, layouts inferred where left out) and the typed program printed;
 * every diagnostic is rendered. Any crash, sanitizer report or leak is a
 * bug: sema must take any parseable input.
 */
#include "parser/parser.h"
#include "sema/sema.h"
#include "test/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FuzzInput f;
	fuzz_begin(&f, data, size);

	Node *m = parse_module(f.a, f.in, f.src, f.file, &f.d, &f.lim);
	if (m && f.d.errors == 0) {
		TProgram *p = sema_check(f.a, f.in, f.src, &f.d, m, NULL, 0, NULL, &f.lim);
		if (p)
			ir_print(p, f.src, f.file, true, &f.out);
	}

	fuzz_end(&f);
	return 0;
}
