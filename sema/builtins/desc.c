/*
 * tma.make_tensor_descriptor: a descriptor the kernel builds from a
 * pointer, runtime shape and strides, a block shape and an
 * NVMMASharedLayout, checked as Triton 3.6's Gluon checks it (rank 1 to 5,
 * one stride per dim with the last the constant 1, at least 16 bytes in the
 * last block dim, "zero" or "nan" padding, NaN only for floats). The
 * descriptor's fields are its operands: the base, the extents as i32, the
 * leading strides as i64 (OP_MAKE_DESC). The descriptor types are
 * sema/eval/types.c's.
 */
#include "sema/builtins/builtins.h"

#include <string.h>

/* The items of a list or tuple argument; NULL after a diagnostic. */
static Value **
items(Check *ck, Value *v, const char *what, int *n)
{
	if (v->kind != VAL_LIST && v->kind != VAL_TUPLE) {
		diag_error(ck->d, v->span, "tma.make_tensor_descriptor's %s must be a list, not %s",
		           what, sema_value_kind_phrase(v));
		return NULL;
	}
	*n = (int)v->u.list.n;
	return v->u.list.items;
}

/* padding_option: "zero" (false) or "nan" (true). */
static bool
nan_padding(Check *ck, const Value *v, TDType dt, bool *nan)
{
	*nan = false;
	if (!v || v->kind == VAL_NONE)
		return true;
	bool zero = v->kind == VAL_STR && v->u.str.len == 4 && memcmp(v->u.str.s, "zero", 4) == 0;
	*nan = v->kind == VAL_STR && v->u.str.len == 3 && memcmp(v->u.str.s, "nan", 3) == 0;
	if (!zero && !*nan) {
		diag_error(ck->d, v->span, "padding_option must be \"zero\" or \"nan\", not %s",
		           v->kind == VAL_STR ? arena_printf(ck->a, "\"%.*s\"", (int)v->u.str.len,
		                                             v->u.str.s) : sema_value_kind_phrase(v));
		return false;
	}
	if (*nan && !ir_dtype_is_float(dt)) {
		diag_error(ck->d, v->span, "padding_option \"nan\" is not supported for integer "
		           "blocks (%s)", ir_dtype_name(dt));
		return false;
	}
	return true;
}

/* The layout argument: an NVMMASharedLayout, not transposed (the global
 * tensor's last dim is its contiguous one). */
static const LLDesc *
desc_layout(Check *ck, Value *v)
{
	const LLDesc *l = sema_value_layout(ck, v, "tma.make_tensor_descriptor's layout", true);
	if (!l)
		return NULL;
	if (l->kind != LL_NVMMA_SHARED) {
		diag_error(ck->d, v->span, "tma.make_tensor_descriptor's layout must be an "
		           "NVMMASharedLayout");
		return NULL;
	}
	if (l->transposed) {
		diag_error(ck->d, v->span, "tma.make_tensor_descriptor needs an NVMMASharedLayout "
		           "with transposed=False: the tensor's last dim (stride 1) is the one TMA "
		           "keeps contiguous");
		return NULL;
	}
	return l;
}

Value *
sema_make_desc(Check *ck, const Node *call, Value **a)
{
	Value *base = a[0];
	if (base->kind != VAL_RUNTIME || base->u.rt->type->kind != TY_PTR) {
		diag_error(ck->d, base->span, "tma.make_tensor_descriptor's base must be a pointer, "
		           "not %s", base->kind == VAL_RUNTIME ? sema_type_str(ck, base->u.rt->type)
		                                               : sema_value_kind_phrase(base));
		return NULL;
	}
	TDType dt = base->u.rt->type->dtype;
	int n, n_strides, n_block;
	Value **shape = items(ck, a[1], "shape", &n), **strides;
	if (!shape || !(strides = items(ck, a[2], "strides", &n_strides)))
		return NULL;
	if (n < 1 || n > 5) {
		diag_error(ck->d, a[1]->span, "expected 1 <= ndim <= 5 but got %d dimensions", n);
		return NULL;
	}
	if (n_strides != n) {
		diag_error(ck->d, a[2]->span, "expected %d strides but got %d", n, n_strides);
		return NULL;
	}
	int64_t block[LL_MAX_RANK + 1], last;
	if (!sema_value_shape(ck, a[3], "tma.make_tensor_descriptor's block_shape", block,
	                      &n_block))
		return NULL;
	if (n_block != n) {
		diag_error(ck->d, a[3]->span, "expected block_shape to have %d dimensions but got %d",
		           n, n_block);
		return NULL;
	}
	int bytes = ir_dtype_bits(dt) / 8;
	if (bytes < 1 || block[n - 1] * bytes < 16) {
		diag_error(ck->d, a[3]->span, "the descriptor's block must have at least 16 bytes "
		           "in the last dimension, but got %lld * %d = %lld bytes",
		           (long long)block[n - 1], bytes, (long long)(block[n - 1] * bytes));
		return NULL;
	}
	if (strides[n - 1]->kind == VAL_RUNTIME || !sema_value_int(ck, strides[n - 1],
	                                                         "the last stride", &last) ||
	    last != 1) {
		diag_error(ck->d, strides[n - 1]->span, "the tensor descriptor's last stride must "
		           "be the constant 1");
		return NULL;
	}
	const LLDesc *layout = desc_layout(ck, a[4]);
	bool nan;
	TType *t = layout ? sema_desc_type(ck, dt, block, n, layout, a[4]->span) : NULL;
	if (!t || !nan_padding(ck, a[5], dt, &nan))
		return NULL;
	TValue **args = arena_alloc(ck->a, (size_t)(2 * n) * sizeof *args);
	args[0] = base->u.rt;
	for (int d = 0; d < n; d++)
		if (!(args[1 + d] = sema_int_operand(ck, shape[d], "a descriptor extent", DT_I32)))
			return NULL;
	for (int d = 0; d + 1 < n; d++)
		if (!(args[1 + n + d] = sema_int_operand(ck, strides[d], "a descriptor stride",
		                                         DT_I64)))
			return NULL;
	TInst *i = sema_emit(ck, OP_MAKE_DESC, call->span, t, 0);
	i->args = args;
	i->n_args = 2 * n;
	i->attr.nan_fill = nan;
	return sema_rt_value(ck, i->res, call->span);
}
