/*
 * The builtin rows of triton.language (`import triton.language as tl`),
 * with Triton 3.6's signatures: tl's own namespace, so that a tl kernel
 * reaches exactly tl's names and its diagnostics say `tl.` (a row's
 * qualified name is "tl." + its name). Most rows share their function id
 * with the Gluon row of the same operation and differ in their parameters
 * (tl's take no layouts: every tensor's layout is inferred). tl's standard
 * library (softmax, argmax, sort, the random numbers, block pointers, ...)
 * is not here: it is glc's prelude, written in tl (the files of sema/prelude/),
 * which the tl namespaces fall back to (sema/eval/prelude.c). tl.math's
 * rows are tl's own math rows, visible in both; tl.extra.cuda.libdevice
 * is libdevice_table.c.
 */
#include "sema/value/table.h"

#define TL (IN_TL | IN_TL_CORE)
#define TLM (IN_TL | IN_TL_CORE | IN_TL_MATH)
/* tl functions that are also tensor methods (the tensor first) */
#define TLX (IN_TL | IN_TL_CORE | IN_VALUE_METHODS)
#define NS(n, in, opens) {n, BI_NAMESPACE, in, opens, BF_NONE, DT_VOID, {0}}
#define DT(n, t) {n, BI_DTYPE, TL, 0, BF_NONE, t, {0}}
const Builtin sema_tl_rows[] = {
	NS("math", TL, IN_TL_MATH),
	NS("extra", TL, IN_TL_EXTRA),
	NS("cuda", IN_TL_EXTRA, IN_TL_CUDA),
	NS("libdevice", IN_TL_EXTRA | IN_TL_CUDA, IN_LIBDEVICE),
	DT("int1", DT_I1), DT("int8", DT_I8), DT("int16", DT_I16), DT("int32", DT_I32),
	DT("int64", DT_I64), DT("uint8", DT_U8), DT("uint16", DT_U16), DT("uint32", DT_U32),
	DT("uint64", DT_U64), DT("float16", DT_F16), DT("bfloat16", DT_BF16),
	DT("float32", DT_F32), DT("float64", DT_F64), DT("float8e4nv", DT_F8E4M3),
	DT("float8e5", DT_F8E5M2),
	/* compile time and types */
	FN("constexpr", TL, BF_CONSTEXPR, "value?"),
	FN("static_range", TL, BF_STATIC_RANGE, "arg1", "arg2?", "step?"),
	FN("static_assert", TL, BF_STATIC_ASSERT, "cond", "msg?"),
	FN("static_print", TL, BF_STATIC_PRINT, "*values", "sep?", "end?", "file?", "flush?"),
	FN("range", TL, BF_RANGE, "arg1", "arg2?", "step?", "num_stages?", "loop_unroll_factor?",
	   "disallow_acc_multi_buffer?", "flatten?", "warp_specialize?", "disable_licm?"),
	FN("condition", TL, BF_CONDITION, "arg1", "disable_licm?"),
	FN("tensor", TL, BF_CLS_TENSOR, "*args"),
	FN("tuple", TL, BF_CLS_TUPLE, "*args"),
	FN("dtype", TL, BF_CLS_DTYPE, "name"),
	FN("block_type", TL, BF_CLS_BLOCK_TYPE, "element_ty", "shape"),
	FN("pointer_type", TL, BF_CLS_POINTER_TYPE, "element_ty", "address_space?", "const?"),
	FN("tuple_type", TL, BF_CLS_TUPLE_TYPE, "types", "fields?"),
	FN("tensor_descriptor", TL, BF_CLS_DESC, "*args"),
	FN("tensor_descriptor_type", TL, BF_CLS_DESC_TYPE, "block_type", "shape_type",
	   "strides_type"),
	FN("const", TL, BF_CLS_CONST, "*args"),
	FN("void", TL, BF_VOID, "*args"),
	FN("to_tensor", IN_TL_CORE, BF_TO_TENSOR, "x"),   /* tl.core's, not tl's */
	/* program and tensors */
	FN("program_id", TL, BF_PROGRAM_ID, "axis"),
	FN("num_programs", TL, BF_NUM_PROGRAMS, "axis"),
	FN("arange", TL, BF_ARANGE, "start", "end"),
	FN("full", TL, BF_FULL, "shape", "value", "dtype"),
	FN("zeros", TL, BF_ZEROS, "shape", "dtype"),
	FN("zeros_like", TL, BF_ZEROS_LIKE, "input"),
	FN("cast", TLX, BF_CAST, "input", "dtype", "fp_downcast_rounding?", "bitcast?"),
	FN("add", TL, BF_ADD, "x", "y", "sanitize_overflow?"),
	FN("sub", TL, BF_SUB, "x", "y", "sanitize_overflow?"),
	FN("mul", TL, BF_MUL, "x", "y", "sanitize_overflow?"),
	FN("where", TL, BF_WHERE, "condition", "x", "y"),
	FN("maximum", TL, BF_MAXIMUM, "x", "y", "propagate_nan?"),
	FN("minimum", TL, BF_MINIMUM, "x", "y", "propagate_nan?"),
	FN("clamp", TL, BF_CLAMP, "x", "min", "max", "propagate_nan?"),
	FN("cdiv", TLX, BF_CDIV, "x", "div"),
	/* memory */
	FN("load", TL, BF_LOAD, "pointer", "mask?", "other?", "boundary_check?", "padding_option?",
	   "cache_modifier?", "eviction_policy?", "volatile?"),
	FN("store", TLX, BF_STORE, "pointer", "value", "mask?", "boundary_check?",
	   "cache_modifier?", "eviction_policy?"),
	FN("make_tensor_descriptor", TL, BF_TL_MAKE_DESC, "base", "shape", "strides",
	   "block_shape", "padding_option?"),
	FN("load_tensor_descriptor", TL, BF_DESC_LOAD, "desc", "offsets"),
	FN("store_tensor_descriptor", TL, BF_DESC_STORE, "desc", "offsets", "value"),
	FN("atomic_add", TLX, BF_ATOMIC_ADD, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_and", TLX, BF_ATOMIC_AND, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_or", TLX, BF_ATOMIC_OR, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_xor", TLX, BF_ATOMIC_XOR, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_max", TLX, BF_ATOMIC_MAX, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_min", TLX, BF_ATOMIC_MIN, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_xchg", TLX, BF_ATOMIC_XCHG, "pointer", "val", "mask?", "sem?", "scope?"),
	FN("atomic_cas", TLX, BF_ATOMIC_CAS, "pointer", "cmp", "val", "sem?", "scope?"),
	FN("multiple_of", TL, BF_MULTIPLE_OF, "input", "values"),
	FN("max_contiguous", TL, BF_MAX_CONTIGUOUS, "input", "values"),
	FN("max_constancy", TL, BF_MAX_CONSTANCY, "input", "values"),
	FN("assume", TL, BF_ASSUME, "cond"),
	FN("debug_barrier", TL, BF_THREAD_BARRIER),
	/* reductions and scans */
	FN("sum", TL, BF_SUM, "input", "axis?", "keep_dims?", "dtype?"),
	FN("max", TL, BF_MAX, "input", "axis?", "return_indices?", "return_indices_tie_break_left?",
	   "keep_dims?"),
	FN("min", TL, BF_MIN, "input", "axis?", "return_indices?", "return_indices_tie_break_left?",
	   "keep_dims?"),
	FN("xor_sum", TL, BF_XOR_SUM, "input", "axis?", "keep_dims?"),
	FN("reduce_or", TL, BF_REDUCE_OR, "input", "axis", "keep_dims?"),
	FN("reduce", TL, BF_REDUCE, "input", "axis", "combine_fn", "keep_dims?"),
	FN("associative_scan", TL, BF_SCAN, "input", "axis", "combine_fn", "reverse?"),
	FN("cumsum", TL, BF_CUMSUM, "input", "axis?", "reverse?", "dtype?"),
	FN("cumprod", TL, BF_CUMPROD, "input", "axis?", "reverse?"),
	FN("histogram", TL, BF_HISTOGRAM, "input", "num_bins", "mask?"),
	FN("gather", TL, BF_GATHER, "src", "index", "axis"),
	/* shapes */
	FN("expand_dims", TL, BF_EXPAND_DIMS, "input", "axis"),
	FN("broadcast", TL, BF_BROADCAST, "input", "other"),
	FN("broadcast_to", TLX, BF_BROADCAST_TO, "input", "*shape"),
	FN("reshape", TL, BF_RESHAPE, "input", "*shape", "can_reorder?"),
	FN("view", TLX, BF_VIEW, "input", "*shape"),
	FN("permute", TL, BF_PERMUTE, "input", "*dims"),
	FN("trans", TLX, BF_TRANS, "input", "*dims"),
	FN("join", TL, BF_JOIN, "a", "b"),
	FN("split", TL, BF_SPLIT, "a"),
	FN("cat", TL, BF_CAT, "input", "other", "can_reorder?"),
	FN("ravel", TL, BF_RAVEL, "x", "can_reorder?"),
	/* matrix multiplies */
	FN("dot", TL, BF_TL_DOT, "input", "other", "acc?", "input_precision?", "allow_tf32?",
	   "max_num_imprecise_acc?", "out_dtype?"),
	/* math (also tl.math's) */
	FN("exp", TLM | IN_VALUE_METHODS, BF_EXP, "x"),
	FN("exp2", TLM | IN_VALUE_METHODS, BF_EXP2, "x"),
	FN("log", TLM | IN_VALUE_METHODS, BF_LOG, "x"),
	FN("log2", TLM | IN_VALUE_METHODS, BF_LOG2, "x"),
	FN("sqrt", TLM | IN_VALUE_METHODS, BF_SQRT, "x"),
	FN("sqrt_rn", TLM | IN_VALUE_METHODS, BF_SQRT_RN, "x"),
	FN("rsqrt", TLM | IN_VALUE_METHODS, BF_RSQRT, "x"),
	FN("abs", TLM | IN_VALUE_METHODS, BF_ABS, "x"),
	FN("sin", TLM | IN_VALUE_METHODS, BF_SIN, "x"),
	FN("cos", TLM | IN_VALUE_METHODS, BF_COS, "x"),
	FN("erf", TLM | IN_VALUE_METHODS, BF_ERF, "x"),
	FN("floor", TLM | IN_VALUE_METHODS, BF_FLOOR, "x"),
	FN("ceil", TLM | IN_VALUE_METHODS, BF_CEIL, "x"),
	FN("fdiv", TLM, BF_FDIV, "x", "y", "ieee_rounding?"),
	FN("div_rn", TLM, BF_DIV_RN, "x", "y"),
	FN("fma", TLM, BF_FMA, "x", "y", "z"),
	FN("umulhi", TLM, BF_UMULHI, "x", "y"),
	/* escapes and debugging */
	FN("inline_asm_elementwise", TL, BF_INLINE_ASM, "asm", "constraints", "args", "dtype",
	   "is_pure", "pack"),
	FN("map_elementwise", TL, BF_MAP_ELEMENTWISE, "scalar_fn", "*args", "pack?"),
	FN("device_print", TL, BF_DEVICE_PRINT, "prefix", "*args", "hex?"),
	FN("device_assert", TL, BF_DEVICE_ASSERT, "cond", "msg?", "mask?"),
	/* methods of tensor descriptors */
	FN("load", IN_DESC_METHODS, BF_DESC_LOAD, "desc", "offsets"),
	FN("store", IN_DESC_METHODS, BF_DESC_STORE, "desc", "offsets", "value"),
	FN("atomic_add", IN_DESC_METHODS, BF_DESC_ATOMIC_ADD, "desc", "offsets", "value"),
	FN("atomic_min", IN_DESC_METHODS, BF_DESC_ATOMIC_MIN, "desc", "offsets", "value"),
	FN("atomic_max", IN_DESC_METHODS, BF_DESC_ATOMIC_MAX, "desc", "offsets", "value"),
	FN("atomic_and", IN_DESC_METHODS, BF_DESC_ATOMIC_AND, "desc", "offsets", "value"),
	FN("atomic_or", IN_DESC_METHODS, BF_DESC_ATOMIC_OR, "desc", "offsets", "value"),
	FN("atomic_xor", IN_DESC_METHODS, BF_DESC_ATOMIC_XOR, "desc", "offsets", "value"),
	/* methods of tensors that are no tl function */
	FN("logical_and", IN_VALUE_METHODS, BF_LOGICAL_AND, "input", "other"),
	FN("logical_or", IN_VALUE_METHODS, BF_LOGICAL_OR, "input", "other"),
	FN("item", IN_VALUE_METHODS, BF_ITEM, "input"),
};
const size_t sema_tl_n_rows = sizeof sema_tl_rows / sizeof *sema_tl_rows;
