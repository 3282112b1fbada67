/*
 * The table of builtin names: namespaces (gl, tma, mbarrier, ...), the
 * functions, dtypes and layout constructors they hold. Lookups go through
 * this table, never through string compares spread over the checker.
 */
#include "sema/value/value.h"

#include <string.h>

typedef enum BuiltinKind { BI_NAMESPACE, BI_LAYOUT_CTOR, BI_FUNC, BI_DTYPE } BuiltinKind;

/* Scopes a builtin is visible in (bit set); a namespace opens one scope.
 * Methods live in scopes of their own, reached through the receiver. */
enum {
	IN_GLOBAL = 1, IN_GL = 2, IN_TTGL = 4, IN_MBARRIER = 8, IN_TMA = 16,
	IN_SMEM_METHODS = 32, IN_VALUE_METHODS = 64,
	/* reached only through imports of a .py file (sema_builtin_namespace) */
	IN_TRITON = 128, IN_EXPERIMENTAL = 256, IN_GLUON = 512, IN_HOPPER = 1024,
	IN_TL_CORE = 2048, IN_NVMMA_STATICS = 4096, IN_AMPERE = 8192,
	IN_ASYNC_COPY = 16384, IN_PROPAGATE_NAN = 32768, IN_PADDED_STATICS = 1u << 16,
	IN_LIBDEVICE = 1u << 19,
	/* triton.runtime.driver.active.get_current_target() */
	IN_RUNTIME = 1u << 20, IN_DRIVER = 1u << 21, IN_ACTIVE = 1u << 22, IN_TARGET = 1u << 23,
};

/* The signature of every callable builtin lives in this table: its
 * parameter names in order, optional ones marked with a trailing '?'.
 * Arguments are bound against it in one place (sema_bind_builtin). */
struct Builtin {
	const char *name;
	BuiltinKind kind;
	unsigned visible_in;   /* IN_* bits */
	unsigned opens;        /* namespaces: the scope of their members */
	BuiltinFn fn;          /* BI_FUNC */
	TDType dtype;          /* BI_DTYPE */
	const char *params[SEMA_MAX_BUILTIN_PARAMS];  /* BI_FUNC; NULL-terminated */
};

/* Layout constructors and gl functions are reachable through gl./ttgl.;
 * layouts also bare (as after `from ... import BlockedLayout`). The Hopper
 * names (tma, mbarrier, warpgroup_mma, ...) are global, as after the
 * `from ...nvidia.hopper import ...` the examples use, and also in gl. */
#define GL (IN_GL | IN_TTGL)
#define LAYOUT_SCOPES (IN_GLOBAL | GL)
/* gl functions that are also tensor methods (the tensor first) */
#define TENSOR_FN (GL | IN_VALUE_METHODS)
#define NS(n, opens) {n, BI_NAMESPACE, IN_GLOBAL | GL, opens, BF_NONE, DT_VOID, {0}}
#define LAYOUT(n, in) {n, BI_LAYOUT_CTOR, in, 0, BF_NONE, DT_VOID, {0}}
#define FN(n, in, f, ...) {n, BI_FUNC, in, 0, f, DT_VOID, {__VA_ARGS__}}
#define DT(n, t) {n, BI_DTYPE, GL, 0, BF_NONE, t, {0}}
static const Builtin table[] = {
	{"gl", BI_NAMESPACE, IN_GLOBAL, GL, BF_NONE, DT_VOID, {0}},
	{"ttgl", BI_NAMESPACE, IN_GLOBAL, GL, BF_NONE, DT_VOID, {0}},
	{"mbarrier", BI_NAMESPACE, IN_GLOBAL | GL | IN_HOPPER, IN_MBARRIER, BF_NONE, DT_VOID, {0}},
	{"tma", BI_NAMESPACE, IN_GLOBAL | GL | IN_HOPPER, IN_TMA, BF_NONE, DT_VOID, {0}},
	{"triton", BI_NAMESPACE, 0, IN_TRITON, BF_NONE, DT_VOID, {0}},
	{"experimental", BI_NAMESPACE, IN_TRITON, IN_EXPERIMENTAL, BF_NONE, DT_VOID, {0}},
	{"gluon", BI_NAMESPACE, IN_EXPERIMENTAL, IN_GLUON, BF_NONE, DT_VOID, {0}},
	{"language", BI_NAMESPACE, IN_TRITON | IN_GLUON, GL, BF_NONE, DT_VOID, {0}},
	{"hopper", BI_NAMESPACE, 0, IN_HOPPER, BF_NONE, DT_VOID, {0}},
	{"ampere", BI_NAMESPACE, 0, IN_AMPERE, BF_NONE, DT_VOID, {0}},
	{"core", BI_NAMESPACE, 0, IN_TL_CORE, BF_NONE, DT_VOID, {0}},
	{"async_copy", BI_NAMESPACE, IN_GLOBAL | GL | IN_HOPPER | IN_AMPERE, IN_ASYNC_COPY, BF_NONE,
	 DT_VOID, {0}},
	{"PropagateNan", BI_NAMESPACE, IN_GLOBAL | GL | IN_TL_CORE, IN_PROPAGATE_NAN, BF_NONE,
	 DT_VOID, {0}},
	{"libdevice", BI_NAMESPACE, 0, IN_LIBDEVICE, BF_NONE, DT_VOID, {0}},
	{"runtime", BI_NAMESPACE, IN_TRITON, IN_RUNTIME, BF_NONE, DT_VOID, {0}},
	{"driver", BI_NAMESPACE, IN_RUNTIME, IN_DRIVER, BF_NONE, DT_VOID, {0}},
	{"active", BI_NAMESPACE, IN_DRIVER, IN_ACTIVE, BF_NONE, DT_VOID, {0}},
	/* what get_current_target() returns: its attributes are sema_py_attr's */
	{"target", BI_NAMESPACE, 0, IN_TARGET, BF_NONE, DT_VOID, {0}},
	LAYOUT("BlockedLayout", LAYOUT_SCOPES),
	LAYOUT("SliceLayout", LAYOUT_SCOPES),
	LAYOUT("DotOperandLayout", LAYOUT_SCOPES),
	LAYOUT("NVMMADistributedLayout", LAYOUT_SCOPES),
	LAYOUT("DistributedLinearLayout", LAYOUT_SCOPES),
	LAYOUT("NVMMASharedLayout", LAYOUT_SCOPES),
	LAYOUT("SwizzledSharedLayout", LAYOUT_SCOPES),
	LAYOUT("SharedLinearLayout", LAYOUT_SCOPES),
	LAYOUT("PaddedSharedLayout", LAYOUT_SCOPES),
	LAYOUT("MBarrierLayout", IN_GLOBAL | IN_MBARRIER),
	FN("AutoLayout", LAYOUT_SCOPES, BF_AUTO_LAYOUT),
	/* Triton resolves it to the coalesced layout of the accesses; glc's
	 * layout inference does the same for an AutoLayout */
	FN("CoalescedLayout", LAYOUT_SCOPES, BF_AUTO_LAYOUT),
	FN("set_auto_layout", GL, BF_SET_AUTO_LAYOUT, "value", "layout"),
	DT("i1", DT_I1), DT("int1", DT_I1), DT("i8", DT_I8), DT("int8", DT_I8),
	DT("i16", DT_I16), DT("int16", DT_I16), DT("i32", DT_I32), DT("int32", DT_I32),
	DT("i64", DT_I64), DT("int64", DT_I64), DT("u8", DT_U8), DT("uint8", DT_U8),
	DT("u16", DT_U16), DT("uint16", DT_U16), DT("u32", DT_U32), DT("uint32", DT_U32),
	DT("u64", DT_U64), DT("uint64", DT_U64), DT("f16", DT_F16), DT("float16", DT_F16),
	DT("bf16", DT_BF16), DT("bfloat16", DT_BF16), DT("f32", DT_F32),
	DT("float32", DT_F32), DT("f64", DT_F64), DT("float64", DT_F64),
	DT("f8e4m3", DT_F8E4M3), DT("float8e4nv", DT_F8E4M3), DT("f8e5m2", DT_F8E5M2),
	DT("float8e5", DT_F8E5M2),
	FN("constexpr", GL, BF_CONSTEXPR, "value?"),
	/* Gluon's classes, for isinstance and the constructors kernels call
	 * (the others take any arguments, to refuse the call itself) */
	FN("base_value", GL, BF_CLS_BASE_VALUE, "*args"), FN("tensor", GL, BF_CLS_TENSOR, "*args"),
	FN("shared_memory_descriptor", GL, BF_CLS_SMEM, "*args"), FN("tuple", GL, BF_CLS_TUPLE, "*args"),
	FN("tensor_descriptor", IN_TMA, BF_CLS_DESC, "*args"), FN("base_type", GL, BF_CLS_BASE_TYPE, "*args"),
	FN("dtype", GL, BF_CLS_DTYPE, "name"),
	FN("block_type", GL, BF_CLS_BLOCK_TYPE, "element_ty", "shape"),
	FN("distributed_type", GL, BF_CLS_DISTRIBUTED_TYPE, "element_ty", "shape", "layout"),
	FN("pointer_type", GL, BF_CLS_POINTER_TYPE, "element_ty", "address_space?", "const?"),
	FN("tuple_type", GL, BF_CLS_TUPLE_TYPE, "types", "fields?"),
	FN("shared_memory_descriptor_type", GL, BF_CLS_SMEM_TYPE, "element_ty", "shape", "layout",
	   "alloc_shape"),
	FN("tensor_descriptor_type", IN_TMA, BF_CLS_DESC_TYPE, "block_type", "shape_type",
	   "strides_type", "layout"),
	FN("warpgroup_mma_accumulator", IN_GLOBAL | IN_HOPPER, BF_CLS_WGMMA_ACC, "*args"),
	FN("warpgroup_mma_accumulator_type", IN_GLOBAL | IN_HOPPER, BF_CLS_WGMMA_ACC_TYPE,
	   "tensor_type"),
	FN("DistributedLayout", GL, BF_CLS_DISTRIBUTED_LAYOUT, "*args"),
	FN("SharedLayout", GL, BF_CLS_SHARED_LAYOUT, "*args"),
	FN("void", GL, BF_VOID, "*args"),
	FN("ptr", GL, BF_PTR),
	FN("tensor_desc", GL, BF_TENSOR_DESC),
	FN("jit", GL | IN_TRITON | IN_GLUON, BF_JIT),
	FN("kernel", GL, BF_KERNEL),
	FN("static_range", GL, BF_STATIC_RANGE, "arg1", "arg2?", "step?"),
	FN("static_assert", GL, BF_STATIC_ASSERT, "cond", "msg?"),
	FN("range", IN_GLOBAL, BF_RANGE, "start", "end?", "step?"),
	FN("float", IN_GLOBAL, BF_FLOAT, "x"),
	FN("int", IN_GLOBAL, BF_INT, "x"),
	FN("len", IN_GLOBAL, BF_LEN, "x"),
	FN("min", IN_GLOBAL, BF_MIN_PY, "a", "b"),
	FN("max", IN_GLOBAL, BF_MAX_PY, "a", "b"),
	FN("program_id", GL, BF_PROGRAM_ID, "axis"),
	FN("num_programs", GL, BF_NUM_PROGRAMS, "axis"),
	FN("arange", GL, BF_ARANGE, "start", "end", "layout?"),
	FN("full", GL, BF_FULL, "shape", "value", "dtype", "layout?"),
	FN("zeros", GL, BF_ZEROS, "shape", "dtype", "layout?"),
	FN("full_like", GL, BF_FULL_LIKE, "input", "value", "shape?", "dtype?", "layout?"),
	FN("zeros_like", GL, BF_ZEROS_LIKE, "input", "shape?", "dtype?", "layout?"),
	FN("to_linear_layout", GL, BF_TO_LINEAR_LAYOUT, "layout", "shape"),
	FN("bank_conflicts", GL, BF_BANK_CONFLICTS, "distr_ty", "shared_ty"),
	FN("add", GL, BF_ADD, "x", "y", "sanitize_overflow?"),
	FN("sub", GL, BF_SUB, "x", "y", "sanitize_overflow?"),
	FN("mul", GL, BF_MUL, "x", "y", "sanitize_overflow?"),
	FN("load", GL, BF_LOAD, "pointer", "mask?", "other?", "boundary_check?", "padding_option?",
	   "cache_modifier?", "eviction_policy?", "volatile?"),
	FN("store", GL, BF_STORE, "pointer", "value", "mask?", "boundary_check?",
	   "cache_modifier?", "eviction_policy?"),
	FN("sum", TENSOR_FN, BF_SUM, "input", "axis?", "keep_dims?", "dtype?"),
	FN("max", TENSOR_FN, BF_MAX, "input", "axis?", "return_indices?",
	   "return_indices_tie_break_left?", "keep_dims?"),
	FN("min", TENSOR_FN, BF_MIN, "input", "axis?", "return_indices?",
	   "return_indices_tie_break_left?", "keep_dims?"),
	FN("xor_sum", TENSOR_FN, BF_XOR_SUM, "input", "axis?", "keep_dims?"),
	FN("reduce_or", TENSOR_FN, BF_REDUCE_OR, "input", "axis", "keep_dims?"),
	FN("reduce", TENSOR_FN, BF_REDUCE, "input", "axis", "combine_fn", "keep_dims?"),
	FN("associative_scan", TENSOR_FN, BF_SCAN, "input", "axis", "combine_fn", "reverse?"),
	FN("cumsum", IN_VALUE_METHODS, BF_CUMSUM, "input", "axis?", "reverse?", "dtype?"),
	FN("cumprod", IN_VALUE_METHODS, BF_CUMPROD, "input", "axis?", "reverse?"),
	FN("reshape", TENSOR_FN, BF_RESHAPE, "input", "*shape", "can_reorder?"),
	FN("permute", TENSOR_FN, BF_PERMUTE, "input", "*dims"),
	FN("join", GL, BF_JOIN, "a", "b"),
	FN("split", TENSOR_FN, BF_SPLIT, "a"),
	FN("broadcast", GL, BF_BROADCAST, "input", "other"),
	FN("ravel", TENSOR_FN, BF_RAVEL, "x", "can_reorder?"),
	FN("gather", TENSOR_FN, BF_GATHER, "src", "index", "axis"),
	FN("histogram", TENSOR_FN, BF_HISTOGRAM, "input", "num_bins", "mask?", "layout?"),
	FN("fp4_to_fp", GL, BF_FP4_TO_FP, "src", "elem_type", "axis"),
	FN("atomic_add", TENSOR_FN, BF_ATOMIC_ADD, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_and", TENSOR_FN, BF_ATOMIC_AND, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_or", TENSOR_FN, BF_ATOMIC_OR, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_xor", TENSOR_FN, BF_ATOMIC_XOR, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_max", TENSOR_FN, BF_ATOMIC_MAX, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_min", TENSOR_FN, BF_ATOMIC_MIN, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_xchg", TENSOR_FN, BF_ATOMIC_XCHG, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_cas", TENSOR_FN, BF_ATOMIC_CAS, "pointer", "cmp", "val", "sem?", "scope?"),
	FN("where", GL, BF_WHERE, "condition", "x", "y"),
	FN("maximum", GL, BF_MAXIMUM, "x", "y", "propagate_nan?"),
	FN("minimum", GL, BF_MINIMUM, "x", "y", "propagate_nan?"),
	FN("exp", GL, BF_EXP, "x"),
	FN("exp2", GL, BF_EXP2, "x"),
	FN("log", GL, BF_LOG, "x"),
	FN("log2", GL, BF_LOG2, "x"),
	FN("sqrt", GL, BF_SQRT, "x"),
	FN("rsqrt", GL, BF_RSQRT, "x"),
	FN("abs", GL, BF_ABS, "x"),
	FN("sin", GL, BF_SIN, "x"),
	FN("cos", GL, BF_COS, "x"),
	FN("erf", GL, BF_ERF, "x"),
	FN("floor", GL, BF_FLOOR, "x"),
	FN("ceil", GL, BF_CEIL, "x"),
	FN("sqrt_rn", GL, BF_SQRT_RN, "x"),
	FN("fdiv", GL, BF_FDIV, "x", "y", "ieee_rounding?"),
	FN("div_rn", GL, BF_DIV_RN, "x", "y"),
	FN("fma", GL, BF_FMA, "x", "y", "z"),
	FN("umulhi", GL, BF_UMULHI, "x", "y"),
	FN("clamp", GL, BF_CLAMP, "x", "min", "max", "propagate_nan?"),
	FN("cast", GL, BF_CAST, "input", "dtype", "fp_downcast_rounding?", "bitcast?"),
	FN("inline_asm_elementwise", GL, BF_INLINE_ASM, "asm", "constraints", "args", "dtype",
	   "is_pure", "pack"),
	FN("map_elementwise", GL, BF_MAP_ELEMENTWISE, "scalar_fn", "*args", "pack?"),
	FN("multiple_of", GL, BF_MULTIPLE_OF, "input", "values"),
	FN("max_contiguous", GL, BF_MAX_CONTIGUOUS, "input", "values"),
	FN("max_constancy", GL, BF_MAX_CONSTANCY, "input", "values"),
	FN("assume", GL, BF_ASSUME, "cond"),
	FN("device_print", GL, BF_DEVICE_PRINT, "prefix", "*args", "hex?"),
	FN("device_assert", GL, BF_DEVICE_ASSERT, "cond", "msg?", "mask?"),
	FN("ALL", IN_PROPAGATE_NAN, BF_NAN_ALL),
	FN("NONE", IN_PROPAGATE_NAN, BF_NAN_NONE),
	FN("cdiv", GL, BF_CDIV, "x", "div"),          /* tl.cdiv(x, div) */
	FN("cdiv", IN_TRITON, BF_CDIV, "x", "y"),     /* triton.cdiv(x, y) */
	FN("convert_layout", GL, BF_CONVERT_LAYOUT, "value", "layout", "assert_trivial?"),
	FN("expand_dims", TENSOR_FN, BF_EXPAND_DIMS, "input", "axis"),
	FN("allocate_shared_memory", GL, BF_ALLOC_SHARED, "element_ty", "shape", "layout", "value?"),
	FN("thread_barrier", GL, BF_THREAD_BARRIER),
	FN("warp_specialize", GL, BF_WARP_SPECIALIZE, "functions_and_args", "worker_num_warps",
	   "worker_num_regs"),
	FN("fence_async_shared", IN_GLOBAL | GL | IN_HOPPER, BF_FENCE_ASYNC_SHARED, "cluster?"),
	FN("warpgroup_mma", IN_GLOBAL | GL | IN_HOPPER, BF_WGMMA, "a", "b", "acc", "use_acc?",
	   "precision?", "max_num_imprecise_acc?", "is_async?"),
	FN("warpgroup_mma_wait", IN_GLOBAL | GL | IN_HOPPER, BF_WGMMA_WAIT, "num_outstanding", "deps?"),
	FN("dot_fma", GL, BF_DOT_FMA, "a", "b", "acc"),
	FN("mma_v2", IN_GLOBAL | GL | IN_AMPERE | IN_HOPPER, BF_MMA_V2, "a", "b", "acc", "input_precision?"),
	FN("init", IN_MBARRIER, BF_MBAR_INIT, "mbarrier", "count"),
	FN("allocate_mbarrier", IN_MBARRIER, BF_MBAR_ALLOC, "batch?", "two_ctas?"),
	FN("invalidate", IN_MBARRIER, BF_MBAR_INVALIDATE, "mbarrier"),
	FN("expect", IN_MBARRIER, BF_MBAR_EXPECT, "mbarrier", "bytes", "pred?"),
	FN("wait", IN_MBARRIER, BF_MBAR_WAIT, "mbarrier", "phase", "pred?", "deps?"),
	FN("arrive", IN_MBARRIER, BF_MBAR_ARRIVE, "mbarrier", "count?", "pred?"),
	FN("async_copy_global_to_shared", IN_TMA, BF_TMA_LOAD, "tensor_desc", "coord", "barrier", "result", "pred?"),
	FN("async_copy_shared_to_global", IN_TMA, BF_TMA_STORE, "tensor_desc", "coord", "src"),
	FN("async_load", IN_TMA, BF_TMA_LOAD, "tensor_desc", "coord", "barrier", "result", "pred?"),
	FN("async_store", IN_TMA, BF_TMA_STORE, "tensor_desc", "coord", "src"),
	FN("store_wait", IN_TMA, BF_TMA_STORE_WAIT, "pendings"),
	FN("make_tensor_descriptor", IN_TMA, BF_MAKE_DESC, "base", "shape", "strides", "block_shape",
	   "layout", "padding_option?"),
	FN("async_copy_global_to_shared", IN_ASYNC_COPY, BF_ASYNC_COPY, "smem", "pointer", "mask?",
	   "cache_modifier?", "eviction_policy?", "volatile?"),
	FN("async_load", IN_ASYNC_COPY, BF_ASYNC_COPY, "smem", "pointer", "mask?",
	   "cache_modifier?", "eviction_policy?", "volatile?"),
	FN("mbarrier_arrive", IN_ASYNC_COPY, BF_ASYNC_MBAR_ARRIVE, "mbarrier", "increment_count?"),
	FN("commit_group", IN_ASYNC_COPY, BF_ASYNC_COMMIT),
	FN("wait_group", IN_ASYNC_COPY, BF_ASYNC_WAIT, "num_outstanding?"),
	/* Python at compile time, and Gluon's decorators and queries */
	FN("constexpr_function", IN_GLOBAL | GL | IN_GLUON | IN_TL_CORE, BF_CONSTEXPR_FUNCTION),
	FN("_aggregate", IN_TL_CORE, BF_AGGREGATE),
	FN("aggregate", IN_GLOBAL | IN_GLUON, BF_AGGREGATE),
	FN("staticmethod", IN_GLOBAL, BF_STATICMETHOD),
	FN("isinstance", IN_GLOBAL, BF_ISINSTANCE, "obj", "classinfo"),
	FN("abs", IN_GLOBAL, BF_ABS_PY, "x"),
	FN("list", IN_GLOBAL, BF_LIST_PY, "iterable"),
	FN("tuple", IN_GLOBAL, BF_TUPLE_PY, "iterable"),
	FN("sum", IN_GLOBAL, BF_SUM_PY, "iterable", "start?"),
	FN("zip", IN_GLOBAL, BF_ZIP, "a", "b?", "c?"),
	FN("enumerate", IN_GLOBAL, BF_ENUMERATE, "iterable", "start?"),
	FN("any", IN_GLOBAL, BF_ANY, "iterable"),
	FN("all", IN_GLOBAL, BF_ALL, "iterable"),
	FN("sorted", IN_GLOBAL, BF_SORTED, "iterable"),
	FN("reversed", IN_GLOBAL, BF_REVERSED, "iterable"),
	FN("num_warps", GL, BF_NUM_WARPS),
	FN("num_ctas", GL, BF_NUM_CTAS),
	FN("to_tensor", GL, BF_TO_TENSOR, "x"),
	FN("static_print", GL, BF_STATIC_PRINT, "*values", "sep?", "end?", "file?", "flush?"),
	FN("warpgroup_mma_init", IN_GLOBAL | GL | IN_HOPPER, BF_WGMMA_INIT, "value"),
	FN("get_current_target", IN_ACTIVE, BF_CURRENT_TARGET),
	/* libdevice's fast f32 approximations: gl.exp (ex2.approx) and gl.fdiv */
	FN("fast_expf", IN_LIBDEVICE, BF_EXP, "x"),
	FN("fast_dividef", IN_LIBDEVICE, BF_FDIV, "x", "y", "ieee_rounding?"),
	FN("get_default_for", IN_NVMMA_STATICS, BF_NVMMA_DEFAULT, "block_shape", "dtype",
	   "transposed?", "fp4_padded?"),
	FN("with_identity_for", IN_PADDED_STATICS, BF_PADDED_IDENTITY, "interval_padding_pairs",
	   "shape", "order", "cga_layout?"),
	/* methods of shared-memory descriptors and mbarriers */
	FN("index", IN_SMEM_METHODS, BF_SMEM_INDEX, "index"),
	FN("slice", IN_SMEM_METHODS, BF_SMEM_SLICE, "start", "length", "dim?"),
	FN("permute", IN_SMEM_METHODS, BF_SMEM_PERMUTE, "order"),
	FN("reshape", IN_SMEM_METHODS, BF_SMEM_RESHAPE, "shape"),
	FN("_reinterpret", IN_SMEM_METHODS, BF_SMEM_REINTERPRET, "dtype", "shape", "layout"),
	FN("load", IN_SMEM_METHODS, BF_SMEM_LOAD, "layout?"),
	FN("store", IN_SMEM_METHODS, BF_SMEM_STORE, "value"),
	FN("_keep_alive", IN_SMEM_METHODS, BF_SMEM_KEEP_ALIVE),
	/* methods of register tensors and scalars */
	FN("to", IN_VALUE_METHODS, BF_TO, "self", "dtype", "fp_downcast_rounding?", "bitcast?"),
};
#undef GL
#define GL_SCOPES (IN_GL | IN_TTGL)
#undef TENSOR_FN
#undef LAYOUT_SCOPES
#undef NS
#undef LAYOUT
#undef FN
#undef DT

static unsigned
scope_of(const Builtin *ns)
{
	return ns ? ns->opens : IN_GLOBAL;
}

const Builtin *
sema_builtin_lookup(const Builtin *ns, const char *name)
{
	unsigned scope = scope_of(ns);
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if ((table[i].visible_in & scope) && strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

size_t
sema_builtin_names(const Builtin *ns, const char **names, size_t max)
{
	unsigned scope = scope_of(ns);
	size_t n = 0;
	for (size_t i = 0; i < sizeof table / sizeof *table && n < max; i++)
		if (table[i].visible_in & scope)
			names[n++] = table[i].name;
	return n;
}

bool
sema_builtin_is_layout_ctor(const Builtin *b)
{
	return b->kind == BI_LAYOUT_CTOR;
}

bool
sema_builtin_is_namespace(const Builtin *b)
{
	return b->kind == BI_NAMESPACE;
}

const char *
sema_builtin_name(const Builtin *b)
{
	return b->name;
}

const Builtin *
sema_builtin_method(bool of_smem, const char *name)
{
	unsigned scope = of_smem ? IN_SMEM_METHODS : IN_VALUE_METHODS;
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if ((table[i].visible_in & scope) && strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

int
sema_builtin_params(const Builtin *b, const char *const **params)
{
	int n = 0;
	while (n < SEMA_MAX_BUILTIN_PARAMS && b->params[n])
		n++;
	*params = b->params;
	return n;
}

const char *
sema_builtin_qualname(Arena *a, const Builtin *b)
{
	unsigned in = b->visible_in;
	const char *ns = in & IN_GLOBAL ? "" : in & GL_SCOPES ? "gl." : in & IN_MBARRIER ?
	                 "mbarrier." : in & IN_TMA ? "tma." : in & IN_ASYNC_COPY ? "async_copy." :
	                 in & IN_PROPAGATE_NAN ? "PropagateNan." : ".";
	return arena_printf(a, "%s%s", ns, b->name);
}

BuiltinFn
sema_builtin_fn(const Builtin *b)
{
	return b->kind == BI_FUNC ? b->fn : BF_NONE;
}

TDType
sema_builtin_dtype(const Builtin *b)
{
	return b->kind == BI_DTYPE ? b->dtype : DT_VOID;
}

const Builtin *
sema_builtin_namespace(const char *name)
{
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (table[i].kind == BI_NAMESPACE && strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

const Builtin *
sema_builtin_static(const char *cls, const char *name)
{
	unsigned scope = strcmp(cls, "NVMMASharedLayout") == 0   ? IN_NVMMA_STATICS
	                 : strcmp(cls, "PaddedSharedLayout") == 0 ? IN_PADDED_STATICS
	                                                          : 0;
	for (size_t i = 0; scope && i < sizeof table / sizeof *table; i++)
		if ((table[i].visible_in & scope) && strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}
