/*
 * Hopper operations: mbarriers, TMA copies (descriptor block
 * shape and layout against the buffer), warpgroup_mma (operand layouts,
 * instruction shape, dtypes), the async-proxy fence warning, and
 * warp_specialize (partitions, warps, register budgets).
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

static TValue *
int_operand(Check *ck, Value *v, const char *what)
{
	TValue *t = sema_materialize(ck, v, DT_I32);
	if (t && (t->type->kind != TY_SCALAR || ir_dtype_is_float(t->type->dtype))) {
		diag_error(ck->d, v->span, "%s must be an integer scalar, not %s", what,
		           sema_type_str(ck, t->type));
		return NULL;
	}
	return t ? sema_cast_to(ck, t, DT_I32, v->span) : NULL;
}

static TValue *
pred_operand(Check *ck, Value *v)
{
	TValue *t = sema_materialize(ck, v, DT_I1);
	if (t && (t->type->kind != TY_SCALAR || t->type->dtype != DT_I1)) {
		diag_error(ck->d, v->span, "pred must be a boolean scalar, not %s",
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

/* desc vs smem: same dtype, block shape and layout. */
static bool
tma_match(Check *ck, SrcSpan at, Value *desc, Value *smem)
{
	const TType *d = desc->u.rt->type, *s = smem->u.rt->type;
	if (d->dtype != s->dtype || !ir_same_shape(d, s)) {
		diag_error(ck->d, at, "the TMA descriptor moves %s blocks but the shared buffer is %s",
		           sema_type_str(ck, d), sema_type_str(ck, s));
		return false;
	}
	if (!ll_equal(&d->layout.ll, &s->layout.ll)) {
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
		if (!(out[i] = int_operand(ck, c->u.list.items[i], "a coordinate")))
			return false;
	return true;
}

static Value *
tma_op(Check *ck, const Node *call, bool load, Value **a)
{
	Value *desc = a[0], *smem = load ? a[3] : a[2];
	if (!sema_want_rt(ck, desc, TY_DESC, "the descriptor") ||
	    (load && !sema_want_rt(ck, a[2], TY_MBARRIER, "the barrier")) ||
	    !sema_want_rt(ck, smem, TY_SMEM, "the shared buffer") ||
	    !tma_match(ck, call->span, desc, smem))
		return NULL;
	TValue *c[LL_MAX_RANK], *pred = NULL;
	if (!tma_coords(ck, a[1], desc->u.rt->type, c))
		return NULL;
	if (load && a[4] && !(pred = pred_operand(ck, a[4])))
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
		if (!(x = int_operand(ck, a[1], fn == BF_MBAR_WAIT ? "the phase" : "the byte count")))
			return NULL;
		if (a[2] && !(pred = pred_operand(ck, a[2])))
			return NULL;
		i = sema_emit(ck, fn == BF_MBAR_WAIT ? OP_MBAR_WAIT : OP_MBAR_EXPECT, call->span, NULL,
		         2 + (pred != NULL), bar, x, pred);
		break;
	default:
		if (a[1] && !sema_value_int(ck, a[1], "the arrival count", &count))
			return NULL;
		if (a[2] && !(pred = pred_operand(ck, a[2])))
			return NULL;
		i = sema_emit(ck, OP_MBAR_ARRIVE, call->span, NULL, 1 + (pred != NULL), bar, pred);
		break;
	}
	i->attr.count = count;
	i->attr.has_pred = pred != NULL;
	return none(ck, call->span);
}

static bool
wgmma_dtype_ok(TDType t)
{
	return t == DT_F16 || t == DT_BF16 || t == DT_F8E4M3 || t == DT_F8E5M2 || t == DT_I8 ||
	       t == DT_F32;
}

/* The accumulator layout glc picks for an inferred one: version 3, warps
 * down M, the widest instruction N (a multiple of 8 up to 256 dividing N). */
static const LLDesc *
mma_layout(Check *ck, const TType *acc, int bits)
{
	int64_t n = acc->rank == 2 ? acc->shape[1] : 8;
	int64_t in = 8;
	for (int64_t c = 256; c >= 8; c -= 8)
		if (n % c == 0) {
			in = c;
			break;
		}
	return ll_desc_wgmma(ck->a, ck->k->num_warps, (int)in, 256 / bits);
}

/* Probe pass: an accumulator (and a register A) with an inferred layout
 * takes the MMA layout (and its DotOperandLayout); true when one did. */
static bool
infer_operands(Check *ck, SrcSpan at, const Value *a, const TType *B, const TValue *acc)
{
	if (!sema_auto_involved(ck, acc->type->layout.desc) &&
	    !(a->kind == VAL_RUNTIME && a->u.rt->type->kind == TY_TENSOR &&
	      sema_auto_involved(ck, a->u.rt->type->layout.desc)))
		return false;
	int bits = ir_dtype_bits(B->dtype) < 8 ? 8 : ir_dtype_bits(B->dtype);
	const LLDesc *mma = mma_layout(ck, acc->type, bits);
	if (!sema_auto_fix(ck, at, acc, mma))
		mma = acc->type->layout.desc;
	if (a->kind == VAL_RUNTIME && a->u.rt->type->kind == TY_TENSOR) {
		sema_auto_fix(ck, at, a->u.rt, ll_desc_dot_operand(ck->a, mma, 0, 32 / bits));
	}
	return true;
}

static Value *
wgmma(Check *ck, const Node *call, Value **a)
{
	if (!sema_want_rt(ck, a[1], TY_SMEM, "B") ||
	    !sema_want_rt(ck, a[2], TY_TENSOR, "the accumulator"))
		return NULL;
	const TType *A = a[0]->kind == VAL_RUNTIME ? a[0]->u.rt->type : NULL;
	const TType *B = a[1]->u.rt->type, *C = a[2]->u.rt->type;
	if (infer_operands(ck, call->span, a[0], B, a[2]->u.rt)) {
		TInst *i = sema_emit(ck, OP_WGMMA, call->span, C, 3, a[0]->u.rt, a[1]->u.rt, a[2]->u.rt);
		return sema_rt_value(ck, i->res, call->span);
	}
	const LLDesc *cl = C->layout.desc;
	if (cl->kind != LL_NVMMA_DISTRIBUTED || cl->version.n < 1 || cl->version.v[0] != 3) {
		StrBuf b = {0};
		ll_desc_print(cl, &b);
		Diag *g = diag_error(ck->d, a[2]->span, "the accumulator must be in "
		                     "NVMMADistributedLayout(version=[3, 0], ...); it is in %s", b.s);
		diag_note(ck->d, g, a[2]->u.rt->layout_at, "its layout was fixed here");
		buf_free(&b);
		return NULL;
	}
	if (!A || (A->kind != TY_SMEM && A->kind != TY_TENSOR)) {
		sema_want_rt(ck, a[0], TY_SMEM, "A");
		return NULL;
	}
	int bits = ir_dtype_bits(B->dtype);
	if (A->kind == TY_SMEM && A->layout.desc->kind != LL_NVMMA_SHARED) {
		diag_error(ck->d, a[0]->span, "A in shared memory must use an NVMMASharedLayout");
		return NULL;
	}
	if (B->layout.desc->kind != LL_NVMMA_SHARED) {
		diag_error(ck->d, a[1]->span, "B must use an NVMMASharedLayout");
		return NULL;
	}
	if (A->kind == TY_TENSOR) {
		const LLDesc *al = A->layout.desc;
		if (al->kind != LL_DOT_OPERAND || al->operand_index != 0 || al->k_width != 32 / bits) {
			StrBuf b = {0};
			ll_desc_print(al, &b);
			Diag *g = diag_error(ck->d, a[0]->span, "A in registers must be in "
			                     "DotOperandLayout(0, <the accumulator's layout>, %d); it is "
			                     "in %s", 32 / bits, b.s);
			diag_note(ck->d, g, a[0]->u.rt->layout_at, "its layout was fixed here");
			buf_free(&b);
			return NULL;
		}
	}
	if (A->dtype != B->dtype || !wgmma_dtype_ok(A->dtype)) {
		diag_error(ck->d, call->span, "warpgroup_mma needs A and B of one dtype among f16, "
		           "bf16, f8e4m3, f8e5m2, i8, f32 (tf32); got %s and %s",
		           ir_dtype_name(A->dtype), ir_dtype_name(B->dtype));
		return NULL;
	}
	if (A->rank != 2 || B->rank != 2 || C->rank != 2 || A->shape[1] != B->shape[0] ||
	    A->shape[0] != C->shape[0] || B->shape[1] != C->shape[1]) {
		diag_error(ck->d, call->span, "warpgroup_mma shapes do not chain: A %s, B %s, acc %s "
		           "(need [M, K], [K, N], [M, N])", sema_type_str(ck, A), sema_type_str(ck, B),
		           sema_type_str(ck, C));
		return NULL;
	}
	int64_t M = C->shape[0], N = C->shape[1];
	int wg = ck->k->num_warps / 4 < 1 ? 1 : ck->k->num_warps / 4;
	const LLInts *is = &cl->instr_shape;
	if (M % (64 * wg) != 0 || N % 8 != 0 || is->n != 3 || is->v[1] % 8 != 0 ||
	    is->v[1] > 256 || N % is->v[1] != 0 || is->v[2] != 256 / bits) {
		diag_error(ck->d, a[2]->span, "the accumulator tile [%lld, %lld] with instr_shape "
		           "[%lld, %lld, %lld] does not fit WGMMA: M must be a multiple of 64 per "
		           "warpgroup (%d here), N a multiple of 8 up to 256 dividing the tile, and "
		           "K = 256 / %d bits = %d", (long long)M, (long long)N,
		           (long long)is->v[0], (long long)is->v[1], (long long)is->v[2], 64 * wg,
		           bits, 256 / bits);
		return NULL;
	}
	TValue *use = NULL;
	bool is_async = false;
	if (a[3] && !(use = pred_operand(ck, a[3])))
		return NULL;
	if (a[4]) {
		if (a[4]->kind != VAL_BOOL) {
			diag_error(ck->d, a[4]->span, "is_async must be True or False");
			return NULL;
		}
		is_async = a[4]->u.b;
	}
	if (A->kind == TY_SMEM)
		sema_fence_check(ck, call->span, A, "warpgroup_mma");
	sema_fence_check(ck, call->span, B, "warpgroup_mma");
	TInst *i = sema_emit(ck, OP_WGMMA, call->span, C, 3 + (use != NULL), a[0]->u.rt, a[1]->u.rt,
	                a[2]->u.rt, use);
	i->attr.is_async = is_async;
	i->attr.has_use_acc = use != NULL;
	i->res->layout_at = a[2]->u.rt->layout_at;
	return sema_rt_value(ck, i->res, call->span);
}

static Value *
wgmma_wait(Check *ck, const Node *call, Value **a)
{
	int64_t n;
	if (!sema_value_int(ck, a[0], "num_outstanding", &n))
		return NULL;
	size_t nd = a[1] ? a[1]->u.list.n : 0;
	if (a[1] && a[1]->kind != VAL_TUPLE && a[1]->kind != VAL_LIST) {
		diag_error(ck->d, a[1]->span, "deps must be a tuple of tensors");
		return NULL;
	}
	Value *out = a[1] ? sema_new_value(&ck->ev, VAL_TUPLE, call->span) : none(ck, call->span);
	if (a[1]) {
		out->u.list.n = nd;
		out->u.list.items = arena_alloc(ck->a, (nd + 1) * sizeof(Value *));
	}
	for (size_t k = 0; k < nd; k++) {
		Value *d = a[1]->u.list.items[k];
		if (!sema_want_rt(ck, d, TY_TENSOR, "a dependency"))
			return NULL;
		TInst *i = sema_emit(ck, OP_WGMMA_WAIT, call->span, d->u.rt->type, 1, d->u.rt);
		i->attr.count = n;
		i->res->layout_at = d->u.rt->layout_at;
		out->u.list.items[k] = sema_rt_value(ck, i->res, call->span);
	}
	if (nd == 0)
		sema_emit(ck, OP_WGMMA_WAIT, call->span, NULL, 0)->attr.count = n;
	return nd == 1 ? out->u.list.items[0] : out;
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

static bool
run_partition(Check *ck, TPartition *p, Value *entry, int warps, bool worker)
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
	sema_inline_call(ck, entry->span, f, args->u.list.items, (int)args->u.list.n);
	ck->k->num_warps = saved_warps;
	ck->blk = saved;
	return true;
}

static Value *
warp_specialize(Check *ck, const Node *call, Value **a)
{
	if (ck->k->parts || ck->fr->rt_depth > 0) {
		diag_error(ck->d, call->span, "gl.warp_specialize must be called once, outside "
		           "runtime control flow");
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
	TPartition *p = arena_alloc(ck->a, (nw + 1) * sizeof *p);
	ck->k->parts = p;
	ck->k->n_parts = (int)nw + 1;
	ck->k->total_warps = total;
	sema_emit(ck, OP_WARP_SPECIALIZE, call->span, NULL, 0);
	int first = ck->k->num_warps;
	for (size_t i = 0; i <= nw; i++) {
		if (i) {
			p[i].num_regs = (int)regs[i - 1];
			p[i].first_warp = first;
			first += (int)((warps[i - 1] + 3) / 4 * 4);
		}
		if (!run_partition(ck, &p[i], parts->u.list.items[i],
		                   i ? (int)warps[i - 1] : ck->k->num_warps, i > 0))
			return NULL;
	}
	return none(ck, call->span);
}

Value *
sema_check_hopper_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	switch (fn) {
	case BF_ALLOC_SHARED: return sema_smem_alloc(ck, call, a);
	case BF_THREAD_BARRIER:
	case BF_FENCE_ASYNC_SHARED:
		for (size_t i = 0; fn == BF_FENCE_ASYNC_SHARED && i < ck->unfenced.len; i++)
			ck->unfenced.data[i] = false;
		sema_emit(ck, fn == BF_THREAD_BARRIER ? OP_THREAD_BARRIER : OP_FENCE_ASYNC_SHARED,
		     call->span, NULL, 0);
		return none(ck, call->span);
	case BF_MBAR_INIT: case BF_MBAR_INVALIDATE: case BF_MBAR_EXPECT: case BF_MBAR_WAIT:
	case BF_MBAR_ARRIVE:
		return mbar_op(ck, call, fn, a);
	case BF_TMA_LOAD: return tma_op(ck, call, true, a);
	case BF_TMA_STORE: return tma_op(ck, call, false, a);
	case BF_TMA_STORE_WAIT: {
		int64_t n;
		if (!sema_value_int(ck, a[0], "pendings", &n))
			return NULL;
		sema_emit(ck, OP_TMA_STORE_WAIT, call->span, NULL, 0)->attr.count = n;
		return none(ck, call->span);
	}
	case BF_WGMMA: return wgmma(ck, call, a);
	case BF_WGMMA_WAIT: return wgmma_wait(ck, call, a);
	case BF_WARP_SPECIALIZE: return warp_specialize(ck, call, a);
	default:
		diag_error(ck->d, call->span, "this builtin cannot be called here");
		return NULL;
	}
}
