/*
 * passes: the named passes over the typed IR that run between sema (or the
 * IR reader) and code generation, in the order pass_pipeline lists them, and
 * the axis facts code generation reads from their results. Each pass works
 * on every kernel of the program (and their variants where it says so),
 * reports problems to d, and returns false after an error. All of them are
 * idempotent: running one again, or on IR that was printed after it and
 * read back, changes nothing. docs/internals.md says what each guarantees
 * to the passes after it.
 */
#ifndef PASSES_H
#define PASSES_H

#include "ir/ir.h"

/* -- The pipeline ------------------------------------------------------------- */

/* One named pass. */
typedef struct Pass {
	const char *name;     /* "layout-infer", ... (--print-after=NAME) */
	bool (*run)(TProgram *p, Arena *a, Diags *d);
} Pass;

/* The passes in the order they run from typed IR to code generation (their
 * number in *n). */
const Pass *pass_pipeline(size_t *n);
/* Runs the whole pipeline over p as the driver does without its options:
 * first bounds how deep blocks nest (ir_check_nesting: the passes' walks
 * recurse), then every pass in order; false after an error. */
bool pass_run_all(TProgram *p, Arena *a, Diags *d);

/* -- The passes --------------------------------------------------------------- */

/* layout-infer: every AutoLayout decided (passes/layout_infer.c); none
 * left. */
bool pass_layout_infer(TProgram *p, Arena *a, Diags *d);
/* soft-clean: a tl function's soft conversions that move nothing removed,
 * those of cheap values replaced by the values computed again in the
 * layout wanted (passes/soft_clean.c). */
bool pass_soft_clean(TProgram *p, Arena *a, Diags *d);
/* verify: the IR's invariants before the planning passes (ir_verify, not
 * planned). */
bool pass_verify(TProgram *p, Arena *a, Diags *d);
/* smem-plan: allocations' live ranges and offsets, smem_bytes; the 227 KB
 * limit (IR_SMEM_LIMIT). */
bool pass_smem_plan(TProgram *p, Arena *a, Diags *d);
/* membar: a thread_barrier before every shared-memory access that would
 * race with one made since the last barrier, as Triton's Membar pass
 * places them (passes/membar.c says which pairs need none); live ranges
 * renumbered, offsets unchanged. */
bool pass_membar(TProgram *p, Arena *a, Diags *d);
/* cvt-plan: every convert_layout gets its plan (attr.plan). */
bool pass_cvt_plan(TProgram *p, Arena *a, Diags *d);
/* specialize: TKernel.fast for kernels whose accesses the alignment and
 * divisibility assumptions prove (passes/specialize.c). */
bool pass_specialize(TProgram *p, Arena *a, Diags *d);
/* axis: TKernel.axis for every kernel and variant. */
bool pass_axis(TProgram *p, Arena *a, Diags *d);

/* -- Axis facts --------------------------------------------------------------- */

/* The facts for every value of k (indexed by value id), from what its
 * params' divisibility lets it assume (the axis pass keeps them in
 * TKernel.axis). */
IrAxis *pass_axis_analyze(Arena *a, const TKernel *k);

/* How a global load, store or cp.async moves its registers: chunks of
 * `width` consecutive registers along tensor dim `dim` (1: one element
 * each), each one vector access. proven: every chunk's address is aligned
 * to its size and its mask is uniform, so no run-time check or scalar
 * fallback is needed. */
typedef struct PassAccess {
	int dim, width;
	bool proven;
} PassAccess;
/* The access plan of load, store or cp.async `in` under the axis facts of
 * its kernel. */
PassAccess pass_access_plan(const TInst *in, const IrAxis *axis);

#endif
