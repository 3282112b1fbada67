/* Shared-memory bank conflicts and global vector widths, computed on the
 * algebra: the words touched by one phase of a warp form a subspace, and
 * the wavefronts are |words| / |banks hit|. */
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

bool
ll_bank_conflicts(const LLayout *dist, const LLayout *shared, int bitwidth, LLBankCost *cost,
                  LLErr *err)
{
	if (bitwidth != 8 && bitwidth != 16 && bitwidth != 32 && bitwidth != 64)
		return ll_fail(err, "bank conflicts: element bitwidth %d is not 8, 16, 32 or 64",
		               bitwidth);
	if (ll_in_index(shared, LL_OFFSET) < 0 || ll_in_index(dist, LL_LANE) < 0)
		return ll_fail(err, "bank conflicts: needs a distributed and a shared layout");
	LLayout a;
	if (!ll_invert_and_compose(dist, shared, &a, err))
		return false;
	ll_access_cost(&a, bitwidth, cost);
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
