/*
 * The layout-infer pass: Triton's AutoLayout inference, on the IR. A tensor
 * made without a layout (arange, full, zeros, smem.load without `layout=`,
 * or gl.AutoLayout()) has AutoLayout(id), an unknown, in its type; sema
 * checks everything else and lets unknowns through. This pass reads the
 * equations the instructions imply:
 *
 *   - elementwise operations, loads and stores (pointers, masks, values),
 *     variables, casts, selects and broadcasts: operands and result share a
 *     layout;
 *   - expand_dims: the operand is SliceLayout(axis, <the result's layout>),
 *     reduce: each result is SliceLayout(axis, <its input's>), a scan's
 *     results and inputs share one;
 *   - gather: the result has the index's layout; histogram: the mask the
 *     input's (the result's layout is its own);
 *   - convert_layout with `trivial` (gl.set_auto_layout, assert_trivial):
 *     source and result share a layout;
 *   - warpgroup_mma: the accumulator is the WGMMA layout glc picks
 *     (ir_wgmma_layout), a register A its DotOperandLayout;
 *   - global loads, stores and atomics: a hint, the coalesced layout for the
 *     widest 16-byte access along the contiguous dim.
 *
 * It solves them (union-find; concrete layouts win, slices follow their
 * parents, then the coalesced hint, then Triton's default BlockedLayout),
 * reports an unknown that meets two different layouts with a note at each,
 * and rewrites every type in the kernel with the result. After it no
 * AutoLayout is left; the verifier then checks the usual layout rules.
 */
#include "passes/layout_infer.h"

#include <string.h>

/* -- unknowns -------------------------------------------------------------------- */

int
li_find(Infer *x, int v)
{
	while (x->u[v].up != v)
		v = x->u[v].up = x->u[x->u[v].up].up;
	return v;
}

void
li_unite(Infer *x, int a, int b)
{
	a = li_find(x, a);
	b = li_find(x, b);
	if (a != b)
		x->u[a > b ? a : b].up = a < b ? a : b;
}

const char *
li_desc_str(Infer *x, const LLDesc *d)
{
	StrBuf b = {0};
	ll_desc_print(d, &b);
	const char *s = arena_strndup(x->a, b.s ? b.s : "", b.len);
	buf_free(&b);
	return s;
}

static void
conflict(Infer *x, int v, SrcSpan at, const char *why)
{
	Unknown *u = &x->u[v];
	if (!u->conflict) {
		u->conflict = why;
		u->conflict_at = at;
	}
}

/* The unknown d is, or is a slice of (the slices' dims in dims[0..*n-1],
 * outermost first); -1 when d involves none. */
int
li_root(const Infer *x, const LLDesc *d, int *dims, int *n)
{
	*n = 0;
	for (; d; d = d->parent) {
		if (d->kind == LL_AUTO)
			return d->auto_id < x->n ? d->auto_id : -1;
		if (d->kind != LL_SLICE || *n >= LL_MAX_RANK)
			return -1;
		dims[(*n)++] = d->dim;
	}
	return -1;
}

bool
li_same_map(Infer *x, const LLDesc *a, const LLDesc *b, const int64_t *shape, int rank)
{
	LLayout la, lb;
	LLErr err = {x->a, NULL};
	return ll_desc_equal(a, b) || (ll_build(a, shape, rank, 0, &la, &err) &&
	                               ll_build(b, shape, rank, 0, &lb, &err) && ll_equal(&la, &lb));
}

void
li_fix(Infer *x, int v, const LLDesc *l, SrcSpan at)
{
	Unknown *u = &x->u[v];
	if (!u->fixed) {
		u->fixed = l;
		u->fixed_at = at;
	} else if (!li_same_map(x, u->fixed, l, u->shape, u->rank)) {
		conflict(x, v, at, arena_printf(x->a, "and it must be %s here", li_desc_str(x, l)));
	}
}

/* Unknown v, seen through the slices dims[0..n-1], must be concrete l. */
static void
fix_through(Infer *x, int v, const int *dims, int n, const LLDesc *l, SrcSpan at)
{
	for (int i = 0; i < n; i++) {
		if (l->kind != LL_SLICE || l->dim != dims[i]) {
			conflict(x, v, at, arena_printf(x->a, "here it meets %s, which is not a "
			         "SliceLayout(%d, ...) of a layout glc could pick", li_desc_str(x, l),
			         dims[i]));
			return;
		}
		l = l->parent;
	}
	li_fix(x, v, l, at);
}

/* child = SliceLayout(dim, parent). */
static void
relate(Infer *x, int child, int parent, int dim, SrcSpan at)
{
	Unknown *c = &x->u[child];
	if (c->parent < 0) {
		c->parent = parent;
		c->dim = dim;
	} else if (c->dim == dim) {
		li_unite(x, c->parent, parent);
	} else {
		conflict(x, child, at, arena_printf(x->a, "here it gains a new axis at %d, but "
		         "elsewhere at %d", dim, c->dim));
	}
}

/* child = SliceLayout(dims[0], SliceLayout(dims[1], ... parent)): a new
 * unknown, in no type, for each layout between them. */
static void
relate_chain(Infer *x, int child, int parent, const int *dims, int n, SrcSpan at)
{
	for (int i = 0; i + 1 < n; i++) {
		if (x->n == x->cap) {
			x->cap = 2 * x->cap + 8;
			Unknown *u = arena_alloc(x->a, (size_t)x->cap * sizeof *u);
			memcpy(u, x->u, (size_t)x->n * sizeof *u);
			x->u = u;
		}
		int mid = x->n++;
		x->u[mid] = (Unknown){.up = mid, .parent = -1, .at = at};
		relate(x, child, mid, dims[i], at);
		child = mid;
	}
	relate(x, child, parent, dims[n - 1], at);
}

/* Layouts a and b must be one: a = SliceLayout(pa[0], ... va) is b =
 * SliceLayout(pb[0], ... vb) when one chain of slices starts the other. */
void
li_unify(Infer *x, const LLDesc *a, const LLDesc *b, SrcSpan at)
{
	int pa[LL_MAX_RANK], pb[LL_MAX_RANK], na, nb;
	int va = li_root(x, a, pa, &na), vb = li_root(x, b, pb, &nb);
	if (va < 0 && vb < 0)
		return;
	if (va >= 0 && vb >= 0) {
		int n = na < nb ? na : nb;
		if (memcmp(pa, pb, (size_t)n * sizeof *pa) != 0)
			conflict(x, va, at, "here it meets a differently sliced inferred layout");
		else if (na == nb)
			li_unite(x, va, vb);
		else if (na < nb)
			relate_chain(x, va, vb, pb + n, nb - n, at);
		else
			relate_chain(x, vb, va, pa + n, na - n, at);
		return;
	}
	if (va >= 0)
		fix_through(x, va, pa, na, b, at);
	else
		fix_through(x, vb, pb, nb, a, at);
}

static bool
is_tensor(const TValue *v)
{
	return v && v->type->kind == TY_TENSOR;
}

static void
unify_values(Infer *x, const TValue *a, const TValue *b, SrcSpan at)
{
	if (is_tensor(a) && is_tensor(b))
		li_unify(x, a->type->layout.desc, b->type->layout.desc, at);
}

/* -- reading the kernel ---------------------------------------------------------- */

/* Notes the shape an unknown lays out (the largest tensor it has). */
static void
see(Infer *x, const TType *t, SrcSpan at)
{
	int dims[LL_MAX_RANK], n;
	int v = t && t->kind == TY_TENSOR ? li_root(x, t->layout.desc, dims, &n) : -1;
	if (v < 0 || n > 0)
		return;
	Unknown *u = &x->u[v];
	int64_t have = 1, now = 1;
	for (int i = 0; i < u->rank; i++)
		have *= u->shape[i];
	for (int i = 0; i < t->rank; i++)
		now *= t->shape[i];
	if (!u->seen) {
		u->seen = true;
		u->at = at;
	}
	if (u->rank == 0 || now > have) {
		u->rank = t->rank;
		u->warps = x->warps;
		memcpy(u->shape, t->shape, (size_t)t->rank * sizeof *t->shape);
	}
}

/* A global access `in` through pointers of type t asks for a coalesced
 * layout; a tl access would like Triton's. */
static void
memory(Infer *x, const TInst *in, const TType *t)
{
	int dims[LL_MAX_RANK], n;
	int v = t->kind == TY_TENSOR ? li_root(x, t->layout.desc, dims, &n) : -1;
	if (v < 0 || n > 0)
		return;
	Unknown *u = &x->u[v];
	if (!u->pref)
		u->pref = li_access_pref(x, in);
	int bits = ir_dtype_bits(t->dtype) < 8 ? 8 : ir_dtype_bits(t->dtype);
	if (u->mem_bits == 0 || bits < u->mem_bits)
		u->mem_bits = bits;
	int64_t have = 1, now = 1;
	for (int i = 0; i < u->mem_rank; i++)
		have *= u->mem_shape[i];
	for (int i = 0; i < t->rank; i++)
		now *= t->shape[i];
	if (u->mem_rank == 0 || now > have) {
		u->mem_rank = t->rank;
		memcpy(u->mem_shape, t->shape, (size_t)t->rank * sizeof *t->shape);
	}
}

/* warpgroup_mma: an unknown accumulator takes the WGMMA layout, an unknown
 * register A its DotOperandLayout. */
static void
mma(Infer *x, const TInst *in)
{
	const TType *a = in->args[0]->type, *b = in->args[1]->type, *acc = in->args[2]->type;
	int bits = ir_dtype_bits(b->dtype) < 8 ? 8 : ir_dtype_bits(b->dtype);
	const LLDesc *l = acc->layout.desc;
	if (ll_desc_has_auto(l)) {
		l = ir_wgmma_layout(x->a, acc, bits, x->warps);
		li_unify(x, acc->layout.desc, l, in->at);
	}
	if (a->kind == TY_TENSOR && ll_desc_has_auto(a->layout.desc))
		li_unify(x, a->layout.desc, ll_desc_dot_operand(x->a, l, 0, 32 / bits), in->at);
}

/* reduce and scan: the inputs share a layout; result k (its tuple's k-th)
 * is input k's SliceLayout(axis, ...) for a reduce, input k's for a scan. */
static void
combined(Infer *x, const TInst *in)
{
	const TType *r = in->res->type;
	for (int k = 0; k < in->n_args; k++) {
		const TType *rk = r->kind == TY_TUPLE ? r->elems[k] : r;
		const LLDesc *l = in->args[k]->type->layout.desc;
		unify_values(x, in->args[0], in->args[k], in->at);
		if (rk->kind == TY_TENSOR)
			li_unify(x, rk->layout.desc, in->op == OP_SCAN ? l
			      : ll_desc_slice(x->a, l, in->attr.axis), in->at);
	}
}

static void
equations(Infer *x, const TInst *in)
{
	const TValue *r = in->res;
	switch (in->op) {
	case OP_EXPAND_DIMS:
		if (is_tensor(r))
			li_unify(x, in->args[0]->type->layout.desc,
			      ll_desc_slice(x->a, r->type->layout.desc, in->attr.axis), in->at);
		return;
	case OP_REDUCE: case OP_SCAN:
		combined(x, in);
		return;
	case OP_GATHER:
		unify_values(x, in->args[1], r, in->at);
		return;
	case OP_HISTOGRAM:
		if (in->attr.has_mask)
			unify_values(x, in->args[0], in->args[1], in->at);
		return;
	case OP_ATOMIC_RMW: case OP_ATOMIC_CAS:
		memory(x, in, in->args[0]->type);
		break;
	case OP_CONVERT_LAYOUT:
		if (in->attr.trivial)
			unify_values(x, in->args[0], r, in->at);
		return;
	case OP_WGMMA:
		mma(x, in);
		unify_values(x, in->args[2], r, in->at);
		return;
	case OP_LOAD: case OP_STORE:
		memory(x, in, in->args[0]->type);
		break;
	case OP_ASYNC_COPY:   /* cp.async: the pointers, and the mask */
		memory(x, in, in->args[1]->type);
		break;
	case OP_SMEM_LOAD:
		if (is_tensor(r))
			memory(x, in, r->type);
		return;
	case OP_VAR_WRITE: case OP_VAR_READ: {
		const TValue *v = r ? r : in->args[0];
		if (is_tensor(v) && in->var->type->kind == TY_TENSOR)
			li_unify(x, in->var->type->layout.desc, v->type->layout.desc, in->at);
		return;
	}
	case OP_SPLAT: case OP_FULL: case OP_ARANGE: case OP_SMEM_STORE: case OP_DOT:
	case OP_YIELD: case OP_RESHAPE: case OP_PERMUTE: case OP_JOIN: case OP_SPLIT:
	case OP_FP4_TO_FP:
		return;
	default:
		break;
	}
	/* elementwise: every tensor operand and the result share one layout */
	const TValue *first = is_tensor(r) ? r : NULL;
	for (int i = 0; i < in->n_args; i++) {
		if (!is_tensor(in->args[i]))
			continue;
		if (first)
			unify_values(x, first, in->args[i], in->at);
		else
			first = in->args[i];
	}
}

/* fn on the types in gives a layout to (its result's, its variable's),
 * with the warps of the code it is in. */
static void
each_type(IrWalker *w, const TInst *in, void (*fn)(Infer *x, const TType *t, SrcSpan at))
{
	Infer *x = w->ctx;
	x->warps = ir_walk_warps(w);
	if (in->res)
		fn(x, in->res->type, in->at);
	if (in->var)
		fn(x, in->var->type, in->at);
}

/* The unknowns in's types lay out, and its equations. */
static IrStep
collect(IrWalker *w, TInst *in)
{
	each_type(w, in, see);
	equations(w->ctx, in);
	return IR_ON;
}

/* -- solving ------------------------------------------------------------------- */

/* Slices of one class share their parent's class: SliceLayout(dim, P) and
 * SliceLayout(dim, Q) equal means P and Q equal. */
void
li_merge_parents(Infer *x)
{
	for (int round = 0; round < 64; round++) {
		bool again = false;
		int *par = arena_alloc(x->a, (size_t)(x->n + 1) * sizeof *par);
		int *dim = arena_alloc(x->a, (size_t)(x->n + 1) * sizeof *dim);
		for (int c = 0; c < x->n; c++)
			par[c] = -1;
		for (int v = 0; v < x->n; v++) {
			const Unknown *u = &x->u[v];
			if (u->parent < 0)
				continue;
			int c = li_find(x, v), p = li_find(x, u->parent);
			if (par[c] < 0) {
				par[c] = p;
				dim[c] = u->dim;
			} else if (dim[c] != u->dim) {
				conflict(x, v, u->at, arena_printf(x->a, "here it gains a new axis at %d, "
				         "but elsewhere at %d", u->dim, dim[c]));
			} else if (li_find(x, par[c]) != p) {
				li_unite(x, par[c], p);
				again = true;
			}
		}
		for (int c = 0; c < x->n; c++)
			if (par[c] >= 0 && li_find(x, c) == c) {
				x->u[c].parent = par[c];
				x->u[c].dim = dim[c];
			}
		if (!again)
			return;
	}
}

/* Members' shapes, fixes and hints become their class root's. */
void
li_gather(Infer *x)
{
	for (int v = 0; v < x->n; v++) {
		Unknown *u = &x->u[v];
		int r = li_find(x, v);
		Unknown *c = &x->u[r];
		if (r == v)
			continue;
		int64_t have = 1, now = 1;
		for (int i = 0; i < c->rank; i++)
			have *= c->shape[i];
		for (int i = 0; i < u->rank; i++)
			now *= u->shape[i];
		if (u->seen && (!c->seen || now > have)) {
			if (!c->seen)
				c->at = u->at;
			c->seen = true;
			c->rank = u->rank;
			c->warps = u->warps;
			memcpy(c->shape, u->shape, sizeof c->shape);
		}
		if (u->parent >= 0 && c->parent < 0) {
			c->parent = u->parent;
			c->dim = u->dim;
		}
		c->tl |= u->tl;
		if (!c->pref)
			c->pref = u->pref;
	}
	for (int v = 0; v < x->n; v++) {
		Unknown *u = &x->u[v];
		int r = li_find(x, v);
		if (r == v)
			continue;
		if (u->fixed)
			li_fix(x, r, u->fixed, u->fixed_at);
		Unknown *c = &x->u[r];
		if (u->mem_bits && (!c->mem_bits || u->mem_bits < c->mem_bits)) {
			c->mem_bits = u->mem_bits;
			c->mem_rank = u->mem_rank;
			memcpy(c->mem_shape, u->mem_shape, sizeof c->mem_shape);
		}
	}
	/* a fixed slice fixes its parent */
	for (int round = 0; round < LL_MAX_RANK; round++)
		for (int v = 0; v < x->n; v++) {
			Unknown *c = &x->u[v];
			if (li_find(x, v) != v || !c->fixed || c->parent < 0)
				continue;
			const LLDesc *f = c->fixed;
			if (f->kind == LL_SLICE && f->dim == c->dim)
				li_fix(x, li_find(x, c->parent), f->parent, c->fixed_at);
			else
				conflict(x, v, c->fixed_at, arena_printf(x->a, "it must also be "
				         "SliceLayout(%d, ...) of the layout of its expansion", c->dim));
		}
}

const LLDesc *
li_resolve(Infer *x, int v, int depth)
{
	Unknown *c = &x->u[li_find(x, v)];
	if (c->res)
		return c->res;
	int warps = c->warps > 0 ? c->warps : x->k->num_warps;
	if (c->parent >= 0 && depth < LL_MAX_RANK)
		c->res = ll_desc_slice(x->a, li_resolve(x, c->parent, depth + 1), c->dim);
	else if (c->fixed)
		c->res = c->fixed;
	else if (c->pref)
		c->res = c->pref;
	else if (c->tl)
		c->res = ll_desc_blocked_default(x->a, c->shape, c->rank > 0 ? c->rank : 1, warps);
	else if (c->mem_bits)
		c->res = ll_desc_coalesced(x->a, c->mem_shape, c->mem_rank, c->mem_bits, warps);
	else
		c->res = ll_desc_coalesced(x->a, c->shape, c->rank > 0 ? c->rank : 1, 32, warps);
	return c->res;
}

static void
report(Infer *x, int v)
{
	const Unknown *u = &x->u[v], *c = &x->u[li_find(x, v)];
	Diag *g = diag_error(x->d, u->at, "cannot infer a layout for this tensor (AutoLayout)");
	if (c->fixed)
		diag_note(x->d, g, c->fixed_at, "it must be %s here", li_desc_str(x, c->fixed));
	diag_note(x->d, g, u->conflict_at, "%s", u->conflict);
	diag_note(x->d, g, (SrcSpan){0}, "give it an explicit layout=... or fix it with "
	          "gl.set_auto_layout(x, layout)");
	x->ok = false;
}

/* -- rewriting ------------------------------------------------------------------- */

/* d with every unknown replaced by its solution. */
static const LLDesc *
subst(Infer *x, const LLDesc *d)
{
	if (!d)
		return d;
	if (d->kind == LL_AUTO)
		return d->auto_id < x->n ? li_resolve(x, d->auto_id, 0) : d;
	if ((d->kind != LL_SLICE && d->kind != LL_DOT_OPERAND) || !ll_desc_has_auto(d))
		return d;
	LLDesc *c = arena_alloc(x->a, sizeof *c);
	*c = *d;
	c->parent = subst(x, d->parent);
	return c;
}

static void
rewrite(Infer *x, const TType *ct, SrcSpan at)
{
	if (!ct || ct->kind != TY_TENSOR || !ll_desc_has_auto(ct->layout.desc))
		return;
	TType *t = (TType *)ct;   /* types are the kernel's, shared by its values */
	t->layout.desc = subst(x, t->layout.desc);
	LLErr err = {x->a, NULL};
	if (!ll_build(t->layout.desc, t->shape, t->rank, x->warps, &t->layout.ll, &err)) {
		diag_error(x->d, at, "the inferred layout %s does not fit this tensor: %s",
		           li_desc_str(x, t->layout.desc), err.msg ? err.msg : "invalid");
		x->ok = false;
	}
}

static IrStep
rewrite_inst(IrWalker *w, TInst *in)
{
	each_type(w, in, rewrite);
	return IR_ON;
}

/* -- the pass ---------------------------------------------------------------------- */

static IrStep
max_id_visit(IrWalker *w, TInst *in)
{
	int *n = w->ctx;
	const TType *ts[2] = {in->res ? in->res->type : NULL, in->var ? in->var->type : NULL};
	for (int i = 0; i < 2; i++)
		for (const LLDesc *d = ts[i] && ts[i]->kind == TY_TENSOR ? ts[i]->layout.desc : NULL;
		     d; d = d->parent)
			if (d->kind == LL_AUTO && d->auto_id >= *n)
				*n = d->auto_id + 1;
	return IR_ON;
}

static bool
infer_kernel(TKernel *k, Arena *a, Diags *d)
{
	int n = 0;
	ir_walk(&(IrWalker){.k = k, .ctx = &n, .pre = max_id_visit});
	if (n == 0)
		return true;
	Infer x = {.a = a, .d = d, .k = k, .n = n, .cap = n, .ok = true};
	x.u = arena_alloc(a, (size_t)n * sizeof *x.u);
	for (int v = 0; v < n; v++) {
		x.u[v].up = v;
		x.u[v].parent = -1;
	}
	bool soft = li_soft_scan(&x);
	ir_walk(&(IrWalker){.k = k, .ctx = &x, .pre = collect});
	li_merge_parents(&x);
	li_gather(&x);
	x.warps = k->num_warps;   /* tl's shape operations: the kernel's warps */
	if (soft)
		li_soft_merge(&x);
	for (int v = 0; v < x.n; v++)
		if (x.u[v].conflict)
			report(&x, v);
	if (!x.ok)
		return false;
	ir_walk(&(IrWalker){.k = k, .ctx = &x, .pre = rewrite_inst});
	return x.ok;
}

bool
pass_layout_infer(TProgram *p, Arena *a, Diags *d)
{
	bool ok = true;
	for (int i = 0; i < p->n_kernels; i++)
		ok = infer_kernel(p->kernels[i], a, d) && ok;
	return ok;
}
