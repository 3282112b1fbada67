/*
 * MMA fragments: which registers of a tensor hold an MMA instruction's
 * operand fragment, found through the layout's bases (coordinates of each
 * register at lane 0, warp 0), so any register order holding the right
 * elements works. The fragments are those of mma.sync m16n8 and of the A
 * operand of wgmma (per warp the same): with kw = 32 / bits elements a
 * 32-bit word,
 *   A (m16 x 8kw): element j at row 8 * (j / kw % 2), column j % kw +
 *     4 kw * (j / 2kw % 2); lanes step K by kw (lane bits 0-1) and rows by 1
 *     (lane bits 2-4); four words;
 *   B (8kw x n8): element j at row (K) j % kw + 4 kw * (j / kw % 2); lanes
 *     step K by kw and columns by 1; two words;
 * and warps hold the accumulator's rows (A) or columns (B) and no K.
 */
#include "codegen/llvm/nvvm.h"
#include "codegen/ops/mma.h"

CgCoord2 *
cg_reg_coords(Arena *a, const LLayout *ly, int n)
{
	CgCoord2 *rc = arena_alloc(a, (size_t)(n > 0 ? n : 1) * sizeof *rc);
	int ri = ll_in_index(ly, LL_REGISTER);
	int j0 = ll_out_index(ly, LL_DIM0), j1 = ll_out_index(ly, LL_DIM1);
	uint32_t v[LL_MAX_DIMS];
	for (int r = 0; r < n; r++) {
		rc[r][0] = rc[r][1] = 0;
		for (int b = 0; ri >= 0 && b < ly->in_bits[ri]; b++)
			if (r >> b & 1) {
				ll_get_basis(ly, ri, b, v);
				rc[r][0] ^= j0 >= 0 ? v[j0] : 0;
				rc[r][1] ^= j1 >= 0 ? v[j1] : 0;
			}
	}
	return rc;
}

void
cg_basis2(const LLayout *ly, LLName in, int b, int64_t *rc)
{
	uint32_t v[LL_MAX_DIMS];
	int i = ll_in_index(ly, in);
	int j0 = ll_out_index(ly, LL_DIM0), j1 = ll_out_index(ly, LL_DIM1);
	ll_get_basis(ly, i, b, v);
	rc[0] = j0 >= 0 ? v[j0] : 0;
	rc[1] = j1 >= 0 ? v[j1] : 0;
}

bool
cg_bases_are(const LLayout *ly, LLName name, const int64_t (*want)[2], int n)
{
	int i = ll_in_index(ly, name);
	if (i < 0 || ly->in_bits[i] < n)
		return false;
	for (int b = 0; b < n; b++) {
		int64_t rc[2];
		cg_basis2(ly, name, b, rc);
		if (rc[0] != want[b][0] || rc[1] != want[b][1])
			return false;
	}
	return true;
}

bool
cg_mma_operand_fits(const LLayout *op, const LLayout *acc, int idx, int kw)
{
	const int64_t a_lanes[5][2] = {{0, kw}, {0, 2 * kw}, {1, 0}, {2, 0}, {4, 0}};
	const int64_t b_lanes[5][2] = {{kw, 0}, {2 * kw, 0}, {0, 1}, {0, 2}, {0, 4}};
	int wo = ll_in_index(op, LL_WARP), wc = ll_in_index(acc, LL_WARP);
	if (!cg_bases_are(op, LL_LANE, idx ? b_lanes : a_lanes, 5) || wo < 0 || wc < 0 ||
	    op->in_bits[wo] != acc->in_bits[wc])
		return false;
	for (int b = 0; b < op->in_bits[wo]; b++) {
		int64_t o[2], c[2];
		cg_basis2(op, LL_WARP, b, o);
		cg_basis2(acc, LL_WARP, b, c);
		/* A keeps the accumulator's rows, B its columns; neither moves K */
		if (idx ? o[0] != 0 || o[1] != c[1] : o[0] != c[0] || o[1] != 0)
			return false;
	}
	return true;
}

bool
cg_mma_frag_words(CgModule *m, TDType t, CgVal v, const CgCoord2 *rc, int idx, int64_t r0,
                  int64_t c0, LLVMValueRef *words)
{
	int kw = 32 / ir_dtype_bits(t), lg = 0;
	while (1 << lg < kw)
		lg++;
	int n = (idx ? 2 : 4) * kw;
	LLVMValueRef elems[16];
	for (int j = 0; j < n; j++) {
		int64_t row = idx ? r0 + (j & (kw - 1)) + 4 * kw * (j >> lg & 1)
		                  : r0 + 8 * (j >> lg & 1);
		int64_t col = idx ? c0 : c0 + (j & (kw - 1)) + 4 * kw * (j >> (lg + 1) & 1);
		elems[j] = NULL;
		for (int r = 0; r < v.n && !elems[j]; r++)
			if (rc[r][0] == row && rc[r][1] == col)
				elems[j] = v.r[r];
		if (!elems[j])
			return false;
	}
	cg_pack_words(m, t, elems, n, words);
	return true;
}
