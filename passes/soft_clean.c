/*
 * The soft-clean pass: what becomes of a tl function's soft conversions
 * once layout-infer has decided every layout (passes/layout_soft.c).
 *
 *   - one whose two sides are one map moves nothing: it is removed and its
 *     uses read its source (kept, at no cost, where a use relates
 *     descriptions rather than maps: expand_dims, reduce, broadcast, ...);
 *   - one whose source is cheap to compute again (Triton's backward
 *     rematerialization): aranges, splats, constants, full tensors and the
 *     elementwise operations, broadcasts, expand_dims and conversions over
 *     them, at most MAX_CLONES instructions: the computation is repeated in
 *     the layout wanted, just before the conversion, which goes;
 *   - any other stays, a real conversion (cvt-plan plans it).
 *
 * Then the cheap instructions nothing uses any more are removed. Running
 * it again changes nothing.
 */
#include "passes/passes.h"

#include <string.h>

enum { MAX_CLONES = 32 };

typedef struct Clean {
	Arena *a;
	TKernel *k;
	const TInst **def;    /* by value id */
	TValue **repl;        /* by value id: the value its uses read instead */
	bool *by_desc;        /* by value id: some use relates its description */
	int *uses;            /* by value id */
	int warps;
	/* the clones of one conversion, before they are kept */
	TInst *clones[MAX_CLONES];
	int n_clones;
	bool changed;
} Clean;

/* Operations that compute a tensor from their operands alone. */
static bool
is_cheap(TOp op)
{
	return op == OP_ARANGE || op == OP_FULL || op == OP_SPLAT || op == OP_CONST ||
	       op == OP_BROADCAST || op == OP_EXPAND_DIMS || op == OP_CONVERT_LAYOUT ||
	       (op >= OP_ADD && op <= OP_BITCAST);
}

/* Operations whose operands' layouts matter only as maps (the verifier
 * and code generation read no description of theirs). */
static bool
maps_only(TOp op)
{
	return (op >= OP_ADD && op <= OP_BITCAST) || op == OP_LOAD || op == OP_STORE ||
	       op == OP_ATOMIC_RMW || op == OP_ATOMIC_CAS || op == OP_VAR_WRITE ||
	       op == OP_SMEM_STORE || op == OP_CONVERT_LAYOUT || op == OP_RESHAPE ||
	       op == OP_PERMUTE || op == OP_JOIN || op == OP_SPLIT || op == OP_EXTERN;
}

static bool
same_layout(const TType *a, const TType *b)
{
	return a->kind == TY_TENSOR && b->kind == TY_TENSOR && ll_equal(&a->layout.ll, &b->layout.ll);
}

/* t in layout l (fitted to t's shape); NULL when l does not fit it. */
static const TType *
in_layout(Clean *c, const TType *t, const LLDesc *l)
{
	TType *n = arena_alloc(c->a, sizeof *n);
	*n = *t;
	n->layout.desc = l;
	LLErr err = {c->a, NULL};
	return ll_build(l, t->shape, t->rank, c->warps, &n->layout.ll, &err) ? n : NULL;
}

/* v computed again in layout l (a new instruction list in c->clones), or v
 * itself when it is in l already (as a map; with exact, for an operand
 * whose description its use relates, as a description too: a one-element
 * tensor is in many layouts' map, and expand_dims needs the slice of its
 * result's); NULL when that is not cheap. */
static TValue *
clone(Clean *c, TValue *v, const LLDesc *l, bool exact)
{
	if (v->type->kind != TY_TENSOR)
		return v;
	const TType *want = in_layout(c, v->type, l);
	if (!want)
		return NULL;
	if (same_layout(v->type, want) && (!exact || ll_desc_equal(v->type->layout.desc, l)))
		return v;
	const TInst *d = c->def[v->id];
	if (!d || !is_cheap(d->op) || d->op == OP_CONST || c->n_clones == MAX_CLONES)
		return NULL;
	if (d->op == OP_CONVERT_LAYOUT)
		return d->attr.trivial ? NULL : clone(c, d->args[0], l, exact);
	TInst *n = ir_inst_new(c->a, d->op, d->at);
	n->attr = d->attr;
	n->c = d->c;
	TValue **args = ir_inst_operands(c->a, n, d->n_args);
	for (int k = 0; k < d->n_args; k++) {
		TValue *a = d->args[k];
		const LLDesc *al = d->op == OP_EXPAND_DIMS ? ll_desc_slice(c->a, l, d->attr.axis) : l;
		if (!(args[k] = a->type->kind == TY_TENSOR ? clone(c, a, al, !maps_only(d->op)) : a))
			return NULL;
	}
	if (c->n_clones == MAX_CLONES)
		return NULL;
	ir_inst_result(c->a, n, c->k->n_values++, want)->layout_at = d->res->layout_at;
	c->clones[c->n_clones++] = n;
	return n->res;
}

/* Soft conversion in: removed, or replaced by clones of its source
 * inserted before it. */
static void
clean_convert(Clean *c, IrWalker *w, TInst *in)
{
	TValue *src = in->args[0];
	if (same_layout(src->type, in->res->type)) {
		if (!c->by_desc[in->res->id]) {
			c->repl[in->res->id] = src;
			c->changed = true;
		}
		return;
	}
	c->n_clones = 0;
	TValue *r = clone(c, src, in->res->type->layout.desc, false);
	if (!r || r == src)
		return;
	for (int k = 0; k < c->n_clones; k++) {
		ir_walk_insert(w, c->a, c->clones[k]);
		c->def[c->clones[k]->res->id] = c->clones[k];
	}
	c->repl[in->res->id] = r;
	c->changed = true;
}

static IrStep
clean_inst(IrWalker *w, TInst *in)
{
	Clean *c = w->ctx;
	c->warps = ir_walk_warps(w);
	if (in->op == OP_CONVERT_LAYOUT && in->attr.soft)
		clean_convert(c, w, in);
	return IR_ON;
}

static TValue *
final(Clean *c, TValue *v)
{
	while (v && c->repl[v->id])
		v = c->repl[v->id];
	return v;
}

/* Records definitions (def) or rewrites operands through repl and counts
 * uses (uses). */
static IrStep
visit(IrWalker *w, TInst *in)
{
	Clean *c = w->ctx;
	if (!c->uses) {
		if (in->res)
			c->def[in->res->id] = in;
		for (int k = 0; k < in->n_args && !maps_only(in->op); k++)
			if (in->args[k])
				c->by_desc[in->args[k]->id] = true;
		return IR_ON;
	}
	for (int k = 0; k < in->n_args; k++)
		if (in->args[k]) {
			in->args[k] = final(c, in->args[k]);
			c->uses[in->args[k]->id]++;
		}
	if (in->cond_value) {
		in->cond_value = final(c, in->cond_value);
		c->uses[in->cond_value->id]++;
	}
	return IR_ON;
}

/* Drops the conversion replaced or the cheap instruction whose result
 * nothing uses (after its blocks); c->changed when it drops one. */
static IrStep
drop_unused(IrWalker *w, TInst *in)
{
	Clean *c = w->ctx;
	bool replaced = in->res && c->repl[in->res->id];
	bool unused = in->res && is_cheap(in->op) && !c->uses[in->res->id] &&
	              !(in->op == OP_CONVERT_LAYOUT && in->attr.trivial);
	if (!replaced && !unused)
		return IR_ON;
	for (int k = 0; k < in->n_args && !replaced; k++)
		if (in->args[k])
			c->uses[in->args[k]->id]--;
	if (replaced)
		c->uses[in->args[0]->id]--;
	c->repl[in->res->id] = NULL;
	c->uses[in->res->id] = -1;
	c->changed = true;
	ir_walk_remove(w);
	return IR_ON;
}

static IrStep
stop_at_soft(IrWalker *w, TInst *in)
{
	(void)w;
	return in->op == OP_CONVERT_LAYOUT && in->attr.soft ? IR_STOP : IR_ON;
}

static void
clean_kernel(Arena *a, TKernel *k)
{
	Clean c = {.a = a, .k = k};
	if (ir_walk(&(IrWalker){.k = k, .pre = stop_at_soft}))
		return;
	/* clones add values: room for MAX_CLONES per instruction there is */
	size_t cap = (size_t)k->n_values * (MAX_CLONES + 1) + 1;
	c.def = arena_alloc(a, cap * sizeof *c.def);
	c.repl = arena_alloc(a, cap * sizeof *c.repl);
	c.by_desc = arena_alloc(a, cap * sizeof *c.by_desc);
	ir_walk(&(IrWalker){.k = k, .ctx = &c, .pre = visit});
	ir_walk(&(IrWalker){.k = k, .ctx = &c, .pre = clean_inst});
	if (!c.changed)
		return;
	c.uses = arena_alloc(a, cap * sizeof *c.uses);
	ir_walk(&(IrWalker){.k = k, .ctx = &c, .pre = visit});
	do {
		c.changed = false;
		ir_walk(&(IrWalker){.k = k, .ctx = &c, .post = drop_unused});
	} while (c.changed);
}

bool
pass_soft_clean(TProgram *p, Arena *a, Diags *d)
{
	(void)d;
	for (int i = 0; i < p->n_kernels; i++)
		clean_kernel(a, p->kernels[i]);
	return true;
}
