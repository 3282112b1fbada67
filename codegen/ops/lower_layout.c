/*
 * Operations that create tensors or rename registers, decided on the
 * layouts' linear maps: arange, full, splat, broadcast and expand_dims
 * (reductions are in lower_reduce.c), and the constant coordinates of a
 * layout's registers that both use.
 *
 * broadcast and expand_dims only rename registers: every result register r
 * holds the element at coordinate f(R(r)) of the operand (f zeroes the
 * broadcast dims or drops the new axis), found in the operand register whose
 * coordinate matches, provided each thread's lane and warp bases agree under
 * f, which holds for layouts of one family (what the checker produces).
 */
#include "codegen/ops/ops.h"

#include <string.h>

CgCoord
cg_coord_of(const LLayout *ly, int rank, uint32_t reg, uint32_t lane, uint32_t warp)
{
	uint32_t in[LL_MAX_DIMS] = {0}, out[LL_MAX_DIMS] = {0};
	for (int i = 0; i < ly->n_in; i++)
		in[i] = ly->in_name[i] == LL_REGISTER ? reg
		      : ly->in_name[i] == LL_LANE   ? lane
		      : ly->in_name[i] == LL_WARP   ? warp
		                                    : 0;
	ll_apply(ly, in, out);
	CgCoord c = {{0}};
	for (int d = 0; d < rank; d++) {
		int j = ll_out_index(ly, (LLName)(LL_DIM0 + d));
		c.c[d] = j >= 0 ? out[j] : 0;
	}
	return c;
}

CgCoord
cg_coord_drop(CgCoord c, int axis, int rank)
{
	CgCoord o = {{0}};
	for (int d = 0, k = 0; d < rank; d++)
		if (d != axis)
			o.c[k++] = c.c[d];
	return o;
}

bool
cg_coord_eq(CgCoord a, CgCoord b, int rank)
{
	return memcmp(a.c, b.c, (size_t)rank * sizeof a.c[0]) == 0;
}

typedef enum MapKind { MAP_SAME, MAP_ZERO_ONES, MAP_DROP_AXIS } MapKind;

/* f: a result coordinate to the operand's. */
static CgCoord
map_coord(CgCoord c, MapKind kind, const TType *op, int axis, int res_rank)
{
	if (kind == MAP_DROP_AXIS)
		return cg_coord_drop(c, axis, res_rank);
	CgCoord o = {{0}};
	for (int d = 0; d < op->rank; d++)
		o.c[d] = kind == MAP_ZERO_ONES && op->shape[d] == 1 ? 0 : c.c[d];
	return o;
}

/* Whether each lane and warp basis of res, mapped by f, is the operand's. */
static bool
threads_agree(const TType *res, const TType *op, MapKind kind, int axis)
{
	const LLayout *r = &res->layout.ll, *o = &op->layout.ll;
	static const LLName hw[] = {LL_LANE, LL_WARP};
	for (int h = 0; h < 2; h++) {
		int bits = ll_in_bits(r, hw[h]);
		if (bits != ll_in_bits(o, hw[h]))
			return false;
		for (int b = 0; b < bits; b++) {
			uint32_t lane = h == 0 ? 1u << b : 0, warp = h == 1 ? 1u << b : 0;
			CgCoord rc = map_coord(cg_coord_of(r, res->rank, 0, lane, warp), kind, op, axis,
			                       res->rank);
			if (!cg_coord_eq(rc, cg_coord_of(o, op->rank, 0, lane, warp), op->rank))
				return false;
		}
	}
	return true;
}

/* Register renaming for broadcast / expand_dims / splat-free reshapes. */
static bool
remap(Lower *l, const TInst *in, MapKind kind, int axis)
{
	const TType *res = in->res->type, *op = in->args[0]->type;
	CgVal src = cg_val(l, in->args[0]);
	int n = cg_type_regs(res);
	if (op->kind != TY_TENSOR) {
		CgVal r = cg_val_new(l, n);
		for (int i = 0; i < n; i++)
			r.r[i] = src.r[0];
		l->vals[in->res->id] = r;
		return true;
	}
	if (!threads_agree(res, op, kind, axis)) {
		cg_unsupported(l, in, "this change of shape between layouts that place threads "
		               "differently (convert_layout first)");
		return false;
	}
	CgVal r = cg_val_new(l, n);
	for (int i = 0; i < n; i++) {
		CgCoord want = map_coord(cg_coord_of(&res->layout.ll, res->rank, (uint32_t)i, 0, 0),
		                         kind, op, axis, res->rank);
		r.r[i] = NULL;
		for (int j = 0; j < src.n && !r.r[i]; j++)
			if (cg_coord_eq(want, cg_coord_of(&op->layout.ll, op->rank, (uint32_t)j, 0, 0),
			                op->rank))
				r.r[i] = src.r[j];
		if (!r.r[i]) {
			cg_unsupported(l, in, "this change of shape (an element is in no register)");
			return false;
		}
	}
	l->vals[in->res->id] = r;
	return true;
}

static bool
arange(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const TType *t = in->res->type;
	int n = cg_type_regs(t);
	CgVal r = cg_val_new(l, n);
	LLVMTypeRef et = cg_elem_type(m, t);
	for (int i = 0; i < n; i++) {
		LLVMValueRef c = cg_coord(l, &t->layout.ll, i, 0);
		c = LLVMBuildIntCast2(m->b, c, et, false, "");
		r.r[i] = LLVMBuildAdd(m->b, c, LLVMConstInt(et, (uint64_t)in->attr.lo, 1), "");
	}
	l->vals[in->res->id] = r;
	return true;
}

bool
cg_lower_layout_op(Lower *l, const TInst *in)
{
	switch (in->op) {
	case OP_ARANGE:
		return arange(l, in);
	case OP_FULL:
	case OP_SPLAT:
		return remap(l, in, MAP_SAME, 0);
	case OP_BROADCAST:
		return remap(l, in, MAP_ZERO_ONES, 0);
	case OP_EXPAND_DIMS:
		return remap(l, in, MAP_DROP_AXIS, in->attr.axis);
	default:
		cg_unsupported(l, in, "this operation");
		return false;
	}
}
