/*
 * Triton's BlockedLayouts as its passes build them: from the elements each
 * thread holds along each dim and an order, the lanes and warps spread
 * over the shape from the fastest dim out (what Triton's
 * BlockedEncodingAttr::get(shape, sizePerThread, order, numWarps, 32)
 * does), and its default layout for a shape (one element per thread,
 * dims in reverse order), which ConvertTritonToTritonGPU gives every
 * tensor before Coalesce and AccelerateMatmul change some.
 */
#include "layout/ll_internal.h"

static int64_t
clamp(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

const LLDesc *
ll_desc_blocked_fit(Arena *a, const int64_t *shape, int rank, const int64_t *spt,
                    const int64_t *order, int num_warps)
{
	int64_t tpw[LL_MAX_RANK], wpc[LL_MAX_RANK];
	int64_t lanes = 32, warps = num_warps > 0 ? num_warps : 1;
	int64_t threads = lanes * warps, prev_lanes = 1, prev_warps = 1;
	for (int d = 0; d < rank - 1; d++) {
		int i = (int)order[d];
		int64_t per = shape[i] / spt[i];
		int64_t cta = clamp(threads, 1, per > 1 ? per : 1);
		tpw[i] = clamp(cta, 1, lanes);
		wpc[i] = clamp(cta / tpw[i], 1, warps);
		warps /= wpc[i];
		lanes /= tpw[i];
		threads /= cta;
		prev_lanes *= tpw[i];
		prev_warps *= wpc[i];
	}
	int last = (int)order[rank - 1];
	tpw[last] = 32 / prev_lanes;
	wpc[last] = (num_warps > 0 ? num_warps : 1) / prev_warps;
	LLDesc *d = arena_alloc(a, sizeof *d);
	ll_blocked_fill(d, rank, spt, tpw, wpc, order);
	return d;
}

const LLDesc *
ll_desc_blocked_default(Arena *a, const int64_t *shape, int rank, int num_warps)
{
	int64_t spt[LL_MAX_RANK], order[LL_MAX_RANK];
	for (int i = 0; i < rank; i++) {
		spt[i] = 1;
		order[i] = rank - 1 - i;
	}
	return ll_desc_blocked_fit(a, shape, rank, spt, order, num_warps);
}
