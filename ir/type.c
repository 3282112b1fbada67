/*
 * Dtypes and types of the IR: names and widths, equality (layouts compared
 * as maps, and shared ones by their padding too) and the printed form of
 * types, shapes and layouts.
 */
#include "ir/ir_internal.h"

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
ir_dtype_name(TDType t)
{
	return dtypes[t].name;
}

int
ir_dtype_bits(TDType t)
{
	return dtypes[t].bits;
}

bool
ir_dtype_is_float(TDType t)
{
	return t >= DT_F16 && t <= DT_F8E5M2;
}

bool
ir_dtype_is_signed(TDType t)
{
	return t >= DT_I8 && t <= DT_I64;
}

bool
ir_dtype_is_unsigned(TDType t)
{
	return t >= DT_U8 && t <= DT_U64;
}

bool
ir_type_equal(const TType *a, const TType *b)
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
			if (!ir_type_equal(a->elems[i], b->elems[i]))
				return false;
		return true;
	}
	if (a->kind == TY_SMEM || a->kind == TY_DESC) {
		LLPadding pa = ll_desc_padding(a->layout.desc), pb = ll_desc_padding(b->layout.desc);
		if (!ll_padding_equal(&pa, &pb))
			return false;
	}
	if (a->kind == TY_SMEM &&
	    memcmp(a->view_at, b->view_at, (size_t)a->rank * sizeof *a->view_at) != 0)
		return false;
	if (a->kind == TY_TENSOR || a->kind == TY_SMEM || a->kind == TY_DESC)
		return ll_equal(&a->layout.ll, &b->layout.ll);
	return true;
}

bool
ir_same_shape(const TType *a, const TType *b)
{
	return a->rank == b->rank &&
	       memcmp(a->shape, b->shape, (size_t)a->rank * sizeof *a->shape) == 0;
}

int64_t
ir_smem_extent(const TType *t)
{
	LLPadding pad = ll_desc_padding(t->layout.desc);
	int64_t n = ir_smem_span(t);
	return n == INT64_MAX ? INT64_MAX : ll_padded_size(&pad, n);
}

void
ir_shape_print(const int64_t *shape, int rank, StrBuf *out)
{
	buf_putc(out, '[');
	for (int i = 0; i < rank; i++)
		buf_printf(out, "%s%lld", i ? ", " : "", (long long)shape[i]);
	buf_putc(out, ']');
}

void
ir_layout_print(const TLayout *l, StrBuf *out)
{
	if (l->desc)
		ll_desc_print(l->desc, out);
	else
		buf_puts(out, "?");
}

void
ir_layout_print_bases(const LLayout *l, StrBuf *out)
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

bool
ir_type_has_layout(const TType *t)
{
	return t->kind == TY_TENSOR || t->kind == TY_SMEM || t->kind == TY_MBARRIER ||
	       t->kind == TY_DESC;
}

int
ir_layout_shape(const int64_t *shape, int rank, const LLayout *ll, int64_t *out)
{
	int n = ll->n_out < rank ? ll->n_out : rank;
	memcpy(out, shape + (rank - n), (size_t)n * sizeof *shape);
	return n;
}

void
ir_type_print_with(const TType *t, IrLayoutFn layout, void *ctx, StrBuf *out)
{
	switch (t->kind) {
	case TY_VOID: buf_puts(out, "void"); return;
	case TY_SCALAR: buf_puts(out, ir_dtype_name(t->dtype)); return;
	case TY_PTR: buf_printf(out, "ptr<%s>", ir_dtype_name(t->dtype)); return;
	case TY_TENSOR:
		buf_puts(out, "tensor<");
		if (t->elem_is_ptr)
			buf_printf(out, "ptr<%s>", ir_dtype_name(t->dtype));
		else
			buf_puts(out, ir_dtype_name(t->dtype));
		buf_puts(out, ", ");
		ir_shape_print(t->shape, t->rank, out);
		buf_puts(out, ", ");
		layout(ctx, &t->layout, t, out);
		buf_putc(out, '>');
		return;
	case TY_SMEM:
	case TY_MBARRIER:
		buf_printf(out, "%s<%s, ", t->kind == TY_SMEM ? "smem" : "mbarrier",
		           ir_dtype_name(t->dtype));
		ir_shape_print(t->shape, t->rank, out);
		buf_puts(out, ", ");
		layout(ctx, &t->layout, t, out);
		buf_printf(out, ", alloc %d", t->alloc);
		if (ir_smem_strided(t)) {
			buf_puts(out, ", at ");
			ir_shape_print(t->view_at, t->rank, out);
		}
		buf_putc(out, '>');
		return;
	case TY_DESC:
		buf_printf(out, "tensor_desc<%s, ", ir_dtype_name(t->dtype));
		ir_shape_print(t->shape, t->rank, out);
		buf_puts(out, ", ");
		layout(ctx, &t->layout, t, out);
		buf_putc(out, '>');
		return;
	case TY_TUPLE:
		buf_putc(out, '(');
		for (int i = 0; i < t->n_elems; i++) {
			if (i)
				buf_puts(out, ", ");
			ir_type_print_with(t->elems[i], layout, ctx, out);
		}
		buf_putc(out, ')');
		return;
	}
}

static void
constructor_text(void *ctx, const TLayout *l, const TType *t, StrBuf *out)
{
	(void)ctx;
	(void)t;
	ir_layout_print(l, out);
}

void
ir_type_print(const TType *t, StrBuf *out)
{
	ir_type_print_with(t, constructor_text, NULL, out);
}
