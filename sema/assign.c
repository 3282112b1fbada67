/*
 * Variables and assignment: names assigned inside runtime control flow
 * become mutable variables (loop-carried values), and assignment binds
 * compile-time values, runtime values and tuples to names.
 */
#include "sema/check.h"

#include <string.h>

/* -- variables --------------------------------------------------------------- */

static bool
is_register_type(const TType *t)
{
	return t->kind == TY_SCALAR || t->kind == TY_PTR || t->kind == TY_TENSOR;
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

static void
var_write(Check *ck, TVar *var, TValue *v, SrcSpan at)
{
	TInst *i = sema_emit(ck, OP_VAR_WRITE, at, NULL, 1, v);
	i->var = var;
}

/* Turns the binding of a name assigned inside runtime control flow into a
 * variable holding its current value. */
static void
demote_to_var(Check *ck, Binding *b, SrcSpan at)
{
	if (b->var || b->is_constexpr || !b->v)
		return;
	Value *v = b->v;
	bool number = v->kind == VAL_INT || v->kind == VAL_FLOAT || v->kind == VAL_BOOL;
	if (!number && !(v->kind == VAL_RUNTIME && is_register_type(v->u.rt->type)))
		return;
	TValue *t = sema_materialize(ck, v, DT_VOID);
	if (!t)
		return;
	b->var = sema_new_var(ck, b->name, t->type);
	b->at = v->kind == VAL_RUNTIME ? t->layout_at : at;
	b->v = NULL;
	var_write(ck, b->var, t, at);
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

/* Before runtime control flow: names it assigns become variables. */
void
sema_prepare_vars(Check *ck, const NodeList *a, const NodeList *b, SrcSpan at)
{
	NameVec names = {0};
	collect_assigned(a, &names, ck->a);
	if (b)
		collect_assigned(b, &names, ck->a);
	for (size_t i = 0; i < names.len; i++) {
		Binding *bd = sema_local_find(ck, names.data[i]);
		if (bd)
			demote_to_var(ck, bd, at);
	}
}

/* -- assignment -------------------------------------------------------------- */

static void
var_clash(Check *ck, SrcSpan at, Binding *b, TValue *v)
{
	const TType *want = b->var->type;
	if (want->kind == TY_TENSOR && v->type->kind == TY_TENSOR && want->dtype == v->type->dtype &&
	    want->rank == v->type->rank &&
	    memcmp(want->shape, v->type->shape, (size_t)want->rank * sizeof *want->shape) == 0) {
		TValue old = {.type = want, .layout_at = b->at};
		sema_layout_clash(ck, at, arena_printf(ck->a, "'%s' is loop-carried or assigned in "
		             "a branch, so it keeps one type", b->name), &old,
		             "its earlier value", v, "the new value");
		return;
	}
	diag_error(ck->d, at, "'%s' is loop-carried or assigned in a branch, so it keeps one "
	           "type: it was %s, now %s", b->name, sema_type_str(ck, want),
	           sema_type_str(ck, v->type));
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
	if (b && (b->var || b->is_constexpr))
		return;
	sema_scope_bind(ck, t->u.name.id, sema_new_value(&ck->ev, VAL_POISON, t->span), false, t->span);
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
	if (b && b->var) {
		TValue *tv = sema_materialize(ck, v, b->var->type->dtype);
		if (!tv)
			return;
		if (tv->type->kind == TY_SCALAR && b->var->type->kind == TY_SCALAR)
			tv = sema_cast_to(ck, tv, b->var->type->dtype, t->span);
		const TType *vt = b->var->type;
		if (vt->kind == TY_TENSOR && tv->type->kind == TY_TENSOR) {
			TValue old = {.type = vt, .layout_at = b->at};
			if (sema_auto_unify(ck, t->span, &old, tv))
				return;
		}
		if (!ir_type_equal(tv->type, vt)) {
			var_clash(ck, t->span, b, tv);
			return;
		}
		var_write(ck, b->var, tv, t->span);
		return;
	}
	if (ck->fr && ck->fr->rt_depth > 0 && v->kind == VAL_RUNTIME &&
	    is_register_type(v->u.rt->type)) {
		sema_scope_bind(ck, name, NULL, false, v->u.rt->layout_at);
		Binding *nb = sema_local_find(ck, name);
		nb->var = sema_new_var(ck, name, v->u.rt->type);
		var_write(ck, nb->var, v->u.rt, t->span);
		return;
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
