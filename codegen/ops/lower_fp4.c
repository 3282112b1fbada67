/*
 * gl.fp4_to_fp: e2m1 values (a sign, two exponent bits, one mantissa bit:
 * +-{0, 0.5, 1, 1.5, 2, 3, 4, 6}) packed two per byte, the low nibble
 * first, unpacked to bf16 or f16. A thread's bytes go four at a time into
 * a 32-bit word; prmt (a byte permute whose selector nibbles pick bytes of
 * an 8-byte table) looks up the high and the low byte of every nibble's
 * magnitude, another prmt makes the sign bits 0x80 bytes, and two more
 * interleave low and high bytes into halves: 17 instructions for 8 bf16
 * values, 15 for f16 (whose low bytes are 0). Result register 2r + b is
 * nibble b of operand register r; the verifier holds the layouts to that
 * (ll_fp4_unpacked).
 */
#include "codegen/ops/ops.h"

/* prmt's two table operands (bytes 0-3, then 4-7) of the high and the low
 * byte of each magnitude's 16-bit pattern. */
typedef struct Fp4Table {
	uint32_t hi[2], lo[2];
} Fp4Table;

/* bf16: 0, 0x3f00, 0x3f80, 0x3fc0, 0x4000, 0x4040, 0x4080, 0x40c0 */
static const Fp4Table bf16_table = {{0x3f3f3f00u, 0x40404040u}, {0xc0800000u, 0xc0804000u}};
/* f16: 0, 0x3800, 0x3c00, 0x3e00, 0x4000, 0x4200, 0x4400, 0x4600 */
static const Fp4Table f16_table = {{0x3e3c3800u, 0x46444240u}, {0, 0}};

static LLVMValueRef
c32(CgModule *m, uint32_t v)
{
	return LLVMConstInt(m->i32, v, 0);
}

static LLVMValueRef
prmt(CgModule *m, LLVMValueRef a, LLVMValueRef b, LLVMValueRef sel)
{
	LLVMValueRef args[3] = {a, b, sel};
	return cg_intrinsic(m, "llvm.nvvm.prmt", m->i32, NULL, 0, args, 3);
}

static LLVMValueRef
table(CgModule *m, const uint32_t *t, LLVMValueRef sel)
{
	return t[0] | t[1] ? prmt(m, c32(m, t[0]), c32(m, t[1]), sel) : c32(m, 0);
}

/* The 8 nibbles of w (4 bytes) as 4 words of two halves each: word j holds
 * nibble 2j in its low half and nibble 2j + 1 in its high half. */
static void
unpack_word(CgModule *m, const Fp4Table *t, LLVMValueRef w, LLVMValueRef *out)
{
	LLVMBuilderRef b = m->b;
	LLVMValueRef mag = LLVMBuildAnd(b, w, c32(m, 0x77777777u), "");
	LLVMValueRef sign = LLVMBuildLShr(b, LLVMBuildAnd(b, w, c32(m, 0x88888888u), ""), c32(m, 3),
	                                  "");
	for (int h = 0; h < 2; h++) {
		/* prmt reads the low 4 selector nibbles: nibbles 4h .. 4h + 3 */
		LLVMValueRef sel = h ? LLVMBuildLShr(b, mag, c32(m, 16), "") : mag;
		LLVMValueRef neg = h ? LLVMBuildLShr(b, sign, c32(m, 16), "") : sign;
		LLVMValueRef hi = LLVMBuildOr(b, table(m, t->hi, sel),
		                              prmt(m, c32(m, 0x8000), c32(m, 0), neg), "");
		LLVMValueRef lo = table(m, t->lo, sel);
		/* bytes lo0 hi0 lo1 hi1, and lo2 hi2 lo3 hi3 */
		out[2 * h] = prmt(m, lo, hi, c32(m, 0x5140));
		out[2 * h + 1] = prmt(m, lo, hi, c32(m, 0x7362));
	}
}

bool
cg_lower_fp4(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	TDType et = in->res->type->dtype;
	CgVal x = cg_val(l, in->args[0]), r = cg_val_new(l, 2 * x.n);
	if (r.n != cg_type_regs(in->res->type) || (et != DT_BF16 && et != DT_F16)) {
		cg_unsupported(l, in, "fp4_to_fp into this type");
		return false;
	}
	for (int g = 0; g < x.n; g += 4) {
		LLVMValueRef word, words[4], halves[8];
		if (x.n - g >= 4) {
			cg_pack_words(m, DT_U8, x.r + g, 4, &word);
		} else {   /* 1 or 2 bytes (a power of two): zero-extended */
			word = LLVMBuildZExt(m->b, x.r[g], m->i32, "");
			for (int j = 1; g + j < x.n; j++) {
				LLVMValueRef y = LLVMBuildZExt(m->b, x.r[g + j], m->i32, "");
				y = LLVMBuildShl(m->b, y, c32(m, 8 * (uint32_t)j), "");
				word = LLVMBuildOr(m->b, word, y, "");
			}
		}
		unpack_word(m, et == DT_BF16 ? &bf16_table : &f16_table, word, words);
		cg_unpack_words(m, et, words, 8, halves);
		for (int k = 0; k < 8 && 2 * g + k < r.n; k++)
			r.r[2 * g + k] = halves[k];
	}
	l->vals[in->res->id] = r;
	return true;
}
