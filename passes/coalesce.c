/*
 * Triton's Coalesce choice for a global access of a tl function: the
 * BlockedLayout its Coalesce pass gives a load, store or atomic, from the
 * axis facts of the pointers (passes/axis.c). Dims are ordered by the
 * pointers' contiguity, most contiguous first (ties: the last dim first);
 * along the first, each thread holds as many elements as are both
 * contiguous and aligned (by the pointers' divisibility), at most 16 bytes
 * and at most the elements per thread of the whole tensor; lanes and warps
 * then spread as ll_desc_blocked_fit spreads them. Triton's layout
 * propagation keeps such a layout only for an access of at least one
 * element per thread: smaller ones (and those of one element) follow the
 * layouts around them, so they get none here. A tensor read from shared
 * memory (a descriptor's block) gets Triton's 16 bytes per thread along
 * its last dim.
 */
#include "passes/layout_infer.h"

static int64_t
min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

const LLDesc *
li_coalesced_layout(Arena *a, const TInst *in, const IrAxis *axis, int num_warps)
{
	const TValue *p = in->args[in->op == OP_ASYNC_COPY ? 1 : 0];
	const TType *t = p->type;
	if (t->kind != TY_TENSOR || !t->elem_is_ptr)
		return NULL;
	int rank = t->rank;
	int64_t numel = 1;
	for (int d = 0; d < rank; d++)
		numel *= t->shape[d];
	int64_t threads = 32 * (int64_t)(num_warps > 0 ? num_warps : 1);
	if (numel <= 1 || numel < threads)
		return NULL;
	const IrAxis *f = &axis[p->id];
	/* the order: a stable sort by contiguity, descending, of [rank-1 .. 0] */
	int64_t order[LL_MAX_RANK];
	for (int i = 0; i < rank; i++)
		order[i] = rank - 1 - i;
	for (int i = 1; i < rank; i++)
		for (int j = i; j > 0 && f->contig[order[j]] > f->contig[order[j - 1]]; j--) {
			int64_t s = order[j];
			order[j] = order[j - 1];
			order[j - 1] = s;
		}
	int d0 = (int)order[0];
	int bits = ir_dtype_bits(t->dtype);
	int64_t bytes = bits / 8 > 1 ? bits / 8 : 1;
	int64_t multiple = f->div[d0] / bytes > 1 ? f->div[d0] / bytes : 1;
	int64_t contig = min64(f->contig[d0], t->shape[d0]);
	int64_t per = min64(min64(multiple, contig), 128 / (bits < 8 ? 8 : bits));
	per = min64(per, numel / threads > 1 ? numel / threads : 1);
	int64_t spt[LL_MAX_RANK];
	for (int d = 0; d < rank; d++)
		spt[d] = d == d0 ? per : 1;
	return ll_desc_blocked_fit(a, t->shape, rank, spt, order, num_warps);
}

const LLDesc *
li_vector_layout(Arena *a, const TType *t, int num_warps)
{
	int rank = t->rank;
	int64_t numel = 1, spt[LL_MAX_RANK], order[LL_MAX_RANK];
	for (int d = 0; d < rank; d++) {
		numel *= t->shape[d];
		spt[d] = 1;
		order[d] = rank - 1 - d;
	}
	int bits = ir_dtype_bits(t->dtype) < 8 ? 8 : ir_dtype_bits(t->dtype);
	int64_t threads = 32 * (int64_t)(num_warps > 0 ? num_warps : 1);
	int64_t per = min64(min64(128 / bits, t->shape[rank - 1]), numel / threads > 1 ? numel / threads
	                                                                            : 1);
	spt[rank - 1] = per;
	return ll_desc_blocked_fit(a, t->shape, rank, spt, order, num_warps);
}
