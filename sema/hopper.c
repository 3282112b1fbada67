/*
 * Hopper operations: mbarriers, TMA copies (descriptor block
 * shape and layout against the buffer), the async-proxy fence warning, and
 * warp_specialize (partitions, warps, register budgets); the matrix
 * multiplies are in mma.c.
 */
#include "sema/check.h"

#include <string.h>

static const TType *
rt_of(const Value *v, TTypeKind k)
{
	return v && v->kind == VAL_RUNTIME && v->u.rt->type->kind == k ? v->u.rt->type : NULL;
}

bool
sema_want_rt(Check *ck, const Value *v, TTypeKind k, const char *what)
{
	if (rt_of(v, k))
		return true;
	static const char *const kinds[] = {[TY_SMEM] = "a shared-memory buffer",
	                                    [TY_MBARRIER] = "an mbarrier (e.g. bars.index(i))",
	                                    [TY_DESC] = "a tensor descriptor",
	                                    [TY_TENSOR] = "a register tensor"};
	diag_error(ck->d, v->span, "%s must be %s, not %s", what, kinds[k],
	           v->kind == VAL_RUNTIME ? sema_type_str(ck, v->u.rt->type) : sema_value_kind_phrase(v));
	return false;
}

void
sema_fence_check(Check *ck, SrcSpan at, const TType *smem, const char *reader)
{
	if (!ck->unfenced.data[smem->alloc])
		return;
	Diag *g = diag_warning(ck->d, at, "%s reads shared memory written by ordinary stores "
	                       "without fence_async_shared() in between", reader);
	diag_note(ck->d, g, ck->smem.data[smem->alloc].at, "the buffer was allocated here");
	ck->unfenced.data[smem->alloc] = false;
}

TValue *
sema_int_operand(Check *ck, Value *v, const char *what, TDType dt)
{
	TValue *t = sema_materialize(ck, v, dt);
	if (t && (t->type->kind != TY_SCALAR || ir_dtype_is_float(t->type->dtype) ||
	          t->type->dtype == DT_I1)) {
		diag_error(ck->d, v->span, "%s must be an integer scalar, not %s", what,
		           sema_type_str(ck, t->type));
		return NULL;
	}
	return t ? sema_cast_to(ck, t, dt, v->span) : NULL;
}

TValue *
sema_pred_operand(Check *ck, Value *v, const char *what)
{
	TValue *t = sema_materialize(ck, v, DT_I1);
	if (t && (t->type->kind != TY_SCALAR || t->type->dtype != DT_I1)) {
		diag_error(ck->d, v->span, "%s must be a boolean scalar, not %s", what,
		           sema_type_str(ck, t->type));
		return NULL;
	}
	return t;
}

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
		if (!sema_value_int(ck, a[1], "the arrival count", &count))
			return NULL;
		if (count < 1 || count > (1 << 20)) {
			diag_error(ck->d, a[1]->span, "the arrival count must be in [1, 2^20]");
			return NULL;
		}
		i = sema_emit(ck, OP_MBAR_INIT, call->span, NULL, 1, bar);
		break;
	case BF_MBAR_INVALIDATE:
		i = sema_emit(ck, OP_MBAR_INVALIDATE, call->span, NULL, 1, bar);
		break;
	case BF_MBAR_EXPECT:
	case BF_MBAR_WAIT:
		if (!(x = sema_int_operand(ck, a[1], fn == BF_MBAR_WAIT ? "the phase"
		                                               : "the byte count", DT_I32)))
			return NULL;
		if (a[2] && !(pred = sema_pred_operand(ck, a[2], "pred")))
			return NULL;
		i = sema_emit(ck, fn == BF_MBAR_WAIT ? OP_MBAR_WAIT : OP_MBAR_EXPECT, call->span, NULL,
		         2 + (pred != NULL), bar, x, pred);
		break;
	default:
		if (a[1] && !sema_value_int(ck, a[1], "the arrival count", &count))
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

static bool
int_list(Check *ck, Value *v, const char *what, int64_t *out, size_t want_n)
{
	if (!v || (v->kind != VAL_LIST && v->kind != VAL_TUPLE) || v->u.list.n != want_n) {
		diag_error(ck->d, v ? v->span : (SrcSpan){0}, "%s must list one integer per worker "
		           "partition (%zu)", what, want_n);
		return false;
	}
	for (size_t i = 0; i < want_n; i++)
		if (!sema_value_int(ck, v->u.list.items[i], what, &out[i]))
			return false;
	return true;
}

/* Inlines partition entry (a (function, arguments) pair) into p. The
 * default partition's results (a tuple, or None) go to *out: variables
 * written at the end of its body, read after warp_specialize (NULL: no
 * runtime result). */
static bool
run_partition(Check *ck, TPartition *p, Value *entry, int warps, bool worker, Value **out)
{
	if (entry->kind != VAL_TUPLE || entry->u.list.n != 2 ||
	    entry->u.list.items[0]->kind != VAL_FUNC ||
	    (entry->u.list.items[1]->kind != VAL_TUPLE && entry->u.list.items[1]->kind != VAL_LIST)) {
		diag_error(ck->d, entry->span, "each partition is a (function, (arguments...)) pair "
		           "naming a @gl.jit function");
		return false;
	}
	const Node *f = entry->u.list.items[0]->u.func;
	Value *args = entry->u.list.items[1];
	if (args->u.list.n != f->u.func.params.len) {
		diag_error(ck->d, args->span, "'%s' takes %zu arguments, but %zu were given",
		           f->u.func.name, f->u.func.params.len, args->u.list.n);
		return false;
	}
	for (size_t i = 0; worker && i < args->u.list.n; i++) {
		Value *v = args->u.list.items[i];
		if (v->kind == VAL_RUNTIME && v->u.rt->type->kind == TY_TENSOR) {
			Diag *g = diag_error(ck->d, v->span, "worker partition '%s' receives a register "
			                     "tensor (%s); workers may take shared memory, descriptors, "
			                     "scalars and constexprs only", f->u.func.name,
			                     sema_type_str(ck, v->u.rt->type));
			diag_note(ck->d, g, v->origin, "the tensor was made here");
			return false;
		}
	}
	p->fn = f->u.func.name;
	p->num_warps = warps;
	TBlock *saved = ck->blk;
	int saved_warps = ck->k->num_warps;
	ck->blk = &p->body;
	ck->k->num_warps = warps;
	ck->in_partition = true;
	int errors = ck->d->errors;
	Value *ret = sema_inline_call(ck, entry->span, f, args->u.list.items, (int)args->u.list.n);
	bool ok = ret && ck->d->errors == errors;
	if (ok && out && ret->kind != VAL_NONE) {
		if (ret->kind != VAL_TUPLE) {
			diag_error(ck->d, ret->span, "the default partition '%s' returns %s, not a tuple: "
			           "warp_specialize gives the default partition's tuple of results "
			           "(return (x,) for one)", f->u.func.name, sema_value_kind_phrase(ret));
			ok = false;
		} else {
			Value *vars = sema_write_vars(ck, f->u.func.name, ret, entry->span);
			*out = vars ? vars : ret;
			ok = ck->d->errors == errors;
		}
	}
	ck->in_partition = false;
	ck->k->num_warps = saved_warps;
	ck->blk = saved;
	return ok;
}

/* n more partitions at the end of k->parts (a fresh array: earlier calls'
 * keep their contents), zeroed; the kernel's warps are the most any call
 * takes. */
static TPartition *
add_partitions(Arena *a, TKernel *k, int n, int total_warps)
{
	TPartition *all = arena_alloc(a, (size_t)(k->n_parts + n) * sizeof *all);
	if (k->n_parts)
		memcpy(all, k->parts, (size_t)k->n_parts * sizeof *all);
	memset(all + k->n_parts, 0, (size_t)n * sizeof *all);
	k->parts = all;
	k->n_parts += n;
	if (total_warps > k->total_warps)
		k->total_warps = total_warps;
	return all + k->n_parts - n;
}

static Value *
warp_specialize(Check *ck, const Node *call, Value **a)
{
	if (ck->in_partition) {
		diag_error(ck->d, call->span, "gl.warp_specialize cannot be called inside a "
		           "partition of another warp_specialize");
		return NULL;
	}
	if ((ck->k->parts || ck->fr->rt_depth > 0) && ck->k->num_warps % 4) {
		/* codegen's dispatch loop: the default partition's warpgroup
		 * would hold warps of neither the default code nor the loop */
		diag_error(ck->d, call->span, "a second gl.warp_specialize, or one inside runtime "
		           "control flow, needs the kernel's num_warps to be a multiple of 4 (it is "
		           "%d)", ck->k->num_warps);
		return NULL;
	}
	Value *parts = a[0];
	if ((parts->kind != VAL_LIST && parts->kind != VAL_TUPLE) || parts->u.list.n < 2 ||
	    parts->u.list.n > 9) {
		diag_error(ck->d, parts->span, "partitions must list the default partition and 1 "
		           "to 8 workers");
		return NULL;
	}
	size_t nw = parts->u.list.n - 1;
	int64_t warps[8], regs[8];
	if (!int_list(ck, a[1], "worker_num_warps", warps, nw) ||
	    !int_list(ck, a[2], "worker_num_regs", regs, nw))
		return NULL;
	int total = ck->k->num_warps;
	int64_t reg_use = (int64_t)ck->k->num_warps * 32 * 24;
	for (size_t i = 0; i < nw; i++) {
		SrcSpan wa = a[1]->u.list.items[i]->span, ra = a[2]->u.list.items[i]->span;
		if (warps[i] < 1 || warps[i] > 32 || (warps[i] & (warps[i] - 1))) {
			diag_error(ck->d, wa, "worker %zu has %lld warps; use a power of two from 1 to 32",
			           i + 1, (long long)warps[i]);
			return NULL;
		}
		if (regs[i] < 24 || regs[i] > 256 || regs[i] % 8) {
			diag_error(ck->d, ra, "worker %zu's register budget is %lld; setmaxnreg takes a "
			           "multiple of 8 in [24, 256]", i + 1, (long long)regs[i]);
			return NULL;
		}
		int64_t rounded = (warps[i] + 3) / 4 * 4;
		total += (int)rounded;
		reg_use += rounded * 32 * regs[i];
	}
	total = (total + 3) / 4 * 4;
	if (total > 32) {
		diag_error(ck->d, call->span, "the partitions need %d warps in all; a block has at "
		           "most 32", total);
		return NULL;
	}
	if (reg_use > 65536) {
		diag_error(ck->d, a[2]->span, "the worker budgets need %lld registers with at least "
		           "24 per thread of the default partition; the register file holds 65536",
		           (long long)reg_use);
		return NULL;
	}
	TInst *in = sema_emit(ck, OP_WARP_SPECIALIZE, call->span, NULL, 0);
	TPartition *p = add_partitions(ck->a, ck->k, (int)nw + 1, total);
	in->attr.index = (int)(p - ck->k->parts);
	in->attr.count = (int64_t)nw + 1;
	int first = (ck->k->num_warps + 3) / 4 * 4;   /* workers own whole warpgroups */
	Value *results = NULL;
	for (size_t i = 0; i <= nw; i++) {
		if (i) {
			p[i].num_regs = (int)regs[i - 1];
			p[i].first_warp = first;
			first += (int)((warps[i - 1] + 3) / 4 * 4);
		}
		if (!run_partition(ck, &p[i], parts->u.list.items[i],
		                   i ? (int)warps[i - 1] : ck->k->num_warps, i > 0, i ? NULL : &results))
			return NULL;
	}
	/* the code after the call runs on the default partition's warps once
	 * the workers are done (codegen joins them) */
	return results ? sema_read_vars(ck, results, call->span) : none(ck, call->span);
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
	case BF_ALLOC_SHARED: return sema_smem_alloc(ck, call, a);
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
	case BF_MAKE_DESC: return sema_make_desc(ck, call, a);
	case BF_TMA_STORE_WAIT: {
		int64_t n;
		if (!sema_value_int(ck, a[0], "pendings", &n))
			return NULL;
		sema_emit(ck, OP_TMA_STORE_WAIT, call->span, NULL, 0)->attr.count = n;
		return none(ck, call->span);
	}
	case BF_WGMMA: case BF_WGMMA_WAIT: case BF_DOT_FMA: case BF_MMA_V2:
		return sema_check_mma_call(ck, call, fn, a);
	case BF_WARP_SPECIALIZE: return warp_specialize(ck, call, a);
	default:
		diag_error(ck->d, call->span, "this builtin cannot be called here");
		return NULL;
	}
}
