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

/* ensureLayoutNotSmallerThan: repeats along the first in-dim, walking the
 * out-dims in the layout's order. */
static bool
grow(LLayout *l, const int64_t *shape, LLErr *err)
{
	LLName first = (LLName)l->in_name[0];
	for (int j = 0; j < l->n_out; j++) {
		int d = l->out_name[j] - LL_DIM0, want = ll_log2((uint64_t)shape[d]);
		if (want > l->out_bits[j]) {
			LLayout rep = ll_identity_1d(want - l->out_bits[j], first, (LLName)l->out_name[j]);
			if (!ll_product(l, &rep, l, err))
				return false;
		}
	}
	return true;
}

/* Keeps the first in_bits[i] columns of in-dim i that are not in `drop`. */
static LLayout
drop_columns(const LLayout *l, int i, uint64_t drop)
{
	LLayout r = *l;
	int s = ll_in_start(l, i), n = ll_total_in_bits(l), w = s;
	for (int k = s; k < s + l->in_bits[i]; k++)
		if (!(drop >> (k - s) & 1))
			r.col[w++] = l->col[k];
	r.in_bits[i] = (uint8_t)(w - s);
	for (int k = s + l->in_bits[i]; k < n; k++)
		r.col[w++] = l->col[k];
	while (w < LL_MAX_BITS)
		r.col[w++] = 0;
	return r;
}

/* ensureLayoutNotLargerThan, then out-dims resized to the shape and put in
 * standard order. Per out-dim (layout order) the bases with the largest
 * values are zeroed (broadcast) until the dim fits; with drop_registers
 * (broadcastRegisters=false) a register basis picked is instead removed
 * after all dims are done, keeping its value meanwhile, as Triton does. */
static void
shrink(LLayout *l, const int64_t *shape, bool drop_registers)
{
	int bits[LL_MAX_DIMS];
	int n = ll_total_in_bits(l), reg = ll_in_index(l, LL_REGISTER);
	int reg_start = reg < 0 ? 0 : ll_in_start(l, reg), reg_bits = reg < 0 ? 0 : l->in_bits[reg];
	uint64_t dropped = 0;
	for (int j = 0; j < l->n_out; j++) {
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
		for (int i = 0; i < nc && have > want; i++, have--) {
			int k = c[i].col;
			if (drop_registers && k >= reg_start && k < reg_start + reg_bits)
				dropped |= 1ull << (k - reg_start);
			else
				l->col[k] &= ~m;
		}
		bits[j] = want;
	}
	if (dropped)
		*l = drop_columns(l, reg, dropped);
	*l = resize_outs(l, bits);
	*l = ll_standard_outs(l);
}

void
ll_shrink(LLayout *l, const int64_t *shape)
{
	shrink(l, shape, false);
}

bool
ll_fit_shape(LLayout *l, const int64_t *shape, int rank, LLErr *err)
{
	if (l->n_out != rank)
		return ll_fail(err, "layout of rank %d used for a tensor of rank %d", l->n_out, rank);
	if (!grow(l, shape, err))
		return false;
	shrink(l, shape, false);
	return true;
}

bool
ll_fit_linear(LLayout *l, const int64_t *shape, int rank, LLErr *err)
{
	if (l->n_out != rank)
		return ll_fail(err, "layout of rank %d used for a tensor of rank %d", l->n_out, rank);
	/* getOrder: dims in the order the register bases first reach them,
	 * then the rest from the last dim down. */
	LLayout t = ll_standard_outs(l);
	int perm[LL_MAX_DIMS], np = 0;
	unsigned seen = 0;
	int reg = ll_in_index(&t, LL_REGISTER);
	for (int b = 0; reg >= 0 && b < t.in_bits[reg]; b++) {
		uint32_t v[LL_MAX_DIMS];
		ll_get_basis(&t, reg, b, v);
		for (int j = 0; j < rank; j++)
			if (v[j]) {
				if (!(seen >> j & 1))
					perm[np++] = j;
				seen |= 1u << j;
				break;
			}
	}
	for (int j = rank - 1; j >= 0; j--)
		if (!(seen >> j & 1))
			perm[np++] = j;
	if (!ll_transpose_outs(&t, perm, l, err) || !grow(l, shape, err))
		return false;
	shrink(l, shape, true);
	return true;
}
