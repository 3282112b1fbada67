/*
 * Visiting every instruction of a kernel in program order: nested blocks
 * (for, if/else, while's condition then body) right after the instruction
 * that owns them, and the warp_specialize partitions, in order, at the
 * warp_specialize instruction.
 */
#include "ir/ir.h"

static bool walk_block(const TKernel *k, const TBlock *b, IrVisit fn, void *ctx);

static bool
walk_inst(const TKernel *k, TInst *in, IrVisit fn, void *ctx)
{
	if (!fn(in, ctx))
		return false;
	if (!walk_block(k, &in->cond_block, fn, ctx) || !walk_block(k, &in->body, fn, ctx) ||
	    !walk_block(k, &in->else_body, fn, ctx))
		return false;
	int n = 0;
	TPartition *parts = in->op == OP_WARP_SPECIALIZE ? ir_ws_parts(k, in, &n) : NULL;
	for (int p = 0; p < n; p++)
		if (!walk_block(k, &parts[p].body, fn, ctx))
			return false;
	return true;
}

static bool
walk_block(const TKernel *k, const TBlock *b, IrVisit fn, void *ctx)
{
	for (size_t i = 0; i < b->n; i++)
		if (!walk_inst(k, b->insts[i], fn, ctx))
			return false;
	return true;
}

bool
ir_walk(const TKernel *k, IrVisit fn, void *ctx)
{
	return walk_block(k, &k->body, fn, ctx);
}

TPartition *
ir_ws_parts(const TKernel *k, const TInst *in, int *n)
{
	int first = in->attr.index, count = (int)in->attr.count;
	bool ok = first >= 0 && count > 0 && first + count <= k->n_parts;
	*n = ok ? count : 0;
	return ok ? &k->parts[first] : NULL;
}
