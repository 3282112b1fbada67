/*
 * Elementwise operations, register by register: arithmetic, comparisons,
 * pointer offsets, where; math functions are in lower_math.c, casts in
 * lower_cast.c.
 *
 * f8 (e4m3, e5m2) values are storage types: pointers to them move, they
 * load, store, select and cast; arithmetic on them is reported as
 * unsupported.
 */
#include "codegen/ops/ops.h"

static LLVMValueRef
compare(CgModule *m, TOp op, TDType t, LLVMValueRef a, LLVMValueRef b)
{
	if (cg_dtype_is_fp(t)) {
		static const LLVMRealPredicate fp[] = {
			LLVMRealOLT, LLVMRealOLE, LLVMRealOGT, LLVMRealOGE, LLVMRealOEQ, LLVMRealUNE,
		};
		return LLVMBuildFCmp(m->b, fp[op - OP_LT], a, b, "");
	}
	bool s = ir_dtype_is_signed(t);
	static const LLVMIntPredicate sp[] = {
		LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE, LLVMIntEQ, LLVMIntNE,
	};
	static const LLVMIntPredicate up[] = {
		LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE, LLVMIntEQ, LLVMIntNE,
	};
	return LLVMBuildICmp(m->b, (s ? sp : up)[op - OP_LT], a, b, "");
}

static bool
is_pointer(const TType *t)
{
	return t->kind == TY_PTR || t->elem_is_ptr;
}

/* One element of a cast or bitcast from dtype t: a pointer to a pointer
 * keeps the address (LLVM's pointers are untyped), a pointer to i64 is
 * ptrtoint, an integer to a pointer inttoptr (zero-extended to 64 bits, as
 * Triton's), numbers convert. */
static LLVMValueRef
cast_element(Lower *l, const TInst *in, TDType t, LLVMValueRef a)
{
	const TType *from = in->args[0]->type, *to = in->res->type;
	if (is_pointer(from) && is_pointer(to))
		return a;
	if (is_pointer(from))
		return LLVMBuildPtrToInt(l->m->b, a, l->m->i64, "");
	if (is_pointer(to))
		return LLVMBuildIntToPtr(l->m->b, a, l->m->ptr_global, "");
	return cg_cast(l, in, t, to->dtype, a);
}

/* Why op cannot apply to operands of dtype t (a phrase to append), or
 * NULL when it can. */
static const char *
operand_problem(TOp op, TDType t)
{
	if (ir_dtype_is_f8(t))
		return op == OP_CAST || op == OP_BITCAST || op == OP_SELECT || op == OP_PTR_ADD
		       ? NULL : " (cast to f16 or f32 first)";
	switch (op) {
	case OP_AND: case OP_OR: case OP_XOR: case OP_SHL: case OP_SHR: case OP_NOT:
	case OP_CDIV:
		return cg_dtype_is_fp(t) ? "" : NULL;
	case OP_UMULHI:
		return t == DT_I32 || t == DT_I64 || t == DT_U32 || t == DT_U64 ? NULL
		                                                                 : " (32- or 64-bit integers)";
	case OP_DIV: case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2: case OP_SQRT:
	case OP_RSQRT: case OP_SIN: case OP_COS: case OP_ERF: case OP_FLOOR: case OP_CEIL:
	case OP_SQRT_RN: case OP_DIV_RN: case OP_FDIV: case OP_FMA: case OP_CLAMP:
		return cg_dtype_is_fp(t) ? NULL : " (cast to a float type first)";
	default:
		return NULL;
	}
}

/* One element: op on a (and b, c) of dtype t. */
static LLVMValueRef
element(Lower *l, const TInst *in, TOp op, TDType t, LLVMValueRef a, LLVMValueRef b,
        LLVMValueRef c)
{
	CgModule *m = l->m;
	LLVMBuilderRef B = m->b;
	bool f = cg_dtype_is_fp(t), s = ir_dtype_is_signed(t);
	const char *why = operand_problem(op, t);
	if (why) {
		cg_unsupported(l, in, arena_printf(m->arena, "%s on %s%s", ir_op_name(op),
		                                   ir_dtype_name(t), why));
		return NULL;
	}
	switch (op) {
	case OP_ADD: return f ? LLVMBuildFAdd(B, a, b, "") : LLVMBuildAdd(B, a, b, "");
	case OP_SUB: return f ? LLVMBuildFSub(B, a, b, "") : LLVMBuildSub(B, a, b, "");
	case OP_MUL: return f ? LLVMBuildFMul(B, a, b, "") : LLVMBuildMul(B, a, b, "");
	case OP_DIV:
		/* Triton's `/`: div.full.f32 (2 ulp) on f32 (sema computes f16 and
		 * bf16 in f32), IEEE division (div.rn.f64) on f64 */
		if (t == DT_F32)
			return cg_binary_intrinsic(m, "llvm.nvvm.div.full", a, b, false);
		return LLVMBuildFDiv(B, a, b, "");
	case OP_FLOORDIV:
		if (f)
			return cg_unary_intrinsic(m, "llvm.floor", LLVMBuildFDiv(B, a, b, ""), true);
		return s ? LLVMBuildSDiv(B, a, b, "") : LLVMBuildUDiv(B, a, b, "");
	case OP_MOD:
		if (f)   /* Triton's arith.remf: C's fmod, the sign of a */
			return LLVMBuildFRem(B, a, b, "");
		return s ? LLVMBuildSRem(B, a, b, "") : LLVMBuildURem(B, a, b, "");
	case OP_CDIV: {
		LLVMValueRef one = LLVMConstInt(LLVMTypeOf(b), 1, 0);
		LLVMValueRef n = LLVMBuildSub(B, LLVMBuildAdd(B, a, b, ""), one, "");
		return s ? LLVMBuildSDiv(B, n, b, "") : LLVMBuildUDiv(B, n, b, "");
	}
	case OP_AND: return LLVMBuildAnd(B, a, b, "");
	case OP_OR: return LLVMBuildOr(B, a, b, "");
	case OP_XOR: return LLVMBuildXor(B, a, b, "");
	case OP_SHL: return LLVMBuildShl(B, a, b, "");
	case OP_SHR: return s ? LLVMBuildAShr(B, a, b, "") : LLVMBuildLShr(B, a, b, "");
	case OP_MIN:
	case OP_MAX:
		if (f && in->attr.propagate_nan)
			return cg_binary_intrinsic(m, op == OP_MIN ? "llvm.minimum" : "llvm.maximum", a, b,
			                           true);
		if (f)
			return cg_binary_intrinsic(m, op == OP_MIN ? "llvm.minnum" : "llvm.maxnum", a, b,
			                           true);
		return cg_binary_intrinsic(m, op == OP_MIN ? (s ? "llvm.smin" : "llvm.umin")
		                                               : (s ? "llvm.smax" : "llvm.umax"),
		                           a, b, true);
	case OP_NEG:
		/* Triton negates as 0 - x: -(+0.0) is +0.0, a NaN keeps its sign. */
		return f ? LLVMBuildFSub(B, LLVMConstNull(LLVMTypeOf(a)), a, "")
		         : LLVMBuildNeg(B, a, "");
	case OP_NOT:
		return LLVMBuildNot(B, a, "");
	case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_EQ: case OP_NE:
		return compare(m, op, t, a, b);
	case OP_PTR_ADD: {
		if (!ir_dtype_is_signed(in->args[1]->type->dtype))
			b = LLVMBuildZExt(B, b, m->i64, "");
		return LLVMBuildGEP2(B, cg_dtype_type(m, in->res->type->dtype), a, &b, 1, "");
	}
	case OP_SELECT:
		return LLVMBuildSelect(B, a, b, c, "");
	case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2: case OP_SQRT: case OP_RSQRT:
	case OP_ABS: case OP_SIN: case OP_COS: case OP_ERF: case OP_FLOOR: case OP_CEIL:
	case OP_SQRT_RN: case OP_DIV_RN: case OP_FDIV: case OP_FMA: case OP_CLAMP: case OP_UMULHI:
		return cg_math(l, in, op, t, a, b, c);
	case OP_CAST: case OP_BITCAST:
		return cast_element(l, in, t, a);
	default:
		cg_unsupported(l, in, "this operation");
		return NULL;
	}
}

LLVMValueRef
cg_binary(Lower *l, const TInst *in, TOp op, TDType t, LLVMValueRef a, LLVMValueRef b)
{
	return element(l, in, op, t, a, b, NULL);
}

bool
cg_lower_elementwise(Lower *l, const TInst *in)
{
	/* The operand type decides the semantics (where: the value operands). */
	const TValue *first = in->args[in->op == OP_SELECT ? 1 : 0];
	TDType t = first->type->dtype;
	CgVal a = cg_val(l, in->args[0]);
	CgVal b = in->n_args > 1 ? cg_val(l, in->args[1]) : a;
	CgVal c = in->n_args > 2 ? cg_val(l, in->args[2]) : a;
	int n = cg_type_regs(in->res->type);
	CgVal r = cg_val_new(l, n);
	for (int i = 0; i < n; i++) {
		/* A scalar operand of a tensor operation applies to every register. */
		r.r[i] = element(l, in, in->op, t, a.r[a.n == 1 ? 0 : i], b.r[b.n == 1 ? 0 : i],
		                 c.r[c.n == 1 ? 0 : i]);
		if (!r.r[i])
			return false;
	}
	l->vals[in->res->id] = r;
	return true;
}
