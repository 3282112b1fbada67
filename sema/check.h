/*
 * The checker's internal interface: the state of checking one module
 * (scopes, the kernel being built, the insertion block) and the helpers the
 * statement, expression, tensor-op and Hopper-op files share.
 */
#ifndef SEMA_CHECK_H
#define SEMA_CHECK_H

#include "sema/emit/emit.h"

/* -- types.c -- */

/* -- emit.c: building instructions -- */

/* -- arith.c: operators on runtime values -- */

/* -- attrs.c: attributes, subscripts, method calls -- */
Value *sema_check_attr(Check *ck, const Node *n, Value *obj);
Value *sema_check_subscript(Check *ck, const Node *n, Value *obj);
Value *sema_check_method_call(Check *ck, const Node *call, Value *m);

/* -- bank_conflicts.c: gl.bank_conflicts(distr_ty, shared_ty) with
 * arguments a bound by the builtin table: a compile-time int -- */
Value *sema_bank_conflicts(Check *ck, const Node *call, Value **a);

/* -- calls.c: calls of builtins and user functions -- */
Value *sema_check_builtin_call(Check *ck, const Node *call, const Builtin *b);
/* The builtin fn with its arguments a already bound (a call or a method
 * call of call). */
Value *sema_dispatch_builtin(Check *ck, const Node *call, BuiltinFn fn, Value **a);

/* x with a new axis of size 1: needs SliceLayout(axis, P), yields P. */
Value *sema_expand_dims(Check *ck, SrcSpan at, TValue *x, int axis);
/* -- tensor.c -- */
/* The tensor builtins of no other family (program_id, arange, full, ...,
 * expand_dims) and Python's min and max of runtime values, with arguments
 * a bound by the builtin table. */
Value *sema_check_tensor_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);

/* -- auto.c: layouts left to inference (the layout-infer pass decides) -- */

/* -- reduce.c: reductions and scans -- */
/* gl.sum, gl.max, gl.min, gl.xor_sum, gl.reduce_or, gl.reduce,
 * gl.associative_scan, x.cumsum and x.cumprod with arguments a bound by
 * the builtin table. */
Value *sema_check_reduce_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);

/* -- atomic.c -- */
/* gl.atomic_* with arguments a bound by the builtin table. */
Value *sema_check_atomic_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);

/* -- shape.c: shape operations on register tensors -- */
/* x reshaped to shape[0..rank-1] (the same number of elements) in the
 * layout the algebra gives (registers renamed); NULL after a diagnostic. */
TValue *sema_reshape(Check *ck, SrcSpan at, TValue *x, const int64_t *shape, int rank);
/* gl.reshape, gl.permute, gl.join, gl.split, gl.broadcast, gl.ravel,
 * gl.gather and gl.histogram with arguments a bound by the builtin table. */
Value *sema_check_shape_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);

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

/* -- elementwise.c: gl.inline_asm_elementwise, gl.map_elementwise -- */
Value *sema_check_elementwise_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);

/* -- memory.c: global loads and stores, axis hints, cp.async -- */
/* gl.load, gl.store, the hints, gl.assume and the async_copy builtins,
 * with arguments a bound by the builtin table. */
Value *sema_check_memory_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
/* True when v is a pointer or a tensor of pointers, else a diagnostic
 * naming fname. */
bool sema_want_ptr(Check *ck, const Value *v, const char *fname);

/* -- debug.c: static_print, device_print, device_assert -- */
Value *sema_check_debug_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
/* A device assertion at `at`: cond (a boolean scalar or tensor) must hold
 * where mask (NULL: everywhere) does; msg is its message. False after a
 * diagnostic. */
bool sema_device_assert(Check *ck, SrcSpan at, Value *cond, const char *msg, Value *mask);

/* -- hopper.c -- */
/* The Hopper and shared-memory builtins, with arguments a bound by the
 * builtin table. */
Value *sema_check_hopper_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
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

/* -- desc.c: descriptor types, tma.make_tensor_descriptor -- */
/* tma.make_tensor_descriptor(base, shape, strides, block_shape, layout,
 * padding_option), arguments bound by the builtin table. */
Value *sema_make_desc(Check *ck, const Node *call, Value **a);

/* -- mma.c -- */
/* warpgroup_mma, warpgroup_mma_wait, mma_v2, gl.dot_fma. */
Value *sema_check_mma_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
/* The warpgroup_mma_accumulator around inner (a tensor's VAL_RUNTIME, or its
 * VAL_VAR in a binding). */
Value *sema_wgmma_acc(Check *ck, Value *inner, SrcSpan at);
/* warpgroup_mma_init(v): v, a register tensor, as an accumulator; NULL after
 * an error. */
Value *sema_wgmma_init(Check *ck, Value *v);

/* -- typeclass.c: Gluon's classes as values -- */

/* -- smem.c: allocations and views -- */
Value *sema_smem_alloc(Check *ck, const Node *call, Value **a);
Value *sema_check_smem_method(Check *ck, const Node *call, BuiltinFn fn, Value *self,
                             Value **a);

/* -- scope.c: scopes and compile-time value helpers -- */

/* -- assign.c: variables and assignment -- */
/* A new mutable variable of the kernel (loop-carried or branch-assigned). */
TVar *sema_new_var(Check *ck, const char *name, const TType *type);
/* The value standing for variable var in a binding (VAL_VAR). */
Value *sema_var_value(Check *ck, TVar *var, SrcSpan at);
/* The tree of fresh variables for v (a variable per number and
 * register-capable leaf, other leaves kept), each written with its part of
 * v in the current block; NULL when v holds nothing a variable can carry,
 * or after a diagnostic. */
Value *sema_write_vars(Check *ck, const char *name, Value *v, SrcSpan at);
/* True when v is a variable or a tuple holding one. */
bool sema_holds_vars(const Value *v);
/* A binding's value as read now: each variable in it read (OP_VAR_READ). */
Value *sema_read_vars(Check *ck, Value *tree, SrcSpan at);
/* The bindings runtime control flow assigns and their trees at one point. */
typedef struct VarSnap {
	Binding **b;
	Value **tree;
	size_t n;
} VarSnap;
/* Before runtime control flow over the statements a (and b): the names they
 * assign that are bound to runtime-capable values become variables; returns
 * their bindings and trees now. */
VarSnap sema_prepare_vars(Check *ck, const NodeList *a, const NodeList *b, SrcSpan at);
/* The trees of s's bindings now. */
VarSnap sema_snap_vars(Check *ck, const VarSnap *s);
/* Binds s's bindings to s's trees again (before a branch's other arm). */
void sema_reset_vars(const VarSnap *s);
/* Whether x and y (snapshots of the same bindings) hold accumulators in the
 * same places, as Gluon requires where control flow joins: the names
 * themselves, and with deep (a branch's two arms) the elements of their
 * tuples and aggregates too; false after an error at `at` for each name
 * that differs ("'acc' is ... X_WHEN but ... Y_WHEN"). */
bool sema_vars_agree(Check *ck, const VarSnap *x, const VarSnap *y, bool deep, SrcSpan at,
                     const char *x_when, const char *y_when);
/* Binds the assignment target t (a name or a tuple of targets) to v. */
void sema_assign(Check *ck, const Node *t, Value *v, bool is_constexpr);
/* After a failed right-hand side: the names of t read as poison (silently). */
void sema_poison_target(Check *ck, const Node *t);
/* True when annot is `gl.constexpr` (or `constexpr`). */
bool sema_is_constexpr_annot(Check *ck, const Node *annot);

/* -- pymodule.c: Gluon .py files -- */

/* -- signature.c: kernels specialized from -s -- */
/* Binds the parameters of kernel f from signature sig (compile.py's format);
 * false after a diagnostic naming the parameter. */
bool sema_bind_signature(Check *ck, const Node *f, const char *sig, int index);

/* -- ptr_use.c -- */
/* Where the body of kernel f uses parameter `param` as a pointer (the
 * pointer operand of gl.load, gl.store or an atomic, or x.dtype.element_ty,
 * directly or through names assigned from it), read from the syntax; NULL
 * when it does not. */
const Node *sema_pointer_use(Check *ck, const Node *f, const char *param);

/* -- constexpr_fn.c: compile-time Python -- */

/* -- aggregate.c: @aggregate classes -- */

/* -- pybuiltins.c: Python's compile-time builtins and Gluon queries -- */

/* -- pymethods.c: Python's methods and iteration builtins at compile time -- */

/* -- returns.c: return inside runtime ifs -- */
/* Whether runtime if s holds a return (outside loops and functions). */
bool sema_if_returns(const Node *s);
/* Checks runtime if s (condition cond) whose branches return; rest are
 * the statements after it in its block, which run where a branch does not
 * return. Sets the frame's result once every path returned. */
void sema_check_returning_if(Check *ck, const Node *s, TValue *cond, const NodeList *rest);
/* A return of v inside such an if: recorded with the block it ends. */
void sema_return_site(Check *ck, SrcSpan at, Value *v);

/* -- stmt.c: statements -- */
void sema_check_stmt(Check *ck, const Node *s);
void sema_check_block(Check *ck, const NodeList *stmts);

/* -- hooks.c: the checker's side of evaluation -- */
/* The hooks the evaluator calls (installed in every Check's hooks). */
extern const EvalHooks sema_check_hooks;

#endif
