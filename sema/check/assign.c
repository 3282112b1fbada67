/*
 * Variables and assignment: names assigned inside runtime control flow
 * become mutable variables (loop-carried values), and assignment binds
 * compile-time values, runtime values and tuples to names.
 */
#include "sema/check/check.h"

#include <string.h>

/* -- variables --------------------------------------------------------------- */

/* A name assigned inside runtime control flow is bound to a tree of values
 * whose leaves are variables (VAL_VAR): one leaf for a scalar or tensor,
 * one per register-capable element for a tuple (nested tuples too). Other
 * elements of a tuple (shared buffers, layouts, None) stay as they are and
 * must keep their value. Reading the name reads every variable; assigning it
 * writes every variable. A warpgroup_mma accumulator's variable holds its
 * tensor, wrapped (VAL_WGMMA_ACC) while the name holds the accumulator: as
 * in Python, the wrapping may change from one assignment to the next, and
 * must agree where control flow joins (sema_vars_agree). */

/* Values a variable can carry: scalars, pointers, register tensors,
 * shared-memory views (a loop may move through the slots of a ring) and
 * tensor descriptors. */
static bool
is_register_type(const TType *t)
{
	return t->kind == TY_SCALAR || t->kind == TY_PTR || t->kind == TY_TENSOR ||
	       t->kind == TY_SMEM || t->kind == TY_MBARRIER || t->kind == TY_DESC;
}

static bool
is_number(const Value *v)
{
	return v->kind == VAL_INT || v->kind == VAL_FLOAT || v->kind == VAL_BOOL;
}

TVar *
sema_new_var(Check *ck, const char *name, const TType *type)
{
	TVar *v = arena_alloc(ck->a, sizeof *v);
	v->id = (int)ck->vars.len;
	v->name = name;
	v->type = type;
	vec_push(ck->a, &ck->vars, v);
	return v;
}

Value *
sema_var_value(Check *ck, TVar *var, SrcSpan at)
{
	Value *v = sema_new_value(&ck->ev, VAL_VAR, at);
	v->u.var = var;
	return v;
}

/* Whether v holds variables, depth levels down. Variables are made only by
 * sema_write_vars, which nests them no deeper than SEMA_MAX_VALUE_DEPTH, so
 * the walk stops there (a compile-time list may hold itself). */
static bool
holds_vars(const Value *v, int depth)
{
	if (!v || depth > SEMA_MAX_VALUE_DEPTH)
		return false;
	if (v->kind == VAL_VAR)
		return true;
	if (v->kind == VAL_WGMMA_ACC)
		return holds_vars(v->u.inner, depth + 1);
	if (v->kind == VAL_TUPLE || v->kind == VAL_LIST)
		for (size_t i = 0; i < v->u.list.n; i++)
			if (holds_vars(v->u.list.items[i], depth + 1))
				return true;
	return false;
}

bool
sema_holds_vars(const Value *v)
{
	return holds_vars(v, 0);
}

static void
var_write(Check *ck, TVar *var, TValue *v, SrcSpan at)
{
	TInst *i = sema_emit(ck, OP_VAR_WRITE, at, NULL, 1, v);
	i->var = var;
	while (ck->written.len <= (size_t)var->id)
		vec_push(ck->a, &ck->written, NULL);
	ck->written.data[var->id] = v;
}

/* sema_write_vars for v, depth levels inside the value written. */
static Value *
write_tree(Check *ck, const char *name, Value *v, SrcSpan at, int depth)
{
	if (depth > SEMA_MAX_VALUE_DEPTH) {
		diag_error(ck->d, at, "'%s' holds values nested more than %d deep (does a list "
		           "contain itself?), which runtime control flow cannot carry",
		           arena_strndup(ck->a, name, strcspn(name, ".")), SEMA_MAX_VALUE_DEPTH);
		return NULL;
	}
	if (is_number(v) || (v->kind == VAL_RUNTIME && is_register_type(v->u.rt->type))) {
		TValue *t = sema_materialize(ck, v, DT_VOID);
		if (!t)
			return NULL;
		/* a tl variable's tensor has a layout of its own, which every value
		 * written to it is softly converted to */
		if (sema_in_tl(ck) && t->type->kind == TY_TENSOR && !(t = sema_soft_fresh(ck, at, t)))
			return NULL;
		Value *leaf = sema_var_value(ck, sema_new_var(ck, name, t->type),
		                             v->kind == VAL_RUNTIME ? t->layout_at : at);
		var_write(ck, leaf->u.var, t, at);
		return leaf;
	}
	if (v->kind == VAL_WGMMA_ACC) {
		Value *leaf = write_tree(ck, name, v->u.inner, at, depth + 1);
		return leaf ? sema_wgmma_acc(ck, leaf, leaf->span) : NULL;
	}
	if (v->kind != VAL_TUPLE && v->kind != VAL_LIST)
		return NULL;
	Value *tree = sema_new_value(&ck->ev, v->kind, v->span);
	tree->u.list.n = v->u.list.n;
	tree->u.list.cls = v->u.list.cls;
	tree->u.list.items = arena_alloc(ck->a, (v->u.list.n + 1) * sizeof(Value *));
	bool any = false;
	for (size_t i = 0; i < v->u.list.n; i++) {
		Value *item = v->u.list.items[i];
		/* an aggregate's constexpr field keeps its value */
		if (v->u.list.cls && i < v->u.list.cls->n_fields && v->u.list.cls->constexpr_fields[i]) {
			tree->u.list.items[i] = item;
			continue;
		}
		Value *leaf = write_tree(ck, arena_printf(ck->a, "%s.%zu", name, i), item, at,
		                         depth + 1);
		tree->u.list.items[i] = leaf ? leaf : item;
		any |= leaf != NULL;
	}
	return any ? tree : NULL;
}

Value *
sema_write_vars(Check *ck, const char *name, Value *v, SrcSpan at)
{
	return write_tree(ck, name, v, at, 0);
}

Value *
sema_read_vars(Check *ck, Value *tree, SrcSpan at)
{
	if (tree->kind == VAL_VAR) {
		TInst *i = sema_emit(ck, OP_VAR_READ, at, tree->u.var->type, 0);
		i->var = tree->u.var;
		i->res->layout_at = tree->span;
		return sema_rt_value(ck, i->res, at);
	}
	if (tree->kind == VAL_WGMMA_ACC)
		return sema_wgmma_acc(ck, sema_read_vars(ck, tree->u.inner, at), at);
	if (!sema_holds_vars(tree))
		return tree;
	Value *v = sema_new_value(&ck->ev, tree->kind, tree->span);
	v->u.list.n = tree->u.list.n;
	v->u.list.cls = tree->u.list.cls;
	v->u.list.items = arena_alloc(ck->a, (tree->u.list.n + 1) * sizeof(Value *));
	for (size_t i = 0; i < tree->u.list.n; i++)
		v->u.list.items[i] = sema_read_vars(ck, tree->u.list.items[i], at);
	return v;
}

/* Turns the binding of a name assigned inside runtime control flow into
 * variables holding its current value. */
static void
demote_to_var(Check *ck, Binding *b, SrcSpan at)
{
	if (b->is_constexpr || !b->v || sema_holds_vars(b->v))
		return;
	Value *tree = sema_write_vars(ck, b->name, b->v, at);
	if (tree) {
		b->at = tree->kind == VAL_VAR ? tree->span : at;
		b->v = tree;
	}
}

typedef VEC(const char *) NameVec;

static void collect_assigned(const NodeList *stmts, NameVec *out, Arena *a);

static void
collect_target(const Node *t, NameVec *out, Arena *a)
{
	if (t->kind == N_NAME)
		vec_push(a, out, t->u.name.id);
	else if (t->kind == N_TUPLE || t->kind == N_LIST)
		for (size_t i = 0; i < t->u.list.items.len; i++)
			collect_target(t->u.list.items.data[i], out, a);
}

static void
collect_assigned(const NodeList *stmts, NameVec *out, Arena *a)
{
	for (size_t i = 0; i < stmts->len; i++) {
		const Node *s = stmts->data[i];
		switch (s->kind) {
		case N_ASSIGN:
			for (size_t k = 0; k < s->u.assign.targets.len; k++)
				collect_target(s->u.assign.targets.data[k], out, a);
			break;
		case N_AUG_ASSIGN: collect_target(s->u.aug.target, out, a); break;
		case N_ANN_ASSIGN: collect_target(s->u.ann.target, out, a); break;
		case N_IF:
			collect_assigned(&s->u.if_.then, out, a);
			collect_assigned(&s->u.if_.else_, out, a);
			break;
		case N_FOR:
			collect_target(s->u.for_.target, out, a);
			collect_assigned(&s->u.for_.body, out, a);
			break;
		case N_WHILE: collect_assigned(&s->u.while_.body, out, a); break;
		default: break;
		}
	}
}

/* Whether snapshot s has binding b (a name assigned more than once). */
static bool
snapped(const VarSnap *s, const Binding *b)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->b[i] == b)
			return true;
	return false;
}

/* Before runtime control flow: names it assigns become variables. */
VarSnap
sema_prepare_vars(Check *ck, const NodeList *a, const NodeList *b, SrcSpan at)
{
	NameVec names = {0};
	collect_assigned(a, &names, ck->a);
	if (b)
		collect_assigned(b, &names, ck->a);
	VarSnap s = {arena_alloc(ck->a, (names.len + 1) * sizeof *s.b),
	             arena_alloc(ck->a, (names.len + 1) * sizeof *s.tree), 0};
	for (size_t i = 0; i < names.len; i++) {
		Binding *bd = sema_local_find(ck, names.data[i]);
		if (!bd || snapped(&s, bd))
			continue;
		demote_to_var(ck, bd, at);
		s.b[s.n] = bd;
		s.tree[s.n++] = bd->v;
	}
	return s;
}

VarSnap
sema_snap_vars(Check *ck, const VarSnap *s)
{
	VarSnap now = {s->b, arena_alloc(ck->a, (s->n + 1) * sizeof *now.tree), s->n};
	for (size_t i = 0; i < s->n; i++)
		now.tree[i] = s->b[i]->v;
	return now;
}

void
sema_reset_vars(const VarSnap *s)
{
	for (size_t i = 0; i < s->n; i++)
		s->b[i]->v = s->tree[i];
}

/* Where trees x and y differ in which elements are accumulators: false when
 * they agree; else *path is the element's name under `path` (its fields and
 * indexes) and *x, *y the two elements. */
static bool
wrapping_differs(Check *ck, const Value **x, const Value **y, const char **path)
{
	const Value *a = *x, *b = *y;
	if ((a->kind == VAL_WGMMA_ACC) != (b->kind == VAL_WGMMA_ACC))
		return true;
	if ((a->kind != VAL_TUPLE && a->kind != VAL_LIST) || a->kind != b->kind ||
	    a->u.list.n != b->u.list.n)
		return false;
	for (size_t i = 0; i < a->u.list.n; i++) {
		*x = a->u.list.items[i];
		*y = b->u.list.items[i];
		const char *base = *path;
		*path = a->u.list.cls ? arena_printf(ck->a, "%s.%s", base, a->u.list.cls->fields[i])
		                      : arena_printf(ck->a, "%s[%zu]", base, i);
		if (wrapping_differs(ck, x, y, path))
			return true;
		*path = base;
	}
	return false;
}

static const char *
wrapping_phrase(const Value *v)
{
	return v->kind == VAL_WGMMA_ACC ? "a warpgroup_mma_accumulator" : "not an accumulator";
}

bool
sema_vars_agree(Check *ck, const VarSnap *x, const VarSnap *y, bool deep, SrcSpan at,
                const char *x_when, const char *y_when)
{
	bool ok = true;
	for (size_t i = 0; i < x->n; i++) {
		const Value *xe = x->tree[i], *ye = y->tree[i];
		const char *path = x->b[i]->name;
		if (deep ? !wrapping_differs(ck, &xe, &ye, &path)
		         : (xe->kind == VAL_WGMMA_ACC) == (ye->kind == VAL_WGMMA_ACC))
			continue;
		diag_error(ck->d, at, "'%s' is %s %s but %s %s: a loop-carried or branch-assigned "
		           "value keeps its type (warpgroup_mma_wait(num_outstanding, deps=[acc]) "
		           "turns an accumulator into its tensor, warpgroup_mma_init(t) a tensor "
		           "into an accumulator)", path, wrapping_phrase(xe), x_when,
		           wrapping_phrase(ye), y_when);
		ok = false;
	}
	return ok;
}

/* -- assignment -------------------------------------------------------------- */

static void
var_clash(Check *ck, SrcSpan at, const char *name, const TVar *var, SrcSpan var_at, TValue *v)
{
	const TType *want = var->type;
	if (want->kind == TY_TENSOR && v->type->kind == TY_TENSOR && want->dtype == v->type->dtype &&
	    want->rank == v->type->rank &&
	    memcmp(want->shape, v->type->shape, (size_t)want->rank * sizeof *want->shape) == 0) {
		TValue old = {.type = want, .layout_at = var_at};
		sema_layout_clash(ck, at, arena_printf(ck->a, "'%s' is loop-carried or assigned in "
		             "a branch, so it keeps one type", name), &old,
		             "its earlier value", v, "the new value");
		return;
	}
	diag_error(ck->d, at, "'%s' is loop-carried or assigned in a branch, so it keeps one "
	           "type: it was %s, now %s", name, sema_type_str(ck, want),
	           sema_type_str(ck, v->type));
}

/* Writes v, a value of the variable's type, into the variable of leaf. */
static bool
write_leaf(Check *ck, const char *name, const Value *leaf, Value *v, SrcSpan at)
{
	const TVar *var = leaf->u.var;
	const TType *vt = var->type;
	TValue *tv = sema_materialize(ck, v, vt->dtype);
	if (!tv)
		return false;
	if (tv->type->kind == TY_SCALAR && vt->kind == TY_SCALAR)
		tv = sema_cast_to(ck, tv, vt->dtype, at);
	if (sema_in_tl(ck) && vt->kind == TY_TENSOR && tv->type->kind == TY_TENSOR &&
	    ir_same_shape(vt, tv->type) && vt->dtype == tv->type->dtype &&
	    !(tv = sema_soft_convert(ck, at, tv, vt->layout.desc)))
		return false;
	const TType *cmp = tv->type;
	if (vt->kind == TY_TENSOR && tv->type->kind == TY_TENSOR) {
		/* An inferred layout on either side is an equation for the
		 * layout-infer pass (it reads it off this write); the rest of the
		 * type must still match, and the write is emitted either way. */
		TValue old = {.type = vt, .layout_at = leaf->span};
		if (sema_auto_unify(ck, at, &old, tv)) {
			TType *t = arena_alloc(ck->a, sizeof *t);
			*t = *tv->type;
			t->layout = vt->layout;
			cmp = t;
		}
	}
	if (!ir_type_equal(cmp, vt)) {
		var_clash(ck, at, name, var, leaf->span, tv);
		return false;
	}
	var_write(ck, leaf->u.var, tv, at);
	return true;
}

static Value *
unwrap_acc(Value *v)
{
	return v->kind == VAL_WGMMA_ACC ? v->u.inner : v;
}

/* Assigns v to the variables of tree (the binding of `name`): each variable
 * keeps its type, and tuple elements that are not variables keep their
 * value. Returns the binding's new tree (its accumulators those of v), NULL
 * after a diagnostic. */
static Value *
write_vars(Check *ck, const char *name, Value *tree, Value *v, SrcSpan at)
{
	Value *leaf = unwrap_acc(tree);
	if (leaf->kind == VAL_VAR) {
		if (!write_leaf(ck, name, leaf, unwrap_acc(v), at))
			return NULL;
		return v->kind == VAL_WGMMA_ACC ? sema_wgmma_acc(ck, leaf, leaf->span) : leaf;
	}
	if (tree->kind == VAL_TUPLE || tree->kind == VAL_LIST) {
		if ((v->kind != VAL_TUPLE && v->kind != VAL_LIST) || v->u.list.n != tree->u.list.n) {
			diag_error(ck->d, at, "'%s' is loop-carried or assigned in a branch, so it stays "
			           "a tuple of %zu elements; this is %s", name, tree->u.list.n,
			           sema_value_kind_phrase(v));
			return NULL;
		}
		Value *nt = sema_new_value(&ck->ev, tree->kind, tree->span);
		nt->u.list = tree->u.list;
		nt->u.list.items = arena_alloc(ck->a, (tree->u.list.n + 1) * sizeof(Value *));
		bool ok = true;
		for (size_t i = 0; i < tree->u.list.n; i++) {
			nt->u.list.items[i] = write_vars(ck, name, tree->u.list.items[i],
			                                 v->u.list.items[i], at);
			ok = nt->u.list.items[i] && ok;
		}
		return ok ? nt : NULL;
	}
	if (!sema_same_value(tree, v)) {
		Diag *g = diag_error(ck->d, at, "'%s' is loop-carried or assigned in a branch: this "
		                     "element of it cannot change (it is %s)", name,
		                     sema_value_kind_phrase(tree));
		diag_note(ck->d, g, tree->span, "its value was set here");
		return NULL;
	}
	return tree;
}

/* After a failed assignment to t: binds its names to poison so that later
 * uses stay silent (the cause was reported). Variables and constexprs keep
 * their binding: their type or value is still known. */
void
sema_poison_target(Check *ck, const Node *t)
{
	if (t->kind == N_TUPLE || t->kind == N_LIST) {
		for (size_t i = 0; i < t->u.list.items.len; i++)
			sema_poison_target(ck, t->u.list.items.data[i]);
		return;
	}
	if (t->kind != N_NAME)
		return;
	Binding *b = sema_local_find(ck, t->u.name.id);
	if (b && (sema_holds_vars(b->v) || b->is_constexpr))
		return;
	sema_scope_bind(ck, t->u.name.id, sema_new_value(&ck->ev, VAL_POISON, t->span), false,
	                t->span);
}

static void
assign_name(Check *ck, const Node *t, Value *v, bool is_constexpr)
{
	const char *name = t->u.name.id;
	Binding *b = sema_local_find(ck, name);
	if (b && b->is_constexpr) {
		Diag *g = diag_error(ck->d, t->span, "cannot assign to '%s': it is a constexpr", name);
		diag_note(ck->d, g, b->at, "declared here");
		return;
	}
	if (is_constexpr && v->kind == VAL_RUNTIME) {
		diag_error(ck->d, v->span, "'%s' is declared gl.constexpr but its value is only "
		           "known at run time (%s)", name, sema_type_str(ck, v->u.rt->type));
		sema_poison_target(ck, t);
		return;
	}
	/* A name that a block introduced is not carried into it: assigning it a
	 * value of another type in that block makes new variables (Python's
	 * rebinding), as in `c = acc; c = c.to(gl.f16)` in a loop body. */
	const Value *old = b ? unwrap_acc(b->v) : NULL, *now = unwrap_acc(v);
	bool rebind = b && b->born_in == ck->blk && old->kind == VAL_VAR &&
	              now->kind == VAL_RUNTIME && !ir_type_equal(old->u.var->type, now->u.rt->type);
	if (b && sema_holds_vars(b->v) && !rebind) {
		Value *tree = write_vars(ck, name, b->v, v, t->span);
		if (tree)
			b->v = tree;
		return;
	}
	if (ck->fr && ck->fr->rt_depth > 0 && !is_number(v)) {
		/* First assigned inside runtime control flow: variables from the
		 * start, so that the value is seen after the loop or branch. */
		Value *tree = sema_write_vars(ck, name, v, t->span);
		if (tree) {
			sema_scope_bind(ck, name, tree, false,
			                tree->kind == VAL_VAR ? tree->span : t->span);
			ck->fr->locals.first->born_in = ck->blk;
			return;
		}
	}
	if (v->kind == VAL_RUNTIME && (v->u.rt->type->kind == TY_SMEM ||
	    v->u.rt->type->kind == TY_MBARRIER)) {
		TSmemAlloc *sa = &ck->smem.data[v->u.rt->type->alloc];
		if (!sa->name)
			sa->name = name;
	}
	sema_scope_bind(ck, name, v, is_constexpr, is_constexpr ? t->span :
	           v->kind == VAL_RUNTIME ? v->u.rt->layout_at : t->span);
}

void
sema_assign(Check *ck, const Node *t, Value *v, bool is_constexpr)
{
	if (t->kind == N_NAME) {
		assign_name(ck, t, v, is_constexpr);
		return;
	}
	if (t->kind == N_TUPLE || t->kind == N_LIST) {
		size_t n = t->u.list.items.len;
		if ((v->kind != VAL_TUPLE && v->kind != VAL_LIST) || v->u.list.n != n) {
			diag_error(ck->d, t->span, "cannot unpack %s into %zu names",
			           sema_value_kind_phrase(v), n);
			sema_poison_target(ck, t);
			return;
		}
		for (size_t i = 0; i < n; i++)
			sema_assign(ck, t->u.list.items.data[i], v->u.list.items[i], is_constexpr);
		return;
	}
	diag_error(ck->d, t->span, "only names can be assigned to (tensors are values; use "
	           ".store() for shared memory and gl.store for global memory)");
}

bool
sema_is_constexpr_annot(Check *ck, const Node *annot)
{
	if (!annot || annot->kind == N_SUBSCRIPT)   /* gl.ptr[...], gl.tensor_desc[...] */
		return false;
	Value *v = sema_eval_expr(&ck->ev, annot);
	return v && v->kind == VAL_BUILTIN && sema_builtin_fn(v->u.builtin) == BF_CONSTEXPR;
}
