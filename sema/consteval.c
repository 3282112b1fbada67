/*
 * Compile-time evaluation of expressions: literals, lists and tuples,
 * integer and float arithmetic, names, builtin namespaces and layout
 * constructor calls. Every failure is a diagnostic at the sub-expression
 * that caused it.
 */
#include "sema/value.h"

#include <string.h>

const char *
value_kind_phrase(const Value *v)
{
	switch (v->kind) {
	case VAL_NONE: return "None";
	case VAL_INT: return "an integer";
	case VAL_FLOAT: return "a float";
	case VAL_BOOL: return "a bool";
	case VAL_STR: return "a string";
	case VAL_LIST: return "a list";
	case VAL_TUPLE: return "a tuple";
	case VAL_LAYOUT: return "a layout";
	case VAL_BUILTIN:
		return builtin_is_namespace(v->u.builtin) ? "a namespace" : "a function";
	}
	return "a value";
}

static Value *
new_value(Eval *e, ValueKind k, SrcSpan at)
{
	Value *v = arena_alloc(e->arena, sizeof *v);
	v->kind = k;
	v->span = at;
	return v;
}

static Value *
eval_sequence(Eval *e, const Node *n, ValueKind k)
{
	Value *v = new_value(e, k, n->span);
	const NodeList *items = &n->u.list.items;
	v->u.list.n = items->len;
	v->u.list.items = arena_alloc(e->arena, (items->len + 1) * sizeof(Value *));
	bool ok = true;
	for (size_t i = 0; i < items->len; i++) {
		v->u.list.items[i] = eval_expr(e, items->data[i]);
		ok &= v->u.list.items[i] != NULL;
	}
	return ok ? v : NULL;
}

static Value *
eval_unary(Eval *e, const Node *n)
{
	Value *x = eval_expr(e, n->u.unary.operand);
	if (!x)
		return NULL;
	UnOp op = n->u.unary.op;
	if (op == UN_NOT && (x->kind == VAL_BOOL || x->kind == VAL_INT)) {
		Value *v = new_value(e, VAL_BOOL, n->span);
		v->u.b = x->kind == VAL_BOOL ? !x->u.b : x->u.i == 0;
		return v;
	}
	if (x->kind == VAL_INT && op != UN_NOT) {
		Value *v = new_value(e, VAL_INT, n->span);
		if (op == UN_NEG && x->u.i == INT64_MIN) {
			diag_error(e->diags, n->span, "integer overflow in constant expression");
			return NULL;
		}
		v->u.i = op == UN_NEG ? -x->u.i : op == UN_INVERT ? ~x->u.i : x->u.i;
		return v;
	}
	if (x->kind == VAL_FLOAT && (op == UN_NEG || op == UN_POS)) {
		Value *v = new_value(e, VAL_FLOAT, n->span);
		v->u.f = op == UN_NEG ? -x->u.f : x->u.f;
		return v;
	}
	diag_error(e->diags, n->span, "bad operand for unary '%s': %s",
	           parse_unop_spelling(op), value_kind_phrase(x));
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

static Value *
eval_binary(Eval *e, const Node *n)
{
	Value *x = eval_expr(e, n->u.binary.lhs);
	Value *y = eval_expr(e, n->u.binary.rhs);
	if (!x || !y)
		return NULL;
	BinOp op = n->u.binary.op;
	if (x->kind == VAL_INT && y->kind == VAL_INT && op != BIN_DIV) {
		Value *v = new_value(e, VAL_INT, n->span);
		return int_binary(e, n, op, x->u.i, y->u.i, &v->u.i) ? v : NULL;
	}
	bool xnum = x->kind == VAL_INT || x->kind == VAL_FLOAT;
	bool ynum = y->kind == VAL_INT || y->kind == VAL_FLOAT;
	if (xnum && ynum && (op == BIN_ADD || op == BIN_SUB || op == BIN_MUL || op == BIN_DIV)) {
		double a = x->kind == VAL_INT ? (double)x->u.i : x->u.f;
		double b = y->kind == VAL_INT ? (double)y->u.i : y->u.f;
		if (op == BIN_DIV && b == 0) {
			diag_error(e->diags, n->span, "division by zero in constant expression");
			return NULL;
		}
		Value *v = new_value(e, VAL_FLOAT, n->span);
		v->u.f = op == BIN_ADD ? a + b : op == BIN_SUB ? a - b : op == BIN_MUL ? a * b : a / b;
		return v;
	}
	diag_error(e->diags, n->span, "unsupported operands for '%s': %s and %s",
	           parse_binop_spelling(op), value_kind_phrase(x), value_kind_phrase(y));
	return NULL;
}

static void
unknown_name(Eval *e, SrcSpan at, const Builtin *ns, const char *name)
{
	Diag *g = ns ? diag_error(e->diags, at, "'%s' has no member '%s'", builtin_name(ns), name)
	             : diag_error(e->diags, at, "unknown name '%s'", name);
	const char *names[64];
	size_t n = builtin_names(ns, names, 64);
	const char *s = diag_suggest(name, names, n);
	if (s)
		diag_note(e->diags, g, (SrcSpan){0}, "did you mean '%s'?", s);
}

static Value *
builtin_value(Eval *e, const Builtin *b, SrcSpan at)
{
	Value *v = new_value(e, VAL_BUILTIN, at);
	v->u.builtin = b;
	return v;
}

static Value *
eval_name(Eval *e, const Node *n)
{
	const char *id = n->u.name.id;
	if (e->lookup) {
		const Value *v = e->lookup(e->ctx, id);
		if (v)
			return (Value *)v;
	}
	const Builtin *b = builtin_lookup(NULL, id);
	if (b)
		return builtin_value(e, b, n->span);
	unknown_name(e, n->span, NULL, id);
	return NULL;
}

static Value *
eval_attr(Eval *e, const Node *n)
{
	Value *obj = eval_expr(e, n->u.attr.obj);
	if (!obj)
		return NULL;
	if (obj->kind != VAL_BUILTIN || !builtin_is_namespace(obj->u.builtin)) {
		diag_error(e->diags, n->u.attr.name_span, "%s has no attribute '%s' at compile time",
		           value_kind_phrase(obj), n->u.attr.name);
		return NULL;
	}
	const Builtin *b = builtin_lookup(obj->u.builtin, n->u.attr.name);
	if (!b) {
		unknown_name(e, n->u.attr.name_span, obj->u.builtin, n->u.attr.name);
		return NULL;
	}
	return builtin_value(e, b, n->span);
}

static Value *
eval_call(Eval *e, const Node *n)
{
	Value *callee = eval_expr(e, n->u.call.callee);
	if (!callee)
		return NULL;
	if (callee->kind == VAL_BUILTIN && builtin_is_layout_ctor(callee->u.builtin))
		return eval_layout_ctor(e, callee->u.builtin, n);
	diag_error(e->diags, n->u.call.callee->span, "%s cannot be called at compile time",
	           value_kind_phrase(callee));
	return NULL;
}

Value *
eval_expr(Eval *e, const Node *n)
{
	Value *v;
	switch (n->kind) {
	case N_INT:
		if (n->u.int_.value > (uint64_t)INT64_MAX) {
			diag_error(e->diags, n->span, "integer constant does not fit in 64 bits");
			return NULL;
		}
		v = new_value(e, VAL_INT, n->span);
		v->u.i = (int64_t)n->u.int_.value;
		return v;
	case N_FLOAT:
		v = new_value(e, VAL_FLOAT, n->span);
		v->u.f = n->u.float_.value;
		return v;
	case N_BOOL:
		v = new_value(e, VAL_BOOL, n->span);
		v->u.b = n->u.boolean.value;
		return v;
	case N_NONE:
		return new_value(e, VAL_NONE, n->span);
	case N_STRING:
		v = new_value(e, VAL_STR, n->span);
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
	default:
		diag_error(e->diags, n->span, "this expression cannot be evaluated at compile time");
		return NULL;
	}
}

const LLDesc *
sema_eval_layout(Arena *a, Diags *d, const Node *expr)
{
	Eval e = {a, d, NULL, NULL};
	int before = d->errors;
	Value *v = eval_expr(&e, expr);
	if (!v)
		return NULL;
	if (v->kind != VAL_LAYOUT) {
		if (d->errors == before)
			diag_error(d, expr->span, "expected a layout, e.g. "
			           "BlockedLayout([1,4],[8,4],[4,1],[1,0]); got %s", value_kind_phrase(v));
		return NULL;
	}
	return v->u.layout;
}

bool
sema_build_layout(Diags *d, SrcSpan at, const LLDesc *desc, const int64_t *shape, int rank,
                  int num_warps, Arena *a, LLayout *out)
{
	LLErr err = {a, NULL};
	if (ll_build(desc, shape, rank, num_warps, out, &err))
		return true;
	StrBuf text = {0};
	ll_desc_print(desc, &text);
	Diag *g = diag_error(d, at, "invalid layout: %s", err.msg ? err.msg : "rejected");
	diag_note(d, g, (SrcSpan){0}, "the layout is %s", text.s ? text.s : "");
	buf_free(&text);
	return false;
}

int
sema_dtype_bits(const char *name)
{
	static const struct { const char *name; int bits; } dtypes[] = {
		{"i1", 1}, {"i8", 8}, {"i16", 16}, {"i32", 32}, {"i64", 64},
		{"u8", 8}, {"u16", 16}, {"u32", 32}, {"u64", 64},
		{"f16", 16}, {"bf16", 16}, {"f32", 32}, {"f64", 64},
		{"f8e4m3", 8}, {"f8e5m2", 8},
		{"float16", 16}, {"bfloat16", 16}, {"float32", 32}, {"float64", 64},
		{"int8", 8}, {"int16", 16}, {"int32", 32}, {"int64", 64},
	};
	for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
		if (strcmp(dtypes[i].name, name) == 0)
			return dtypes[i].bits;
	return 0;
}
