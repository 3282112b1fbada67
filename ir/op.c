/*
 * The operations of the IR as text: their spellings, the attributes each
 * one carries, and the labels of their optional operands. The printer, the
 * reader and the verifier all take these from here, so the three agree.
 */
#include "ir/ir_internal.h"

#include <string.h>

static const struct {
	const char *name;
	unsigned attrs;       /* IrAttr bits */
} ops[OP_COUNT] = {
	[OP_CONST] = {"const", 0}, [OP_PARAM] = {"param", 0},
	[OP_PROGRAM_ID] = {"program_id", IA_AXIS}, [OP_NUM_PROGRAMS] = {"num_programs", IA_AXIS},
	[OP_ADD] = {"add", 0}, [OP_SUB] = {"sub", 0}, [OP_MUL] = {"mul", 0}, [OP_DIV] = {"div", 0},
	[OP_FLOORDIV] = {"floordiv", 0}, [OP_MOD] = {"mod", 0}, [OP_AND] = {"and", 0},
	[OP_OR] = {"or", 0}, [OP_XOR] = {"xor", 0}, [OP_SHL] = {"shl", 0}, [OP_SHR] = {"shr", 0},
	[OP_MIN] = {"min", IA_NAN}, [OP_MAX] = {"max", IA_NAN}, [OP_NEG] = {"neg", 0},
	[OP_NOT] = {"not", 0},
	[OP_LT] = {"lt", 0}, [OP_LE] = {"le", 0}, [OP_GT] = {"gt", 0}, [OP_GE] = {"ge", 0},
	[OP_EQ] = {"eq", 0}, [OP_NE] = {"ne", 0}, [OP_PTR_ADD] = {"ptr_add", 0},
	[OP_SELECT] = {"select", 0}, [OP_EXP] = {"exp", 0}, [OP_EXP2] = {"exp2", 0},
	[OP_LOG] = {"log", 0}, [OP_LOG2] = {"log2", 0}, [OP_SQRT] = {"sqrt", 0},
	[OP_RSQRT] = {"rsqrt", 0}, [OP_ABS] = {"abs", 0}, [OP_SIN] = {"sin", 0},
	[OP_COS] = {"cos", 0}, [OP_ERF] = {"erf", 0}, [OP_FLOOR] = {"floor", 0},
	[OP_CEIL] = {"ceil", 0}, [OP_SQRT_RN] = {"sqrt_rn", 0}, [OP_DIV_RN] = {"div_rn", 0},
	[OP_FDIV] = {"fdiv", 0}, [OP_FMA] = {"fma", 0}, [OP_CLAMP] = {"clamp", IA_NAN},
	[OP_UMULHI] = {"umulhi", 0}, [OP_CDIV] = {"cdiv", 0},
	[OP_CAST] = {"cast", IA_ROUND}, [OP_BITCAST] = {"bitcast", 0},
	[OP_MULTIPLE_OF] = {"multiple_of", IA_HINT},
	[OP_MAX_CONTIGUOUS] = {"max_contiguous", IA_HINT},
	[OP_MAX_CONSTANCY] = {"max_constancy", IA_HINT}, [OP_ASSUME] = {"assume", 0},
	[OP_SPLAT] = {"splat", 0}, [OP_BROADCAST] = {"broadcast", 0},
	[OP_EXPAND_DIMS] = {"expand_dims", IA_AXIS},
	[OP_CONVERT_LAYOUT] = {"convert_layout", IA_PLAN | IA_TRIVIAL},
	[OP_REDUCE] = {"reduce", IA_AXIS | IA_COMBINE}, [OP_SCAN] = {"scan", IA_AXIS | IA_REVERSE},
	[OP_YIELD] = {"yield", 0}, [OP_RESHAPE] = {"reshape", 0},
	[OP_PERMUTE] = {"permute", IA_ORDER}, [OP_JOIN] = {"join", 0},
	[OP_SPLIT] = {"split", IA_INDEX}, [OP_FP4_TO_FP] = {"fp4_to_fp", IA_AXIS},
	[OP_GATHER] = {"gather", IA_AXIS},
	[OP_HISTOGRAM] = {"histogram", 0}, [OP_ARANGE] = {"arange", IA_RANGE},
	[OP_FULL] = {"full", 0}, [OP_LOAD] = {"load", IA_ACCESS}, [OP_STORE] = {"store", IA_ACCESS},
	[OP_ATOMIC_RMW] = {"atomic_rmw", IA_RMW | IA_SEM}, [OP_ATOMIC_CAS] = {"atomic_cas", IA_SEM},
	[OP_SMEM_ALLOC] = {"smem_alloc", IA_ALLOC}, [OP_SMEM_VIEW] = {"smem_view", IA_VIEW},
	[OP_SMEM_LOAD] = {"smem_load", 0}, [OP_SMEM_STORE] = {"smem_store", 0},
	[OP_ASYNC_COPY] = {"async_copy", IA_ACCESS},
	[OP_ASYNC_COMMIT] = {"async_copy.commit_group", 0},
	[OP_ASYNC_WAIT] = {"async_copy.wait_group", IA_COUNT},
	[OP_ASYNC_MBAR_ARRIVE] = {"async_copy.mbarrier_arrive", IA_COUNT},
	[OP_MBAR_INIT] = {"mbarrier.init", IA_COUNT},
	[OP_MBAR_INVALIDATE] = {"mbarrier.invalidate", 0},
	[OP_MBAR_EXPECT] = {"mbarrier.expect", 0}, [OP_MBAR_WAIT] = {"mbarrier.wait", 0},
	[OP_MBAR_ARRIVE] = {"mbarrier.arrive", IA_COUNT}, [OP_TMA_LOAD] = {"tma.load", 0},
	[OP_TMA_STORE] = {"tma.store", 0}, [OP_TMA_STORE_WAIT] = {"tma.store_wait", IA_COUNT},
	[OP_DESC_SHAPE] = {"desc_shape", IA_AXIS}, [OP_MAKE_DESC] = {"make_desc", IA_NANFILL},
	[OP_WGMMA] = {"warpgroup_mma", IA_ASYNC | IA_IMPRECISE},
	[OP_WGMMA_WAIT] = {"warpgroup_mma_wait", IA_COUNT}, [OP_DOT] = {"dot", 0},
	[OP_FENCE_ASYNC_SHARED] = {"fence_async_shared", 0},
	[OP_THREAD_BARRIER] = {"thread_barrier", 0},
	[OP_PRINT] = {"device_print", IA_TEXT | IA_HEX}, [OP_ASSERT] = {"device_assert", IA_TEXT},
	[OP_INLINE_ASM] = {"inline_asm", IA_TEXT | IA_ASM | IA_PACK}, [OP_MAP] = {"map", IA_PACK},
	[OP_MAP_ARG] = {"map_arg", IA_INDEX}, [OP_MAP_YIELD] = {"map_yield", 0},
	[OP_EXTRACT] = {"extract", IA_INDEX}, [OP_EXTERN] = {"extern", IA_TEXT},
	[OP_VAR_READ] = {"read", 0},
	[OP_VAR_WRITE] = {"write", 0}, [OP_FOR] = {"for", 0}, [OP_IF] = {"if", 0},
	[OP_WHILE] = {"while", 0}, [OP_BREAK] = {"break", 0}, [OP_CONTINUE] = {"continue", 0},
	[OP_WARP_SPECIALIZE] = {"warp_specialize", 0},
};

const char *
ir_op_name(TOp op)
{
	return op < OP_COUNT && ops[op].name ? ops[op].name : "?";
}

TOp
ir_op_lookup(const char *s, size_t n)
{
	for (int op = 0; op < OP_COUNT; op++)
		if (strlen(ops[op].name) == n && memcmp(ops[op].name, s, n) == 0)
			return (TOp)op;
	return OP_COUNT;
}

unsigned
ir_op_attrs(TOp op)
{
	return op < OP_COUNT ? ops[op].attrs : 0;
}

const char *
ir_arg_label(const TInst *i, int k)
{
	switch (i->op) {
	case OP_LOAD:
		if (k == 1 && i->attr.has_mask)
			return "mask";
		return k == 1 && i->attr.has_other ? "other" : k == 2 ? "other" : NULL;
	case OP_STORE: case OP_ASYNC_COPY: case OP_ATOMIC_RMW: return k == 2 ? "mask" : NULL;
	case OP_HISTOGRAM: return k == 1 ? "mask" : NULL;
	case OP_MBAR_EXPECT: case OP_MBAR_WAIT: return k == 2 ? "pred" : NULL;
	case OP_MBAR_ARRIVE: return k == 1 ? "pred" : NULL;
	case OP_TMA_LOAD: return k == 3 && i->attr.has_pred ? "pred" : NULL;
	case OP_WGMMA: return k == 3 ? "use_acc" : NULL;
	default: return NULL;
	}
}

const char *
ir_round_name(TRound r)
{
	return r == RND_RTNE ? "rtne" : r == RND_RTZ ? "rtz" : "";
}

const char *
ir_cache_name(TCache c)
{
	static const char *const names[] = {
		[CACHE_NONE] = "", [CACHE_CA] = "ca", [CACHE_CG] = "cg", [CACHE_CS] = "cs",
		[CACHE_CV] = "cv", [CACHE_WB] = "wb", [CACHE_WT] = "wt",
	};
	return c <= CACHE_WT ? names[c] : "";
}

const char *
ir_text_key(TOp op)
{
	return op == OP_PRINT ? "prefix" : op == OP_ASSERT ? "message" : op == OP_EXTERN ? "symbol"
	       : "asm";
}

bool
ir_op_has_coords(TOp op)
{
	return op == OP_TMA_LOAD || op == OP_TMA_STORE;
}

const char *
ir_atomic_name(TAtomicOp op)
{
	static const char *const names[AT_COUNT] = {
		[AT_ADD] = "add", [AT_AND] = "and", [AT_OR] = "or", [AT_XOR] = "xor",
		[AT_MAX] = "max", [AT_MIN] = "min", [AT_XCHG] = "xchg",
	};
	return op < AT_COUNT ? names[op] : "?";
}

TOnDtype
ir_binary_on(TOp op)
{
	switch (op) {
	case OP_AND: case OP_OR: case OP_XOR: case OP_SHL: case OP_SHR: case OP_CDIV: case OP_UMULHI:
		return IR_ON_INTS;
	case OP_DIV: case OP_DIV_RN: case OP_FDIV:
		return IR_ON_FLOATS;
	default:
		return IR_ON_ANY;
	}
}

bool
ir_atomic_dtype_ok(TAtomicOp op, TDType t)
{
	bool wide = t == DT_I32 || t == DT_U32 || t == DT_I64 || t == DT_U64 || t == DT_F32 ||
	            t == DT_F64;
	if (op == AT_COUNT)
		return ir_dtype_bits(t) >= 16 && !ir_dtype_is_f8(t);
	return wide || (op == AT_ADD && (t == DT_F16 || t == DT_BF16));
}

const char *
ir_sem_name(TMemSem sem)
{
	static const char *const names[SEM_COUNT] = {
		[SEM_ACQ_REL] = "acq_rel", [SEM_ACQUIRE] = "acquire", [SEM_RELEASE] = "release",
		[SEM_RELAXED] = "relaxed",
	};
	return sem < SEM_COUNT ? names[sem] : "?";
}

const char *
ir_scope_name(TMemScope scope)
{
	static const char *const names[SCOPE_COUNT] = {
		[SCOPE_GPU] = "gpu", [SCOPE_CTA] = "cta", [SCOPE_SYS] = "sys",
	};
	return scope < SCOPE_COUNT ? names[scope] : "?";
}

bool
ir_combine_op(TOp op)
{
	return op == OP_ADD || op == OP_MAX || op == OP_MIN || op == OP_AND || op == OP_OR ||
	       op == OP_XOR;
}
