/*
 * Lowering the program: each kernel's signature (its parameters, then the
 * global extents of its descriptors; the scratch of the tensor maps it
 * builds), the check that no tensor holds more elements per thread than
 * the lowering unrolls, then each kernel (and its specialized variant)
 * lowered into one module: the pass results it needs, its shared memory,
 * its warp-specialize setup and its body; the module linked with
 * libdevice, verified, optimized and printed as PTX.
 */
#include "codegen/lower/lower.h"

#include <string.h>

/* What the walk before lowering counts in one kernel: the cost of the
 * operations a thread runs once lowered (each instruction by the elements
 * of the widest tensor it makes or reads, every unrolled body and inlined
 * call counted), against --max-kernel-ops, and where it passed it. */
typedef struct Cost {
	CgModule *m;
	uint64_t ops;
	const TInst *past;    /* the instruction at which ops passed the limit */
} Cost;

/* The elements of t each thread holds (1 for scalars); 0 past 2^62. */
static uint64_t
elems_per_thread(const TType *t)
{
	int bits = t && t->kind == TY_TENSOR ? ll_in_bits(&t->layout.ll, LL_REGISTER) : 0;
	return bits >= 63 ? 0 : 1ull << bits;
}

/* Reports a result tensor that holds more elements per thread than the
 * lowering unrolls, and stops the walk: every register tensor becomes one
 * LLVM value per element a thread holds, and compile time and memory
 * (LLVM's and ptxas's) grow faster than that count (4096 a thread took
 * ptxas 80 s and 3.8 GB), for code that could not run well anyway (the
 * register file holds 255). Counts the kernel's operations as it goes.
 * The partitions are walked one by one after the kernel's own path. */
static IrStep
fits_registers(IrWalker *w, TInst *in)
{
	Cost *c = w->ctx;
	CgModule *m = c->m;
	const Limits *lim = &m->target->limits;
	const TType *t = in->res ? in->res->type : NULL;
	uint64_t n = elems_per_thread(t);
	if (t && t->kind == TY_TENSOR && (n == 0 || n > lim->max[LIM_ELEMS_PER_THREAD])) {
		Diag *e = diag_error(m->diags, in->at, "this tensor holds 2^%d elements per thread, "
		                     "more than code generation takes",
		                     ll_in_bits(&t->layout.ll, LL_REGISTER));
		diag_limit_note(m->diags, e, lim, LIM_ELEMS_PER_THREAD);
		diag_note(m->diags, e, in->res->layout_at,
		          "a smaller shape or more warps spread it over more threads");
		return IR_STOP;
	}
	for (int i = 0; i < in->n_args; i++) {
		uint64_t a = in->args[i] ? elems_per_thread(in->args[i]->type) : 1;
		n = a > n ? a : n;
	}
	/* an operation on a wide tensor costs more than its elements: the
	 * compile time of a kernel of 256-element tensors grew as n + n^2/32
	 * (measured in docs/limits.md) */
	c->ops += n + n * n / 32;
	if (!c->past && c->ops > lim->max[LIM_KERNEL_OPS])
		c->past = in;
	return in->op == OP_WARP_SPECIALIZE ? IR_PASS : IR_ON;
}

/* ptxas's time grows faster than the operations of a kernel (a
 * straight-line kernel of 20,000 statements, an unrolled loop of wide
 * tensors: minutes): past --max-kernel-ops the kernel is an error at its
 * definition, naming where the count passed the limit. */
static bool
within_cost(const TKernel *k, const Cost *c)
{
	const Limits *lim = &c->m->target->limits;
	if (!c->past)
		return true;
	Diag *e = diag_error(c->m->diags, k->at, "kernel '%s' runs %llu weighted operations in each "
	                     "thread once its loops are unrolled and its calls inlined, which would "
	                     "keep LLVM and ptxas busy for many minutes", k->name,
	                     (unsigned long long)c->ops);
	diag_limit_note(c->m->diags, e, lim, LIM_KERNEL_OPS);
	diag_note(c->m->diags, e, c->past->at, "the count passes the limit here (a runtime loop "
	          "instead of gl.static_range, or fewer elements in each thread, keeps it down)");
	return false;
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
	/* The pass pipeline (passes/pipeline.c) runs before code generation;
	 * a kernel without its axis facts is glc's bug. */
	if (!k->axis) {
		diag_internal(m->diags, k->at, "kernel '%s' reached code generation without the "
		              "facts of the axis pass", k->name);
		return false;
	}
	Cost cost = {.m = m};
	IrWalker w = {.k = k, .ctx = &cost, .pre = fits_registers};
	bool fits = ir_walk(&w);
	for (int i = 0; fits && i < k->n_parts; i++)
		fits = ir_walk_partition(&w, i);
	if (!fits || !within_cost(k, &cost))
		return false;
	cg_kernel_begin(m, sig);
	if (k->no_fp_fusion || m->target->no_fp_contract)
		vec_push(m->arena, &m->strict_fns, m->fn);
	/* CTA-wide barriers until a warp_specialize (whose default partition's
	 * warps keep their named barrier to the kernel's end; with the
	 * dispatch loop, from the entry on: cg_ws_begin) */
	m->bar_id = m->bar_threads = 0;
	Lower l = {.m = m, .k = k, .part = -1, .part_warps = k->num_warps,
	           .lower_block = cg_lower_block, .axis = k->axis};
	l.vals = arena_alloc(m->arena, (size_t)(k->n_values + 1) * sizeof *l.vals);
	l.vars = arena_alloc(m->arena, (size_t)(k->n_vars + 1) * sizeof *l.vars);
	l.desc_sites = cg_desc_sites(k);
	if (sig->scratch_bytes)
		l.scratch = LLVMGetParam(m->fn, (unsigned)sig->n_params);
	int errors = m->diags->errors;
	if (!cg_ws_begin(&l))
		return false;
	cg_smem_begin(&l, &sig->smem_bytes);
	/* Internal errors of the builders (cg_intrinsic) count as failures. */
	bool ok = !l.failed && cg_lower_block(&l, &k->body) && !l.failed &&
	          cg_ws_end(&l) && !l.failed && m->diags->errors == errors;
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
	size_t lowered = 0;   /* kernel functions, variants included */
	for (int i = 0; i < prog->n_kernels; i++) {
		const TKernel *k = prog->kernels[i];
		if (only && strcmp(only, k->name) != 0)
			continue;
		/* The generic entry, then the specialized variant if there is one. */
		CgKernelSig *sig = &out->kernels[out->n_kernels++];
		*sig = signature(a, k);
		bool kernel_ok = lower_kernel(&m, k, sig);
		lowered++;
		if (k->fast) {
			CgKernelSig *fast = arena_alloc(a, sizeof *fast);
			*fast = signature(a, k->fast);
			sig->fast = fast;
			kernel_ok = kernel_ok && lower_kernel(&m, k->fast, fast);
			lowered++;
		}
		ok = kernel_ok && ok;
	}
	ok = ok && cg_link_libdevice(&m) && cg_module_verify(&m) && cg_module_optimize(&m);
	out->no_fp_contract = lowered > 0 && m.strict_fns.len == lowered;
	if (ok) {
		cg_module_contract(&m);
		out->llvm_ir = cg_module_ir(&m);
		ok = cg_module_ptx(&m, &out->ptx);
	}
	cg_module_dispose(&m);
	return ok;
}
