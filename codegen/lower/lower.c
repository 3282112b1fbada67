/*
 * The dispatcher of the lowering: each instruction of a block to the
 * family that lowers it (codegen/ops/), and what is lowered here: control
 * flow, variables, parameters and constants. Every register tensor becomes
 * an array of per-thread values indexed by its layout's register index;
 * named variables become allocas (one per register) that LLVM promotes;
 * control flow is structured (for, if, while), and an operation that owns
 * blocks has them lowered through Lower.lower_block, this file's
 * cg_lower_block.
 */
#include "codegen/lower/lower.h"

#include <string.h>


/* A value with one register: scalars and constants. */
static void
set_scalar(Lower *l, const TInst *in, LLVMValueRef x)
{
	CgVal v = cg_val_new(l, 1);
	v.r[0] = x;
	l->vals[in->res->id] = v;
}

/* The registers of a variable of type t: a descriptor's are its map's
 * address and its extents (as a descriptor value's, see lower_hopper.c). */
static int
var_regs(const TType *t)
{
	return t->kind == TY_DESC ? 1 + t->rank : cg_type_regs(t);
}

/* The LLVM type of register i of a variable: shared-memory views are
 * pointers into shared memory, a descriptor a generic pointer and i32s. */
static LLVMTypeRef
var_type(CgModule *m, const TType *t, int i)
{
	if (t->kind == TY_SMEM || t->kind == TY_MBARRIER)
		return m->ptr_shared;
	if (t->kind == TY_DESC)
		return i ? m->i32 : m->ptr;
	return cg_elem_type(m, t);
}

static LLVMValueRef *
var_slots(Lower *l, const TVar *var)
{
	if (!l->vars[var->id]) {
		int n = var_regs(var->type);
		LLVMValueRef *s = arena_alloc(l->m->arena, (size_t)n * sizeof *s);
		for (int i = 0; i < n; i++)
			s[i] = cg_entry_alloca(l, var_type(l->m, var->type, i), var->name);
		l->vars[var->id] = s;
	}
	return l->vars[var->id];
}

static void
var_write(Lower *l, const TVar *var, CgVal v)
{
	LLVMValueRef *s = var_slots(l, var);
	for (int i = 0; i < v.n; i++)
		LLVMBuildStore(l->m->b, v.r[i], s[i]);
}

static CgVal
var_read(Lower *l, const TVar *var)
{
	LLVMValueRef *s = var_slots(l, var);
	CgVal v = cg_val_new(l, var_regs(var->type));
	for (int i = 0; i < v.n; i++)
		v.r[i] = LLVMBuildLoad2(l->m->b, var_type(l->m, var->type, i), s[i], "");
	return v;
}

static LLVMBasicBlockRef
new_block(Lower *l, const char *name)
{
	return LLVMAppendBasicBlockInContext(l->m->ctx, l->m->fn, name);
}

/* Branches to `to` unless the current block already ends. */
static void
br(Lower *l, LLVMBasicBlockRef to)
{
	if (!LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(l->m->b)))
		LLVMBuildBr(l->m->b, to);
}

/* A loop's body b: break goes to brk, continue to cont, where its end
 * goes too. */
static bool
loop_body(Lower *l, const TBlock *b, LLVMBasicBlockRef brk, LLVMBasicBlockRef cont)
{
	LLVMBasicBlockRef outer_brk = l->brk, outer_cont = l->cont;
	l->brk = brk;
	l->cont = cont;
	bool ok = cg_lower_block(l, b);
	l->brk = outer_brk;
	l->cont = outer_cont;
	br(l, cont);
	return ok;
}

static bool
lower_for(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	LLVMValueRef lo = cg_val(l, in->args[0]).r[0];
	LLVMValueRef hi = cg_val(l, in->args[1]).r[0];
	LLVMValueRef step = cg_val(l, in->args[2]).r[0];
	LLVMTypeRef t = LLVMTypeOf(lo);
	/* A hidden counter: the body may assign the loop variable. */
	LLVMValueRef counter = cg_entry_alloca(l, t, "for.i");
	LLVMBuildStore(m->b, lo, counter);
	LLVMBasicBlockRef cond = new_block(l, "for.cond"), body = new_block(l, "for.body"),
	                  latch = new_block(l, "for.latch"), done = new_block(l, "for.end");
	LLVMBuildBr(m->b, cond);
	LLVMPositionBuilderAtEnd(m->b, cond);
	LLVMValueRef i = LLVMBuildLoad2(m->b, t, counter, "");
	LLVMValueRef up = LLVMBuildICmp(m->b, LLVMIntSLT, i, hi, "");
	LLVMValueRef down = LLVMBuildICmp(m->b, LLVMIntSGT, i, hi, "");
	LLVMValueRef pos = LLVMBuildICmp(m->b, LLVMIntSGT, step, LLVMConstInt(t, 0, 0), "");
	LLVMBuildCondBr(m->b, LLVMBuildSelect(m->b, pos, up, down, ""), body, done);
	LLVMPositionBuilderAtEnd(m->b, body);
	CgVal iv = cg_val_new(l, 1);
	iv.r[0] = i;
	var_write(l, in->var, iv);
	bool ok = loop_body(l, &in->body, done, latch);
	LLVMPositionBuilderAtEnd(m->b, latch);
	LLVMBuildStore(m->b, LLVMBuildAdd(m->b, LLVMBuildLoad2(m->b, t, counter, ""), step, ""),
	               counter);
	LLVMBuildBr(m->b, cond);
	LLVMPositionBuilderAtEnd(m->b, done);
	return ok;
}

static bool
lower_if(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	LLVMBasicBlockRef then = new_block(l, "if.then"), els = new_block(l, "if.else"),
	                  done = new_block(l, "if.end");
	LLVMBuildCondBr(m->b, cg_val(l, in->args[0]).r[0], then, els);
	LLVMPositionBuilderAtEnd(m->b, then);
	bool ok = cg_lower_block(l, &in->body);
	br(l, done);
	LLVMPositionBuilderAtEnd(m->b, els);
	ok = cg_lower_block(l, &in->else_body) && ok;
	br(l, done);
	LLVMPositionBuilderAtEnd(m->b, done);
	return ok;
}

static bool
lower_while(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	LLVMBasicBlockRef cond = new_block(l, "while.cond"), body = new_block(l, "while.body"),
	                  done = new_block(l, "while.end");
	LLVMBuildBr(m->b, cond);
	LLVMPositionBuilderAtEnd(m->b, cond);
	bool ok = cg_lower_block(l, &in->cond_block);
	if (ok)
		LLVMBuildCondBr(m->b, cg_val(l, in->cond_value).r[0], body, done);
	LLVMPositionBuilderAtEnd(m->b, body);
	ok = loop_body(l, &in->body, done, cond) && ok;
	LLVMPositionBuilderAtEnd(m->b, done);
	return ok;
}

/* break/continue: the rest of the block is unreachable; it goes into a
 * fresh block with no predecessor. */
static void
jump(Lower *l, LLVMBasicBlockRef to)
{
	LLVMBuildBr(l->m->b, to);
	LLVMPositionBuilderAtEnd(l->m->b, new_block(l, "dead"));
}

static LLVMValueRef
constant(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	LLVMTypeRef t = cg_elem_type(m, in->res->type);
	TDType dt = in->res->type->dtype;
	if (cg_dtype_is_fp(dt))
		return LLVMConstReal(t, in->c.f);
	if (ir_dtype_is_f8(dt))
		return cg_f8_constant(m, dt, in->c.f);
	return LLVMConstInt(t, (unsigned long long)in->c.i, 1);
}

/* A descriptor: the tensor map, then its hidden global extents. */
static bool
lower_desc_param(Lower *l, const TInst *in, LLVMValueRef map)
{
	int *first = arena_alloc(l->m->arena, (size_t)(l->k->n_params + 1) * sizeof *first);
	cg_desc_hidden_params(l->k, first);
	int rank = in->res->type->rank;
	CgVal v = cg_val_new(l, 1 + rank);
	v.r[0] = map;
	for (int d = 0; d < rank; d++)
		v.r[1 + d] = LLVMGetParam(l->m->fn, (unsigned)(first[in->param] + d));
	l->vals[in->res->id] = v;
	return true;
}

static bool
lower_inst(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	cg_set_loc(m, in->at);
	switch (in->op) {
	case OP_CONST:
		set_scalar(l, in, constant(l, in));
		return true;
	case OP_PARAM: {
		LLVMValueRef p = LLVMGetParam(m->fn, (unsigned)in->param);
		/* an i1 arrives as a byte (C's bool); any nonzero byte is true, so
		 * that a caller's 2 is not its low bit */
		if (in->res->type->kind == TY_SCALAR && in->res->type->dtype == DT_I1)
			p = LLVMBuildICmp(m->b, LLVMIntNE, p, LLVMConstInt(m->i8, 0, 0), "");
		if (in->res->type->kind == TY_DESC)
			return lower_desc_param(l, in, p);
		set_scalar(l, in, p);
		return true;
	}
	case OP_PROGRAM_ID:
	case OP_NUM_PROGRAMS: {
		if (in->attr.axis < 0 || in->attr.axis > 2) {
			cg_unsupported(l, in, "a program axis other than 0, 1 or 2");
			return false;
		}
		CgSreg base = in->op == OP_PROGRAM_ID ? CG_CTAID_X : CG_NCTAID_X;
		set_scalar(l, in, cg_sreg(m, (CgSreg)(base + in->attr.axis)));
		return true;
	}
	case OP_VAR_READ:
		l->vals[in->res->id] = var_read(l, in->var);
		return true;
	case OP_VAR_WRITE:
		var_write(l, in->var, cg_val(l, in->args[0]));
		return true;
	case OP_FOR:
		return lower_for(l, in);
	case OP_IF:
		return lower_if(l, in);
	case OP_WHILE:
		return lower_while(l, in);
	case OP_BREAK:
	case OP_CONTINUE:
		if (!l->brk) {
			cg_unsupported(l, in, "break or continue outside a loop");
			return false;
		}
		jump(l, in->op == OP_BREAK ? l->brk : l->cont);
		return true;
	case OP_THREAD_BARRIER:
		cg_barrier(m);
		return true;
	case OP_LOAD:
	case OP_STORE:
		return cg_lower_memory(l, in);
	case OP_ATOMIC_RMW: case OP_ATOMIC_CAS:
		return cg_lower_atomic(l, in);
	case OP_REDUCE:
		if (!cg_reduce_commutes(in))
			return cg_lower_scan(l, in);
		return cg_lower_reduce(l, in);
	case OP_SCAN:
		return cg_lower_scan(l, in);
	case OP_YIELD:   /* read by the combine that lowers the region */
		return true;
	case OP_RESHAPE: case OP_PERMUTE: case OP_JOIN: case OP_SPLIT:
		return cg_lower_shape(l, in);
	case OP_FP4_TO_FP:
		return cg_lower_fp4(l, in);
	case OP_GATHER:
		return cg_lower_gather(l, in);
	case OP_HISTOGRAM:
		return cg_lower_histogram(l, in);
	case OP_ARANGE: case OP_FULL: case OP_SPLAT: case OP_BROADCAST:
	case OP_EXPAND_DIMS:
		return cg_lower_layout_op(l, in);
	case OP_CONVERT_LAYOUT:
		return cg_lower_convert(l, in);
	case OP_SMEM_STORE:
		return cg_stmatrix_store(l, in) || cg_lower_smem(l, in);
	case OP_SMEM_ALLOC: case OP_SMEM_VIEW: case OP_SMEM_LOAD:
		return cg_lower_smem(l, in);
	case OP_ASYNC_COPY: case OP_ASYNC_COMMIT: case OP_ASYNC_WAIT: case OP_ASYNC_MBAR_ARRIVE:
		return cg_lower_async(l, in);
	case OP_PRINT: case OP_ASSERT:
		return cg_lower_debug(l, in);
	case OP_INLINE_ASM: case OP_MAP: case OP_MAP_ARG: case OP_MAP_YIELD: case OP_EXTRACT:
		return cg_lower_escape(l, in);
	case OP_EXTERN:
		return cg_lower_extern(l, in);
	case OP_MBAR_INIT: case OP_MBAR_INVALIDATE: case OP_MBAR_EXPECT: case OP_MBAR_WAIT:
	case OP_MBAR_ARRIVE: case OP_TMA_LOAD: case OP_TMA_STORE: case OP_TMA_STORE_WAIT:
	case OP_DESC_SHAPE: case OP_FENCE_ASYNC_SHARED: case OP_MAKE_DESC:
		return cg_lower_hopper(l, in);
	case OP_WGMMA: case OP_WGMMA_WAIT:
		return cg_lower_wgmma(l, in);
	case OP_DOT:
		return cg_lower_dot(l, in);
	case OP_WARP_SPECIALIZE:
		return cg_lower_warp_specialize(l, in);
	case OP_MULTIPLE_OF: case OP_MAX_CONTIGUOUS: case OP_MAX_CONSTANCY:
		/* hints for the axis analysis: the operand itself */
		l->vals[in->res->id] = cg_val(l, in->args[0]);
		return true;
	case OP_ASSUME: {
		CgVal c = cg_val(l, in->args[0]);
		for (int i = 0; i < c.n; i++)
			cg_intrinsic(m, "llvm.assume", m->void_t, NULL, 0, &c.r[i], 1);
		return true;
	}
	default:
		if (in->op <= OP_BITCAST)
			return cg_lower_elementwise(l, in);
		cg_unsupported(l, in, "this operation");
		return false;
	}
}

bool
cg_lower_block(Lower *l, const TBlock *b)
{
	for (size_t i = 0; i < b->n; i++)
		if (!lower_inst(l, b->insts[i]))
			return false;
	return true;
}
