/*
 * mma_v2 operands whose DotOperandLayout has a k_width larger than one
 * 32-bit word (kw > e = 32 / bits): each thread holds kw consecutive K
 * elements where mma.sync wants e. As Triton's MMAv2 lowering does
 * (getValuesFromDotOperandLayoutStruct), the thread's registers are taken
 * as those of the DotOperandLayout with k_width e, reordered: in each
 * group of kw x outer x kTiles distinct registers, the word k of the kw
 * group goes to instruction k, so every instruction reads, per thread, one
 * word from each outer row (A: rows r and r + 8; B: one) and each kTile.
 * The K elements an instruction sums are then a permutation of the
 * instruction's own, the same for A and B (their K registers and lanes are
 * alike), so the product is unchanged.
 *
 * With registers numbered after dropping broadcast ones (copies of a lower
 * register), register i of the k_width e layout gets register
 *   el + e (k + kw/e (outer + O (kt + T tile)))
 * of the operand, where i = el + e (outer + O (kt + T (k + kw/e tile))),
 * O = min(2 for A, 1 for B; the distinct elements along M or N) and
 * T = min(2, the distinct elements along K / kw).
 */
#include "codegen/ops/mma.h"

/* The register whose non-broadcast bits (those clear in free) are c's. */
static int
deposit(uint64_t free, int bits, int c)
{
	int r = 0;
	for (int b = 0; b < bits; b++)
		if (!(free >> b & 1)) {
			r |= (c & 1) << b;
			c >>= 1;
		}
	return r;
}

/* r without its broadcast bits, the others packed down. */
static int
compress(uint64_t free, int bits, int r)
{
	int c = 0, n = 0;
	for (int b = 0; b < bits; b++)
		if (!(free >> b & 1))
			c |= (r >> b & 1) << n++;
	return c;
}

/* Register bits of ly, its broadcast ones (*free), and the distinct elements
 * along dim d. */
static int
reg_bits(const LLayout *ly, uint64_t *free, int d, int64_t *along)
{
	uint64_t masks[LL_MAX_DIMS];
	ll_free_masks(ly, masks);
	int ri = ll_in_index(ly, LL_REGISTER), bits = ri < 0 ? 0 : ly->in_bits[ri];
	*free = ri < 0 ? 0 : masks[ri];
	*along = 1;
	for (int b = 0; b < bits; b++) {
		int64_t c[2];
		cg_basis2(ly, LL_REGISTER, b, c);
		if (!(*free >> b & 1) && c[d])
			*along *= 2;
	}
	return bits;
}

bool
cg_mma_kwidth_operand(Lower *l, const TType *t, int idx, const LLDesc *acc, CgVal v,
                      LLayout *std, CgVal *out)
{
	CgModule *m = l->m;
	int e = 32 / ir_dtype_bits(t->dtype), kw = t->layout.desc->k_width;
	*std = t->layout.ll;
	*out = v;
	if (t->layout.desc->kind != LL_DOT_OPERAND || kw <= e)
		return true;
	LLErr err = {m->arena, NULL};
	if (!ll_build(ll_desc_dot_operand(m->arena, acc, idx, e), t->shape, 2, l->part_warps, std,
	              &err))
		return false;
	uint64_t free, sfree;
	int64_t along_k, along_o, sk, so;
	int kd = idx ? 0 : 1;
	int bits = reg_bits(&t->layout.ll, &free, kd, &along_k);
	reg_bits(&t->layout.ll, &free, 1 - kd, &along_o);
	int sbits = reg_bits(std, &sfree, kd, &sk);
	reg_bits(std, &sfree, 1 - kd, &so);
	int64_t outer = along_o < (idx ? 1 : 2) ? along_o : (idx ? 1 : 2);
	int64_t tiles = along_k / kw < 2 ? along_k / kw : 2;
	int64_t size = (int64_t)1 << (bits - __builtin_popcountll(free)), group = kw * outer * tiles;
	if (!tiles || size != along_k * along_o || size != sk * so ||
	    size != (int64_t)1 << (sbits - __builtin_popcountll(sfree)) || size % group)
		return false;
	LLVMValueRef *mma = arena_alloc(m->arena, (size_t)size * sizeof *mma);
	for (int64_t i = 0; i < size; i++) {
		int64_t el = i % e, rest = i / e;
		int64_t o = rest % outer, kt = rest / outer % tiles, k = rest / outer / tiles % (kw / e);
		int64_t tile = rest / outer / tiles / (kw / e);
		int64_t c = el + e * (k + kw / e * (o + outer * (kt + tiles * tile)));
		mma[i] = v.r[deposit(free, bits, (int)c)];
	}
	*out = cg_val_new(l, 1 << sbits);
	for (int j = 0; j < out->n; j++)
		out->r[j] = mma[compress(sfree, sbits, j & ~(int)sfree)];
	return true;
}
