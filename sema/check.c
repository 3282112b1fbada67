/*
 * The checker's driver: module-level names, kernel specialization (constexpr
 * parameters from defaults and -D), scopes and variables, and statements
 * (assignments, constexpr and runtime `if`, static_range unrolling, runtime
 * `for`/`while`, `return` from inlined device functions).
 */
#include "sema/check.h"

#include <string.h>

/* -- scopes ------------------------------------------------------------------ */

Binding *
sema_scope_find(Check *ck, const char *name)
{
	if (ck->fr)
		for (Binding *b = ck->fr->locals; b; b = b->next)
			if (b->name == name)
				return b;
	for (Binding *b = ck->globals; b; b = b->next)
		if (b->name == name)
			return b;
	return NULL;
}

static Binding *
local_find(Check *ck, const char *name)
{
	Binding *first = ck->fr ? ck->fr->locals : ck->globals;
	for (Binding *b = first; b; b = b->next)
		if (b->name == name)
			return b;
	return NULL;
}

void
sema_scope_bind(Check *ck, const char *name, Value *v, bool is_constexpr, SrcSpan at)
{
	Binding *b = arena_alloc(ck->a, sizeof *b);
	b->name = name;
	b->v = v;
	b->is_constexpr = is_constexpr;
	b->at = at;
	Binding **head = ck->fr ? &ck->fr->locals : &ck->globals;
	b->next = *head;
	*head = b;
}

size_t
sema_check_visible_names(Check *ck, const char **out, size_t max)
{
	size_t n = 0;
	if (ck->fr)
		for (Binding *b = ck->fr->locals; b && n < max; b = b->next)
			out[n++] = b->name;
	for (Binding *b = ck->globals; b && n < max; b = b->next)
		out[n++] = b->name;
	return n;
}

static const Value *
check_lookup(void *ctx, const char *name)
{
	Check *ck = ctx;
	Binding *b = sema_scope_find(ck, name);
	if (!b)
		return NULL;
	if (b->var) {
		TInst *i = sema_emit(ck, OP_VAR_READ, b->at, b->var->type, 0);
		i->var = b->var;
		i->res->layout_at = b->at;
		return sema_rt_value(ck, i->res, b->at);
	}
	return b->v;
}

/* -- value helpers --------------------------------------------------------- */

bool
sema_value_is_rt(const Value *v)
{
	return v->kind == VAL_RUNTIME;
}

bool
sema_value_int(Check *ck, const Value *v, const char *what, int64_t *out)
{
	if (v->kind == VAL_INT) {
		*out = v->u.i;
		return true;
	}
	diag_error(ck->d, v->span, "%s must be a compile-time integer, not %s", what,
	           sema_value_kind_phrase(v));
	return false;
}

bool
sema_value_shape(Check *ck, const Value *v, const char *what, int64_t *out, int *n)
{
	if ((v->kind != VAL_LIST && v->kind != VAL_TUPLE) || v->u.list.n == 0 ||
	    v->u.list.n > LL_MAX_RANK) {
		diag_error(ck->d, v->span, "%s must be a list of 1 to %d compile-time integers, "
		           "not %s", what, LL_MAX_RANK, sema_value_kind_phrase(v));
		return false;
	}
	*n = (int)v->u.list.n;
	for (int i = 0; i < *n; i++) {
		if (!sema_value_int(ck, v->u.list.items[i], what, &out[i]))
			return false;
		if (out[i] <= 0 || (out[i] & (out[i] - 1)) != 0) {
			diag_error(ck->d, v->u.list.items[i]->span, "%s: dimension %d is %lld; "
			           "tensor dimensions must be powers of two", what, i,
			           (long long)out[i]);
			return false;
		}
	}
	return true;
}

const LLDesc *
sema_value_layout(Check *ck, const Value *v, const char *what, bool shared)
{
	if (v->kind == VAL_LAYOUT && ll_desc_is_shared(v->u.layout) == shared)
		return v->u.layout;
	diag_error(ck->d, v->span, "%s must be a %s layout, not %s", what,
	           shared ? "shared" : "distributed",
	           v->kind == VAL_LAYOUT ? (shared ? "a distributed layout" : "a shared layout")
	                                 : sema_value_kind_phrase(v));
	return NULL;
}

bool
sema_value_dtype(Check *ck, const Value *v, const char *what, TDType *out)
{
	if (v->kind == VAL_DTYPE) {
		*out = v->u.dtype;
		return true;
	}
	diag_error(ck->d, v->span, "%s must be a dtype (e.g. gl.f16), not %s", what,
	           sema_value_kind_phrase(v));
	return false;
}

/* -- variables --------------------------------------------------------------- */

static bool
is_register_type(const TType *t)
{
	return t->kind == TY_SCALAR || t->kind == TY_PTR || t->kind == TY_TENSOR;
}

static TVar *
new_var(Check *ck, const char *name, const TType *type)
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
	b->var = new_var(ck, b->name, t->type);
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
static void
prepare_vars(Check *ck, const NodeList *a, const NodeList *b, SrcSpan at)
{
	NameVec names = {0};
	collect_assigned(a, &names, ck->a);
	if (b)
		collect_assigned(b, &names, ck->a);
	for (size_t i = 0; i < names.len; i++) {
		Binding *bd = local_find(ck, names.data[i]);
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
static void
poison_target(Check *ck, const Node *t)
{
	if (t->kind == N_TUPLE || t->kind == N_LIST) {
		for (size_t i = 0; i < t->u.list.items.len; i++)
			poison_target(ck, t->u.list.items.data[i]);
		return;
	}
	if (t->kind != N_NAME)
		return;
	Binding *b = local_find(ck, t->u.name.id);
	if (b && (b->var || b->is_constexpr))
		return;
	sema_scope_bind(ck, t->u.name.id, sema_new_value(&ck->ev, VAL_POISON, t->span), false, t->span);
}

static void
assign_name(Check *ck, const Node *t, Value *v, bool is_constexpr)
{
	const char *name = t->u.name.id;
	Binding *b = local_find(ck, name);
	if (b && b->is_constexpr) {
		Diag *g = diag_error(ck->d, t->span, "cannot assign to '%s': it is a constexpr", name);
		diag_note(ck->d, g, b->at, "declared here");
		return;
	}
	if (is_constexpr && v->kind == VAL_RUNTIME) {
		diag_error(ck->d, v->span, "'%s' is declared gl.constexpr but its value is only "
		           "known at run time (%s)", name, sema_type_str(ck, v->u.rt->type));
		poison_target(ck, t);
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
		Binding *nb = local_find(ck, name);
		nb->var = new_var(ck, name, v->u.rt->type);
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

static void
assign(Check *ck, const Node *t, Value *v, bool is_constexpr)
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
			poison_target(ck, t);
			return;
		}
		for (size_t i = 0; i < n; i++)
			assign(ck, t->u.list.items.data[i], v->u.list.items[i], is_constexpr);
		return;
	}
	diag_error(ck->d, t->span, "only names can be assigned to (tensors are values; use "
	           ".store() for shared memory and gl.store for global memory)");
}

static bool
is_constexpr_annot(Check *ck, const Node *annot)
{
	if (!annot || annot->kind == N_SUBSCRIPT)   /* gl.ptr[...], gl.tensor_desc[...] */
		return false;
	Value *v = sema_eval_expr(&ck->ev, annot);
	return v && v->kind == VAL_BUILTIN && sema_builtin_fn(v->u.builtin) == BF_CONSTEXPR;
}

/* -- control flow -------------------------------------------------------------- */

static TBlock *
enter(Check *ck, TBlock *b)
{
	TBlock *saved = ck->blk;
	ck->blk = b;
	ck->fr->rt_depth++;
	return saved;
}

static void
leave(Check *ck, TBlock *saved)
{
	ck->blk = saved;
	ck->fr->rt_depth--;
}

static TValue *
runtime_cond(Check *ck, Value *c)
{
	TValue *t = c->u.rt;
	if (t->type->kind != TY_SCALAR) {
		diag_error(ck->d, c->span, "a runtime condition must be a scalar, not %s",
		           sema_type_str(ck, t->type));
		return NULL;
	}
	if (t->type->dtype == DT_I1)
		return t;
	Value zero = {.kind = VAL_INT, .span = c->span};
	Value *r = sema_check_compare(ck, c->span, CMP_NE, c, &zero);
	return r ? r->u.rt : NULL;
}

static void
check_if(Check *ck, const Node *s)
{
	Value *c = sema_eval_expr(&ck->ev, s->u.if_.cond);
	if (!c)
		return;
	if (c->kind != VAL_RUNTIME) {
		bool t;
		if (sema_value_truth(&ck->ev, c, &t))
			sema_check_block(ck, t ? &s->u.if_.then : &s->u.if_.else_);
		return;
	}
	TValue *cond = runtime_cond(ck, c);
	if (!cond)
		return;
	prepare_vars(ck, &s->u.if_.then, &s->u.if_.else_, s->span);
	TInst *i = sema_emit(ck, OP_IF, s->span, NULL, 1, cond);
	TBlock *saved = enter(ck, &i->body);
	sema_check_block(ck, &s->u.if_.then);
	ck->blk = &i->else_body;
	sema_check_block(ck, &s->u.if_.else_);
	leave(ck, saved);
}

static void
static_loop(Check *ck, const Node *s, const Node *call)
{
	Value *args[3] = {0};
	static const char *const params[] = {"start", "end?", "step?"};
	if (!sema_bind_args(ck, call, "gl.static_range", params, 3, args))
		return;
	int64_t v[3] = {0, 0, 1};
	int n = args[2] ? 3 : args[1] ? 2 : 1;
	for (int k = 0; k < n; k++)
		if (!sema_value_int(ck, args[k], "a gl.static_range bound", &v[k]))
			return;
	int64_t lo = n == 1 ? 0 : v[0], hi = n == 1 ? v[0] : v[1], step = n == 3 ? v[2] : 1;
	if (step == 0) {
		diag_error(ck->d, call->span, "gl.static_range step must not be zero");
		return;
	}
	if ((hi - lo) / step > 4096) {
		diag_error(ck->d, call->span, "gl.static_range would unroll %lld iterations; "
		           "at most 4096 are allowed", (long long)((hi - lo) / step));
		return;
	}
	for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) {
		Value *iv = sema_new_value(&ck->ev, VAL_INT, s->u.for_.target->span);
		iv->u.i = i;
		assign(ck, s->u.for_.target, iv, false);
		sema_check_block(ck, &s->u.for_.body);
		if (ck->fr->returned)
			return;
	}
}

static void
runtime_loop(Check *ck, const Node *s, const Node *call)
{
	Value *args[3] = {0};
	static const char *const params[] = {"start", "end?", "step?"};
	if (!sema_bind_args(ck, call, "range", params, 3, args))
		return;
	int n = args[2] ? 3 : args[1] ? 2 : 1;
	Value zero = {.kind = VAL_INT, .span = call->span}, one = zero;
	one.u.i = 1;
	Value *lo = n == 1 ? &zero : args[0], *hi = n == 1 ? args[0] : args[1];
	Value *step = n == 3 ? args[2] : &one;
	Value *all[3] = {lo, hi, step};
	TDType dt = DT_I32;
	for (int k = 0; k < 3; k++) {
		const Value *a = all[k];
		bool ok = a->kind == VAL_INT || (a->kind == VAL_RUNTIME &&
		          a->u.rt->type->kind == TY_SCALAR && !ir_dtype_is_float(a->u.rt->type->dtype));
		if (!ok) {
			diag_error(ck->d, a->span, "range bounds must be integer scalars, not %s",
			           a->kind == VAL_RUNTIME ? sema_type_str(ck, a->u.rt->type)
			                                  : sema_value_kind_phrase(a));
			return;
		}
		if (a->kind == VAL_RUNTIME)
			dt = sema_dtype_promote(dt, a->u.rt->type->dtype);
	}
	if (s->u.for_.target->kind != N_NAME) {
		diag_error(ck->d, s->u.for_.target->span, "a runtime loop variable must be a name");
		return;
	}
	TValue *t[3];
	for (int k = 0; k < 3; k++) {
		t[k] = sema_materialize(ck, all[k], dt);
		if (!t[k])
			return;
		t[k] = sema_cast_to(ck, t[k], dt, all[k]->span);
	}
	prepare_vars(ck, &s->u.for_.body, NULL, s->span);
	TInst *i = sema_emit(ck, OP_FOR, s->span, NULL, 3, t[0], t[1], t[2]);
	const char *name = s->u.for_.target->u.name.id;
	i->var = new_var(ck, name, sema_type_scalar(ck, dt));
	TBlock *saved = enter(ck, &i->body);
	sema_scope_bind(ck, name, NULL, false, s->u.for_.target->span);
	ck->fr->locals->var = i->var;
	sema_check_block(ck, &s->u.for_.body);
	leave(ck, saved);
}

static void
check_for(Check *ck, const Node *s)
{
	const Node *it = s->u.for_.iter;
	if (it->kind == N_CALL) {
		Value *callee = sema_eval_expr(&ck->ev, it->u.call.callee);
		if (!callee)
			return;
		BuiltinFn fn = callee->kind == VAL_BUILTIN ? sema_builtin_fn(callee->u.builtin) : BF_NONE;
		if (fn == BF_STATIC_RANGE) {
			static_loop(ck, s, it);
			return;
		}
		if (fn == BF_RANGE) {
			runtime_loop(ck, s, it);
			return;
		}
	}
	diag_error(ck->d, it->span, "a for loop runs over range(...) (a runtime loop) or "
	           "gl.static_range(...) (unrolled)");
}

static void
check_while(Check *ck, const Node *s)
{
	prepare_vars(ck, &s->u.while_.body, NULL, s->span);
	TInst *i = sema_emit(ck, OP_WHILE, s->span, NULL, 0);
	TBlock *saved = enter(ck, &i->cond_block);
	Value *c = sema_eval_expr(&ck->ev, s->u.while_.cond);
	if (c && c->kind != VAL_RUNTIME)
		diag_error(ck->d, c->span, "a while condition must be a runtime scalar (a "
		           "compile-time one would loop forever or never)");
	else if (c)
		i->cond_value = runtime_cond(ck, c);
	ck->blk = &i->body;
	sema_check_block(ck, &s->u.while_.body);
	leave(ck, saved);
}

static void
check_aug(Check *ck, const Node *s)
{
	const Node *t = s->u.aug.target;
	if (t->kind != N_NAME) {
		diag_error(ck->d, t->span, "only names can be assigned to");
		return;
	}
	Node bin = {.kind = N_BINARY, .span = s->span};
	bin.u.binary.op = s->u.aug.op;
	bin.u.binary.lhs = (Node *)t;
	bin.u.binary.rhs = s->u.aug.value;
	Value *v = sema_eval_expr(&ck->ev, &bin);
	if (v)
		assign(ck, t, v, false);
	else
		poison_target(ck, t);
}

static void
check_stmt(Check *ck, const Node *s)
{
	Value *v;
	switch (s->kind) {
	case N_IMPORT:
	case N_PASS:
		return;
	case N_EXPR_STMT:
		sema_eval_expr(&ck->ev, s->u.expr_stmt.expr);
		return;
	case N_ASSIGN:
		v = sema_eval_expr(&ck->ev, s->u.assign.value);
		for (size_t i = 0; i < s->u.assign.targets.len; i++) {
			if (v)
				assign(ck, s->u.assign.targets.data[i], v, false);
			else
				poison_target(ck, s->u.assign.targets.data[i]);
		}
		return;
	case N_ANN_ASSIGN: {
		bool cx = is_constexpr_annot(ck, s->u.ann.annot);
		if (!s->u.ann.value) {
			diag_error(ck->d, s->span, "a declaration needs a value");
			poison_target(ck, s->u.ann.target);
			return;
		}
		v = sema_eval_expr(&ck->ev, s->u.ann.value);
		if (v)
			assign(ck, s->u.ann.target, v, cx);
		else
			poison_target(ck, s->u.ann.target);
		return;
	}
	case N_AUG_ASSIGN:
		check_aug(ck, s);
		return;
	case N_IF:
		check_if(ck, s);
		return;
	case N_FOR:
		check_for(ck, s);
		return;
	case N_WHILE:
		check_while(ck, s);
		return;
	case N_BREAK:
	case N_CONTINUE:
		if (ck->fr->rt_depth == 0) {
			diag_error(ck->d, s->span, "'%s' outside a runtime loop",
			           s->kind == N_BREAK ? "break" : "continue");
			return;
		}
		sema_emit(ck, s->kind == N_BREAK ? OP_BREAK : OP_CONTINUE, s->span, NULL, 0);
		return;
	case N_RETURN:
		if (ck->fr->rt_depth > 0) {
			diag_error(ck->d, s->span, "'return' inside runtime control flow is not "
			           "supported; assign a variable and return it at the end");
			return;
		}
		if (s->u.ret.value && !ck->fr->up) {
			diag_error(ck->d, s->u.ret.value->span, "a kernel cannot return a value; "
			           "store results through a pointer or a tensor descriptor");
			return;
		}
		ck->fr->ret = s->u.ret.value ? sema_eval_expr(&ck->ev, s->u.ret.value)
		                             : sema_new_value(&ck->ev, VAL_NONE, s->span);
		ck->fr->returned = true;
		return;
	case N_FUNC: {
		Value *f = sema_new_value(&ck->ev, VAL_FUNC, s->span);
		f->u.func = s;
		sema_scope_bind(ck, s->u.func.name, f, false, s->span);
		return;
	}
	default:
		diag_error(ck->d, s->span, "this statement is not supported here");
		return;
	}
}

void
sema_check_block(Check *ck, const NodeList *stmts)
{
	for (size_t i = 0; i < stmts->len && !(ck->fr && ck->fr->returned); i++) {
		if (ck->d->truncated)
			return;
		check_stmt(ck, stmts->data[i]);
	}
}

/* -- kernels ------------------------------------------------------------------ */

/* The kernel decorator's num_warps (4 by default), or 0 when f is not a
 * kernel. */
static int
kernel_warps(Check *ck, const Node *f)
{
	for (size_t i = 0; i < f->u.func.decorators.len; i++) {
		const Node *d = f->u.func.decorators.data[i];
		const Node *callee = d->kind == N_CALL ? d->u.call.callee : d;
		Value *v = sema_eval_expr(&ck->ev, callee);
		if (!v || v->kind != VAL_BUILTIN || sema_builtin_fn(v->u.builtin) != BF_KERNEL)
			continue;
		if (d->kind != N_CALL)
			return 4;
		int64_t w = 4;
		for (size_t k = 0; k < d->u.call.kwargs.len; k++) {
			const Node *kw = d->u.call.kwargs.data[k];
			Value *x = sema_eval_expr(&ck->ev, kw->u.keyword.value);
			if (!x)
				return -1;
			if (strcmp(kw->u.keyword.name, "num_warps") != 0) {
				diag_error(ck->d, kw->span, "@gl.kernel takes num_warps=..., not '%s'",
				           kw->u.keyword.name);
				return -1;
			}
			if (!sema_value_int(ck, x, "num_warps", &w))
				return -1;
			if (w < 1 || w > 32 || (w & (w - 1))) {
				diag_error(ck->d, x->span, "num_warps is %lld; it must be a power of two "
				           "from 1 to 32", (long long)w);
				return -1;
			}
		}
		return (int)w;
	}
	return 0;
}

static Value *
define_value(Check *ck, const SemaDefine *def)
{
	const char *path = arena_printf(ck->a, "<-D %s>", def->name);
	uint32_t file = src_add(ck->src, path, def->value, strlen(def->value));
	Node *e = parse_expression(ck->a, ck->in, ck->src, file, ck->d);
	if (!e)
		return NULL;
	Frame *saved = ck->fr;
	ck->fr = NULL;
	Value *v = sema_eval_expr(&ck->ev, e);
	ck->fr = saved;
	return v;
}

static bool
param_type(Check *ck, const Node *p, const TType **out)
{
	if (!p->u.param.annot) {
		diag_error(ck->d, p->span, "kernel parameter '%s' needs a type (e.g. gl.ptr[gl.f32], "
		           "gl.i32 or gl.constexpr)", p->u.param.name);
		return false;
	}
	Value *t = sema_eval_expr(&ck->ev, p->u.param.annot);
	if (!t)
		return false;
	if (t->kind == VAL_DTYPE) {
		*out = sema_type_scalar(ck, t->u.dtype);
		return true;
	}
	if (t->kind == VAL_TYPE) {
		*out = t->u.type;
		return true;
	}
	diag_error(ck->d, t->span, "expected a parameter type, got %s", sema_value_kind_phrase(t));
	return false;
}

/* Binds the constexpr parameters of kernel f (from -D or defaults). */
static bool
bind_constexprs(Check *ck, const Node *f, const SemaDefine *defs, size_t n_defs, bool *used)
{
	const NodeList *ps = &f->u.func.params;
	for (size_t i = 0; i < ps->len; i++) {
		const Node *p = ps->data[i];
		if (!is_constexpr_annot(ck, p->u.param.annot))
			continue;
		Value *v = NULL;
		for (size_t d = 0; d < n_defs; d++)
			if (strcmp(defs[d].name, p->u.param.name) == 0) {
				used[d] = true;
				v = define_value(ck, &defs[d]);
				if (!v)
					return false;
			}
		if (!v && !p->u.param.dflt) {
			diag_error(ck->d, p->span, "constexpr parameter '%s' has no default; give it "
			           "with -D %s=VALUE", p->u.param.name, p->u.param.name);
			return false;
		}
		if (!v && !(v = sema_eval_expr(&ck->ev, p->u.param.dflt)))
			return false;
		sema_scope_bind(ck, p->u.param.name, v, true, p->span);
		StrBuf b = {0};
		sema_value_print(v, &b);
		vec_push(ck->a, &ck->cx_names, p->u.param.name);
		vec_push(ck->a, &ck->cx_values, arena_strndup(ck->a, b.s ? b.s : "", b.len));
		buf_free(&b);
	}
	return true;
}

/* Binds the runtime parameters of kernel f to OP_PARAM values. */
static void
bind_params(Check *ck, const Node *f)
{
	const NodeList *ps = &f->u.func.params;
	VEC(TParam) params = {0};
	for (size_t i = 0; i < ps->len; i++) {
		const Node *p = ps->data[i];
		if (p->u.param.annot && is_constexpr_annot(ck, p->u.param.annot))
			continue;
		const TType *t;
		if (!param_type(ck, p, &t))
			continue;
		TParam tp = {p->u.param.name, t->kind == TY_PTR ? TP_PTR : t->kind == TY_DESC ?
		             TP_DESC : TP_SCALAR, t};
		TInst *in = sema_emit(ck, OP_PARAM, p->span, t, 0);
		in->param = (int)params.len;
		vec_push(ck->a, &params, tp);
		sema_scope_bind(ck, p->u.param.name, sema_rt_value(ck, in->res, p->span), false, p->span);
	}
	ck->k->params = params.data;
	ck->k->n_params = (int)params.len;
}

/* One pass over kernel f: its TKernel (also after errors). */
static TKernel *
kernel_pass(Check *ck, const Node *f, int warps, const SemaDefine *defs, size_t n_defs,
            bool *used)
{
	TKernel *k = arena_alloc(ck->a, sizeof *k);
	k->name = f->u.func.name;
	k->at = f->span;
	k->num_warps = k->total_warps = warps;
	ck->k = k;
	Frame fr = {.func = f};
	ck->fr = &fr;
	ck->blk = &k->body;
	int errors = ck->d->errors;
	/* constexpr parameters first: runtime parameter types may use them */
	if (bind_constexprs(ck, f, defs, n_defs, used))
		bind_params(ck, f);
	if (ck->d->errors == errors)
		sema_check_block(ck, &f->u.func.body);
	sema_smem_plan(ck);
	k->vars = ck->vars.data;
	k->n_vars = (int)ck->vars.len;
	k->cx_names = ck->cx_names.data;
	k->cx_values = ck->cx_values.data;
	k->n_cx = (int)ck->cx_names.len;
	/* the kernel owns the arrays now; start the next one afresh */
	memset(&ck->vars, 0, sizeof ck->vars);
	memset(&ck->smem, 0, sizeof ck->smem);
	memset(&ck->unfenced, 0, sizeof ck->unfenced);
	memset(&ck->cx_names, 0, sizeof ck->cx_names);
	memset(&ck->cx_values, 0, sizeof ck->cx_values);
	ck->fr = NULL;
	ck->k = NULL;
	return k;
}

/* Appends the diagnostics of from to to. */
static void
diags_append(Diags *to, const Diags *from)
{
	if (!from->first)
		return;
	if (to->last)
		to->last->next = from->first;
	else
		to->first = from->first;
	to->last = from->last;
	to->errors += from->errors;
	to->warnings += from->warnings;
	to->truncated |= from->truncated;
}

static void
set_diags(Check *ck, Diags *d)
{
	ck->d = d;
	ck->ev.diags = d;
}

/* Checks kernel f. When some layout is left out, the first pass probes
 * (its diagnostics are kept aside), inference decides, and a second pass
 * checks the kernel with the inferred layouts. */
static void
check_kernel(Check *ck, TProgram *prog, const Node *f, int warps, const SemaDefine *defs,
             size_t n_defs, bool *used)
{
	Diags *real = ck->d;
	Diags probe;
	diag_init(&probe, ck->a, ck->src);
	probe.max_errors = real->max_errors ? real->max_errors - real->errors : 0;
	memset(&ck->autos, 0, sizeof ck->autos);
	memset(&ck->auto_sites, 0, sizeof ck->auto_sites);
	ck->auto_plan = NULL;
	ck->auto_next = 0;
	set_diags(ck, &probe);
	TKernel *k = kernel_pass(ck, f, warps, defs, n_defs, used);
	set_diags(ck, real);
	if (ck->autos.len) {
		ck->k = k;
		ck->auto_plan = sema_auto_resolve(ck, &ck->n_auto_plan);
		ck->k = NULL;
		memset(&ck->autos, 0, sizeof ck->autos);
		if (!ck->auto_plan)
			return;
		ck->auto_next = 0;
		k = kernel_pass(ck, f, warps, defs, n_defs, used);
		ck->auto_plan = NULL;
	} else {
		diags_append(real, &probe);
	}
	TKernel **ks = arena_alloc(ck->a, (size_t)(prog->n_kernels + 1) * sizeof *ks);
	if (prog->n_kernels)
		memcpy(ks, prog->kernels, (size_t)prog->n_kernels * sizeof *ks);
	ks[prog->n_kernels++] = k;
	prog->kernels = ks;
}

static void
check_module_stmt(Check *ck, const Node *s)
{
	if (s->kind == N_FUNC || s->kind == N_IMPORT || s->kind == N_ASSIGN ||
	    s->kind == N_ANN_ASSIGN || (s->kind == N_EXPR_STMT &&
	                                s->u.expr_stmt.expr->kind == N_STRING)) {
		check_stmt(ck, s);
		return;
	}
	diag_error(ck->d, s->span, "only imports, constexpr definitions and functions may "
	           "appear at module level");
}

TProgram *
sema_check(Arena *a, Interner *in, Sources *src, Diags *d, const Node *module,
           const SemaDefine *defs, size_t n_defs, const char *kernel)
{
	Check ck = {.a = a, .d = d, .in = in, .src = src};
	ck.ev = (Eval){a, d, check_lookup, &ck, &ck};
	int errors = d->errors;
	const NodeList *body = &module->u.module.body;
	for (size_t i = 0; i < body->len; i++)
		check_module_stmt(&ck, body->data[i]);
	TProgram *prog = arena_alloc(a, sizeof *prog);
	bool *used = arena_alloc(a, n_defs + 1);
	bool found = false;
	for (size_t i = 0; i < body->len && d->errors == errors; i++) {
		const Node *f = body->data[i];
		if (f->kind != N_FUNC)
			continue;
		int w = kernel_warps(&ck, f);
		if (w < 0)
			break;
		if (w == 0 || (kernel && strcmp(kernel, f->u.func.name) != 0))
			continue;
		found = true;
		check_kernel(&ck, prog, f, w, defs, n_defs, used);
	}
	if (kernel && !found && d->errors == errors)
		diag_error(d, (SrcSpan){0}, "--kernel %s: no @gl.kernel of that name", kernel);
	for (size_t i = 0; i < n_defs && d->errors == errors; i++)
		if (!used[i])
			diag_error(d, (SrcSpan){0}, "-D %s: no kernel has a constexpr parameter of "
			           "that name", defs[i].name);
	return d->errors == errors ? prog : NULL;
}
