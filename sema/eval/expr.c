/*
 * Compile-time evaluation of expressions: literals, lists and tuples,
 * integer and float arithmetic, names, builtin namespaces and layout
 * constructor calls. Every failure is a diagnostic at the sub-expression
 * that caused it.
 */
#include "sema/eval/eval.h"

#include <string.h>

static Value *
eval_sequence(Eval *e, const Node *n, ValueKind k)
{
	const NodeList *items = &n->u.list.items;
	Value **slots = sema_items_alloc(e, n->span, items->len);
	if (!slots)
		return NULL;
	Value *v = sema_new_value(e, k, n->span);
	v->u.list.n = items->len;
	v->u.list.items = slots;
	bool ok = true;
	for (size_t i = 0; i < items->len; i++) {
		v->u.list.items[i] = sema_eval_expr(e, items->data[i]);
		ok &= v->u.list.items[i] != NULL;
	}
	return ok ? v : NULL;
}

static Value *
eval_unary(Eval *e, const Node *n)
{
	/* -9223372036854775808: the literal alone does not fit, its negation
	 * is INT64_MIN. */
	const Node *lit = n->u.unary.operand;
	if (n->u.unary.op == UN_NEG && lit->kind == N_INT &&
	    lit->u.int_.value == (uint64_t)INT64_MAX + 1) {
		Value *v = sema_new_value(e, VAL_INT, n->span);
		v->u.i = INT64_MIN;
		return v;
	}
	Value *x = sema_eval_expr(e, n->u.unary.operand);
	if (!x)
		return NULL;
	UnOp op = n->u.unary.op;
	if (e->ck && x->kind == VAL_RUNTIME)
		return e->ck->hooks->unary(e->ck, n, op, x);
	if (op == UN_NOT && (x->kind == VAL_BOOL || x->kind == VAL_INT)) {
		Value *v = sema_new_value(e, VAL_BOOL, n->span);
		v->u.b = x->kind == VAL_BOOL ? !x->u.b : x->u.i == 0;
		return v;
	}
	if (x->kind == VAL_INT && op != UN_NOT) {
		Value *v = sema_new_value(e, VAL_INT, n->span);
		if (op == UN_NEG && x->u.i == INT64_MIN) {
			diag_error(e->diags, n->span, "integer overflow in constant expression");
			return NULL;
		}
		v->u.i = op == UN_NEG ? -x->u.i : op == UN_INVERT ? ~x->u.i : x->u.i;
		return v;
	}
	if (x->kind == VAL_FLOAT && (op == UN_NEG || op == UN_POS)) {
		Value *v = sema_new_value(e, VAL_FLOAT, n->span);
		v->u.f = op == UN_NEG ? -x->u.f : x->u.f;
		return v;
	}
	diag_error(e->diags, n->span, "bad operand for unary '%s': %s",
	           parse_unop_spelling(op), sema_value_kind_phrase(x));
	return NULL;
}

/* Python's floor division and modulo on int64, with overflow checks. */
static bool
int_binary(Eval *e, const Node *n, BinOp op, int64_t a, int64_t b, int64_t *r)
{
	bool overflow = false;
	switch (op) {
	case BIN_ADD: overflow = __builtin_add_overflow(a, b, r); break;
	case BIN_SUB: overflow = __builtin_sub_overflow(a, b, r); break;
	case BIN_MUL: overflow = __builtin_mul_overflow(a, b, r); break;
	case BIN_FLOORDIV:
	case BIN_MOD:
		if (b == 0) {
			diag_error(e->diags, n->span, "division by zero in constant expression");
			return false;
		}
		if (a == INT64_MIN && b == -1) {
			overflow = true;
			break;
		}
		{
			int64_t q = a / b, m = a % b;
			if (m != 0 && ((m < 0) != (b < 0))) {
				q -= 1;
				m += b;
			}
			*r = op == BIN_FLOORDIV ? q : m;
		}
		break;
	case BIN_POW:
		if (b < 0) {
			diag_error(e->diags, n->span, "negative exponent in integer constant expression");
			return false;
		}
		/* 0, 1 and -1 take any power at once; any other base overflows
		 * past the 63rd, so the loop is short */
		if (a == 0 || a == 1 || a == -1) {
			*r = a == -1 && b % 2 ? -1 : a == 0 && b > 0 ? 0 : 1;
			break;
		}
		*r = 1;
		for (int64_t i = 0; i < b && !overflow; i++)
			overflow = __builtin_mul_overflow(*r, a, r);
		break;
	case BIN_SHL:
	case BIN_SHR:
		if (b < 0 || b > 63) {
			diag_error(e->diags, n->span, "shift count %lld out of range [0, 63]",
			           (long long)b);
			return false;
		}
		if (op == BIN_SHR) {
			*r = a >> b;
		} else {
			*r = (int64_t)((uint64_t)a << b);
			overflow = (*r >> b) != a;
		}
		break;
	case BIN_BITAND: *r = a & b; break;
	case BIN_BITOR: *r = a | b; break;
	case BIN_BITXOR: *r = a ^ b; break;
	default:
		diag_error(e->diags, n->span, "operator '%s' is not defined on integers",
		           parse_binop_spelling(op));
		return false;
	}
	if (overflow) {
		diag_error(e->diags, n->span, "integer overflow in constant expression");
		return false;
	}
	return true;
}

/* [a] + [b], (a,) + (b,) */
static Value *
concat(Eval *e, const Node *n, const Value *x, const Value *y)
{
	Value **items = sema_items_alloc(e, n->span, x->u.list.n + y->u.list.n);
	if (!items)
		return NULL;
	Value *v = sema_new_value(e, x->kind, n->span);
	v->u.list.n = x->u.list.n + y->u.list.n;
	v->u.list.items = items;
	for (size_t i = 0; i < x->u.list.n; i++)
		v->u.list.items[i] = x->u.list.items[i];
	for (size_t i = 0; i < y->u.list.n; i++)
		v->u.list.items[x->u.list.n + i] = y->u.list.items[i];
	return v;
}

static Value *
bool_int(Eval *e, const Value *x)
{
	Value *v = sema_new_value(e, VAL_INT, x->span);
	v->u.i = x->u.b;
	return v;
}

static Value *
eval_binary(Eval *e, const Node *n)
{
	Value *x = sema_eval_expr(e, n->u.binary.lhs);
	Value *y = sema_eval_expr(e, n->u.binary.rhs);
	if (!x || !y)
		return NULL;
	BinOp op = n->u.binary.op;
	if (e->ck && (x->kind == VAL_RUNTIME || y->kind == VAL_RUNTIME))
		return e->ck->hooks->binary(e->ck, n, op, x, y);
	if (op == BIN_ADD && (x->kind == VAL_LIST || x->kind == VAL_TUPLE) && x->kind == y->kind)
		return concat(e, n, x, y);
	if (op == BIN_ADD && x->kind == VAL_STR && y->kind == VAL_STR) {
		size_t len = x->u.str.len + y->u.str.len;
		if (!sema_charge(e, n->span, len / 64 + 1, len + 1))
			return NULL;
		Value *v = sema_new_value(e, VAL_STR, n->span);
		v->u.str.len = len;
		char *b = arena_alloc(e->arena, len + 1);
		memcpy(b, x->u.str.s, x->u.str.len);
		memcpy(b + x->u.str.len, y->u.str.s, y->u.str.len);
		v->u.str.s = b;
		return v;
	}
	if (x->kind == VAL_BOOL && y->kind == VAL_BOOL &&
	    (op == BIN_BITAND || op == BIN_BITOR || op == BIN_BITXOR)) {
		Value *v = sema_new_value(e, VAL_BOOL, n->span);
		v->u.b = op == BIN_BITAND ? x->u.b && y->u.b : op == BIN_BITOR ? x->u.b || y->u.b
		                                                                : x->u.b != y->u.b;
		return v;
	}
	/* otherwise Python's bools are the ints 0 and 1: True + 1 == 2 */
	bool xnum = x->kind == VAL_INT || x->kind == VAL_FLOAT || x->kind == VAL_BOOL;
	bool ynum = y->kind == VAL_INT || y->kind == VAL_FLOAT || y->kind == VAL_BOOL;
	if (xnum && ynum && x->kind == VAL_BOOL)
		x = bool_int(e, x);
	if (xnum && ynum && y->kind == VAL_BOOL)
		y = bool_int(e, y);
	if (x->kind == VAL_INT && y->kind == VAL_INT && op != BIN_DIV) {
		Value *v = sema_new_value(e, VAL_INT, n->span);
		return int_binary(e, n, op, x->u.i, y->u.i, &v->u.i) ? v : NULL;
	}
	if (xnum && ynum && (op == BIN_ADD || op == BIN_SUB || op == BIN_MUL || op == BIN_DIV)) {
		double a = x->kind == VAL_INT ? (double)x->u.i : x->u.f;
		double b = y->kind == VAL_INT ? (double)y->u.i : y->u.f;
		if (op == BIN_DIV && b == 0) {
			diag_error(e->diags, n->span, "division by zero in constant expression");
			return NULL;
		}
		Value *v = sema_new_value(e, VAL_FLOAT, n->span);
		v->u.f = op == BIN_ADD ? a + b : op == BIN_SUB ? a - b : op == BIN_MUL ? a * b : a / b;
		return v;
	}
	diag_error(e->diags, n->span, "unsupported operands for '%s': %s and %s",
	           parse_binop_spelling(op), sema_value_kind_phrase(x), sema_value_kind_phrase(y));
	return NULL;
}

void
sema_report_unknown(Eval *e, SrcSpan at, const Builtin *ns, const char *name,
               const char *const *extra, size_t n_extra)
{
	const char *why = ns ? sema_unsupported_reason(sema_builtin_name(ns), name) : NULL;
	if (why) {
		diag_error(e->diags, at, "%s.%s is not supported by glc: %s", sema_builtin_name(ns), name,
		           why);
		return;
	}
	Diag *g = ns ? diag_error(e->diags, at, "'%s' has no member '%s'", sema_builtin_name(ns), name)
	             : diag_error(e->diags, at, "unknown name '%s'", name);
	if (!g)
		return;   /* dropped (--max-errors): no suggestion to compute */
	enum { MAX_NAMES = 256 };
	const char *names[MAX_NAMES];
	size_t n = sema_builtin_names(ns, names, MAX_NAMES);
	for (size_t i = 0; i < n_extra && n < MAX_NAMES; i++)
		names[n++] = extra[i];
	const char *s = diag_suggest(name, names, n);
	if (s)
		diag_note(e->diags, g, (SrcSpan){0}, "did you mean '%s'?", s);
}

static Value *
builtin_value(Eval *e, const Builtin *b, SrcSpan at)
{
	Value *v = sema_new_value(e, VAL_BUILTIN, at);
	v->u.builtin = b;
	return v;
}

static Value *
eval_name(Eval *e, const Node *n)
{
	const char *id = n->u.name.id;
	if (e->ck) {
		const Value *v = e->ck->hooks->lookup(e->ck, id);
		if (v && v->kind == VAL_POISON)
			return NULL;
		if (v && (v->kind == VAL_LIST || v->kind == VAL_DICT))
			return (Value *)v;   /* one mutable object: .append() is seen by all */
		if (v) {
			/* This use of the value: diagnostics about it point here,
			 * notes about where it was made at its origin. */
			Value *use = arena_alloc(e->arena, sizeof *use);
			*use = *v;
			use->span = n->span;
			return use;
		}
	}
	const Builtin *b = sema_builtin_lookup(NULL, id);
	if (b)
		return builtin_value(e, b, n->span);
	const char *extra[128];
	size_t n_extra = 0;
	if (e->ck)
		n_extra = sema_check_visible_names(e->ck, extra, 128);
	sema_report_unknown(e, n->span, NULL, id, extra, n_extra);
	return NULL;
}

static Value *
eval_attr(Eval *e, const Node *n)
{
	Value *obj = sema_eval_expr(e, n->u.attr.obj);
	if (!obj)
		return NULL;
	bool handled = false;
	Value *r = e->ck ? sema_py_attr(e->ck, n, obj, &handled) : NULL;
	if (handled)
		return r;
	if (e->ck && (obj->kind != VAL_BUILTIN || !sema_builtin_is_namespace(obj->u.builtin)))
		return e->ck->hooks->attr(e->ck, n, obj);
	if (obj->kind != VAL_BUILTIN || !sema_builtin_is_namespace(obj->u.builtin)) {
		diag_error(e->diags, n->u.attr.name_span, "%s has no attribute '%s' at compile time",
		           sema_value_kind_phrase(obj), n->u.attr.name);
		return NULL;
	}
	const Builtin *b = sema_builtin_lookup(obj->u.builtin, n->u.attr.name);
	if (!b) {
		Value *p = sema_prelude_member(e->ck, obj->u.builtin, n->u.attr.name, n->span);
		if (p)
			return p;
		sema_report_unknown(e, n->u.attr.name_span, obj->u.builtin, n->u.attr.name, NULL, 0);
		return NULL;
	}
	if (sema_builtin_dtype(b) != DT_VOID) {
		Value *v = sema_new_value(e, VAL_DTYPE, n->span);
		v->u.dtype = sema_builtin_dtype(b);
		return v;
	}
	return builtin_value(e, b, n->span);
}

static Value *
eval_call(Eval *e, const Node *n)
{
	Value *callee = sema_eval_expr(e, n->u.call.callee);
	if (!callee)
		return NULL;
	if (callee->kind == VAL_BUILTIN && sema_builtin_is_layout_ctor(callee->u.builtin))
		return sema_eval_layout_ctor(e, callee->u.builtin, n);
	if (callee->kind == VAL_BUILTIN && sema_builtin_fn(callee->u.builtin) == BF_AUTO_LAYOUT) {
		if (n->u.call.args.len || n->u.call.kwargs.len) {
			diag_error(e->diags, n->span, "gl.%s() takes no arguments",
			           sema_builtin_name(callee->u.builtin));
			return NULL;
		}
		return sema_new_value(e, VAL_AUTO_LAYOUT, n->span);
	}
	if (e->ck && callee->kind == VAL_BUILTIN && sema_builtin_fn(callee->u.builtin) != BF_NONE)
		return e->ck->hooks->builtin_call(e->ck, n, callee->u.builtin);
	if (e->ck && callee->kind == VAL_FUNC)
		return sema_check_func_call(e->ck, n, callee->u.func, NULL);
	if (e->ck && callee->kind == VAL_CLASS)
		return sema_construct(e->ck, n, callee->u.cls);
	if (e->ck && callee->kind == VAL_HOST) {
		sema_host_error(e->ck, n->u.call.callee->span, callee);
		return NULL;
	}
	if (e->ck && callee->kind == VAL_METHOD)
		return e->ck->hooks->method_call(e->ck, n, callee);
	diag_error(e->diags, n->u.call.callee->span, "%s cannot be called at compile time",
	           sema_value_kind_phrase(callee));
	return NULL;
}

static Value *
eval_compare(Eval *e, const Node *n)
{
	const NodeList *ops = &n->u.compare.operands;
	Value *x = sema_eval_expr(e, ops->data[0]);
	Value *result = NULL;
	for (size_t i = 1; x && i < ops->len; i++) {
		Value *y = sema_eval_expr(e, ops->data[i]);
		if (!y)
			return NULL;
		CmpOp op = n->u.compare.ops.data[i - 1];
		Value *r;
		if (e->ck && (x->kind == VAL_RUNTIME || y->kind == VAL_RUNTIME)) {
			r = e->ck->hooks->compare(e->ck, n->span, op, x, y);
		} else {
			int c = sema_compare_values(e, n->span, op, x, y);
			if (c < 0)
				return NULL;
			r = sema_new_value(e, VAL_BOOL, n->span);
			r->u.b = c;
		}
		if (!r)
			return NULL;
		if (result && e->ck && (result->kind == VAL_RUNTIME || r->kind == VAL_RUNTIME)) {
			TValue *t = e->ck->hooks->arith(e->ck, n->span, OP_AND, result, r);
			result = t ? sema_rt_value(e->ck, t, n->span) : NULL;
		} else if (result && result->kind == VAL_BOOL && !result->u.b) {
			/* stays False */
		} else {
			result = r;
		}
		x = y;
	}
	return x ? result : NULL;
}

static Value *
eval_logical(Eval *e, const Node *n)
{
	Value *x = sema_eval_expr(e, n->u.binary.lhs);
	if (!x)
		return NULL;
	bool is_and = n->u.binary.op == BIN_AND;
	if (x->kind != VAL_RUNTIME) {
		bool t;
		if (!sema_value_truth(e, x, &t))
			return NULL;
		if (t != is_and)
			return x;     /* short circuit: the rhs is not evaluated */
		return sema_eval_expr(e, n->u.binary.rhs);
	}
	Value *y = sema_eval_expr(e, n->u.binary.rhs);
	if (!y)
		return NULL;
	TValue *r = e->ck->hooks->arith(e->ck, n->span, is_and ? OP_AND : OP_OR, x, y);
	return r ? sema_rt_value(e->ck, r, n->span) : NULL;
}

static Value *
eval_cond(Eval *e, const Node *n)
{
	Value *c = sema_eval_expr(e, n->u.cond.cond);
	if (!c)
		return NULL;
	if (c->kind == VAL_RUNTIME) {
		diag_error(e->diags, n->u.cond.cond->span, "the condition of 'x if c else y' must "
		           "be known at compile time; use gl.where for runtime values");
		return NULL;
	}
	bool t;
	if (!sema_value_truth(e, c, &t))
		return NULL;
	return sema_eval_expr(e, t ? n->u.cond.then : n->u.cond.else_);
}

static Value *
eval_node(Eval *e, const Node *n)
{
	Value *v;
	switch (n->kind) {
	case N_INT:
		if (n->u.int_.value > (uint64_t)INT64_MAX) {
			diag_error(e->diags, n->span, "integer constant does not fit in 64 bits");
			return NULL;
		}
		v = sema_new_value(e, VAL_INT, n->span);
		v->u.i = (int64_t)n->u.int_.value;
		return v;
	case N_FLOAT:
		v = sema_new_value(e, VAL_FLOAT, n->span);
		v->u.f = n->u.float_.value;
		return v;
	case N_BOOL:
		v = sema_new_value(e, VAL_BOOL, n->span);
		v->u.b = n->u.boolean.value;
		return v;
	case N_NONE:
		return sema_new_value(e, VAL_NONE, n->span);
	case N_STRING:
		v = sema_new_value(e, VAL_STR, n->span);
		v->u.str.s = n->u.str.value;
		v->u.str.len = n->u.str.len;
		return v;
	case N_LIST:
		return eval_sequence(e, n, VAL_LIST);
	case N_TUPLE:
		return eval_sequence(e, n, VAL_TUPLE);
	case N_UNARY:
		return eval_unary(e, n);
	case N_BINARY:
		return eval_binary(e, n);
	case N_NAME:
		return eval_name(e, n);
	case N_ATTR:
		return eval_attr(e, n);
	case N_CALL:
		return eval_call(e, n);
	case N_COMPARE:
		return eval_compare(e, n);
	case N_LOGICAL:
		return eval_logical(e, n);
	case N_COND:
		return eval_cond(e, n);
	case N_SUBSCRIPT:
		return sema_eval_subscript(e, n);
	case N_ELLIPSIS:
		return sema_new_value(e, VAL_NONE, n->span);
	case N_COMP:
	case N_SET:
		if (e->ck)
			return sema_eval_comp(e->ck, n);
		break;
	case N_DICT:
		if (e->ck)
			return sema_eval_dict(e->ck, n);
		break;
	case N_LAMBDA:
		v = sema_new_value(e, VAL_FUNC, n->span);
		v->u.func = n;
		if (e->ck && e->ck->fr)
			sema_frame_scope(e->ck, n);   /* it reads the function's names */
		return v;
	default:
		break;
	}
	diag_error(e->diags, n->span, "this expression cannot be evaluated at compile time");
	return NULL;
}

Value *
sema_eval_expr(Eval *e, const Node *n)
{
	/* an expression nests at most PARSE_MAX_NEST deep, but module-level
	 * values read while one is evaluated (a chain of 30,000 of them
	 * overflowed the stack), calls and comprehensions nest evaluations
	 * further */
	if (e->depth >= SEMA_MAX_EVAL_DEPTH) {
		if (!e->over)
			diag_error(e->diags, n->span, "compile-time evaluation nests more than %d deep "
			           "(module-level values that read each other, calls, nested "
			           "expressions)", SEMA_MAX_EVAL_DEPTH);
		e->over = true;
		return NULL;
	}
	e->depth++;
	Value *v = eval_node(e, n);
	e->depth--;
	return v;
}
