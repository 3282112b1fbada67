/*
 * codegen's lowering on typed programs built by hand (the front end is not
 * involved): vector_add with masked 128-bit accesses, a row reduction over
 * lanes, free layout conversions, loops; each to PTX that ptxas accepts.
 */
#include "codegen/llvm/nvvm.h"
#include "passes/passes.h"
#include "package/package.h"
#include "test/unit/check.h"

#include <stdarg.h>
#include <string.h>

static Arena *A;
static Diags D;

/* A kernel under construction. */
typedef struct K {
	TKernel k;
	TBlock *cur;
} K;

static void
reset(void)
{
	if (A)
		arena_free(A);
	A = arena_new();
	diag_init(&D, A, NULL);
}

static const TType *
scalar(TDType t)
{
	TType *ty = arena_alloc(A, sizeof *ty);
	ty->kind = TY_SCALAR;
	ty->dtype = t;
	return ty;
}

static const TType *
ptr(TDType t)
{
	TType *ty = arena_alloc(A, sizeof *ty);
	ty->kind = TY_PTR;
	ty->dtype = t;
	return ty;
}

static LLDesc *
blocked(int rank, const int *spt, const int *tpw, const int *wpc, const int *order)
{
	LLDesc *d = arena_alloc(A, sizeof *d);
	d->kind = LL_BLOCKED;
	d->size_per_thread.n = d->threads_per_warp.n = d->warps_per_cta.n = d->order.n = rank;
	for (int i = 0; i < rank; i++) {
		d->size_per_thread.v[i] = spt[i];
		d->threads_per_warp.v[i] = tpw[i];
		d->warps_per_cta.v[i] = wpc[i];
		d->order.v[i] = order[i];
	}
	return d;
}

static LLDesc *
slice(int dim, const LLDesc *parent)
{
	LLDesc *d = arena_alloc(A, sizeof *d);
	d->kind = LL_SLICE;
	d->dim = dim;
	d->parent = parent;
	return d;
}

static const TType *
tensor(TDType t, bool is_ptr, const LLDesc *desc, int rank, const int64_t *shape)
{
	TType *ty = arena_alloc(A, sizeof *ty);
	ty->kind = TY_TENSOR;
	ty->dtype = t;
	ty->elem_is_ptr = is_ptr;
	ty->rank = rank;
	memcpy(ty->shape, shape, (size_t)rank * sizeof *shape);
	ty->layout.desc = desc;
	LLErr err = {A, NULL};
	CHECK(ll_build(desc, shape, rank, 4, &ty->layout.ll, &err));
	return ty;
}

static TValue *
op(K *k, TOp o, const TType *t, int n, ...)
{
	TInst *in = arena_alloc(A, sizeof *in);
	in->op = o;
	in->args = arena_alloc(A, 4 * sizeof *in->args);
	va_list ap;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		in->args[i] = va_arg(ap, TValue *);
	va_end(ap);
	in->n_args = n;
	if (t) {
		in->res = arena_alloc(A, sizeof *in->res);
		in->res->id = k->k.n_values++;
		in->res->type = t;
	}
	TBlock *b = k->cur;
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 16;
		TInst **grown = arena_alloc(A, b->cap * sizeof *grown);
		if (b->n)
			memcpy(grown, b->insts, b->n * sizeof *grown);
		b->insts = grown;
	}
	b->insts[b->n++] = in;
	return in->res;
}

static TInst *
last(K *k)
{
	return k->cur->insts[k->cur->n - 1];
}

static TValue *
param(K *k, int i)
{
	TValue *v = op(k, OP_PARAM, k->k.params[i].type, 0);
	last(k)->param = i;
	return v;
}

static TValue *
iconst(K *k, int64_t c)
{
	TValue *v = op(k, OP_CONST, scalar(DT_I32), 0);
	last(k)->c.i = c;
	return v;
}

static void
begin(K *k, const char *name, const TParam *params, int n)
{
	memset(k, 0, sizeof *k);
	k->k.name = name;
	k->k.num_warps = k->k.total_warps = 4;  /* as sema sets them (sema/check/kernel.c) */
	k->k.params = (TParam *)params;
	k->k.n_params = n;
	k->cur = &k->k.body;
}

static CgResult
compile(K *k)
{
	CgOptions o = {"sm_90a", 3, false, false, NULL, false};
	CgTarget *t = cg_target_new(&o, &D);
	TKernel *kp = &k->k;
	TProgram prog = {&kp, 1, true};
	CgResult r = {0};
	/* What the pipeline runs before code generation (passes/pipeline.c). */
	CHECK(pass_smem_plan(&prog, A, &D) && pass_cvt_plan(&prog, A, &D) &&
	      pass_specialize(&prog, A, &D) && pass_axis(&prog, A, &D));
	CHECK(cg_compile(t, &prog, NULL, NULL, 0, A, &D, &r));
	cg_target_free(t);
	return r;
}

static bool
assembles(CgResult r)
{
	CgBlob cubin = {0};
	return r.ptx.data && pkg_ptxas(&(PkgPtxas){.arch = "sm_90a"}, r.ptx, A, &D, &cubin) && cubin.len > 0;
}

static int
count(CgBlob b, const char *needle)
{
	int n = 0;
	for (const char *s = (const char *)b.data; s && (s = strstr(s, needle)); s++)
		n++;
	return n;
}

/* vector_add_f32 of examples/vector_add.gl, BLOCK = 2048. */
static void
test_vector_add(void)
{
	reset();
	static TParam ps[4];
	ps[0] = (TParam){.name = "x", .kind = TP_PTR, .type = ptr(DT_F32)};
	ps[1] = (TParam){.name = "y", .kind = TP_PTR, .type = ptr(DT_F32)};
	ps[2] = (TParam){.name = "z", .kind = TP_PTR, .type = ptr(DT_F32)};
	ps[3] = (TParam){.name = "n", .kind = TP_SCALAR, .type = scalar(DT_I32)};
	K k;
	begin(&k, "vector_add_f32", ps, 4);
	const int64_t shape[] = {2048};
	const LLDesc *L = blocked(1, (int[]){4}, (int[]){32}, (int[]){4}, (int[]){0});
	const TType *ti = tensor(DT_I32, false, L, 1, shape);
	const TType *tb = tensor(DT_I1, false, L, 1, shape);
	const TType *tf = tensor(DT_F32, false, L, 1, shape);
	const TType *tp = tensor(DT_F32, true, L, 1, shape);
	TValue *x = param(&k, 0), *y = param(&k, 1), *z = param(&k, 2), *n = param(&k, 3);
	TValue *pid = op(&k, OP_PROGRAM_ID, scalar(DT_I32), 0);
	TValue *start = op(&k, OP_MUL, scalar(DT_I32), 2, pid, iconst(&k, 2048));
	TValue *ar = op(&k, OP_ARANGE, ti, 0);
	last(&k)->attr.lo = 0;
	last(&k)->attr.hi = 2048;
	TValue *offs = op(&k, OP_ADD, ti, 2, op(&k, OP_SPLAT, ti, 1, start), ar);
	TValue *mask = op(&k, OP_LT, tb, 2, offs, op(&k, OP_SPLAT, ti, 1, n));
	TValue *px = op(&k, OP_PTR_ADD, tp, 2, op(&k, OP_SPLAT, tp, 1, x), offs);
	TValue *py = op(&k, OP_PTR_ADD, tp, 2, op(&k, OP_SPLAT, tp, 1, y), offs);
	TValue *pz = op(&k, OP_PTR_ADD, tp, 2, op(&k, OP_SPLAT, tp, 1, z), offs);
	TValue *a = op(&k, OP_LOAD, tf, 2, px, mask);
	last(&k)->attr.has_mask = true;
	TValue *b = op(&k, OP_LOAD, tf, 2, py, mask);
	last(&k)->attr.has_mask = true;
	op(&k, OP_STORE, NULL, 3, pz, op(&k, OP_ADD, tf, 2, a, b), mask);
	CgResult r = compile(&k);
	CHECK_EQ(0, D.errors);
	CHECK_EQ(1, r.n_kernels);
	CHECK_STR("vector_add_f32", r.kernels[0].name);
	CHECK_EQ(4, r.kernels[0].n_params);
	/* The specialized variant assumes what proves its accesses. */
	const CgKernelSig *fast = r.kernels[0].fast;
	CHECK(fast != NULL);
	CHECK_STR("vector_add_f32__spec", fast->name);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(16, (int)fast->params[i].divisibility);
	/* 2048 elements over 128 threads: 16 registers, 4 chunks of 4. The
	 * generic entry checks each chunk at run time and has scalar
	 * fallbacks; the specialized one moves each chunk with one vector
	 * access (so 8 + 8 vector loads, 4 + 4 vector stores). */
	CHECK_EQ(16, count(r.ptx, "ld.global.v4.b32"));
	CHECK_EQ(8, count(r.ptx, "st.global.v4.b32"));
	CHECK_EQ(32, count(r.ptx, "ld.global.b32"));
	CHECK_EQ(16, count(r.ptx, "st.global.b32"));
	CHECK(assembles(r));
	CHECK_EQ(0, D.errors);
}

/* Row max over a [4, 128] tile in BlockedLayout([1,4],[1,32],[4,1],[1,0]):
 * each warp owns a row; the reduction is in-thread then 5 butterfly
 * shuffles; the result (SliceLayout(1, L)) is stored by every lane. */
static void
test_row_reduce(void)
{
	reset();
	static TParam ps[2];
	ps[0] = (TParam){.name = "x", .kind = TP_PTR, .type = ptr(DT_F32)};
	ps[1] = (TParam){.name = "y", .kind = TP_PTR, .type = ptr(DT_F32)};
	K k;
	begin(&k, "rowmax", ps, 2);
	const int64_t shape[] = {4, 128}, rows[] = {4}, col1[] = {4, 1};
	const LLDesc *L = blocked(2, (int[]){1, 4}, (int[]){1, 32}, (int[]){4, 1}, (int[]){1, 0});
	const LLDesc *S1 = slice(1, L), *S0 = slice(0, L);
	const TType *r1 = tensor(DT_I32, false, S1, 1, rows);
	const TType *c0 = tensor(DT_I32, false, S0, 1, (int64_t[]){128});
	const TType *r2 = tensor(DT_I32, false, L, 2, col1);
	const TType *c2 = tensor(DT_I32, false, L, 2, (int64_t[]){1, 128});
	const TType *ti = tensor(DT_I32, false, L, 2, shape);
	const TType *tp = tensor(DT_F32, true, L, 2, shape);
	const TType *tf = tensor(DT_F32, false, L, 2, shape);
	const TType *rf = tensor(DT_F32, false, S1, 1, rows);
	const TType *rp = tensor(DT_F32, true, S1, 1, rows);
	TValue *x = param(&k, 0), *y = param(&k, 1);
	TValue *ri = op(&k, OP_ARANGE, r1, 0);
	last(&k)->attr.hi = 4;
	TValue *ci = op(&k, OP_ARANGE, c0, 0);
	last(&k)->attr.hi = 128;
	TValue *re = op(&k, OP_EXPAND_DIMS, r2, 1, ri);
	last(&k)->attr.axis = 1;
	TValue *ce = op(&k, OP_EXPAND_DIMS, c2, 1, ci);
	last(&k)->attr.axis = 0;
	TValue *rb = op(&k, OP_BROADCAST, ti, 1, op(&k, OP_MUL, r2, 2, re,
	                op(&k, OP_SPLAT, r2, 1, iconst(&k, 128))));
	TValue *off = op(&k, OP_ADD, ti, 2, rb, op(&k, OP_BROADCAST, ti, 1, ce));
	TValue *v = op(&k, OP_LOAD, tf, 1, op(&k, OP_PTR_ADD, tp, 2, op(&k, OP_SPLAT, tp, 1, x), off));
	TValue *mx = op(&k, OP_REDUCE, rf, 1, v);
	last(&k)->attr.axis = 1;
	last(&k)->attr.combine = OP_MAX;
	op(&k, OP_STORE, NULL, 2, op(&k, OP_PTR_ADD, rp, 2, op(&k, OP_SPLAT, rp, 1, y), ri), mx);
	CgResult r = compile(&k);
	CHECK_EQ(0, D.errors);
	/* Two entries: the specialized one assumes x aligned (y's stores are
	 * scalar either way). */
	const CgKernelSig *fast = r.kernels[0].fast;
	CHECK(fast != NULL);
	CHECK_EQ(16, (int)fast->params[0].divisibility);
	CHECK_EQ(0, (int)fast->params[1].divisibility);
	CHECK_EQ(2 * 5, count(r.ptx, "shfl.sync.bfly.b32"));
	CHECK(count(r.ptx, "max.f32") >= 2 * (3 + 5));
	CHECK_EQ(2, count(r.ptx, "ld.global.v4.b32"));
	CHECK_EQ(4, count(r.ptx, "ld.global.b32"));
	CHECK(assembles(r));
}

/* A runtime loop with a loop-carried scalar, an if, and unsupported ops
 * reported at their source. */
static void
test_loop_and_errors(void)
{
	reset();
	static TParam ps[2];
	ps[0] = (TParam){.name = "y", .kind = TP_PTR, .type = ptr(DT_I32)};
	ps[1] = (TParam){.name = "n", .kind = TP_SCALAR, .type = scalar(DT_I32)};
	K k;
	begin(&k, "loop", ps, 2);
	TVar acc = {0, "acc", scalar(DT_I32)}, iv = {1, "i", scalar(DT_I32)};
	TVar *vars[] = {&acc, &iv};
	k.k.vars = vars;
	k.k.n_vars = 2;
	TValue *y = param(&k, 0), *n = param(&k, 1);
	op(&k, OP_VAR_WRITE, NULL, 1, iconst(&k, 0));
	last(&k)->var = &acc;
	TValue *lo = iconst(&k, 0), *one = iconst(&k, 1);
	op(&k, OP_FOR, NULL, 3, lo, n, one);
	TInst *loop = last(&k);
	loop->var = &iv;
	k.cur = &loop->body;
	TValue *a = op(&k, OP_VAR_READ, scalar(DT_I32), 0);
	last(&k)->var = &acc;
	TValue *i = op(&k, OP_VAR_READ, scalar(DT_I32), 0);
	last(&k)->var = &iv;
	op(&k, OP_VAR_WRITE, NULL, 1, op(&k, OP_ADD, scalar(DT_I32), 2, a, i));
	last(&k)->var = &acc;
	k.cur = &k.k.body;
	TValue *fin = op(&k, OP_VAR_READ, scalar(DT_I32), 0);
	last(&k)->var = &acc;
	op(&k, OP_STORE, NULL, 2, y, fin);
	CgResult r = compile(&k);
	CHECK_EQ(0, D.errors);
	CHECK(count(r.ptx, "st.global.b32") == 1);
	CHECK(assembles(r));

	diag_init(&D, A, NULL);
	begin(&k, "bad", ps, 2);
	op(&k, OP_WARP_SPECIALIZE, NULL, 0);   /* no partitions */
	last(&k)->at = (SrcSpan){1, 7, 3, 5};
	CgOptions o = {"sm_90a", 2, false, false, NULL, false};
	CgTarget *t = cg_target_new(&o, &D);
	TKernel *kp = &k.k;
	TProgram prog = {&kp, 1, true};
	CHECK(pass_axis(&prog, A, &D));
	CHECK(!cg_compile(t, &prog, NULL, NULL, 0, A, &D, &r));
	CHECK_EQ(1, D.errors);
	CHECK_EQ(7, D.first->at.line);

	/* Codegen takes the passes' results and computes none: a kernel
	 * without its axis facts is glc's bug. */
	diag_init(&D, A, NULL);
	begin(&k, "unplanned", ps, 2);
	op(&k, OP_STORE, NULL, 2, param(&k, 0), param(&k, 1));
	CHECK(!cg_compile(t, &prog, NULL, NULL, 0, A, &D, &r));
	CHECK_EQ(1, D.internal);
	CHECK(D.first && strstr(D.first->msg, "without the facts of the axis pass"));
	cg_target_free(t);
}

/* What codegen accepts: op on operand dtype t (casts: every pair). */
static bool
accepts(TOp o, TDType t)
{
	bool f8 = t == DT_F8E4M3 || t == DT_F8E5M2;
	bool fl = t == DT_F16 || t == DT_BF16 || t == DT_F32 || t == DT_F64;
	bool in = !f8 && !fl;
	switch (o) {
	case OP_SELECT: return true;
	case OP_DIV: case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2: case OP_SQRT:
	case OP_RSQRT: case OP_SIN: case OP_COS: case OP_ERF: case OP_FLOOR: case OP_CEIL:
	case OP_SQRT_RN: case OP_DIV_RN: case OP_FDIV: case OP_FMA: case OP_CLAMP:
		return fl;
	case OP_AND: case OP_OR: case OP_XOR: case OP_SHL: case OP_SHR: case OP_NOT:
	case OP_CDIV:
		return in;
	case OP_UMULHI:
		return t == DT_I32 || t == DT_I64 || t == DT_U32 || t == DT_U64;
	default: return !f8;
	}
}

static const TOp every_op[] = {
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, OP_AND, OP_OR, OP_XOR, OP_SHL,
	OP_SHR, OP_MIN, OP_MAX, OP_NEG, OP_NOT, OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
	OP_SELECT, OP_EXP, OP_EXP2, OP_LOG, OP_LOG2, OP_SQRT, OP_RSQRT, OP_ABS, OP_CDIV,
	OP_SIN, OP_COS, OP_ERF, OP_FLOOR, OP_CEIL, OP_SQRT_RN, OP_DIV_RN, OP_FDIV, OP_FMA,
	OP_CLAMP, OP_UMULHI,
};

/* One kernel: out[0] = op(a[0], b[0]) (where: c[0] ? a[0] : b[0]; casts
 * and unary ops: of a[0]; fma and clamp: of a[0], b[0], b[0]) with operands
 * of dtype t and result dtype rt. */
static TKernel *
op_kernel(TOp o, TDType t, TDType rt)
{
	TParam *ps = arena_alloc(A, 4 * sizeof *ps);
	ps[0] = (TParam){.name = "a", .kind = TP_PTR, .type = ptr(t)};
	ps[1] = (TParam){.name = "b", .kind = TP_PTR, .type = ptr(t)};
	ps[2] = (TParam){.name = "c", .kind = TP_PTR, .type = ptr(DT_I1)};
	ps[3] = (TParam){.name = "out", .kind = TP_PTR, .type = ptr(rt)};
	K *k = arena_alloc(A, sizeof *k);
	begin(k, arena_printf(A, "%s_%s_%s", ir_op_name(o), ir_dtype_name(t),
	                      ir_dtype_name(rt)), ps, 4);
	TValue *a = op(k, OP_LOAD, scalar(t), 1, param(k, 0));
	TValue *b = op(k, OP_LOAD, scalar(t), 1, param(k, 1));
	TValue *c = op(k, OP_LOAD, scalar(DT_I1), 1, param(k, 2));
	bool unary = o == OP_NEG || o == OP_NOT || o == OP_CAST ||
	             (o >= OP_EXP && o <= OP_SQRT_RN);
	TValue *r = o == OP_SELECT                   ? op(k, o, scalar(rt), 3, c, a, b)
	          : o == OP_FMA || o == OP_CLAMP     ? op(k, o, scalar(rt), 3, a, b, b)
	          : unary                            ? op(k, o, scalar(rt), 1, a)
	                                             : op(k, o, scalar(rt), 2, a, b);
	last(k)->at = (SrcSpan){1, (uint32_t)o + 1, 1, 1};
	op(k, OP_STORE, NULL, 2, param(k, 3), r);
	return &k->k;
}

static TDType
result_dtype(TOp o, TDType t)
{
	return o >= OP_LT && o <= OP_NE ? DT_I1 : t;
}

/* Every elementwise op and math function on every dtype codegen accepts,
 * and every cast between two dtypes, in one module that ptxas assembles;
 * the rest are diagnosed (never a crash). */
static void
test_every_op(void)
{
	reset();
	int n_ops = (int)(sizeof every_op / sizeof every_op[0]);
	TKernel **ok = arena_alloc(A, 1024 * sizeof *ok), **bad = arena_alloc(A, 512 * sizeof *bad);
	int n_ok = 0, n_bad = 0;
	for (TDType t = DT_I1; t < DT_COUNT; t++) {
		for (int i = 0; i < n_ops; i++) {
			TKernel *kk = op_kernel(every_op[i], t, result_dtype(every_op[i], t));
			if (accepts(every_op[i], t))
				ok[n_ok++] = kk;
			else
				bad[n_bad++] = kk;
		}
		for (TDType u = DT_I1; u < DT_COUNT; u++)
			ok[n_ok++] = op_kernel(OP_CAST, t, u);
	}
	CgOptions o = {"sm_90a", 2, false, false, NULL, false};
	CgTarget *tgt = cg_target_new(&o, &D);
	TProgram prog = {ok, n_ok, true};
	CgResult r = {0};
	CHECK(pass_axis(&prog, A, &D));
	CHECK(cg_compile(tgt, &prog, NULL, NULL, 0, A, &D, &r));
	CHECK_EQ(0, D.errors);
	CHECK_EQ(n_ok, r.n_kernels);
	CHECK(assembles(r));
	CHECK(count(r.ptx, "ex2.approx.ftz.f32") >= 6);
	CHECK(count(r.ptx, "lg2.approx.ftz.f32") >= 6);
	CHECK(count(r.ptx, "rsqrt.approx.ftz.f32") >= 3);
	CHECK(count(r.ptx, "sqrt.rn.f64") >= 2);
	CHECK(count(r.ptx, "cvt.rn.satfinite.e4m3x2.f32") >= 13);
	CHECK(count(r.ptx, "cvt.rn.satfinite.e5m2x2.f32") >= 13);
	CHECK(count(r.ptx, "cvt.rn.f16x2.e4m3x2") >= 14);
	CHECK(count(r.ptx, "cvt.rn.f16x2.e5m2x2") >= 14);
	CHECK_EQ(0, D.errors);

	diag_init(&D, A, NULL);
	prog = (TProgram){bad, n_bad, true};
	CHECK(pass_axis(&prog, A, &D));
	CHECK(!cg_compile(tgt, &prog, NULL, NULL, 0, A, &D, &r));
	CHECK_EQ(n_bad, D.errors);
	/* f8: all but where; the 4 float types: 8 integer-only ops; the 9
	 * integer types: 17 float-only ones (true division and the math
	 * functions); umulhi on the 5 integer types under 32 bits. */
	CHECK_EQ(2 * (n_ops - 1) + 4 * 8 + 9 * 17 + 5, n_bad);
	cg_target_free(tgt);
}

/* A name LLVM does not know, an overloaded intrinsic without its types and
 * arguments of the wrong type are internal errors, not crashes. */
static void
test_bad_intrinsics(void)
{
	reset();
	CgOptions o = {"sm_90a", 0, false, false, NULL, false};
	CgTarget *t = cg_target_new(&o, &D);
	CgModule m;
	cg_module_init(&m, t, "bad", NULL, 0, A, &D);
	static const CgParam none[1];
	CgKernelSig sig = {.name = "k", .params = none, .num_warps = 1};
	cg_kernel_begin(&m, &sig);
	LLVMValueRef x = LLVMConstReal(m.f32, 2.0);
	m.at = (SrcSpan){1, 3, 1, 1};
	CHECK(LLVMIsPoison(cg_intrinsic(&m, "llvm.nvvm.ex2.approx.ftz.f", m.f32, NULL, 0, &x, 1)));
	CHECK(LLVMIsPoison(cg_intrinsic(&m, "llvm.nvvm.ex2.approx.ftz", m.f32, NULL, 0, &x, 1)));
	CHECK(LLVMIsPoison(cg_intrinsic(&m, "llvm.nvvm.no.such.thing", m.f32, NULL, 0, &x, 1)));
	CHECK(LLVMIsPoison(cg_intrinsic(&m, "llvm.nvvm.lg2.approx.ftz.f", m.f64, NULL, 0, &x, 1)));
	LLVMValueRef i = LLVMConstInt(m.i32, 1, 0);
	CHECK(LLVMIsPoison(cg_intrinsic(&m, "llvm.nvvm.lg2.approx.ftz.f", m.f32, NULL, 0, &i, 1)));
	CHECK(LLVMIsPoison(cg_intrinsic(&m, "llvm.nvvm.lg2.approx.ftz.f", m.f32, NULL, 0, NULL, 0)));
	CHECK_EQ(6, D.errors);
	CHECK_EQ(3, D.first->at.line);
	CHECK(!LLVMIsPoison(cg_intrinsic(&m, "llvm.nvvm.lg2.approx.ftz.f", m.f32, NULL, 0, &x, 1)));
	CHECK_EQ(6, D.errors);
	LLVMBuildRetVoid(m.b);
	cg_module_dispose(&m);
	cg_target_free(t);
}

int
main(void)
{
	RUN_TEST(test_vector_add);
	RUN_TEST(test_row_reduce);
	RUN_TEST(test_loop_and_errors);
	RUN_TEST(test_every_op);
	RUN_TEST(test_bad_intrinsics);
	arena_free(A);
	return check_summary();
}
