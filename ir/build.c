/* Building the IR: blocks and the conversion plans of convert_layout. */
#include "ir/ir.h"

#include <string.h>

enum { MAX_PLAN_REG_BITS = 20 };   /* registers per thread a plan may list */

void
ir_block_push(Arena *a, TBlock *b, TInst *i)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 8;
		TInst **p = arena_alloc(a, cap * sizeof *p);
		if (b->n)
			memcpy(p, b->insts, b->n * sizeof *p);
		b->insts = p;
		b->cap = cap;
	}
	b->insts[b->n++] = i;
}

bool
ir_plan_convert(const TType *src, const TType *dst, LLCvtPlan *plan, LLErr *err)
{
	if (ll_in_bits(&src->layout.ll, LL_REGISTER) > MAX_PLAN_REG_BITS ||
	    ll_in_bits(&dst->layout.ll, LL_REGISTER) > MAX_PLAN_REG_BITS) {
		err->msg = arena_printf(err->arena, "a side holds more than 2^%d elements per "
		                        "thread", MAX_PLAN_REG_BITS);
		return false;
	}
	int bits = src->elem_is_ptr ? 64 : ir_dtype_bits(src->dtype);
	return ll_plan_convert(&src->layout.ll, &dst->layout.ll, bits < 8 ? 8 : bits, plan, err);
}
