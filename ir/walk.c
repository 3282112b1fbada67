/*
 * Walking a kernel: every instruction in program order, with hooks before
 * and after it and around each block it owns (IrWalker). Which blocks an
 * instruction owns, and in which order, is said here once (ir_nest), as the
 * text form writes them: a for's or a map's body, an if's then and its else,
 * a while's condition then its body, a reduce's or scan's combine region,
 * and the partitions of a warp_specialize. The limit on how deep blocks
 * nest, which every recursive walk relies on, is checked here too.
 */
#include "ir/ir.h"

#include <string.h>

bool
ir_nest(const TKernel *k, TInst *in, int n, IrNest *out)
{
	*out = (IrNest){.owner = in, .role = IR_BODY, .index = -1};
	switch (in->op) {
	case OP_FOR:
	case OP_MAP:
		out->block = &in->body;
		return n == 0;
	case OP_IF:
		out->block = n == 0 ? &in->body : &in->else_body;
		out->role = n == 0 ? IR_BODY : IR_ELSE;
		return n == 0 || (n == 1 && in->else_body.n);
	case OP_WHILE:
		out->block = n == 0 ? &in->cond_block : &in->body;
		out->role = n == 0 ? IR_COND : IR_BODY;
		return n == 0 || n == 1;
	case OP_REDUCE:
	case OP_SCAN:
		out->block = &in->body;
		out->role = IR_REGION;
		return n == 0 && in->n_region;
	case OP_WARP_SPECIALIZE: {
		int count;
		TPartition *parts = ir_ws_parts(k, in, &count);
		if (n < 0 || n >= count)
			return false;
		out->part = &parts[n];
		out->block = &parts[n].body;
		out->role = IR_PARTITION;
		out->index = in->attr.index + n;
		return true;
	}
	default:
		return false;
	}
}

/* Instruction in: its pre hook, its blocks, its post hook. */
static bool
walk_inst(IrWalker *w, TInst *in)
{
	IrStep s = w->pre ? w->pre(w, in) : IR_ON;
	if (s != IR_ON)
		return s != IR_STOP;
	IrNest n;
	for (int i = 0; ir_nest(w->k, in, i, &n); i++)
		if (!ir_walk_nest(w, &n))
			return false;
	return !w->post || w->post(w, in) != IR_STOP;
}

bool
ir_walk_nest(IrWalker *w, IrNest *n)
{
	IrNest *outer = w->at;
	n->up = outer;
	w->at = n;
	IrStep s = w->enter ? w->enter(w, n) : IR_ON;
	bool ok = s != IR_STOP;
	for (n->at = 0; s == IR_ON && ok && n->at < n->block->n; n->at++)
		ok = walk_inst(w, n->block->insts[n->at]);
	if (s == IR_ON && ok && w->leave)
		ok = w->leave(w, n) != IR_STOP;
	w->at = outer;
	return ok;
}

bool
ir_walk(IrWalker *w)
{
	IrNest top = {.block = &w->k->body, .role = IR_BODY, .index = -1};
	return ir_walk_nest(w, &top);
}

bool
ir_walk_partition(IrWalker *w, int p)
{
	TPartition *part = &w->k->parts[p];
	IrNest n = {.block = &part->body, .role = IR_PARTITION, .part = part, .index = p};
	return ir_walk_nest(w, &n);
}

void
ir_walk_insert(IrWalker *w, Arena *a, TInst *i)
{
	/* The walk hands out the kernel's blocks as it hands out their
	 * instructions: the caller owns the kernel it changes. */
	ir_block_insert(a, (TBlock *)w->at->block, w->at->at++, i);
}

void
ir_walk_remove(IrWalker *w)
{
	TBlock *b = (TBlock *)w->at->block;   /* the caller's, as for ir_walk_insert */
	size_t at = w->at->at;
	memmove(b->insts + at, b->insts + at + 1, (b->n - at - 1) * sizeof *b->insts);
	b->n--;
	w->at->at--;   /* the walk's step then lands on the next one (unsigned wrap at 0) */
}

int
ir_walk_warps(const IrWalker *w)
{
	for (const IrNest *n = w->at; n; n = n->up)
		if (n->role == IR_PARTITION)
			return n->part->num_warps;
	return w->k->num_warps;
}

/* The depth of the block being walked, for ir_check_nesting. */
typedef struct Nesting {
	Diags *d;
	int depth;             /* blocks around the instruction visited */
} Nesting;

/* An instruction that opens a block at the limit is an error there. */
static IrStep
check_depth(IrWalker *w, TInst *in)
{
	Nesting *x = w->ctx;
	IrNest n;
	bool opens = false;
	for (int i = 0; !opens && ir_nest(w->k, in, i, &n); i++)
		opens = n.block->n || n.role == IR_PARTITION;
	if (!opens || x->depth < IR_MAX_NEST)
		return IR_ON;
	diag_error(x->d, in->at, "blocks nest more than %d deep in kernel '%s' (counting those "
	           "of the calls inlined into it)", IR_MAX_NEST, w->k->name);
	return IR_STOP;
}

static IrStep
deeper(IrWalker *w, const IrNest *n)
{
	((Nesting *)w->ctx)->depth += n->owner != NULL;
	return IR_ON;
}

static IrStep
shallower(IrWalker *w, const IrNest *n)
{
	((Nesting *)w->ctx)->depth -= n->owner != NULL;
	return IR_ON;
}

bool
ir_check_nesting(const TProgram *p, Diags *d)
{
	for (int i = 0; i < p->n_kernels; i++) {
		Nesting x = {d, 0};
		if (!ir_walk(&(IrWalker){.k = p->kernels[i], .ctx = &x, .pre = check_depth,
		                         .enter = deeper, .leave = shallower}))
			return false;
	}
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
