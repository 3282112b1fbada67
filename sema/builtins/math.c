/*
 * Gluon's math set and casts: the elementwise functions of gl (exp ... erf,
 * floor, ceil, sqrt_rn, fdiv, div_rn, fma, umulhi, clamp, maximum,
 * minimum) and gl.cast / x.to() with a rounding mode or as a bitcast.
 * Operands follow Triton's promotion (Python numbers take the other
 * operand's dtype) and broadcast to one shape and layout.
 */
#include "sema/builtins/builtins.h"

#include <string.h>

/* The IR op and the user's spelling of each math builtin. */
static const struct {
	BuiltinFn fn;
	TOp op;
	const char *name;
} ops[] = {
	{BF_EXP, OP_EXP, "gl.exp"}, {BF_EXP2, OP_EXP2, "gl.exp2"}, {BF_LOG, OP_LOG, "gl.log"},
	{BF_LOG2, OP_LOG2, "gl.log2"}, {BF_SQRT, OP_SQRT, "gl.sqrt"},
	{BF_RSQRT, OP_RSQRT, "gl.rsqrt"}, {BF_ABS, OP_ABS, "gl.abs"}, {BF_SIN, OP_SIN, "gl.sin"},
	{BF_COS, OP_COS, "gl.cos"}, {BF_ERF, OP_ERF, "gl.erf"}, {BF_FLOOR, OP_FLOOR, "gl.floor"},
	{BF_CEIL, OP_CEIL, "gl.ceil"}, {BF_SQRT_RN, OP_SQRT_RN, "gl.sqrt_rn"},
	{BF_FDIV, OP_FDIV, "gl.fdiv"}, {BF_DIV_RN, OP_DIV_RN, "gl.div_rn"},
	{BF_FMA, OP_FMA, "gl.fma"}, {BF_UMULHI, OP_UMULHI, "gl.umulhi"},
	{BF_CLAMP, OP_CLAMP, "gl.clamp"}, {BF_MAXIMUM, OP_MAX, "gl.maximum"},
	{BF_MINIMUM, OP_MIN, "gl.minimum"}, {BF_CDIV, OP_CDIV, "gl.cdiv"},
};

static Value *
result(Check *ck, TValue *v, SrcSpan at)
{
	return sema_rt_value(ck, v, at);
}

/* A number operand (register tensor or scalar of numbers, or a Python
 * number); a diagnostic naming fname otherwise. */
static bool
number_arg(Check *ck, const Value *v, const char *fname)
{
	if (v->kind == VAL_INT || v->kind == VAL_FLOAT || v->kind == VAL_BOOL)
		return true;
	const TType *t = v->kind == VAL_RUNTIME ? v->u.rt->type : NULL;
	if (t && (t->kind == TY_SCALAR || (t->kind == TY_TENSOR && !t->elem_is_ptr)))
		return true;
	diag_error(ck->d, v->span, "%s needs numbers, not %s", fname,
	           t ? sema_type_str(ck, t) : sema_value_kind_phrase(v));
	return false;
}

/* The dtype of a runtime operand, or DT_VOID for a Python number. */
static TDType
dtype_of(const Value *v)
{
	return v->kind == VAL_RUNTIME ? v->u.rt->type->dtype : DT_VOID;
}

/* True when v holds floats (a Python float counts), after a diagnostic
 * naming fname otherwise. */
static bool
want_float(Check *ck, const Value *v, const char *fname)
{
	TDType t = dtype_of(v);
	if (t == DT_VOID ? v->kind == VAL_FLOAT : ir_dtype_is_float(t))
		return true;
	diag_error(ck->d, v->span, "%s needs floating-point operands, not %s", fname,
	           t == DT_VOID ? sema_value_kind_phrase(v) : ir_dtype_name(t));
	return false;
}

/* Reads a PropagateNan argument: PropagateNan.ALL or .NONE (or a bool). */
static bool
propagate_nan_arg(Check *ck, const Value *v, bool *out)
{
	*out = false;
	if (!v)
		return true;
	BuiltinFn f = v->kind == VAL_BUILTIN ? sema_builtin_fn(v->u.builtin) : BF_NONE;
	if (f == BF_NAN_ALL || f == BF_NAN_NONE || v->kind == VAL_BOOL) {
		*out = f == BF_NAN_ALL || (v->kind == VAL_BOOL && v->u.b);
		return true;
	}
	diag_error(ck->d, v->span, "propagate_nan must be PropagateNan.ALL or PropagateNan.NONE, "
	           "not %s", sema_value_kind_phrase(v));
	return false;
}

/* One-operand functions: floats as they are (f16 and bf16 compute in
 * f32), other numbers converted to f32; abs keeps integers. */
static Value *
unary(Check *ck, const Node *call, TOp op, const char *name, Value *x0)
{
	if (!number_arg(ck, x0, name))
		return NULL;
	TValue *x = sema_materialize(ck, x0, DT_VOID);
	if (!x)
		return NULL;
	if (op != OP_ABS && !ir_dtype_is_float(x->type->dtype))
		x = sema_cast_to(ck, x, DT_F32, call->span);
	TInst *i = sema_emit(ck, op, call->span, x->type, 1, x);
	i->res->layout_at = x->layout_at;
	return result(ck, i->res, call->span);
}

/* Two-operand functions through the operators' promotion. */
static Value *
binary(Check *ck, const Node *call, TOp op, const char *name, Value **a)
{
	if (a[0]->kind != VAL_RUNTIME && a[1]->kind != VAL_RUNTIME) {
		if (op == OP_CDIV && a[0]->kind == VAL_INT && a[1]->kind == VAL_INT) {
			if (a[1]->u.i == 0) {
				diag_error(ck->d, call->span, "gl.cdiv by zero");
				return NULL;
			}
			Value *v = sema_new_value(&ck->ev, VAL_INT, call->span);
			int64_t q = a[0]->u.i / a[1]->u.i;
			v->u.i = q + ((a[0]->u.i % a[1]->u.i != 0) && ((a[0]->u.i < 0) == (a[1]->u.i < 0)));
			return v;
		}
		diag_error(ck->d, call->span, "%s of two compile-time values is not supported", name);
		return NULL;
	}
	if (!number_arg(ck, a[0], name) || !number_arg(ck, a[1], name))
		return NULL;
	if ((op == OP_FDIV || op == OP_DIV_RN) &&
	    (!want_float(ck, a[0], name) || !want_float(ck, a[1], name)))
		return NULL;
	if (op == OP_UMULHI)
		for (int k = 0; k < 2; k++) {
			TDType t = dtype_of(a[k]);
			if (t == DT_VOID ? a[k]->kind == VAL_INT : t == DT_I32 || t == DT_I64 ||
			    t == DT_U32 || t == DT_U64)
				continue;
			diag_error(ck->d, a[k]->span, "gl.umulhi needs 32- or 64-bit integers, not %s",
			           t == DT_VOID ? sema_value_kind_phrase(a[k]) : ir_dtype_name(t));
			return NULL;
		}
	/* gl.maximum/gl.minimum (as Triton's core.maximum): Python numbers
	 * become tensors of their own dtype first (no scalar rule), and bf16
	 * computes in f32. */
	Value *v[2] = {a[0], a[1]};
	for (int k = 0; (op == OP_MAX || op == OP_MIN) && k < 2; k++) {
		TValue *t = sema_materialize(ck, a[k], DT_VOID);
		if (!t)
			return NULL;
		if (t->type->dtype == DT_BF16)
			t = sema_cast_to(ck, t, DT_F32, call->span);
		v[k] = sema_rt_value(ck, t, a[k]->span);
	}
	TValue *r = sema_arith(ck, call->span, op, v[0], v[1]);
	return r ? result(ck, r, call->span) : NULL;
}

/* fma(x, y, z) and clamp(x, lo, hi): three operands promoted to one float
 * dtype and broadcast to one shape. */
static Value *
ternary(Check *ck, const Node *call, TOp op, const char *name, Value **a)
{
	TDType dt = DT_VOID;
	for (int k = 0; k < 3; k++) {
		if (!number_arg(ck, a[k], name) || !want_float(ck, a[k], name))
			return NULL;
		TDType t = dtype_of(a[k]);
		if (t != DT_VOID)
			dt = dt == DT_VOID ? t : sema_computation_type(dt, false, t, false, false);
	}
	if (dt == DT_VOID) {
		diag_error(ck->d, call->span, "%s of compile-time values is not supported", name);
		return NULL;
	}
	TValue *v[3];
	for (int k = 0; k < 3; k++) {
		if (!(v[k] = sema_materialize(ck, a[k], dt)))
			return NULL;
		v[k] = sema_cast_to(ck, v[k], dt, call->span);
	}
	if (!sema_unify_shapes(ck, call->span, name, &v[0], &v[1]) ||
	    !sema_unify_shapes(ck, call->span, name, &v[0], &v[2]) ||
	    !sema_unify_shapes(ck, call->span, name, &v[0], &v[1]))
		return NULL;
	TInst *i = sema_emit(ck, op, call->span, v[0]->type, 3, v[0], v[1], v[2]);
	i->res->layout_at = v[0]->layout_at;
	return result(ck, i->res, call->span);
}

/* The instruction just emitted, which made v (the op sema_arith,
 * ternary or sema_cast_to built last). */
static TInst *
made_last(Check *ck, const TValue *v)
{
	TInst *i = ck->blk->insts[ck->blk->n - 1];
	return i->res == v ? i : NULL;
}

Value *
sema_check_math_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	size_t k = 0;
	while (ops[k].fn != fn)
		k++;
	TOp op = ops[k].op;
	const char *name = ops[k].name;
	bool nan = false;
	switch (fn) {
	case BF_FDIV: {
		bool ieee = false;
		if (a[2] && a[2]->kind != VAL_BOOL) {
			diag_error(ck->d, a[2]->span, "ieee_rounding must be True or False at compile "
			           "time, not %s", sema_value_kind_phrase(a[2]));
			return NULL;
		}
		ieee = a[2] && a[2]->u.b;
		return binary(ck, call, ieee ? OP_DIV_RN : OP_FDIV, name, a);
	}
	case BF_DIV_RN: case BF_UMULHI: case BF_CDIV:
		return binary(ck, call, op, name, a);
	case BF_MAXIMUM: case BF_MINIMUM: {
		if (!propagate_nan_arg(ck, a[2], &nan))
			return NULL;
		Value *r = binary(ck, call, op, name, a);
		TInst *i = r ? made_last(ck, r->u.rt) : NULL;
		if (i)
			i->attr.propagate_nan = nan && ir_dtype_is_float(r->u.rt->type->dtype);
		return r;
	}
	case BF_FMA:
		return ternary(ck, call, op, name, a);
	case BF_CLAMP: {
		if (!propagate_nan_arg(ck, a[3], &nan))
			return NULL;
		Value *r = ternary(ck, call, op, name, a);
		if (r)
			made_last(ck, r->u.rt)->attr.propagate_nan = nan;
		return r;
	}
	default:
		return unary(ck, call, op, name, a[0]);
	}
}

/* -- casts --------------------------------------------------------------- */

/* v's elements cast by op (OP_CAST, OP_BITCAST) to elem, a scalar or
 * pointer type. */
static Value *
emit_cast(Check *ck, const Node *call, TOp op, TValue *v, const TType *elem)
{
	TInst *i = sema_emit(ck, op, call->span, sema_type_with_elem(ck, v->type, elem), 1, v);
	i->res->layout_at = v->layout_at;
	return result(ck, i->res, call->span);
}

/* The flags of a cast with pointers on either side: bitcast a compile-time
 * bool, either value (Triton bitcasts pointers by casting them), and no
 * rounding mode. */
static bool
pointer_cast_flags(Check *ck, const Value *rounding, const Value *bitcast)
{
	if (bitcast && bitcast->kind != VAL_BOOL) {
		diag_error(ck->d, bitcast->span, "bitcast must be True or False at compile time, not "
		           "%s", sema_value_kind_phrase(bitcast));
		return false;
	}
	if (rounding && rounding->kind != VAL_NONE) {
		diag_error(ck->d, rounding->span, "fp_downcast_rounding applies only to float "
		           "conversions, not to a pointer cast");
		return false;
	}
	return true;
}

/* p.to(T) of a pointer or tensor of pointers: T = gl.pointer_type(dtype),
 * the same addresses as pointers to dtype; gl.int64, the addresses;
 * gl.int1, whether each is not null; an error for any other T, as in
 * Triton. */
static Value *
pointer_cast(Check *ck, const Node *call, Value *p, Value *to, Value *rounding, Value *bitcast)
{
	if (!pointer_cast_flags(ck, rounding, bitcast))
		return NULL;
	TValue *v = p->u.rt;
	if (to->kind == VAL_TYPE && to->u.type->kind == TY_PTR)
		return to->u.type->dtype == v->type->dtype
		       ? result(ck, v, call->span) : emit_cast(ck, call, OP_BITCAST, v, to->u.type);
	if (to->kind != VAL_DTYPE || (to->u.dtype != DT_I64 && to->u.dtype != DT_I1)) {
		diag_error(ck->d, to->span, "a pointer converts to int64 (its address), int1 (whether "
		           "it is not null) or a pointer type (gl.pointer_type(dtype)), not %s",
		           to->kind == VAL_DTYPE ? ir_dtype_name(to->u.dtype) : sema_value_kind_phrase(to));
		return NULL;
	}
	Value *addr = emit_cast(ck, call, OP_CAST, v, sema_type_scalar(ck, DT_I64));
	if (to->u.dtype == DT_I64)
		return addr;
	Value zero = {.kind = VAL_INT, .span = call->span};
	return sema_check_compare(ck, call->span, CMP_NE, addr, &zero);
}

/* x.to(gl.pointer_type(dtype)): integers (scalars or tensors) as
 * addresses, as Triton's inttoptr; other numbers are an error. */
static Value *
int_to_pointer(Check *ck, const Node *call, Value *x, const TType *to, Value *rounding,
               Value *bitcast)
{
	if (!pointer_cast_flags(ck, rounding, bitcast))
		return NULL;
	TValue *v = sema_materialize(ck, x, DT_VOID);
	if (!v)
		return NULL;
	if (ir_dtype_is_float(v->type->dtype)) {
		diag_error(ck->d, x->span, "only integers convert to a pointer (as addresses), not %s",
		           sema_type_str(ck, v->type));
		return NULL;
	}
	return emit_cast(ck, call, OP_CAST, v, to);
}

Value *
sema_cast_call(Check *ck, const Node *call, Value *x, Value *dtype, Value *rounding,
               Value *bitcast)
{
	TDType to;
	if (x->kind == VAL_RUNTIME && (x->u.rt->type->kind == TY_PTR || x->u.rt->type->elem_is_ptr))
		return pointer_cast(ck, call, x, dtype, rounding, bitcast);
	if (!number_arg(ck, x, "a cast"))
		return NULL;
	if (dtype->kind == VAL_TYPE && dtype->u.type->kind == TY_PTR)
		return int_to_pointer(ck, call, x, dtype->u.type, rounding, bitcast);
	if (!sema_value_dtype(ck, dtype, "the dtype", &to))
		return NULL;
	TValue *v = sema_materialize(ck, x, DT_VOID);
	if (!v)
		return NULL;
	TDType from = v->type->dtype;
	if (bitcast && bitcast->kind != VAL_BOOL) {
		diag_error(ck->d, bitcast->span, "bitcast must be True or False at compile time, not "
		           "%s", sema_value_kind_phrase(bitcast));
		return NULL;
	}
	if (bitcast && bitcast->u.b) {
		if (ir_dtype_bits(from) != ir_dtype_bits(to)) {
			diag_error(ck->d, call->span, "cannot bitcast %s (%d bits) to %s (%d bits): the "
			           "widths must be equal", ir_dtype_name(from), ir_dtype_bits(from),
			           ir_dtype_name(to), ir_dtype_bits(to));
			return NULL;
		}
		if (from == to)
			return result(ck, v, call->span);
		return emit_cast(ck, call, OP_BITCAST, v, sema_type_scalar(ck, to));
	}
	TRound rnd = RND_DEFAULT;
	if (rounding && rounding->kind != VAL_NONE) {
		const char *s = rounding->kind == VAL_STR ? rounding->u.str.s : "";
		size_t n = rounding->kind == VAL_STR ? rounding->u.str.len : 0;
		if (n == 4 && memcmp(s, "rtne", 4) == 0)
			rnd = RND_RTNE;
		else if (n == 3 && memcmp(s, "rtz", 3) == 0)
			rnd = RND_RTZ;
		else {
			diag_error(ck->d, rounding->span, "fp_downcast_rounding must be \"rtne\" or "
			           "\"rtz\"");
			return NULL;
		}
		if (!ir_dtype_is_float(from) || !ir_dtype_is_float(to) ||
		    ir_dtype_bits(to) >= ir_dtype_bits(from)) {
			diag_error(ck->d, rounding->span, "fp_downcast_rounding applies only to float "
			           "conversions that narrow, not %s to %s", ir_dtype_name(from),
			           ir_dtype_name(to));
			return NULL;
		}
		if (rnd == RND_RTZ && to == DT_F8E4M3) {
			diag_error(ck->d, rounding->span, "rounding toward zero to f8e4m3 is not "
			           "supported (Hopper converts to it with rtne only)");
			return NULL;
		}
	}
	TValue *r = sema_cast_to(ck, v, to, call->span);
	if (rnd != RND_DEFAULT && r != v)
		made_last(ck, r)->attr.round = rnd;
	return result(ck, r, call->span);
}
