/*
 * The shared-memory ops of the language: alloc (the allocation's place in
 * the block's memory), view (index, slice, permute, reshape folded to one
 * offset, padded as the base's layout pads), load and store (vectorized
 * through the access map, smem_access.c).
 */
#include "codegen/ops/ops.h"


bool
cg_lower_smem(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	switch (in->op) {
	case OP_SMEM_ALLOC: {
		const TSmemAlloc *a = &l->k->smem[in->attr.alloc];
		CgVal r = cg_val_new(l, 1);
		r.r[0] = cg_smem_at(l, a->offset);
		l->vals[in->res->id] = r;
		return true;
	}
	case OP_SMEM_VIEW: {
		LLVMValueRef base = cg_val(l, in->args[0]).r[0];
		LLVMTypeRef st = cg_smem_elem_type(m, in->res->type);
		LLPadding pad = ll_desc_padding(in->args[0]->type->layout.desc);
		LLVMValueRef off = LLVMConstInt(m->i64, (uint64_t)in->attr.offset, 1);
		if (in->n_args > 1) {
			LLVMValueRef i = LLVMBuildSExt(m->b, cg_val(l, in->args[1]).r[0], m->i64, "");
			i = LLVMBuildMul(m->b, i, LLVMConstInt(m->i64, (uint64_t)in->attr.stride, 1), "");
			off = cg_pad_offset(m, &pad, LLVMBuildAdd(m->b, off, i, ""));
		} else {
			off = LLVMConstInt(m->i64, (uint64_t)ll_pad(&pad, in->attr.offset), 1);
		}
		CgVal r = cg_val_new(l, 1);
		r.r[0] = LLVMBuildGEP2(m->b, st, base, &off, 1, "");
		l->vals[in->res->id] = r;
		return true;
	}
	case OP_SMEM_LOAD:
	case OP_SMEM_STORE: {
		bool load = in->op == OP_SMEM_LOAD;
		const TType *t = load ? in->res->type : in->args[1]->type;
		if (t->kind != TY_TENSOR) {
			cg_unsupported(l, in, "shared-memory accesses of scalars");
			return false;
		}
		LLVMTypeRef st = cg_smem_elem_type(m, t);
		CgSmemMap map;
		if (!cg_smem_access_map(l, in, in->args[0], t, st, &map))
			return false;
		if (!load) {
			cg_smem_store(l, &map, st, cg_val(l, in->args[1]));
			return true;
		}
		CgVal v = cg_val_new(l, cg_type_regs(t));
		cg_smem_load(l, &map, st, cg_elem_type(m, t), v);
		l->vals[in->res->id] = v;
		return true;
	}
	default:
		cg_unsupported(l, in, "this shared-memory operation");
		return false;
	}
}
