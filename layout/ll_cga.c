/*
 * CGA layouts: the block in-dim of the constructors that take Gluon's
 * cga_layout (Triton's combineCtaCgaWithShape), and the CTA count and
 * cga_layout a description gives.
 */
#include "layout/ll_internal.h"

#include <string.h>

bool
ll_check_cta_bases(const LLDesc *d, const LLayout *l, LLErr *err)
{
	const char *who = ll_kind_name(d->kind);
	int bi = ll_in_index(l, LL_BLOCK), bits = bi < 0 ? 0 : l->in_bits[bi];
	if (bits > LL_MAX_CTA_BITS)
		return ll_fail(err, "%s: %d CTA bases; a cluster holds at most %d CTAs (%d bases)", who,
		               bits, 1 << LL_MAX_CTA_BITS, LL_MAX_CTA_BITS);
	int oi = ll_in_index(l, LL_OFFSET);
	LLGf2 g;
	ll_gf2_init(&g);
	for (int k = 0; oi >= 0 && k < l->in_bits[oi]; k++)
		ll_gf2_insert(&g, l->col[ll_in_start(l, oi) + k], 0);
	for (int k = 0; k < bits; k++) {
		uint64_t c = l->col[ll_in_start(l, bi) + k];
		int moving = 0;
		for (int j = 0; j < l->n_out; j++)
			moving += (c & ll_out_mask(l, j)) != 0;
		if (oi < 0 && moving > 1)
			return ll_fail(err, "%s: block basis %d moves along %d dims; in a distributed "
			                    "layout each basis moves along one at most (as Triton 3.6 "
			                    "requires)", who, k, moving);
		if (oi >= 0 && c && !ll_gf2_insert(&g, c, 0))
			return ll_fail(err, "%s: block basis %d gives a CTA elements that the offsets or "
			                    "other block bases already place (Triton: a shared layout, zero "
			                    "bases removed, is a bijection)", who, k);
	}
	return true;
}

bool
ll_cga_of(const LLDesc *d, LLBases *out)
{
	switch (d->kind) {
	case LL_BLOCKED:
	case LL_NVMMA_DISTRIBUTED:
	case LL_NVMMA_SHARED:
	case LL_SWIZZLED_SHARED:
		*out = d->cga_layout;
		return true;
	case LL_DOT_OPERAND: {
		const LLDesc *p = d->parent;
		if (!p || (p->kind != LL_BLOCKED && p->kind != LL_NVMMA_DISTRIBUTED))
			return false;
		*out = p->cga_layout;
		for (int i = 0; i < out->n && i < LL_MAX_LIST; i++) {
			int rank = out->b[i].n, k = d->operand_index == 0 ? rank - 1 : rank - 2;
			if (k >= 0 && k < LL_MAX_LIST)
				out->b[i].v[k] = 0;
		}
		return true;
	}
	default:
		return false;
	}
}

bool
ll_desc_cga_layout(const LLDesc *d, LLBases *out)
{
	if (d->kind != LL_SLICE)
		return ll_cga_of(d, out);
	LLBases p;
	if (!d->parent || !ll_desc_cga_layout(d->parent, &p))
		return false;
	for (int i = 0; i < p.n && i < LL_MAX_LIST; i++) {
		LLInts *b = &p.b[i];
		if (d->dim < 0 || d->dim >= b->n)
			continue;
		memmove(&b->v[d->dim], &b->v[d->dim + 1], sizeof b->v[0] * (size_t)(b->n - d->dim - 1));
		b->n--;
	}
	*out = p;
	return true;
}

int
ll_desc_cta_bits(const LLDesc *d)
{
	switch (d->kind) {
	case LL_SLICE:
	case LL_DOT_OPERAND:
		return d->parent ? ll_desc_cta_bits(d->parent) : 0;
	case LL_DISTRIBUTED_LINEAR:
	case LL_SHARED_LINEAR:
	case LL_PADDED_SHARED:
		return d->block_bases.n;
	case LL_AUTO:
		return -1;
	default:
		return d->cga_layout.n;
	}
}

/* "[[1,0],[0,1]]" of b appended to s (messages). */
static void
bases_text(const LLBases *b, StrBuf *s)
{
	buf_putc(s, '[');
	for (int i = 0; i < b->n && i < LL_MAX_LIST; i++) {
		buf_puts(s, i ? ",[" : "[");
		for (int j = 0; j < b->b[i].n && j < LL_MAX_LIST; j++)
			buf_printf(s, "%s%lld", j ? "," : "", (long long)b->b[i].v[j]);
		buf_putc(s, ']');
	}
	buf_putc(s, ']');
}

/* Triton's CGA layout of cga_layout bases: block -> dim0..dim{rank-1},
 * each dim as large as the smallest power of two above its largest
 * coordinate; every CTA tile of that grid must be reached. */
static bool
cga_grid(const LLDesc *d, const LLBases *cga, int rank, LLayout *out, LLErr *err)
{
	const char *who = ll_kind_name(d->kind);
	if (cga->n > LL_MAX_CTA_BITS)
		return ll_fail(err, "%s: cga_layout has %d bases; a cluster holds at most %d CTAs "
		                    "(%d bases)", who, cga->n, 1 << LL_MAX_CTA_BITS, LL_MAX_CTA_BITS);
	int bits[LL_MAX_RANK] = {0};
	for (int i = 0; i < cga->n; i++) {
		if (cga->b[i].n != rank)
			return ll_fail(err, "%s: cga_layout[%d] has %d coordinates but the tensor has "
			                    "rank %d", who, i, cga->b[i].n, rank);
		for (int j = 0; j < rank; j++) {
			int64_t c = cga->b[i].v[j];
			if (c < 0 || c >= 1 << 30)
				return ll_fail(err, "%s: cga_layout[%d] has coordinate %lld; CTA tiles are "
				                    "counted from 0 up to 2^30", who, i, (long long)c);
			while (c >> bits[j])
				bits[j]++;
		}
	}
	LLayout g = ll_empty();
	ll_add_in(&g, LL_BLOCK, cga->n);
	for (int j = 0; j < rank; j++)
		ll_add_out(&g, (LLName)(LL_DIM0 + j), bits[j]);
	for (int i = 0; i < cga->n; i++) {
		uint32_t v[LL_MAX_RANK];
		for (int j = 0; j < rank; j++)
			v[j] = (uint32_t)cga->b[i].v[j];
		ll_set_basis(&g, 0, i, v);
	}
	if (!ll_is_surjective(&g)) {
		StrBuf s = {0};
		bases_text(cga, &s);
		int64_t grid[LL_MAX_RANK];
		for (int j = 0; j < rank; j++)
			grid[j] = 1ll << bits[j];
		buf_puts(&s, " does not reach every tile of its grid of ");
		ll_shape_text(grid, rank, " x ", &s);
		bool r = ll_fail(err, "%s: cga_layout %s CTA tiles (the bases must combine to each "
		                      "tile)", who, s.s);
		buf_free(&s);
		return r;
	}
	*out = g;
	return true;
}

/* Cutting the grid to a smaller tensor zeroes the largest coordinates of a
 * dim, one a halving, as Triton's ensureLayoutNotLargerThan does; Triton
 * asserts that they are powers of two, and a coordinate left too large
 * (two bases stepping alike) is invalid there. */
static bool
check_cut(const LLDesc *d, const LLayout *g, const int64_t *shape, int rank, LLErr *err)
{
	const char *who = ll_kind_name(d->kind);
	for (int j = 0; j < rank; j++) {
		int have = g->out_bits[j], want = ll_log2((uint64_t)shape[j]);
		if (have <= want)
			continue;
		uint32_t c[LL_MAX_CTA_BITS];
		int n = 0;
		for (int k = 0; k < g->in_bits[0]; k++) {
			uint32_t v[LL_MAX_RANK];
			ll_get_basis(g, 0, k, v);
			if (v[j] && !ll_is_pow2(v[j]))
				return ll_fail(err, "%s: cga_layout[%d] steps %u CTA tiles along dim%d, which "
				                    "cannot be cut to the tensor's %lld elements there (only "
				                    "powers of two can)", who, k, v[j], j, (long long)shape[j]);
			if (v[j])
				c[n++] = v[j];
		}
		/* the (have - want) largest go; what is left must fit */
		for (int cut = 0; cut < have - want && n; cut++) {
			int big = 0;
			for (int i = 1; i < n; i++)
				big = c[i] > c[big] ? i : big;
			c[big] = c[--n];
		}
		for (int i = 0; i < n; i++)
			if (c[i] >> want)
				return ll_fail(err, "%s: cga_layout cannot be cut to the tensor's %lld elements "
				                    "along dim%d: two bases step alike there", who,
				               (long long)shape[j], j);
	}
	return true;
}

bool
ll_cga_map(const LLDesc *d, const LLBases *cga, const int64_t *shape, int rank, LLayout *out,
           int64_t *cta_shape, LLErr *err)
{
	LLayout g;
	/* a dot operand's parent is checked as given, before K is zeroed */
	if (d->kind == LL_DOT_OPERAND && d->parent &&
	    !cga_grid(d->parent, &d->parent->cga_layout, rank, &g, err))
		return false;
	if (!cga_grid(d, cga, rank, &g, err) || !check_cut(d, &g, shape, rank, err))
		return false;
	ll_shrink(&g, shape);   /* a tensor smaller than the grid broadcasts */
	for (int j = 0; j < rank; j++) {
		int64_t per = shape[j] >> g.out_bits[j];
		cta_shape[j] = per > 1 ? per : 1;
	}
	*out = g;
	return true;
}

bool
ll_cga_combine(LLayout *cta, const LLayout *cga, const int64_t *cta_shape, int rank,
               LLayout *out, LLErr *err)
{
	if (ll_in_index(cta, LL_BLOCK) < 0)
		ll_add_in(cta, LL_BLOCK, 0);
	if (!ll_fit_shape(cta, cta_shape, rank, err))
		return false;
	return ll_product(cta, cga, out, err);
}
