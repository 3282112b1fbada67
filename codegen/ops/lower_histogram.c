/*
 * gl.histogram through shared memory: the block's threads zero num_bins
 * 32-bit counters in the scratch, every owned, unmasked element in
 * [0, num_bins) adds 1 to its counter (red.shared.add.u32), and each
 * result register reads the counter of its bin. An element the layout
 * holds several times counts once (its first owner adds it, as stores
 * write); values outside [0, num_bins) are not counted.
 */
#include "codegen/ops/ops.h"

int64_t
cg_histogram_scratch(const TInst *in)
{
	return in->res->type->shape[0] * 4;
}

bool
cg_lower_histogram(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const TType *xt = in->args[0]->type, *rt = in->res->type;
	int64_t bins = rt->shape[0];
	int threads = 32 * l->part_warps;
	LLVMValueRef base = cg_scratch(l);
	LLVMValueRef tid = LLVMBuildSub(m->b, cg_sreg(m, CG_TID_X),
	                                LLVMConstInt(m->i32, 32u * (unsigned)l->first_warp, 0), "");
	cg_barrier(m);
	for (int64_t k = 0; k < bins; k += threads) {
		LLVMValueRef bin = LLVMBuildAdd(m->b, tid, LLVMConstInt(m->i32, (uint64_t)k, 0), "");
		LLVMValueRef p = LLVMBuildGEP2(m->b, m->i32, base, &bin, 1, "");
		if (bins - k >= threads) {
			LLVMBuildStore(m->b, LLVMConstInt(m->i32, 0, 0), p);
			continue;
		}
		LLVMValueRef args[] = {p, LLVMBuildICmp(m->b, LLVMIntULT, bin,
		                                        LLVMConstInt(m->i32, (uint64_t)bins, 0), "")};
		cg_inline_asm(m, m->void_t, "@$1 st.shared.b32 [$0], 0;", "l,b,~{memory}", args, 2);
	}
	cg_barrier(m);
	uint64_t free_regs;
	LLVMValueRef owner = cg_first_owner(l, &xt->layout.ll, &free_regs);
	CgVal x = cg_val(l, in->args[0]);
	CgVal mask = in->attr.has_mask ? cg_val(l, in->args[1]) : (CgVal){0};
	bool is_signed = ir_dtype_is_signed(xt->dtype);
	for (int i = 0; i < x.n; i++) {
		if ((uint64_t)i & free_regs)
			continue;
		LLVMValueRef v = LLVMBuildIntCast2(m->b, x.r[i], m->i64, is_signed, "");
		LLVMValueRef ok = LLVMBuildICmp(m->b, LLVMIntULT, v,
		                                LLVMConstInt(m->i64, (uint64_t)bins, 0), "");
		if (mask.n)
			ok = LLVMBuildAnd(m->b, ok, mask.r[i], "");
		if (owner)
			ok = LLVMBuildAnd(m->b, ok, owner, "");
		LLVMValueRef bin = LLVMBuildAnd(m->b, LLVMBuildTrunc(m->b, v, m->i32, ""),
		                                LLVMConstInt(m->i32, (uint64_t)bins - 1, 0), "");
		LLVMValueRef args[] = {LLVMBuildGEP2(m->b, m->i32, base, &bin, 1, ""), ok};
		cg_inline_asm(m, m->void_t, "@$1 red.shared.add.u32 [$0], 1;", "l,b,~{memory}", args,
		              2);
	}
	cg_barrier(m);
	int n = cg_type_regs(rt);
	CgVal r = cg_val_new(l, n);
	for (int i = 0; i < n; i++) {
		LLVMValueRef bin = cg_coord(l, &rt->layout.ll, i, 0);
		r.r[i] = LLVMBuildLoad2(m->b, m->i32, LLVMBuildGEP2(m->b, m->i32, base, &bin, 1, ""), "");
	}
	l->vals[in->res->id] = r;
	return true;
}
