/*
 * The pass pipeline between the typed IR (from sema or from a .ir file) and
 * code generation, listed in one place in the order it runs (as QBE's
 * main.c lists its passes). What each pass guarantees to the next is in
 * docs/internals.md; the driver runs the list (driver/run_passes.c).
 */
#include "passes/passes.h"

bool
pass_verify(TProgram *p, Arena *a, Diags *d)
{
	(void)a;
	return ir_verify(p, false, d);
}

static const Pass pipeline[] = {
	{"layout-infer", pass_layout_infer},  /* every AutoLayout decided */
	{"soft-clean", pass_soft_clean},      /* tl's soft conversions removed or recomputed */
	{"verify", pass_verify},              /* the IR's invariants */
	{"smem-plan", pass_smem_plan},        /* shared-memory lifetimes and offsets */
	{"membar", pass_membar},              /* CTA barriers between racing smem accesses */
	{"cvt-plan", pass_cvt_plan},          /* a plan for every convert_layout */
	{"specialize", pass_specialize},      /* the aligned/divisible variant of a kernel */
	{"axis", pass_axis},                  /* contiguity/divisibility facts for codegen */
};

const Pass *
pass_pipeline(size_t *n)
{
	*n = sizeof pipeline / sizeof *pipeline;
	return pipeline;
}

bool
pass_run_all(TProgram *p, Arena *a, Diags *d)
{
	if (!ir_check_nesting(p, d))
		return false;
	for (size_t i = 0; i < sizeof pipeline / sizeof *pipeline; i++)
		if (!pipeline[i].run(p, a, d))
			return false;
	return true;
}
