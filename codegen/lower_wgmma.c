/*
 * warpgroup_mma and warpgroup_mma_wait. Each warpgroup (4 consecutive
 * warps) issues m64nNk16 wgmma.mma_async instructions for its 64-row slices
 * of the accumulator, reading A and B from shared memory through matrix
 * descriptors.
 *
 * Descriptors come from the operand view's shared layout (offset -> coords)
 * through its inverse: the contiguous dim (offset bit 0) says K-major or
 * MN-major; for K-major the stride byte offset (SBO) is the offset of row 8,
 * for MN-major SBO is the offset of K row 8 and the leading byte offset
 * (LBO) that of the next swizzle-width chunk along MN; each instruction's
 * start address is the offset of its first (mn, k) element. Swizzled
 * allocations are 1024-byte aligned, so the base-offset field is 0.
 *
 * The accumulator's registers are matched to the instruction's fragment
 * (register i of m64nN: row 8 * (i/2 % 2), column 8 * (i/4) + i % 2, lanes
 * and warps as NVMMADistributedLayout v3) through the layout's register
 * bases, so any register order that holds the same elements works; the
 * values stay in registers and pass straight between instructions.
 */
#include "codegen/cg_internal.h"

enum { WG_ROWS = 64, MAX_N = 256 };

/* One smem operand: its base address, layout inverse, majorness and the
 * constant descriptor bits (LBO, SBO, swizzle mode). */
typedef struct Operand {
	LLVMValueRef addr;    /* i64 shared address of the view */
	LLayout inv;
	int mn_dim, k_dim, elem_bytes;
	bool mn_major;
	uint64_t bits;        /* descriptor without the start address */
} Operand;

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

static int64_t
off2(const Operand *o, int64_t mn, int64_t k)
{
	int64_t c[2];
	c[o->mn_dim] = mn;
	c[o->k_dim] = k;
	return cg_smem_offset(&o->inv, c, 2) * o->elem_bytes;
}

static bool
operand(Lower *l, const TInst *in, const TValue *v, int mn_dim, Operand *o)
{
	CgModule *m = l->m;
	const TType *s = v->type;
	const LLDesc *d = s->layout.desc;
	if (s->kind != TY_SMEM || s->rank != 2 || !d || d->kind != LL_NVMMA_SHARED) {
		cg_unsupported(l, in, "a WGMMA operand that is not an NVMMASharedLayout view");
		return false;
	}
	if (!cg_smem_inverse(l, in, s, &o->inv))
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
		sbo = off2(o, 8, 0);
		lbo = sw ? 16 : off2(o, 0, 8);
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

/* The descriptor of o's (mn, k) element plus a runtime byte offset. */
static LLVMValueRef
descriptor(Lower *l, const Operand *o, int64_t mn, int64_t k, LLVMValueRef rt)
{
	CgModule *m = l->m;
	LLVMValueRef a = LLVMBuildAdd(m->b, o->addr,
	                              LLVMConstInt(m->i64, (uint64_t)off2(o, mn, k), 0), "");
	if (rt)
		a = LLVMBuildAdd(m->b, a, rt, "");
	a = LLVMBuildAnd(m->b, LLVMBuildLShr(m->b, a, LLVMConstInt(m->i64, 4, 0), ""),
	                 LLVMConstInt(m->i64, 0x3fff, 0), "");
	return LLVMBuildOr(m->b, a, LLVMConstInt(m->i64, o->bits, 0), "");
}

/* Coordinates (row, col) of register r at lane 0, warp 0. */
static void
reg_coords(const LLayout *ly, int r, int64_t *row, int64_t *col)
{
	uint32_t v[LL_MAX_DIMS];
	int ri = ll_in_index(ly, LL_REGISTER);
	int j0 = ll_out_index(ly, LL_DIM0), j1 = ll_out_index(ly, LL_DIM1);
	*row = *col = 0;
	for (int b = 0; ri >= 0 && b < ly->in_bits[ri]; b++)
		if (r >> b & 1) {
			ll_get_basis(ly, ri, b, v);
			*row ^= j0 >= 0 ? v[j0] : 0;
			*col ^= j1 >= 0 ? v[j1] : 0;
		}
}

/* Whether in-dim `name` of ly has exactly the (row, col) bases want[0..n). */
static bool
bases_are(const LLayout *ly, LLName name, const int64_t (*want)[2], int n)
{
	int i = ll_in_index(ly, name);
	if (i < 0 || ly->in_bits[i] < n)
		return false;
	int j0 = ll_out_index(ly, LL_DIM0), j1 = ll_out_index(ly, LL_DIM1);
	uint32_t v[LL_MAX_DIMS];
	for (int b = 0; b < n; b++) {
		ll_get_basis(ly, i, b, v);
		if ((j0 >= 0 ? v[j0] : 0) != want[b][0] || (j1 >= 0 ? v[j1] : 0) != want[b][1])
			return false;
	}
	return true;
}

/* The first row of this thread's warpgroup (warp bits 2 and up), i32. */
static LLVMValueRef
warpgroup_row(Lower *l, const LLayout *ly)
{
	CgModule *m = l->m;
	int wi = ll_in_index(ly, LL_WARP), j0 = ll_out_index(ly, LL_DIM0);
	LLVMValueRef row = LLVMConstInt(m->i32, 0, 0);
	LLVMValueRef w = LLVMBuildSub(m->b, cg_warp_id(m),
	                              LLVMConstInt(m->i32, (uint64_t)l->first_warp, 0), "");
	uint32_t v[LL_MAX_DIMS];
	for (int b = 2; b < ly->in_bits[wi]; b++) {
		ll_get_basis(ly, wi, b, v);
		LLVMValueRef bit = LLVMBuildAnd(m->b, w, LLVMConstInt(m->i32, 1u << b, 0), "");
		LLVMValueRef on = LLVMBuildICmp(m->b, LLVMIntNE, bit, LLVMConstInt(m->i32, 0, 0), "");
		row = LLVMBuildXor(m->b, row,
		                   LLVMBuildSelect(m->b, on, LLVMConstInt(m->i32, v[j0], 0),
		                                   LLVMConstInt(m->i32, 0, 0), ""), "");
	}
	return row;
}

/* Runtime byte offset of row `row` (i32) in operand A: the XOR of the
 * offsets of its set bits (rows of a warpgroup start at multiples of 64,
 * whose offsets share no bit with those of the rows and k inside). */
static LLVMValueRef
row_offset(Lower *l, const Operand *a, LLVMValueRef row, int64_t rows)
{
	CgModule *m = l->m;
	LLVMValueRef off = LLVMConstInt(m->i64, 0, 0);
	for (int64_t bit = WG_ROWS; bit < rows; bit <<= 1) {
		LLVMValueRef on = LLVMBuildICmp(m->b, LLVMIntNE,
		                                LLVMBuildAnd(m->b, row,
		                                             LLVMConstInt(m->i32, (uint64_t)bit, 0), ""),
		                                LLVMConstInt(m->i32, 0, 0), "");
		off = LLVMBuildXor(m->b, off,
		                   LLVMBuildSelect(m->b, on,
		                                   LLVMConstInt(m->i64, (uint64_t)off2(a, bit, 0), 0),
		                                   LLVMConstInt(m->i64, 0, 0), ""), "");
	}
	return off;
}

/* frag[i] = the register of fragment element i of the instruction at rows
 * m0.., columns n0..n0+n-1 (lane 0, warp 0 coordinates), -1 if none. */
static bool
fragment(const LLayout *ly, int regs, int64_t m0, int64_t n0, int n, int *frag)
{
	for (int i = 0; i < n / 2; i++) {
		int64_t row = m0 + 8 * (i >> 1 & 1), col = n0 + 8 * (i >> 2) + (i & 1);
		frag[i] = -1;
		for (int r = 0; r < regs && frag[i] < 0; r++) {
			int64_t rr, cc;
			reg_coords(ly, r, &rr, &cc);
			if (rr == row && cc == col)
				frag[i] = r;
		}
		if (frag[i] < 0)
			return false;
	}
	return true;
}

static bool
lower_mma(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const TType *at = in->args[0]->type, *ct = in->res->type;
	const LLayout *ly = &ct->layout.ll;
	static const int64_t lane_bases[5][2] = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
	static const int64_t warp_bases[2][2] = {{16, 0}, {32, 0}};
	if (at->kind != TY_SMEM) {
		cg_unsupported(l, in, "WGMMA with A in registers");
		return false;
	}
	if (ct->rank != 2 || ct->dtype != DT_F32 || !bases_are(ly, LL_LANE, lane_bases, 5) ||
	    !bases_are(ly, LL_WARP, warp_bases, 2) || (at->dtype != DT_F16 && at->dtype != DT_BF16)) {
		cg_unsupported(l, in, "this WGMMA (f16/bf16 operands, an f32 accumulator in a "
		               "version 3 NVMMADistributedLayout)");
		return false;
	}
	Operand a, b;
	if (!operand(l, in, in->args[0], 0, &a) || !operand(l, in, in->args[1], 1, &b))
		return false;
	int64_t K = at->shape[1], M = ct->shape[0], N = ct->shape[1];
	int n = N < MAX_N ? (int)N : MAX_N;
	if (K % 16 || N % n || n % 8) {
		cg_unsupported(l, in, "a WGMMA shape that is not a multiple of m64nNk16");
		return false;
	}
	int regs = cg_type_regs(ct);
	CgVal acc = cg_val(l, in->args[2]), res = cg_val_new(l, regs);
	for (int r = 0; r < regs; r++)
		res.r[r] = acc.r[r];
	LLVMValueRef use_acc = in->attr.has_use_acc ? cg_val(l, in->args[3]).r[0]
	                                            : LLVMConstInt(m->i1, 1, 0);
	LLVMValueRef rt = row_offset(l, &a, warpgroup_row(l, ly), M);
	int *frag = arena_alloc(m->arena, (size_t)n / 2 * sizeof *frag);
	LLVMValueRef *in_v = arena_alloc(m->arena, (size_t)n / 2 * sizeof *in_v);
	LLVMValueRef *out_v = arena_alloc(m->arena, (size_t)n / 2 * sizeof *out_v);
	cg_wgmma_fence(m);
	int done = 0;
	/* m0: rows of this warpgroup's slices that registers reach (row bases
	 * of 64 and up that are not warp bits). */
	for (int64_t m0 = 0; m0 < M; m0 += WG_ROWS) {
		for (int64_t n0 = 0; n0 < N; n0 += n) {
			if (!fragment(ly, regs, m0, n0, n, frag))
				continue;
			for (int i = 0; i < n / 2; i++)
				in_v[i] = res.r[frag[i]];
			for (int64_t k = 0; k < K; k += 16) {
				LLVMValueRef da = descriptor(l, &a, m0, k, rt);
				LLVMValueRef db = descriptor(l, &b, n0, k, NULL);
				if (!cg_wgmma_major(m, n, at->dtype, a.mn_major, b.mn_major, in_v, da, db,
				                    k ? LLVMConstInt(m->i1, 1, 0) : use_acc, out_v)) {
					cg_unsupported(l, in, "this WGMMA instruction shape");
					return false;
				}
				for (int i = 0; i < n / 2; i++)
					in_v[i] = out_v[i];
			}
			for (int i = 0; i < n / 2; i++)
				res.r[frag[i]] = in_v[i];
			done += n / 2;
		}
	}
	if (done != regs) {
		cg_unsupported(l, in, "this accumulator layout (registers outside any WGMMA fragment)");
		return false;
	}
	cg_wgmma_commit(m);
	if (!in->attr.is_async)
		cg_wgmma_wait_tied(m, 0, res.r, regs, res.r);
	l->vals[in->res->id] = res;
	return true;
}

bool
cg_lower_wgmma(Lower *l, const TInst *in)
{
	if (in->op == OP_WGMMA)
		return lower_mma(l, in);
	/* OP_WGMMA_WAIT: the first dependency's registers pass through the
	 * wait; further dependencies only need the wait itself. */
	CgModule *m = l->m;
	if (in->n_args == 0 || in->args[0]->type->kind != TY_TENSOR ||
	    in->args[0]->type->dtype != DT_F32) {
		cg_wgmma_wait(m, (int)in->attr.count);
		if (in->res && in->n_args > 0)
			l->vals[in->res->id] = cg_val(l, in->args[0]);
		return true;
	}
	CgVal v = cg_val(l, in->args[0]), r = cg_val_new(l, v.n);
	cg_wgmma_wait_tied(m, (int)in->attr.count, v.r, v.n, r.r);
	if (in->res)
		l->vals[in->res->id] = r;
	return true;
}
