/*
 * The distributed layouts of join and split, as Triton's
 * inferJoinOpEncoding and inferSplitOpEncoding give them in linear form:
 * join adds the new last dimension as the first register bit; split drops
 * the register bit that gives the last dimension (of size 2).
 */
#include "layout/ll_internal.h"

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
