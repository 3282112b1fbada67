/*
 * The builtin families (sema/builtins), one file each as codegen's
 * lower_*.c are: each takes a builtin's id and its arguments, bound by the
 * builtin table, checks them and emits the operation; and the operand
 * helpers the families share. sema/check/dispatch.c hands each call to its
 * family.
 */
#ifndef SEMA_BUILTINS_H
#define SEMA_BUILTINS_H

#include "sema/emit/emit.h"

/* -- tensor.c: the register-tensor builtins of no other family -- */
/* The tensor builtins of no other family (program_id, arange, full, ...,
 * expand_dims) and Python's min and max of runtime values, with arguments
 * a bound by the builtin table. */
Value *sema_check_tensor_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
/* x with a new axis of size 1: needs SliceLayout(axis, P), yields P. */
Value *sema_expand_dims(Check *ck, SrcSpan at, TValue *x, int axis);

/* -- math.c: Gluon's math set and casts -- */
/* The math builtins (gl.exp ... gl.clamp, gl.maximum, gl.minimum,
 * gl.cdiv) with arguments a bound by the builtin table. */
Value *sema_check_math_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
/* x converted to dtype (a compile-time dtype value): rounding is NULL, None,
 * "rtne" or "rtz" (float downcasts only), bitcast NULL or a compile-time
 * bool (reinterpret bits of the same width). An integer x converts to a
 * pointer type too (its value as an address); a pointer x converts to
 * another pointer type, to int64 (its address) or int1 (not null), with
 * or without bitcast, as in Triton. gl.cast and x.to(). */
Value *sema_cast_call(Check *ck, const Node *call, Value *x, Value *dtype, Value *rounding,
                      Value *bitcast);

/* -- memory.c: global loads and stores, axis hints, cp.async -- */
/* gl.load, gl.store, the hints, gl.assume and the async_copy builtins,
 * with arguments a bound by the builtin table. */
Value *sema_check_memory_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
/* r, the result of a global access: in a tl function softly converted
 * from the access's layout (memory.c); elsewhere r itself. */
TValue *sema_soft_result(Check *ck, SrcSpan at, TValue *r);
/* True when v is a pointer or a tensor of pointers, else a diagnostic
 * naming fname. */
bool sema_want_ptr(Check *ck, const Value *v, const char *fname);

/* -- shape.c: shape operations on register tensors -- */
/* x reshaped to shape[0..rank-1] (the same number of elements) in the
 * layout the algebra gives (registers renamed); NULL after a diagnostic. */
TValue *sema_reshape(Check *ck, SrcSpan at, TValue *x, const int64_t *shape, int rank);
/* gl.reshape, gl.permute, gl.join, gl.split, gl.broadcast, gl.ravel,
 * gl.gather and gl.histogram with arguments a bound by the builtin table. */
Value *sema_check_shape_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
/* x permuted by order (n entries; a permutation of x's dims, else an error
 * at dims_at naming fname): tl.permute, tl.trans and the `.T` of a tl
 * tensor. NULL after a diagnostic. */
Value *sema_permute(Check *ck, SrcSpan at, SrcSpan dims_at, TValue *x, const int64_t *order, int n,
                    const char *fname);

/* -- tl_ops.c: triton.language's operations Gluon has no name for -- */
/* tl.view, tl.broadcast_to, tl.cat, tl.condition, x.logical_and,
 * x.logical_or and x.item() with arguments a bound by the builtin table. */
Value *sema_check_tl_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);

/* -- tl_desc.c: triton.language's tensor descriptors -- */
/* tl.make_tensor_descriptor, desc.load / tl.load_tensor_descriptor,
 * desc.store / tl.store_tensor_descriptor (and the atomic methods, which
 * glc refuses) with arguments a bound by the builtin table. */
Value *sema_check_tl_desc_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);

/* -- tl_dot.c: tl.dot -- */
/* tl.dot(input, other, acc, input_precision, allow_tf32,
 * max_num_imprecise_acc, out_dtype) as Triton compiles it for Hopper. */
Value *sema_tl_dot(Check *ck, const Node *call, Value **a);

/* -- reduce.c: reductions and scans -- */
/* gl.sum, gl.max, gl.min, gl.xor_sum, gl.reduce_or, gl.reduce,
 * gl.associative_scan, x.cumsum and x.cumprod with arguments a bound by
 * the builtin table. */
Value *sema_check_reduce_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);

/* -- atomic.c: atomics on global memory -- */
/* gl.atomic_* with arguments a bound by the builtin table. */
Value *sema_check_atomic_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);

/* -- elementwise.c: gl.inline_asm_elementwise, gl.map_elementwise -- */
/* gl.inline_asm_elementwise and gl.map_elementwise with arguments a bound
 * by the builtin table. */
Value *sema_check_elementwise_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);

/* -- debug.c: static_print, device_print, device_assert -- */
/* gl.static_print, gl.device_print and gl.device_assert with arguments a
 * bound by the builtin table. */
Value *sema_check_debug_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
/* A device assertion at `at`: cond (a boolean scalar or tensor) must hold
 * where mask (NULL: everywhere) does; msg is its message. False after a
 * diagnostic. */
bool sema_device_assert(Check *ck, SrcSpan at, Value *cond, const char *msg, Value *mask);

/* -- hopper.c: mbarriers, TMA copies, barriers and fences -- */
/* The Hopper builtins of no other family, with arguments a bound by the
 * builtin table. */
Value *sema_check_hopper_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);

/* -- operands.c: operand checks the families share -- */
/* "gl.NAME" or "tl.NAME": the namespace of the builtin being called (its
 * row's; for a method, the language of the function calling it), for
 * messages. */
const char *sema_fn_name(Check *ck, const char *name);
/* "@triton.jit" in tl code, else "@gl.jit": the decorator a function
 * argument (combine_fn, a mapped scalar function) needs, for messages. */
const char *sema_jit_name(const Check *ck);
/* True when v is a runtime value of kind k; a diagnostic otherwise. */
bool sema_want_rt(Check *ck, const Value *v, TTypeKind k, const char *what);
/* Warns when reader (TMA store, WGMMA) reads smem written since the last
 * fence_async_shared(). */
void sema_fence_check(Check *ck, SrcSpan at, const TType *smem, const char *reader);
/* v as an i1 scalar (a predicate such as pred or use_acc, named what in
 * the diagnostic); NULL after one. */
TValue *sema_pred_operand(Check *ck, Value *v, const char *what);
/* v as an integer scalar (named what in the diagnostic) cast to dt; NULL
 * after a diagnostic. */
TValue *sema_int_operand(Check *ck, Value *v, const char *what, TDType dt);
/* The integer operands bounded by their instruction's field (operands.c's
 * table gives each one's range and why). */
typedef enum SemaImm {
	IMM_ARRIVE_COUNT,   /* mbarrier.init and arrive counts */
	IMM_TX_BYTES,       /* mbarrier.expect's bytes */
	IMM_GROUPS,         /* store_wait, async_copy.wait_group, warpgroup_mma_wait counts */
	IMM_COUNT_
} SemaImm;
/* v as a compile-time integer in k's range into *out; false after a
 * diagnostic naming the operand, the range and why. */
bool sema_imm_operand(Check *ck, const Value *v, SemaImm k, int64_t *out);
/* v (a runtime integer, or a Python int checked against k's range) as an
 * i32 operand; NULL after a diagnostic. */
TValue *sema_imm_or_operand(Check *ck, Value *v, SemaImm k);

/* -- desc.c: tma.make_tensor_descriptor -- */
/* tma.make_tensor_descriptor(base, shape, strides, block_shape, layout,
 * padding_option), arguments bound by the builtin table. */
Value *sema_make_desc(Check *ck, const Node *call, Value **a);

/* -- mma.c: warpgroup_mma, mma_v2, dot_fma and accumulators -- */
/* warpgroup_mma, warpgroup_mma_wait, mma_v2, gl.dot_fma. */
Value *sema_check_mma_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
/* The warpgroup_mma_accumulator around inner (a tensor's VAL_RUNTIME, or its
 * VAL_VAR in a binding). */
Value *sema_wgmma_acc(Check *ck, Value *inner, SrcSpan at);
/* warpgroup_mma_init(v): v, a register tensor, as an accumulator; NULL after
 * an error. */
Value *sema_wgmma_init(Check *ck, Value *v);

/* -- smem.c: shared-memory allocations and views -- */
/* gl.allocate_shared_memory(element_ty, shape, layout, value=None) with
 * arguments a bound by the builtin table: a new allocation of the kernel
 * (stored from value when given). */
Value *sema_smem_alloc(Check *ck, const Node *call, Value **a);
/* Method fn (.index, .slice, .permute, .reshape, ._reinterpret, .load,
 * .store, ._keep_alive) of the shared buffer or mbarrier self, its other
 * arguments a bound by the builtin table. */
Value *sema_check_smem_method(Check *ck, const Node *call, BuiltinFn fn, Value *self,
                             Value **a);

/* -- libdevice.c, libdevice_map.c: CUDA's libdevice functions -- */
/* One way a libdevice function takes arguments: n of dtypes args, the
 * symbol it calls and its result's dtype. */
typedef struct LibdeviceVariant {
	const char *name;
	int n;
	TDType args[4];
	TDType ret;
	const char *symbol;
} LibdeviceVariant;
/* Every function's variants, sorted by name (libdevice_map.c). */
extern const LibdeviceVariant sema_libdevice_map[];
extern const size_t sema_libdevice_n_map;
/* A call of libdevice's function ck->call (its row) with arguments a bound
 * by the builtin table. */
Value *sema_libdevice_call(Check *ck, const Node *call, Value **a);

/* -- bank_conflicts.c: gl.bank_conflicts -- */
/* gl.bank_conflicts(distr_ty, shared_ty), arguments bound by the builtin
 * table: a compile-time int. */
Value *sema_bank_conflicts(Check *ck, const Node *call, Value **a);

#endif
