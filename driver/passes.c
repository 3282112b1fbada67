/*
 * The pass pipeline between the typed IR (from sema or from a .ir file) and
 * code generation, listed in one place in the order it runs (as QBE's
 * main.c lists its passes). What each pass guarantees to the next is in
 * docs/internals.md. --print-after=NAME / --print-after-all print the IR
 * after a pass on standard error; --time-passes times each one.
 */
#include "driver/driver.h"
#include "ir/ir.h"

#include <stdio.h>
#include <string.h>

typedef bool (*PassFn)(TProgram *p, Arena *a, Diags *d);

/* The IR's invariants (ir/verify.c), before the planning passes. */
static bool
verify(TProgram *p, Arena *a, Diags *d)
{
	(void)a;
	return ir_verify(p, false, d);
}

static const struct {
	const char *name;
	PassFn run;
} passes[] = {
	{"layout-infer", ir_layout_infer},  /* every AutoLayout decided */
	{"verify", verify},             /* the IR's invariants */
	{"smem-plan", ir_smem_plan},    /* shared-memory lifetimes and offsets */
	{"membar", ir_membar},          /* CTA barriers between racing smem accesses */
	{"cvt-plan", ir_cvt_plan},      /* a plan for every convert_layout */
	{"specialize", ir_specialize},  /* the aligned/divisible variant of a kernel */
	{"axis", ir_axis},              /* contiguity/divisibility facts for codegen */
};

bool
drv_pass_known(const char *name)
{
	for (size_t i = 0; i < sizeof passes / sizeof *passes; i++)
		if (strcmp(passes[i].name, name) == 0)
			return true;
	return false;
}

void
drv_pass_names(StrBuf *out)
{
	for (size_t i = 0; i < sizeof passes / sizeof *passes; i++)
		buf_printf(out, "%s%s", i ? ", " : "", passes[i].name);
}

static bool
print_after(const Options *o, const char *name)
{
	if (o->print_after_all)
		return true;
	for (size_t i = 0; i < o->print_after.len; i++)
		if (strcmp(o->print_after.data[i], name) == 0)
			return true;
	return false;
}

bool
drv_run_passes(const Options *o, TProgram *p, const Sources *src, uint32_t file, Arena *a,
               Diags *d, DrvTimer *tm)
{
	/* the passes walk blocks recursively: their depth is bounded first */
	if (!ir_check_nesting(p, d))
		return false;
	for (size_t i = 0; i < sizeof passes / sizeof *passes; i++) {
		bool ok = passes[i].run(p, a, d);
		drv_timer_lap(tm, passes[i].name);
		if (!ok)
			return false;
		if (o->verify_each && passes[i].run != verify && i >= 1 && !ir_verify(p, false, d)) {
			diag_error(d, (SrcSpan){0}, "--verify-each: the IR is invalid after the %s pass",
			           passes[i].name);
			return false;
		}
		if (print_after(o, passes[i].name)) {
			StrBuf b = {0};
			buf_printf(&b, "// IR after %s\n", passes[i].name);
			ir_print(p, src, file, o->verbose, &b);
			fwrite(b.s, 1, b.len, stderr);
			buf_free(&b);
		}
	}
	return true;
}
