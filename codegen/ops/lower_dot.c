/*
 * OP_DOT. Over an NVMMADistributedLayout version 2 accumulator (mma_v2):
 * mma.sync m16n8 instructions, each on the accumulator registers of one
 * 16 x 8 tile at lane 0, warp 0 (c0..c3 at rows +0, +8 and columns +0, +1)
 * and the A and B fragments of mma_frag.c, K in steps of the instruction's
 * k, in k order (operands of a larger k_width first take the registers of
 * k_width 32 / bits: mma_kwidth.c).
 *
 * Over a BlockedLayout accumulator (gl.dot_fma): each thread owns
 * whole rows of A and whole columns of B for its accumulator registers
 * (DotOperandLayouts of the accumulator's layout hold all of K in
 * registers, with the accumulator's lanes and warps), so every register
 * (m, n) of the result is acc + sum over k of a[m, k] * b[k, n], summed in
 * k order with fused multiply-adds in the accumulator's dtype (integers:
 * multiply and add). Registers pair up by their coordinates at lane 0,
 * warp 0.
 */
#include "codegen/ops/mma.h"
#include "codegen/ops/ops.h"

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

/* The m16n8 tiles of the accumulator registers at rc[0..n): tiles[4t + i]
 * is the register of element c_i of tile t (rows +0, +8 and columns +0, +1
 * from its first); their number, or -1 when some register is in none. */
static int
tiles_of(const CgCoord2 *rc, int n, int *tiles)
{
	int nt = 0;
	for (int r = 0; r < n; r++) {
		if (rc[r][0] % 16 || rc[r][1] % 8)
			continue;
		if (4 * nt + 4 > n)
			return -1;
		for (int i = 0; i < 4; i++) {
			int *q = &tiles[nt * 4 + i];
			*q = -1;
			for (int x = 0; x < n && *q < 0; x++)
				if (rc[x][0] == rc[r][0] + 8 * (i >> 1) && rc[x][1] == rc[r][1] + (i & 1))
					*q = x;
			if (*q < 0)
				return -1;
		}
		nt++;
	}
	return 4 * nt == n ? nt : -1;
}

static bool
lower_mma_sync(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const TType *at = in->args[0]->type, *bt = in->args[1]->type, *ct = in->res->type;
	const LLayout *ly = &ct->layout.ll;
	static const int64_t lanes[5][2] = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
	int kw = 32 / ir_dtype_bits(at->dtype), kk = cg_wgmma_k(at->dtype);
	CgVal a = cg_val(l, in->args[0]), b = cg_val(l, in->args[1]), c = cg_val(l, in->args[2]);
	LLayout la, lb;   /* the operands' layouts with k_width kw (mma_kwidth.c) */
	if (!kk || at->shape[1] % kk || !cg_bases_are(ly, LL_LANE, lanes, 5) ||
	    !cg_mma_kwidth_operand(l, at, 0, ct->layout.desc, a, &la, &a) ||
	    !cg_mma_kwidth_operand(l, bt, 1, ct->layout.desc, b, &lb, &b) ||
	    !cg_mma_operand_fits(&la, ly, 0, kw) || !cg_mma_operand_fits(&lb, ly, 1, kw)) {
		cg_unsupported(l, in, "this mma_v2 (operands not in the DotOperandLayouts of a "
		               "version 2 NVMMADistributedLayout accumulator)");
		return false;
	}
	CgCoord2 *ra = cg_reg_coords(m->arena, &la, a.n);
	CgCoord2 *rb = cg_reg_coords(m->arena, &lb, b.n);
	CgCoord2 *rc = cg_reg_coords(m->arena, ly, c.n);
	int *tiles = arena_alloc(m->arena, (size_t)c.n * sizeof *tiles);
	int nt = tiles_of(rc, c.n, tiles);
	if (nt < 0) {
		cg_unsupported(l, in, "an mma_v2 accumulator whose registers are not whole m16n8 "
		               "tiles");
		return false;
	}
	CgVal res = cg_val_new(l, c.n);
	for (int r = 0; r < c.n; r++)
		res.r[r] = c.r[r];
	for (int64_t k0 = 0; k0 < at->shape[1]; k0 += kk)
		for (int t = 0; t < nt; t++) {
			int *q = &tiles[t * 4];
			LLVMValueRef aw[4], bw[2];
			LLVMValueRef acc[4] = {res.r[q[0]], res.r[q[1]], res.r[q[2]], res.r[q[3]]};
			if (!cg_mma_frag_words(m, at->dtype, a, ra, 0, rc[q[0]][0], k0, aw) ||
			    !cg_mma_frag_words(m, bt->dtype, b, rb, 1, k0, rc[q[0]][1], bw) ||
			    !cg_mma_sync(m, at->dtype, bt->dtype, ct->dtype, acc, aw, bw, acc)) {
				cg_unsupported(l, in, "this mma_v2 (operand registers or dtypes)");
				return false;
			}
			for (int i = 0; i < 4; i++)
				res.r[q[i]] = acc[i];
		}
	l->vals[in->res->id] = res;
	return true;
}

bool
cg_lower_dot(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	if (in->res->type->layout.desc && in->res->type->layout.desc->kind == LL_NVMMA_DISTRIBUTED)
		return lower_mma_sync(l, in);
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
