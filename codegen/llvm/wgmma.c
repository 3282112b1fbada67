/*
 * The tensor-core instructions as inline PTX, operand lists and constraint
 * strings generated here: mma.sync m16n8 (Ampere's, for mma_v2) and
 * wgmma.mma_async, which has no LLVM intrinsic, in every form Hopper has:
 *
 *   A, B                 D         k    A/B majorness     A from
 *   f16 x f16            f32, f16  16   K or MN           smem or registers
 *   bf16 x bf16          f32       16   K or MN           smem or registers
 *   tf32 x tf32          f32        8   K only            smem or registers
 *   e4m3/e5m2 (any mix)  f32, f16  32   K only            smem or registers
 *   s8/u8 (any mix)      s32       32   K only            smem or registers
 *
 * with m = 64 and n a multiple of 8 up to 256 (the 8-bit integer forms: 8,
 * 16, 24, 32 and then multiples of 16). Registers are 32-bit words: f32
 * accumulators one element each ("f"), f16 accumulators two elements a word
 * and s32 one ("r"); an A fragment is four words of 32 / bits elements.
 *
 * Scale-d is an i1 predicate (constraint "b"), and the first step takes
 * poison accumulators, so no register shared with an accumulator is read
 * between wgmma.fence and the mma (which would make ptxas serialize the
 * wgmmas). The wait passes the accumulators through its own asm (tied
 * operands), so nothing reads them before the wait retires the MMAs that
 * write them.
 */
#include "codegen/llvm/nvvm.h"

#include <stdio.h>
#include <string.h>

int
cg_wgmma_k(TDType t)
{
	switch (t) {
	case DT_F16: case DT_BF16: return 16;
	case DT_F32: return 8;
	case DT_F8E4M3: case DT_F8E5M2: case DT_I8: case DT_U8: return 32;
	default: return 0;
	}
}

bool
cg_wgmma_valid(const CgWgmma *f)
{
	IrMmaFamily fa = ir_mma_family(f->a);
	if (fa == IR_MMA_NONE || ir_mma_family(f->b) != fa || f->n < 8 || f->n > 256 || f->n % 8)
		return false;
	bool mn_major = f->mn_major_b || (f->mn_major_a && !f->a_in_regs);
	if (!ir_mma_acc_ok(fa, f->d, true) || (mn_major && !ir_mma_mn_major_ok(fa)))
		return false;
	/* the 8-bit integer forms: n of 8, 16, 24, 32, then multiples of 16 */
	return fa != IR_MMA_I8 || f->n <= 32 || f->n % 16 == 0;
}

static const char *
ptx_type(TDType t)
{
	switch (t) {
	case DT_F16: return "f16";
	case DT_BF16: return "bf16";
	case DT_F8E4M3: return "e4m3";
	case DT_F8E5M2: return "e5m2";
	case DT_I8: return "s8";
	case DT_U8: return "u8";
	case DT_I32: return "s32";
	default: return "f32";
	}
}

/* The asm type of one 32-bit register of accumulator dtype d. */
static LLVMTypeRef
word_type(CgModule *m, TDType d)
{
	return d == DT_F32 ? m->f32 : m->i32;
}

void
cg_pack_words(CgModule *m, TDType t, const LLVMValueRef *elems, int n, LLVMValueRef *out)
{
	int per = 32 / ir_dtype_bits(t);
	if (t == DT_F32 || t == DT_I32 || t == DT_U32) {
		for (int i = 0; i < n; i++)
			out[i] = LLVMBuildBitCast(m->b, elems[i], m->i32, "");
		return;
	}
	LLVMTypeRef vt = LLVMVectorType(cg_dtype_type(m, t), (unsigned)per);
	for (int w = 0; w < n / per; w++) {
		LLVMValueRef v = LLVMGetPoison(vt);
		for (int j = 0; j < per; j++)
			v = LLVMBuildInsertElement(m->b, v, elems[w * per + j],
			                           LLVMConstInt(m->i32, (uint64_t)j, 0), "");
		out[w] = LLVMBuildBitCast(m->b, v, m->i32, "");
	}
}

void
cg_unpack_words(CgModule *m, TDType t, const LLVMValueRef *words, int n, LLVMValueRef *out)
{
	int per = 32 / ir_dtype_bits(t);
	LLVMTypeRef et = cg_dtype_type(m, t);
	if (per == 1) {
		for (int i = 0; i < n; i++)
			out[i] = LLVMBuildBitCast(m->b, words[i], et, "");
		return;
	}
	LLVMTypeRef vt = LLVMVectorType(et, (unsigned)per);
	for (int w = 0; w < n / per; w++) {
		LLVMValueRef v = LLVMBuildBitCast(m->b, words[w], vt, "");
		for (int j = 0; j < per; j++)
			out[w * per + j] = LLVMBuildExtractElement(m->b, v,
			                                           LLVMConstInt(m->i32, (uint64_t)j, 0), "");
	}
}

/* acc (n elements of dtype d, f32 kept as floats) as the asm's words. */
static int
acc_words(CgModule *m, TDType d, const LLVMValueRef *acc, int n, LLVMValueRef *out)
{
	if (d == DT_F32) {
		memcpy(out, acc, (size_t)n * sizeof *out);
		return n;
	}
	cg_pack_words(m, d, acc, n, out);
	return d == DT_F16 ? n / 2 : n;
}

static void
acc_elems(CgModule *m, TDType d, const LLVMValueRef *words, int n, LLVMValueRef *out)
{
	if (d == DT_F32)
		memcpy(out, words, (size_t)n * sizeof *out);
	else
		cg_unpack_words(m, d, words, n, out);
}

/* An inline asm call with nw outputs of type wt tied to its first nw
 * inputs, then the extra inputs; its results into out. early: the outputs
 * are early-clobber, so no extra input (an operand fragment in registers)
 * shares a register with them even when it holds the same value. */
static void
tied_asm(CgModule *m, const char *text, const char *extra_cons, LLVMTypeRef wt, bool early,
         LLVMValueRef *words, int nw, LLVMValueRef *extra, LLVMTypeRef *extra_t, int n_extra,
         LLVMValueRef *out)
{
	StrBuf cons = {0};
	const char *c = wt == m->f32 ? "f" : "r";
	for (int i = 0; i < nw; i++)
		buf_printf(&cons, "%s=%s%s", i ? "," : "", early ? "&" : "", c);
	for (int i = 0; i < nw; i++)
		buf_printf(&cons, ",%d", i);
	buf_printf(&cons, "%s,~{memory}", extra_cons);
	int na = nw + n_extra;
	LLVMTypeRef *fields = arena_alloc(m->arena, (size_t)nw * sizeof *fields);
	LLVMTypeRef *in_t = arena_alloc(m->arena, (size_t)na * sizeof *in_t);
	LLVMValueRef *args = arena_alloc(m->arena, (size_t)na * sizeof *args);
	for (int i = 0; i < nw; i++) {
		fields[i] = in_t[i] = wt;
		args[i] = words[i];
	}
	for (int i = 0; i < n_extra; i++) {
		in_t[nw + i] = extra_t[i];
		args[nw + i] = extra[i];
	}
	LLVMTypeRef ret = LLVMStructTypeInContext(m->ctx, fields, (unsigned)nw, false);
	LLVMTypeRef fty = LLVMFunctionType(ret, in_t, (unsigned)na, false);
	LLVMValueRef fn = LLVMGetInlineAsm(fty, text, strlen(text), cons.s, cons.len, true,
	                                   false, LLVMInlineAsmDialectATT, false);
	LLVMValueRef r = LLVMBuildCall2(m->b, fty, fn, args, (unsigned)na, "");
	for (int i = 0; i < nw; i++)
		out[i] = LLVMBuildExtractValue(m->b, r, (unsigned)i, "");
	buf_free(&cons);
}

bool
cg_wgmma_mma(CgModule *m, const CgWgmma *f, const LLVMValueRef *acc, LLVMValueRef desc_a,
             const LLVMValueRef *a_words, LLVMValueRef desc_b, LLVMValueRef scale_d,
             LLVMValueRef *out)
{
	if (!cg_wgmma_valid(f))
		return false;
	if (ir_mma_family(f->a) == IR_MMA_I8 && f->a != f->b && m->min_ptx < 84)
		m->min_ptx = 84;   /* mixed signedness: PTX 8.4 */
	int n = f->n / 2;   /* accumulator elements per thread: 64 x n over 128 threads */
	LLVMValueRef *words = arena_alloc(m->arena, (size_t)n * sizeof *words);
	LLVMTypeRef wt = word_type(m, f->d);
	int nw;
	if (acc) {
		nw = acc_words(m, f->d, acc, n, words);
	} else {
		nw = f->d == DT_F16 ? n / 2 : n;
		for (int i = 0; i < nw; i++)
			words[i] = LLVMGetPoison(wt);
	}
	StrBuf text = {0}, cons = {0};
	buf_printf(&text, "wgmma.mma_async.sync.aligned.m64n%dk%d.%s.%s.%s {", f->n,
	           cg_wgmma_k(f->a), ptx_type(f->d), f->a == DT_F32 ? "tf32" : ptx_type(f->a),
	           f->b == DT_F32 ? "tf32" : ptx_type(f->b));
	for (int i = 0; i < nw; i++)
		buf_printf(&text, "%s$%d", i ? "," : "", i);
	int x = 2 * nw;   /* the first operand after the tied accumulators */
	LLVMValueRef extra[6];
	LLVMTypeRef extra_t[6];
	int ne = 0;
	if (f->a_in_regs) {
		buf_printf(&text, "}, {$%d,$%d,$%d,$%d}", x, x + 1, x + 2, x + 3);
		buf_puts(&cons, ",r,r,r,r");
		for (int i = 0; i < 4; i++) {
			extra[ne] = a_words[i];
			extra_t[ne++] = m->i32;
		}
	} else {
		buf_printf(&text, "}, $%d", x);
		buf_puts(&cons, ",l");
		extra[ne] = desc_a;
		extra_t[ne++] = m->i64;
	}
	buf_printf(&text, ", $%d, $%d", x + ne, x + ne + 1);
	buf_puts(&cons, ",l,b");
	extra[ne] = desc_b;
	extra_t[ne++] = m->i64;
	extra[ne] = acc ? scale_d : LLVMConstInt(m->i1, 0, 0);
	extra_t[ne++] = m->i1;
	IrMmaFamily fa = ir_mma_family(f->a);
	if (fa != IR_MMA_I8)
		buf_puts(&text, ", 1, 1");   /* imm-scale-a, imm-scale-b: no negation */
	if (ir_mma_mn_major_ok(fa)) {   /* imm-trans-a, imm-trans-b */
		if (!f->a_in_regs)
			buf_printf(&text, ", %d", f->mn_major_a);
		buf_printf(&text, ", %d", f->mn_major_b);
	}
	buf_putc(&text, ';');
	LLVMValueRef *res = arena_alloc(m->arena, (size_t)nw * sizeof *res);
	tied_asm(m, text.s, cons.s ? cons.s : "", wt, f->a_in_regs, words, nw, extra, extra_t, ne,
	         res);
	acc_elems(m, f->d, res, n, out);
	buf_free(&text);
	buf_free(&cons);
	return true;
}

bool
cg_mma_sync(CgModule *m, TDType a, TDType b, TDType d, const LLVMValueRef *acc,
            const LLVMValueRef *a_words, const LLVMValueRef *b_words, LLVMValueRef *out)
{
	IrMmaFamily f = ir_mma_family(a);
	if (ir_mma_family(b) != f || !ir_mma_acc_ok(f, d, false))
		return false;
	if (f == IR_MMA_F8 && m->min_ptx < 84)
		m->min_ptx = 84;   /* fp8 mma.sync: PTX 8.4 */
	LLVMValueRef words[4], extra[6];
	LLVMTypeRef extra_t[6];
	int nw = acc_words(m, d, acc, 4, words);
	StrBuf text = {0};
	buf_printf(&text, "mma.sync.aligned.m16n8k%d.row.col.%s.%s.%s.%s {", cg_wgmma_k(a),
	           ptx_type(d), a == DT_F32 ? "tf32" : ptx_type(a), b == DT_F32 ? "tf32" : ptx_type(b),
	           ptx_type(d));
	for (int i = 0; i < nw; i++)
		buf_printf(&text, "%s$%d", i ? "," : "", i);
	int x = 2 * nw;
	buf_printf(&text, "}, {$%d,$%d,$%d,$%d}, {$%d,$%d}, {", x, x + 1, x + 2, x + 3, x + 4, x + 5);
	for (int i = 0; i < nw; i++)
		buf_printf(&text, "%s$%d", i ? "," : "", i);
	buf_puts(&text, "};");
	for (int i = 0; i < 6; i++) {
		extra[i] = i < 4 ? a_words[i] : b_words[i - 4];
		extra_t[i] = m->i32;
	}
	tied_asm(m, text.s, ",r,r,r,r,r,r", word_type(m, d), true, words, nw, extra, extra_t, 6,
	         words);
	acc_elems(m, d, words, 4, out);
	buf_free(&text);
	return true;
}

void
cg_wgmma_fence(CgModule *m)
{
	cg_intrinsic(m, "llvm.nvvm.wgmma.fence.sync.aligned", m->void_t, NULL, 0, NULL, 0);
}

void
cg_wgmma_commit(CgModule *m)
{
	cg_intrinsic(m, "llvm.nvvm.wgmma.commit_group.sync.aligned", m->void_t, NULL, 0, NULL, 0);
}

void
cg_wgmma_wait(CgModule *m, int pending)
{
	LLVMValueRef n = LLVMConstInt(m->i64, (uint64_t)pending, 0);
	cg_intrinsic(m, "llvm.nvvm.wgmma.wait_group.sync.aligned", m->void_t, NULL, 0, &n, 1);
}

void
cg_wgmma_wait_tied(CgModule *m, int pending, TDType d, LLVMValueRef *vals, int n,
                   LLVMValueRef *out)
{
	char text[64];
	snprintf(text, sizeof text, "wgmma.wait_group.sync.aligned %d;", pending);
	LLVMValueRef *words = arena_alloc(m->arena, (size_t)n * sizeof *words);
	int nw = acc_words(m, d, vals, n, words);
	tied_asm(m, text, "", word_type(m, d), false, words, nw, NULL, NULL, 0, words);
	acc_elems(m, d, words, n, out);
}
