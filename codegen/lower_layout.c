/*
 * Operations that create tensors or move elements between registers and
 * threads, decided on the layouts' linear maps: arange, full, splat,
 * broadcast, expand_dims, reductions (in-thread, then warp shuffles) and
 * convert_layout (register renaming from the algebra's plan).
 *
 * broadcast and expand_dims only rename registers: every result register r
 * holds the element at coordinate f(R(r)) of the operand (f zeroes the
 * broadcast dims or drops the new axis), found in the operand register whose
 * coordinate matches, provided each thread's lane and warp bases agree under
 * f, which holds for layouts of one family (what the checker produces).
 */
#include "codegen/cg_internal.h"

#include <string.h>

typedef struct Coord {
	uint32_t c[LL_MAX_RANK];
} Coord;

/* The tensor coordinate of input (reg, lane, warp) of ly, dims in order. */
static Coord
at(const LLayout *ly, int rank, uint32_t reg, uint32_t lane, uint32_t warp)
{
	uint32_t in[LL_MAX_DIMS] = {0}, out[LL_MAX_DIMS] = {0};
	for (int i = 0; i < ly->n_in; i++)
		in[i] = ly->in_name[i] == LL_REGISTER ? reg
		      : ly->in_name[i] == LL_LANE   ? lane
		      : ly->in_name[i] == LL_WARP   ? warp
		                                    : 0;
	ll_apply(ly, in, out);
	Coord c = {{0}};
	for (int d = 0; d < rank; d++) {
		int j = ll_out_index(ly, (LLName)(LL_DIM0 + d));
		c.c[d] = j >= 0 ? out[j] : 0;
	}
	return c;
}

typedef enum MapKind { MAP_SAME, MAP_ZERO_ONES, MAP_DROP_AXIS } MapKind;

/* f: a result coordinate to the operand's. */
static Coord
map_coord(Coord c, MapKind kind, const TType *op, int axis, int res_rank)
{
	Coord o = {{0}};
	if (kind == MAP_DROP_AXIS) {
		for (int d = 0, k = 0; d < res_rank; d++)
			if (d != axis)
				o.c[k++] = c.c[d];
		return o;
	}
	for (int d = 0; d < op->rank; d++)
		o.c[d] = kind == MAP_ZERO_ONES && op->shape[d] == 1 ? 0 : c.c[d];
	return o;
}

static bool
coord_eq(Coord a, Coord b, int rank)
{
	return memcmp(a.c, b.c, (size_t)rank * sizeof a.c[0]) == 0;
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
			Coord rc = map_coord(at(r, res->rank, 0, lane, warp), kind, op, axis, res->rank);
			if (!coord_eq(rc, at(o, op->rank, 0, lane, warp), op->rank))
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
		Coord want = map_coord(at(&res->layout.ll, res->rank, (uint32_t)i, 0, 0), kind, op,
		                       axis, res->rank);
		r.r[i] = NULL;
		for (int j = 0; j < src.n && !r.r[i]; j++)
			if (coord_eq(want, at(&op->layout.ll, op->rank, (uint32_t)j, 0, 0), op->rank))
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

static LLVMValueRef
combine(Lower *l, const TInst *in, LLVMValueRef a, LLVMValueRef b)
{
	return cg_binary(l, in, in->attr.combine, in->args[0]->type->dtype, a, b);
}

/* Reduction along attr.axis: registers holding the same result coordinate
 * combine in the thread, then lanes along the axis by butterfly shuffles.
 * Warps along the axis would need shared memory (not yet). */
static bool
reduce(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const TType *op = in->args[0]->type, *res = in->res->type;
	int axis = in->attr.axis, rank = op->rank;
	const LLayout *ly = &op->layout.ll;
	CgVal src = cg_val(l, in->args[0]);
	if (ll_in_bits(ly, LL_WARP) > 0)
		for (int b = 0; b < ll_in_bits(ly, LL_WARP); b++)
			if (at(ly, rank, 0, 0, 1u << b).c[axis]) {
				cg_unsupported(l, in, "reductions across warps");
				return false;
			}
	/* Groups of registers by coordinate without the axis. */
	int *group = arena_alloc(m->arena, (size_t)src.n * sizeof *group);
	Coord *keys = arena_alloc(m->arena, (size_t)src.n * sizeof *keys);
	LLVMValueRef *acc = arena_alloc(m->arena, (size_t)src.n * sizeof *acc);
	int n_groups = 0;
	for (int i = 0; i < src.n; i++) {
		Coord k = map_coord(at(ly, rank, (uint32_t)i, 0, 0), MAP_DROP_AXIS, NULL, axis, rank);
		int g = 0;
		while (g < n_groups && !coord_eq(keys[g], k, rank - 1))
			g++;
		if (g == n_groups) {
			keys[n_groups] = k;
			acc[n_groups++] = src.r[i];
		} else {
			acc[g] = combine(l, in, acc[g], src.r[i]);
		}
		group[i] = g;
	}
	for (int b = 0; b < ll_in_bits(ly, LL_LANE); b++) {
		Coord c = at(ly, rank, 0, 1u << b, 0);
		if (!c.c[axis])
			continue;
		for (int d = 0; d < rank; d++)
			if (d != axis && c.c[d]) {
				cg_unsupported(l, in, "a reduction whose lanes mix the axis with other dims");
				return false;
			}
		for (int g = 0; g < n_groups; g++) {
			LLVMValueRef o = cg_shfl(m, CG_SHFL_BFLY, acc[g], LLVMConstInt(m->i32, 1u << b, 0));
			acc[g] = combine(l, in, acc[g], o);
		}
	}
	/* Result registers: the group with the same coordinate. */
	int n = cg_type_regs(res);
	CgVal r = cg_val_new(l, n);
	for (int i = 0; i < n; i++) {
		Coord want = res->kind == TY_TENSOR ? at(&res->layout.ll, res->rank, (uint32_t)i, 0, 0)
		                                    : (Coord){{0}};
		int g = 0;
		while (g < n_groups && !coord_eq(keys[g], want, rank - 1))
			g++;
		if (g == n_groups) {
			cg_unsupported(l, in, "a reduction into this result layout");
			return false;
		}
		r.r[i] = acc[g];
	}
	l->vals[in->res->id] = r;
	return true;
}

static bool
convert(Lower *l, const TInst *in)
{
	const LLCvtPlan *p = in->attr.plan;
	if (!p || p->kind != LL_CVT_FREE) {
		cg_unsupported(l, in, "convert_layout through shuffles or shared memory");
		return false;
	}
	CgVal src = cg_val(l, in->args[0]);
	int n = cg_type_regs(in->res->type);
	CgVal r = cg_val_new(l, n);
	for (int i = 0; i < n; i++) {
		int j = i < p->n_dst_regs ? p->reg_perm[i] : -1;
		if (j < 0 || j >= src.n) {
			cg_unsupported(l, in, "this register-renaming plan");
			return false;
		}
		r.r[i] = src.r[j];
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
	case OP_REDUCE:
		return reduce(l, in);
	case OP_CONVERT_LAYOUT:
		return convert(l, in);
	default:
		cg_unsupported(l, in, "this operation");
		return false;
	}
}
