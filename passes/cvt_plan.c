/*
 * The cvt-plan pass: every convert_layout gets its plan from the layout
 * algebra (register renaming, warp shuffles, or a round trip through a
 * bank-conflict-free shared scratch buffer; layout/ll_convert.c).
 */
#include "passes/passes.h"

/* Registers per thread a plan may list (its tables hold one entry each). */
enum { MAX_PLAN_REG_BITS = 20 };

/* The plan of convert_layout from src's layout to dst's (tensors of one
 * shape): elements of the dtype's width (8 at least; pointers 64). NULL
 * with err->msg when the algebra finds none, or a side holds more than
 * 2^MAX_PLAN_REG_BITS elements per thread. */
static const LLCvtPlan *
plan_convert(Arena *a, const TType *src, const TType *dst, LLErr *err)
{
	int bits = src->elem_is_ptr ? 64 : ir_dtype_bits(src->dtype);
	LLCvtPlan *plan = arena_alloc(a, sizeof *plan);
	err->arena = a;
	int regs = ll_in_bits(&src->layout.ll, LL_REGISTER) > ll_in_bits(&dst->layout.ll, LL_REGISTER)
	           ? ll_in_bits(&src->layout.ll, LL_REGISTER) : ll_in_bits(&dst->layout.ll, LL_REGISTER);
	if (regs > MAX_PLAN_REG_BITS) {
		err->msg = arena_printf(a, "a side holds 2^%d elements per thread; conversions are "
		                        "planned for at most 2^%d", regs, MAX_PLAN_REG_BITS);
		return NULL;
	}
	if (!ll_plan_convert(&src->layout.ll, &dst->layout.ll, bits < 8 ? 8 : bits, plan, err))
		return NULL;
	return plan;
}

typedef struct PlanCx {
	Arena *a;
	Diags *d;
	bool ok;
} PlanCx;

/* A conversion that must be a register renaming (assert_trivial=True,
 * gl.set_auto_layout) needs data movement: both layouts, with their bases. */
static void
not_trivial(PlanCx *cx, const TInst *in)
{
	const TValue *x = in->args[0], *r = in->res;
	Diag *g = diag_error(cx->d, in->at, "assert_trivial=True, but this conversion needs %s",
	                     in->attr.plan->kind == LL_CVT_SHUFFLE ? "warp shuffles"
	                                                           : "shared memory");
	StrBuf b = {0};
	ir_layout_print(&x->type->layout, &b);
	buf_puts(&b, "\n    bases: ");
	ir_layout_print_bases(&x->type->layout.ll, &b);
	diag_note(cx->d, g, x->layout_at, "the source layout is %s", b.s);
	buf_clear(&b);
	ir_layout_print(&r->type->layout, &b);
	buf_puts(&b, "\n    bases: ");
	ir_layout_print_bases(&r->type->layout.ll, &b);
	diag_note(cx->d, g, r->layout_at, "the target layout is %s", b.s);
	buf_free(&b);
	cx->ok = false;
}

static IrStep
plan_inst(IrWalker *w, TInst *in)
{
	PlanCx *cx = w->ctx;
	if (in->op != OP_CONVERT_LAYOUT || in->attr.plan)
		return IR_ON;
	LLErr err = {cx->a, NULL};
	in->attr.plan = plan_convert(cx->a, in->args[0]->type, in->res->type, &err);
	if (!in->attr.plan) {
		diag_error(cx->d, in->at, "cannot convert between these layouts: %s",
		           err.msg ? err.msg : "no plan");
		cx->ok = false;
	} else if (in->attr.trivial && in->attr.plan->kind != LL_CVT_FREE) {
		not_trivial(cx, in);
	}
	return IR_ON;
}

bool
pass_cvt_plan(TProgram *p, Arena *a, Diags *d)
{
	PlanCx cx = {a, d, true};
	for (int i = 0; i < p->n_kernels; i++)
		ir_walk(&(IrWalker){.k = p->kernels[i], .ctx = &cx, .pre = plan_inst});
	return cx.ok;
}
