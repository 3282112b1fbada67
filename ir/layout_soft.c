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
 * and the slices they are of. The order is Triton's layout propagation's:
 * first the accesses (their layouts spread from them), then the values a
 * loop carries around (a loop keeps the layout of what its body computes),
 * then the rest in program order. A conversion whose sides stay apart is
 * a real one; the soft-clean pass then removes those that move nothing
 * and recomputes cheap values in the layout wanted instead of converting.
 * Classes met by a soft conversion that nothing decides take Triton's
 * default layout (one element per thread).
 */
#include "ir/layout_infer.h"

#include <stdlib.h>
#include <string.h>

/* When an edge is tried: accesses, loop-carried writes, the others. */
enum { RANK_ACCESS, RANK_LOOP, RANK_OTHER };

typedef struct Scan {
	Infer *x;
	int *edge;            /* by value id: the soft edge defining it, or -1 */
	size_t cap;
} Scan;

static bool
is_access(TOp op)
{
	return op == OP_LOAD || op == OP_STORE || op == OP_ATOMIC_RMW || op == OP_ATOMIC_CAS;
}

static void
mark_tl(Infer *x, const LLDesc *d)
{
	int dims[LL_MAX_RANK], n, v = li_root(x, d, dims, &n);
	if (v >= 0)
		x->u[v].tl = true;
}

static void scan_block(Scan *s, const TBlock *b, int loops);

/* Records in's result and its soft edge; lowers the rank of the edges it
 * uses (accesses, writes in loops). */
static void
scan_inst(Scan *s, const TInst *in, int loops)
{
	Infer *x = s->x;
	if (in->res)
		x->def[in->res->id] = in;
	if (in->op == OP_CONVERT_LAYOUT && in->attr.soft && in->res) {
		if (x->n_soft == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 16;
			SoftEdge *e = arena_alloc(x->a, s->cap * sizeof *e);
			if (x->n_soft)
				memcpy(e, x->soft, x->n_soft * sizeof *e);
			x->soft = e;
		}
		const TInst *src = x->def[in->args[0]->id];
		x->soft[x->n_soft] = (SoftEdge){in, src && src->op == OP_LOAD ? RANK_ACCESS : RANK_OTHER};
		s->edge[in->res->id] = (int)x->n_soft++;
		mark_tl(x, in->args[0]->type->layout.desc);
		mark_tl(x, in->res->type->layout.desc);
	}
	int rank = is_access(in->op) ? RANK_ACCESS : in->op == OP_VAR_WRITE && loops > 0 ? RANK_LOOP
	           : RANK_OTHER;
	for (int k = 0; k < in->n_args && rank != RANK_OTHER; k++) {
		int e = in->args[k] ? s->edge[in->args[k]->id] : -1;
		if (e >= 0 && x->soft[e].rank > rank)
			x->soft[e].rank = rank;
	}
	bool loop = in->op == OP_FOR || in->op == OP_WHILE;
	scan_block(s, &in->cond_block, loops + loop);
	scan_block(s, &in->body, loops + loop);
	scan_block(s, &in->else_body, loops);
	if (in->op != OP_WARP_SPECIALIZE)
		return;
	int n;
	TPartition *parts = ir_ws_parts(x->k, in, &n);
	for (int p = 0; p < n; p++)
		scan_block(s, &parts[p].body, loops);
}

static void
scan_block(Scan *s, const TBlock *b, int loops)
{
	for (size_t i = 0; i < b->n; i++)
		scan_inst(s, b->insts[i], loops);
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
	return ir_axis_analyze(a, v);
}

bool
li_soft_scan(Infer *x)
{
	int nv = x->k->n_values;
	x->def = arena_alloc(x->a, (size_t)(nv + 1) * sizeof *x->def);
	Scan s = {x, arena_alloc(x->a, (size_t)(nv + 1) * sizeof *s.edge), 0};
	for (int i = 0; i < nv; i++)
		s.edge[i] = -1;
	scan_block(&s, &x->k->body, 0);
	if (!x->n_soft)
		return false;
	qsort(x->soft, x->n_soft, sizeof *x->soft, by_rank);
	x->axis = fast_axis(x->a, x->k);
	return true;
}

const LLDesc *
li_access_pref(Infer *x, const TInst *in)
{
	if (!x->n_soft || !is_access(in->op))
		return NULL;
	const TInst *def = x->def[in->args[0]->id];
	if (!def || def->op != OP_CONVERT_LAYOUT || !def->attr.soft)
		return NULL;
	return ir_coalesced_layout(x->a, in, x->axis, x->warps);
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

void
li_soft_merge(Infer *x)
{
	for (size_t i = 0; i < x->n_soft; i++) {
		const TInst *c = x->soft[i].cvt;
		const LLDesc *a = c->args[0]->type->layout.desc, *b = c->res->type->layout.desc;
		if (!compatible(x, a, b))
			continue;
		li_unify(x, a, b, c->at);
		li_merge_parents(x);
		li_gather(x);
	}
}
