/*
 * Types of the typed program as sema makes them, and Triton 3.6's dtype
 * promotion for mixed arithmetic (python/triton/language/semantic.py:
 * computation_type_impl, integer_promote_impl, to_tensor_type).
 */
#include "sema/check.h"

#include <string.h>

/* Triton's dtype kinds, in the order its promotion compares them
 * (dtype.kind(): signed and unsigned integers are one kind, so a Python
 * int next to a u16 tensor stays u16). */
enum { KIND_BOOL, KIND_INT, KIND_FLOAT };

static int
kind(TDType t)
{
	return t == DT_I1 ? KIND_BOOL : ir_dtype_is_float(t) ? KIND_FLOAT : KIND_INT;
}

/* i1 counts as unsigned, as in Triton. */
static bool
is_unsigned_int(TDType t)
{
	return t == DT_I1 || ir_dtype_is_unsigned(t);
}

TDType
sema_integer_promote(TDType a, TDType b)
{
	int ra = ir_dtype_bits(a), rb = ir_dtype_bits(b);
	bool ua = is_unsigned_int(a), ub = is_unsigned_int(b);
	if (ua == ub)
		return ra > rb ? a : b;
	if (ua)
		return ra >= rb ? a : b;
	return rb >= ra ? b : a;
}

TDType
sema_computation_type(TDType a, bool a_lit, TDType b, bool b_lit, bool div_or_mod)
{
	/* 0) a Python number of a lower or equal kind takes the tensor's type */
	if (a_lit != b_lit) {
		TDType lit = a_lit ? a : b, ten = a_lit ? b : a;
		if (kind(lit) <= kind(ten))
			return div_or_mod && (ten == DT_F16 || ten == DT_BF16) ? DT_F32 : ten;
	}
	if (a == DT_F64 || b == DT_F64)
		return DT_F64;
	if (a == DT_F32 || b == DT_F32)
		return DT_F32;
	if (a == DT_F16 || b == DT_F16)
		return div_or_mod ? DT_F32 : DT_F16;
	if (a == DT_BF16 && b == DT_BF16)
		return div_or_mod ? DT_F32 : DT_BF16;
	if (a == DT_BF16 || b == DT_BF16)
		return DT_F32;
	bool fa = a == DT_F8E4M3 || a == DT_F8E5M2, fb = b == DT_F8E4M3 || b == DT_F8E5M2;
	if (fa && fb)
		return a == b ? a : DT_F16;
	if (fa || fb || ir_dtype_is_float(a) || ir_dtype_is_float(b))
		return DT_VOID;
	if (div_or_mod && is_unsigned_int(a) != is_unsigned_int(b))
		return DT_VOID;
	return sema_integer_promote(a, b);
}

TDType
sema_literal_dtype(const Value *v)
{
	if (v->kind == VAL_BOOL)
		return DT_I1;
	if (v->kind == VAL_FLOAT) {
		double x = v->u.f < 0 ? -v->u.f : v->u.f;
		bool f32 = x == 0 || x != x || x == 1.0 / 0.0 ||
		           (x >= 0x1p-126 && x <= 0x1.fffffep127);
		return f32 ? DT_F32 : DT_F64;
	}
	int64_t i = v->u.i;
	return i >= INT32_MIN && i <= INT32_MAX ? DT_I32 : i >= 0 && i <= UINT32_MAX ? DT_U32
	                                                                             : DT_I64;
}

/* A fresh type with only a kind and a dtype. */
static const TType *
simple_type(Check *ck, TTypeKind kind, TDType dtype)
{
	TType *ty = arena_alloc(ck->a, sizeof *ty);
	ty->kind = kind;
	ty->dtype = dtype;
	return ty;
}

const TType *
sema_type_scalar(Check *ck, TDType t)
{
	return simple_type(ck, TY_SCALAR, t);
}

const TType *
sema_type_ptr(Check *ck, TDType pointee)
{
	return simple_type(ck, TY_PTR, pointee);
}

const TType *
sema_type_void(Check *ck)
{
	return simple_type(ck, TY_VOID, (TDType)0);
}

TType *
sema_type_with_elem(Check *ck, const TType *like, const TType *elem)
{
	TType *ty = arena_alloc(ck->a, sizeof *ty);
	*ty = *like;
	if (like->kind != TY_TENSOR) {
		*ty = *elem;
		return ty;
	}
	ty->dtype = elem->dtype;
	ty->elem_is_ptr = elem->kind == TY_PTR;
	return ty;
}

const TType *
sema_type_elem(Check *ck, const TType *t)
{
	if (t->kind != TY_TENSOR)
		return t;
	return t->elem_is_ptr ? sema_type_ptr(ck, t->dtype) : sema_type_scalar(ck, t->dtype);
}

const char *
sema_type_str(Check *ck, const TType *t)
{
	StrBuf b = {0};
	if (t->kind == TY_TENSOR && !t->layout.desc) {   /* a block_type */
		buf_printf(&b, "block_type<%s, ", ir_dtype_name(t->dtype));
		ir_shape_print(t->shape, t->rank, &b);
		buf_putc(&b, '>');
	} else
		ir_type_print(t, &b);
	char *s = arena_strndup(ck->a, b.s ? b.s : "", b.len);
	buf_free(&b);
	return s;
}
