/*
 * Dtypes and types of the typed program: names, widths, Triton's promotion
 * rules for mixed arithmetic, equality (layouts compared as maps) and the
 * printed form.
 */
#include "sema/check.h"

#include <string.h>

TDType
sema_dtype_promote(TDType a, TDType b)
{
	if (a == b)
		return a;
	bool fa = ir_dtype_is_float(a), fb = ir_dtype_is_float(b);
	if (fa && fb) {
		int ba = ir_dtype_bits(a), bb = ir_dtype_bits(b);
		if (ba != bb)
			return ba > bb ? a : b;
		return DT_F32;   /* f16 with bf16, or the two f8 kinds */
	}
	if (fa || fb)
		return fa ? a : b;
	if (a == DT_I1 || b == DT_I1)
		return a == DT_I1 ? b : a;
	int ba = ir_dtype_bits(a), bb = ir_dtype_bits(b);
	if (ir_dtype_is_unsigned(a) == ir_dtype_is_unsigned(b))
		return ba >= bb ? a : b;
	TDType u = ir_dtype_is_unsigned(a) ? a : b, s = ir_dtype_is_unsigned(a) ? b : a;
	return ir_dtype_bits(u) >= ir_dtype_bits(s) ? u : s;
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
	ir_type_print(t, &b);
	char *s = arena_strndup(ck->a, b.s ? b.s : "", b.len);
	buf_free(&b);
	return s;
}
