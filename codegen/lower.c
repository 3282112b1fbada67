/*
 * Lowering the typed program: one LLVM module per file with one function per
 * kernel. Every register tensor becomes an array of per-thread values indexed
 * by its layout's register index; named variables become allocas (one per
 * register) that LLVM promotes; control flow is structured (for, if, while).
 * This file holds the driver of the lowering, control flow, variables,
 * parameters and constants; lower_ops.c, lower_layout.c and lower_mem.c the
 * rest.
 */
#include "codegen/cg_internal.h"

#include <string.h>


void
cg_unsupported(Lower *l, const TInst *in, const char *what)
{
	diag_internal(l->m->diags, in->at, "code generation does not support %s yet", what);
	l->failed = true;
}

int
cg_type_regs(const TType *t)
{
	if (t->kind != TY_TENSOR)
		return 1;
	return 1 << ll_in_bits(&t->layout.ll, LL_REGISTER);
}

LLVMTypeRef
cg_elem_type(CgModule *m, const TType *t)
{
	if (t->kind == TY_PTR || (t->kind == TY_TENSOR && t->elem_is_ptr))
		return m->ptr_global;
	return cg_dtype_type(m, t->dtype);
}

CgVal
cg_val_new(Lower *l, int n)
{
	CgVal v = {arena_alloc(l->m->arena, (size_t)n * sizeof(LLVMValueRef)), n};
	return v;
}

CgVal
cg_val(Lower *l, const TValue *v)
{
	return l->vals[v->id];
}

/* A value with one register: scalars and constants. */
static void
set_scalar(Lower *l, const TInst *in, LLVMValueRef x)
{
	CgVal v = cg_val_new(l, 1);
	v.r[0] = x;
	l->vals[in->res->id] = v;
}

LLVMValueRef
cg_apply_hw(Lower *l, const LLayout *ly, int r, LLName out)
{
	CgModule *m = l->m;
	int j = ll_out_index(ly, out);
	if (j < 0)
		return LLVMConstInt(m->i32, 0, 0);
	uint32_t v[LL_MAX_DIMS];
	uint64_t reg_part = 0;
	int ri = ll_in_index(ly, LL_REGISTER);
	for (int b = 0; ri >= 0 && b < ly->in_bits[ri]; b++)
		if (r >> b & 1) {
			ll_get_basis(ly, ri, b, v);
			reg_part ^= v[j];
		}
	LLVMValueRef c = NULL;
	static const LLName hw[] = {LL_LANE, LL_WARP};
	for (int h = 0; h < 2; h++) {
		int ii = ll_in_index(ly, hw[h]);
		if (ii < 0)
			continue;
		LLVMValueRef id = h == 0 ? cg_lane_id(m) : cg_warp_id(m);
		for (int b = 0; b < ly->in_bits[ii]; b++) {
			ll_get_basis(ly, ii, b, v);
			if (!v[j])
				continue;
			LLVMValueRef bit = LLVMBuildAnd(m->b, id, LLVMConstInt(m->i32, 1u << b, 0), "");
			LLVMValueRef on = LLVMBuildICmp(m->b, LLVMIntNE, bit,
			                                LLVMConstInt(m->i32, 0, 0), "");
			LLVMValueRef t = LLVMBuildSelect(m->b, on, LLVMConstInt(m->i32, v[j], 0),
			                                 LLVMConstInt(m->i32, 0, 0), "");
			c = c ? LLVMBuildXor(m->b, c, t, "") : t;
		}
	}
	LLVMValueRef k = LLVMConstInt(m->i32, reg_part, 0);
	return c ? LLVMBuildXor(m->b, c, k, "") : k;
}

LLVMValueRef
cg_coord(Lower *l, const LLayout *ly, int r, int dim)
{
	return cg_apply_hw(l, ly, r, (LLName)(LL_DIM0 + dim));
}

LLVMValueRef
cg_entry_alloca(Lower *l, LLVMTypeRef t, const char *name)
{
	CgModule *m = l->m;
	LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(m->fn);
	LLVMBuilderRef b = LLVMCreateBuilderInContext(m->ctx);
	LLVMValueRef first = LLVMGetFirstInstruction(entry);
	if (first)
		LLVMPositionBuilderBefore(b, first);
	else
		LLVMPositionBuilderAtEnd(b, entry);
	LLVMValueRef a = LLVMBuildAlloca(b, t, name);
	LLVMDisposeBuilder(b);
	return a;
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
	LLVMBasicBlockRef brk = l->brk, cont = l->cont;
	l->brk = done;
	l->cont = latch;
	bool ok = cg_lower_block(l, &in->body);
	l->brk = brk;
	l->cont = cont;
	br(l, latch);
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
	LLVMBasicBlockRef brk = l->brk, cont = l->cont;
	l->brk = done;
	l->cont = cond;
	ok = cg_lower_block(l, &in->body) && ok;
	l->brk = brk;
	l->cont = cont;
	br(l, cond);
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
	if (dt == DT_F16 || dt == DT_BF16 || dt == DT_F32 || dt == DT_F64)
		return LLVMConstReal(t, in->c.f);
	if (dt == DT_F8E4M3 || dt == DT_F8E5M2)
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

/* Reports the first result tensor in b (and the blocks it nests) that holds
 * more elements per thread than the lowering unrolls: every register
 * tensor becomes one LLVM value per element a thread holds, and compile
 * time and memory (LLVM's and ptxas's) grow faster than that count (4096 a
 * thread took ptxas 80 s and 3.8 GB), for code that could not run well
 * anyway (the register file holds 255). */
static bool
fits_registers(Diags *d, const Limits *lim, const TBlock *b)
{
	for (size_t i = 0; i < b->n; i++) {
		const TInst *in = b->insts[i];
		const TType *t = in->res ? in->res->type : NULL;
		int bits = t && t->kind == TY_TENSOR ? ll_in_bits(&t->layout.ll, LL_REGISTER) : 0;
		if (bits > 0 && (bits >= 63 || 1ull << bits > lim->max[LIM_ELEMS_PER_THREAD])) {
			Diag *e = diag_error(d, in->at, "this tensor holds 2^%d elements per thread, "
			                     "more than code generation takes", bits);
			diag_limit_note(d, e, lim, LIM_ELEMS_PER_THREAD);
			diag_note(d, e, in->res->layout_at,
			          "a smaller shape or more warps spread it over more threads");
			return false;
		}
		if (!fits_registers(d, lim, &in->body) || !fits_registers(d, lim, &in->else_body) ||
		    !fits_registers(d, lim, &in->cond_block))
			return false;
	}
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
		if (in->n_region)
			return cg_lower_scan(l, in);
		return cg_lower_layout_op(l, in);
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
		return cg_lower_escape(l, in, cg_lower_block);
	case OP_MBAR_INIT: case OP_MBAR_INVALIDATE: case OP_MBAR_EXPECT: case OP_MBAR_WAIT:
	case OP_MBAR_ARRIVE: case OP_TMA_LOAD: case OP_TMA_STORE: case OP_TMA_STORE_WAIT:
	case OP_DESC_SHAPE: case OP_FENCE_ASYNC_SHARED: case OP_MAKE_DESC:
		return cg_lower_hopper(l, in);
	case OP_WGMMA: case OP_WGMMA_WAIT:
		return cg_lower_wgmma(l, in);
	case OP_DOT:
		return cg_lower_dot(l, in);
	case OP_WARP_SPECIALIZE:
		return cg_lower_warp_specialize(l, in, cg_lower_block);
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

static CgKernelSig
signature(Arena *a, const TKernel *k)
{
	int n = k->n_params;
	for (int i = 0; i < k->n_params; i++)
		if (k->params[i].kind == TP_DESC)
			n += k->params[i].type->rank;
	CgParam *ps = arena_alloc(a, (size_t)(n + 1) * sizeof *ps);
	/* Descriptors' global extents follow as i32 scalars. */
	for (int i = 0, j = k->n_params; i < k->n_params; i++)
		for (int d = 0; k->params[i].kind == TP_DESC && d < k->params[i].type->rank; d++)
			ps[j++] = (CgParam){.name = arena_printf(a, "%s_shape%d", k->params[i].name, d),
			                    .kind = CG_PARAM_SCALAR, .dtype = DT_I32,
			                    .map_param = i + 1, .map_dim = d};
	for (int i = 0; i < k->n_params; i++) {
		const TParam *p = &k->params[i];
		ps[i].name = p->name;
		ps[i].dtype = p->type->dtype;
		ps[i].divisibility = p->divisibility;
		ps[i].kind = p->kind == TP_PTR    ? CG_PARAM_PTR
		           : p->kind == TP_DESC ? CG_PARAM_TENSOR_MAP
		                                : CG_PARAM_SCALAR;
	}
	return (CgKernelSig){
		.name = k->name, .params = ps, .n_params = n,
		/* setmaxnreg needs a register budget at entry */
		.minctasm = k->parts ? 1 : 0, .scratch_bytes = 128 * (uint32_t)cg_desc_sites(k),
		.num_warps = k->total_warps > 0 ? k->total_warps : k->num_warps, .at = k->at,
	};
}

static bool
lower_kernel(CgModule *m, const TKernel *k, CgKernelSig *sig)
{
	const Limits *lim = &m->target->limits;
	bool fits = fits_registers(m->diags, lim, &k->body);
	for (int i = 0; fits && i < k->n_parts; i++)
		fits = fits_registers(m->diags, lim, &k->parts[i].body);
	if (!fits)
		return false;
	cg_kernel_begin(m, sig);
	/* CTA-wide barriers until a warp_specialize (whose default partition's
	 * warps keep their named barrier to the kernel's end; with the
	 * dispatch loop, from the entry on: cg_ws_begin) */
	m->bar_id = m->bar_threads = 0;
	Lower l = {.m = m, .k = k, .part = -1, .part_warps = k->num_warps};
	l.vals = arena_alloc(m->arena, (size_t)(k->n_values + 1) * sizeof *l.vals);
	l.vars = arena_alloc(m->arena, (size_t)(k->n_vars + 1) * sizeof *l.vars);
	l.axis = k->axis ? k->axis : ir_axis_analyze(m->arena, k);
	l.desc_sites = cg_desc_sites(k);
	if (sig->scratch_bytes)
		l.scratch = LLVMGetParam(m->fn, (unsigned)sig->n_params);
	int errors = m->diags->errors;
	if (!cg_ws_begin(&l))
		return false;
	cg_smem_begin(&l, &sig->smem_bytes);
	/* Internal errors of the builders (cg_intrinsic) count as failures. */
	bool ok = !l.failed && cg_lower_block(&l, &k->body) && !l.failed &&
	          cg_ws_end(&l, cg_lower_block) && !l.failed && m->diags->errors == errors;
	if (!LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(m->b)))
		LLVMBuildRetVoid(m->b);
	return ok;
}

bool
cg_compile(CgTarget *t, const TProgram *prog, const char *only, const Sources *src,
           uint32_t file, Arena *a, Diags *d, CgResult *out)
{
	memset(out, 0, sizeof *out);
	CgModule m;
	cg_module_init(&m, t, src && file ? src_path(src, file) : "glc", src, file, a, d);
	out->kernels = arena_alloc(a, (size_t)(prog->n_kernels + 1) * sizeof *out->kernels);
	bool ok = true;
	for (int i = 0; i < prog->n_kernels; i++) {
		const TKernel *k = prog->kernels[i];
		if (only && strcmp(only, k->name) != 0)
			continue;
		/* The generic entry, then the specialized variant if there is one. */
		CgKernelSig *sig = &out->kernels[out->n_kernels++];
		*sig = signature(a, k);
		bool kernel_ok = lower_kernel(&m, k, sig);
		if (k->fast) {
			CgKernelSig *fast = arena_alloc(a, sizeof *fast);
			*fast = signature(a, k->fast);
			sig->fast = fast;
			kernel_ok = kernel_ok && lower_kernel(&m, k->fast, fast);
		}
		ok = kernel_ok && ok;
	}
	ok = ok && cg_link_libdevice(&m) && cg_module_verify(&m) && cg_module_optimize(&m);
	if (ok) {
		out->llvm_ir = cg_module_ir(&m);
		ok = cg_module_ptx(&m, &out->ptx);
	}
	cg_module_dispose(&m);
	return ok;
}
