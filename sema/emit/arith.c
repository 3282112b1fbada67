/*
 * Operators on runtime values: Triton's dtype promotion (Python numbers take
 * the other operand's kind), pointer arithmetic, comparisons, and the
 * implicit casts, splats and broadcasts made explicit.
 */
#include "sema/emit/emit.h"

/* The operator, or the builtin being called (gl.cdiv, gl.umulhi, gl.fdiv,
 * gl.div_rn) that op stands for, in messages. */
static const char *
op_what(Check *ck, TOp op)
{
	if (ck->call && (op == OP_CDIV || op == OP_UMULHI || op == OP_FDIV || op == OP_DIV_RN))
		return sema_builtin_qualname(ck->a, ck->call);
	return arena_printf(ck->a, "operator '%s'", ir_op_name(op));
}

static bool
is_compare(TOp op)
{
	return op >= OP_LT && op <= OP_NE;
}

static const TType *
rt_type(const Value *v)
{
	return v->kind == VAL_RUNTIME ? v->u.rt->type : NULL;
}

static bool
is_number(const Value *v)
{
	return v->kind == VAL_INT || v->kind == VAL_FLOAT || v->kind == VAL_BOOL;
}

static bool
arith_operand_ok(Check *ck, SrcSpan at, TOp op, const Value *v)
{
	const TType *t = rt_type(v);
	if (t ? (t->kind == TY_SCALAR || t->kind == TY_PTR || t->kind == TY_TENSOR) : is_number(v))
		return true;
	diag_error(ck->d, at, "%s is not defined on %s", op_what(ck, op), sema_value_kind_phrase(v));
	return false;
}

static bool
is_ptr_type(const TType *t)
{
	return t && (t->kind == TY_PTR || (t->kind == TY_TENSOR && t->elem_is_ptr));
}

static TValue *
ptr_arith(Check *ck, SrcSpan at, TOp op, Value *x, Value *y)
{
	if (is_ptr_type(rt_type(y))) {
		if (op != OP_ADD || is_ptr_type(rt_type(x))) {
			diag_error(ck->d, at, "%s is not defined between these pointer operands",
			           op_what(ck, op));
			return NULL;
		}
		Value *t = x;
		x = y;
		y = t;
	}
	if (op != OP_ADD && op != OP_SUB) {
		diag_error(ck->d, at, "%s is not defined on pointers; only + and - an integer",
		           op_what(ck, op));
		return NULL;
	}
	const TType *ty = rt_type(y);
	if (ty ? ir_dtype_is_float(ty->dtype) || is_ptr_type(ty) : y->kind != VAL_INT) {
		diag_error(ck->d, at, "a pointer offset must be an integer, not %s",
		           ty ? sema_type_str(ck, ty) : sema_value_kind_phrase(y));
		return NULL;
	}
	TValue *p = x->u.rt, *o = sema_materialize(ck, y, DT_VOID);
	if (!o)
		return NULL;
	if (op == OP_SUB)
		o = sema_emit(ck, OP_NEG, at, o->type, 1, o)->res;
	if (!sema_unify_shapes(ck, at, "pointer arithmetic", &p, &o))
		return NULL;
	TValue *r = sema_emit(ck, OP_PTR_ADD, at, p->type, 2, p, o)->res;
	r->layout_at = p->type->kind == TY_TENSOR && x->u.rt->type->kind == TY_TENSOR
	               ? x->u.rt->layout_at : o->layout_at;
	return r;
}

/* A Python number next to an integer result must be representable in it
 * (and not negative when it is unsigned), as Triton requires. */
static bool
literals_fit(Check *ck, const Value *x, const Value *y, TDType dt)
{
	if (ir_dtype_is_float(dt) || dt == DT_I1)
		return true;
	const Value *v[2] = {x, y};
	for (int k = 0; k < 2; k++) {
		if (v[k]->kind != VAL_INT)
			continue;
		int64_t i = v[k]->u.i;
		if (!sema_int_fits(dt, i)) {
			diag_error(ck->d, v[k]->span, i < 0 && ir_dtype_is_unsigned(dt)
			           ? "%lld next to an unsigned %s: Triton refuses a negative number with "
			             "an unsigned tensor; cast one of them"
			           : "%lld does not fit the operation's type %s",
			           (long long)i, ir_dtype_name(dt));
			return false;
		}
	}
	return true;
}

TValue *
sema_arith(Check *ck, SrcSpan at, TOp op, Value *x, Value *y)
{
	if (!arith_operand_ok(ck, at, op, x) || !arith_operand_ok(ck, at, op, y))
		return NULL;
	if (is_ptr_type(rt_type(x)) || is_ptr_type(rt_type(y))) {
		if (is_compare(op) && is_ptr_type(rt_type(x)) && is_ptr_type(rt_type(y))) {
			TValue *a = x->u.rt, *b = y->u.rt;
			if (!sema_unify_shapes(ck, at, op_what(ck, op), &a, &b))
				return NULL;
			TType *rt = sema_type_with_elem(ck, a->type, sema_type_scalar(ck, DT_I1));
			return sema_emit(ck, op, at, rt, 2, a, b)->res;
		}
		return ptr_arith(ck, at, op, x, y);
	}
	const TType *tx = rt_type(x), *ty = rt_type(y);
	bool xl = !tx, yl = !ty;
	TDType ax = xl ? sema_literal_dtype(x) : tx->dtype, ay = yl ? sema_literal_dtype(y) : ty->dtype;
	TDType dt = sema_computation_type(ax, xl, ay, yl, op == OP_DIV || op == OP_FLOORDIV ||
	                                  op == OP_MOD);
	if (dt == DT_VOID) {
		diag_error(ck->d, at, "%s has no common type for %s and %s (Triton's promotion%s)",
		           op_what(ck, op), ir_dtype_name(ax), ir_dtype_name(ay),
		           ir_dtype_is_float(ax) || ir_dtype_is_float(ay) ? ""
		           : ": integers of mixed signedness under /, // and %; cast one");
		return NULL;
	}
	if (!literals_fit(ck, x, y, dt))
		return NULL;
	bool is_float = ir_dtype_is_float(dt);
	if (op == OP_FLOORDIV && is_float) {
		diag_error(ck->d, at, "%s is defined on integers (as in Triton); for floats write "
		           "gl.floor(a / b)", op_what(ck, op));
		return NULL;
	}
	if (op == OP_DIV && !is_float)
		dt = DT_F32;
	TOnDtype on = is_compare(op) ? IR_ON_ANY : ir_binary_on(op);
	if ((on == IR_ON_INTS && is_float) || (on == IR_ON_FLOATS && !is_float)) {
		diag_error(ck->d, at, "%s is not defined on %s values (%s)", op_what(ck, op),
		           is_float ? "floating-point" : "integer", ir_dtype_name(dt));
		return NULL;
	}
	TValue *a = sema_materialize(ck, x, dt), *b = sema_materialize(ck, y, dt);
	if (!a || !b)
		return NULL;
	a = sema_cast_to(ck, a, dt, at);
	b = sema_cast_to(ck, b, dt, at);
	if (!sema_unify_shapes(ck, at, op_what(ck, op), &a, &b))
		return NULL;
	const TType *res = is_compare(op) ? sema_type_with_elem(ck, a->type, sema_type_scalar(ck, DT_I1))
	                                  : a->type;
	TValue *r = sema_emit(ck, op, at, res, 2, a, b)->res;
	r->layout_at = a->type->kind == TY_TENSOR ? a->layout_at : b->layout_at;
	return r;
}

static const TOp binop_map[] = {
	[BIN_ADD] = OP_ADD, [BIN_SUB] = OP_SUB, [BIN_MUL] = OP_MUL, [BIN_DIV] = OP_DIV,
	[BIN_FLOORDIV] = OP_FLOORDIV, [BIN_MOD] = OP_MOD, [BIN_POW] = OP_COUNT,
	[BIN_MATMUL] = OP_COUNT, [BIN_SHL] = OP_SHL, [BIN_SHR] = OP_SHR,
	[BIN_BITAND] = OP_AND, [BIN_BITOR] = OP_OR, [BIN_BITXOR] = OP_XOR,
	[BIN_AND] = OP_AND, [BIN_OR] = OP_OR,
};

Value *
sema_check_binary(Check *ck, const Node *n, BinOp op, Value *x, Value *y)
{
	TOp t = binop_map[op];
	if (t == OP_COUNT) {
		diag_error(ck->d, n->span, "operator '%s' is not supported on runtime values%s",
		           parse_binop_spelling(op), op == BIN_MATMUL ? "; use warpgroup_mma" : "");
		return NULL;
	}
	TValue *r = sema_arith(ck, n->span, t, x, y);
	return r ? sema_rt_value(ck, r, n->span) : NULL;
}

Value *
sema_check_unary(Check *ck, const Node *n, UnOp op, Value *x)
{
	TValue *v = x->u.rt;
	if (!arith_operand_ok(ck, n->span, op == UN_NEG ? OP_NEG : OP_NOT, x))
		return NULL;
	if (is_ptr_type(v->type)) {
		diag_error(ck->d, n->span, "unary '%s' is not defined on pointers",
		           parse_unop_spelling(op));
		return NULL;
	}
	switch (op) {
	case UN_POS:
		return x;
	case UN_NEG:
		return sema_rt_value(ck, sema_emit(ck, OP_NEG, n->span, v->type, 1, v)->res, n->span);
	case UN_INVERT:
		if (ir_dtype_is_float(v->type->dtype)) {
			diag_error(ck->d, n->span, "'~' is not defined on %s", sema_type_str(ck, v->type));
			return NULL;
		}
		return sema_rt_value(ck, sema_emit(ck, OP_NOT, n->span, v->type, 1, v)->res, n->span);
	case UN_NOT: {
		Value zero = {.kind = VAL_INT, .span = n->span};
		return sema_check_compare(ck, n->span, CMP_EQ, x, &zero);
	}
	}
	return NULL;
}

Value *
sema_check_compare(Check *ck, SrcSpan at, CmpOp op, Value *x, Value *y)
{
	static const TOp map[] = {
		[CMP_LT] = OP_LT, [CMP_GT] = OP_GT, [CMP_LE] = OP_LE, [CMP_GE] = OP_GE,
		[CMP_EQ] = OP_EQ, [CMP_NE] = OP_NE,
	};
	/* a runtime value is never None (Triton folds `x is None` the same way) */
	if ((op == CMP_IS || op == CMP_IS_NOT) && (x->kind == VAL_NONE || y->kind == VAL_NONE)) {
		Value *b = sema_new_value(&ck->ev, VAL_BOOL, at);
		b->u.b = op == CMP_IS_NOT;
		return b;
	}
	if (op > CMP_NE) {
		diag_error(ck->d, at, "'%s' is not supported on runtime values",
		           parse_cmpop_spelling(op));
		return NULL;
	}
	TValue *r = sema_arith(ck, at, map[op], x, y);
	return r ? sema_rt_value(ck, r, at) : NULL;
}
