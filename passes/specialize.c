/*
 * The specialize pass (like Triton's 16-divisibility specialization): a
 * kernel is compiled twice, generically and assuming pointer parameters
 * 16-byte aligned and integer parameters multiples of 16, keeping only the
 * assumptions that prove some global access aligned and uniformly masked
 * (passes/axis.c). The variant, `<name>__spec`, shares the kernel's body and
 * hangs off TKernel.fast; the generated launcher runs it when the actual
 * arguments meet its assumptions (package/launcher.c). Kernels that already
 * have a variant, and variants, are left alone, so the pass is idempotent.
 */
#include "passes/passes.h"

#include <string.h>

enum { SPEC_DIV = 16 };

/* Whether in is an access that alignment can widen: a load, a store, a
 * cp.async copy, or an f16/bf16 atomic add (packed in pairs). */
static bool
widenable(const TInst *in)
{
	TDType t = in->n_args ? in->args[0]->type->dtype : DT_VOID;
	return in->op == OP_LOAD || in->op == OP_STORE || in->op == OP_ASYNC_COPY ||
	       (in->op == OP_ATOMIC_RMW && in->attr.rmw == AT_ADD && (t == DT_F16 || t == DT_BF16));
}

typedef struct Gain {
	const IrAxis *axis;
	int64_t sum;
} Gain;

/* Adds the width of access in when the analysis proves it aligned and
 * uniformly masked. The accesses counted are the kernel's own path's: a
 * warp_specialize's partitions are passed over. */
static IrStep
add_gain(IrWalker *w, TInst *in)
{
	Gain *g = w->ctx;
	if (widenable(in)) {
		PassAccess acc = pass_access_plan(in, g->axis);
		g->sum += acc.proven ? acc.width : 0;
	}
	return in->op == OP_WARP_SPECIALIZE ? IR_PASS : IR_ON;
}

/* Summed widths of the accesses the analysis proves aligned and uniformly
 * masked. */
static int64_t
gain(Arena *a, const TKernel *k)
{
	Gain g = {pass_axis_analyze(a, k), 0};
	ir_walk(&(IrWalker){.k = k, .ctx = &g, .pre = add_gain});
	return g.sum;
}

static bool
specializable(const TParam *p)
{
	return p->kind == TP_PTR ||
	       (p->kind == TP_SCALAR && p->type->dtype != DT_I1 && !ir_dtype_is_float(p->type->dtype));
}

/* Raises the variant's parameters' divisibility to the assumptions that
 * prove more accesses; false (params unchanged) when none does. */
static bool
assume(Arena *a, TKernel *v)
{
	TParam *ps = v->params;
	int n = v->n_params;
	uint32_t *base = arena_alloc(a, (size_t)(n + 1) * sizeof *base);
	for (int i = 0; i < n; i++)
		base[i] = ps[i].divisibility;
	int64_t none = gain(a, v);
	for (int i = 0; i < n; i++)
		if (specializable(&ps[i]) && ps[i].divisibility < SPEC_DIV)
			ps[i].divisibility = SPEC_DIV;
	int64_t all = gain(a, v);
	if (all <= none) {
		for (int i = 0; i < n; i++)
			ps[i].divisibility = base[i];
		return false;
	}
	/* Keep only the assumptions some proof needs. */
	for (int i = 0; i < n; i++) {
		if (ps[i].divisibility == base[i])
			continue;
		uint32_t keep = ps[i].divisibility;
		ps[i].divisibility = base[i];
		if (gain(a, v) < all)
			ps[i].divisibility = keep;
	}
	return true;
}

bool
pass_specialize(TProgram *p, Arena *a, Diags *d)
{
	(void)d;
	IrNames *taken = ir_names_new(p, a);
	for (int i = 0; i < p->n_kernels; i++) {
		TKernel *k = p->kernels[i];
		if (k->fast)
			continue;
		TKernel *v = ir_kernel_variant(a, k, ir_variant_name(taken, k, a));
		if (assume(a, v))
			k->fast = v;
	}
	return true;
}
