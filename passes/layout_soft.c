/*
 * The soft conversions of tl functions in the layout-infer pass: how a
 * @triton.jit kernel's layouts are decided as Triton's passes decide them.
 *
 * Sema marks the places where Triton may convert a value (an operand or
 * the result of a global access, a tensor gaining an axis, a value written
 * to a variable, a dot's operands) with a convert_layout marked `soft`.
 * Each access of at least one element per thread would like the layout
 * Triton's Coalesce pass gives it (ir/coalesce.c, from the axis facts of
 * the pointers as the kernel's fast variant assumes them: pointers 16-byte
 * aligned, integers divisible by 16). After the hard equations are solved,
 * each soft conversion is tried in turn, and its two sides become one
 * class when nothing they must or would like to be disagrees: what they
 * must be (a concrete layout), what they would like (an access's layout),
 * and the slices they are of. The order follows Triton's layout
 * propagation: first the accesses' pointers and loaded values (their
 * layouts spread from them), then the results of matrix multiplies (a
 * value keeps its MMA layout where it meets a store), then the values a
 * loop carries around (a loop keeps the layout of what its body
 * computes), then the values stored and the masks, then the rest in
 * program order. A conversion whose sides stay apart is
 * a real one; the soft-clean pass then removes those that move nothing
 * and recomputes cheap values in the layout wanted instead of converting.
 * Classes met by a soft conversion that nothing decides take Triton's
 * default layout (one element per thread).
 */
#include "passes/layout_infer.h"

#include <stdlib.h>
#include <string.h>

/* When an edge is tried: into an access's pointers or out of a loaded
 * value; out of a matrix multiply; into a loop-carried variable; into an
 * access's other operands (a stored value, a mask); the others; those out
 * of a derived shape operation once its layout is derived. */
enum { RANK_ACCESS, RANK_MMA, RANK_LOOP, RANK_VALUE, RANK_OTHER, RANK_DERIVED };

typedef struct Scan {
	Infer *x;
	int *edge;            /* by value id: the soft edge defining it, or -1 */
	size_t cap, derived_cap;
} Scan;

static bool
is_access(TOp op)
{
	return op == OP_LOAD || op == OP_STORE || op == OP_ATOMIC_RMW || op == OP_ATOMIC_CAS;
}

/* A shape operation of a tl function whose result's layout is an unknown
 * of its own, derived from its operand's. */
static bool
is_derived(const TInst *in)
{
	return (in->op == OP_RESHAPE || in->op == OP_PERMUTE || in->op == OP_JOIN ||
	        in->op == OP_SPLIT) && in->res && in->res->type->kind == TY_TENSOR &&
	       in->res->type->layout.desc->kind == LL_AUTO;
}

static void
mark_tl(Infer *x, const LLDesc *d)
{
	int dims[LL_MAX_RANK], n, v = li_root(x, d, dims, &n);
	if (v >= 0)
		x->u[v].tl = true;
}

/* Whether the instruction being walked is inside a loop (a for's or a
 * while's body or condition). */
static bool
in_loop(const IrWalker *w)
{
	for (const IrNest *n = w->at; n; n = n->up)
		if (n->owner && (n->owner->op == OP_FOR || n->owner->op == OP_WHILE))
			return true;
	return false;
}

/* Records in's result and its soft edge; lowers the rank of the edges it
 * uses (accesses, writes in loops). */
static IrStep
scan_inst(IrWalker *w, TInst *in)
{
	Scan *s = w->ctx;
	Infer *x = s->x;
	bool loops = in_loop(w);
	if (in->res)
		x->def[in->res->id] = in;
	if (is_derived(in)) {
		if (x->n_derived == s->derived_cap) {
			s->derived_cap = s->derived_cap ? 2 * s->derived_cap : 8;
			Derived *d = arena_alloc(x->a, s->derived_cap * sizeof *d);
			if (x->n_derived)
				memcpy(d, x->derived, x->n_derived * sizeof *d);
			x->derived = d;
		}
		x->derived[x->n_derived++] = (Derived){in};
	}
	if (in->op == OP_CONVERT_LAYOUT && in->attr.soft && in->res) {
		if (x->n_soft == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 16;
			SoftEdge *e = arena_alloc(x->a, s->cap * sizeof *e);
			if (x->n_soft)
				memcpy(e, x->soft, x->n_soft * sizeof *e);
			x->soft = e;
		}
		const TInst *src = x->def[in->args[0]->id];
		int rank = !src ? RANK_OTHER : is_derived(src) ? RANK_DERIVED : src->op == OP_LOAD ||
		           src->op == OP_SMEM_LOAD ? RANK_ACCESS : src->op == OP_WGMMA ||
		           src->op == OP_DOT ? RANK_MMA : RANK_OTHER;
		x->soft[x->n_soft] = (SoftEdge){in, rank};
		s->edge[in->res->id] = (int)x->n_soft++;
		mark_tl(x, in->args[0]->type->layout.desc);
		mark_tl(x, in->res->type->layout.desc);
	}
	for (int k = 0; k < in->n_args; k++) {
		int rank = is_access(in->op) ? (k == 0 ? RANK_ACCESS : RANK_VALUE)
		           : in->op == OP_VAR_WRITE && loops ? RANK_LOOP : RANK_OTHER;
		int e = in->args[k] ? s->edge[in->args[k]->id] : -1;
		if (e >= 0 && x->soft[e].rank > rank && x->soft[e].rank != RANK_DERIVED)
			x->soft[e].rank = rank;
	}
	/* the operand of a derived split is decided with it */
	if (in->op == OP_SPLIT && is_derived(in) && s->edge[in->args[0]->id] >= 0)
		x->soft[s->edge[in->args[0]->id]].rank = RANK_DERIVED;
	return IR_ON;
}

static int
by_rank(const void *pa, const void *pb)
{
	const SoftEdge *a = pa, *b = pb;
	if (a->rank != b->rank)
		return a->rank - b->rank;
	return a->cvt->res->id - b->cvt->res->id;   /* program order */
}

/* The axis facts of k as its fast variant assumes them. */
static const IrAxis *
fast_axis(Arena *a, const TKernel *k)
{
	TKernel *v = ir_kernel_variant(a, k, k->name);
	for (int i = 0; i < v->n_params; i++) {
		TParam *p = &v->params[i];
		bool integer = p->kind == TP_SCALAR && !ir_dtype_is_float(p->type->dtype) &&
		               p->type->dtype != DT_I1;
		if ((p->kind == TP_PTR || integer) && p->divisibility < 16)
			p->divisibility = 16;
	}
	return pass_axis_analyze(a, v);
}

bool
li_soft_scan(Infer *x)
{
	int nv = x->k->n_values;
	x->def = arena_alloc(x->a, (size_t)(nv + 1) * sizeof *x->def);
	Scan s = {x, arena_alloc(x->a, (size_t)(nv + 1) * sizeof *s.edge), 0, 0};
	for (int i = 0; i < nv; i++)
		s.edge[i] = -1;
	ir_walk(&(IrWalker){.k = x->k, .ctx = &s, .pre = scan_inst});
	if (!x->n_soft)
		return false;
	qsort(x->soft, x->n_soft, sizeof *x->soft, by_rank);
	x->axis = fast_axis(x->a, x->k);
	return true;
}

const LLDesc *
li_access_pref(Infer *x, const TInst *in)
{
	if (x->n_soft && in->op == OP_SMEM_LOAD)
		return li_vector_layout(x->a, in->res->type, x->warps);
	if (!x->n_soft || !is_access(in->op))
		return NULL;
	const TInst *def = x->def[in->args[0]->id];
	if (!def || def->op != OP_CONVERT_LAYOUT || !def->attr.soft)
		return NULL;
	return li_coalesced_layout(x->a, in, x->axis, x->warps);
}

/* -- whether two classes can be one ----------------------------------------- */

/* What class r must be, or else would like to be. */
static const LLDesc *
wanted(Infer *x, int r)
{
	const Unknown *c = &x->u[r];
	return c->fixed ? c->fixed : c->pref;
}

static bool can_be(Infer *x, int v, const LLDesc *l, int depth);

/* Class c, SliceLayout(c->dim, its parent), can be concrete l. */
static bool
slice_can_be(Infer *x, const Unknown *c, const LLDesc *l, int depth)
{
	return l->kind == LL_SLICE && l->dim == c->dim && can_be(x, c->parent, l->parent, depth + 1);
}

/* Class v can be concrete layout l. */
static bool
can_be(Infer *x, int v, const LLDesc *l, int depth)
{
	v = li_find(x, v);
	const Unknown *c = &x->u[v];
	if (c->conflict || depth > LL_MAX_RANK)
		return false;
	const LLDesc *w = wanted(x, v);
	if (w)
		return li_same_map(x, w, l, c->shape, c->rank);
	return c->parent < 0 || slice_can_be(x, c, l, depth);
}

/* Classes a and b can be one. */
static bool
can_join(Infer *x, int a, int b, int depth)
{
	a = li_find(x, a);
	b = li_find(x, b);
	if (a == b)
		return true;
	const Unknown *ca = &x->u[a], *cb = &x->u[b];
	if (ca->conflict || cb->conflict || depth > LL_MAX_RANK)
		return false;
	const LLDesc *la = wanted(x, a), *lb = wanted(x, b);
	if (la && lb && !li_same_map(x, la, lb, ca->rank >= cb->rank ? ca->shape : cb->shape,
	                             ca->rank >= cb->rank ? ca->rank : cb->rank))
		return false;
	if (ca->parent >= 0 && cb->parent >= 0)
		return ca->dim == cb->dim && can_join(x, ca->parent, cb->parent, depth + 1);
	if (ca->parent >= 0 && lb)
		return slice_can_be(x, ca, lb, depth);
	if (cb->parent >= 0 && la)
		return slice_can_be(x, cb, la, depth);
	return true;
}

/* Class v can be SliceLayout(dim, class p). */
static bool
can_slice(Infer *x, int v, int dim, int p)
{
	v = li_find(x, v);
	const Unknown *c = &x->u[v];
	if (c->conflict)
		return false;
	if (c->parent >= 0)
		return c->dim == dim && can_join(x, c->parent, p, 1);
	const LLDesc *w = wanted(x, v);
	return !w || (w->kind == LL_SLICE && w->dim == dim && can_be(x, p, w->parent, 1));
}

/* Whether layouts a and b (a soft conversion's sides) can be one. */
static bool
compatible(Infer *x, const LLDesc *a, const LLDesc *b)
{
	int pa[LL_MAX_RANK], pb[LL_MAX_RANK], na, nb;
	int va = li_root(x, a, pa, &na), vb = li_root(x, b, pb, &nb);
	if (va < 0 && vb < 0)
		return false;
	if (va >= 0 && vb >= 0) {
		if (na == nb && memcmp(pa, pb, (size_t)na * sizeof *pa) == 0)
			return can_join(x, va, vb, 0);
		if (na == 0 && nb == 1)
			return can_slice(x, va, pb[0], vb);
		if (nb == 0 && na == 1)
			return can_slice(x, vb, pa[0], va);
		return false;
	}
	int v = va >= 0 ? va : vb, n = va >= 0 ? na : nb;
	const int *dims = va >= 0 ? pa : pb;
	const LLDesc *l = va >= 0 ? b : a;
	for (int i = 0; i < n; i++) {
		if (l->kind != LL_SLICE || l->dim != dims[i])
			return false;
		l = l->parent;
	}
	return can_be(x, v, l, 0);
}

/* Tries soft edge e: its sides become one class when they can. */
static void
try_edge(Infer *x, const SoftEdge *e)
{
	const TInst *c = e->cvt;
	const LLDesc *a = c->args[0]->type->layout.desc, *b = c->res->type->layout.desc;
	if (!compatible(x, a, b))
		return;
	li_unify(x, a, b, c->at);
	li_merge_parents(x);
	li_gather(x);
}

/* The layout value v is decided to have (kept from now on: its class is
 * fixed to it). */
static const LLDesc *
decided(Infer *x, const TValue *v, SrcSpan at)
{
	int dims[LL_MAX_RANK], n, r = li_root(x, v->type->layout.desc, dims, &n);
	if (r < 0)
		return v->type->layout.desc;
	const LLDesc *l = li_resolve(x, r, 0);
	li_fix(x, li_find(x, r), l, at);
	for (int i = n - 1; i >= 0; i--)
		l = ll_desc_slice(x->a, l, dims[i]);
	return l;
}

/* The operand of derived split d, softly converted from src: src's layout
 * when it holds the last dim in each thread's registers, else Triton's
 * (its default layout with two elements per thread along that dim). */
static void
split_operand(Infer *x, const TInst *d, const TInst *cvt)
{
	const TType *t = cvt->res->type;
	const LLDesc *l = decided(x, cvt->args[0], d->at);
	LLayout ll, out;
	LLErr err = {x->a, NULL};
	if (!ll_build(l, t->shape, t->rank, x->warps, &ll, &err) || !ll_split(&ll, &out, &err)) {
		int64_t spt[LL_MAX_RANK], order[LL_MAX_RANK];
		for (int i = 0; i < t->rank; i++) {
			spt[i] = i == t->rank - 1 ? 2 : 1;
			order[i] = t->rank - 1 - i;
		}
		l = ll_desc_blocked_fit(x->a, t->shape, t->rank, spt, order, x->warps);
	}
	int dims[LL_MAX_RANK], n, r = li_root(x, t->layout.desc, dims, &n);
	if (r >= 0 && n == 0)
		li_fix(x, r, l, d->at);
	li_gather(x);
}

/* The layout of derived shape operation d, from its operand's (decided
 * now, and kept: the operand's class is fixed to it). */
static void
derive(Infer *x, const TInst *d)
{
	const TValue *in = d->args[0];
	const TType *it = in->type;
	const TInst *cvt = x->def[in->id];
	if (d->op == OP_SPLIT && cvt && cvt->op == OP_CONVERT_LAYOUT && cvt->attr.soft)
		split_operand(x, d, cvt);
	const LLDesc *l = decided(x, in, d->at);
	int dims[LL_MAX_RANK], n;
	LLayout ll, out;
	LLErr err = {x->a, NULL};
	int64_t arg[LL_MAX_RANK], shape[LL_MAX_RANK];
	int n_arg = 0, rank;
	LLShapeOp op = d->op == OP_RESHAPE ? LL_OP_RESHAPE : d->op == OP_PERMUTE ? LL_OP_PERMUTE
	               : d->op == OP_JOIN ? LL_OP_JOIN : LL_OP_SPLIT;
	const TType *rt = d->res->type;
	if (op == LL_OP_RESHAPE)
		for (; n_arg < rt->rank; n_arg++)
			arg[n_arg] = rt->shape[n_arg];
	else if (op == LL_OP_PERMUTE)
		for (; n_arg < rt->rank; n_arg++)
			arg[n_arg] = d->attr.order[n_arg];
	const LLDesc *r = ll_build(l, it->shape, it->rank, x->warps, &ll, &err)
	                  ? ll_shape_result(x->a, op, l, &ll, it->shape, it->rank, arg, n_arg,
	                                    x->warps, shape, &rank, &out, &err)
	                  : NULL;
	if (!r) {
		diag_error(x->d, d->at, "cannot derive the layout of this %s from %s: %s",
		           ir_op_name(d->op), li_desc_str(x, l), err.msg ? err.msg : "no such layout");
		x->ok = false;
		return;
	}
	int rv = li_root(x, rt->layout.desc, dims, &n);
	li_fix(x, rv, r, d->at);
	li_gather(x);
}

void
li_soft_merge(Infer *x)
{
	size_t i = 0;
	for (; i < x->n_soft && x->soft[i].rank != RANK_DERIVED; i++)
		try_edge(x, &x->soft[i]);
	for (size_t k = 0; k < x->n_derived && x->ok; k++) {
		derive(x, x->derived[k].op);
		for (size_t j = i; j < x->n_soft; j++)
			if (x->def[x->soft[j].cvt->args[0]->id] == x->derived[k].op)
				try_edge(x, &x->soft[j]);
	}
}
