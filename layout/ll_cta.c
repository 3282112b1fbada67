/*
 * One CTA's part of a CGA layout: CTA c holds l(x, c) = l(x, 0) ^ l(c) for
 * x over the in-dims other than block. The part of CTA 0 as a layout of
 * its own (the out-dims squeezed to the coordinates it spans), as a box,
 * the CTAs that hold an identical copy (a TMA multicast mask), and
 * whether one layout's parts hold what another's need, CTA by CTA.
 */
#include "layout/ll_internal.h"

#include <string.h>

/* Span of l's columns outside the block in-dim. */
static void
local_span(const LLayout *l, LLGf2 *g)
{
	ll_gf2_init(g);
	int bi = ll_in_index(l, LL_BLOCK), n = ll_total_in_bits(l);
	int lo = bi < 0 ? n : ll_in_start(l, bi), hi = bi < 0 ? n : lo + l->in_bits[bi];
	for (int k = 0; k < n; k++)
		if (k < lo || k >= hi)
			ll_gf2_insert(g, l->col[k], 0);
}

/* The packed output bits that CTA 0's part of l does not need: taken from
 * the highest down, each while the part's span stays independent of the
 * bits taken, so that deleting them is one-to-one on the part. For the
 * usual split of a dim over CTAs these are the dim's top bits. */
static uint64_t
dropped_bits(const LLayout *l)
{
	LLGf2 g;
	local_span(l, &g);
	int n = ll_total_out_bits(l), need = n - g.rank;
	uint64_t drop = 0;
	for (int b = n - 1; b >= 0 && need > 0; b--)
		if (ll_gf2_insert(&g, 1ull << b, 0)) {
			drop |= 1ull << b;
			need--;
		}
	return drop;
}

/* v with the bits of `drop` deleted (the higher bits moving down). */
static uint64_t
squeeze_word(uint64_t v, uint64_t drop)
{
	uint64_t r = 0;
	for (int b = 0, k = 0; b < 64; b++) {
		if (drop >> b & 1)
			continue;
		r |= (v >> b & 1) << k;
		k++;
	}
	return r;
}

/* False with a sentence when a column of l outside its block in-dim lies
 * outside span g (CTA 0's part of another layout). */
static bool
inside(const LLGf2 *g, const LLayout *l, LLErr *err)
{
	int bi = ll_in_index(l, LL_BLOCK);
	for (int i = 0; i < l->n_in; i++)
		for (int k = 0; i != bi && k < l->in_bits[i]; k++)
			if (ll_gf2_reduce(g, l->col[ll_in_start(l, i) + k], NULL))
				return ll_fail(err, "its %s basis %d reaches an element that CTA 0 of the "
				                    "other layout does not hold", ll_name_str(l->in_name[i]), k);
	return true;
}

bool
ll_cta_squeeze(const LLayout *ref, const LLayout *l, LLayout *out, LLErr *err)
{
	LLGf2 g;
	local_span(ref, &g);
	if (!inside(&g, l, err))
		return false;
	uint64_t drop = dropped_bits(ref);
	LLayout r = ll_empty();
	int bi = ll_in_index(l, LL_BLOCK);
	for (int i = 0; i < l->n_in; i++)
		ll_add_in(&r, l->in_name[i], i == bi ? 0 : l->in_bits[i]);
	for (int j = 0; j < l->n_out; j++)
		ll_add_out(&r, l->out_name[j],
		           l->out_bits[j] - __builtin_popcountll(drop & ll_out_mask(l, j)));
	for (int i = 0; i < l->n_in; i++)
		for (int k = 0; i != bi && k < l->in_bits[i]; k++)
			r.col[ll_in_start(&r, i) + k] = squeeze_word(l->col[ll_in_start(l, i) + k], drop);
	*out = r;
	return true;
}

bool
ll_cta_tile(const LLayout *l, LLayout *out, LLErr *err)
{
	return ll_cta_squeeze(l, l, out, err);
}

uint32_t
ll_cta_multicast_mask(const LLayout *l, int cta)
{
	int bi = ll_in_index(l, LL_BLOCK), bits = bi < 0 ? 0 : l->in_bits[bi];
	if (bits > LL_MAX_CTA_BITS || cta < 0 || cta >= 1 << bits)
		return 0;
	int s = bi < 0 ? 0 : ll_in_start(l, bi);
	uint32_t mask = 0;
	for (int c = 0; c < 1 << bits; c++)
		if (ll_apply_packed(l, (uint64_t)(c ^ cta) << s) == 0)
			mask |= 1u << c;
	return mask;
}

bool
ll_cta_box(const LLayout *l, int cta, int64_t *origin, int64_t *extent, LLErr *err)
{
	int bi = ll_in_index(l, LL_BLOCK), bits = bi < 0 ? 0 : l->in_bits[bi];
	if (cta < 0 || cta >= 1 << bits)
		return ll_fail(err, "CTA %d is not one of the layout's %d", cta, 1 << bits);
	LLGf2 g;
	local_span(l, &g);
	/* a box: the span is exactly the low bits of each dim */
	uint64_t low = 0;
	for (int j = 0; j < l->n_out; j++) {
		int e = 0, sh = ll_out_shift(l, j);
		while (e < l->out_bits[j] && !ll_gf2_reduce(&g, 1ull << (sh + e), NULL))
			e++;
		extent[j] = 1ll << e;
		low |= ((1ull << e) - 1) << sh;
	}
	if (g.rank != __builtin_popcountll(low))
		return ll_fail(err, "the part of each CTA is not a box: its elements interleave "
		                    "with other CTAs' parts");
	uint32_t v[LL_MAX_DIMS];
	uint64_t at = ll_apply_packed(l, (uint64_t)cta << (bi < 0 ? 0 : ll_in_start(l, bi)));
	ll_unpack_out(l, at & ~low, v);
	for (int j = 0; j < l->n_out; j++)
		origin[j] = v[j];
	return true;
}

bool
ll_cta_covers(const LLayout *have, const LLayout *need, LLErr *err)
{
	int hb = ll_in_index(have, LL_BLOCK), nb = ll_in_index(need, LL_BLOCK);
	int hbits = hb < 0 ? 0 : have->in_bits[hb], bits = nb < 0 ? 0 : need->in_bits[nb];
	if (hbits != bits)
		return ll_fail(err, "the layouts span different numbers of CTAs (%d and %d)",
		               1 << hbits, 1 << bits);
	LLGf2 g;
	local_span(have, &g);
	if (!inside(&g, need, err))
		return false;
	for (int b = 0; b < bits; b++) {
		uint64_t d = need->col[ll_in_start(need, nb) + b] ^ have->col[ll_in_start(have, hb) + b];
		if (ll_gf2_reduce(&g, d, NULL))
			return ll_fail(err, "its CTA %d needs elements that only other CTAs of the other "
			                    "layout hold", 1 << b);
	}
	return true;
}
