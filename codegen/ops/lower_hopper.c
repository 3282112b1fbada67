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
 *
 * tma.make_tensor_descriptor writes its tensor map, with the same box, into
 * the program's 128-byte slot of the kernel's global scratch parameter (one
 * slot per descriptor site): the leader zeroes it, sets every field with
 * tensormap.replace (the fields Triton sets: address, rank, box, extents,
 * byte strides, element strides 1, element type, no interleave, the
 * layout's swizzle, zero or NaN fill) and releases it to the tensor-map
 * proxy; after a barrier of the partition, lane 0 of every warp (each
 * thread that may issue TMA) acquires it. Its CgVal is the map's generic
 * address and the extents, like a parameter's. The module needs PTX 8.7:
 * ptxas reads tensormap.replace's global strides as bytes from PTX 8.6 on,
 * the configuration Triton relies on (it divides them by 16 below).
 */
#include "codegen/ops/ops.h"

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

/* The leader, and operand `pred` when the op has one. */
static LLVMBasicBlockRef
open_leader(Lower *l, const TInst *in, int pred_arg)
{
	LLVMValueRef c = cg_leader(l);
	if (in->attr.has_pred && pred_arg < in->n_args)
		c = LLVMBuildAnd(l->m->b, c, cg_val(l, in->args[pred_arg]).r[0], "");
	return cg_if_open(l, c);
}

static LLVMValueRef
scalar(Lower *l, const TValue *v)
{
	return cg_val(l, v).r[0];
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

static IrStep
count_site(IrWalker *w, TInst *in)
{
	*(int *)w->ctx += in->op == OP_MAKE_DESC;
	return IR_ON;
}

int
cg_desc_sites(const TKernel *k)
{
	int n = 0;
	ir_walk(&(IrWalker){.k = k, .ctx = &n, .pre = count_site});
	return n;
}

/* tensormap.replace's .elemtype of dtype t (fp8 moves as bytes). */
static int
tensormap_elemtype(TDType t)
{
	switch (t) {
	case DT_F16: return 6;
	case DT_F32: return 7;
	case DT_F64: return 9;
	case DT_BF16: return 10;
	case DT_I32: return 3;
	case DT_U32: return 2;
	case DT_I64: return 5;
	case DT_U64: return 4;
	default: return ir_dtype_bits(t) == 16 ? 1 : 0;   /* u16; u8 */
	}
}

/* This program's slot for descriptor site `site`: scratch + 128 * (pid *
 * sites + site), pid the linear program id (x fastest). */
static LLVMValueRef
desc_slot(Lower *l, int site)
{
	CgModule *m = l->m;
	LLVMValueRef id[3], n[3];
	for (int d = 0; d < 3; d++) {
		id[d] = LLVMBuildZExt(m->b, cg_sreg(m, (CgSreg)(CG_CTAID_X + d)), m->i64, "");
		n[d] = LLVMBuildZExt(m->b, cg_sreg(m, (CgSreg)(CG_NCTAID_X + d)), m->i64, "");
	}
	LLVMValueRef pid = LLVMBuildAdd(m->b, id[1], LLVMBuildMul(m->b, n[1], id[2], ""), "");
	pid = LLVMBuildAdd(m->b, id[0], LLVMBuildMul(m->b, n[0], pid, ""), "");
	LLVMValueRef at = LLVMBuildAdd(m->b, LLVMBuildMul(m->b, pid, LLVMConstInt(m->i64,
	                               (uint64_t)l->desc_sites, 0), ""),
	                               LLVMConstInt(m->i64, (uint64_t)site, 0), "");
	at = LLVMBuildMul(m->b, at, LLVMConstInt(m->i64, 128, 0), "");
	return LLVMBuildGEP2(m->b, m->i8, l->scratch, &at, 1, "desc");
}

/* OP_MAKE_DESC: see the file comment. */
static bool
make_desc(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const TType *d = in->res->type;
	int rank = d->rank;
	if (!l->scratch || l->desc_next >= l->desc_sites || rank < 1 || rank > 5) {
		cg_unsupported(l, in, "this tensor descriptor (no scratch slot for it)");
		return false;
	}
	if (m->min_ptx < 87)
		m->min_ptx = 87;
	LLVMValueRef slot = desc_slot(l, l->desc_next++);
	int64_t box[LL_MAX_RANK], bytes = ir_dtype_bits(d->dtype) / 8;
	ir_tma_box(d, box);
	LLVMBasicBlockRef done = cg_if_open(l, cg_leader(l));
	LLVMTypeRef v4 = LLVMVectorType(m->i32, 4);
	for (int i = 0; i < 8; i++) {   /* zeroed, as 16-byte stores */
		LLVMValueRef at = LLVMConstInt(m->i64, 16 * (uint64_t)i, 0);
		LLVMValueRef st = LLVMBuildStore(m->b, LLVMConstNull(v4),
		                                 LLVMBuildGEP2(m->b, m->i8, slot, &at, 1, ""));
		LLVMSetAlignment(st, 16);
	}
	cg_tensormap_replace(m, "global.address", slot, -1,
	                     LLVMBuildPtrToInt(m->b, scalar(l, in->args[0]), m->i64, ""));
	cg_tensormap_replace(m, "rank", slot, -1, i32c(m, rank - 1));
	for (int i = 0; i < rank; i++) {   /* TMA order: tensor dim rank - 1 first */
		int t = rank - 1 - i;
		cg_tensormap_replace(m, "box.dim", slot, i, i32c(m, box[t]));
		cg_tensormap_replace(m, "global.dim", slot, i, scalar(l, in->args[1 + t]));
		cg_tensormap_replace(m, "element.stride", slot, i, i32c(m, 1));
		if (i + 1 < rank)   /* tensor dim t - 1's stride, in bytes */
			cg_tensormap_replace(m, "global.stride", slot, i,
			                     LLVMBuildMul(m->b, scalar(l, in->args[rank + t]),
			                                  LLVMConstInt(m->i64, (uint64_t)bytes, 0), ""));
	}
	int swizzle = d->layout.desc->swizzle_byte_width;
	cg_tensormap_replace(m, "elemtype", slot, -1, i32c(m, tensormap_elemtype(d->dtype)));
	cg_tensormap_replace(m, "interleave.layout", slot, -1, i32c(m, 0));
	cg_tensormap_replace(m, "swizzle.mode", slot, -1,
	                     i32c(m, swizzle == 128 ? 3 : swizzle == 64 ? 2 : swizzle == 32));
	cg_tensormap_replace(m, "fill.mode", slot, -1, i32c(m, in->attr.nan_fill));
	cg_tensormap_release(m);
	cg_if_close(l, done);
	cg_barrier(m);
	LLVMValueRef map = LLVMBuildAddrSpaceCast(m->b, slot, m->ptr, "");
	done = cg_if_open(l, LLVMBuildICmp(m->b, LLVMIntEQ, cg_lane_id(m), i32c(m, 0), ""));
	cg_tensormap_acquire(m, map);
	cg_if_close(l, done);
	CgVal v = cg_val_new(l, 1 + rank);
	v.r[0] = map;
	for (int i = 0; i < rank; i++)
		v.r[1 + i] = scalar(l, in->args[1 + i]);
	l->vals[in->res->id] = v;
	return true;
}

bool
cg_lower_hopper(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	LLVMBasicBlockRef done;
	switch (in->op) {
	case OP_MBAR_INIT:
		done = cg_if_open(l, cg_leader(l));
		cg_mbarrier_init(m, scalar(l, in->args[0]), i32c(m, in->attr.count));
		cg_if_close(l, done);
		return true;
	case OP_MBAR_INVALIDATE:
		done = cg_if_open(l, cg_leader(l));
		cg_mbarrier_inval(m, scalar(l, in->args[0]));
		cg_if_close(l, done);
		return true;
	case OP_MBAR_EXPECT:
		done = open_leader(l, in, 2);
		cg_mbarrier_expect_tx(m, scalar(l, in->args[0]), scalar(l, in->args[1]));
		cg_if_close(l, done);
		return true;
	case OP_MBAR_ARRIVE:
		done = open_leader(l, in, 1);
		cg_mbarrier_arrive_n(m, scalar(l, in->args[0]), i32c(m, in->attr.count));
		cg_if_close(l, done);
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
		cg_if_close(l, done);
		return ok;
	}
	case OP_TMA_STORE: {
		done = cg_if_open(l, cg_leader(l));
		bool ok = lower_tma(l, in, in->args[0], in->args[1], NULL, in->args + 2);
		cg_if_close(l, done);
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
	case OP_MAKE_DESC:
		return make_desc(l, in);
	default:
		cg_unsupported(l, in, "this Hopper operation");
		return false;
	}
}
