/*
 * Facts of the tensor-core instructions that sema, the passes and code
 * generation share: the accumulator layout glc gives an inferred WGMMA
 * accumulator.
 */
#include "ir/ir.h"

const LLDesc *
ir_wgmma_layout(Arena *a, const TType *acc, int bits, int num_warps)
{
	int64_t n = acc->rank == 2 ? acc->shape[1] : 8;
	int64_t in = 8;
	for (int64_t c = 256; c >= 8; c -= 8)
		if (n % c == 0) {
			in = c;
			break;
		}
	return ll_desc_wgmma(a, num_warps, (int)in, 256 / bits);
}
