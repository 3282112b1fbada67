/*
 * The elementwise escapes: inline_asm (one asm statement per pack of each
 * thread's elements) and map (the scalar body lowered once per pack of
 * elements), and extract, which picks one result of either.
 *
 * Registers of inline asm are Triton's: an argument or result narrower
 * than 32 bits travels min(32 / bits, pack) elements to a register, as an
 * LLVM vector (<2 x half>, <4 x i8>, ...) that the backend keeps in one
 * 32-bit register; the results come first. A scalar argument of a tensor
 * operation applies to every element. A tuple of results is held as their
 * registers one result after the other.
 */
#include "codegen/ops/ops.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Elements per register of an element of type t in a pack of `pack`. */
static int
per_reg(CgModule *m, LLVMTypeRef t, int pack)
{
	int bits = (int)LLVMSizeOfTypeInBits(m->target->data, t);
	int n = bits < 32 ? 32 / bits : 1;
	return n < pack ? n : pack;
}

/* The registers of each result of in (a tuple or one value). */
static int
result_regs(const TInst *in, int *n_res)
{
	const TType *t = in->res->type;
	*n_res = t->kind == TY_TUPLE ? t->n_elems : 1;
	return cg_type_regs(t->kind == TY_TUPLE ? t->elems[0] : t);
}

static LLVMTypeRef
result_type(CgModule *m, const TInst *in, int r)
{
	const TType *t = in->res->type;
	return cg_elem_type(m, t->kind == TY_TUPLE ? t->elems[r] : t);
}

/* A mistake in inline asm that LLVM would crash or stop on, at the
 * instruction (the program came from a .ir file, or sema let it through):
 * false after reporting it. */
static bool
asm_error(Lower *l, const TInst *in, const char *fmt, ...) GL_PRINTF(3, 4);

static bool
asm_error(Lower *l, const TInst *in, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = arena_vprintf(l->m->arena, fmt, ap);
	va_end(ap);
	diag_error(l->m->diags, in->at, "inline asm: %s", msg);
	l->failed = true;
	return false;
}

/* Whether the constraints and the text fit the registers of one asm
 * statement (n_ops operands of op_types, n_rets results of rets), as LLVM
 * needs them: one constraint per register, a tied input of its output's
 * type, an immediate ('n') a constant, operand references in range. */
static bool
asm_fits(Lower *l, const TInst *in, LLVMValueRef *ops, LLVMTypeRef *op_types, int n_ops,
         LLVMTypeRef *rets, int n_rets)
{
	int outs, ins;
	IrSpan bad;
	const char *why;
	if (!ir_asm_check_constraints(in->attr.text2, &outs, &ins, &bad, &why))
		return asm_error(l, in, "constraint '%.*s': %s", (int)bad.n, bad.s, why);
	if (outs != n_rets || ins != n_ops)
		return asm_error(l, in, "the constraints give %d outputs and %d inputs; with pack=%d "
		                 "the results and arguments take %d and %d registers", outs, ins,
		                 in->attr.pack, n_rets, n_ops);
	for (int k = 0; k < ins; k++) {
		IrSpan c = ir_asm_input(in->attr.text2, k);
		if (c.n == 1 && c.s[0] == 'n' && !LLVMIsConstant(ops[k]))
			return asm_error(l, in, "input $%d is an immediate ('n') but its value is not "
			                 "a constant", outs + k);
		if (c.n && c.s[0] >= '0' && c.s[0] <= '9' && op_types[k] != rets[atoi(c.s)])
			return asm_error(l, in, "input $%d is tied to output $%d ('%.*s') but their "
			                 "registers differ in type (dtypes or pack)", outs + k,
			                 atoi(c.s), (int)c.n, c.s);
	}
	if (!ir_asm_text(in->attr.text, outs + ins, &bad, &why))
		return asm_error(l, in, "'%.*s' in the asm text: %s", (int)bad.n, bad.s, why);
	return true;
}

/* One asm statement for elements e..e+pack-1 of every argument; results
 * into out (result r's element e + j at out[r * regs + e + j]). The first
 * (e = 0) checks that the asm fits its registers: false after an error. */
static bool
asm_pack(Lower *l, const TInst *in, const CgVal *args, int e, int regs, LLVMValueRef *out)
{
	CgModule *m = l->m;
	int pack = in->attr.pack, n_res;
	result_regs(in, &n_res);
	LLVMValueRef ops[256];
	LLVMTypeRef op_types[256], rets[256];
	int n_ops = 0, n_rets = 0;
	for (int a = 0; a < in->n_args; a++) {
		LLVMTypeRef et = cg_elem_type(m, in->args[a]->type);
		int w = per_reg(m, et, pack);
		for (int j = 0; j < pack; j += w) {
			LLVMValueRef x = w == 1 ? NULL : LLVMGetPoison(LLVMVectorType(et, (unsigned)w));
			for (int k = 0; k < w; k++) {
				const CgVal *v = &args[a];
				LLVMValueRef el = v->r[v->n == 1 ? 0 : e + j + k];
				x = w == 1 ? el : LLVMBuildInsertElement(m->b, x, el,
				                  LLVMConstInt(m->i32, (uint64_t)k, 0), "");
			}
			op_types[n_ops] = LLVMTypeOf(x);
			ops[n_ops++] = x;
		}
	}
	for (int r = 0; r < n_res; r++) {
		LLVMTypeRef et = result_type(m, in, r);
		int w = per_reg(m, et, pack);
		for (int j = 0; j < pack; j += w)
			rets[n_rets++] = w == 1 ? et : LLVMVectorType(et, (unsigned)w);
	}
	if (e == 0 && !asm_fits(l, in, ops, op_types, n_ops, rets, n_rets))
		return false;
	LLVMTypeRef rt = n_rets == 1 ? rets[0]
	                             : LLVMStructTypeInContext(m->ctx, rets, (unsigned)n_rets, false);
	LLVMTypeRef fty = LLVMFunctionType(rt, op_types, (unsigned)n_ops, false);
	LLVMValueRef fn = LLVMGetInlineAsm(fty, (char *)in->attr.text, strlen(in->attr.text),
	                                   (char *)in->attr.text2, strlen(in->attr.text2),
	                                   !in->attr.is_pure, false, LLVMInlineAsmDialectATT, false);
	LLVMValueRef res = LLVMBuildCall2(m->b, fty, fn, ops, (unsigned)n_ops, "");
	for (int r = 0, k = 0; r < n_res; r++) {
		int w = per_reg(m, result_type(m, in, r), pack);
		for (int j = 0; j < pack; j += w, k++) {
			LLVMValueRef x = n_rets == 1 ? res : LLVMBuildExtractValue(m->b, res, (unsigned)k, "");
			for (int i = 0; i < w; i++)
				out[r * regs + e + j + i] = w == 1 ? x : LLVMBuildExtractElement(m->b, x,
				                            LLVMConstInt(m->i32, (uint64_t)i, 0), "");
		}
	}
	return true;
}

/* The map's body for elements e..e+pack-1 of every argument. */
static bool
map_pack(Lower *l, const TInst *in, const CgVal *args, int e, int regs, LLVMValueRef *out)
{
	int pack = in->attr.pack, n_res;
	result_regs(in, &n_res);
	LLVMValueRef scalars[256], yield[256];
	for (int a = 0; a < in->n_args; a++)
		for (int j = 0; j < pack; j++)
			scalars[a * pack + j] = args[a].r[args[a].n == 1 ? 0 : e + j];
	LLVMValueRef *saved_args = l->map_args, *saved_yield = l->map_yield;
	l->map_args = scalars;
	l->map_yield = yield;
	bool ok = l->lower_block(l, &in->body);
	l->map_args = saved_args;
	l->map_yield = saved_yield;
	for (int r = 0; ok && r < n_res; r++)
		for (int j = 0; j < pack; j++)
			out[r * regs + e + j] = yield[r * pack + j];
	return ok;
}

bool
cg_lower_escape(Lower *l, const TInst *in)
{
	switch (in->op) {
	case OP_MAP_ARG: {
		CgVal v = cg_val_new(l, 1);
		v.r[0] = l->map_args[in->attr.index];
		l->vals[in->res->id] = v;
		return true;
	}
	case OP_MAP_YIELD:
		for (int k = 0; k < in->n_args; k++)
			l->map_yield[k] = cg_val(l, in->args[k]).r[0];
		return true;
	case OP_EXTRACT: {
		CgVal t = cg_val(l, in->args[0]);
		int regs = cg_type_regs(in->res->type);
		l->vals[in->res->id] = (CgVal){t.r + in->attr.index * regs, regs};
		return true;
	}
	default:
		break;
	}
	int n_res, regs = result_regs(in, &n_res);
	if (in->n_args * in->attr.pack > 256 || n_res * in->attr.pack > 256) {
		cg_unsupported(l, in, "more than 256 registers in one inline asm or map instance");
		return false;
	}
	CgVal *args = arena_alloc(l->m->arena, (size_t)(in->n_args + 1) * sizeof *args);
	for (int a = 0; a < in->n_args; a++)
		args[a] = cg_val(l, in->args[a]);
	CgVal out = cg_val_new(l, n_res * regs);
	for (int e = 0; e < regs; e += in->attr.pack) {
		if (in->op == OP_INLINE_ASM) {
			if (!asm_pack(l, in, args, e, regs, out.r))
				return false;
		} else if (!map_pack(l, in, args, e, regs, out.r))
			return false;
	}
	l->vals[in->res->id] = out;
	return true;
}
