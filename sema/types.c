/*
 * Dtypes and types of the typed program: names, widths, Triton's promotion
 * rules for mixed arithmetic, equality (layouts compared as maps) and the
 * printed form.
 */
#include "sema/check.h"

#include <string.h>

static const struct { const char *name; int bits; } dtypes[DT_COUNT] = {
	[DT_VOID] = {"void", 0}, [DT_I1] = {"i1", 1}, [DT_I8] = {"i8", 8},
	[DT_I16] = {"i16", 16}, [DT_I32] = {"i32", 32}, [DT_I64] = {"i64", 64},
	[DT_U8] = {"u8", 8}, [DT_U16] = {"u16", 16}, [DT_U32] = {"u32", 32},
	[DT_U64] = {"u64", 64}, [DT_F16] = {"f16", 16}, [DT_BF16] = {"bf16", 16},
	[DT_F32] = {"f32", 32}, [DT_F64] = {"f64", 64}, [DT_F8E4M3] = {"f8e4m3", 8},
	[DT_F8E5M2] = {"f8e5m2", 8},
};

const char *
tir_dtype_name(TDType t)
{
	return dtypes[t].name;
}

int
tir_dtype_bits(TDType t)
{
	return dtypes[t].bits;
}

bool
tir_dtype_is_float(TDType t)
{
	return t >= DT_F16 && t <= DT_F8E5M2;
}

bool
tir_dtype_is_signed(TDType t)
{
	return t >= DT_I8 && t <= DT_I64;
}

static bool
is_unsigned(TDType t)
{
	return t >= DT_U8 && t <= DT_U64;
}

TDType
dtype_promote(TDType a, TDType b)
{
	if (a == b)
		return a;
	bool fa = tir_dtype_is_float(a), fb = tir_dtype_is_float(b);
	if (fa && fb) {
		int ba = tir_dtype_bits(a), bb = tir_dtype_bits(b);
		if (ba != bb)
			return ba > bb ? a : b;
		return DT_F32;   /* f16 with bf16, or the two f8 kinds */
	}
	if (fa || fb)
		return fa ? a : b;
	if (a == DT_I1 || b == DT_I1)
		return a == DT_I1 ? b : a;
	int ba = tir_dtype_bits(a), bb = tir_dtype_bits(b);
	if (is_unsigned(a) == is_unsigned(b))
		return ba >= bb ? a : b;
	TDType u = is_unsigned(a) ? a : b, s = is_unsigned(a) ? b : a;
	return tir_dtype_bits(u) >= tir_dtype_bits(s) ? u : s;
}

bool
tir_type_equal(const TType *a, const TType *b)
{
	if (a == b)
		return true;
	if (a->kind != b->kind || a->dtype != b->dtype || a->elem_is_ptr != b->elem_is_ptr ||
	    a->rank != b->rank)
		return false;
	for (int i = 0; i < a->rank; i++)
		if (a->shape[i] != b->shape[i])
			return false;
	if (a->kind == TY_TUPLE) {
		if (a->n_elems != b->n_elems)
			return false;
		for (int i = 0; i < a->n_elems; i++)
			if (!tir_type_equal(a->elems[i], b->elems[i]))
				return false;
		return true;
	}
	if (a->kind == TY_TENSOR || a->kind == TY_SMEM || a->kind == TY_DESC)
		return ll_equal(&a->layout.ll, &b->layout.ll);
	return true;
}

bool
type_same_shape(const TType *a, const TType *b)
{
	return a->rank == b->rank &&
	       memcmp(a->shape, b->shape, (size_t)a->rank * sizeof *a->shape) == 0;
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
type_scalar(Check *ck, TDType t)
{
	return simple_type(ck, TY_SCALAR, t);
}

const TType *
type_ptr(Check *ck, TDType pointee)
{
	return simple_type(ck, TY_PTR, pointee);
}

const TType *
type_void(Check *ck)
{
	return simple_type(ck, TY_VOID, (TDType)0);
}

TType *
type_with_elem(Check *ck, const TType *like, const TType *elem)
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
type_elem(Check *ck, const TType *t)
{
	if (t->kind != TY_TENSOR)
		return t;
	return t->elem_is_ptr ? type_ptr(ck, t->dtype) : type_scalar(ck, t->dtype);
}

void
type_print_shape(const int64_t *shape, int rank, StrBuf *out)
{
	buf_putc(out, '[');
	for (int i = 0; i < rank; i++)
		buf_printf(out, "%s%lld", i ? ", " : "", (long long)shape[i]);
	buf_putc(out, ']');
}

void
layout_print(const TLayout *l, StrBuf *out)
{
	if (l->desc)
		ll_desc_print(l->desc, out);
	else
		buf_puts(out, "?");
}

void
layout_print_bases(const LLayout *l, StrBuf *out)
{
	for (int i = 0; i < l->n_in; i++) {
		buf_printf(out, "%s%s=[", i ? " " : "", ll_name_str((LLName)l->in_name[i]));
		for (int b = 0; b < l->in_bits[i]; b++) {
			uint32_t v[LL_MAX_DIMS];
			ll_get_basis(l, i, b, v);
			buf_printf(out, "%s[", b ? "," : "");
			for (int j = 0; j < l->n_out; j++)
				buf_printf(out, "%s%u", j ? "," : "", v[j]);
			buf_putc(out, ']');
		}
		buf_putc(out, ']');
	}
}

void
type_print(const TType *t, StrBuf *out)
{
	switch (t->kind) {
	case TY_VOID: buf_puts(out, "void"); return;
	case TY_SCALAR: buf_puts(out, tir_dtype_name(t->dtype)); return;
	case TY_PTR: buf_printf(out, "ptr<%s>", tir_dtype_name(t->dtype)); return;
	case TY_TENSOR:
		buf_puts(out, "tensor<");
		if (t->elem_is_ptr)
			buf_printf(out, "ptr<%s>", tir_dtype_name(t->dtype));
		else
			buf_puts(out, tir_dtype_name(t->dtype));
		buf_puts(out, ", ");
		type_print_shape(t->shape, t->rank, out);
		buf_puts(out, ", ");
		layout_print(&t->layout, out);
		buf_putc(out, '>');
		return;
	case TY_SMEM:
	case TY_MBARRIER:
		buf_printf(out, "%s<%s, ", t->kind == TY_SMEM ? "smem" : "mbarrier",
		           tir_dtype_name(t->dtype));
		type_print_shape(t->shape, t->rank, out);
		buf_puts(out, ", ");
		layout_print(&t->layout, out);
		buf_printf(out, ", alloc %d>", t->alloc);
		return;
	case TY_DESC:
		buf_printf(out, "tensor_desc<%s, ", tir_dtype_name(t->dtype));
		type_print_shape(t->shape, t->rank, out);
		buf_puts(out, ", ");
		layout_print(&t->layout, out);
		buf_putc(out, '>');
		return;
	case TY_TUPLE:
		buf_putc(out, '(');
		for (int i = 0; i < t->n_elems; i++) {
			if (i)
				buf_puts(out, ", ");
			type_print(t->elems[i], out);
		}
		buf_putc(out, ')');
		return;
	}
}

const char *
type_str(Check *ck, const TType *t)
{
	StrBuf b = {0};
	type_print(t, &b);
	char *s = arena_strndup(ck->a, b.s ? b.s : "", b.len);
	buf_free(&b);
	return s;
}
