/*
 * wgmma.mma_async has no LLVM intrinsic; it is inline PTX whose operand list
 * and constraint string are generated here. Scale-d is an i1 predicate
 * (constraint "b"), and the first step takes poison accumulators, so no
 * register shared with an accumulator is read between wgmma.fence and the
 * mma (which would make ptxas serialize the wgmmas). The wait passes the
 * accumulators through its own asm (tied operands), so nothing reads them
 * before the wait retires the MMAs that write them.
 */
#include "codegen/cg_internal.h"

#include <string.h>

bool
cg_wgmma(CgModule *m, int n, TDType ab, LLVMValueRef *acc, LLVMValueRef desc_a,
         LLVMValueRef desc_b, LLVMValueRef scale_d, LLVMValueRef *out)
{
	return cg_wgmma_major(m, n, ab, false, false, acc, desc_a, desc_b, scale_d, out);
}

bool
cg_wgmma_major(CgModule *m, int n, TDType ab, bool mn_major_a, bool mn_major_b,
               LLVMValueRef *acc, LLVMValueRef desc_a, LLVMValueRef desc_b,
               LLVMValueRef scale_d, LLVMValueRef *out)
{
	if (n < 8 || n > 256 || n % 8 != 0 || (ab != DT_F16 && ab != DT_BF16))
		return false;
	int k = n / 2;   /* f32 accumulators per thread: 64 x n over 128 threads */
	const char *t = ab == DT_F16 ? "f16" : "bf16";
	StrBuf asm_text = {0}, cons = {0};
	buf_printf(&asm_text, "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {", n, t, t);
	for (int i = 0; i < k; i++) {
		buf_printf(&asm_text, "%s$%d", i ? "," : "", i);
		buf_printf(&cons, "%s=f", i ? "," : "");
	}
	buf_printf(&asm_text, "}, $%d, $%d, $%d, 1, 1, %d, %d;", 2 * k, 2 * k + 1, 2 * k + 2,
	           mn_major_a, mn_major_b);
	for (int i = 0; i < k; i++)
		buf_printf(&cons, ",%d", i);
	buf_puts(&cons, ",l,l,b,~{memory}");

	LLVMTypeRef *fields = arena_alloc(m->arena, (size_t)k * sizeof *fields);
	LLVMTypeRef *in_types = arena_alloc(m->arena, (size_t)(k + 3) * sizeof *in_types);
	LLVMValueRef *args = arena_alloc(m->arena, (size_t)(k + 3) * sizeof *args);
	for (int i = 0; i < k; i++) {
		fields[i] = in_types[i] = m->f32;
		args[i] = acc ? acc[i] : LLVMGetPoison(m->f32);
	}
	in_types[k] = in_types[k + 1] = m->i64;
	in_types[k + 2] = m->i1;
	args[k] = desc_a;
	args[k + 1] = desc_b;
	args[k + 2] = acc ? scale_d : LLVMConstInt(m->i1, 0, 0);
	LLVMTypeRef ret = LLVMStructTypeInContext(m->ctx, fields, (unsigned)k, false);
	LLVMTypeRef fty = LLVMFunctionType(ret, in_types, (unsigned)(k + 3), false);
	LLVMValueRef fn = LLVMGetInlineAsm(fty, asm_text.s, asm_text.len, cons.s, cons.len, true,
	                                   false, LLVMInlineAsmDialectATT, false);
	LLVMValueRef r = LLVMBuildCall2(m->b, fty, fn, args, (unsigned)(k + 3), "");
	for (int i = 0; i < k; i++)
		out[i] = LLVMBuildExtractValue(m->b, r, (unsigned)i, "");
	buf_free(&asm_text);
	buf_free(&cons);
	return true;
}

void
cg_wgmma_fence(CgModule *m)
{
	cg_intrinsic(m, "llvm.nvvm.wgmma.fence.sync.aligned", m->void_t, NULL, 0, NULL, 0);
}

void
cg_wgmma_commit(CgModule *m)
{
	cg_intrinsic(m, "llvm.nvvm.wgmma.commit_group.sync.aligned", m->void_t, NULL, 0, NULL, 0);
}

void
cg_wgmma_wait(CgModule *m, int pending)
{
	LLVMValueRef n = LLVMConstInt(m->i64, (uint64_t)pending, 0);
	cg_intrinsic(m, "llvm.nvvm.wgmma.wait_group.sync.aligned", m->void_t, NULL, 0, &n, 1);
}

void
cg_wgmma_wait_tied(CgModule *m, int pending, LLVMValueRef *vals, int n, LLVMValueRef *out)
{
	StrBuf asm_text = {0}, cons = {0};
	buf_printf(&asm_text, "wgmma.wait_group.sync.aligned %d;", pending);
	for (int i = 0; i < n; i++)
		buf_printf(&cons, "%s=f", i ? "," : "");
	for (int i = 0; i < n; i++)
		buf_printf(&cons, ",%d", i);
	buf_puts(&cons, ",~{memory}");
	LLVMTypeRef *types = arena_alloc(m->arena, (size_t)(n + 1) * sizeof *types);
	for (int i = 0; i < n; i++)
		types[i] = m->f32;
	LLVMTypeRef ret = LLVMStructTypeInContext(m->ctx, types, (unsigned)n, false);
	LLVMTypeRef fty = LLVMFunctionType(ret, types, (unsigned)n, false);
	LLVMValueRef fn = LLVMGetInlineAsm(fty, asm_text.s, asm_text.len, cons.s, cons.len, true,
	                                   false, LLVMInlineAsmDialectATT, false);
	LLVMValueRef r = LLVMBuildCall2(m->b, fty, fn, vals, (unsigned)n, "");
	for (int i = 0; i < n; i++)
		out[i] = LLVMBuildExtractValue(m->b, r, (unsigned)i, "");
	buf_free(&asm_text);
	buf_free(&cons);
}
