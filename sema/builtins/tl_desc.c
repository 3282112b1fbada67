/*
 * triton.language's tensor descriptors: tl.make_tensor_descriptor (the
 * shared layout NVMMASharedLayout.get_default_for(block_shape, dtype), as
 * Triton gives a descriptor it makes in the kernel and compile.py one of a
 * `tensordesc<...>` argument), desc.load / tl.load_tensor_descriptor and
 * desc.store / tl.store_tensor_descriptor, composed from the Hopper
 * builtins as Triton lowers them without pipelining:
 *
 *   load:  a shared buffer in the descriptor's layout and an mbarrier;
 *          init, expect the block's bytes, TMA copy, wait for phase 0,
 *          invalidate; the buffer read into registers (the layout left to
 *          inference);
 *   store: the value stored into a shared buffer in the descriptor's
 *          layout, fence_async_shared, TMA copy out, wait for it.
 *
 * The membar pass orders a buffer reused by the next trip of a loop.
 */
#include "sema/builtins/builtins.h"

static Value *
int_value(Check *ck, int64_t i, SrcSpan at)
{
	return sema_int_value(&ck->ev, i, at);
}

static Value *
dtype_value(Check *ck, TDType t, SrcSpan at)
{
	Value *v = sema_new_value(&ck->ev, VAL_DTYPE, at);
	v->u.dtype = t;
	return v;
}

/* A fresh shared buffer shaped like descriptor d's block, in its layout,
 * holding value (NULL: nothing yet). */
static Value *
block_buffer(Check *ck, const Node *call, const TType *d, Value *value)
{
	Value *shape[LL_MAX_RANK];
	for (int k = 0; k < d->rank; k++)
		shape[k] = int_value(ck, d->shape[k], call->span);
	Value *layout = sema_new_value(&ck->ev, VAL_LAYOUT, call->span);
	layout->u.layout = d->layout.desc;
	Value *a[4] = {dtype_value(ck, d->dtype, call->span),
	               sema_list_value(&ck->ev, VAL_LIST, shape, (size_t)d->rank, call->span), layout,
	               value};
	return sema_smem_alloc(ck, call, a);
}

/* A Hopper builtin with its arguments a (NULL-padded). */
static bool
hopper(Check *ck, const Node *call, BuiltinFn fn, Value *a0, Value *a1, Value *a2, Value *a3)
{
	Value *a[SEMA_MAX_BUILTIN_PARAMS] = {a0, a1, a2, a3};
	return sema_check_hopper_call(ck, call, fn, a) != NULL;
}

static bool
want_desc(Check *ck, const Value *v, const char *fname)
{
	if (v->kind == VAL_RUNTIME && v->u.rt->type->kind == TY_DESC)
		return true;
	diag_error(ck->d, v->span, "%s needs a tensor descriptor, not %s", fname,
	           v->kind == VAL_RUNTIME ? sema_type_str(ck, v->u.rt->type)
	                                  : sema_value_kind_phrase(v));
	return false;
}

static Value *
desc_load(Check *ck, const Node *call, Value *desc, Value *offsets)
{
	if (!want_desc(ck, desc, "desc.load"))
		return NULL;
	const TType *d = desc->u.rt->type;
	int64_t bytes = ir_dtype_bits(d->dtype) / 8;
	for (int k = 0; k < d->rank; k++)
		bytes *= d->shape[k];
	Value *smem = block_buffer(ck, call, d, NULL);
	Value *none[2] = {NULL, NULL};
	Value *bar = smem ? sema_check_hopper_call(ck, call, BF_MBAR_ALLOC, none) : NULL;
	if (!bar || !hopper(ck, call, BF_MBAR_INIT, bar, int_value(ck, 1, call->span), NULL, NULL) ||
	    !hopper(ck, call, BF_MBAR_EXPECT, bar, int_value(ck, bytes, call->span), NULL, NULL) ||
	    !hopper(ck, call, BF_TMA_LOAD, desc, offsets, bar, smem) ||
	    !hopper(ck, call, BF_MBAR_WAIT, bar, int_value(ck, 0, call->span), NULL, NULL) ||
	    !hopper(ck, call, BF_MBAR_INVALIDATE, bar, NULL, NULL, NULL))
		return NULL;
	Value *layout[SEMA_MAX_BUILTIN_PARAMS] = {NULL};
	Value *r = sema_check_smem_method(ck, call, BF_SMEM_LOAD, smem, layout);
	return r ? sema_rt_value(ck, sema_soft_result(ck, call->span, r->u.rt), call->span) : NULL;
}

static Value *
desc_store(Check *ck, const Node *call, Value *desc, Value *offsets, Value *value)
{
	if (!want_desc(ck, desc, "desc.store"))
		return NULL;
	const TType *d = desc->u.rt->type;
	TValue *v = sema_materialize(ck, value, d->dtype);
	if (!v)
		return NULL;
	v = sema_cast_to(ck, v, d->dtype, value->span);
	if (v->type->kind != TY_TENSOR || !ir_same_shape(v->type, d)) {
		diag_error(ck->d, value->span, "desc.store's value must be a tensor of the "
		           "descriptor's block shape (%s), not %s", sema_type_str(ck, d),
		           sema_type_str(ck, v->type));
		return NULL;
	}
	Value *smem = block_buffer(ck, call, d, sema_rt_value(ck, v, value->span));
	if (!smem || !hopper(ck, call, BF_FENCE_ASYNC_SHARED, NULL, NULL, NULL, NULL) ||
	    !hopper(ck, call, BF_TMA_STORE, desc, offsets, smem, NULL) ||
	    !hopper(ck, call, BF_TMA_STORE_WAIT, int_value(ck, 0, call->span), NULL, NULL, NULL))
		return NULL;
	return sema_new_value(&ck->ev, VAL_NONE, call->span);
}

/* tl.make_tensor_descriptor(base, shape, strides, block_shape,
 * padding_option="zero"): tma.make_tensor_descriptor's with the default
 * NVMMASharedLayout of the block. */
static Value *
make_desc(Check *ck, const Node *call, Value **a)
{
	if (a[0]->kind != VAL_RUNTIME || a[0]->u.rt->type->kind != TY_PTR) {
		diag_error(ck->d, a[0]->span, "tl.make_tensor_descriptor's base must be a pointer, "
		           "not %s", a[0]->kind == VAL_RUNTIME ? sema_type_str(ck, a[0]->u.rt->type)
		                                               : sema_value_kind_phrase(a[0]));
		return NULL;
	}
	Value *def[4] = {a[3], dtype_value(ck, a[0]->u.rt->type->dtype, call->span)};
	Value *layout = sema_nvmma_default(ck, call, def);
	if (!layout)
		return NULL;
	Value *g[6] = {a[0], a[1], a[2], a[3], layout, a[4]};
	return sema_make_desc(ck, call, g);
}

Value *
sema_check_tl_desc_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	switch (fn) {
	case BF_TL_MAKE_DESC: return make_desc(ck, call, a);
	case BF_DESC_LOAD: return desc_load(ck, call, a[0], a[1]);
	case BF_DESC_STORE: return desc_store(ck, call, a[0], a[1], a[2]);
	default:
		diag_error(ck->d, call->span, "the atomic reductions of tensor descriptors (TMA "
		           "reduce) are not supported by glc");
		return NULL;
	}
}
