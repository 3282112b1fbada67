/*
 * Gluon's class hierarchy, as Triton 3.6 has it, for isinstance: the value
 * classes (gl.base_value > gl.tensor, gl.shared_memory_descriptor,
 * gl.tuple, tma.tensor_descriptor, warpgroup_mma_accumulator), the type
 * classes (gl.base_type > gl.dtype > gl.block_type > gl.distributed_type;
 * gl.dtype > gl.pointer_type; gl.base_type > gl.tuple_type,
 * gl.shared_memory_descriptor_type, tma.tensor_descriptor_type,
 * warpgroup_mma_accumulator_type) and the layout base classes
 * (DistributedLayout, SharedLayout). Their constructors are
 * sema/eval/typeclass.c's.
 */
#include "sema/value/value.h"

/* The class a class derives from (BF_NONE: a root). */
static BuiltinFn
parent(BuiltinFn c)
{
	switch (c) {
	case BF_CLS_TENSOR: case BF_CLS_SMEM: case BF_CLS_TUPLE: case BF_CLS_DESC:
	case BF_CLS_WGMMA_ACC:
		return BF_CLS_BASE_VALUE;
	case BF_CLS_DTYPE: case BF_CLS_TUPLE_TYPE: case BF_CLS_SMEM_TYPE: case BF_CLS_DESC_TYPE:
	case BF_CLS_WGMMA_ACC_TYPE:
		return BF_CLS_BASE_TYPE;
	case BF_CLS_BLOCK_TYPE: case BF_CLS_POINTER_TYPE: return BF_CLS_DTYPE;
	case BF_CLS_DISTRIBUTED_TYPE: return BF_CLS_BLOCK_TYPE;
	default: return BF_NONE;
	}
}

static BuiltinFn
type_class(const TType *t)
{
	switch (t->kind) {
	case TY_VOID: case TY_SCALAR: return BF_CLS_DTYPE;
	case TY_PTR: return BF_CLS_POINTER_TYPE;
	case TY_TENSOR: return t->layout.desc ? BF_CLS_DISTRIBUTED_TYPE : BF_CLS_BLOCK_TYPE;
	case TY_SMEM: case TY_MBARRIER: return BF_CLS_SMEM_TYPE;
	case TY_DESC: return BF_CLS_DESC_TYPE;
	case TY_TUPLE: return BF_CLS_TUPLE_TYPE;
	}
	return BF_NONE;
}

/* The most derived Gluon class of v (BF_NONE: a plain Python value). */
static BuiltinFn
class_of(const Value *v)
{
	switch (v->kind) {
	case VAL_RUNTIME:
		switch (v->u.rt->type->kind) {
		case TY_SCALAR: case TY_PTR: case TY_TENSOR: return BF_CLS_TENSOR;
		case TY_SMEM: case TY_MBARRIER: return BF_CLS_SMEM;
		case TY_DESC: return BF_CLS_DESC;
		default: return BF_NONE;
		}
	case VAL_TUPLE: return v->u.list.cls ? BF_CLS_BASE_VALUE : BF_CLS_TUPLE;
	case VAL_LIST: return BF_CLS_TUPLE;   /* a list in a kernel is a gl.tuple */
	case VAL_DTYPE: return BF_CLS_DTYPE;
	case VAL_WGMMA_ACC: return BF_CLS_WGMMA_ACC;
	case VAL_WGMMA_ACC_TYPE: return BF_CLS_WGMMA_ACC_TYPE;
	case VAL_BUILTIN:
		return sema_builtin_dtype(v->u.builtin) != DT_VOID ||
		       sema_builtin_fn(v->u.builtin) == BF_VOID ? BF_CLS_DTYPE : BF_NONE;
	case VAL_TYPE: return type_class(v->u.type);
	case VAL_LAYOUT:
		return ll_desc_is_shared(v->u.layout) ? BF_CLS_SHARED_LAYOUT
		                                      : BF_CLS_DISTRIBUTED_LAYOUT;
	case VAL_AUTO_LAYOUT: return BF_CLS_DISTRIBUTED_LAYOUT;
	default: return BF_NONE;
	}
}

bool
sema_is_class_instance(const Value *v, BuiltinFn cls)
{
	for (BuiltinFn c = class_of(v); c != BF_NONE; c = parent(c))
		if (c == cls)
			return true;
	return false;
}
