/*
 * The frame every glc fuzz target shares: the input bytes registered as a
 * source file in a fresh arena, with an interner, a diagnostics sink (at
 * most 50 errors), an output buffer and the limits the compiler runs
 * under (tighter than the command line's defaults, so that every input
 * compiles in well under the fuzzer's timeout); fuzz_end renders every
 * diagnostic as text and JSON and frees everything, so a leak anywhere is
 * reported.
 */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include "support/support.h"

typedef struct FuzzInput {
	Arena *a;
	Interner *in;
	Sources *src;
	uint32_t file;
	Diags d;
	StrBuf out;
	Limits lim;
} FuzzInput;

/* The frame for the input as a file named `name` (its extension picks the
 * lexer's rules: ".py" for Gluon files). */
static inline void
fuzz_begin_as(FuzzInput *f, const uint8_t *data, size_t size, const char *name)
{
	f->a = arena_new();
	f->in = intern_new(f->a);
	f->src = src_new(f->a);
	f->file = src_add(f->src, name, (const char *)data, size);
	diag_init(&f->d, f->a, f->src);
	f->d.max_errors = 50;
	f->out = (StrBuf){0};
	f->lim = limits_default();
	f->lim.max[LIM_UNROLL] = 256;
	f->lim.max[LIM_INLINE] = 256;
	f->lim.max[LIM_ELEMS_PER_THREAD] = 256;
	/* compile-time evaluation stays well inside libFuzzer's -rss_limit_mb
	 * and -timeout (the defaults allow a GiB and seconds) */
	f->lim.max[LIM_EVAL_STEPS] = 1u << 20;
	f->lim.max[LIM_EVAL_BYTES] = 64u << 20;
}

static inline void
fuzz_begin(FuzzInput *f, const uint8_t *data, size_t size)
{
	fuzz_begin_as(f, data, size, "fuzz.gl");
}

static inline void
fuzz_end(FuzzInput *f)
{
	diag_render(&f->d, DIAG_TEXT, "glc", &f->out);
	diag_render(&f->d, DIAG_JSON, "glc", &f->out);
	buf_free(&f->out);
	arena_free(f->a);
}

#endif
