/*
 * Shape operations on register tensors: gl.reshape and gl.ravel. Their
 * result layouts come from the linear-layout algebra as Gluon infers them
 * (Triton's inferReshapeOpEncoding and friends): each thread keeps the
 * elements it holds, so the operations only rename registers. A result
 * layout that no named constructor gives is a DistributedLinearLayout.
 */
#include "sema/check.h"

#include <string.h>

static int64_t
numel(const int64_t *shape, int rank)
{
	int64_t n = 1;
	for (int d = 0; d < rank; d++)
		n *= shape[d];
	return n;
}

static int
log2_of(int64_t n)
{
	int b = 0;
	while ((int64_t)1 << b < n)
		b++;
	return b;
}

/* A tensor of x's element type over shape in distributed map ll (fitted to
 * that shape), described as a DistributedLinearLayout. */
static TType *
linear_type(Check *ck, SrcSpan at, const TType *xt, const int64_t *shape, int rank,
            const LLayout *ll)
{
	const LLDesc *d = ll_desc_distributed_linear(ck->a, ll, shape, rank);
	TType *t = sema_tensor_type(ck, at, sema_type_elem(ck, xt), shape, rank, d);
	if (t && !ll_equal(&t->layout.ll, ll)) {
		diag_error(ck->d, at, "internal error: the inferred layout does not rebuild");
		return NULL;
	}
	return t;
}

TValue *
sema_reshape(Check *ck, SrcSpan at, TValue *x, const int64_t *shape, int rank)
{
	const TType *xt = x->type;
	if (numel(shape, rank) != numel(xt->shape, xt->rank)) {
		StrBuf b = {0};
		ir_shape_print(shape, rank, &b);
		diag_error(ck->d, at, "cannot reshape %s (%lld elements) to %s (%lld elements)",
		           sema_type_str(ck, xt), (long long)numel(xt->shape, xt->rank), b.s,
		           (long long)numel(shape, rank));
		buf_free(&b);
		return NULL;
	}
	if (rank == xt->rank && memcmp(shape, xt->shape, (size_t)rank * sizeof *shape) == 0)
		return x;
	int bits[LL_MAX_RANK];
	for (int d = 0; d < rank; d++)
		bits[d] = log2_of(shape[d]);
	LLayout ll;
	LLErr err = {ck->a, NULL};
	if (!ll_reshape_outs(&xt->layout.ll, bits, rank, &ll, &err)) {
		diag_error(ck->d, at, "cannot reshape this layout: %s", err.msg);
		return NULL;
	}
	TType *t = linear_type(ck, at, xt, shape, rank, &ll);
	if (!t)
		return NULL;
	TInst *i = sema_emit(ck, OP_RESHAPE, at, t, 1, x);
	return i->res;
}
