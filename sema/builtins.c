/*
 * The table of builtin names: namespaces (gl, tma, mbarrier, ...), the
 * functions, dtypes and layout constructors they hold. Lookups go through
 * this table, never through string compares spread over the checker.
 */
#include "sema/value.h"

#include <string.h>

typedef enum BuiltinKind { BI_NAMESPACE, BI_LAYOUT_CTOR, BI_FUNC, BI_DTYPE } BuiltinKind;

/* Scopes a builtin is visible in (bit set); a namespace opens one scope. */
enum {
	IN_GLOBAL = 1, IN_GL = 2, IN_TTGL = 4, IN_MBARRIER = 8, IN_TMA = 16,
};

struct Builtin {
	const char *name;
	BuiltinKind kind;
	unsigned visible_in;   /* IN_* bits */
	unsigned opens;        /* namespaces: the scope of their members */
	BuiltinFn fn;          /* BI_FUNC */
	TDType dtype;          /* BI_DTYPE */
};

/* Layout constructors and gl functions are reachable through gl./ttgl.;
 * layouts also bare (as after `from ... import BlockedLayout`). The Hopper
 * names (tma, mbarrier, warpgroup_mma, ...) are global, as after the
 * `from ...nvidia.hopper import ...` the examples use, and also in gl. */
#define GL (IN_GL | IN_TTGL)
#define LAYOUT_SCOPES (IN_GLOBAL | GL)
#define NS(n, opens) {n, BI_NAMESPACE, IN_GLOBAL | GL, opens, BF_NONE, DT_VOID}
#define LAYOUT(n, in) {n, BI_LAYOUT_CTOR, in, 0, BF_NONE, DT_VOID}
#define FN(n, in, f) {n, BI_FUNC, in, 0, f, DT_VOID}
#define DT(n, t) {n, BI_DTYPE, GL, 0, BF_NONE, t}
static const Builtin table[] = {
	{"gl", BI_NAMESPACE, IN_GLOBAL, GL, BF_NONE, DT_VOID},
	{"ttgl", BI_NAMESPACE, IN_GLOBAL, GL, BF_NONE, DT_VOID},
	NS("mbarrier", IN_MBARRIER),
	NS("tma", IN_TMA),
	LAYOUT("BlockedLayout", LAYOUT_SCOPES),
	LAYOUT("SliceLayout", LAYOUT_SCOPES),
	LAYOUT("DotOperandLayout", LAYOUT_SCOPES),
	LAYOUT("NVMMADistributedLayout", LAYOUT_SCOPES),
	LAYOUT("DistributedLinearLayout", LAYOUT_SCOPES),
	LAYOUT("NVMMASharedLayout", LAYOUT_SCOPES),
	LAYOUT("SwizzledSharedLayout", LAYOUT_SCOPES),
	LAYOUT("SharedLinearLayout", LAYOUT_SCOPES),
	LAYOUT("MBarrierLayout", IN_GLOBAL | IN_MBARRIER),
	FN("AutoLayout", LAYOUT_SCOPES, BF_AUTO_LAYOUT),
	FN("set_auto_layout", GL, BF_SET_AUTO_LAYOUT),
	DT("i1", DT_I1), DT("int1", DT_I1), DT("i8", DT_I8), DT("int8", DT_I8),
	DT("i16", DT_I16), DT("int16", DT_I16), DT("i32", DT_I32), DT("int32", DT_I32),
	DT("i64", DT_I64), DT("int64", DT_I64), DT("u8", DT_U8), DT("uint8", DT_U8),
	DT("u16", DT_U16), DT("uint16", DT_U16), DT("u32", DT_U32), DT("uint32", DT_U32),
	DT("u64", DT_U64), DT("uint64", DT_U64), DT("f16", DT_F16), DT("float16", DT_F16),
	DT("bf16", DT_BF16), DT("bfloat16", DT_BF16), DT("f32", DT_F32),
	DT("float32", DT_F32), DT("f64", DT_F64), DT("float64", DT_F64),
	DT("f8e4m3", DT_F8E4M3), DT("float8e4nv", DT_F8E4M3), DT("f8e5m2", DT_F8E5M2),
	DT("float8e5", DT_F8E5M2),
	FN("constexpr", GL, BF_CONSTEXPR),
	FN("ptr", GL, BF_PTR),
	FN("tensor_desc", GL, BF_TENSOR_DESC),
	FN("jit", GL, BF_JIT),
	FN("kernel", GL, BF_KERNEL),
	FN("static_range", GL, BF_STATIC_RANGE),
	FN("static_assert", GL, BF_STATIC_ASSERT),
	FN("range", IN_GLOBAL, BF_RANGE),
	FN("float", IN_GLOBAL, BF_FLOAT),
	FN("int", IN_GLOBAL, BF_INT),
	FN("len", IN_GLOBAL, BF_LEN),
	FN("min", IN_GLOBAL, BF_MIN_PY),
	FN("max", IN_GLOBAL, BF_MAX_PY),
	FN("program_id", GL, BF_PROGRAM_ID),
	FN("num_programs", GL, BF_NUM_PROGRAMS),
	FN("arange", GL, BF_ARANGE),
	FN("full", GL, BF_FULL),
	FN("zeros", GL, BF_ZEROS),
	FN("load", GL, BF_LOAD),
	FN("store", GL, BF_STORE),
	FN("sum", GL, BF_SUM),
	FN("max", GL, BF_MAX),
	FN("min", GL, BF_MIN),
	FN("where", GL, BF_WHERE),
	FN("maximum", GL, BF_MAXIMUM),
	FN("minimum", GL, BF_MINIMUM),
	FN("exp", GL, BF_EXP),
	FN("exp2", GL, BF_EXP2),
	FN("log", GL, BF_LOG),
	FN("log2", GL, BF_LOG2),
	FN("sqrt", GL, BF_SQRT),
	FN("rsqrt", GL, BF_RSQRT),
	FN("abs", GL, BF_ABS),
	FN("cdiv", GL, BF_CDIV),
	FN("convert_layout", GL, BF_CONVERT_LAYOUT),
	FN("expand_dims", GL, BF_EXPAND_DIMS),
	FN("allocate_shared_memory", GL, BF_ALLOC_SHARED),
	FN("thread_barrier", GL, BF_THREAD_BARRIER),
	FN("warp_specialize", GL, BF_WARP_SPECIALIZE),
	FN("fence_async_shared", IN_GLOBAL | GL, BF_FENCE_ASYNC_SHARED),
	FN("warpgroup_mma", IN_GLOBAL | GL, BF_WGMMA),
	FN("warpgroup_mma_wait", IN_GLOBAL | GL, BF_WGMMA_WAIT),
	FN("init", IN_MBARRIER, BF_MBAR_INIT),
	FN("invalidate", IN_MBARRIER, BF_MBAR_INVALIDATE),
	FN("expect", IN_MBARRIER, BF_MBAR_EXPECT),
	FN("wait", IN_MBARRIER, BF_MBAR_WAIT),
	FN("arrive", IN_MBARRIER, BF_MBAR_ARRIVE),
	FN("async_copy_global_to_shared", IN_TMA, BF_TMA_LOAD),
	FN("async_copy_shared_to_global", IN_TMA, BF_TMA_STORE),
	FN("store_wait", IN_TMA, BF_TMA_STORE_WAIT),
};
#undef GL
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
