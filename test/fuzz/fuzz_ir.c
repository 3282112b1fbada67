/*
 * libFuzzer target for the IR reader, the verifier and the passes: the
 * input bytes are read as IR text, verified and printed; a program that
 * verifies must print text that reads back, verifies and prints the same
 * again, and after the passes (the whole pipeline, passes/pipeline.c, in
 * its order; when they succeed) must verify as planned and print; anything
 * else aborts.
 * Every diagnostic is rendered. Any crash, sanitizer report or leak is a
 * bug: all of these must take any input.
 */
#include "passes/passes.h"
#include "test/fuzz/fuzz_input.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FuzzInput f;
	fuzz_begin(&f, data, size);

	uint32_t origin;
	TProgram *p = ir_read(f.a, f.in, f.src, f.file, NULL, &f.d, &origin);
	if (p) {
		bool ok = ir_verify(p, false, &f.d);
		StrBuf first = {0}, again = {0};
		ir_print(p, f.src, origin ? origin : f.file, false, &first);
		if (ok) {
			uint32_t file = src_add(f.src, "printed.ir", first.s ? first.s : "", first.len);
			TProgram *q = ir_read(f.a, f.in, f.src, file, NULL, &f.d, &origin);
			if (!q || !ir_verify(q, false, &f.d))
				abort();
			ir_print(q, f.src, origin ? origin : file, false, &again);
			if (first.len != again.len || memcmp(first.s, again.s, first.len) != 0)
				abort();
			if (pass_run_all(p, f.a, &f.d)) {
				if (!ir_verify(p, true, &f.d))
					abort();
				ir_print(p, f.src, origin ? origin : file, true, &again);
			}
		}
		buf_free(&first);
		buf_free(&again);
	}

	fuzz_end(&f);
	return 0;
}
