/* Shared-memory bank conflicts and global vector widths, computed on the
 * algebra: the words touched by one phase of a warp form a subspace, and
 * the wavefronts are |words| / |banks hit|. Gluon's gl.bank_conflicts
 * counts differently (Triton's bankConflictsMemDesc), reproduced here as
 * ll_gluon_bank_conflicts. Layouts over several CTAs count per CTA. */
#include "layout/ll_internal.h"

/* Number of offset bits covered by register columns that are exactly the
 * unit offsets 1, 2, 4, ... (in any register order), capped at `cap`, with
 * no other column touching those low bits. */
static int
vector_bits(const LLayout *a, int cap)
{
	int ri = ll_in_index(a, LL_REGISTER), oj = ll_out_index(a, LL_OFFSET);
	if (ri < 0 || oj < 0)
		return 0;
	int rs = ll_in_start(a, ri), sh = ll_out_shift(a, oj), n = ll_total_in_bits(a);
	uint64_t used = 0;
	int k = 0;
	while (k < cap) {
		int found = -1;
		for (int c = rs; c < rs + a->in_bits[ri] && found < 0; c++)
			if (a->col[c] == 1ull << (sh + k) && !(used >> c & 1))
				found = c;
		if (found < 0)
			break;
		used |= 1ull << found;
		k++;
	}
	for (int c = 0; c < n; c++) {
		if (used >> c & 1)
			continue;
		uint64_t low = a->col[c] & (((1ull << k) - 1) << sh);
		if (low)
			k = __builtin_ctzll(low) - sh;
	}
	return k;
}

void
ll_access_cost(const LLayout *a, int bitwidth, LLBankCost *cost)
{
	int lb = ll_log2((uint64_t)(bitwidth / 8));
	int v = vector_bits(a, 4 - lb);
	int ab = v + lb;                       /* log2 bytes per thread access */
	int p = 5 - (ab > 2 ? ab - 2 : 0);     /* lanes per phase, log2 */
	int li = ll_in_index(a, LL_LANE), oj = ll_out_index(a, LL_OFFSET);
	LLGf2 words, banks;
	ll_gf2_init(&words);
	ll_gf2_init(&banks);
	for (int t = 0; t + 2 < ab; t++) {
		ll_gf2_insert(&words, 1ull << t, 0);
		ll_gf2_insert(&banks, 1ull << t, 0);
	}
	for (int b = 0; li >= 0 && oj >= 0 && b < p && b < a->in_bits[li]; b++) {
		uint64_t off = (a->col[ll_in_start(a, li) + b] & ll_out_mask(a, oj)) >>
		               ll_out_shift(a, oj);
		uint64_t word = (off << lb) >> 2;
		ll_gf2_insert(&words, word, 0);
		ll_gf2_insert(&banks, word & 31, 0);
	}
	cost->vec = 1 << v;
	cost->wavefronts = (1 << (5 - p)) * (1 << (words.rank - banks.rank));
	cost->ideal = ab + 5 > 7 ? 1 << (ab + 5 - 7) : 1;
}

/* Both layouts as CTA 0 sees them (banks are per CTA; every CTA's
 * accesses are CTA 0's moved by a constant), when they have block bits:
 * each CTA's registers must come from its own shared memory. */
static bool
per_cta(const LLayout **dist, const LLayout **shared, LLayout *d, LLayout *s, LLErr *err)
{
	if (!ll_in_bits(*dist, LL_BLOCK) && !ll_in_bits(*shared, LL_BLOCK))
		return true;
	LLErr why = {err ? err->arena : NULL, NULL};
	if (!ll_cta_covers(*shared, *dist, &why))
		return ll_fail(err, "bank conflicts: the distributed layout reaches other CTAs' shared "
		                    "memory (%s)", why.msg ? why.msg : "");
	if (!ll_cta_squeeze(*shared, *shared, s, err) || !ll_cta_squeeze(*shared, *dist, d, err))
		return false;
	*dist = d;
	*shared = s;
	return true;
}

bool
ll_bank_conflicts(const LLayout *dist, const LLayout *shared, int bitwidth, LLBankCost *cost,
                  LLErr *err)
{
	if (bitwidth != 8 && bitwidth != 16 && bitwidth != 32 && bitwidth != 64)
		return ll_fail(err, "bank conflicts: element bitwidth %d is not 8, 16, 32 or 64",
		               bitwidth);
	if (ll_in_index(shared, LL_OFFSET) < 0 || ll_in_index(dist, LL_LANE) < 0)
		return ll_fail(err, "bank conflicts: needs a distributed and a shared layout");
	LLayout a, d, s;
	if (!per_cta(&dist, &shared, &d, &s, err) || !ll_invert_and_compose(dist, shared, &a, err))
		return false;
	ll_access_cost(&a, bitwidth, cost);
	return true;
}

/* Triton's intersectionBasis(b1, b2).size(): when every basis is a power
 * of two, the non-zero b1 bases found among b2; otherwise the dimension of
 * the intersection of the spans. */
static int
intersection_size(const uint64_t *b1, int n1, const uint64_t *b2, int n2)
{
	bool pow2 = true;
	for (int i = 0; i < n1; i++)
		pow2 &= ll_is_pow2((int64_t)b1[i]) && b1[i] <= INT32_MAX;
	for (int i = 0; i < n2; i++)
		pow2 &= ll_is_pow2((int64_t)b2[i]) && b2[i] <= INT32_MAX;
	int count = 0;
	if (pow2) {
		for (int i = 0; i < n1; i++)
			for (int j = 0; j < n2; j++)
				if (b1[i] == b2[j]) {
					count++;
					break;
				}
		return count;
	}
	LLGf2 one, two, both;
	ll_gf2_init(&one);
	ll_gf2_init(&two);
	ll_gf2_init(&both);
	for (int i = 0; i < n1; i++) {
		ll_gf2_insert(&one, b1[i], 0);
		ll_gf2_insert(&both, b1[i], 0);
	}
	for (int i = 0; i < n2; i++) {
		ll_gf2_insert(&two, b2[i], 0);
		ll_gf2_insert(&both, b2[i], 0);
	}
	return one.rank + two.rank - both.rank;
}

bool
ll_gluon_bank_conflicts(const LLayout *dist, const LLayout *shared, int bitwidth, int *out,
                        LLErr *err)
{
	if (!ll_is_pow2(bitwidth) || bitwidth > 128)
		return ll_fail(err, "bank conflicts: element bitwidth %d is not a power of two up to "
		                    "128", bitwidth);
	if (ll_in_index(shared, LL_OFFSET) < 0 || ll_in_index(dist, LL_LANE) < 0 ||
	    ll_in_index(dist, LL_REGISTER) < 0)
		return ll_fail(err, "bank conflicts: needs a distributed and a shared layout");
	LLayout d, s;
	if (!per_cta(&dist, &shared, &d, &s, err))
		return false;
	LLayout reg = ll_remove_zero_bases(dist, LL_REGISTER), cvt;
	if (!ll_invert_and_compose(&reg, shared, &cvt, err))
		return false;
	int lb = ll_log2((uint64_t)bitwidth);
	int vb = vector_bits(&cvt, 7 - lb);
	/* offset bits: vector, then the banks of 32 x 32 bits, then segments */
	int total = ll_total_in_bits(shared), bank = 10 - vb - lb;
	if (bank > total)
		bank = total;
	uint64_t seg[LL_MAX_BITS], lanes[LL_MAX_BITS];
	int n_seg = 0, n_lanes = 0;
	for (int k = vb + bank; k < total; k++)
		seg[n_seg++] = shared->col[k];
	/* the lanes of one wavefront: a vector of V words takes 32 / V lanes */
	int li = ll_in_index(&reg, LL_LANE);
	int words = (1 << vb) * bitwidth / 32, drop = words > 1 ? ll_log2((uint64_t)words) : 0;
	for (int b = 0; b + drop < reg.in_bits[li]; b++) {
		uint32_t v[LL_MAX_DIMS], c[LL_MAX_DIMS] = {0};
		ll_get_basis(&reg, li, b, v);
		for (int j = 0; j < reg.n_out; j++) {
			int sj = ll_out_index(shared, (LLName)reg.out_name[j]);
			if (sj >= 0)
				c[sj] = v[j];
		}
		lanes[n_lanes++] = ll_pack_out(shared, c);
	}
	*out = (1 << intersection_size(seg, n_seg, lanes, n_lanes)) - 1;
	return true;
}

int
ll_global_vector_width(const LLayout *l, int bitwidth, int align_bytes)
{
	if (l->n_out == 0 || bitwidth < 8)
		return 1;
	int v = ll_num_consecutive(l, LL_REGISTER, (LLName)l->out_name[l->n_out - 1]);
	int cap = 128 / bitwidth, al = align_bytes * 8 / bitwidth;
	if (v > cap)
		v = cap;
	if (al < 1)
		al = 1;
	return v < al ? v : al;
}
