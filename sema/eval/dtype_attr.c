/*
 * The attributes and predicates of a dtype at compile time, as
 * triton.language's dtype has them (`x.dtype.is_floating()`,
 * `x.dtype.primitive_bitwidth`, `x.dtype.int_bitwidth`, ...), which tl
 * code and glc's prelude branch on.
 */
#include "sema/eval/eval.h"

#include <string.h>

static bool
is_sint(TDType t)
{
	return t == DT_I8 || t == DT_I16 || t == DT_I32 || t == DT_I64;
}

static bool
is_uint(TDType t)
{
	return t == DT_I1 || t == DT_U8 || t == DT_U16 || t == DT_U32 || t == DT_U64;
}

/* The predicate `name` of dtype t into *out; false when there is none. */
static bool
predicate(TDType t, const char *name, bool *out)
{
	static const struct { const char *name; TDType t; } exact[] = {
		{"is_fp8e4nv", DT_F8E4M3}, {"is_fp8e5", DT_F8E5M2}, {"is_fp16", DT_F16},
		{"is_bf16", DT_BF16}, {"is_fp32", DT_F32}, {"is_fp64", DT_F64}, {"is_int1", DT_I1},
		{"is_bool", DT_I1}, {"is_int8", DT_I8}, {"is_int16", DT_I16}, {"is_int32", DT_I32},
		{"is_int64", DT_I64}, {"is_uint8", DT_U8}, {"is_uint16", DT_U16},
		{"is_uint32", DT_U32}, {"is_uint64", DT_U64}, {"is_void", DT_VOID},
	};
	for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
		if (strcmp(exact[i].name, name) == 0) {
			*out = t == exact[i].t;
			return true;
		}
	if (strcmp(name, "is_fp8") == 0)
		*out = t == DT_F8E4M3 || t == DT_F8E5M2;
	else if (strcmp(name, "is_fp8e4b8") == 0 || strcmp(name, "is_fp8e4b15") == 0 ||
	         strcmp(name, "is_fp8e5b16") == 0 || strcmp(name, "is_block") == 0 ||
	         strcmp(name, "is_ptr") == 0 || strcmp(name, "is_const") == 0)
		*out = false;
	else if (strcmp(name, "is_floating") == 0)
		*out = ir_dtype_is_float(t);
	else if (strcmp(name, "is_standard_floating") == 0)
		*out = t == DT_F16 || t == DT_BF16 || t == DT_F32 || t == DT_F64;
	else if (strcmp(name, "is_int_signed") == 0)
		*out = is_sint(t);
	else if (strcmp(name, "is_int_unsigned") == 0)
		*out = is_uint(t);
	else if (strcmp(name, "is_int") == 0)
		*out = is_sint(t) || is_uint(t);
	else
		return false;
	return true;
}

/* The mantissa bits of a float dtype (Triton's fp_mantissa_width). */
static int
mantissa(TDType t)
{
	switch (t) {
	case DT_F8E4M3: return 3;
	case DT_F8E5M2: return 2;
	case DT_F16: return 10;
	case DT_BF16: return 7;
	case DT_F32: return 23;
	default: return 52;
	}
}

Value *
sema_dtype_attr(Check *ck, const Node *n, Value *obj)
{
	TDType t = obj->u.dtype;
	const char *name = n->u.attr.name;
	bool b;
	if (predicate(t, name, &b)) {
		Value *m = sema_new_value(&ck->ev, VAL_METHOD, n->span);
		m->u.method.self = obj;
		m->u.method.name = name;
		m->u.method.name_span = n->u.attr.name_span;
		return m;
	}
	if (strcmp(name, "primitive_bitwidth") == 0 || strcmp(name, "int_bitwidth") == 0)
		return sema_int_value(&ck->ev, ir_dtype_bits(t), n->span);
	if (strcmp(name, "itemsize") == 0)
		return sema_int_value(&ck->ev, (ir_dtype_bits(t) + 7) / 8, n->span);
	if (strcmp(name, "fp_mantissa_width") == 0 && ir_dtype_is_float(t))
		return sema_int_value(&ck->ev, mantissa(t), n->span);
	if (strcmp(name, "value") == 0 || strcmp(name, "scalar") == 0)
		return obj;
	return NULL;
}

Value *
sema_dtype_method_call(Check *ck, const Node *call, Value *m)
{
	bool b;
	if (call->u.call.args.len || call->u.call.kwargs.len) {
		diag_error(ck->d, call->span, "dtype.%s() takes no arguments", m->u.method.name);
		return NULL;
	}
	predicate(m->u.method.self->u.dtype, m->u.method.name, &b);
	Value *v = sema_new_value(&ck->ev, VAL_BOOL, call->span);
	v->u.b = b;
	return v;
}
