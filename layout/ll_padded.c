/*
 * PaddedSharedLayout: a linear part (the offset bases, each moving one dim
 * by a power of two: together a permutation of the coordinate bits) and a
 * padding that places linear offset x at x + sum (x >> log2 interval) <<
 * log2 padding, as Triton's PaddedSharedEncodingAttr. ll_build gives the
 * linear part; whatever turns offsets into addresses or sizes applies the
 * padding (LLPadding).
 */
#include "layout/ll_internal.h"

#include <string.h>

enum { MAX_PAIR = 1 << 30 };

static bool
pair_values(const LLDesc *d, int i, int64_t *interval, int64_t *padding, LLErr *err)
{
	const LLInts *p = &d->interval_padding_pairs.b[i];
	if (p->n != 2)
		return ll_fail(err, "PaddedSharedLayout: interval_padding_pairs[%d] has %d entries, "
		                    "expected [interval, padding]", i, p->n);
	*interval = p->v[0];
	*padding = p->v[1];
	if (!ll_is_pow2(*interval) || *interval > MAX_PAIR)
		return ll_fail(err, "PaddedSharedLayout: interval %lld (interval_padding_pairs[%d]) "
		                    "is not a power of two up to 2^30", (long long)*interval, i);
	if (!ll_is_pow2(*padding) || *padding > MAX_PAIR)
		return ll_fail(err, "PaddedSharedLayout: padding %lld (interval_padding_pairs[%d]) "
		                    "is not a power of two up to 2^30", (long long)*padding, i);
	return true;
}

static bool
bases_of_rank(const LLBases *b, const char *what, int rank, LLErr *err)
{
	for (int k = 0; k < b->n && k < LL_MAX_LIST; k++)
		if (b->b[k].n != rank)
			return ll_fail(err, "PaddedSharedLayout: %s[%d] has %d coordinates but shape has "
			                    "rank %d", what, k, b->b[k].n, rank);
	return true;
}

bool
ll_desc_verify(const LLDesc *d, LLErr *err)
{
	if (d->kind != LL_PADDED_SHARED)
		return true;
	const LLBases *pairs = &d->interval_padding_pairs;
	if (pairs->n == 0)
		return ll_fail(err, "PaddedSharedLayout: interval_padding_pairs must have at least "
		                    "one [interval, padding] pair");
	for (int i = 0; i < pairs->n && i < LL_MAX_LIST; i++) {
		int64_t iv, pd, other, unused;
		if (!pair_values(d, i, &iv, &pd, err))
			return false;
		for (int j = 0; j < i; j++)
			if (pair_values(d, j, &other, &unused, NULL) && other == iv)
				return ll_fail(err, "PaddedSharedLayout: interval %lld is given twice "
				                    "(interval_padding_pairs[%d] and [%d])", (long long)iv,
				               j, i);
	}
	if (d->shape.n == 0)
		return ll_fail(err, "PaddedSharedLayout: shape must not be empty");
	return bases_of_rank(&d->offset_bases, "offset_bases", d->shape.n, err) &&
	       bases_of_rank(&d->block_bases, "block_bases", d->shape.n, err);
}

LLPadding
ll_desc_padding(const LLDesc *d)
{
	LLPadding p = {0};
	if (!d || d->kind != LL_PADDED_SHARED || !ll_desc_verify(d, NULL))
		return p;
	for (int i = 0; i < d->interval_padding_pairs.n; i++) {
		int64_t iv, pd;
		pair_values(d, i, &iv, &pd, NULL);
		p.interval_bits[i] = (uint8_t)ll_log2((uint64_t)iv);
		p.pad_bits[i] = (uint8_t)ll_log2((uint64_t)pd);
	}
	p.n = d->interval_padding_pairs.n;
	return p;
}

bool
ll_padding_equal(const LLPadding *a, const LLPadding *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++) {
		bool found = false;
		for (int j = 0; j < b->n && !found; j++)
			found = a->interval_bits[i] == b->interval_bits[j] &&
			        a->pad_bits[i] == b->pad_bits[j];
		if (!found)
			return false;
	}
	return true;
}

int64_t
ll_pad(const LLPadding *p, int64_t x)
{
	int64_t r = x;
	for (int i = 0; i < p->n; i++) {
		int64_t k = x >> p->interval_bits[i];
		if (k > INT64_MAX >> p->pad_bits[i] ||
		    __builtin_add_overflow(r, k << p->pad_bits[i], &r))
			return INT64_MAX;   /* far past any shared memory */
	}
	return r;
}

int64_t
ll_padded_size(const LLPadding *p, int64_t elems)
{
	if (elems <= 0)
		return 0;
	int64_t last = ll_pad(p, elems - 1);
	return last == INT64_MAX ? INT64_MAX : last + 1;
}

int
ll_padding_vector(const LLPadding *p)
{
	int bits = 30;
	for (int i = 0; i < p->n; i++) {
		bits = p->interval_bits[i] < bits ? p->interval_bits[i] : bits;
		bits = p->pad_bits[i] < bits ? p->pad_bits[i] : bits;
	}
	return 1 << bits;
}

/* Basis k as (dim, log2 of its step); false when it is not one power of
 * two along one dim. */
static bool
one_step(const LLInts *basis, int rank, int *dim, int *bits)
{
	*dim = -1;
	for (int j = 0; j < rank; j++) {
		int64_t c = basis->v[j];
		if (c == 0)
			continue;
		if (*dim >= 0 || !ll_is_pow2(c) || c > MAX_PAIR)
			return false;
		*dim = j;
		*bits = ll_log2((uint64_t)c);
	}
	return *dim >= 0;
}

/* The offset bases span `spans`, which (with the block bases when
 * `with_blocks`) is not the buffer's shape: false with that sentence. */
static bool
span_error(const int64_t *spans, const int64_t *shape, int rank, bool with_blocks, LLErr *err)
{
	StrBuf s = {0}, t = {0};
	ll_shape_text(spans, rank, ", ", &s);
	ll_shape_text(shape, rank, ", ", &t);
	if (with_blocks)
		ll_fail(err, "PaddedSharedLayout: its offset bases span %s and its block bases do not "
		             "cover the rest of the buffer %s", s.s, t.s);
	else
		ll_fail(err, "PaddedSharedLayout: its offset bases span %s but the buffer is %s", s.s,
		        t.s);
	buf_free(&s);
	buf_free(&t);
	return false;
}

/* The block bases of d after the offset bases of l, whose out-dims are
 * resized to the buffer's shape; together they must cover it. */
static bool
add_block_bases(const LLDesc *d, const int64_t *shape, int rank, const int64_t *spans,
                LLayout *l, LLErr *err)
{
	const LLBases *b = &d->block_bases;
	LLayout r = ll_empty();
	ll_add_in(&r, LL_OFFSET, l->in_bits[0]);
	for (int j = 0; j < rank; j++)
		ll_add_out(&r, (LLName)(LL_DIM0 + j), ll_log2((uint64_t)shape[j]));
	for (int k = 0; k < l->in_bits[0]; k++) {
		uint32_t v[LL_MAX_RANK];
		ll_get_basis(l, 0, k, v);
		ll_set_basis(&r, 0, k, v);
	}
	ll_add_in(&r, LL_BLOCK, b->n);
	for (int k = 0; k < b->n; k++) {
		uint32_t v[LL_MAX_RANK];
		for (int j = 0; j < rank; j++) {
			if (b->b[k].v[j] < 0 || b->b[k].v[j] >= shape[j])
				return ll_fail(err, "PaddedSharedLayout: block_bases[%d] has coordinate %lld "
				                    "outside dim%d of size %lld", k, (long long)b->b[k].v[j],
				               j, (long long)shape[j]);
			v[j] = (uint32_t)b->b[k].v[j];
		}
		ll_set_basis(&r, 1, k, v);
	}
	if (!ll_is_surjective(&r))
		return span_error(spans, shape, rank, true, err);
	*l = r;
	return true;
}

bool
ll_build_padded(const LLDesc *d, const int64_t *shape, int rank, LLayout *out, LLErr *err)
{
	if (!ll_desc_verify(d, err))
		return false;
	if (d->shape.n != rank)
		return ll_fail(err, "PaddedSharedLayout: shape has %d entries but the buffer's layout "
		                    "covers %d dims", d->shape.n, rank);
	const LLBases *b = &d->offset_bases;
	if (b->n > LL_MAX_LIST)
		return ll_fail(err, "PaddedSharedLayout: offset_bases has %d bases, at most %d are "
		                    "allowed", b->n, LL_MAX_LIST);
	int dims[LL_MAX_LIST], steps[LL_MAX_LIST], bits[LL_MAX_RANK] = {0};
	for (int k = 0; k < b->n; k++) {
		if (!one_step(&b->b[k], rank, &dims[k], &steps[k]))
			return ll_fail(err, "PaddedSharedLayout: offset_bases[%d] must move along one dim "
			                    "by a power of two (the linear part permutes whole rows or "
			                    "chunks; Triton allows neither swizzling nor broadcasting)", k);
		if (steps[k] + 1 > bits[dims[k]])
			bits[dims[k]] = steps[k] + 1;
	}
	int total = 0;
	for (int j = 0; j < rank; j++)
		total += bits[j];
	LLayout l = ll_empty();
	if (total <= 40) {   /* else it cannot be the buffer's shape either */
		ll_add_in(&l, LL_OFFSET, b->n);
		for (int j = 0; j < rank; j++)
			ll_add_out(&l, (LLName)(LL_DIM0 + j), bits[j]);
		for (int k = 0; k < b->n; k++) {
			uint32_t v[LL_MAX_RANK] = {0};
			v[dims[k]] = 1u << steps[k];
			ll_set_basis(&l, 0, k, v);
		}
		if (!ll_is_injective(&l))
			return ll_fail(err, "PaddedSharedLayout: offset_bases repeat a basis (Triton "
			                    "allows no broadcasting in a padded layout)");
		if (!ll_is_surjective(&l))
			return ll_fail(err, "PaddedSharedLayout: offset_bases leave gaps (each dim needs "
			                    "the steps 1, 2, 4, ... up to its size)");
	}
	/* one CTA's part: the whole buffer, or with block bases a box in it */
	int64_t spans[LL_MAX_RANK];
	bool fits = true;
	for (int j = 0; j < rank; j++) {
		spans[j] = 1ll << bits[j];
		fits &= d->block_bases.n ? spans[j] <= shape[j] : spans[j] == shape[j];
	}
	if (!fits)
		return span_error(spans, shape, rank, false, err);
	if (!d->block_bases.n)
		ll_add_in(&l, LL_BLOCK, 0);
	else if (!add_block_bases(d, shape, rank, spans, &l, err))
		return false;
	*out = l;
	return true;
}

const LLDesc *
ll_desc_padded_identity(Arena *a, const LLBases *pairs, const int64_t *shape,
                        const int64_t *order, int rank, LLErr *err)
{
	LLDesc *d = arena_alloc(a, sizeof *d);
	memset(d, 0, sizeof *d);
	d->kind = LL_PADDED_SHARED;
	d->interval_padding_pairs = *pairs;
	d->shape.n = rank;
	unsigned seen = 0;
	for (int i = 0; i < rank; i++) {
		if (!ll_is_pow2(shape[i]) || shape[i] > MAX_PAIR) {
			ll_fail(err, "PaddedSharedLayout.with_identity_for: shape[%d] = %lld is not a "
			             "power of two", i, (long long)shape[i]);
			return NULL;
		}
		if (order[i] < 0 || order[i] >= rank || (seen >> order[i] & 1)) {
			ll_fail(err, "PaddedSharedLayout.with_identity_for: order is not a permutation "
			             "of 0..%d", rank - 1);
			return NULL;
		}
		seen |= 1u << order[i];
		d->shape.v[i] = shape[i];
	}
	for (int i = 0; i < rank; i++) {
		int dim = (int)order[i];
		for (int64_t s = 1; s < shape[dim]; s *= 2) {
			if (d->offset_bases.n == LL_MAX_LIST) {
				ll_fail(err, "PaddedSharedLayout.with_identity_for: the shape has more than "
				             "2^%d elements", LL_MAX_LIST);
				return NULL;
			}
			LLInts *basis = &d->offset_bases.b[d->offset_bases.n++];
			basis->n = rank;
			basis->v[dim] = s;
		}
	}
	return ll_desc_verify(d, err) ? d : NULL;
}
