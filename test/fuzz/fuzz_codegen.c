/*
 * libFuzzer target for code generation: the input bytes are parsed as a
 * module and, when it type-checks, the pass pipeline runs and every kernel
 * is lowered to LLVM IR, optimized and emitted as PTX (no ptxas) for
 * sm_90a at -O3, as `glc --emit=ptx` does; every diagnostic is rendered. Any crash, LLVM fatal
 * error, sanitizer report or leak is a bug: codegen must take any program
 * sema accepts, or report what it cannot lower.
 *
 * The NVPTX target machine is made once (LLVMFuzzerInitialize) and lives in
 * its own arena for the whole run.
 */
#include "codegen/codegen.h"
#include "parser/parser.h"
#include "passes/passes.h"
#include "sema/sema.h"
#include "test/fuzz/fuzz_input.h"

#include <stdio.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static CgTarget *target;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	Arena *a = arena_new();
	Diags d;
	diag_init(&d, a, src_new(a));
	/* As tight as fuzz_begin's (elements per thread), and a kernel that
	 * LLVM compiles well within libFuzzer's -timeout. */
	static Limits lim;
	lim = limits_default();
	lim.max[LIM_ELEMS_PER_THREAD] = 256;
	lim.max[LIM_KERNEL_OPS] = 1u << 14;
	CgOptions o = {"sm_90a", 3, false, false, &lim};
	target = cg_target_new(&o, &d);
	if (!target) {
		StrBuf msg = {0};
		diag_render(&d, DIAG_TEXT, "fuzz_codegen", &msg);
		fputs(msg.s ? msg.s : "", stderr);
		buf_free(&msg);
		return 1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!target)
		return 0;
	FuzzInput f;
	fuzz_begin(&f, data, size);

	Node *m = parse_module(f.a, f.in, f.src, f.file, &f.d, &f.lim);
	if (m && f.d.errors == 0) {
		TProgram *p = sema_check(f.a, f.in, f.src, &f.d, m, NULL, 0, NULL, &f.lim);
		CgResult r;
		if (p && ir_verify(p, false, &f.d) && pass_run_all(p, f.a, &f.d) &&
		    ir_verify(p, true, &f.d) && cg_compile(target, p, NULL, f.src, f.file, f.a, &f.d, &r))
			buf_putn(&f.out, (const char *)r.ptx.data, r.ptx.len);
	}

	fuzz_end(&f);
	return 0;
}
