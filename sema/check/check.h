/*
 * The checker core's interface (sema/check): statements, assignment and
 * the variables of runtime control flow, returns inside runtime ifs,
 * attributes, subscripts and method calls, calls of builtins handed to
 * their families, warp_specialize's partitions, kernels and their
 * signatures, and the hooks that give the evaluator its way here.
 */
#ifndef SEMA_CHECK_H
#define SEMA_CHECK_H

#include "sema/builtins/builtins.h"

/* -- attrs.c: attributes, subscripts, method calls -- */
/* n (obj.name) where obj is a runtime value, a type or a layout: shapes,
 * dtypes, layouts, descriptor queries, methods awaiting their call; NULL
 * after a diagnostic. */
Value *sema_check_attr(Check *ck, const Node *n, Value *obj);
/* n (obj[index]): a parameter type (gl.ptr[T], gl.tensor_desc[...]) or
 * new axes of a register tensor (x[:, None]); NULL after a diagnostic. */
Value *sema_check_subscript(Check *ck, const Node *n, Value *obj);
/* A call of method m (VAL_METHOD) of an aggregate, a type, a Python value,
 * a shared buffer or a tensor; NULL after a diagnostic. */
Value *sema_check_method_call(Check *ck, const Node *call, Value *m);

/* -- dispatch.c: calls of builtins -- */
/* A call of builtin function b: refused where it cannot be called (range
 * outside a for loop, a tensor builtin outside a kernel), its arguments
 * bound by the builtin table, then checked by its family. */
Value *sema_check_builtin_call(Check *ck, const Node *call, const Builtin *b);
/* The builtin fn with its arguments a already bound (a call or a method
 * call of call). */
Value *sema_dispatch_builtin(Check *ck, const Node *call, BuiltinFn fn, Value **a);

/* -- partition.c: warp_specialize -- */
/* gl.warp_specialize(functions_and_args, worker_num_warps, worker_num_regs)
 * with arguments a bound by the builtin table: the default partition's
 * results (None when it returns none). */
Value *sema_warp_specialize(Check *ck, const Node *call, Value **a);

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

/* -- signature.c: kernels specialized from -s -- */
/* Binds the parameters of kernel f from signature sig (compile.py's format);
 * false after a diagnostic naming the parameter. */
bool sema_bind_signature(Check *ck, const Node *f, const char *sig, int index);
/* Records constexpr parameter name = v for the kernel being built (its
 * value's spelling, a float's with its point: 2.0), for names, printing
 * and the manifest. */
void sema_record_constexpr(Check *ck, const char *name, const Value *v);

/* -- ptr_use.c -- */
/* Where the body of kernel f uses parameter `param` as a pointer (the
 * pointer operand of gl.load, gl.store or an atomic, or x.dtype.element_ty,
 * directly or through names assigned from it), read from the syntax; NULL
 * when it does not. */
const Node *sema_pointer_use(Check *ck, const Node *f, const char *param);

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
/* Checks statement s (each of stmts) in the current frame, emitting into
 * the current block. */
void sema_check_stmt(Check *ck, const Node *s);
void sema_check_block(Check *ck, const NodeList *stmts);

/* -- hooks.c: the checker's side of evaluation -- */
/* The hooks the evaluator calls (installed in every Check's hooks). */
extern const EvalHooks sema_check_hooks;

#endif
