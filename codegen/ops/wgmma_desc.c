/*
 * WGMMA shared-memory matrix descriptors. A descriptor comes from the
 * operand view's placement (ir_smem_place: its layout's inverse, and for a
 * strided view the origin that starts every address): the
 * contiguous dim (offset bit 0) says K-major or MN-major; for K-major the
 * stride byte offset (SBO) is the offset of row 8 and the leading byte
 * offset (LBO) that of the next 16-byte column of core matrices (unused
 * with a swizzle; without one, the 8 rows of a core matrix must be 16 bytes
 * apart); for MN-major SBO is the offset of K row 8 and LBO that of
 * the next swizzle-width chunk along MN. Each instruction's start address is
 * the offset of its first (mn, k) element. Swizzled allocations are
 * 1024-byte aligned, so the base-offset field is 0.
 */
#include "codegen/ops/mma.h"

static int
swizzle_mode(int bytes)
{
	switch (bytes) {
	case 128: return 1;
	case 64: return 2;
	case 32: return 3;
	default: return 0;
	}
}

/* Byte offset of o's element (mn, k) from the view's first element's
 * region start, with the view's origin (at) or without it (the distance
 * that coordinates (mn, k) move). */
static int64_t
place(const CgWgmmaOperand *o, int64_t mn, int64_t k, bool at)
{
	int64_t c[2];
	c[o->mn_dim] = mn;
	c[o->k_dim] = k;
	return cg_smem_offset(&o->place, at ? o->origin : 0, c, 2) * o->elem_bytes;
}

static int64_t
off2(const CgWgmmaOperand *o, int64_t mn, int64_t k)
{
	return place(o, mn, k, false);
}

bool
cg_wgmma_operand(Lower *l, const TInst *in, const TValue *v, int mn_dim, CgWgmmaOperand *o)
{
	CgModule *m = l->m;
	const TType *s = v->type;
	const LLDesc *d = s->layout.desc;
	if (s->kind != TY_SMEM || s->rank != 2 || !d || d->kind != LL_NVMMA_SHARED) {
		cg_unsupported(l, in, "a WGMMA operand that is not an NVMMASharedLayout view");
		return false;
	}
	if (!cg_smem_place(l, in, s, &o->place, &o->origin))
		return false;
	o->mn_dim = mn_dim;
	o->k_dim = 1 - mn_dim;
	o->elem_bytes = ir_dtype_bits(s->dtype) / 8;
	uint32_t b0[LL_MAX_DIMS];
	int oi = ll_in_index(&s->layout.ll, LL_OFFSET);
	ll_get_basis(&s->layout.ll, oi, 0, b0);
	int contig = b0[ll_out_index(&s->layout.ll, (LLName)(LL_DIM0 + 1))] ? 1 : 0;
	o->mn_major = contig == mn_dim;
	int sw = d->swizzle_byte_width;
	int64_t lbo, sbo;
	if (!o->mn_major) {
		if (!sw && off2(o, 1, 0) != 16) {
			cg_unsupported(l, in, "an unswizzled WGMMA operand whose rows are not 16 bytes "
			               "apart (core matrices of 128 contiguous bytes)");
			return false;
		}
		sbo = off2(o, 8, 0);
		lbo = sw ? 16 : off2(o, 0, 16 / o->elem_bytes);
	} else {
		if (!sw) {
			cg_unsupported(l, in, "an unswizzled MN-major WGMMA operand");
			return false;
		}
		int64_t chunk = sw / o->elem_bytes;
		sbo = off2(o, 0, 8);
		lbo = s->shape[mn_dim] > chunk ? off2(o, chunk, 0) : 16;
	}
	o->bits = (uint64_t)(lbo >> 4 & 0x3fff) << 16 | (uint64_t)(sbo >> 4 & 0x3fff) << 32 |
	          (uint64_t)swizzle_mode(sw) << 62;
	o->addr = LLVMBuildPtrToInt(m->b, cg_val(l, v).r[0], m->i64, "");
	return true;
}

LLVMValueRef
cg_wgmma_desc(Lower *l, const CgWgmmaOperand *o, int64_t mn, int64_t k, LLVMValueRef rt)
{
	CgModule *m = l->m;
	LLVMValueRef a = LLVMBuildAdd(m->b, o->addr,
	                              LLVMConstInt(m->i64, (uint64_t)place(o, mn, k, true), 0), "");
	if (rt)
		a = LLVMBuildAdd(m->b, a, rt, "");
	a = LLVMBuildAnd(m->b, LLVMBuildLShr(m->b, a, LLVMConstInt(m->i64, 4, 0), ""),
	                 LLVMConstInt(m->i64, 0x3fff, 0), "");
	return LLVMBuildOr(m->b, a, LLVMConstInt(m->i64, o->bits, 0), "");
}

LLVMValueRef
cg_wgmma_mn_offset(Lower *l, const CgWgmmaOperand *o, LLVMValueRef mn, int64_t lo, int64_t hi)
{
	CgModule *m = l->m;
	LLVMValueRef off = LLVMConstInt(m->i64, 0, 0);
	for (int64_t bit = lo; bit < hi; bit <<= 1) {
		LLVMValueRef on = LLVMBuildICmp(m->b, LLVMIntNE,
		                                LLVMBuildAnd(m->b, mn,
		                                             LLVMConstInt(m->i32, (uint64_t)bit, 0), ""),
		                                LLVMConstInt(m->i32, 0, 0), "");
		off = LLVMBuildXor(m->b, off,
		                   LLVMBuildSelect(m->b, on,
		                                   LLVMConstInt(m->i64, (uint64_t)off2(o, bit, 0), 0),
		                                   LLVMConstInt(m->i64, 0, 0), ""), "");
	}
	return off;
}
