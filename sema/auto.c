/*
 * AutoLayout inference (Triton style). A kernel is checked twice when any
 * tensor is made without a layout (arange, full, zeros, smem.load with no
 * `layout=` or with gl.AutoLayout()). The probe pass gives each such tensor
 * a provisional BlockedLayout whose description is a unique pointer; it
 * flows through elementwise ops, broadcasts, loads and reductions like any
 * layout, and every place where it meets another layout records an
 * equation instead of a clash: equal to another unknown (union-find), equal
 * to a concrete layout, a slice of another unknown (expand_dims), or a hint
 * (coalesced global access, WGMMA accumulator). auto_resolve solves them:
 * concrete layouts win, then slices follow their parents, then a coalesced
 * BlockedLayout for the widest 16-byte access along the contiguous
 * dimension. The final pass checks the kernel again with every source site
 * given its inferred layout, so all the usual rules apply to the result.
 */
#include "sema/check.h"

#include <string.h>

/* -- unknowns ---------------------------------------------------------------- */

static int
new_var(Check *ck, SrcSpan at, const int64_t *shape, int rank)
{
	AutoVar v = {.at = at, .rank = rank, .warps = ck->k->num_warps, .up = (int)ck->autos.len,
	             .parent = -1};
	memcpy(v.shape, shape, (size_t)rank * sizeof *shape);
	v.desc = ll_desc_coalesced(ck->a, shape, rank, 32, ck->k->num_warps);
	vec_push(ck->a, &ck->autos, v);
	return v.up;
}

static int
find(Check *ck, int v)
{
	while (ck->autos.data[v].up != v)
		v = ck->autos.data[v].up = ck->autos.data[ck->autos.data[v].up].up;
	return v;
}

static void
unite(Check *ck, int a, int b)
{
	a = find(ck, a);
	b = find(ck, b);
	if (a != b)
		ck->autos.data[a > b ? a : b].up = a < b ? a : b;
}

static void
conflict(Check *ck, int v, SrcSpan at, const char *why)
{
	AutoVar *x = &ck->autos.data[v];
	if (!x->conflict) {
		x->conflict = why;
		x->conflict_at = at;
	}
}

/* The unknown that d is, or is a slice of (dims[0] outermost); -1 if none. */
static int
auto_find(Check *ck, const LLDesc *d, int *dims, int *n)
{
	*n = 0;
	while (d) {
		for (size_t i = 0; i < ck->autos.len; i++)
			if (ck->autos.data[i].desc == d)
				return (int)i;
		if (d->kind != LL_SLICE || *n >= LL_MAX_RANK)
			return -1;
		dims[(*n)++] = d->dim;
		d = d->parent;
	}
	return -1;
}

static const char *
desc_str(Check *ck, const LLDesc *d)
{
	StrBuf b = {0};
	ll_desc_print(d, &b);
	const char *s = arena_strndup(ck->a, b.s ? b.s : "", b.len);
	buf_free(&b);
	return s;
}

static bool
same_map(Check *ck, const LLDesc *a, const LLDesc *b, const int64_t *shape, int rank)
{
	LLayout la, lb;
	LLErr err = {ck->a, NULL};
	return a == b || (ll_build(a, shape, rank, 0, &la, &err) &&
	                  ll_build(b, shape, rank, 0, &lb, &err) &&
	                  ll_equal(&la, &lb));
}

static void
fix_var(Check *ck, int v, const LLDesc *l, SrcSpan at)
{
	AutoVar *x = &ck->autos.data[v];
	if (!x->fixed) {
		x->fixed = l;
		x->fixed_at = at;
	} else if (!same_map(ck, x->fixed, l, x->shape, x->rank)) {
		conflict(ck, v, at, arena_printf(ck->a, "and it must be %s here", desc_str(ck, l)));
	}
}

/* -- the probe pass's hooks ------------------------------------------------------- */

const LLDesc *
sema_auto_source(Check *ck, SrcSpan at, const int64_t *shape, int rank)
{
	int k = ck->auto_next++;
	if (ck->auto_plan)
		return (size_t)k < ck->n_auto_plan
		       ? ck->auto_plan[k] : ll_desc_coalesced(ck->a, shape, rank, 32, ck->k->num_warps);
	int v = new_var(ck, at, shape, rank);
	vec_push(ck->a, &ck->auto_sites, v);
	return ck->autos.data[v].desc;
}

const LLDesc *
sema_auto_layout_arg(Check *ck, const Value *v, SrcSpan call_at, const int64_t *shape, int rank,
                const char *what, SrcSpan *at)
{
	if (!v || v->kind == VAL_AUTO_LAYOUT) {
		*at = call_at;
		return sema_auto_source(ck, call_at, shape, rank);
	}
	*at = v->span;
	return sema_value_layout(ck, v, what, false);
}

bool
sema_auto_involved(Check *ck, const LLDesc *d)
{
	int dims[LL_MAX_RANK], n;
	return ck->autos.len && auto_find(ck, d, dims, &n) >= 0;
}

/* Unknown v (seen through the slices dims[0..n-1]) must equal concrete l. */
static void
fix_through(Check *ck, int v, const int *dims, int n, const LLDesc *l, SrcSpan at)
{
	for (int i = 0; i < n; i++) {
		if (l->kind != LL_SLICE || l->dim != dims[i]) {
			conflict(ck, v, at, arena_printf(ck->a, "here it meets %s, which is not a "
			         "SliceLayout(%d, ...) of a layout glc could pick", desc_str(ck, l),
			         dims[i]));
			return;
		}
		l = l->parent;
	}
	fix_var(ck, v, l, at);
}

/* child = SliceLayout(dim, parent). */
static void
relate(Check *ck, int child, int parent, int dim, SrcSpan at)
{
	AutoVar *c = &ck->autos.data[child];
	if (c->parent < 0) {
		c->parent = parent;
		c->dim = dim;
	} else if (c->dim == dim) {
		unite(ck, c->parent, parent);
	} else {
		conflict(ck, child, at, arena_printf(ck->a, "here it gains a new axis at %d, but "
		         "elsewhere at %d", dim, c->dim));
	}
}

bool
sema_auto_unify(Check *ck, SrcSpan at, const TValue *a, const TValue *b)
{
	if (!ck->autos.len)
		return false;
	int pa[LL_MAX_RANK], pb[LL_MAX_RANK], na, nb;
	int va = auto_find(ck, a->type->layout.desc, pa, &na);
	int vb = auto_find(ck, b->type->layout.desc, pb, &nb);
	if (va < 0 && vb < 0)
		return false;
	if (va >= 0 && vb >= 0) {
		if (na == nb && memcmp(pa, pb, (size_t)na * sizeof *pa) == 0)
			unite(ck, va, vb);
		else if (na == 0 && nb == 1)
			relate(ck, va, vb, pb[0], at);
		else if (nb == 0 && na == 1)
			relate(ck, vb, va, pa[0], at);
		else
			conflict(ck, va, at, "here it meets a differently sliced inferred layout");
		return true;
	}
	if (va >= 0)
		fix_through(ck, va, pa, na, b->type->layout.desc, at);
	else
		fix_through(ck, vb, pb, nb, a->type->layout.desc, at);
	return true;
}

bool
sema_auto_fix(Check *ck, SrcSpan at, const TValue *x, const LLDesc *l)
{
	int dims[LL_MAX_RANK], n;
	int v = ck->autos.len ? auto_find(ck, x->type->layout.desc, dims, &n) : -1;
	if (v < 0)
		return false;
	fix_through(ck, v, dims, n, l, at);
	return true;
}

const LLDesc *
sema_auto_expand(Check *ck, SrcSpan at, const TValue *x, int axis, const int64_t *shape, int rank)
{
	int dims[LL_MAX_RANK], n;
	int v = ck->autos.len ? auto_find(ck, x->type->layout.desc, dims, &n) : -1;
	if (v < 0 || n > 0)
		return NULL;
	AutoVar *xv = &ck->autos.data[v];
	if (xv->parent >= 0 && xv->dim == axis)
		return ck->autos.data[xv->parent].desc;
	int p = new_var(ck, at, shape, rank);
	relate(ck, v, p, axis, at);
	return ck->autos.data[p].desc;
}

void
sema_auto_memory(Check *ck, const TValue *ptr)
{
	int dims[LL_MAX_RANK], n;
	const TType *t = ptr->type;
	int v = ck->autos.len && t->kind == TY_TENSOR ? auto_find(ck, t->layout.desc, dims, &n) : -1;
	if (v < 0 || n > 0)
		return;
	AutoVar *x = &ck->autos.data[v];
	int bits = ir_dtype_bits(t->dtype) < 8 ? 8 : ir_dtype_bits(t->dtype);
	if (x->mem_bits == 0 || bits < x->mem_bits)
		x->mem_bits = bits;
	int64_t have = 1, now = 1;
	for (int i = 0; i < x->mem_rank; i++)
		have *= x->mem_shape[i];
	for (int i = 0; i < t->rank; i++)
		now *= t->shape[i];
	if (x->mem_rank == 0 || now > have) {
		x->mem_rank = t->rank;
		memcpy(x->mem_shape, t->shape, (size_t)t->rank * sizeof *t->shape);
	}
}

/* -- solving ----------------------------------------------------------------- */

typedef struct Class {
	int par, dim;             /* SliceLayout(dim, class par); par -1: none */
	const LLDesc *fixed;
	SrcSpan fixed_at;
	int mem_bits, mem_rank, rank, warps;
	int64_t mem_shape[LL_MAX_RANK], shape[LL_MAX_RANK];
	const LLDesc *res;
} Class;

static void
class_fix(Check *ck, Class *c, int root, const LLDesc *l, SrcSpan at)
{
	if (!c->fixed) {
		c->fixed = l;
		c->fixed_at = at;
	} else if (!same_map(ck, c->fixed, l, c->shape, c->rank)) {
		conflict(ck, root, at, arena_printf(ck->a, "and it must be %s here", desc_str(ck, l)));
	}
}

/* Relations of members become relations of classes; parents of one class
 * that slice along one dim are one class. */
static void
merge_relations(Check *ck, Class *cl)
{
	size_t n = ck->autos.len;
	for (int round = 0; round < 64; round++) {
		bool again = false;
		for (size_t c = 0; c < n; c++)
			cl[c].par = -1;
		for (size_t v = 0; v < n; v++) {
			const AutoVar *x = &ck->autos.data[v];
			if (x->parent < 0)
				continue;
			int c = find(ck, (int)v), p = find(ck, x->parent);
			if (cl[c].par < 0) {
				cl[c].par = p;
				cl[c].dim = x->dim;
			} else if (cl[c].dim != x->dim) {
				conflict(ck, (int)v, x->at, arena_printf(ck->a, "here it gains a new axis "
				         "at %d, but elsewhere at %d", x->dim, cl[c].dim));
			} else if (find(ck, cl[c].par) != p) {
				unite(ck, cl[c].par, p);
				again = true;
			}
		}
		if (!again)
			return;
	}
}

static const LLDesc *
resolve(Check *ck, Class *cl, int c)
{
	Class *x = &cl[c];
	if (x->res)
		return x->res;
	if (x->par >= 0)
		x->res = ll_desc_slice(ck->a, resolve(ck, cl, find(ck, x->par)), x->dim);
	else if (x->fixed)
		x->res = x->fixed;
	else if (x->mem_bits)
		x->res = ll_desc_coalesced(ck->a, x->mem_shape, x->mem_rank, x->mem_bits, x->warps);
	else
		x->res = ll_desc_coalesced(ck->a, x->shape, x->rank, 32, x->warps);
	return x->res;
}

static void
report(Check *ck, const Class *cl, int v)
{
	const AutoVar *x = &ck->autos.data[v];
	const Class *c = &cl[find(ck, v)];
	Diag *g = diag_error(ck->d, x->at, "cannot infer a layout for this tensor (AutoLayout)");
	if (c->fixed)
		diag_note(ck->d, g, c->fixed_at, "it must be %s here", desc_str(ck, c->fixed));
	diag_note(ck->d, g, x->conflict_at, "%s", x->conflict);
	diag_note(ck->d, g, (SrcSpan){0}, "give it an explicit layout=... or fix it with "
	          "gl.set_auto_layout(x, layout)");
}

const LLDesc **
sema_auto_resolve(Check *ck, size_t *n_out)
{
	size_t n = ck->autos.len;
	Class *cl = arena_alloc(ck->a, (n + 1) * sizeof *cl);
	merge_relations(ck, cl);
	for (size_t v = 0; v < n; v++) {
		const AutoVar *x = &ck->autos.data[v];
		Class *c = &cl[find(ck, (int)v)];
		int64_t have = 1, now = 1;
		for (int i = 0; i < c->rank; i++)
			have *= c->shape[i];
		for (int i = 0; i < x->rank; i++)
			now *= x->shape[i];
		if (c->rank == 0 || now > have) {
			c->warps = x->warps;
			c->rank = x->rank;
			memcpy(c->shape, x->shape, sizeof c->shape);
		}
	}
	for (size_t v = 0; v < n; v++) {
		const AutoVar *x = &ck->autos.data[v];
		int r = find(ck, (int)v);
		Class *c = &cl[r];
		if (x->fixed)
			class_fix(ck, c, (int)v, x->fixed, x->fixed_at);
		if (x->mem_bits && (!c->mem_bits || x->mem_bits < c->mem_bits)) {
			c->mem_bits = x->mem_bits;
			c->mem_rank = x->mem_rank;
			memcpy(c->mem_shape, x->mem_shape, sizeof c->mem_shape);
		}
	}
	/* a fixed slice fixes its parent */
	for (int round = 0; round < LL_MAX_RANK; round++)
		for (size_t v = 0; v < n; v++) {
			Class *c = &cl[v];
			if (find(ck, (int)v) != (int)v || !c->fixed || c->par < 0)
				continue;
			const LLDesc *f = c->fixed;
			if (f->kind == LL_SLICE && f->dim == c->dim)
				class_fix(ck, &cl[find(ck, c->par)], c->par, f->parent, c->fixed_at);
			else
				conflict(ck, (int)v, c->fixed_at, arena_printf(ck->a, "it must also be "
				         "SliceLayout(%d, ...) of the layout of its expansion", c->dim));
		}
	int errors = ck->d->errors;
	for (size_t v = 0; v < n; v++)
		if (ck->autos.data[v].conflict)
			report(ck, cl, (int)v);
	if (ck->d->errors != errors)
		return NULL;
	size_t ns = ck->auto_sites.len;
	const LLDesc **plan = arena_alloc(ck->a, (ns + 1) * sizeof *plan);
	for (size_t k = 0; k < ns; k++)
		plan[k] = resolve(ck, cl, find(ck, ck->auto_sites.data[k]));
	*n_out = ns;
	return plan;
}
