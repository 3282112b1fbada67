/*
 * Compile-time Python: @constexpr_function bodies run by an interpreter over
 * compile-time values (ints, floats, bools, strings, None, lists, tuples,
 * dicts, layouts, dtypes, aggregates), with if/for/while/return, break and
 * continue, and comprehensions. Every statement run, call and item made is
 * charged to the evaluation budget (--max-eval-steps, --max-eval-bytes:
 * sema/value/budget.c), so a helper that loops forever stops with an error
 * at the statement it was running.
 */
#include "sema/eval/eval.h"

#include <string.h>

typedef VEC(Value *) ValueVec;

typedef enum Flow { FLOW_NEXT, FLOW_BREAK, FLOW_CONTINUE, FLOW_RETURN, FLOW_ERROR } Flow;

/* Charges one step at node s to the evaluation budget; false (after one
 * report) past it. */
static bool
step(Check *ck, const Node *s)
{
	return sema_charge(&ck->ev, s->span, 1, 0);
}

Value *
sema_py_range(Check *ck, const Node *call, const Builtin *b)
{
	Value *a[SEMA_MAX_BUILTIN_PARAMS];
	if (!sema_bind_builtin(ck, call, b, a))
		return NULL;
	int64_t v[3] = {0, 0, 1};
	int k = a[2] ? 3 : a[1] ? 2 : 1;
	for (int i = 0; i < k; i++)
		if (!sema_value_int(ck, a[i], "a range bound", &v[i]))
			return NULL;
	int64_t lo = k == 1 ? 0 : v[0], hi = k == 1 ? v[0] : v[1], st = k == 3 ? v[2] : 1;
	if (st == 0) {
		diag_error(ck->d, call->span, "range() step must not be zero");
		return NULL;
	}
	uint64_t count = sema_range_len(lo, hi, st);
	Value **items = count < SIZE_MAX / sizeof(Value) &&
	                sema_charge(&ck->ev, call->span, 0, count * sizeof(Value))
	              ? sema_items_alloc(&ck->ev, call->span, (size_t)count) : NULL;
	if (!items)
		return NULL;
	Value *r = sema_new_value(&ck->ev, VAL_LIST, call->span);
	r->u.list.items = items;
	r->u.list.n = (size_t)count;
	for (uint64_t i = 0; i < count; i++) {
		Value *x = sema_new_value(&ck->ev, VAL_INT, call->span);
		x->u.i = sema_range_at(lo, st, i);
		r->u.list.items[i] = x;
	}
	return r;
}

/* The items an iterable yields: range(...) (compile-time bounds), lists,
 * tuples, a dict's keys. False after a diagnostic. */
static bool
iterate(Check *ck, const Node *it, Value ***items, size_t *n)
{
	if (it->kind == N_CALL) {
		Value *callee = sema_eval_expr(&ck->ev, it->u.call.callee);
		if (!callee)
			return false;
		BuiltinFn fn = callee->kind == VAL_BUILTIN ? sema_builtin_fn(callee->u.builtin) : BF_NONE;
		if (fn == BF_RANGE || fn == BF_STATIC_RANGE) {
			Value *r = sema_py_range(ck, it, callee->u.builtin);
			if (!r)
				return false;
			*items = r->u.list.items;
			*n = r->u.list.n;
			return true;
		}
	}
	Value *v = sema_eval_expr(&ck->ev, it);
	if (!v)
		return false;
	if (v->kind == VAL_LIST || v->kind == VAL_TUPLE) {
		*items = v->u.list.items;
		*n = v->u.list.n;
		return true;
	}
	if (v->kind == VAL_DICT) {
		*n = v->u.list.n / 2;
		if (!(*items = sema_items_alloc(&ck->ev, it->span, *n)))
			return false;
		for (size_t i = 0; i < *n; i++)
			(*items)[i] = v->u.list.items[2 * i];
		return true;
	}
	diag_error(ck->d, it->span, "cannot iterate over %s at compile time",
	           sema_value_kind_phrase(v));
	return false;
}

/* Binds target t (a name, a tuple of targets, obj.field, lst[i]) to v. */
static bool
assign(Check *ck, const Node *t, Value *v)
{
	switch (t->kind) {
	case N_NAME:
		sema_scope_bind(ck, t->u.name.id, v, false, t->span);
		return true;
	case N_TUPLE: case N_LIST: {
		size_t n = t->u.list.items.len;
		if ((v->kind != VAL_TUPLE && v->kind != VAL_LIST) || v->u.list.n != n) {
			diag_error(ck->d, t->span, "cannot unpack %s into %zu targets",
			           sema_value_kind_phrase(v), n);
			return false;
		}
		for (size_t i = 0; i < n; i++)
			if (!assign(ck, t->u.list.items.data[i], v->u.list.items[i]))
				return false;
		return true;
	}
	case N_ATTR: {
		Value *obj = sema_eval_expr(&ck->ev, t->u.attr.obj);
		if (!obj)
			return false;
		/* a class's name and docs are for Python's printing: glc names it
		 * by its definition */
		if (obj->kind == VAL_CLASS && (strcmp(t->u.attr.name, "__name__") == 0 ||
		                               strcmp(t->u.attr.name, "__qualname__") == 0 ||
		                               strcmp(t->u.attr.name, "__doc__") == 0))
			return true;
		const SemaClass *c = obj->kind == VAL_TUPLE ? obj->u.list.cls : NULL;
		for (size_t i = 0; c && i < c->n_fields; i++)
			if (c->fields[i] == t->u.attr.name) {
				obj->u.list.items[i] = v;
				return true;
			}
		diag_error(ck->d, t->span, c ? "'%s' has no field '%s' (fields are declared "
		           "with annotations in the class body)" : "%s%s cannot be assigned to",
		           c ? c->name : "an attribute", c ? t->u.attr.name : "");
		return false;
	}
	case N_SUBSCRIPT: {
		Value *obj = sema_eval_expr(&ck->ev, t->u.subscript.obj);
		Value *ix = obj ? sema_eval_expr(&ck->ev, t->u.subscript.index) : NULL;
		if (!ix)
			return false;
		if (obj->kind == VAL_LIST && ix->kind == VAL_INT) {
			int64_t i = ix->u.i < 0 ? ix->u.i + (int64_t)obj->u.list.n : ix->u.i;
			if (i >= 0 && i < (int64_t)obj->u.list.n) {
				obj->u.list.items[i] = v;
				return true;
			}
		}
		if (obj->kind == VAL_DICT) {
			if (!sema_charge(&ck->ev, t->span, obj->u.list.n / 2, 0))
				return false;
			for (size_t i = 0; i + 1 < obj->u.list.n; i += 2)
				if (sema_same_value(obj->u.list.items[i], ix)) {
					obj->u.list.items[i + 1] = v;
					return true;
				}
			return sema_list_push(&ck->ev, t->span, obj, ix) &&
			       sema_list_push(&ck->ev, t->span, obj, v);
		}
		diag_error(ck->d, t->span, "cannot assign to this item of %s",
		           sema_value_kind_phrase(obj));
		return false;
	}
	default:
		diag_error(ck->d, t->span, "cannot assign to this at compile time");
		return false;
	}
}

static Flow run_block(Check *ck, const NodeList *body);

static Flow
run_loop_body(Check *ck, const NodeList *body)
{
	Flow f = run_block(ck, body);
	return f == FLOW_CONTINUE ? FLOW_NEXT : f;
}

static Flow
run_stmt(Check *ck, const Node *s)
{
	if (!step(ck, s))
		return FLOW_ERROR;
	Value *v;
	switch (s->kind) {
	case N_PASS: case N_IMPORT:
		return FLOW_NEXT;
	case N_BREAK: return FLOW_BREAK;
	case N_CONTINUE: return FLOW_CONTINUE;
	case N_EXPR_STMT:
		return sema_eval_expr(&ck->ev, s->u.expr_stmt.expr) ? FLOW_NEXT : FLOW_ERROR;
	case N_ASSIGN:
		if (!(v = sema_eval_expr(&ck->ev, s->u.assign.value)))
			return FLOW_ERROR;
		for (size_t i = 0; i < s->u.assign.targets.len; i++)
			if (!assign(ck, s->u.assign.targets.data[i], v))
				return FLOW_ERROR;
		return FLOW_NEXT;
	case N_ANN_ASSIGN:
		if (!s->u.ann.value)
			return FLOW_NEXT;
		if (!(v = sema_eval_expr(&ck->ev, s->u.ann.value)))
			return FLOW_ERROR;
		return assign(ck, s->u.ann.target, v) ? FLOW_NEXT : FLOW_ERROR;
	case N_AUG_ASSIGN: {
		Node bin = {.kind = N_BINARY, .span = s->span};
		bin.u.binary.op = s->u.aug.op;
		bin.u.binary.lhs = s->u.aug.target;
		bin.u.binary.rhs = s->u.aug.value;
		if (!(v = sema_eval_expr(&ck->ev, &bin)))
			return FLOW_ERROR;
		return assign(ck, s->u.aug.target, v) ? FLOW_NEXT : FLOW_ERROR;
	}
	case N_IF: {
		bool t;
		if (!(v = sema_eval_expr(&ck->ev, s->u.if_.cond)) || !sema_value_truth(&ck->ev, v, &t))
			return FLOW_ERROR;
		return run_block(ck, t ? &s->u.if_.then : &s->u.if_.else_);
	}
	case N_FOR: {
		Value **items;
		size_t n;
		if (!iterate(ck, s->u.for_.iter, &items, &n))
			return FLOW_ERROR;
		for (size_t i = 0; i < n; i++) {
			if (!assign(ck, s->u.for_.target, items[i]))
				return FLOW_ERROR;
			Flow f = run_loop_body(ck, &s->u.for_.body);
			if (f == FLOW_BREAK)
				return FLOW_NEXT;
			if (f != FLOW_NEXT)
				return f;
		}
		return run_block(ck, &s->u.for_.else_);
	}
	case N_WHILE:
		for (;;) {
			bool t;
			if (!step(ck, s) || !(v = sema_eval_expr(&ck->ev, s->u.while_.cond)) ||
			    !sema_value_truth(&ck->ev, v, &t))
				return FLOW_ERROR;
			if (!t)
				return run_block(ck, &s->u.while_.else_);
			Flow f = run_loop_body(ck, &s->u.while_.body);
			if (f == FLOW_BREAK)
				return FLOW_NEXT;
			if (f != FLOW_NEXT)
				return f;
		}
	case N_RETURN:
		v = s->u.ret.value ? sema_eval_expr(&ck->ev, s->u.ret.value)
		                   : sema_new_value(&ck->ev, VAL_NONE, s->span);
		if (!v)
			return FLOW_ERROR;
		ck->fr->ret = v;
		ck->fr->returned = true;
		return FLOW_RETURN;
	case N_ASSERT: {
		if (!(v = sema_eval_expr(&ck->ev, s->u.assert_.cond)))
			return FLOW_ERROR;
		Value *msg = s->u.assert_.msg ? sema_eval_expr(&ck->ev, s->u.assert_.msg) : NULL;
		return sema_assert_now(ck, s->span, v, msg, "assertion") ? FLOW_NEXT : FLOW_ERROR;
	}
	case N_FUNC:
		v = sema_new_value(&ck->ev, VAL_FUNC, s->span);
		v->u.func = s;
		sema_scope_bind(ck, s->u.func.name, v, false, s->span);
		return FLOW_NEXT;
	case N_CLASS: {
		const SemaClass *c = sema_class_in_frame(ck, s);
		if (!c) {
			diag_error(ck->d, s->span, "only @aggregate classes can be defined in "
			           "compile-time functions");
			return FLOW_ERROR;
		}
		v = sema_new_value(&ck->ev, VAL_CLASS, s->span);
		v->u.cls = c;
		sema_scope_bind(ck, s->u.class_.name, v, false, s->span);
		/* its methods name the class too */
		c->mod->globals = sema_scope_snapshot(&ck->fr->locals);
		return FLOW_NEXT;
	}
	case N_HOST: {
		const Node *e = s->u.host.value;
		if (strcmp(s->u.host.what, "raise") == 0) {
			const Node *m = e && e->kind == N_CALL && e->u.call.args.len == 1 &&
			                e->u.call.args.data[0]->kind == N_STRING ? e->u.call.args.data[0]
			                                                          : NULL;
			diag_error(ck->d, s->span, "compile-time code raised an exception%s%.*s",
			           m ? ": " : "", m ? (int)m->u.str.len : 0, m ? m->u.str.value : "");
			return FLOW_ERROR;
		}
		diag_error(ck->d, s->span, "'%s' is not supported in compile-time functions",
		           s->u.host.what);
		return FLOW_ERROR;
	}
	default:
		diag_error(ck->d, s->span, "this statement is not supported in compile-time "
		           "functions");
		return FLOW_ERROR;
	}
}

static Flow
run_block(Check *ck, const NodeList *body)
{
	for (size_t i = 0; i < body->len; i++) {
		Flow f = run_stmt(ck, body->data[i]);
		if (f != FLOW_NEXT)
			return f;
	}
	return FLOW_NEXT;
}

Value *
sema_run_constexpr_fn(Check *ck, SrcSpan at, const Node *f, Value **args, int n)
{
	if (ck->inline_depth >= MAX_INLINE_DEPTH) {
		diag_error(ck->d, at, "calls nest more than %d deep (is '%s' recursive?)",
		           MAX_INLINE_DEPTH, f->u.func.name);
		return NULL;
	}
	if (!sema_charge(&ck->ev, at, 1, 0))
		return NULL;
	Frame fr = {.func = f, .call_at = at, .up = ck->fr};
	Frame *saved = ck->fr;
	SemaModule *saved_mod = ck->mod;
	ck->fr = &fr;
	ck->mod = sema_module_of(ck, f);
	for (int i = 0; i < n; i++) {
		const Node *p = f->u.func.params.data[i];
		sema_scope_bind(ck, p->u.param.name, args[i], false, p->span);
	}
	ck->inline_depth++;
	Flow flow = run_block(ck, &f->u.func.body);
	ck->inline_depth--;
	ck->fr = saved;
	ck->mod = saved_mod;
	if (flow == FLOW_ERROR || (flow == FLOW_RETURN && !fr.ret))
		return NULL;
	return flow == FLOW_RETURN ? fr.ret : sema_new_value(&ck->ev, VAL_NONE, at);
}

/* Runs the `for` clauses of comprehension n from clause k on, appending to
 * out (pairs for a dict). */
static bool
comp_clauses(Check *ck, const Node *n, size_t k, ValueVec *out)
{
	if (k == n->u.comp.fors.len) {
		if (!step(ck, n))
			return false;
		if (n->u.comp.key) {
			Value *key = sema_eval_expr(&ck->ev, n->u.comp.key);
			if (!key)
				return false;
			vec_push(ck->a, out, key);
		}
		Value *v = sema_eval_expr(&ck->ev, n->u.comp.elt);
		if (!v)
			return false;
		vec_push(ck->a, out, v);
		return true;
	}
	const Node *c = n->u.comp.fors.data[k];
	Value **items;
	size_t count;
	if (!iterate(ck, c->u.comp_for.iter, &items, &count))
		return false;
	for (size_t i = 0; i < count; i++) {
		if (!assign(ck, c->u.comp_for.target, items[i]))
			return false;
		bool keep = true;
		for (size_t j = 0; j < c->u.comp_for.ifs.len && keep; j++) {
			Value *t = sema_eval_expr(&ck->ev, c->u.comp_for.ifs.data[j]);
			if (!t || !sema_value_truth(&ck->ev, t, &keep))
				return false;
		}
		if (keep && !comp_clauses(ck, n, k + 1, out))
			return false;
	}
	return true;
}

Value *
sema_eval_comp(Check *ck, const Node *n)
{
	ValueVec out = {0};
	if (n->kind == N_SET) {
		for (size_t i = 0; i < n->u.list.items.len; i++) {
			Value *v = sema_eval_expr(&ck->ev, n->u.list.items.data[i]);
			if (!v)
				return NULL;
			vec_push(ck->a, &out, v);
		}
		return sema_list_value(&ck->ev, VAL_LIST, out.data, out.len, n->span);
	}
	/* The clauses' targets live in a scope of their own, which sees the
	 * enclosing function's names. */
	Frame inner = ck->fr ? *ck->fr : (Frame){0};
	Frame *saved = ck->fr;
	ck->fr = &inner;
	bool ok = comp_clauses(ck, n, 0, &out);
	ck->fr = saved;
	if (!ok)
		return NULL;
	return sema_list_value(&ck->ev, n->u.comp.kind == COMP_DICT ? VAL_DICT : n->u.comp.kind ==
	                  COMP_GEN ? VAL_TUPLE : VAL_LIST, out.data, out.len, n->span);
}

Value *
sema_eval_dict(Check *ck, const Node *n)
{
	ValueVec out = {0};
	for (size_t i = 0; i < n->u.dict.values.len; i++) {
		const Node *k = n->u.dict.keys.data[i];
		Value *v = sema_eval_expr(&ck->ev, n->u.dict.values.data[i]);
		if (!v)
			return NULL;
		if (!k) {
			if (v->kind != VAL_DICT) {
				diag_error(ck->d, v->span, "'**' needs a dict, not %s",
				           sema_value_kind_phrase(v));
				return NULL;
			}
			for (size_t j = 0; j < v->u.list.n; j++)
				vec_push(ck->a, &out, v->u.list.items[j]);
			continue;
		}
		Value *key = sema_eval_expr(&ck->ev, k);
		if (!key)
			return NULL;
		vec_push(ck->a, &out, key);
		vec_push(ck->a, &out, v);
	}
	return sema_list_value(&ck->ev, VAL_DICT, out.data, out.len, n->span);
}
