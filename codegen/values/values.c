/*
 * What every family of the lowering works with: the values of IR values as
 * per-thread registers, the coordinates a register holds, allocas, the
 * partition's leader thread, the placement of shared-memory views, and the
 * report of an operation codegen cannot lower.
 */
#include "codegen/llvm/nvvm.h"
#include "codegen/values/values.h"

void
cg_unsupported(Lower *l, const TInst *in, const char *what)
{
	diag_internal(l->m->diags, in->at, "code generation does not support %s yet", what);
	l->failed = true;
}

int
cg_type_regs(const TType *t)
{
	if (t->kind != TY_TENSOR)
		return 1;
	return 1 << ll_in_bits(&t->layout.ll, LL_REGISTER);
}

LLVMTypeRef
cg_elem_type(CgModule *m, const TType *t)
{
	if (t->kind == TY_PTR || (t->kind == TY_TENSOR && t->elem_is_ptr))
		return m->ptr_global;
	return cg_dtype_type(m, t->dtype);
}

CgVal
cg_val_new(Lower *l, int n)
{
	CgVal v = {arena_alloc(l->m->arena, (size_t)n * sizeof(LLVMValueRef)), n};
	return v;
}

CgVal
cg_val(Lower *l, const TValue *v)
{
	return l->vals[v->id];
}

LLVMValueRef
cg_apply_hw(Lower *l, const LLayout *ly, int r, LLName out)
{
	CgModule *m = l->m;
	int j = ll_out_index(ly, out);
	if (j < 0)
		return LLVMConstInt(m->i32, 0, 0);
	uint32_t v[LL_MAX_DIMS];
	uint64_t reg_part = 0;
	int ri = ll_in_index(ly, LL_REGISTER);
	for (int b = 0; ri >= 0 && b < ly->in_bits[ri]; b++)
		if (r >> b & 1) {
			ll_get_basis(ly, ri, b, v);
			reg_part ^= v[j];
		}
	LLVMValueRef c = NULL;
	static const LLName hw[] = {LL_LANE, LL_WARP};
	for (int h = 0; h < 2; h++) {
		int ii = ll_in_index(ly, hw[h]);
		if (ii < 0)
			continue;
		LLVMValueRef id = h == 0 ? cg_lane_id(m) : cg_warp_id(m);
		for (int b = 0; b < ly->in_bits[ii]; b++) {
			ll_get_basis(ly, ii, b, v);
			if (!v[j])
				continue;
			LLVMValueRef bit = LLVMBuildAnd(m->b, id, LLVMConstInt(m->i32, 1u << b, 0), "");
			LLVMValueRef on = LLVMBuildICmp(m->b, LLVMIntNE, bit,
			                                LLVMConstInt(m->i32, 0, 0), "");
			LLVMValueRef t = LLVMBuildSelect(m->b, on, LLVMConstInt(m->i32, v[j], 0),
			                                 LLVMConstInt(m->i32, 0, 0), "");
			c = c ? LLVMBuildXor(m->b, c, t, "") : t;
		}
	}
	LLVMValueRef k = LLVMConstInt(m->i32, reg_part, 0);
	return c ? LLVMBuildXor(m->b, c, k, "") : k;
}

LLVMValueRef
cg_coord(Lower *l, const LLayout *ly, int r, int dim)
{
	return cg_apply_hw(l, ly, r, (LLName)(LL_DIM0 + dim));
}

LLVMValueRef
cg_entry_alloca(Lower *l, LLVMTypeRef t, const char *name)
{
	CgModule *m = l->m;
	LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(m->fn);
	LLVMBuilderRef b = LLVMCreateBuilderInContext(m->ctx);
	LLVMValueRef first = LLVMGetFirstInstruction(entry);
	if (first)
		LLVMPositionBuilderBefore(b, first);
	else
		LLVMPositionBuilderAtEnd(b, entry);
	LLVMValueRef a = LLVMBuildAlloca(b, t, name);
	LLVMDisposeBuilder(b);
	return a;
}

LLVMValueRef
cg_leader(Lower *l)
{
	CgModule *m = l->m;
	LLVMValueRef tid = cg_sreg(m, CG_TID_X);
	return LLVMBuildICmp(m->b, LLVMIntEQ, tid,
	                     LLVMConstInt(m->i32, (uint64_t)(32 * l->first_warp), 1), "leader");
}

/* The placement of smem view s (ir_smem_place), or an unsupported-layout
 * error at in. */
bool
cg_smem_place(Lower *l, const TInst *in, const TType *s, LLayout *map, int64_t *origin)
{
	LLErr err = {l->m->arena, NULL};
	if (ir_smem_place(s, map, origin, &err))
		return true;
	cg_unsupported(l, in, arena_printf(l->m->arena, "this shared layout (%s)",
	                                   err.msg ? err.msg : "not invertible"));
	return false;
}

int64_t
cg_smem_offset(const LLayout *map, int64_t origin, const int64_t *coords, int rank)
{
	uint32_t in[LL_MAX_DIMS] = {0}, out[LL_MAX_DIMS] = {0};
	for (int d = 0; d < rank; d++) {
		int i = ll_in_index(map, (LLName)(LL_DIM0 + d));
		if (i >= 0)
			in[i] = (uint32_t)coords[d];
	}
	ll_apply(map, in, out);
	int j = ll_out_index(map, LL_OFFSET);
	return origin ^ (j < 0 ? 0 : out[j]);
}

LLVMBasicBlockRef
cg_if_open(Lower *l, LLVMValueRef cond)
{
	CgModule *m = l->m;
	LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "one.then");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "one.end");
	LLVMBuildCondBr(m->b, cond, then, done);
	LLVMPositionBuilderAtEnd(m->b, then);
	return done;
}

void
cg_if_close(Lower *l, LLVMBasicBlockRef done)
{
	LLVMBuildBr(l->m->b, done);
	LLVMPositionBuilderAtEnd(l->m->b, done);
}
