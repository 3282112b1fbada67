/*
 * Layouts left to inference (Triton style). A tensor made without a layout
 * (arange, full, zeros, smem.load with no `layout=` or with gl.AutoLayout())
 * gets AutoLayout(id), a fresh unknown of the kernel; it flows through the
 * program like any layout, and the checks that compare layouts let it
 * through. The layout-infer pass (ir/layout_infer.c) then reads the
 * equations from the IR, decides every unknown, rewrites the types, and the
 * verifier checks the usual rules on the result.
 */
#include "sema/emit/emit.h"

const LLDesc *
sema_auto_source(Check *ck, SrcSpan at, const int64_t *shape, int rank)
{
	(void)at;
	(void)shape;
	(void)rank;
	return ll_desc_auto(ck->a, ck->auto_next++);
}

const LLDesc *
sema_auto_layout_arg(Check *ck, const Value *v, SrcSpan call_at, const int64_t *shape, int rank,
                const char *what, SrcSpan *at)
{
	if (!v || v->kind == VAL_AUTO_LAYOUT) {
		*at = call_at;
		return sema_auto_source(ck, call_at, shape, rank);
	}
	*at = v->span;
	return sema_value_layout(ck, v, what, false);
}

bool
sema_auto_involved(Check *ck, const LLDesc *d)
{
	(void)ck;
	return ll_desc_has_auto(d);
}

bool
sema_auto_unify(Check *ck, SrcSpan at, const TValue *a, const TValue *b)
{
	(void)at;
	return sema_auto_involved(ck, a->type->layout.desc) ||
	       sema_auto_involved(ck, b->type->layout.desc);
}

const LLDesc *
sema_auto_expand(Check *ck, SrcSpan at, const TValue *x, int axis, const int64_t *shape,
                 int rank)
{
	(void)axis;
	const LLDesc *d = x->type->layout.desc;
	return d && d->kind == LL_AUTO ? sema_auto_source(ck, at, shape, rank) : NULL;
}
