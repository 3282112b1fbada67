/*
 * The distributed layouts of join and split, as Triton's
 * inferJoinOpEncoding and inferSplitOpEncoding give them in linear form:
 * join adds the new last dimension as the first register bit; split drops
 * the register bit that gives the last dimension (of size 2). The layout
 * of gl.fp4_to_fp's result (Triton's inferFp4ToFpOpEncoding): the
 * operand's with a new first register bit along the unpacked axis. Also
 * the comparison of maps that these register renamings preserve.
 */
#include "layout/ll_internal.h"

#include <stdlib.h>
#include <string.h>

bool
ll_join(const LLayout *l, LLayout *out, LLErr *err)
{
	int rank = l->n_out, perm[LL_MAX_DIMS];
	if (rank >= LL_MAX_RANK)
		return ll_fail(err, "join: rank %d is the most a tensor has", rank);
	/* identity1D(2, register, dim{rank}) * l, then the out-dims in order */
	LLayout one = ll_identity_1d(1, LL_REGISTER, (LLName)(LL_DIM0 + rank)), prod;
	for (int d = 0; d <= rank; d++)
		perm[d] = (d + 1) % (rank + 1);
	return ll_product(&one, l, &prod, err) && ll_transpose_outs(&prod, perm, out, err);
}

bool
ll_fp4_unpacked(const LLayout *l, int axis, LLayout *out, LLErr *err)
{
	int rank = l->n_out, perm[LL_MAX_DIMS];
	if (axis < 0 || axis >= rank)
		return ll_fail(err, "fp4_to_fp: axis %d of a rank-%d layout", axis, rank);
	/* identity1D(2, register, dim{axis}) * l, then the out-dims in order */
	LLayout one = ll_identity_1d(1, LL_REGISTER, (LLName)(LL_DIM0 + axis)), prod;
	for (int d = 0; d < rank; d++)
		perm[d] = d == axis ? 0 : d < axis ? d + 1 : d;
	return ll_product(&one, l, &prod, err) && ll_transpose_outs(&prod, perm, out, err);
}

bool
ll_split(const LLayout *l, LLayout *out, LLErr *err)
{
	int last = l->n_out - 1, ri = ll_in_index(l, LL_REGISTER), drop = -1;
	bool other = false;
	if (last < 0 || l->out_bits[last] != 1)
		return ll_fail(err, "split: the last dimension must have 2 elements");
	for (int i = 0; i < l->n_in; i++)
		for (int b = 0; b < l->in_bits[i]; b++) {
			uint32_t v[LL_MAX_DIMS];
			ll_get_basis(l, i, b, v);
			bool only = v[last] == 1;
			for (int j = 0; j < last; j++)
				only &= !v[j];
			if (i == ri && only && drop < 0)
				drop = b;
			else
				other |= v[last] != 0;
		}
	if (drop < 0 || other)
		return ll_fail(err, "split needs the last dimension (of size 2) in each thread's "
		               "registers, which this layout does not have");
	LLayout r = ll_empty();
	for (int j = 0; j < last; j++)
		ll_add_out(&r, (LLName)l->out_name[j], l->out_bits[j]);
	for (int i = 0; i < l->n_in; i++) {
		int k = ll_add_in(&r, (LLName)l->in_name[i], l->in_bits[i] - (i == ri));
		for (int b = 0, nb = 0; b < l->in_bits[i]; b++) {
			uint32_t v[LL_MAX_DIMS];
			if (i == ri && b == drop)
				continue;
			ll_get_basis(l, i, b, v);
			ll_set_basis(&r, k, nb++, v);
		}
	}
	*out = r;
	return true;
}

static int
cmp_col(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

bool
ll_same_threads(const LLayout *a, const LLayout *b)
{
	if (a->n_in != b->n_in || a->n_out != b->n_out ||
	    memcmp(a->in_name, b->in_name, a->n_in) || memcmp(a->in_bits, b->in_bits, a->n_in) ||
	    memcmp(a->out_name, b->out_name, a->n_out) || memcmp(a->out_bits, b->out_bits, a->n_out))
		return false;
	int r = ll_in_index(a, LL_REGISTER), n = ll_total_in_bits(a);
	int lo = r < 0 ? 0 : ll_in_start(a, r), hi = r < 0 ? 0 : lo + a->in_bits[r];
	uint64_t ra[LL_MAX_BITS], rb[LL_MAX_BITS];
	for (int k = 0; k < n; k++)
		if ((k < lo || k >= hi) && a->col[k] != b->col[k])
			return false;
	memcpy(ra, a->col + lo, (size_t)(hi - lo) * sizeof *ra);
	memcpy(rb, b->col + lo, (size_t)(hi - lo) * sizeof *rb);
	qsort(ra, (size_t)(hi - lo), sizeof *ra, cmp_col);
	qsort(rb, (size_t)(hi - lo), sizeof *rb, cmp_col);
	return memcmp(ra, rb, (size_t)(hi - lo) * sizeof *ra) == 0;
}
