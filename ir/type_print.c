/*
 * The printed forms of the IR's types: `tensor<f16, [64, 64], ...>`,
 * shapes, layouts by their constructor and by their bases, for the text
 * form (with the printer's aliases) and for diagnostics.
 */
#include "ir/ir_internal.h"

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
