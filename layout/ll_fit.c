/* Triton's shape fitting (combineCtaCgaWithShape on one CTA) and the
 * N-D identity that every constructor starts from. */
#include "layout/ll_internal.h"

#include <stdlib.h>

LLayout
ll_identity_nd(LLName in, const int *bits, const int *order, int rank)
{
	LLayout r = ll_empty();
	for (int i = 0; i < rank; i++) {
		LLayout one = ll_identity_1d(bits[order[i]], in, (LLName)(LL_DIM0 + order[i]));
		ll_product(&r, &one, &r, NULL);
	}
	return r;
}

LLayout
ll_standard_outs(const LLayout *l)
{
	int perm[LL_MAX_DIMS];
	for (int j = 0; j < l->n_out; j++)
		perm[j] = ll_out_index(l, (LLName)(LL_DIM0 + j));
	LLayout r;
	ll_transpose_outs(l, perm, &r, NULL);
	return r;
}

/* l with the sizes of its out-dims replaced by bits[] (values masked). */
static LLayout
resize_outs(const LLayout *l, const int *bits)
{
	LLayout r = ll_empty();
	for (int i = 0; i < l->n_in; i++)
		ll_add_in(&r, l->in_name[i], l->in_bits[i]);
	for (int j = 0; j < l->n_out; j++)
		ll_add_out(&r, l->out_name[j], bits[j]);
	int n = ll_total_in_bits(l);
	for (int k = 0; k < n; k++) {
		uint32_t v[LL_MAX_DIMS];
		ll_unpack_out(l, l->col[k], v);
		r.col[k] = ll_pack_out(&r, v);
	}
	return r;
}

typedef struct Cand {
	int col;
	uint32_t value;
} Cand;

static int
by_value_desc(const void *pa, const void *pb)
{
	const Cand *a = pa, *b = pb;
	if (a->value != b->value)
		return a->value < b->value ? 1 : -1;
	return a->col - b->col;
}

bool
ll_fit_shape(LLayout *l, const int64_t *shape, int rank, LLErr *err)
{
	if (l->n_out != rank)
		return ll_fail(err, "layout of rank %d used for a tensor of rank %d", l->n_out, rank);
	LLName first = (LLName)l->in_name[0];
	/* ensureLayoutNotSmallerThan: repeat along the first in-dim. */
	for (int j = 0; j < rank; j++) {
		int d = l->out_name[j] - LL_DIM0, want = ll_log2((uint64_t)shape[d]);
		if (want > l->out_bits[j]) {
			LLayout rep = ll_identity_1d(want - l->out_bits[j], first, (LLName)l->out_name[j]);
			if (!ll_product(l, &rep, l, err))
				return false;
		}
	}
	/* ensureLayoutNotLargerThan: zero the largest bases (broadcast). */
	int bits[LL_MAX_DIMS];
	int n = ll_total_in_bits(l);
	for (int j = 0; j < rank; j++) {
		int d = l->out_name[j] - LL_DIM0, want = ll_log2((uint64_t)shape[d]);
		int have = l->out_bits[j];
		bits[j] = have;
		if (have <= want)
			continue;
		Cand c[LL_MAX_BITS];
		int nc = 0;
		uint64_t m = ll_out_mask(l, j);
		int sh = ll_out_shift(l, j);
		for (int k = 0; k < n; k++)
			if (l->col[k] & m)
				c[nc++] = (Cand){k, (uint32_t)((l->col[k] & m) >> sh)};
		qsort(c, (size_t)nc, sizeof c[0], by_value_desc);
		for (int i = 0; i < nc && have > want; i++, have--)
			l->col[c[i].col] &= ~m;
		bits[j] = want;
	}
	*l = resize_outs(l, bits);
	*l = ll_standard_outs(l);
	return true;
}
