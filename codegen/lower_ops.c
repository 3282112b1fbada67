/*
 * Elementwise operations, register by register: arithmetic, comparisons,
 * pointer offsets, where, casts and math.
 *
 * Precision of the math (f32; f16/bf16 compute in f32 and round once):
 *   exp2  ex2.approx.ftz.f32  (max relative error 2^-22, PTX ISA)
 *   exp   ex2.approx of x * log2(e)  (as Triton; error grows with |x|)
 *   log2  lg2.approx.ftz.f32  (max absolute error 2^-22 in [0.5, 2])
 *   log   lg2.approx * ln(2)
 *   sqrt  sqrt.rn.f32 (IEEE, correctly rounded); f64 sqrt.rn.f64
 *   rsqrt rsqrt.approx.ftz.f32 (max relative error 2^-22.9); f64: 1 / sqrt.rn
 *   x / y div.rn.f32 (IEEE)
 * exp/exp2/log/log2 of f64 are not supported yet (PTX has no f64 approx).
 *
 * f8 (e4m3, e5m2) values are storage types: pointers to them move, they
 * load, store, select and cast (through cvt.rn.satfinite.{e4m3,e5m2}x2.f32
 * and cvt.rn.f16x2.*x2); arithmetic on them is reported as unsupported.
 */
#include "codegen/cg_internal.h"

static bool
is_float(TDType t)
{
	return t == DT_F16 || t == DT_BF16 || t == DT_F32 || t == DT_F64;
}

static bool
is_f8(TDType t)
{
	return t == DT_F8E4M3 || t == DT_F8E5M2;
}

static bool
is_signed_int(TDType t)
{
	return t == DT_I8 || t == DT_I16 || t == DT_I32 || t == DT_I64;
}

static LLVMValueRef
unary_intrinsic(CgModule *m, const char *name, LLVMValueRef x, bool overloaded)
{
	LLVMTypeRef t = LLVMTypeOf(x);
	return cg_intrinsic(m, name, t, overloaded ? &t : NULL, overloaded ? 1 : 0, &x, 1);
}

static LLVMValueRef
binary_intrinsic(CgModule *m, const char *name, LLVMValueRef a, LLVMValueRef b)
{
	LLVMTypeRef t = LLVMTypeOf(a);
	LLVMValueRef args[] = {a, b};
	return cg_intrinsic(m, name, t, &t, 1, args, 2);
}

/* f32 math through NVVM's approximate instructions. */
static LLVMValueRef
math_f32(CgModule *m, TOp op, LLVMValueRef x)
{
	switch (op) {
	case OP_EXP2:
		return unary_intrinsic(m, "llvm.nvvm.ex2.approx.ftz", x, true);
	case OP_EXP:
		x = LLVMBuildFMul(m->b, x, LLVMConstReal(m->f32, 1.4426950408889634), "");
		return unary_intrinsic(m, "llvm.nvvm.ex2.approx.ftz", x, true);
	case OP_LOG2:
		return unary_intrinsic(m, "llvm.nvvm.lg2.approx.ftz.f", x, false);
	case OP_LOG:
		x = unary_intrinsic(m, "llvm.nvvm.lg2.approx.ftz.f", x, false);
		return LLVMBuildFMul(m->b, x, LLVMConstReal(m->f32, 0.6931471805599453), "");
	case OP_RSQRT:
		return unary_intrinsic(m, "llvm.nvvm.rsqrt.approx.ftz.f", x, false);
	default:
		return NULL;
	}
}

static LLVMValueRef
math(Lower *l, const TInst *in, TDType t, LLVMValueRef x)
{
	CgModule *m = l->m;
	if (in->op == OP_ABS && is_float(t))
		return unary_intrinsic(m, "llvm.fabs", x, true);
	if (in->op == OP_ABS && is_signed_int(t))
		return cg_intrinsic(m, "llvm.abs", LLVMTypeOf(x), (LLVMTypeRef[]){LLVMTypeOf(x)}, 1,
		                    (LLVMValueRef[]){x, LLVMConstInt(m->i1, 0, 0)}, 2);
	if (in->op == OP_ABS)   /* unsigned and i1: already their magnitude */
		return x;
	if (in->op == OP_SQRT && (t == DT_F32 || t == DT_F64))
		return unary_intrinsic(m, "llvm.sqrt", x, true);
	if (in->op == OP_RSQRT && t == DT_F64)
		return LLVMBuildFDiv(m->b, LLVMConstReal(m->f64, 1.0),
		                     unary_intrinsic(m, "llvm.sqrt", x, true), "");
	if (t == DT_F16 || t == DT_BF16) {
		LLVMTypeRef nt = LLVMTypeOf(x);
		LLVMValueRef r = math(l, in, DT_F32, LLVMBuildFPExt(m->b, x, m->f32, ""));
		return r ? LLVMBuildFPTrunc(m->b, r, nt, "") : NULL;
	}
	if (t != DT_F32) {
		cg_unsupported(l, in, arena_printf(m->arena, "%s on %s", ir_op_name(in->op),
		                                   ir_dtype_name(t)));
		return NULL;
	}
	return math_f32(m, in->op, x);
}

static LLVMValueRef
compare(CgModule *m, TOp op, TDType t, LLVMValueRef a, LLVMValueRef b)
{
	if (is_float(t)) {
		static const LLVMRealPredicate fp[] = {
			LLVMRealOLT, LLVMRealOLE, LLVMRealOGT, LLVMRealOGE, LLVMRealOEQ, LLVMRealUNE,
		};
		return LLVMBuildFCmp(m->b, fp[op - OP_LT], a, b, "");
	}
	bool s = is_signed_int(t);
	static const LLVMIntPredicate sp[] = {
		LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE, LLVMIntEQ, LLVMIntNE,
	};
	static const LLVMIntPredicate up[] = {
		LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE, LLVMIntEQ, LLVMIntNE,
	};
	return LLVMBuildICmp(m->b, (s ? sp : up)[op - OP_LT], a, b, "");
}

static LLVMValueRef
cast(Lower *l, const TInst *in, TDType from, TDType to, LLVMValueRef x)
{
	CgModule *m = l->m;
	LLVMTypeRef rt = cg_dtype_type(m, to);
	if (from == to)
		return x;
	if (is_f8(from)) {
		/* Both f8 kinds are exact in f16: the low half of cvt.rn.f16x2. */
		LLVMValueRef w = LLVMBuildZExt(m->b, x, m->i16, "");
		LLVMValueRef h2 = cg_intrinsic(m, from == DT_F8E4M3 ? "llvm.nvvm.e4m3x2.to.f16x2.rn"
		                                                    : "llvm.nvvm.e5m2x2.to.f16x2.rn",
		                               LLVMVectorType(m->f16, 2), NULL, 0, &w, 1);
		LLVMValueRef h = LLVMBuildExtractElement(m->b, h2, LLVMConstInt(m->i32, 0, 0), "");
		return cast(l, in, DT_F16, to, h);
	}
	if (is_f8(to)) {
		/* Round to nearest even, saturating to the largest finite value;
		 * the second operand lands in the low byte. */
		LLVMValueRef f = cast(l, in, from, DT_F32, x);
		if (!f)
			return NULL;
		LLVMValueRef args[] = {LLVMConstReal(m->f32, 0.0), f};
		LLVMValueRef w = cg_intrinsic(m, to == DT_F8E4M3 ? "llvm.nvvm.ff.to.e4m3x2.rn"
		                                                 : "llvm.nvvm.ff.to.e5m2x2.rn",
		                              m->i16, NULL, 0, args, 2);
		return LLVMBuildTrunc(m->b, w, m->i8, "");
	}
	bool ff = is_float(from), tf = is_float(to);
	if (ff && tf) {
		if ((from == DT_F16 && to == DT_BF16) || (from == DT_BF16 && to == DT_F16))
			x = LLVMBuildFPExt(m->b, x, m->f32, "");
		unsigned fb = LLVMSizeOfTypeInBits(m->target->data, LLVMTypeOf(x));
		unsigned tb = LLVMSizeOfTypeInBits(m->target->data, rt);
		return fb < tb ? LLVMBuildFPExt(m->b, x, rt, "") : LLVMBuildFPTrunc(m->b, x, rt, "");
	}
	if (ff)
		return to == DT_I1 ? LLVMBuildFCmp(m->b, LLVMRealUNE, x, LLVMConstReal(LLVMTypeOf(x), 0),
		                                   "")
		     : is_signed_int(to) ? LLVMBuildFPToSI(m->b, x, rt, "")
		                         : LLVMBuildFPToUI(m->b, x, rt, "");
	if (tf)
		return is_signed_int(from) ? LLVMBuildSIToFP(m->b, x, rt, "")
		                           : LLVMBuildUIToFP(m->b, x, rt, "");
	if (to == DT_I1)
		return LLVMBuildICmp(m->b, LLVMIntNE, x, LLVMConstInt(LLVMTypeOf(x), 0, 0), "");
	return LLVMBuildIntCast2(m->b, x, rt, is_signed_int(from), "");
}

/* Why op cannot apply to operands of dtype t (a phrase to append), or
 * NULL when it can. */
static const char *
operand_problem(TOp op, TDType t)
{
	if (is_f8(t))
		return op == OP_CAST || op == OP_SELECT || op == OP_PTR_ADD ? NULL
		                                                            : " (cast to f16 or f32 first)";
	switch (op) {
	case OP_AND: case OP_OR: case OP_XOR: case OP_SHL: case OP_SHR: case OP_NOT:
	case OP_CDIV:
		return is_float(t) ? "" : NULL;
	case OP_DIV: case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2: case OP_SQRT:
	case OP_RSQRT:
		return is_float(t) ? NULL : " (cast to a float type first)";
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
	bool f = is_float(t), s = is_signed_int(t);
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
		return LLVMBuildFDiv(B, a, b, "");
	case OP_FLOORDIV:
		if (f)
			return unary_intrinsic(m, "llvm.floor", LLVMBuildFDiv(B, a, b, ""), true);
		return s ? LLVMBuildSDiv(B, a, b, "") : LLVMBuildUDiv(B, a, b, "");
	case OP_MOD:
		if (f) {
			LLVMValueRef q = unary_intrinsic(m, "llvm.floor", LLVMBuildFDiv(B, a, b, ""), true);
			return LLVMBuildFSub(B, a, LLVMBuildFMul(B, b, q, ""), "");
		}
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
		if (f)
			return binary_intrinsic(m, op == OP_MIN ? "llvm.minnum" : "llvm.maxnum", a, b);
		return binary_intrinsic(m, op == OP_MIN ? (s ? "llvm.smin" : "llvm.umin")
		                                            : (s ? "llvm.smax" : "llvm.umax"), a, b);
	case OP_NEG:
		return f ? LLVMBuildFNeg(B, a, "") : LLVMBuildNeg(B, a, "");
	case OP_NOT:
		return LLVMBuildNot(B, a, "");
	case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_EQ: case OP_NE:
		return compare(m, op, t, a, b);
	case OP_PTR_ADD: {
		if (!is_signed_int(in->args[1]->type->dtype))
			b = LLVMBuildZExt(B, b, m->i64, "");
		return LLVMBuildGEP2(B, cg_dtype_type(m, in->res->type->dtype), a, &b, 1, "");
	}
	case OP_SELECT:
		return LLVMBuildSelect(B, a, b, c, "");
	case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2: case OP_SQRT: case OP_RSQRT:
	case OP_ABS:
		return math(l, in, t, a);
	case OP_CAST:
		if (in->res->type->elem_is_ptr || in->res->type->kind == TY_PTR) {
			cg_unsupported(l, in, "pointer casts");
			return NULL;
		}
		return cast(l, in, t, in->res->type->dtype, a);
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
