/*
 * OP_DOT over a BlockedLayout accumulator (gl.dot_fma): each thread owns
 * whole rows of A and whole columns of B for its accumulator registers
 * (DotOperandLayouts of the accumulator's layout hold all of K in
 * registers, with the accumulator's lanes and warps), so every register
 * (m, n) of the result is acc + sum over k of a[m, k] * b[k, n], summed in
 * k order with fused multiply-adds in the accumulator's dtype (integers:
 * multiply and add). Registers pair up by their coordinates at lane 0,
 * warp 0.
 */
#include "codegen/cg_internal.h"

/* x (an operand element of dtype t) in the accumulator's dtype acc. */
static LLVMValueRef
widen(CgModule *m, LLVMValueRef x, TDType t, TDType acc)
{
	LLVMTypeRef at = cg_dtype_type(m, acc);
	if (t == acc)
		return x;
	if (ir_dtype_is_float(t))
		return LLVMBuildFPExt(m->b, x, at, "");
	return ir_dtype_is_signed(t) ? LLVMBuildSExt(m->b, x, at, "") : LLVMBuildZExt(m->b, x, at, "");
}

/* The registers of operand v along its K dim (kdim) at the fixed other
 * coordinate `at`, indexed by k, widened to the accumulator's dtype;
 * false when one is missing. */
static bool
k_line(CgModule *m, CgVal v, const CgCoord2 *rc, int kdim, int64_t at, TDType t,
       TDType acc, int64_t K, LLVMValueRef *out)
{
	for (int64_t k = 0; k < K; k++)
		out[k] = NULL;
	for (int r = 0; r < v.n; r++)
		if (rc[r][1 - kdim] == at && rc[r][kdim] < K && !out[rc[r][kdim]])
			out[rc[r][kdim]] = widen(m, v.r[r], t, acc);
	for (int64_t k = 0; k < K; k++)
		if (!out[k])
			return false;
	return true;
}

bool
cg_lower_dot(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const TType *at = in->args[0]->type, *bt = in->args[1]->type, *ct = in->res->type;
	CgVal a = cg_val(l, in->args[0]), b = cg_val(l, in->args[1]), c = cg_val(l, in->args[2]);
	int64_t K = at->shape[1];
	TDType d = ct->dtype;
	CgCoord2 *ra = cg_reg_coords(m->arena, &at->layout.ll, a.n);
	CgCoord2 *rb = cg_reg_coords(m->arena, &bt->layout.ll, b.n);
	CgCoord2 *rcc = cg_reg_coords(m->arena, &ct->layout.ll, c.n);
	LLVMValueRef *ka = arena_alloc(m->arena, (size_t)K * sizeof *ka);
	LLVMValueRef *kb = arena_alloc(m->arena, (size_t)K * sizeof *kb);
	LLVMTypeRef t = cg_dtype_type(m, d);
	CgVal res = cg_val_new(l, c.n);
	for (int r = 0; r < c.n; r++) {
		if (!k_line(m, a, ra, 1, rcc[r][0], at->dtype, d, K, ka) ||
		    !k_line(m, b, rb, 0, rcc[r][1], bt->dtype, d, K, kb)) {
			cg_unsupported(l, in, "gl.dot_fma operands whose registers do not hold the "
			               "accumulator's rows of A and columns of B");
			return false;
		}
		LLVMValueRef s = c.r[r];
		for (int64_t k = 0; k < K; k++) {
			if (ir_dtype_is_float(d)) {
				LLVMValueRef args[3] = {ka[k], kb[k], s};
				s = cg_intrinsic(m, "llvm.fma", t, &t, 1, args, 3);
			} else {
				s = LLVMBuildAdd(m->b, s, LLVMBuildMul(m->b, ka[k], kb[k], ""), "");
			}
		}
		res.r[r] = s;
	}
	l->vals[in->res->id] = res;
	return true;
}
