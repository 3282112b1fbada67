/*
 * gl.gather through shared memory: the source is stored row-major in the
 * scratch (each element once per thread holding it, vectorized as the
 * layout allows), then every result element loads the source at its own
 * coordinate with the axis coordinate replaced by its index. An index is
 * taken modulo the axis length (powers of two), so no access leaves the
 * source.
 */
#include "codegen/ops/ops.h"

int64_t
cg_gather_scratch(const TInst *in)
{
	const TType *s = in->args[0]->type;
	int64_t n = 1;
	for (int d = 0; d < s->rank; d++)
		n *= s->shape[d];
	return n * (s->dtype == DT_I1 ? 1 : ir_dtype_bits(s->dtype) / 8);
}

bool
cg_lower_gather(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const TType *st = in->args[0]->type, *it = in->args[1]->type, *rt = in->res->type;
	int axis = in->attr.axis;
	LLVMTypeRef et = cg_elem_type(m, st), smt = cg_smem_elem_type(m, st);
	LLVMValueRef base = cg_scratch(l);
	CgSmemMap map = {.hw = cg_offset_map(st), .base = base};
	cg_barrier(m);
	cg_smem_store(l, &map, smt, cg_val(l, in->args[0]));
	cg_barrier(m);
	CgVal idx = cg_val(l, in->args[1]);
	CgVal r = cg_val_new(l, idx.n);
	bool wide = ir_dtype_bits(it->dtype) == 64;
	for (int i = 0; i < idx.n; i++) {
		LLVMValueRef off = LLVMConstInt(m->i32, 0, 0);
		for (int d = 0; d < rt->rank; d++) {
			LLVMValueRef c;
			if (d == axis) {
				c = wide ? LLVMBuildTrunc(m->b, idx.r[i], m->i32, "")
				         : LLVMBuildIntCast2(m->b, idx.r[i], m->i32, false, "");
				c = LLVMBuildAnd(m->b, c, LLVMConstInt(m->i32, (uint64_t)st->shape[d] - 1, 0),
				                 "");
			} else {
				c = cg_coord(l, &rt->layout.ll, i, d);
			}
			off = LLVMBuildAdd(m->b, LLVMBuildMul(m->b, off, LLVMConstInt(m->i32,
			                   (uint64_t)st->shape[d], 0), ""), c, "");
		}
		LLVMValueRef p = LLVMBuildGEP2(m->b, smt, base, &off, 1, "");
		r.r[i] = cg_from_smem(m, LLVMBuildLoad2(m->b, smt, p, ""), et);
	}
	l->vals[in->res->id] = r;
	return true;
}
