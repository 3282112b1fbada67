/*
 * Conversions of one element: between integer and float types of any
 * width, bitcasts, and float downcasts with a rounding mode.
 *
 * Floats round to nearest even (LLVM's fptrunc), or toward zero where the
 * cast asks for it (gl.cast's fp_downcast_rounding="rtz"): cvt.rz.f16.f32,
 * cvt.rz.bf16.f32 and cvt.rz.f32.f64; from f64 to a 16-bit type through an
 * f32 rounded toward zero, which truncates to the same value.
 *
 * f8 (e4m3, e5m2): to f16 exactly through cvt.rn.f16x2.{e4m3,e5m2}x2 (both
 * kinds are exact in f16), to other types from there; from any float by
 * cvt.rn.satfinite.{e4m3,e5m2}x2.f32 (round to nearest even, saturating to
 * the largest finite value, NaN kept), as Triton converts. Toward zero,
 * e5m2 is the high byte of the f16 rounded toward zero (NaN kept).
 */
#include "codegen/ops/ops.h"

/* x (f32) to f16 rounded toward zero. */
static LLVMValueRef
f32_to_f16_rz(CgModule *m, LLVMValueRef x)
{
	LLVMTypeRef fty = LLVMFunctionType(m->i16, &m->f32, 1, false);
	static const char text[] = "cvt.rz.f16.f32 $0, $1;", cons[] = "=h,f";
	LLVMValueRef fn = LLVMGetInlineAsm(fty, (char *)text, sizeof text - 1, (char *)cons,
	                                   sizeof cons - 1, false, false, LLVMInlineAsmDialectATT,
	                                   false);
	LLVMValueRef h = LLVMBuildCall2(m->b, fty, fn, &x, 1, "");
	return LLVMBuildBitCast(m->b, h, m->f16, "");
}

/* A float x of dtype from narrowed to dtype to, rounded toward zero. */
static LLVMValueRef
downcast_rz(CgModule *m, TDType from, TDType to, LLVMValueRef x)
{
	if (from == DT_F64) {
		x = cg_intrinsic(m, "llvm.nvvm.d2f.rz", m->f32, NULL, 0, &x, 1);
		from = DT_F32;
	}
	if (from == DT_BF16) {   /* exact: every bf16 is an f32 */
		x = LLVMBuildFPExt(m->b, x, m->f32, "");
		from = DT_F32;
	}
	switch (to) {
	case DT_F32:
		return x;
	case DT_BF16:
		return cg_intrinsic(m, "llvm.nvvm.f2bf16.rz", m->bf16, NULL, 0, &x, 1);
	case DT_F16:
		return from == DT_F16 ? x : f32_to_f16_rz(m, x);
	default: {
		/* e5m2: the high byte of the f16; a NaN whose payload the byte
		 * drops stays a NaN. */
		LLVMValueRef h = from == DT_F16 ? x : f32_to_f16_rz(m, x);
		LLVMValueRef bits = LLVMBuildBitCast(m->b, h, m->i16, "");
		LLVMValueRef hi = LLVMBuildTrunc(m->b, LLVMBuildLShr(m->b, bits,
		                                 LLVMConstInt(m->i16, 8, 0), ""), m->i8, "");
		LLVMValueRef mag = LLVMBuildAnd(m->b, bits, LLVMConstInt(m->i16, 0x7fff, 0), "");
		LLVMValueRef nan = LLVMBuildICmp(m->b, LLVMIntUGT, mag,
		                                 LLVMConstInt(m->i16, 0x7c00, 0), "");
		return LLVMBuildSelect(m->b, nan, LLVMBuildOr(m->b, hi, LLVMConstInt(m->i8, 0x7f, 0),
		                                              ""), hi, "");
	}
	}
}

static LLVMValueRef
convert(CgModule *m, TDType from, TDType to, LLVMValueRef x)
{
	LLVMTypeRef rt = cg_dtype_type(m, to);
	if (from == to)
		return x;
	if (ir_dtype_is_f8(from)) {
		/* Both f8 kinds are exact in f16: the low half of cvt.rn.f16x2. */
		LLVMValueRef w = LLVMBuildZExt(m->b, x, m->i16, "");
		LLVMValueRef h2 = cg_intrinsic(m, from == DT_F8E4M3 ? "llvm.nvvm.e4m3x2.to.f16x2.rn"
		                                                    : "llvm.nvvm.e5m2x2.to.f16x2.rn",
		                               LLVMVectorType(m->f16, 2), NULL, 0, &w, 1);
		LLVMValueRef h = LLVMBuildExtractElement(m->b, h2, LLVMConstInt(m->i32, 0, 0), "");
		return convert(m, DT_F16, to, h);
	}
	if (ir_dtype_is_f8(to)) {
		/* Round to nearest even, saturating to the largest finite value;
		 * the second operand lands in the low byte. */
		LLVMValueRef f = convert(m, from, DT_F32, x);
		LLVMValueRef args[] = {LLVMConstReal(m->f32, 0.0), f};
		LLVMValueRef w = cg_intrinsic(m, to == DT_F8E4M3 ? "llvm.nvvm.ff.to.e4m3x2.rn"
		                                                 : "llvm.nvvm.ff.to.e5m2x2.rn",
		                              m->i16, NULL, 0, args, 2);
		return LLVMBuildTrunc(m->b, w, m->i8, "");
	}
	bool ff = cg_dtype_is_fp(from), tf = cg_dtype_is_fp(to);
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
		     : ir_dtype_is_signed(to) ? LLVMBuildFPToSI(m->b, x, rt, "")
		                         : LLVMBuildFPToUI(m->b, x, rt, "");
	if (tf)
		return ir_dtype_is_signed(from) ? LLVMBuildSIToFP(m->b, x, rt, "")
		                           : LLVMBuildUIToFP(m->b, x, rt, "");
	if (to == DT_I1)
		return LLVMBuildICmp(m->b, LLVMIntNE, x, LLVMConstInt(LLVMTypeOf(x), 0, 0), "");
	return LLVMBuildIntCast2(m->b, x, rt, ir_dtype_is_signed(from), "");
}

LLVMValueRef
cg_f8_constant(CgModule *m, TDType to, double v)
{
	return convert(m, DT_F32, to, LLVMConstReal(m->f32, v));
}

LLVMValueRef
cg_cast(Lower *l, const TInst *in, TDType from, TDType to, LLVMValueRef x)
{
	CgModule *m = l->m;
	if (in->op == OP_BITCAST)
		return LLVMBuildBitCast(m->b, x, cg_dtype_type(m, to), "");
	if (in->attr.round == RND_RTZ)
		return downcast_rz(m, from, to, x);
	return convert(m, from, to, x);
}
