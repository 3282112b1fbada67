/*
 * Hopper operations: mbarriers (and mbarrier.allocate_mbarrier), TMA
 * copies (descriptor block shape and layout against the buffer), the
 * barriers and fences; the matrix multiplies are in mma.c, allocations in
 * smem.c, descriptors in desc.c, warp_specialize in
 * sema/check/partition.c.
 */
#include "sema/builtins/builtins.h"

#include <string.h>

static Value *
none(Check *ck, SrcSpan at)
{
	return sema_new_value(&ck->ev, VAL_NONE, at);
}

/* desc vs smem: same dtype and block shape, and the layout (for a strided
 * view: each box's, ir_tma_fits). */
static bool
tma_match(Check *ck, SrcSpan at, Value *desc, Value *smem)
{
	const TType *d = desc->u.rt->type, *s = smem->u.rt->type;
	if (d->dtype != s->dtype || !ir_same_shape(d, s)) {
		diag_error(ck->d, at, "the TMA descriptor moves %s blocks but the shared buffer is %s",
		           sema_type_str(ck, d), sema_type_str(ck, s));
		return false;
	}
	if (ir_smem_strided(s) && !ir_tma_fits(d, s)) {
		diag_error(ck->d, at, "TMA copies the descriptor's %s blocks box by box, but the "
		           "strided view %s does not hold each box where the descriptor's layout "
		           "puts it, on box boundaries", sema_type_str(ck, d), sema_type_str(ck, s));
		return false;
	}
	if (!ir_tma_fits(d, s)) {
		sema_layout_clash(ck, at, "TMA descriptor and shared buffer", desc->u.rt,
		             "the descriptor", smem->u.rt, "the buffer");
		return false;
	}
	return true;
}

static bool
tma_coords(Check *ck, Value *c, const TType *d, TValue **out)
{
	if ((c->kind != VAL_LIST && c->kind != VAL_TUPLE) || (int)c->u.list.n != d->rank) {
		diag_error(ck->d, c->span, "the descriptor has rank %d, so the coordinates must be "
		           "a list of %d integers", d->rank, d->rank);
		return false;
	}
	for (int i = 0; i < d->rank; i++)
		if (!(out[i] = sema_int_operand(ck, c->u.list.items[i], "a coordinate", DT_I32)))
			return false;
	return true;
}

static Value *
tma_op(Check *ck, const Node *call, bool load, Value **a)
{
	Value *desc = a[0], *smem = load ? a[3] : a[2];
	if (!sema_want_rt(ck, desc, TY_DESC, "the descriptor") ||
	    (load && !sema_want_rt(ck, a[2], TY_MBARRIER, "the barrier")) ||
	    !sema_want_rt(ck, smem, TY_SMEM, "the shared buffer"))
		return NULL;
	if (smem->u.rt->type->layout.desc->kind == LL_PADDED_SHARED) {
		diag_error(ck->d, smem->span, "TMA cannot copy %s a buffer in a PaddedSharedLayout: "
		           "the copy engine writes a box without padding (Triton: the TMA buffer must "
		           "have an NVMMASharedLayout)", load ? "into" : "from");
		return NULL;
	}
	if (!tma_match(ck, call->span, desc, smem))
		return NULL;
	TValue *c[LL_MAX_RANK], *pred = NULL;
	if (!tma_coords(ck, a[1], desc->u.rt->type, c))
		return NULL;
	if (load && a[4] && !(pred = sema_pred_operand(ck, a[4], "pred")))
		return NULL;
	if (!load)
		sema_fence_check(ck, call->span, smem->u.rt->type, "the TMA store");
	int rank = desc->u.rt->type->rank;
	TInst *i = sema_emit(ck, load ? OP_TMA_LOAD : OP_TMA_STORE, call->span, NULL, 0);
	TValue **args = arena_alloc(ck->a, (size_t)(rank + 4) * sizeof *args);
	int n = 0;
	args[n++] = desc->u.rt;
	if (load)
		args[n++] = a[2]->u.rt;
	args[n++] = smem->u.rt;
	if (pred)
		args[n++] = pred;
	for (int k = 0; k < rank; k++)
		args[n++] = c[k];
	i->args = args;
	i->n_args = n;
	i->attr.has_pred = pred != NULL;
	i->attr.n_coords = rank;
	return none(ck, call->span);
}

static Value *
mbar_op(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	if (!sema_want_rt(ck, a[0], TY_MBARRIER, "the barrier"))
		return NULL;
	TValue *bar = a[0]->u.rt, *x = NULL, *pred = NULL;
	int64_t count = 1;
	TInst *i;
	switch (fn) {
	case BF_MBAR_INIT:
		if (!sema_imm_operand(ck, a[1], IMM_ARRIVE_COUNT, &count))
			return NULL;
		i = sema_emit(ck, OP_MBAR_INIT, call->span, NULL, 1, bar);
		break;
	case BF_MBAR_INVALIDATE:
		i = sema_emit(ck, OP_MBAR_INVALIDATE, call->span, NULL, 1, bar);
		break;
	case BF_MBAR_EXPECT:
	case BF_MBAR_WAIT:
		if (!(x = fn == BF_MBAR_WAIT ? sema_int_operand(ck, a[1], "the phase", DT_I32)
		                             : sema_imm_or_operand(ck, a[1], IMM_TX_BYTES)))
			return NULL;
		if (a[2] && !(pred = sema_pred_operand(ck, a[2], "pred")))
			return NULL;
		i = sema_emit(ck, fn == BF_MBAR_WAIT ? OP_MBAR_WAIT : OP_MBAR_EXPECT, call->span, NULL,
		         2 + (pred != NULL), bar, x, pred);
		break;
	default:
		if (a[1] && !sema_imm_operand(ck, a[1], IMM_ARRIVE_COUNT, &count))
			return NULL;
		if (a[2] && !(pred = sema_pred_operand(ck, a[2], "pred")))
			return NULL;
		i = sema_emit(ck, OP_MBAR_ARRIVE, call->span, NULL, 1 + (pred != NULL), bar, pred);
		break;
	}
	i->attr.count = count;
	i->attr.has_pred = pred != NULL;
	return none(ck, call->span);
}

/* mbarrier.allocate_mbarrier(batch=None, two_ctas=False), Gluon's newer
 * spelling of gl.allocate_shared_memory(gl.int64, [1] or [batch, 1],
 * MBarrierLayout()) for one CTA. */
static Value *
alloc_mbarrier(Check *ck, const Node *call, Value **a)
{
	bool two = false;
	if (a[1] && !sema_value_truth(&ck->ev, a[1], &two))
		return NULL;
	if (two) {
		diag_error(ck->d, a[1]->span, "two_ctas=True needs a cluster of CTAs; glc's kernels "
		           "run one CTA per cluster");
		return NULL;
	}
	const LLDesc *l;
	const char *text = "SwizzledSharedLayout(1,1,1,[0])";
	size_t used;
	ll_desc_parse(text, strlen(text), ck->a, &l, &used, NULL);
	Value *one = sema_new_value(&ck->ev, VAL_INT, call->span);
	one->u.i = 1;
	bool batched = a[0] && a[0]->kind != VAL_NONE;
	Value *shape = sema_new_value(&ck->ev, VAL_LIST, call->span);
	shape->u.list.n = batched ? 2 : 1;
	shape->u.list.items = arena_alloc(ck->a, 3 * sizeof(Value *));
	shape->u.list.items[0] = batched ? a[0] : one;
	shape->u.list.items[1] = one;
	Value *args[4] = {sema_new_value(&ck->ev, VAL_DTYPE, call->span), shape,
	                  sema_new_value(&ck->ev, VAL_LAYOUT, call->span), NULL};
	args[0]->u.dtype = DT_I64;
	args[2]->u.layout = l;
	return sema_smem_alloc(ck, call, args);
}

Value *
sema_check_hopper_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	switch (fn) {
	case BF_MBAR_ALLOC: return alloc_mbarrier(ck, call, a);
	case BF_THREAD_BARRIER:
	case BF_FENCE_ASYNC_SHARED: {
		bool cluster = false;
		if (fn == BF_FENCE_ASYNC_SHARED &&
		    !sema_opt_bool(ck, a[0], false, "fence_async_shared's cluster", &cluster))
			return NULL;
		if (cluster) {
			diag_error(ck->d, a[0]->span, "fence_async_shared(cluster=True) orders memory "
			           "across a CTA cluster; glc compiles kernels of one CTA");
			return NULL;
		}
		for (size_t i = 0; fn == BF_FENCE_ASYNC_SHARED && i < ck->unfenced.len; i++)
			ck->unfenced.data[i] = false;
		sema_emit(ck, fn == BF_THREAD_BARRIER ? OP_THREAD_BARRIER : OP_FENCE_ASYNC_SHARED,
		     call->span, NULL, 0);
		return none(ck, call->span);
	}
	case BF_MBAR_INIT: case BF_MBAR_INVALIDATE: case BF_MBAR_EXPECT: case BF_MBAR_WAIT:
	case BF_MBAR_ARRIVE:
		return mbar_op(ck, call, fn, a);
	case BF_TMA_LOAD: return tma_op(ck, call, true, a);
	case BF_TMA_STORE: return tma_op(ck, call, false, a);
	case BF_TMA_STORE_WAIT: {
		int64_t n;
		if (!sema_imm_operand(ck, a[0], IMM_GROUPS, &n))
			return NULL;
		sema_emit(ck, OP_TMA_STORE_WAIT, call->span, NULL, 0)->attr.count = n;
		return none(ck, call->span);
	}
	default:
		diag_error(ck->d, call->span, "this builtin cannot be called here");
		return NULL;
	}
}
