/*
 * Running the pass pipeline (passes/pipeline.c lists it) as the command
 * line asks: --print-after=NAME / --print-after-all print the IR after a
 * pass on standard error, --time-passes times each one, --verify-each runs
 * the verifier after every pass from the verify pass on.
 */
#include "driver/driver.h"
#include "passes/passes.h"

#include <stdio.h>
#include <string.h>

bool
drv_pass_known(const char *name)
{
	size_t n;
	const Pass *passes = pass_pipeline(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(passes[i].name, name) == 0)
			return true;
	return false;
}

void
drv_pass_names(StrBuf *out)
{
	size_t n;
	const Pass *passes = pass_pipeline(&n);
	for (size_t i = 0; i < n; i++)
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
	size_t n;
	const Pass *passes = pass_pipeline(&n);
	bool verified = false;   /* the verify pass has run */
	for (size_t i = 0; i < n; i++) {
		bool ok = passes[i].run(p, a, d);
		drv_timer_lap(tm, passes[i].name);
		if (!ok)
			return false;
		bool verifier = passes[i].run == pass_verify;
		if (o->verify_each && verified && !verifier && !ir_verify(p, false, d)) {
			diag_error(d, (SrcSpan){0}, "--verify-each: the IR is invalid after the %s pass",
			           passes[i].name);
			return false;
		}
		verified |= verifier;
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
