/*
 * Statements: compile-time and runtime `if`, static_range unrolling,
 * runtime `for`/`while`, augmented assignment, and `return` from inlined
 * device functions.
 */
#include "sema/check/check.h"

#include <string.h>


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

/* An if; rest are the statements after it in its block. Returns true when
 * it checked them too (a branch that may return: rest runs on the paths
 * that do not). */
static bool
check_if(Check *ck, const Node *s, const NodeList *rest)
{
	Value *c = sema_eval_expr(&ck->ev, s->u.if_.cond);
	if (!c)
		return false;
	if (c->kind != VAL_RUNTIME) {
		bool t;
		if (!sema_value_truth(&ck->ev, c, &t))
			return false;
		const NodeList *b = t ? &s->u.if_.then : &s->u.if_.else_;
		if (!sema_if_returns(s) || !rest->len) {
			sema_check_block(ck, b);
			return false;
		}
		NodeList all = {0};
		for (size_t i = 0; i < b->len; i++)
			vec_push(ck->a, &all, b->data[i]);
		for (size_t i = 0; i < rest->len; i++)
			vec_push(ck->a, &all, rest->data[i]);
		sema_check_block(ck, &all);
		return true;
	}
	TValue *cond = runtime_cond(ck, c);
	if (!cond)
		return false;
	if (sema_if_returns(s) && ck->fr->capture >= 0) {
		sema_check_returning_if(ck, s, cond, rest);
		return true;
	}
	VarSnap before = sema_prepare_vars(ck, &s->u.if_.then, &s->u.if_.else_, s->span);
	TInst *i = sema_emit(ck, OP_IF, s->span, NULL, 1, cond);
	TBlock *saved = enter(ck, &i->body);
	sema_check_block(ck, &s->u.if_.then);
	VarSnap then_end = sema_snap_vars(ck, &before);
	sema_reset_vars(&before);
	ck->blk = &i->else_body;
	sema_check_block(ck, &s->u.if_.else_);
	leave(ck, saved);
	VarSnap else_end = sema_snap_vars(ck, &before);
	sema_vars_agree(ck, &then_end, &else_end, true, s->span, "at the end of the then-branch",
	                "at the end of the else-branch");
	return false;
}

/* A runtime loop's body carries what it assigns back to its start. As in
 * Gluon, a name that is an accumulator before the loop is one at the end of
 * the body and the other way round; the elements of its tuples and
 * aggregates may change, and after the loop they are as before it (Gluon
 * rebuilds the loop's results with the types they entered with). */
static void
loop_end(Check *ck, const Node *s, const VarSnap *before)
{
	VarSnap end = sema_snap_vars(ck, before);
	sema_vars_agree(ck, before, &end, false, s->span, "before the loop", "at the end of its body");
	sema_reset_vars(before);
}

static void
static_loop(Check *ck, const Node *s, const Node *call, const Builtin *b)
{
	Value *args[SEMA_MAX_BUILTIN_PARAMS];
	if (!sema_bind_builtin(ck, call, b, args))
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
	uint64_t count = sema_range_len(lo, hi, step);
	if (!sema_spend(ck, call->span, LIM_UNROLL, &ck->unrolled, count, "gl.static_range "
	                "unrolls its body %llu times", (unsigned long long)count))
		return;
	for (uint64_t k = 0; k < count; k++) {
		Value *iv = sema_new_value(&ck->ev, VAL_INT, s->u.for_.target->span);
		iv->u.i = sema_range_at(lo, step, k);
		sema_assign(ck, s->u.for_.target, iv, false);
		sema_check_block(ck, &s->u.for_.body);
		if (ck->fr->returned || ck->d->truncated)
			return;
	}
}

static void
runtime_loop(Check *ck, const Node *s, const Node *call, const Builtin *b)
{
	Value *args[SEMA_MAX_BUILTIN_PARAMS];
	if (!sema_bind_builtin(ck, call, b, args))
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
			dt = sema_integer_promote(dt, a->u.rt->type->dtype);
	}
	if (step->kind == VAL_INT && step->u.i == 0) {
		diag_error(ck->d, call->span, "range step must not be zero (the loop would never "
		           "end)");
		return;
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
	VarSnap before = sema_prepare_vars(ck, &s->u.for_.body, NULL, s->span);
	TInst *i = sema_emit(ck, OP_FOR, s->span, NULL, 3, t[0], t[1], t[2]);
	const char *name = s->u.for_.target->u.name.id;
	i->var = sema_new_var(ck, name, sema_type_scalar(ck, dt));
	TBlock *saved = enter(ck, &i->body);
	int capture = ck->fr->capture;
	ck->fr->capture = -1;   /* a return cannot leave the loop */
	sema_scope_bind(ck, name, sema_var_value(ck, i->var, s->u.for_.target->span), false,
	                s->u.for_.target->span);
	sema_check_block(ck, &s->u.for_.body);
	ck->fr->capture = capture;
	leave(ck, saved);
	loop_end(ck, s, &before);
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
			static_loop(ck, s, it, callee->u.builtin);
			return;
		}
		if (fn == BF_RANGE) {
			runtime_loop(ck, s, it, callee->u.builtin);
			return;
		}
	}
	diag_error(ck->d, it->span, "a for loop runs over range(...) (a runtime loop) or "
	           "gl.static_range(...) (unrolled)");
}

static void
check_while(Check *ck, const Node *s)
{
	VarSnap before = sema_prepare_vars(ck, &s->u.while_.body, NULL, s->span);
	TInst *i = sema_emit(ck, OP_WHILE, s->span, NULL, 0);
	TBlock *saved = enter(ck, &i->cond_block);
	Value *c = sema_eval_expr(&ck->ev, s->u.while_.cond);
	if (c && c->kind != VAL_RUNTIME)
		diag_error(ck->d, c->span, "a while condition must be a runtime scalar (a "
		           "compile-time one would loop forever or never)");
	else if (c)
		i->cond_value = runtime_cond(ck, c);
	ck->blk = &i->body;
	int capture = ck->fr->capture;
	ck->fr->capture = -1;
	sema_check_block(ck, &s->u.while_.body);
	ck->fr->capture = capture;
	leave(ck, saved);
	loop_end(ck, s, &before);
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
		sema_assign(ck, t, v, false);
	else
		sema_poison_target(ck, t);
}

void
sema_check_stmt(Check *ck, const Node *s)
{
	Value *v;
	switch (s->kind) {
	case N_IMPORT:
	case N_PASS:
		return;
	case N_ASSERT: {
		/* A compile-time condition is checked now. A runtime one is a
		 * device assertion, which code generation keeps only with -g or
		 * --debug (Triton compiles it out unless debugging). */
		if (!(v = sema_eval_expr(&ck->ev, s->u.assert_.cond)))
			return;
		Value *msg = s->u.assert_.msg ? sema_eval_expr(&ck->ev, s->u.assert_.msg) : NULL;
		if (s->u.assert_.msg && !msg)
			return;
		if (v->kind != VAL_RUNTIME) {
			sema_assert_now(ck, s->span, v, msg, "assertion");
			return;
		}
		StrBuf b = {0};
		if (msg && msg->kind == VAL_STR)
			buf_putn(&b, msg->u.str.s, msg->u.str.len);
		else if (msg)
			sema_value_print(msg, &b);
		sema_device_assert(ck, s->span, v, arena_strndup(ck->a, b.s ? b.s : "", b.len), NULL);
		buf_free(&b);
		return;
	}
	case N_EXPR_STMT:
		sema_eval_expr(&ck->ev, s->u.expr_stmt.expr);
		return;
	case N_ASSIGN:
		v = sema_eval_expr(&ck->ev, s->u.assign.value);
		for (size_t i = 0; i < s->u.assign.targets.len; i++) {
			if (v)
				sema_assign(ck, s->u.assign.targets.data[i], v, false);
			else
				sema_poison_target(ck, s->u.assign.targets.data[i]);
		}
		return;
	case N_ANN_ASSIGN: {
		bool cx = sema_is_constexpr_annot(ck, s->u.ann.annot);
		if (!s->u.ann.value) {
			diag_error(ck->d, s->span, "a declaration needs a value");
			sema_poison_target(ck, s->u.ann.target);
			return;
		}
		v = sema_eval_expr(&ck->ev, s->u.ann.value);
		if (v)
			sema_assign(ck, s->u.ann.target, v, cx);
		else
			sema_poison_target(ck, s->u.ann.target);
		return;
	}
	case N_AUG_ASSIGN:
		check_aug(ck, s);
		return;
	case N_IF:
		check_if(ck, s, &(NodeList){0});
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
		if (ck->fr->rt_depth > 0 && ck->fr->capture <= 0) {
			diag_error(ck->d, s->span, "'return' inside a runtime loop is not supported; "
			           "assign a variable, break, and return it after the loop");
			return;
		}
		if (s->u.ret.value && !ck->fr->up) {
			diag_error(ck->d, s->u.ret.value->span, "a kernel cannot return a value; "
			           "store results through a pointer or a tensor descriptor");
			return;
		}
		v = s->u.ret.value ? sema_eval_expr(&ck->ev, s->u.ret.value)
		                   : sema_new_value(&ck->ev, VAL_NONE, s->span);
		if (ck->fr->rt_depth > 0) {
			if (v)
				sema_return_site(ck, s->span, v);
			ck->fr->returned = true;
			return;
		}
		ck->fr->ret = v;
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
		const Node *s = stmts->data[i];
		if (s->kind == N_IF && ck->fr) {
			/* the statements after an if whose branches return run on the
			 * branch that does not */
			NodeList rest = {stmts->data + i + 1, stmts->len - i - 1, stmts->len - i - 1};
			if (check_if(ck, s, &rest))
				return;
			continue;
		}
		sema_check_stmt(ck, s);
	}
}
