/*
 * Compile-time values (sema/value, the lowest room of sema): a Value is
 * what a constexpr expression evaluates to, and remembers where it was
 * written so that later checks can point at it; its phrase, truth,
 * equality, Gluon class and spelling; the table of builtin names and the
 * Gluon names glc does not support.
 */
#ifndef SEMA_VALUE_H
#define SEMA_VALUE_H

#include "sema/sema.h"

typedef enum ValueKind {
	VAL_NONE,      /* None */
	VAL_INT,       /* u.i */
	VAL_FLOAT,     /* u.f */
	VAL_BOOL,      /* u.b */
	VAL_STR,       /* u.str */
	VAL_LIST,      /* u.list */
	VAL_TUPLE,     /* u.list */
	VAL_LAYOUT,    /* u.layout */
	VAL_BUILTIN,   /* u.builtin: a named builtin (namespace, function, dtype) */
	VAL_DTYPE,     /* u.dtype */
	VAL_RUNTIME,   /* u.rt: a value computed at run time */
	VAL_FUNC,      /* u.func: a user function (N_FUNC) */
	VAL_METHOD,    /* u.method: `obj.name` awaiting its call */
	VAL_TYPE,      /* u.type: a parameter type (gl.ptr[gl.f32], ...) */
	VAL_AUTO_LAYOUT, /* gl.AutoLayout(): a layout left to inference */
	VAL_POISON,    /* bound to a name whose assignment failed: reading it
	                  yields NULL silently (the cause was reported) */
	VAL_VAR,       /* u.var: a variable, only inside a binding's value
	                  (reading the name reads it; sema/check/assign.c) */
	VAL_DICT,      /* u.list: keys and values alternating (constexpr functions) */
	VAL_MODULE,    /* u.mod: an imported Gluon file */
	VAL_CLASS,     /* u.cls: an @aggregate class */
	VAL_HOST,      /* u.host: host Python glc does not run (torch, a plain def,
	                  a module-level value it cannot evaluate) */
	VAL_LAZY,      /* u.lazy: a module-level assignment of a .py file, evaluated
	                  when first read (only inside a binding) */
	VAL_WGMMA_ACC, /* u.inner: Gluon's warpgroup_mma_accumulator (an asynchronous
	                  warpgroup_mma result, or warpgroup_mma_init's) around its
	                  tensor: VAL_RUNTIME, or VAL_VAR inside a binding; only
	                  warpgroup_mma and warpgroup_mma_wait take it apart */
	VAL_WGMMA_ACC_TYPE, /* u.type: warpgroup_mma_accumulator_type of that tensor type */
} ValueKind;

typedef struct Check Check;

typedef struct Builtin Builtin;
typedef struct Value Value;
typedef struct SemaModule SemaModule;
typedef struct SemaClass SemaClass;

struct Value {
	ValueKind kind;
	SrcSpan span;      /* where this use of the value is written */
	SrcSpan origin;    /* where the value was made (a name's use: its value's) */
	union {
		int64_t i;
		double f;
		bool b;
		struct { const char *s; size_t len; } str;
		/* cls: an instance of that @aggregate class, whose fields are
		 * the items (a tuple otherwise NULL); cap: the slots of items when
		 * it has room to grow in place (list.append), else 0 */
		struct { Value **items; size_t n, cap; const SemaClass *cls; } list;
		const LLDesc *layout;
		const Builtin *builtin;
		TDType dtype;
		TValue *rt;
		const Node *func;
		struct { Value *self; const char *name; SrcSpan name_span; } method;
		const TType *type;
		TVar *var;
		Value *inner;
		SemaModule *mod;
		const SemaClass *cls;
		/* reason: set when `what` is a Gluon name glc does not support */
		struct { const char *what; SrcSpan at; const char *reason; } host;
		struct { const Node *stmt; SemaModule *mod; bool busy; } lazy;
	} u;
};

#include "sema/value/budget.h"

/* Python's == on compile-time values, as Gluon compares them: numbers by
 * value, layouts and types by what they describe, dtypes by dtype; a
 * list is equal to itself without a look inside (as Python's). Values
 * nested deeper than SEMA_MAX_VALUE_DEPTH are an error at `at` (-1);
 * else 1 or 0. */
int sema_equal(Eval *e, SrcSpan at, const Value *x, const Value *y);
/* sema_equal for lookups that cannot fail (dict keys, list.index): values
 * nested too deeply to compare are unequal. */
bool sema_same_value(const Value *x, const Value *y);
/* A compile-time comparison x op y (==, !=, is, is not, in, not in, and
 * the orderings of numbers): 1 or 0, or -1 after a diagnostic at `at`. */
int sema_compare_values(Eval *e, SrcSpan at, CmpOp op, const Value *x, const Value *y);
/* The source-like spelling of a compile-time value (64, gl.f16, [1, 2]);
 * a list inside itself prints as [...] (as Python's), and what is nested
 * deeper than SEMA_MAX_VALUE_DEPTH as ... */
void sema_value_print(const Value *v, StrBuf *out);
/* "an integer", "a list", ... for messages. */
const char *sema_value_kind_phrase(const Value *v);

/* A new value of kind k, made (and used) at `at`. */
Value *sema_new_value(Eval *e, ValueKind k, SrcSpan at);
/* The int i, made at `at`. */
Value *sema_int_value(Eval *e, int64_t i, SrcSpan at);
/* A list or tuple (k) of items[0..n-1], copied; made at `at`. */
Value *sema_list_value(Eval *e, ValueKind k, Value **items, size_t n, SrcSpan at);
/* Python truthiness of a compile-time value; false with a diagnostic when
 * v is not a compile-time scalar. */
bool sema_value_truth(Eval *e, const Value *v, bool *out);
/* Why glc does not support the Gluon name `name` of builtin namespace ns
 * ("gl", "tma", "hopper", ...), or NULL when it is not a known Gluon name
 * (sema/value/unsupported.c). */
const char *sema_unsupported_reason(const char *ns, const char *name);

/* The builtin called `name` inside namespace ns (NULL: the global scope). */
const Builtin *sema_builtin_lookup(const Builtin *ns, const char *name);
/* Names available inside ns, for "did you mean". */
size_t sema_builtin_names(const Builtin *ns, const char **names, size_t max);
/* What b is (a layout constructor, a namespace) and its name. */
bool sema_builtin_is_layout_ctor(const Builtin *b);
/* The namespace builtin called name ("gl", "triton", "hopper", "core"),
 * whatever scope it is visible in; NULL when there is none. */
const Builtin *sema_builtin_namespace(const char *name);
/* The static method `name` of layout class cls (NVMMASharedLayout's
 * get_default_for, PaddedSharedLayout's with_identity_for), or NULL. */
const Builtin *sema_builtin_static(const char *cls, const char *name);
bool sema_builtin_is_namespace(const Builtin *b);
const char *sema_builtin_name(const Builtin *b);
/* The receivers of methods: shared-memory descriptors and mbarriers,
 * register tensors and scalars, tensor descriptors. */
typedef enum MethodsOf { METHODS_SMEM, METHODS_VALUE, METHODS_DESC } MethodsOf;
/* The method `name` of a receiver of kind of; NULL when there is none. */
const Builtin *sema_builtin_method(MethodsOf of, const char *name);
/* Whether b is a name of triton.language (tl., tl.math., libdevice. and
 * triton.jit): the functions `@triton.jit` marks are compiled as Triton
 * compiles them (their layouts inferred as its passes infer them). */
bool sema_builtin_is_tl(const Builtin *b);
/* "tl" for a row of triton.language's namespaces, "gl" for Gluon's, NULL
 * for the others (methods, Python's builtins, tma., mbarrier., ...). */
const char *sema_builtin_ns(const Builtin *b);
/* Whether namespace ns is one whose missing names glc's tl prelude may
 * have (tl, tl.math, tl.core: sema/eval/prelude.c). */
bool sema_builtin_has_prelude(const Builtin *ns);
/* A callable builtin's parameters in order (optional ones end in '?'; one
 * that starts with '*' takes the remaining positional arguments as a
 * tuple): *params receives them; returns their count. */
enum { SEMA_MAX_BUILTIN_PARAMS = 12 };
int sema_builtin_params(const Builtin *b, const char *const **params);
/* The name as the user spells it in messages: "gl.load", "mbarrier.init",
 * "range", ".index" (methods), allocated in a. */
const char *sema_builtin_qualname(Arena *a, const Builtin *b);
/* The function id of a callable builtin (BF_NONE for namespaces, layout
 * constructors and dtypes); the dtype of a dtype builtin (DT_VOID if none). */
typedef enum BuiltinFn {
	BF_NONE,
	/* compile time */
	BF_CONSTEXPR, BF_PTR, BF_TENSOR_DESC, BF_STATIC_RANGE, BF_STATIC_ASSERT, BF_RANGE,
	BF_FLOAT, BF_INT, BF_LEN, BF_MIN_PY, BF_MAX_PY, BF_JIT, BF_KERNEL,
	/* tensors */
	BF_PROGRAM_ID, BF_NUM_PROGRAMS, BF_ARANGE, BF_FULL, BF_ZEROS, BF_FULL_LIKE, BF_ZEROS_LIKE,
	BF_ADD, BF_SUB, BF_MUL, BF_TO_LINEAR_LAYOUT, BF_BANK_CONFLICTS, BF_LOAD, BF_STORE,
	BF_SUM, BF_MAX, BF_MIN, BF_WHERE, BF_MAXIMUM, BF_MINIMUM, BF_EXP, BF_EXP2,
	BF_LOG, BF_LOG2, BF_SQRT, BF_RSQRT, BF_ABS, BF_CDIV, BF_CONVERT_LAYOUT,
	BF_EXPAND_DIMS,
	/* reductions and scans (sema/builtins/reduce.c) */
	BF_XOR_SUM, BF_REDUCE_OR, BF_REDUCE, BF_SCAN, BF_CUMSUM, BF_CUMPROD,
	/* atomics (sema/builtins/atomic.c) */
	BF_ATOMIC_ADD, BF_ATOMIC_AND, BF_ATOMIC_OR, BF_ATOMIC_XOR, BF_ATOMIC_MAX, BF_ATOMIC_MIN,
	BF_ATOMIC_XCHG, BF_ATOMIC_CAS,
	/* shape operations (sema/builtins/shape.c) */
	BF_RESHAPE, BF_PERMUTE, BF_JOIN, BF_SPLIT, BF_BROADCAST, BF_RAVEL, BF_GATHER, BF_HISTOGRAM,
	BF_FP4_TO_FP, BF_BROADCAST_TO, BF_VIEW, BF_TRANS, BF_CAT,
	/* shared memory and Hopper */
	BF_ALLOC_SHARED, BF_THREAD_BARRIER, BF_FENCE_ASYNC_SHARED, BF_MBAR_INIT,
	BF_MBAR_INVALIDATE, BF_MBAR_EXPECT, BF_MBAR_WAIT, BF_MBAR_ARRIVE, BF_TMA_LOAD,
	BF_TMA_STORE, BF_TMA_STORE_WAIT, BF_WGMMA, BF_WGMMA_WAIT, BF_WARP_SPECIALIZE,
	BF_DOT_FMA, BF_MMA_V2, BF_MBAR_ALLOC, BF_MAKE_DESC,
	/* triton.language's own (sema/builtins/tl_*.c) */
	BF_TL_DOT, BF_TL_MAKE_DESC, BF_DESC_LOAD, BF_DESC_STORE,
	BF_DESC_ATOMIC_ADD, BF_DESC_ATOMIC_MIN, BF_DESC_ATOMIC_MAX, BF_DESC_ATOMIC_AND,
	BF_DESC_ATOMIC_OR, BF_DESC_ATOMIC_XOR, BF_CONDITION, BF_LOGICAL_AND, BF_LOGICAL_OR,
	BF_ITEM, BF_LIBDEVICE,
	/* layout inference */
	BF_AUTO_LAYOUT, BF_SET_AUTO_LAYOUT,
	/* math and elementwise escapes (sema/builtins/math.c, elementwise.c) */
	BF_SIN, BF_COS, BF_ERF, BF_FLOOR, BF_CEIL, BF_SQRT_RN, BF_FDIV, BF_DIV_RN, BF_FMA,
	BF_UMULHI, BF_CLAMP, BF_CAST, BF_INLINE_ASM, BF_MAP_ELEMENTWISE, BF_NAN_ALL, BF_NAN_NONE,
	/* hints and cp.async (sema/builtins/memory.c); debugging (debug.c) */
	BF_MULTIPLE_OF, BF_MAX_CONTIGUOUS, BF_MAX_CONSTANCY, BF_ASSUME, BF_ASYNC_COPY,
	BF_ASYNC_MBAR_ARRIVE, BF_ASYNC_COMMIT, BF_ASYNC_WAIT, BF_DEVICE_PRINT, BF_DEVICE_ASSERT,
	/* methods */
	BF_SMEM_INDEX, BF_SMEM_SLICE, BF_SMEM_PERMUTE, BF_SMEM_RESHAPE, BF_SMEM_REINTERPRET,
	BF_SMEM_LOAD, BF_SMEM_STORE, BF_SMEM_KEEP_ALIVE, BF_TO,
	/* Python at compile time and Gluon queries (sema/eval/pybuiltins.c) */
	BF_PY_FIRST_,
	BF_CONSTEXPR_FUNCTION = BF_PY_FIRST_, BF_AGGREGATE, BF_STATICMETHOD, BF_ISINSTANCE,
	BF_ABS_PY, BF_NUM_WARPS, BF_NUM_CTAS, BF_TO_TENSOR, BF_STATIC_PRINT, BF_WGMMA_INIT,
	BF_NVMMA_DEFAULT, BF_PADDED_IDENTITY, BF_CURRENT_TARGET,
	/* Python's iteration builtins (sema/eval/pymethods.c) */
	BF_LIST_PY, BF_TUPLE_PY, BF_SUM_PY, BF_ZIP, BF_ENUMERATE, BF_ANY, BF_ALL, BF_SORTED,
	BF_REVERSED,
	/* Gluon's classes and gl.void (sema/eval/typeclass.c); the value classes
	 * first, then the type classes, then the layout base classes */
	BF_CLS_FIRST_,
	BF_CLS_BASE_VALUE = BF_CLS_FIRST_, BF_CLS_TENSOR, BF_CLS_SMEM, BF_CLS_TUPLE, BF_CLS_DESC,
	BF_CLS_WGMMA_ACC,
	BF_CLS_BASE_TYPE, BF_CLS_DTYPE, BF_CLS_BLOCK_TYPE, BF_CLS_DISTRIBUTED_TYPE,
	BF_CLS_POINTER_TYPE, BF_CLS_TUPLE_TYPE, BF_CLS_SMEM_TYPE, BF_CLS_DESC_TYPE,
	BF_CLS_WGMMA_ACC_TYPE,
	BF_CLS_DISTRIBUTED_LAYOUT, BF_CLS_SHARED_LAYOUT, BF_CLS_CONST,
	BF_VOID,
} BuiltinFn;
BuiltinFn sema_builtin_fn(const Builtin *b);
TDType sema_builtin_dtype(const Builtin *b);

/* isinstance(v, C) for the Gluon class C (BF_CLS_*), with Triton 3.6's
 * class hierarchy (distributed_type < block_type < dtype < base_type, ...);
 * false for any other fn (sema/value/classes.c). */
bool sema_is_class_instance(const Value *v, BuiltinFn cls);

#endif
