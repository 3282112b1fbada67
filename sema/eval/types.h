/*
 * The types sema makes (sema/eval/types.c: scalars, pointers, tensors and
 * shared buffers with their layouts fitted, descriptors, block types; and
 * Triton's dtype promotion), and Gluon's type classes as compile-time
 * values (sema/eval/typeclass.c).
 */
#ifndef SEMA_EVAL_TYPES_H
#define SEMA_EVAL_TYPES_H

#include "sema/eval/state.h"

/* -- typeclass.c: Gluon's classes called, type values -- */
/* A call of a Gluon class: gl.dtype(name), gl.block_type, gl.distributed_type,
 * gl.pointer_type, gl.tuple_type, gl.shared_memory_descriptor_type,
 * tma.tensor_descriptor_type and warpgroup_mma_accumulator_type make type
 * values, gl.tuple(iterable) a tuple; the others (gl.tensor, ...) cannot be
 * constructed in a kernel (an error). */
Value *sema_type_class_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
/* A method call on a type value (m->u.method.self is VAL_TYPE):
 * with_element_ty(dtype) of a block or distributed type. */
Value *sema_type_method_call(Check *ck, const Node *call, Value *m);
/* gl.tuple_type([dt] * rank): a descriptor's shape_type (i32) or
 * strides_type (i64). */
Value *sema_scalar_tuple_type(Check *ck, int rank, TDType dt, SrcSpan at);
/* warpgroup_mma_accumulator_type of an accumulator around a tensor of type
 * tensor. */
Value *sema_wgmma_acc_type(Check *ck, const TType *tensor, SrcSpan at);
/* `t.type` of a compile-time tuple t of runtime values: its tuple_type;
 * NULL (no diagnostic) when an item has no type. */
Value *sema_tuple_type_of(Check *ck, const Value *t, SrcSpan at);

/* -- types.c: the types sema makes, dtype promotion -- */
/* Triton's computation type of a and b (a_lit: a is a Python number, typed
 * by sema_literal_dtype; div_or_mod for /, // and %); DT_VOID where Triton
 * refuses (integers of mixed signedness under / // %, fp8 with integers). */
TDType sema_computation_type(TDType a, bool a_lit, TDType b, bool b_lit, bool div_or_mod);
/* The wider of two integer dtypes as Triton promotes them (C's rules). */
TDType sema_integer_promote(TDType a, TDType b);
/* The dtype Triton gives a Python number: i1, i32 (u32, i64 when larger),
 * f32 (f64 outside f32's range). */
TDType sema_literal_dtype(const Value *v);
/* Whether the integer i is a value of integer dtype dt: -2^(N-1) to
 * 2^(N-1)-1 for iN, 0 to 2^N-1 for uN, 0 or 1 for i1. */
bool sema_int_fits(TDType dt, int64_t i);
/* The scalar type of dtype t, the pointer type to pointee. */
const TType *sema_type_scalar(Check *ck, TDType t);
const TType *sema_type_ptr(Check *ck, TDType pointee);
/* like's tensor-ness (shape, layout) with elem's dtype (scalar or pointer). */
TType *sema_type_with_elem(Check *ck, const TType *like, const TType *elem);
/* The element type of a tensor (scalar or pointer); t itself otherwise. */
const TType *sema_type_elem(Check *ck, const TType *t);
/* t as messages spell it (a block_type as block_type<dt, shape>). */
const char *sema_type_str(Check *ck, const TType *t);
/* A tensor type of dtype/elem over shape in layout desc (fitted here);
 * NULL after a diagnostic at `at`. */
TType *sema_tensor_type(Check *ck, SrcSpan at, const TType *elem, const int64_t *shape, int rank,
                   const LLDesc *desc);
/* Gluon's block_type of elem (a scalar or pointer type) over shape: a
 * tensor type without a layout, which only compares, prints and answers
 * isinstance and its shape/dtype attributes. */
const TType *sema_block_type(Check *ck, const TType *elem, const int64_t *shape, int rank);
/* The descriptor type of dt blocks of block[0..rank-1] in shared layout
 * `layout` (written at layout_at, whose element width must be dt's);
 * NULL after a diagnostic. */
TType *sema_desc_type(Check *ck, TDType dt, const int64_t *block, int rank, const LLDesc *layout,
                      SrcSpan layout_at);
/* The shared type of a view of allocation `alloc` (-1: none, a type a
 * kernel constructs) over shape, in layout l fitted to the trailing dims it
 * covers (leading dims index whole buffers); its alloc_shape is shape.
 * NULL after a diagnostic at `at`. */
TType *sema_smem_type(Check *ck, SrcSpan at, TDType dt, const int64_t *shape, int rank,
                      const LLDesc *l, int alloc);
/* The rank a shared layout lays out (its trailing dims of a buffer). */
int sema_smem_layout_rank(const LLDesc *l);
/* Whether l with dtype dt is MBarrierLayout() of i64 mbarrier words. */
bool sema_is_mbarrier_layout(const LLDesc *l, TDType dt);

#endif
