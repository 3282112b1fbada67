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

/* The blocks of in nest at depth; false after reporting one too deep. */
static bool
nesting_ok(const TKernel *k, const TBlock *b, int depth, Diags *d)
{
	for (size_t i = 0; i < b->n; i++) {
		const TInst *in = b->insts[i];
		int n = 0;
		TPartition *parts = in->op == OP_WARP_SPECIALIZE ? ir_ws_parts(k, in, &n) : NULL;
		if (!in->cond_block.n && !in->body.n && !in->else_body.n && !n)
			continue;
		if (depth >= IR_MAX_NEST) {
			diag_error(d, in->at, "blocks nest more than %d deep in kernel '%s' "
			           "(counting those of the calls inlined into it)", IR_MAX_NEST,
			           k->name);
			return false;
		}
		if (!nesting_ok(k, &in->cond_block, depth + 1, d) ||
		    !nesting_ok(k, &in->body, depth + 1, d) ||
		    !nesting_ok(k, &in->else_body, depth + 1, d))
			return false;
		for (int p = 0; p < n; p++)
			if (!nesting_ok(k, &parts[p].body, depth + 1, d))
				return false;
	}
	return true;
}

bool
ir_check_nesting(const TProgram *p, Diags *d)
{
	for (int i = 0; i < p->n_kernels; i++)
		if (!nesting_ok(p->kernels[i], &p->kernels[i]->body, 0, d))
			return false;
	return true;
}

TPartition *
ir_ws_parts(const TKernel *k, const TInst *in, int *n)
{
	int first = in->attr.index, count = (int)in->attr.count;
	bool ok = first >= 0 && count > 0 && first + count <= k->n_parts;
	*n = ok ? count : 0;
	return ok ? &k->parts[first] : NULL;
}
