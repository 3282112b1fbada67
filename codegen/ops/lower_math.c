/*
 * Gluon's math functions, one element at a time.
 *
 * Precision (f32; f16 and bf16 compute in f32 and round once, except fma,
 * clamp and abs, which run in their own type):
 *   exp2     ex2.approx.ftz.f32  (max relative error 2^-22, PTX ISA)
 *   exp      ex2.approx of x * log2(e)  (as Triton; error grows with |x|)
 *   log2     lg2.approx.ftz.f32  (max absolute error 2^-22 in [0.5, 2])
 *   log      lg2.approx * ln(2)
 *   rsqrt    rsqrt.approx.ftz.f32 (max relative error 2^-22.9)
 *   sqrt     sqrt.approx.ftz.f32 (as Triton's gl.sqrt; max relative error
 *            2^-23, PTX ISA)
 *   sqrt_rn  sqrt.rn (IEEE, correctly rounded)
 *   div_rn, fdiv(ieee_rounding=True)   div.rn (IEEE)
 *   fdiv     div.full.f32 (max error 2 ulp, as Triton's `/`)
 *   sin, cos, erf   libdevice's __nv_sinf, __nv_cosf, __nv_erff (2 ulp,
 *            full range), as Triton links them
 *   floor, ceil, fma, clamp, maximum, minimum   exact
 *   umulhi   mul.hi.u32 / mul.hi.u64
 * f64: exact ops (sqrt and sqrt_rn are sqrt.rn.f64, div.rn.f64, fma.rn.f64); exp, exp2,
 * log, log2, sin, cos and erf from libdevice; rsqrt is 1 / sqrt.rn.
 */
#include "codegen/ops/ops.h"

/* NVVM's approximate f32 instructions. */
static LLVMValueRef
approx_f32(CgModule *m, TOp op, LLVMValueRef x)
{
	switch (op) {
	case OP_EXP2:
		return cg_unary_intrinsic(m, "llvm.nvvm.ex2.approx.ftz", x, true);
	case OP_EXP:
		x = LLVMBuildFMul(m->b, x, LLVMConstReal(m->f32, 1.4426950408889634), "");
		return cg_unary_intrinsic(m, "llvm.nvvm.ex2.approx.ftz", x, true);
	case OP_LOG2:
		return cg_unary_intrinsic(m, "llvm.nvvm.lg2.approx.ftz.f", x, false);
	case OP_LOG:
		x = cg_unary_intrinsic(m, "llvm.nvvm.lg2.approx.ftz.f", x, false);
		return LLVMBuildFMul(m->b, x, LLVMConstReal(m->f32, 0.6931471805599453), "");
	case OP_RSQRT:
		return cg_unary_intrinsic(m, "llvm.nvvm.rsqrt.approx.ftz.f", x, false);
	default:
		return NULL;
	}
}

/* The libdevice function computing op on f32 (f64 when dbl), or NULL. */
static const char *
libdevice_name(TOp op, bool dbl)
{
	switch (op) {
	case OP_SIN: return dbl ? "__nv_sin" : "__nv_sinf";
	case OP_COS: return dbl ? "__nv_cos" : "__nv_cosf";
	case OP_ERF: return dbl ? "__nv_erf" : "__nv_erff";
	case OP_EXP: return dbl ? "__nv_exp" : NULL;
	case OP_EXP2: return dbl ? "__nv_exp2" : NULL;
	case OP_LOG: return dbl ? "__nv_log" : NULL;
	case OP_LOG2: return dbl ? "__nv_log2" : NULL;
	default: return NULL;
	}
}

/* op on f32 or f64 operands (t). */
static LLVMValueRef
math_wide(Lower *l, const TInst *in, TOp op, TDType t, LLVMValueRef a, LLVMValueRef b)
{
	CgModule *m = l->m;
	bool dbl = t == DT_F64;
	const char *lib = libdevice_name(op, dbl);
	if (lib)
		return cg_libdevice_call(m, lib, a);
	switch (op) {
	case OP_SQRT:   /* llvm.sqrt without fast-math flags is sqrt.rn */
		if (!dbl)
			return cg_unary_intrinsic(m, "llvm.nvvm.sqrt.approx.ftz.f", a, false);
		return cg_unary_intrinsic(m, "llvm.sqrt", a, true);
	case OP_SQRT_RN:
		return cg_unary_intrinsic(m, dbl ? "llvm.nvvm.sqrt.rn.d" : "llvm.nvvm.sqrt.rn.f", a,
		                          false);
	case OP_RSQRT:
		if (!dbl)
			return approx_f32(m, op, a);
		return LLVMBuildFDiv(m->b, LLVMConstReal(m->f64, 1.0),
		                     cg_unary_intrinsic(m, "llvm.sqrt", a, true), "");
	case OP_FLOOR:
		return cg_unary_intrinsic(m, "llvm.floor", a, true);
	case OP_CEIL:
		return cg_unary_intrinsic(m, "llvm.ceil", a, true);
	case OP_DIV_RN:
		return cg_binary_intrinsic(m, dbl ? "llvm.nvvm.div.rn.d" : "llvm.nvvm.div.rn.f", a, b,
		                           false);
	case OP_FDIV:
		return cg_binary_intrinsic(m, dbl ? "llvm.nvvm.div.rn.d" : "llvm.nvvm.div.full", a, b,
		                           false);
	default:
		if (!dbl)
			return approx_f32(m, op, a);
		cg_unsupported(l, in, arena_printf(m->arena, "%s on f64", ir_op_name(op)));
		return NULL;
	}
}

LLVMValueRef
cg_math(Lower *l, const TInst *in, TOp op, TDType t, LLVMValueRef a, LLVMValueRef b,
        LLVMValueRef c)
{
	CgModule *m = l->m;
	switch (op) {
	case OP_ABS:
		if (cg_dtype_is_fp(t))
			return cg_unary_intrinsic(m, "llvm.fabs", a, true);
		if (ir_dtype_is_signed(t))
			return cg_intrinsic(m, "llvm.abs", LLVMTypeOf(a), (LLVMTypeRef[]){LLVMTypeOf(a)},
			                    1, (LLVMValueRef[]){a, LLVMConstInt(m->i1, 0, 0)}, 2);
		return a;   /* unsigned and i1: already their magnitude */
	case OP_FMA: {
		LLVMTypeRef ft = LLVMTypeOf(a);
		return cg_intrinsic(m, "llvm.fma", ft, &ft, 1, (LLVMValueRef[]){a, b, c}, 3);
	}
	case OP_CLAMP: {
		bool nan = in->attr.propagate_nan;
		LLVMValueRef lo = cg_binary_intrinsic(m, nan ? "llvm.maximum" : "llvm.maxnum", a, b,
		                                      true);
		return cg_binary_intrinsic(m, nan ? "llvm.minimum" : "llvm.minnum", lo, c, true);
	}
	case OP_UMULHI:
		return cg_binary_intrinsic(m, t == DT_I64 || t == DT_U64 ? "llvm.nvvm.mulhi.ull"
		                                                         : "llvm.nvvm.mulhi.ui",
		                           a, b, false);
	default:
		break;
	}
	if (t == DT_F16 || t == DT_BF16) {
		LLVMTypeRef nt = LLVMTypeOf(a);
		LLVMValueRef wa = LLVMBuildFPExt(m->b, a, m->f32, "");
		LLVMValueRef wb = b ? LLVMBuildFPExt(m->b, b, m->f32, "") : NULL;
		LLVMValueRef r = math_wide(l, in, op, DT_F32, wa, wb);
		return r ? LLVMBuildFPTrunc(m->b, r, nt, "") : NULL;
	}
	return math_wide(l, in, op, t, a, b);
}

bool
cg_lower_extern(Lower *l, const TInst *in)
{
	CgVal a[4];
	for (int k = 0; k < in->n_args && k < 4; k++)
		a[k] = cg_val(l, in->args[k]);
	int n = cg_type_regs(in->res->type);
	CgVal r = cg_val_new(l, n);
	LLVMTypeRef ret = cg_dtype_type(l->m, in->res->type->dtype);
	for (int i = 0; i < n; i++) {
		LLVMValueRef x[4];
		/* a scalar operand of a tensor call applies to every register */
		for (int k = 0; k < in->n_args && k < 4; k++)
			x[k] = a[k].r[a[k].n == 1 ? 0 : i];
		r.r[i] = cg_libdevice_calln(l->m, in->attr.text, ret, x, in->n_args);
	}
	l->vals[in->res->id] = r;
	return true;
}
