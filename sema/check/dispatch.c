/*
 * Calls of builtins: the checks that come before binding (range outside a
 * for loop, the builtins callable only in a kernel), the arguments bound
 * from the builtin table, and each function handed to its family's file.
 */
#include "sema/check/check.h"

Value *
sema_check_builtin_call(Check *ck, const Node *call, const Builtin *b)
{
	BuiltinFn fn = sema_builtin_fn(b);
	switch (fn) {
	case BF_RANGE:
		if (!ck->k || !ck->fr || !ck->fr->func || ck->host || ck->fr->func->kind == N_LAMBDA ||
		    sema_func_kind(ck, ck->fr->func) == FK_CONSTEXPR)
			return sema_py_range(ck, call, b);   /* compile-time Python: a list */
		/* fall through */
	case BF_STATIC_RANGE:
		diag_error(ck->d, call->span, "%s can only be the iterable of a for loop",
		           sema_builtin_qualname(ck->a, b));
		return NULL;
	case BF_PTR: case BF_TENSOR_DESC: case BF_JIT: case BF_KERNEL:
		diag_error(ck->d, call->span, "gl.%s is not callable here", sema_builtin_name(b));
		return NULL;
	default:
		break;
	}
	bool compile_time = fn == BF_FLOAT || fn == BF_INT || fn == BF_LEN || fn == BF_MIN_PY ||
	                    fn == BF_MAX_PY || fn == BF_STATIC_ASSERT || fn == BF_CONSTEXPR ||
	                    (fn >= BF_PY_FIRST_ && fn != BF_TO_TENSOR);
	if (!compile_time && !ck->k) {
		diag_error(ck->d, call->span, "%s can only be called inside a kernel",
		           sema_builtin_name(b));
		return NULL;
	}
	Value *a[SEMA_MAX_BUILTIN_PARAMS];
	if (!sema_bind_builtin(ck, call, b, a))
		return NULL;
	return sema_dispatch_builtin(ck, call, fn, a);
}

Value *
sema_dispatch_builtin(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	switch (fn) {
	case BF_MIN_PY: case BF_MAX_PY:
		if (a[0]->kind == VAL_RUNTIME || a[1]->kind == VAL_RUNTIME)
			return sema_check_tensor_call(ck, call, fn, a);
		return sema_check_py_call(ck, call, fn, a);
	case BF_FLOAT: case BF_INT: case BF_LEN: case BF_STATIC_ASSERT: case BF_CONSTEXPR:
		return sema_check_py_call(ck, call, fn, a);
	case BF_PROGRAM_ID: case BF_NUM_PROGRAMS: case BF_ARANGE: case BF_FULL: case BF_ZEROS:
	case BF_FULL_LIKE: case BF_ZEROS_LIKE: case BF_TO_TENSOR: case BF_TO_LINEAR_LAYOUT:
	case BF_ADD: case BF_SUB: case BF_MUL: case BF_WHERE: case BF_CONVERT_LAYOUT:
	case BF_SET_AUTO_LAYOUT: case BF_EXPAND_DIMS:
		return sema_check_tensor_call(ck, call, fn, a);
	case BF_BANK_CONFLICTS: return sema_bank_conflicts(ck, call, a);
	case BF_LOAD: case BF_STORE: case BF_MULTIPLE_OF: case BF_MAX_CONTIGUOUS:
	case BF_MAX_CONSTANCY: case BF_ASSUME: case BF_ASYNC_COPY: case BF_ASYNC_COMMIT:
	case BF_ASYNC_WAIT: case BF_ASYNC_MBAR_ARRIVE:
		return sema_check_memory_call(ck, call, fn, a);
	case BF_SUM: case BF_MAX: case BF_MIN: case BF_XOR_SUM: case BF_REDUCE_OR: case BF_REDUCE:
	case BF_SCAN: case BF_CUMSUM: case BF_CUMPROD:
		return sema_check_reduce_call(ck, call, fn, a);
	case BF_ATOMIC_ADD: case BF_ATOMIC_AND: case BF_ATOMIC_OR: case BF_ATOMIC_XOR:
	case BF_ATOMIC_MAX: case BF_ATOMIC_MIN: case BF_ATOMIC_XCHG: case BF_ATOMIC_CAS:
		return sema_check_atomic_call(ck, call, fn, a);
	case BF_RESHAPE: case BF_PERMUTE: case BF_JOIN: case BF_SPLIT: case BF_BROADCAST:
	case BF_RAVEL: case BF_GATHER: case BF_HISTOGRAM: case BF_FP4_TO_FP:
		return sema_check_shape_call(ck, call, fn, a);
	case BF_EXP: case BF_EXP2: case BF_LOG: case BF_LOG2: case BF_SQRT: case BF_RSQRT:
	case BF_ABS: case BF_SIN: case BF_COS: case BF_ERF: case BF_FLOOR: case BF_CEIL:
	case BF_SQRT_RN: case BF_FDIV: case BF_DIV_RN: case BF_FMA: case BF_UMULHI: case BF_CLAMP:
	case BF_MAXIMUM: case BF_MINIMUM: case BF_CDIV:
		return sema_check_math_call(ck, call, fn, a);
	case BF_CAST:
		return sema_cast_call(ck, call, a[0], a[1], a[2], a[3]);
	case BF_STATIC_PRINT: case BF_DEVICE_PRINT: case BF_DEVICE_ASSERT:
		return sema_check_debug_call(ck, call, fn, a);
	case BF_INLINE_ASM: case BF_MAP_ELEMENTWISE:
		return sema_check_elementwise_call(ck, call, fn, a);
	case BF_WGMMA: case BF_WGMMA_WAIT: case BF_DOT_FMA: case BF_MMA_V2:
		return sema_check_mma_call(ck, call, fn, a);
	case BF_WGMMA_INIT:
		return sema_wgmma_init(ck, a[0]);
	case BF_ALLOC_SHARED:
		return sema_smem_alloc(ck, call, a);
	case BF_MAKE_DESC:
		return sema_make_desc(ck, call, a);
	case BF_WARP_SPECIALIZE:
		return sema_warp_specialize(ck, call, a);
	default:
		if (fn >= BF_PY_FIRST_)
			return sema_check_py_call(ck, call, fn, a);
		return sema_check_hopper_call(ck, call, fn, a);
	}
}
