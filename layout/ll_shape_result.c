/*
 * The layout of a register shape operation's result (reshape, permute,
 * join, split), as Gluon and Triton infer it: each thread keeps the
 * elements it holds (the maps of ll_shape.c), described by the constructor
 * form Triton derives from the operand's (ll_desc_shape.c) when that
 * builds to the same threads, else as a DistributedLinearLayout. Sema
 * derives it from a concrete operand; the layout-infer pass from an
 * inferred one once it is decided.
 */
#include "layout/ll_internal.h"

#include <string.h>

static int
log2_of(int64_t n)
{
	int b = 0;
	while ((int64_t)1 << b < n)
		b++;
	return b;
}

const LLDesc *
ll_shape_result(Arena *a, LLShapeOp op, const LLDesc *d, const LLayout *ll, const int64_t *in,
                int rank, const int64_t *arg, int n, int num_warps, int64_t *shape, int *out_rank,
                LLayout *out, LLErr *err)
{
	const LLDesc *nice = NULL;
	int perm[LL_MAX_RANK], bits[LL_MAX_RANK];
	bool ok;
	switch (op) {
	case LL_OP_RESHAPE:
		*out_rank = n;
		for (int i = 0; i < n; i++) {
			shape[i] = arg[i];
			bits[i] = log2_of(arg[i]);
		}
		nice = ll_desc_reshaped(a, d, in, rank, shape, n, num_warps);
		ok = ll_reshape_outs(ll, bits, n, out, err);
		break;
	case LL_OP_PERMUTE:
		*out_rank = rank;
		for (int i = 0; i < rank; i++) {
			perm[i] = (int)arg[i];
			shape[i] = in[perm[i]];
		}
		nice = ll_desc_permuted(a, d, perm, rank);
		ok = ll_permute_outs(ll, perm, out, err);
		break;
	case LL_OP_JOIN:
		*out_rank = rank + 1;
		memcpy(shape, in, (size_t)rank * sizeof *shape);
		shape[rank] = 2;
		nice = ll_desc_joined(a, d, rank);
		ok = ll_join(ll, out, err);
		break;
	default:   /* split */
		*out_rank = rank - 1;
		memcpy(shape, in, (size_t)(rank - 1) * sizeof *shape);
		nice = rank > 1 ? ll_desc_split(a, d, rank) : NULL;
		ok = ll_split(ll, out, err);
		break;
	}
	if (!ok)
		return NULL;
	if (*out_rank == 0)
		return d;
	LLayout built;
	LLErr quiet = {a, NULL};
	if (nice && ll_build(nice, shape, *out_rank, num_warps, &built, &quiet) &&
	    ll_same_threads(&built, out))
		return nice;
	return ll_desc_distributed_linear(a, out, shape, *out_rank);
}
