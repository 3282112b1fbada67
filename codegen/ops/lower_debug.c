/*
 * device_print and device_assert through the CUDA driver's device-side
 * system calls vprintf and __assertfail, as Triton lowers them.
 *
 * device_print prints one line per element in Triton's format,
 *   pid (<x>, <y>, <z>) idx (<i0>, <i1>, ...)<prefix>[(operand <n>) ]<value>
 * each index padded to the digits of its dim, "(operand <n>) " only when
 * several tensors print; without operands `pid (x, y, z)<prefix>`. Floats
 * print with %f, integers with %i or %u (%lli, %llu for 64 bits), pointers
 * with %p; hex=True prints the bits (0x%04x for 16 bits). Of a layout that
 * holds an element more than once, one thread prints it once.
 *
 * device_assert (kept only with -g or --debug) calls __assertfail with the
 * message, the file, line and kernel name when the condition is false
 * where the mask is true; the driver reports it and the kernel traps.
 */
#include "codegen/ops/ops.h"

#include <math.h>
#include <string.h>

/* A NUL-terminated constant string in global memory; a generic pointer. */
static LLVMValueRef
string_global(CgModule *m, const char *text)
{
	size_t n = strlen(text);
	LLVMValueRef init = LLVMConstStringInContext2(m->ctx, text, n, false);
	LLVMValueRef g = LLVMAddGlobalInAddressSpace(m->mod, LLVMTypeOf(init), "glc.str",
	                                             CG_AS_GLOBAL);
	LLVMSetInitializer(g, init);
	LLVMSetGlobalConstant(g, true);
	LLVMSetLinkage(g, LLVMPrivateLinkage);
	LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
	return LLVMBuildAddrSpaceCast(m->b, g, m->ptr, "");
}

/* The declaration of a function of the given type, added once. */
static LLVMValueRef
extern_fn(CgModule *m, const char *name, LLVMTypeRef fty)
{
	LLVMValueRef f = LLVMGetNamedFunction(m->mod, name);
	return f ? f : LLVMAddFunction(m->mod, name, fty);
}

/* printf's conversion of one value of type t, and the value as vprintf
 * takes it (i32, i64, double or a pointer). */
static const char *
conversion(Lower *l, const TInst *in, const TType *t, LLVMValueRef *x)
{
	CgModule *m = l->m;
	TDType dt = t->dtype;
	int bits = ir_dtype_bits(dt);
	if (t->kind == TY_PTR || t->elem_is_ptr) {
		*x = LLVMBuildPtrToInt(m->b, *x, m->i64, "");
		return "%p";
	}
	if (ir_dtype_is_f8(dt)) {
		if (in->attr.hex) {
			*x = LLVMBuildZExt(m->b, *x, m->i32, "");
			return "0x%02x";
		}
		*x = cg_cast(l, in, dt, DT_F32, *x);
		dt = DT_F32;
	}
	if (in->attr.hex) {
		LLVMTypeRef it = LLVMIntTypeInContext(m->ctx, (unsigned)(bits < 8 ? 8 : bits));
		*x = LLVMBuildBitCast(m->b, dt == DT_I1 ? LLVMBuildZExt(m->b, *x, m->i8, "") : *x,
		                      it, "");
		*x = bits > 32 ? *x : LLVMBuildZExt(m->b, *x, m->i32, "");
		return bits > 32 ? "0x%016llx" : bits > 16 ? "0x%08x" : bits > 8 ? "0x%04x" : "0x%02x";
	}
	if (ir_dtype_is_float(dt)) {
		*x = dt == DT_F64 ? *x : LLVMBuildFPExt(m->b, *x, m->f64, "");
		return "%f";
	}
	bool sign = ir_dtype_is_signed(dt);
	if (bits > 32)
		return sign ? "%lli" : "%llu";
	*x = sign ? LLVMBuildSExt(m->b, *x, m->i32, "") : LLVMBuildZExt(m->b, *x, m->i32, "");
	return sign ? "%i" : "%u";
}

/* vprintf(fmt, args) with the values args[0..n-1] packed as C varargs. */
static void
printf_call(Lower *l, LLVMValueRef fmt, LLVMValueRef buf, LLVMTypeRef st, LLVMValueRef *args,
            int n)
{
	CgModule *m = l->m;
	for (int i = 0; i < n; i++)
		LLVMBuildStore(m->b, args[i], LLVMBuildStructGEP2(m->b, st, buf, (unsigned)i, ""));
	LLVMTypeRef ps[] = {m->ptr, m->ptr};
	LLVMTypeRef fty = LLVMFunctionType(m->i32, ps, 2, false);
	LLVMValueRef call[] = {fmt, buf};
	LLVMBuildCall2(m->b, fty, extern_fn(m, "vprintf", fty), call, 2, "");
}

/* printf text for s, '%' doubled. */
static void
literal(StrBuf *b, const char *s)
{
	for (; *s; s++)
		if (*s == '%')
			buf_puts(b, "%%");
		else
			buf_putc(b, *s);
}

/* Prints the elements of operand k of OP_PRINT in (each on its line). */
static void
print_operand(Lower *l, const TInst *in, int k, LLVMValueRef *pid)
{
	CgModule *m = l->m;
	const TValue *v = in->args[k];
	const TType *t = v->type;
	bool tensor = t->kind == TY_TENSOR;
	int rank = tensor ? t->rank : 0;
	CgVal val = cg_val(l, v);
	uint64_t dup = 0;
	LLVMValueRef owner = tensor ? cg_first_owner(l, &t->layout.ll, &dup) : NULL;
	LLVMBasicBlockRef done = NULL;
	if (owner) {
		LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "print");
		done = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "print.end");
		LLVMBuildCondBr(m->b, owner, then, done);
		LLVMPositionBuilderAtEnd(m->b, then);
	}
	LLVMValueRef fmt = NULL, buf = NULL;
	LLVMTypeRef st = NULL;
	for (int r = 0; r < val.n; r++) {
		if ((uint64_t)r & dup)
			continue;
		LLVMValueRef args[3 + LL_MAX_RANK + 1];
		LLVMTypeRef ts[3 + LL_MAX_RANK + 1];
		int n = 0;
		for (int d = 0; d < 3; d++)
			args[n++] = pid[d];
		for (int d = 0; d < rank; d++)
			args[n++] = cg_coord(l, &t->layout.ll, r, d);
		args[n] = val.r[r];
		const char *conv = conversion(l, in, t, &args[n]);
		n++;
		if (!fmt) {
			StrBuf b = {0};
			buf_puts(&b, "pid (%u, %u, %u) idx (");
			for (int d = 0; d < rank; d++) {
				int w = (int)ceil(log10((double)t->shape[d]));
				buf_printf(&b, "%s%%", d ? ", " : "");
				if (w > 0)
					buf_printf(&b, "%d", w);
				buf_putc(&b, 'u');
			}
			buf_putc(&b, ')');
			literal(&b, in->attr.text);
			if (in->n_args > 1)
				buf_printf(&b, "(operand %d) ", k);
			buf_printf(&b, "%s\n", conv);
			fmt = string_global(m, b.s);
			buf_free(&b);
			for (int i = 0; i < n; i++)
				ts[i] = LLVMTypeOf(args[i]);
			st = LLVMStructTypeInContext(m->ctx, ts, (unsigned)n, false);
			buf = cg_entry_alloca(l, st, "printf.args");
		}
		printf_call(l, fmt, buf, st, args, n);
	}
	if (done) {
		LLVMBuildBr(m->b, done);
		LLVMPositionBuilderAtEnd(m->b, done);
	}
}

static void
lower_print(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	LLVMValueRef pid[3] = {cg_sreg(m, CG_CTAID_X), cg_sreg(m, CG_CTAID_Y),
	                       cg_sreg(m, CG_CTAID_Z)};
	for (int k = 0; k < in->n_args; k++)
		print_operand(l, in, k, pid);
	if (in->n_args)
		return;
	StrBuf b = {0};
	buf_puts(&b, "pid (%u, %u, %u)");
	literal(&b, in->attr.text);
	buf_putc(&b, '\n');
	LLVMTypeRef ts[] = {m->i32, m->i32, m->i32};
	LLVMTypeRef st = LLVMStructTypeInContext(m->ctx, ts, 3, false);
	printf_call(l, string_global(m, b.s), cg_entry_alloca(l, st, "printf.args"), st, pid, 3);
	buf_free(&b);
}

static void
lower_assert(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	CgVal c = cg_val(l, in->args[0]);
	CgVal mk = in->n_args > 1 ? cg_val(l, in->args[1]) : (CgVal){0};
	LLVMValueRef fail = LLVMConstInt(m->i1, 0, 0);
	for (int r = 0; r < c.n; r++) {
		LLVMValueRef f = LLVMBuildNot(m->b, c.r[r], "");
		if (mk.n)
			f = LLVMBuildAnd(m->b, f, mk.r[mk.n == 1 ? 0 : r], "");
		fail = LLVMBuildOr(m->b, fail, f, "");
	}
	LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "assert.fail");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "assert.end");
	LLVMBuildCondBr(m->b, fail, then, done);
	LLVMPositionBuilderAtEnd(m->b, then);
	const char *file = m->src && in->at.file ? src_path(m->src, in->at.file) : "<unknown>";
	LLVMTypeRef ps[] = {m->ptr, m->ptr, m->i32, m->ptr, m->i64};
	LLVMTypeRef fty = LLVMFunctionType(m->void_t, ps, 5, false);
	LLVMValueRef args[] = {
		string_global(m, in->attr.text), string_global(m, file),
		LLVMConstInt(m->i32, in->at.line, 0), string_global(m, l->k->name),
		LLVMConstInt(m->i64, 1, 0),
	};
	LLVMBuildCall2(m->b, fty, extern_fn(m, "__assertfail", fty), args, 5, "");
	LLVMBuildBr(m->b, done);
	LLVMPositionBuilderAtEnd(m->b, done);
}

bool
cg_lower_debug(Lower *l, const TInst *in)
{
	if (in->op == OP_PRINT)
		lower_print(l, in);
	else if (l->m->target->asserts)
		lower_assert(l, in);
	return true;
}
