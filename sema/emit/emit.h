/*
 * Building the typed IR (sema/emit), which the builtin families and the
 * checker core share: instructions, the implicit conversions sema makes
 * explicit (constants, casts, splats, broadcasts) and the layout-clash
 * diagnostic, the operators on runtime values with Triton's promotion, and
 * the layouts left to inference.
 */
#ifndef SEMA_EMIT_H
#define SEMA_EMIT_H

#include "sema/eval/eval.h"

/* -- emit.c: instructions and implicit conversions -- */
/* Appends instruction op, written at `at`, to the current block: a result
 * of type res (NULL: none) whose layout is attributed to `at`, and n_args
 * operands (TValue *). */
TInst *sema_emit(Check *ck, TOp op, SrcSpan at, const TType *res, int n_args, ...);
/* The runtime value of v (materializing compile-time numbers as constants of
 * dtype `want`, DT_VOID: i32/f32/i1 by Python kind); NULL after a
 * diagnostic when v is not a runtime-capable value. */
TValue *sema_materialize(Check *ck, Value *v, TDType want);
/* v converted to dtype t (a no-op when equal). */
TValue *sema_cast_to(Check *ck, TValue *v, TDType t, SrcSpan at);
/* v (scalar) splatted into a tensor shaped like `like`. */
TValue *sema_splat_to(Check *ck, TValue *v, const TType *like, SrcSpan at);
/* Reports that a and b (tensors) have different layouts. */
void sema_layout_clash(Check *ck, SrcSpan at, const char *what, const TValue *a, const char *a_role,
                  const TValue *b, const char *b_role);
/* Brings a and b to one shape and layout (splat, broadcast) for an
 * elementwise op; false after a diagnostic. */
bool sema_unify_shapes(Check *ck, SrcSpan at, const char *what, TValue **a, TValue **b);
/* The same, naming the operands a_role and b_role in a layout clash. */
bool sema_unify_roles(Check *ck, SrcSpan at, const char *what, TValue **a, const char *a_role,
                      TValue **b, const char *b_role);

/* -- arith.c: operators on runtime values -- */
/* The operators of expression n with a runtime operand (x op y, op x, and
 * the comparison x op y at `at`), typed as Triton types them; NULL after a
 * diagnostic. */
Value *sema_check_binary(Check *ck, const Node *n, BinOp op, Value *x, Value *y);
Value *sema_check_unary(Check *ck, const Node *n, UnOp op, Value *x);
Value *sema_check_compare(Check *ck, SrcSpan at, CmpOp op, Value *x, Value *y);
/* An elementwise binary op on runtime values with dtype promotion. */
TValue *sema_arith(Check *ck, SrcSpan at, TOp op, Value *x, Value *y);

/* -- auto.c: layouts left to inference (the layout-infer pass decides) -- */
/* The layout of a tensor created at `at` without one (arange, full, zeros,
 * smem.load): a new AutoLayout. */
const LLDesc *sema_auto_source(Check *ck, SrcSpan at, const int64_t *shape, int rank);
/* The layout argument v (NULL or gl.AutoLayout(): inferred) of a tensor of
 * shape; *at receives the span the layout is attributed to. */
const LLDesc *sema_auto_layout_arg(Check *ck, const Value *v, SrcSpan call_at, const int64_t *shape,
                              int rank, const char *what, SrcSpan *at);
/* True when d is (a slice of) an AutoLayout: the layout rules that depend on
 * it are the layout-infer pass's to satisfy. */
bool sema_auto_involved(Check *ck, const LLDesc *d);
/* a and b (tensors of one shape) must share a layout: true when either is
 * inferred (the pass unifies them), false when both are concrete. */
bool sema_auto_unify(Check *ck, SrcSpan at, const TValue *a, const TValue *b);
/* The layout of x[..., None at axis, ...] when x's layout is an AutoLayout:
 * a new one, which the pass relates to x's; NULL when x's is not. */
const LLDesc *sema_auto_expand(Check *ck, SrcSpan at, const TValue *x, int axis,
                          const int64_t *shape, int rank);

#endif
