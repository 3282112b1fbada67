/*
 * convert_layout executed from the layout algebra's plan (LLCvtPlan):
 *   free     dst register i is src register reg_perm[i];
 *   shuffle  one shfl.sync.idx per round: each lane sends the register the
 *            plan names for it and keeps the value in the register the
 *            plan names; per-lane choices are bit masks tested with the
 *            lane id, so no register is ever indexed at run time;
 *   shared   a barrier (the scratch may still be read), the source stored
 *            through the plan's store map, a barrier, the destination
 *            loaded through the load map; both vectorized (codegen/values/smem.c).
 */
#include "codegen/ops/ops.h"

static LLVMValueRef
i32c(CgModule *m, uint64_t v)
{
	return LLVMConstInt(m->i32, v, 0);
}

/* i1: bit `lane` of mask is set. */
static LLVMValueRef
lane_in(CgModule *m, LLVMValueRef lane, uint32_t mask)
{
	LLVMValueRef b = LLVMBuildAnd(m->b, LLVMBuildLShr(m->b, i32c(m, mask), lane, ""),
	                              i32c(m, 1), "");
	return LLVMBuildICmp(m->b, LLVMIntNE, b, i32c(m, 0), "");
}

/* The value a per-lane table picks: vals[table[lane]] for lanes in live. */
static LLVMValueRef
pick(CgModule *m, LLVMValueRef lane, const int *table, uint32_t live, LLVMValueRef *vals)
{
	LLVMValueRef v = NULL;
	uint32_t seen = 0;
	for (int l = 0; l < 32; l++) {
		if (!(live >> l & 1) || (seen >> l & 1))
			continue;
		uint32_t mask = 0;
		for (int k = l; k < 32; k++)
			if ((live >> k & 1) && table[k] == table[l])
				mask |= 1u << k;
		seen |= mask;
		LLVMValueRef x = vals[table[l]];
		v = v ? LLVMBuildSelect(m->b, lane_in(m, lane, mask), x, v, "") : x;
	}
	return v;
}

/* The source lane of a round as i32: bit k is set for the lanes whose
 * source lane has bit k. */
static LLVMValueRef
source_lane(CgModule *m, LLVMValueRef lane, const LLShuffleRound *s)
{
	LLVMValueRef v = i32c(m, 0);
	for (int k = 0; k < 5; k++) {
		uint32_t mask = 0;
		for (int l = 0; l < 32; l++)
			if (s->src_lane[l] >> k & 1)
				mask |= 1u << l;
		if (!mask)
			continue;
		LLVMValueRef b = LLVMBuildAnd(m->b, LLVMBuildLShr(m->b, i32c(m, mask), lane, ""),
		                              i32c(m, 1), "");
		v = LLVMBuildOr(m->b, v, LLVMBuildShl(m->b, b, i32c(m, (uint64_t)k), ""), "");
	}
	return v;
}

static bool
shuffle(Lower *l, const TInst *in, const LLCvtPlan *p, CgVal src, CgVal dst)
{
	CgModule *m = l->m;
	LLVMValueRef lane = cg_lane_id(m);
	LLVMTypeRef st = cg_smem_elem_type(m, in->res->type);
	LLVMTypeRef et = cg_elem_type(m, in->res->type);
	for (int i = 0; i < dst.n; i++)
		dst.r[i] = NULL;
	for (int k = 0; k < p->n_rounds; k++) {
		const LLShuffleRound *s = &p->rounds[k];
		uint32_t senders = 0;
		for (int x = 0; x < 32; x++)
			if (s->recv_mask >> x & 1)
				senders |= 1u << s->src_lane[x];
		for (int x = 0; x < 32; x++)
			if ((senders >> x & 1) && (s->send_reg[x] < 0 || s->send_reg[x] >= src.n))
				goto bad;
		LLVMValueRef v = cg_to_smem(m, pick(m, lane, s->send_reg, senders, src.r), st);
		v = cg_from_smem(m, cg_shfl(m, CG_SHFL_IDX, v, source_lane(m, lane, s)), et);
		for (int r = 0; r < dst.n; r++) {
			uint32_t mask = 0;
			for (int x = 0; x < 32; x++)
				if ((s->recv_mask >> x & 1) && s->dst_reg[x] == r)
					mask |= 1u << x;
			if (!mask)
				continue;
			dst.r[r] = !dst.r[r] || mask == 0xffffffffu
			           ? v : LLVMBuildSelect(m->b, lane_in(m, lane, mask), v, dst.r[r], "");
		}
	}
	for (int i = 0; i < dst.n; i++)
		if (!dst.r[i])
			goto bad;
	return true;
bad:
	cg_unsupported(l, in, "this shuffle plan (a register is out of range or never received)");
	return false;
}

bool
cg_lower_convert(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const LLCvtPlan *p = in->attr.plan;
	CgVal src = cg_val(l, in->args[0]);
	int n = cg_type_regs(in->res->type);
	CgVal r = cg_val_new(l, n);
	if (!p) {
		cg_unsupported(l, in, "convert_layout without a plan");
		return false;
	}
	switch (p->kind) {
	case LL_CVT_FREE:
		for (int i = 0; i < n; i++) {
			int j = i < p->n_dst_regs ? p->reg_perm[i] : -1;
			if (j < 0 || j >= src.n) {
				cg_unsupported(l, in, "this register-renaming plan");
				return false;
			}
			r.r[i] = src.r[j];
		}
		break;
	case LL_CVT_SHUFFLE:
		if (!shuffle(l, in, p, src, r))
			return false;
		break;
	case LL_CVT_SHARED: {
		LLVMTypeRef st = cg_smem_elem_type(m, in->res->type);
		LLVMValueRef base = cg_scratch(l);
		CgSmemMap store = {.hw = p->store, .base = base}, load = {.hw = p->load, .base = base};
		cg_barrier(m);
		cg_smem_store(l, &store, st, src);
		cg_barrier(m);
		cg_smem_load(l, &load, st, cg_elem_type(m, in->res->type), r);
		break;
	}
	}
	l->vals[in->res->id] = r;
	return true;
}
