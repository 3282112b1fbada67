/* Gaussian elimination over GF(2): rank, inverses, free variables, division
 * and contiguity. */
#include "layout/ll_internal.h"

#include <string.h>

void
ll_gf2_init(LLGf2 *g)
{
	memset(g, 0, sizeof *g);
}

uint64_t
ll_gf2_reduce(const LLGf2 *g, uint64_t v, uint64_t *tags)
{
	uint64_t t = 0;
	for (int b = 63; b >= 0 && v; b--)
		if ((v >> b & 1) && g->piv[b]) {
			v ^= g->piv[b];
			t ^= g->comb[b];
		}
	if (tags)
		*tags ^= t;
	return v;
}

bool
ll_gf2_insert(LLGf2 *g, uint64_t v, uint64_t tag)
{
	uint64_t t = tag;
	while (v) {
		int b = 63 - __builtin_clzll(v);
		if (!g->piv[b]) {
			g->piv[b] = v;
			g->comb[b] = t;
			g->rank++;
			return true;
		}
		v ^= g->piv[b];
		t ^= g->comb[b];
	}
	return false;
}

int
ll_rank(const LLayout *l)
{
	LLGf2 g;
	ll_gf2_init(&g);
	int n = ll_total_in_bits(l);
	for (int k = 0; k < n; k++)
		ll_gf2_insert(&g, l->col[k], 0);
	return g.rank;
}

bool
ll_is_injective(const LLayout *l)
{
	return ll_rank(l) == ll_total_in_bits(l);
}

bool
ll_is_surjective(const LLayout *l)
{
	return ll_rank(l) == ll_total_out_bits(l);
}

void
ll_free_masks(const LLayout *l, uint64_t masks[LL_MAX_DIMS])
{
	LLGf2 g;
	ll_gf2_init(&g);
	for (int i = 0, k = 0; i < LL_MAX_DIMS; i++) {
		masks[i] = 0;
		for (int b = 0; i < l->n_in && b < l->in_bits[i]; b++, k++)
			if (!ll_gf2_insert(&g, l->col[k], 0))
				masks[i] |= 1ull << b;
	}
}

/* The packed output of a layout whose out-dims are `b`'s in-dims (same
 * order), from b's packed input x. */
static uint64_t
in_to_out(const LLayout *b, uint64_t x, const LLayout *res)
{
	uint32_t v[LL_MAX_DIMS];
	ll_unpack_in(b, x, v);
	return ll_pack_out(res, v);
}

bool
ll_invert_and_compose(const LLayout *a, const LLayout *b, LLayout *out, LLErr *err)
{
	if (a->n_out != b->n_out)
		return ll_fail(err, "invert-and-compose: the layouts have different output dims");
	for (int j = 0; j < a->n_out; j++)
		if (ll_out_index(b, a->out_name[j]) < 0 ||
		    ll_out_bits(b, a->out_name[j]) != a->out_bits[j])
			return ll_fail(err, "invert-and-compose: output dim %s differs",
			               ll_name_str(a->out_name[j]));
	LLGf2 g;
	ll_gf2_init(&g);
	int nb = ll_total_in_bits(b);
	/* Pivots taken from the lowest input bits first: the solution uses only
	 * them, which is the numerically smallest preimage. */
	for (int k = 0; k < nb; k++)
		ll_gf2_insert(&g, b->col[k], 1ull << k);
	LLayout r = ll_empty();
	for (int i = 0; i < a->n_in; i++)
		ll_add_in(&r, a->in_name[i], a->in_bits[i]);
	for (int i = 0; i < b->n_in; i++)
		ll_add_out(&r, b->in_name[i], b->in_bits[i]);
	int perm_in_b[LL_MAX_DIMS];
	for (int j = 0; j < a->n_out; j++)
		perm_in_b[j] = ll_out_index(b, a->out_name[j]);
	int na = ll_total_in_bits(a);
	for (int k = 0; k < na; k++) {
		uint32_t v[LL_MAX_DIMS], w[LL_MAX_DIMS];
		ll_unpack_out(a, a->col[k], v);
		for (int j = 0; j < a->n_out; j++)
			w[perm_in_b[j]] = v[j];
		uint64_t x = 0;
		if (ll_gf2_reduce(&g, ll_pack_out(b, w), &x))
			return ll_fail(err, "invert-and-compose: an image of the first layout is "
			                    "not reached by the second");
		r.col[k] = in_to_out(b, x, &r);
	}
	*out = r;
	return true;
}

bool
ll_pseudo_invert(const LLayout *l, LLayout *out, LLErr *err)
{
	if (!ll_is_surjective(l))
		return ll_fail(err, "pseudo-inverse: the layout is not surjective");
	LLayout id = ll_empty();
	for (int j = 0; j < l->n_out; j++) {
		ll_add_in(&id, l->out_name[j], l->out_bits[j]);
		ll_add_out(&id, l->out_name[j], l->out_bits[j]);
	}
	for (int j = 0, k = 0; j < l->n_out; j++)
		for (int b = 0; b < l->out_bits[j]; b++, k++)
			id.col[k] = 1ull << (ll_out_shift(&id, j) + b);
	return ll_invert_and_compose(&id, l, out, err);
}

bool
ll_invert(const LLayout *l, LLayout *out, LLErr *err)
{
	if (ll_total_in_bits(l) != ll_total_out_bits(l) || !ll_is_injective(l))
		return ll_fail(err, "invert: the layout is not a bijection");
	return ll_pseudo_invert(l, out, err);
}

bool
ll_divide_left(const LLayout *a, const LLayout *b, LLayout *out, LLErr *err)
{
	LLayout r = ll_empty();
	for (int i = 0; i < b->n_in; i++)
		if (ll_in_bits(a, b->in_name[i]) < b->in_bits[i] || ll_in_index(a, b->in_name[i]) < 0)
			return ll_fail(err, "divide-left: input dim %s of the divisor is too large",
			               ll_name_str(b->in_name[i]));
	for (int j = 0; j < b->n_out; j++)
		if (ll_out_bits(a, b->out_name[j]) < b->out_bits[j] ||
		    ll_out_index(a, b->out_name[j]) < 0)
			return ll_fail(err, "divide-left: output dim %s of the divisor is too large",
			               ll_name_str(b->out_name[j]));
	for (int i = 0; i < a->n_in; i++)
		ll_add_in(&r, a->in_name[i], a->in_bits[i] - ll_in_bits(b, a->in_name[i]));
	for (int j = 0; j < a->n_out; j++)
		ll_add_out(&r, a->out_name[j], a->out_bits[j] - ll_out_bits(b, a->out_name[j]));
	for (int i = 0; i < a->n_in; i++) {
		int ib = ll_in_index(b, a->in_name[i]), nb = ib < 0 ? 0 : b->in_bits[ib];
		int sa = ll_in_start(a, i), sr = ll_in_start(&r, i);
		for (int k = 0; k < a->in_bits[i]; k++) {
			uint32_t v[LL_MAX_DIMS], w[LL_MAX_DIMS] = {0};
			ll_unpack_out(a, a->col[sa + k], v);
			if (k < nb) {
				ll_get_basis(b, ib, k, w);
				for (int j = 0; j < a->n_out; j++) {
					int jb = ll_out_index(b, a->out_name[j]);
					if (v[j] != (jb < 0 ? 0 : w[jb]))
						return ll_fail(err, "divide-left: the layout does not start "
						                    "with the divisor");
				}
				continue;
			}
			for (int j = 0; j < a->n_out; j++) {
				int lo = ll_out_bits(b, a->out_name[j]);
				if (v[j] & ((1u << lo) - 1))
					return ll_fail(err, "divide-left: the layout is not a product "
					                    "with the divisor");
				w[j] = v[j] >> lo;
			}
			r.col[sr + k - nb] = ll_pack_out(&r, w);
		}
	}
	*out = r;
	return true;
}

int
ll_num_consecutive(const LLayout *l, LLName in, LLName out)
{
	int i = ll_in_index(l, in), j = ll_out_index(l, out);
	if (i < 0 || j < 0)
		return 1;
	int s = ll_in_start(l, i), sh = ll_out_shift(l, j), k = 0;
	while (k < l->in_bits[i] && l->col[s + k] == 1ull << (sh + k))
		k++;
	uint64_t low = ((1ull << k) - 1) << sh;
	int n = ll_total_in_bits(l);
	for (int c = 0; c < n; c++) {
		if (c >= s && c < s + k)
			continue;
		uint64_t hit = l->col[c] & low;
		if (hit) {
			int b = __builtin_ctzll(hit) - sh;
			k = b;
			low = ((1ull << k) - 1) << sh;
		}
	}
	return 1 << k;
}
