/*
 * Hopper's asynchronous operations: mbarriers, TMA copies through tensor
 * descriptors, the async-proxy fence and the global extents of
 * descriptors.
 *
 * Operations that one thread issues for its whole partition (mbarrier
 * init/expect/arrive, TMA copies) run on the partition's first thread
 * (Lower.leader); waits, fences and store waits run on every thread.
 *
 * A descriptor parameter is the 128-byte grid-constant tensor map followed,
 * after all the kernel's own parameters, by one i32 per dimension with its
 * global extent (cg_desc_hidden_params): its CgVal holds the map pointer in
 * r[0] and the extents in r[1..rank].
 *
 * TMA boxes: the runtime encodes a descriptor's box as its block shape with
 * every dim clamped to 256 and, when swizzled, the contiguous dim cut to
 * one swizzle row (glrt_tensor_map_encode_nvmma, ir_tma_box). A block
 * larger than the box moves as several copies; each lands at the shared
 * offset that the view's placement gives the box's first element (a strided
 * view's boxes lie apart: ir_tma_fits).
 */
#include "codegen/cg_internal.h"

static LLVMValueRef
i32c(CgModule *m, int64_t v)
{
	return LLVMConstInt(m->i32, (uint64_t)v, 1);
}

void
cg_desc_hidden_params(const TKernel *k, int *first)
{
	int next = k->n_params;
	for (int i = 0; i < k->n_params; i++) {
		first[i] = -1;
		if (k->params[i].kind == TP_DESC) {
			first[i] = next;
			next += k->params[i].type->rank;
		}
	}
}

LLVMValueRef
cg_leader(Lower *l)
{
	CgModule *m = l->m;
	LLVMValueRef tid = cg_sreg(m, CG_TID_X);
	return LLVMBuildICmp(m->b, LLVMIntEQ, tid, i32c(m, 32 * l->first_warp), "leader");
}

/* Opens `if (cond) { ... }`: the builder moves into the body; close_if
 * joins. */
static LLVMBasicBlockRef
open_if(Lower *l, LLVMValueRef cond)
{
	CgModule *m = l->m;
	LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "one.then");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "one.end");
	LLVMBuildCondBr(m->b, cond, then, done);
	LLVMPositionBuilderAtEnd(m->b, then);
	return done;
}

static void
close_if(Lower *l, LLVMBasicBlockRef done)
{
	LLVMBuildBr(l->m->b, done);
	LLVMPositionBuilderAtEnd(l->m->b, done);
}

/* The leader, and operand `pred` when the op has one. */
static LLVMBasicBlockRef
open_leader(Lower *l, const TInst *in, int pred_arg)
{
	LLVMValueRef c = cg_leader(l);
	if (in->attr.has_pred && pred_arg < in->n_args)
		c = LLVMBuildAnd(l->m->b, c, cg_val(l, in->args[pred_arg]).r[0], "");
	return open_if(l, c);
}

static LLVMValueRef
scalar(Lower *l, const TValue *v)
{
	return cg_val(l, v).r[0];
}

/* The placement of smem view s (ir_smem_place), or an unsupported-layout
 * error at in. */
bool
cg_smem_place(Lower *l, const TInst *in, const TType *s, LLayout *map, int64_t *origin)
{
	LLErr err = {l->m->arena, NULL};
	if (ir_smem_place(s, map, origin, &err))
		return true;
	cg_unsupported(l, in, arena_printf(l->m->arena, "this shared layout (%s)",
	                                   err.msg ? err.msg : "not invertible"));
	return false;
}

int64_t
cg_smem_offset(const LLayout *map, int64_t origin, const int64_t *coords, int rank)
{
	uint32_t in[LL_MAX_DIMS] = {0}, out[LL_MAX_DIMS] = {0};
	for (int d = 0; d < rank; d++) {
		int i = ll_in_index(map, (LLName)(LL_DIM0 + d));
		if (i >= 0)
			in[i] = (uint32_t)coords[d];
	}
	ll_apply(map, in, out);
	int j = ll_out_index(map, LL_OFFSET);
	return origin ^ (j < 0 ? 0 : out[j]);
}

/* One TMA copy per box of the block: coordinates in TMA order (dim 0
 * innermost), shared address at the box's offset. */
static bool
lower_tma(Lower *l, const TInst *in, const TValue *desc, const TValue *smem,
          LLVMValueRef bar, TValue *const *coords)
{
	CgModule *m = l->m;
	const TType *d = desc->type, *s = smem->type;
	int rank = d->rank;
	if (rank < 1 || rank > 5 || s->rank != rank) {
		cg_unsupported(l, in, "a TMA copy of this rank");
		return false;
	}
	LLayout place;
	int64_t origin;
	if (!cg_smem_place(l, in, s, &place, &origin))
		return false;
	int64_t box[LL_MAX_RANK], n_boxes = 1, counts[LL_MAX_RANK];
	ir_tma_box(d, box);
	for (int i = 0; i < rank; i++) {
		counts[i] = (d->shape[i] + box[i] - 1) / box[i];
		n_boxes *= counts[i];
	}
	LLVMValueRef map = scalar(l, desc), base = scalar(l, smem);
	LLVMTypeRef et = cg_dtype_type(m, d->dtype);
	for (int64_t b = 0; b < n_boxes; b++) {
		int64_t at[LL_MAX_RANK], rest = b;
		for (int i = rank - 1; i >= 0; i--) {
			at[i] = rest % counts[i] * box[i];
			rest /= counts[i];
		}
		LLVMValueRef off = LLVMConstInt(m->i64, (uint64_t)cg_smem_offset(&place, origin, at, rank), 0);
		LLVMValueRef p = LLVMBuildGEP2(m->b, et, base, &off, 1, "");
		LLVMValueRef c[5];
		for (int i = 0; i < rank; i++) {
			LLVMValueRef x = scalar(l, coords[i]);
			if (at[i])
				x = LLVMBuildAdd(m->b, x, i32c(m, at[i]), "");
			c[rank - 1 - i] = x;
		}
		if (bar)
			cg_tma_load(m, p, bar, map, c, rank);
		else
			cg_tma_store(m, map, p, c, rank);
	}
	if (!bar)
		cg_tma_store_commit(m);
	return true;
}

bool
cg_lower_hopper(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	LLVMBasicBlockRef done;
	switch (in->op) {
	case OP_MBAR_INIT:
		done = open_if(l, cg_leader(l));
		cg_mbarrier_init(m, scalar(l, in->args[0]), i32c(m, in->attr.count));
		close_if(l, done);
		return true;
	case OP_MBAR_INVALIDATE:
		done = open_if(l, cg_leader(l));
		cg_mbarrier_inval(m, scalar(l, in->args[0]));
		close_if(l, done);
		return true;
	case OP_MBAR_EXPECT:
		done = open_leader(l, in, 2);
		cg_mbarrier_expect_tx(m, scalar(l, in->args[0]), scalar(l, in->args[1]));
		close_if(l, done);
		return true;
	case OP_MBAR_ARRIVE:
		done = open_leader(l, in, 1);
		cg_mbarrier_arrive_n(m, scalar(l, in->args[0]), i32c(m, in->attr.count));
		close_if(l, done);
		return true;
	case OP_MBAR_WAIT:
		cg_mbarrier_wait(m, scalar(l, in->args[0]), scalar(l, in->args[1]));
		return true;
	case OP_TMA_LOAD: {
		/* desc, bar, smem, pred?, coords... */
		int first = in->attr.has_pred ? 4 : 3;
		done = open_leader(l, in, 3);
		bool ok = lower_tma(l, in, in->args[0], in->args[2], scalar(l, in->args[1]),
		                    in->args + first);
		close_if(l, done);
		return ok;
	}
	case OP_TMA_STORE: {
		done = open_if(l, cg_leader(l));
		bool ok = lower_tma(l, in, in->args[0], in->args[1], NULL, in->args + 2);
		close_if(l, done);
		return ok;
	}
	case OP_TMA_STORE_WAIT:
		cg_tma_store_wait(m, (int)in->attr.count);
		return true;
	case OP_DESC_SHAPE: {
		CgVal d = cg_val(l, in->args[0]);
		if (in->attr.axis < 0 || in->attr.axis + 1 >= d.n) {
			cg_unsupported(l, in, "this descriptor axis");
			return false;
		}
		CgVal r = cg_val_new(l, 1);
		r.r[0] = d.r[1 + in->attr.axis];
		l->vals[in->res->id] = r;
		return true;
	}
	case OP_FENCE_ASYNC_SHARED:
		cg_fence_async_shared(m);
		return true;
	default:
		cg_unsupported(l, in, "this Hopper operation");
		return false;
	}
}
