/*
 * The checker's internal interface: the state of checking one module
 * (scopes, the kernel being built, the insertion block) and the helpers the
 * statement, expression, tensor-op and Hopper-op files share.
 */
#ifndef SEMA_CHECK_H
#define SEMA_CHECK_H

#include "sema/value/value.h"

/* A name bound in a function (or module) scope: a value, possibly holding
 * variables (VAL_VAR leaves: names assigned in runtime control flow). */
typedef struct Binding Binding;
struct Binding {
	const char *name;     /* interned */
	Value *v;             /* compile-time or runtime value, or variables */
	bool is_constexpr;    /* declared `: gl.constexpr` */
	/* variables made by the name's first assignment inside runtime control
	 * flow: the block that assignment is in (else NULL) */
	const TBlock *born_in;
	SrcSpan at;
	Binding *next;
};

/* The bindings of one scope, newest first, with a hash index from name to
 * the newest binding of it once there are more than a few, so that looking
 * up a name costs the same however many there are. */
typedef struct Scope {
	Binding *first;
	Binding **index;      /* open addressing on the interned name; NULL: none */
	size_t cap, n;        /* slots of index (a power of two), bindings */
} Scope;

/* A source file whose top-level names are in scope: the file compiled, or
 * a Gluon file it imports. */
struct SemaModule {
	const char *name;     /* the import name; "" for the file compiled */
	const Node *ast;      /* N_MODULE */
	uint32_t file;
	bool python;          /* a .py file: lazy globals, decorators say what a def is */
	Scope globals;
	/* a def's scope (its local names, for the functions defined in it):
	 * names it lacks are looked up in this enclosing scope */
	SemaModule *enclosing;
	SemaModule *next;
};

/* An @aggregate class: its annotated fields, in order, and its body. */
struct SemaClass {
	const char *name;
	const Node *node;     /* N_CLASS */
	SemaModule *mod;
	const char **fields;
	size_t n_fields;
};

/* What a def is, from its decorators. */
typedef enum FuncKind { FK_JIT, FK_CONSTEXPR, FK_HOST } FuncKind;

/* A return inside a runtime if (returns.c): its value and the block it
 * ends. */
typedef struct ReturnSite {
	TBlock *blk;
	Value *v;
	SrcSpan at;
} ReturnSite;

/* One inlined function (or the kernel itself). */
typedef struct Frame Frame;
struct Frame {
	Scope locals;
	const Node *func;
	Value *ret;           /* the returned value once `return` ran */
	bool returned;
	int rt_depth;         /* runtime control flow nesting inside this frame */
	int capture;          /* runtime ifs that return around the code checked;
	                         -1 in a runtime loop, which return cannot leave */
	VEC(ReturnSite) sites;    /* the returns met in them */
	SrcSpan call_at;      /* an inlined function: the call that inlined it */
	Frame *up;
};

enum { MAX_INLINE_DEPTH = 32 };

struct Check {
	Arena *a;
	Diags *d;
	Interner *in;
	Sources *src;
	Eval ev;
	SemaModule *mod;      /* the module whose globals are in scope */
	SemaModule *modules;  /* every module read, the compiled file first */
	VEC(const Node *) fn_nodes;   /* functions and classes of every module ... */
	VEC(SemaModule *) fn_mods;    /* ... and the module each belongs to */
	VEC(const SemaClass *) classes;   /* the @aggregate classes met */
	const SemaGluon *gluon;       /* a .py compilation: its options; else NULL */
	int64_t steps;        /* statements run by constexpr functions so far */
	bool step_limit_hit;  /* reported; unwinding */
	/* evaluating a -s entry, which is the host's launch argument: plain
	 * defs it calls run as compile-time Python */
	bool host;
	Frame *fr;
	TKernel *k;           /* NULL at module level */
	TBlock *blk;
	bool in_partition;    /* inlining a warp_specialize partition */
	int inline_depth;
	const Limits *lim;    /* --max-unroll, --max-inline, ... */
	uint64_t unrolled;    /* static_range bodies unrolled in this kernel pass */
	uint64_t inlined;     /* @gl.jit calls inlined in this kernel pass */
	VEC(TVar *) vars;
	VEC(TSmemAlloc) smem;
	VEC(bool) unfenced;   /* per allocation: generic write not yet fenced */
	VEC(const char *) cx_names;
	VEC(const char *) cx_values;
	/* layout inference: the probe pass records, the final pass applies */
	int auto_next;                /* AutoLayout ids given out in this kernel */
};

/* -- types.c -- */
/* Triton's computation type of a and b (a_lit: a is a Python number, typed
 * by sema_literal_dtype; div_or_mod for /, // and %); DT_VOID where Triton
 * refuses (integers of mixed signedness under / // %, fp8 with integers). */
TDType sema_computation_type(TDType a, bool a_lit, TDType b, bool b_lit, bool div_or_mod);
/* The wider of two integer dtypes as Triton promotes them (C's rules). */
TDType sema_integer_promote(TDType a, TDType b);
/* The dtype Triton gives a Python number: i1, i32 (u32, i64 when larger),
 * f32 (f64 outside f32's range). */
TDType sema_literal_dtype(const Value *v);
const TType *sema_type_scalar(Check *ck, TDType t);
const TType *sema_type_ptr(Check *ck, TDType pointee);
const TType *sema_type_void(Check *ck);
/* like's tensor-ness (shape, layout) with elem's dtype (scalar or pointer). */
TType *sema_type_with_elem(Check *ck, const TType *like, const TType *elem);
/* The element type of a tensor (scalar or pointer); t itself otherwise. */
const TType *sema_type_elem(Check *ck, const TType *t);
const char *sema_type_str(Check *ck, const TType *t);

/* -- emit.c: building instructions -- */
TInst *sema_emit(Check *ck, TOp op, SrcSpan at, const TType *res, int n_args, ...);
Value *sema_rt_value(Check *ck, TValue *v, SrcSpan at);
/* A tensor type of dtype/elem over shape in layout desc (fitted here);
 * NULL after a diagnostic at `at`. */
TType *sema_tensor_type(Check *ck, SrcSpan at, const TType *elem, const int64_t *shape, int rank,
                   const LLDesc *desc);
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
Value *sema_check_binary(Check *ck, const Node *n, BinOp op, Value *x, Value *y);
Value *sema_check_unary(Check *ck, const Node *n, UnOp op, Value *x);
Value *sema_check_compare(Check *ck, SrcSpan at, CmpOp op, Value *x, Value *y);
/* An elementwise binary op on runtime values with dtype promotion. */
TValue *sema_arith(Check *ck, SrcSpan at, TOp op, Value *x, Value *y);

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
/* Checks a compile-time assertion (static_assert, assert): an error at
 * `at` ("<what> failed: msg") when cond is false; false after any error. */
bool sema_assert_now(Check *ck, SrcSpan at, const Value *cond, const Value *msg,
                     const char *what);
/* Binds call's arguments to builtin b's parameters from the builtin table
 * (out[i] NULL for an omitted optional one); false after a diagnostic. */
bool sema_bind_builtin(Check *ck, const Node *call, const Builtin *b, Value **out);
/* Binds call's arguments to method b of the receiver self: self is its
 * first parameter (out[0]), the call's arguments the others. */
bool sema_bind_method(Check *ck, const Node *call, const Builtin *b, Value *self, Value **out);
/* v as a register tensor, or NULL after a diagnostic naming `what`. */
TValue *sema_tensor_arg(Check *ck, Value *v, const char *what);
/* An optional compile-time bool argument (NULL: dflt) into *out; false
 * after a diagnostic naming `what`. */
bool sema_opt_bool(Check *ck, const Value *v, bool dflt, const char *what, bool *out);
/* Calls user function func (self: the instance of a method call, else
 * NULL): inlined for @gluon.jit, run for @constexpr_function. */
Value *sema_check_func_call(Check *ck, const Node *call, const Node *func, Value *self);
/* Binds positional/keyword arguments of call to params[0..n-1] (evaluated;
 * n <= SEMA_MAX_CALL_ARGS); names ending in '?' are optional, a name
 * starting with '*' takes the remaining positional arguments as a tuple.
 * False after a diagnostic. */
enum { SEMA_MAX_CALL_ARGS = 32 };
bool sema_bind_args(Check *ck, const Node *call, const char *fname, const char *const *params,
               int n, Value **out);
/* Inlines user function `func` with arguments args[0..n-1] (values for its
 * parameters in order); returns its return value (VAL_NONE if none). */
Value *sema_inline_call(Check *ck, SrcSpan at, const Node *func, Value **args, int n);

/* x with a new axis of size 1: needs SliceLayout(axis, P), yields P. */
Value *sema_expand_dims(Check *ck, SrcSpan at, TValue *x, int axis);

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
/* The descriptor type of dt blocks of block[0..rank-1] in shared layout
 * `layout` (written at layout_at, whose element width must be dt's);
 * NULL after a diagnostic. */
TType *sema_desc_type(Check *ck, TDType dt, const int64_t *block, int rank, const LLDesc *layout,
                      SrcSpan layout_at);
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
/* A call of a Gluon class: gl.dtype(name), gl.block_type, gl.distributed_type,
 * gl.pointer_type, gl.tuple_type, gl.shared_memory_descriptor_type,
 * tma.tensor_descriptor_type and warpgroup_mma_accumulator_type make type
 * values, gl.tuple(iterable) a tuple; the others (gl.tensor, ...) cannot be
 * constructed in a kernel (an error). */
Value *sema_type_class_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
/* A method call on a type value (m->u.method.self is VAL_TYPE):
 * with_element_ty(dtype) of a block or distributed type. */
Value *sema_type_method_call(Check *ck, const Node *call, Value *m);
/* Gluon's block_type of elem (a scalar or pointer type) over shape: a
 * tensor type without a layout, which only compares, prints and answers
 * isinstance and its shape/dtype attributes. */
const TType *sema_block_type(Check *ck, const TType *elem, const int64_t *shape, int rank);
/* gl.tuple_type([dt] * rank): a descriptor's shape_type (i32) or
 * strides_type (i64). */
Value *sema_scalar_tuple_type(Check *ck, int rank, TDType dt, SrcSpan at);
/* warpgroup_mma_accumulator_type of an accumulator around a tensor of type
 * tensor. */
Value *sema_wgmma_acc_type(Check *ck, const TType *tensor, SrcSpan at);
/* `t.type` of a compile-time tuple t of runtime values: its tuple_type;
 * NULL (no diagnostic) when an item has no type. */
Value *sema_tuple_type_of(Check *ck, const Value *t, SrcSpan at);

/* -- smem.c: allocations and views -- */
Value *sema_smem_alloc(Check *ck, const Node *call, Value **a);
/* The shared type of a view of allocation `alloc` (-1: none, a type a
 * kernel constructs) over shape, in layout l fitted to the trailing dims it
 * covers (leading dims index whole buffers); its alloc_shape is shape.
 * NULL after a diagnostic at `at`. */
TType *sema_smem_type(Check *ck, SrcSpan at, TDType dt, const int64_t *shape, int rank,
                      const LLDesc *l, int alloc);
Value *sema_check_smem_method(Check *ck, const Node *call, BuiltinFn fn, Value *self,
                             Value **a);

/* -- scope.c: scopes and compile-time value helpers -- */
/* The binding of name: locals of the current frame, then globals; NULL
 * when unknown. sema_local_find looks only in the current frame. */
Binding *sema_scope_find(Check *ck, const char *name);
Binding *sema_local_find(Check *ck, const char *name);
/* The bindings of s as they are now (read in order, without the index):
 * what a closure sees, unchanged by later bindings in s. */
Scope sema_scope_snapshot(const Scope *s);
/* Binds name in the current frame (or module scope outside a function). */
void sema_scope_bind(Check *ck, const char *name, Value *v, bool is_constexpr, SrcSpan at);
/* Names visible now (locals, then globals), for "did you mean". */
size_t sema_check_visible_names(Check *ck, const char **out, size_t max);
/* Eval's name lookup callback (ctx is the Check): the value bound to name,
 * reading a variable's current value; NULL when unknown. */
const Value *sema_lookup(void *ctx, const char *name);

/* The number of items of range(lo, hi, step) (step not 0), and item k:
 * exact for any int64 values. */
uint64_t sema_range_len(int64_t lo, int64_t hi, int64_t step);
int64_t sema_range_at(int64_t lo, int64_t step, uint64_t k);

/* Takes n units of limit id from the kernel's *spent (static_range bodies,
 * inlined calls). Past the limit, reports at `at` what asked ("fmt": "this
 * call of 'f' is inlined") with the limit and the option that raises it,
 * and returns false; later requests fail without a second report. */
bool sema_spend(Check *ck, SrcSpan at, LimitId id, uint64_t *spent, uint64_t n, const char *fmt,
                ...) GL_PRINTF(6, 7);

bool sema_value_is_rt(const Value *v);
bool sema_value_int(Check *ck, const Value *v, const char *what, int64_t *out);
/* A compile-time int list/tuple (a shape) into out[0..*n-1]. */
bool sema_value_shape(Check *ck, const Value *v, const char *what, int64_t *out, int *n);
/* A layout argument (distributed unless shared is set). */
const LLDesc *sema_value_layout(Check *ck, const Value *v, const char *what, bool shared);
bool sema_value_dtype(Check *ck, const Value *v, const char *what, TDType *out);

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
/* Binds the top-level names of module m (imports, defs, classes; other
 * assignments lazily in a .py file). */
void sema_module_bind(Check *ck, SemaModule *m);
/* The module that function or class node n belongs to: the scope recorded
 * last for it (a class run again by compile-time Python gets a new one). */
SemaModule *sema_module_of(Check *ck, const Node *n);
/* Records that function or class n (and a class's defs) belongs to scope m. */
void sema_note_scope(Check *ck, const Node *n, SemaModule *m);
/* The scope of n (a lambda or class made while a function runs): the
 * function's names bound so far, then ck->mod's; recorded for n. */
SemaModule *sema_frame_scope(Check *ck, const Node *n);
/* What def f is: FK_JIT in a .gl file; from its decorators in a .py file. */
FuncKind sema_func_kind(Check *ck, const Node *f);
/* The scope of plain def f of scope m, for a kernel defined inside it
 * (`-n test_x.kernel`): its imports, defs and classes bound, its other
 * assignments lazily, as at module level; names it lacks come from m. */
SemaModule *sema_function_scope(Check *ck, SemaModule *m, const Node *f);
/* A lazy module-level value forced (b->v replaced); NULL after a diagnostic. */
Value *sema_force_lazy(Check *ck, Binding *b);
/* Reports that v (VAL_HOST) is host Python, used at `at`. */
void sema_host_error(Check *ck, SrcSpan at, const Value *v);

/* Whether one of decorators (evaluated quietly in module m) is the builtin
 * decorator `want`. */
bool sema_has_decorator(Check *ck, SemaModule *m, const NodeList *decorators, BuiltinFn want);
/* The first decorator of def f that is a Gluon name glc does not support
 * (VAL_HOST with a reason, such as _core.builtin), or NULL. */
const Value *sema_unsupported_decorator(Check *ck, const Node *f);

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
/* Runs @constexpr_function f with args[0..n-1] bound to its parameters;
 * its return value, or NULL after a diagnostic. */
Value *sema_run_constexpr_fn(Check *ck, SrcSpan at, const Node *f, Value **args, int n);
/* range(...) (or static_range) called with compile-time bounds, b its
 * builtin: the list of its items; NULL after a diagnostic. */
Value *sema_py_range(Check *ck, const Node *call, const Builtin *b);
/* Compile-time values of comprehensions, dict displays, lambdas. */
Value *sema_eval_comp(Check *ck, const Node *n);
Value *sema_eval_dict(Check *ck, const Node *n);

/* -- aggregate.c: @aggregate classes -- */
/* The class value of N_CLASS c when it is an @aggregate (else NULL). */
const SemaClass *sema_class_of(Check *ck, const Node *c);
/* Class statement c run by compile-time Python in a frame: a new @aggregate
 * class (each run its own) whose methods see the frame's names bound so far
 * (the caller adds the class's own), or NULL when c is not an @aggregate. */
const SemaClass *sema_class_in_frame(Check *ck, const Node *c);
/* Calls class cls: a new instance through its __init__. */
Value *sema_construct(Check *ck, const Node *call, const SemaClass *cls);
/* obj.name for an instance or a class; NULL after a diagnostic. */
Value *sema_aggregate_attr(Check *ck, const Node *n, Value *obj);
/* A method of an instance called (m is VAL_METHOD with an instance self). */
Value *sema_aggregate_method_call(Check *ck, const Node *call, Value *m);

/* -- pybuiltins.c: Python's compile-time builtins and Gluon queries -- */
Value *sema_check_py_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
/* NVMMASharedLayout.get_default_for with arguments a bound by the table. */
Value *sema_nvmma_default(Check *ck, const Node *call, Value **a);
/* obj.name for modules, aggregates, host values and the attributes Gluon
 * reads off dtypes, pointers and constexprs; *handled false: none of these. */
Value *sema_py_attr(Check *ck, const Node *n, Value *obj, bool *handled);

/* -- pymethods.c: Python's methods and iteration builtins at compile time -- */
/* obj.name when it is a method of a compile-time list, tuple, dict, str or
 * int (a VAL_METHOD to call), else NULL. */
Value *sema_py_method(Check *ck, const Node *n, Value *obj);
/* Calls such a method; NULL after a diagnostic. */
Value *sema_py_method_call(Check *ck, const Node *call, Value *m);
/* list(), tuple(), sum(), zip(), enumerate(), any(), all(), sorted() and
 * reversed() with arguments a bound by the builtin table. */
Value *sema_py_iter_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);

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

#endif
