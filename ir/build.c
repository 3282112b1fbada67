/*
 * Building the IR: new instructions with their results and operands, blocks
 * grown and spliced, a kernel completed with what it declares, and a
 * kernel's variant. Sema, the reader and the passes all build through
 * these.
 */
#include "ir/ir.h"

#include <string.h>

TInst *
ir_inst_new(Arena *a, TOp op, SrcSpan at)
{
	TInst *i = arena_alloc(a, sizeof *i);
	i->op = op;
	i->at = at;
	return i;
}

TValue *
ir_inst_result(Arena *a, TInst *i, int id, const TType *t)
{
	i->res = arena_alloc(a, sizeof *i->res);
	*i->res = (TValue){id, t, i->at};
	return i->res;
}

TValue **
ir_inst_operands(Arena *a, TInst *i, int n)
{
	i->n_args = n;
	i->args = arena_alloc(a, (size_t)(n + 1) * sizeof *i->args);
	return i->args;
}

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

void
ir_block_insert(Arena *a, TBlock *b, size_t at, TInst *i)
{
	ir_block_push(a, b, i);
	memmove(b->insts + at + 1, b->insts + at, (b->n - 1 - at) * sizeof *b->insts);
	b->insts[at] = i;
}

void
ir_kernel_finish(TKernel *k, const IrKernelDecls *d)
{
	k->vars = d->vars;
	k->n_vars = (int)d->n_vars;
	k->smem = d->smem;
	k->n_smem = (int)d->n_smem;
	k->cx_names = d->cx_names;
	k->cx_values = d->cx_values;
	k->n_cx = (int)d->n_cx;
}

TKernel *
ir_kernel_variant(Arena *a, const TKernel *k, const char *name)
{
	TKernel *v = arena_alloc(a, sizeof *v);
	*v = *k;
	v->name = name;
	v->fast = NULL;
	v->generic = k;
	v->axis = NULL;
	v->params = arena_alloc(a, (size_t)(k->n_params + 1) * sizeof *v->params);
	if (k->n_params)
		memcpy(v->params, k->params, (size_t)k->n_params * sizeof *v->params);
	return v;
}
