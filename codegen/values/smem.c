/*
 * Shared-memory accesses that the families share: the block's memory at a
 * byte offset and the scratch region of the code being lowered, elements
 * as they are stored, and vectorized accesses through a hardware -> offset
 * map.
 *
 * An access map hw sends (register, lane, warp) to an element offset. When
 * ll_num_consecutive(hw, register, offset) = V, registers r..r+V-1 (r a
 * multiple of V) sit at V consecutive offsets starting at a multiple of V,
 * so they move as one ld/st.shared.v{V} of up to 16 bytes, aligned. A
 * PaddedSharedLayout's offsets are padded (ll_pad) on the way to an
 * address, in views as in accesses; its vectors stay within the smallest
 * interval and padding (ll_padding_vector), so that they stay whole and
 * aligned.
 */
#include "codegen/values/values.h"

LLVMValueRef
cg_smem_at(Lower *l, int64_t off)
{
	LLVMValueRef o = LLVMConstInt(l->m->i64, (uint64_t)off, 0);
	return LLVMBuildGEP2(l->m->b, l->m->i8, l->smem, &o, 1, "");
}

LLVMValueRef
cg_scratch(Lower *l)
{
	return cg_smem_at(l, l->part >= 0 ? l->part_scratch_off[l->part] : l->scratch_off);
}

LLVMTypeRef
cg_smem_elem_type(CgModule *m, const TType *t)
{
	if (t->kind == TY_PTR || (t->kind == TY_TENSOR && t->elem_is_ptr))
		return m->i64;
	if (t->dtype == DT_I1)
		return m->i8;
	return cg_dtype_type(m, t->dtype);
}

LLVMValueRef
cg_to_smem(CgModule *m, LLVMValueRef v, LLVMTypeRef st)
{
	LLVMTypeRef t = LLVMTypeOf(v);
	if (t == st)
		return v;
	if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
		return LLVMBuildPtrToInt(m->b, v, st, "");
	return LLVMBuildZExt(m->b, v, st, "");
}

LLVMValueRef
cg_from_smem(CgModule *m, LLVMValueRef v, LLVMTypeRef t)
{
	LLVMTypeRef st = LLVMTypeOf(v);
	if (t == st)
		return v;
	if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
		return LLVMBuildIntToPtr(m->b, v, t, "");
	return LLVMBuildICmp(m->b, LLVMIntNE, v, LLVMConstNull(st), "");
}

int
cg_smem_vector(const LLayout *hw, const LLPadding *pad)
{
	int v = ll_num_consecutive(hw, LL_REGISTER, LL_OFFSET);
	int cap = pad ? ll_padding_vector(pad) : v;
	return v < cap ? v : cap;
}

/* Registers per access of hw for elements of st and n registers. */
static int
access_width(CgModule *m, const LLayout *hw, const LLPadding *pad, LLVMTypeRef st, int n)
{
	int bytes = (int)LLVMABISizeOfType(m->target->data, st);
	int v = cg_smem_vector(hw, pad);
	while (v > 1 && v * bytes > 16)
		v /= 2;
	return v > n ? n : v;
}

/* Whether register r duplicates a lower register (a free register bit). */
static bool
duplicate_reg(const LLayout *hw, int r)
{
	uint64_t free[LL_MAX_DIMS];
	ll_free_masks(hw, free);
	int ri = ll_in_index(hw, LL_REGISTER);
	return ri >= 0 && (free[ri] & (uint64_t)r) != 0;
}

LLVMValueRef
cg_pad_offset(CgModule *m, const LLPadding *p, LLVMValueRef x)
{
	LLVMTypeRef t = LLVMTypeOf(x);
	LLVMValueRef r = x;
	for (int i = 0; i < p->n; i++) {
		LLVMValueRef k = LLVMBuildLShr(m->b, x, LLVMConstInt(t, p->interval_bits[i], 0), "");
		k = LLVMBuildShl(m->b, k, LLVMConstInt(t, p->pad_bits[i], 0), "");
		r = LLVMBuildAdd(m->b, r, k, "");
	}
	return r;
}

/* The offset bits of hw that lanes and warps can set. */
static uint64_t
thread_bits(const LLayout *hw)
{
	int oj = ll_out_index(hw, LL_OFFSET);
	uint64_t bits = 0;
	static const LLName ids[] = {LL_LANE, LL_WARP};
	for (int h = 0; h < 2; h++) {
		int i = ll_in_index(hw, ids[h]);
		for (int b = 0; i >= 0 && b < hw->in_bits[i]; b++) {
			uint32_t v[LL_MAX_DIMS];
			ll_get_basis(hw, i, b, v);
			bits |= v[oj];
		}
	}
	return bits;
}

/* The offset of register r at lane 0 of warp 0. */
static uint64_t
reg_offset(const LLayout *hw, int r)
{
	int oj = ll_out_index(hw, LL_OFFSET), ri = ll_in_index(hw, LL_REGISTER);
	uint64_t off = 0;
	for (int b = 0; ri >= 0 && b < hw->in_bits[ri]; b++)
		if (r >> b & 1) {
			uint32_t v[LL_MAX_DIMS];
			ll_get_basis(hw, ri, b, v);
			off ^= v[oj];
		}
	return off;
}

LLVMValueRef
cg_smem_elem(Lower *l, const CgSmemMap *map, LLVMTypeRef st, int r)
{
	CgModule *m = l->m;
	const LLayout *hw = &map->hw;
	LLVMValueRef off;
	if (!map->pad.n) {
		off = cg_apply_hw(l, hw, r, LL_OFFSET);
		if (map->flip)
			off = LLVMBuildXor(m->b, off, LLVMConstInt(m->i32, map->flip, 0), "");
	} else if (map->flip || (reg_offset(hw, r) & thread_bits(hw))) {
		off = cg_apply_hw(l, hw, r, LL_OFFSET);
		if (map->flip)
			off = LLVMBuildXor(m->b, off, LLVMConstInt(m->i32, map->flip, 0), "");
		off = cg_pad_offset(m, &map->pad, off);
	} else {
		/* pad(thread | reg) = pad(thread) + pad(reg) when their bits are
		 * disjoint: the register's part stays a constant offset */
		int64_t k = ll_pad(&map->pad, (int64_t)reg_offset(hw, r));
		off = LLVMBuildAdd(m->b, cg_pad_offset(m, &map->pad, cg_apply_hw(l, hw, 0, LL_OFFSET)),
		                   LLVMConstInt(m->i32, (uint64_t)k, 0), "");
	}
	off = LLVMBuildZExt(m->b, off, m->i64, "");
	return LLVMBuildGEP2(m->b, st, map->base, &off, 1, "");
}

void
cg_smem_store(Lower *l, const CgSmemMap *map, LLVMTypeRef st, CgVal v)
{
	CgModule *m = l->m;
	int w = access_width(m, &map->hw, &map->pad, st, v.n);
	unsigned bytes = (unsigned)LLVMABISizeOfType(m->target->data, st);
	for (int r = 0; r < v.n; r += w) {
		if (duplicate_reg(&map->hw, r))
			continue;
		LLVMValueRef p = cg_smem_elem(l, map, st, r), x;
		if (w == 1) {
			x = cg_to_smem(m, v.r[r], st);
		} else {
			LLVMTypeRef vt = LLVMVectorType(st, (unsigned)w);
			x = LLVMGetPoison(vt);
			for (int i = 0; i < w; i++)
				x = LLVMBuildInsertElement(m->b, x, cg_to_smem(m, v.r[r + i], st),
				                           LLVMConstInt(m->i32, (uint64_t)i, 0), "");
		}
		LLVMSetAlignment(LLVMBuildStore(m->b, x, p), bytes * (unsigned)w);
	}
}

void
cg_smem_load(Lower *l, const CgSmemMap *map, LLVMTypeRef st, LLVMTypeRef et, CgVal v)
{
	CgModule *m = l->m;
	int w = access_width(m, &map->hw, &map->pad, st, v.n);
	unsigned bytes = (unsigned)LLVMABISizeOfType(m->target->data, st);
	for (int r = 0; r < v.n; r += w) {
		LLVMValueRef p = cg_smem_elem(l, map, st, r);
		LLVMTypeRef t = w == 1 ? st : LLVMVectorType(st, (unsigned)w);
		LLVMValueRef x = LLVMBuildLoad2(m->b, t, p, "");
		LLVMSetAlignment(x, bytes * (unsigned)w);
		for (int i = 0; i < w; i++) {
			LLVMValueRef e = w == 1 ? x : LLVMBuildExtractElement(m->b, x,
			                 LLVMConstInt(m->i32, (uint64_t)i, 0), "");
			v.r[r + i] = cg_from_smem(m, e, et);
		}
	}
}

LLayout
cg_offset_map(const TType *t)
{
	int bits = 0;
	for (int d = 0; d < t->rank; d++)
		bits += ll_out_bits(&t->layout.ll, (LLName)(LL_DIM0 + d));
	LLayout hw;
	ll_reshape_outs(&t->layout.ll, &bits, 1, &hw, NULL);
	hw.out_name[0] = LL_OFFSET;
	return hw;
}

bool
cg_smem_access_map(Lower *l, const TInst *in, const TValue *s, const TType *t, LLVMTypeRef st,
                   CgSmemMap *map)
{
	CgModule *m = l->m;
	LLErr err = {m->arena, NULL};
	LLayout place;
	int64_t origin;
	if (!ir_smem_place(s->type, &place, &origin, &err) ||
	    !ll_compose(&t->layout.ll, &place, &map->hw, &err)) {
		cg_unsupported(l, in, arena_printf(m->arena, "this shared-memory access (%s)",
		                                   err.msg ? err.msg : "no map"));
		return false;
	}
	uint64_t touched = 0;
	for (int k = 0; k < ll_total_in_bits(&map->hw); k++)
		touched |= map->hw.col[k];
	map->flip = (uint32_t)(origin & touched);
	map->pad = ll_desc_padding(s->type->layout.desc);
	LLVMValueRef off = LLVMConstInt(m->i64, (uint64_t)(origin & ~touched), 0);
	map->base = LLVMBuildGEP2(m->b, st, cg_val(l, s).r[0], &off, 1, "");
	return true;
}
