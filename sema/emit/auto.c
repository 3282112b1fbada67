/*
 * Layouts left to inference (Triton style). A tensor made without a layout
 * (arange, full, zeros, smem.load with no `layout=` or with gl.AutoLayout())
 * gets AutoLayout(id), a fresh unknown of the kernel; it flows through the
 * program like any layout, and the checks that compare layouts let it
 * through. The layout-infer pass (ir/layout_infer.c) then reads the
 * equations from the IR, decides every unknown, rewrites the types, and the
 * verifier checks the usual rules on the result.
 *
 * In a tl function (@triton.jit), Triton's passes may convert any value
 * between operations: there sema marks the places where a value meets a
 * layout another operation wants (an operand of a memory access, a loaded
 * value, a tensor gaining an axis, a value written to a variable) with a
 * `soft` convert_layout. The pass merges its two sides when their layouts
 * can be one and keeps a conversion where they cannot.
 */
#include "sema/emit/emit.h"

#include <string.h>

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

bool
sema_in_tl(Check *ck)
{
	return ck->fr && ck->fr->tl;
}

TValue *
sema_soft_convert(Check *ck, SrcSpan at, TValue *x, const LLDesc *dst)
{
	const TType *xt = x->type;
	if (xt->kind != TY_TENSOR || ll_desc_equal(xt->layout.desc, dst))
		return x;
	TType *t = sema_tensor_type(ck, at, sema_type_elem(ck, xt), xt->shape, xt->rank, dst);
	if (!t)
		return NULL;
	TInst *i = sema_emit(ck, OP_CONVERT_LAYOUT, at, t, 1, x);
	i->attr.soft = true;
	i->res->layout_at = x->layout_at;
	return i->res;
}

TValue *
sema_soft_fresh(Check *ck, SrcSpan at, TValue *x)
{
	if (x->type->kind != TY_TENSOR)
		return x;
	return sema_soft_convert(ck, at, x, sema_auto_source(ck, at, x->type->shape, x->type->rank));
}

TValue *
sema_soft_expand_front(Check *ck, SrcSpan at, TValue *x)
{
	const TType *xt = x->type;
	if (xt->kind != TY_TENSOR || xt->rank >= LL_MAX_RANK || !(x = sema_soft_fresh(ck, at, x)))
		return NULL;
	int64_t sh[LL_MAX_RANK];
	sh[0] = 1;
	memcpy(sh + 1, xt->shape, (size_t)xt->rank * sizeof *sh);
	TType *t = sema_tensor_type(ck, at, sema_type_elem(ck, xt), sh, xt->rank + 1,
	                            sema_auto_source(ck, at, sh, xt->rank + 1));
	if (!t)
		return NULL;
	TInst *i = sema_emit(ck, OP_EXPAND_DIMS, at, t, 1, x);
	i->attr.axis = 0;
	i->res->layout_at = x->layout_at;
	return i->res;
}
