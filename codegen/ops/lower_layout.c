/*
 * Operations that create tensors or move elements between registers and
 * threads, decided on the layouts' linear maps: arange, full, splat,
 * broadcast, expand_dims and reductions (in-thread, then warp shuffles,
 * then across warps through shared memory).
 *
 * broadcast and expand_dims only rename registers: every result register r
 * holds the element at coordinate f(R(r)) of the operand (f zeroes the
 * broadcast dims or drops the new axis), found in the operand register whose
 * coordinate matches, provided each thread's lane and warp bases agree under
 * f, which holds for layouts of one family (what the checker produces).
 */
#include "codegen/ops/ops.h"

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

/* How a reduction along attr.axis splits: warp bits along the axis
 * (each of which must move along the axis only) go through shared memory;
 * so does a result layout whose threads do not hold the partial sums
 * directly. */
typedef struct ReducePlan {
	int warp_bits[LL_MAX_BITS];  /* warp bits along the axis */
	int n_warp_bits;
	bool direct;                 /* result registers = groups, no smem */
	int64_t n_res;               /* result elements */
} ReducePlan;

/* Whether input (lane, warp) of ly moves along the axis only, across it
 * only (returns 0 / 1 in *along), or both (false). */
static bool
pure_basis(const LLayout *ly, int rank, int axis, uint32_t lane, uint32_t warp, bool *along)
{
	Coord c = at(ly, rank, 0, lane, warp);
	bool other = false;
	for (int d = 0; d < rank; d++)
		other |= d != axis && c.c[d];
	*along = c.c[axis] != 0;
	return !(*along && other);
}

static bool
reduce_plan(const TInst *in, ReducePlan *p)
{
	const TType *op = in->args[0]->type, *res = in->res->type;
	const LLayout *ly = &op->layout.ll;
	int axis = in->attr.axis, rank = op->rank;
	memset(p, 0, sizeof *p);
	p->n_res = 1;
	for (int d = 0; d < rank; d++)
		p->n_res *= d == axis ? 1 : op->shape[d];
	bool along;
	for (int b = 0; b < ll_in_bits(ly, LL_LANE); b++)
		if (!pure_basis(ly, rank, axis, 1u << b, 0, &along))
			return false;
	for (int b = 0; b < ll_in_bits(ly, LL_WARP); b++) {
		if (!pure_basis(ly, rank, axis, 0, 1u << b, &along))
			return false;
		if (along)
			p->warp_bits[p->n_warp_bits++] = b;
	}
	p->direct = p->n_warp_bits == 0;
	if (res->kind != TY_TENSOR || !p->direct)
		return true;
	/* Direct: each lane/warp basis of res is the operand's without the
	 * axis, and every result register's coordinate is some register's. */
	static const LLName hw[] = {LL_LANE, LL_WARP};
	for (int h = 0; h < 2 && p->direct; h++) {
		if (ll_in_bits(&res->layout.ll, hw[h]) != ll_in_bits(ly, hw[h])) {
			p->direct = false;
			break;
		}
		for (int b = 0; b < ll_in_bits(ly, hw[h]) && p->direct; b++) {
			uint32_t lane = h == 0 ? 1u << b : 0, warp = h == 1 ? 1u << b : 0;
			Coord o = map_coord(at(ly, rank, 0, lane, warp), MAP_DROP_AXIS, NULL, axis, rank);
			p->direct = coord_eq(o, at(&res->layout.ll, res->rank, 0, lane, warp), rank - 1);
		}
	}
	for (int i = 0; i < cg_type_regs(res) && p->direct; i++) {
		Coord want = at(&res->layout.ll, res->rank, (uint32_t)i, 0, 0);
		bool found = false;
		for (int j = 0; j < cg_type_regs(op) && !found; j++)
			found = coord_eq(want, map_coord(at(ly, rank, (uint32_t)j, 0, 0), MAP_DROP_AXIS,
			                                 NULL, axis, rank), rank - 1);
		p->direct = found;
	}
	return true;
}

int64_t
cg_reduce_scratch(const TInst *in)
{
	ReducePlan p;
	if (!reduce_plan(in, &p) || p.direct)
		return 0;
	const TType *op = in->args[0]->type;
	int bytes = op->dtype == DT_I1 ? 1 : ir_dtype_bits(op->dtype) / 8;
	return ((int64_t)1 << p.n_warp_bits) * p.n_res * bytes;
}

/* Row-major index (i64) of the coordinate of register r of ly with the
 * axis dropped (axis < 0: no dim dropped), shape op_shape. */
static LLVMValueRef
flat_index(Lower *l, const LLayout *ly, int r, const int64_t *op_shape, int rank, int axis)
{
	CgModule *m = l->m;
	LLVMValueRef idx = LLVMConstInt(m->i64, 0, 0);
	for (int d = 0, k = 0; d < rank; d++) {
		if (d == axis)
			continue;
		LLVMValueRef c = LLVMBuildZExt(m->b, cg_coord(l, ly, r, axis < 0 ? k : d), m->i64, "");
		idx = LLVMBuildAdd(m->b, LLVMBuildMul(m->b, idx, LLVMConstInt(m->i64,
		                   (uint64_t)op_shape[d], 0), ""), c, "");
		k++;
	}
	return idx;
}

/* Cross-warp step: every thread writes its partial sums at
 * scratch[warp slot][result element]; after a barrier, each result
 * register combines the slots of its element in order. */
static bool
reduce_through_smem(Lower *l, const TInst *in, const ReducePlan *p, const int *group_reg,
                    LLVMValueRef *acc, int n_groups)
{
	CgModule *m = l->m;
	const TType *op = in->args[0]->type, *res = in->res->type;
	int axis = in->attr.axis;
	LLVMTypeRef st = cg_smem_elem_type(m, op), et = cg_elem_type(m, op);
	LLVMValueRef base = cg_scratch(l);
	LLVMValueRef slot = LLVMConstInt(m->i64, 0, 0);
	LLVMValueRef warp = cg_warp_id(m);
	for (int k = 0; k < p->n_warp_bits; k++) {
		LLVMValueRef bit = LLVMBuildAnd(m->b, LLVMBuildLShr(m->b, warp,
		                   LLVMConstInt(m->i32, (uint64_t)p->warp_bits[k], 0), ""),
		                   LLVMConstInt(m->i32, 1, 0), "");
		slot = LLVMBuildOr(m->b, slot, LLVMBuildShl(m->b, LLVMBuildZExt(m->b, bit, m->i64, ""),
		                   LLVMConstInt(m->i64, (uint64_t)k, 0), ""), "");
	}
	LLVMValueRef n_res = LLVMConstInt(m->i64, (uint64_t)p->n_res, 0);
	/* The scratch may still be read by the previous user. */
	cg_barrier(m);
	for (int g = 0; g < n_groups; g++) {
		LLVMValueRef i = LLVMBuildAdd(m->b, LLVMBuildMul(m->b, slot, n_res, ""),
		                              flat_index(l, &op->layout.ll, group_reg[g], op->shape,
		                                         op->rank, axis), "");
		LLVMBuildStore(m->b, cg_to_smem(m, acc[g], st), LLVMBuildGEP2(m->b, st, base, &i, 1, ""));
	}
	cg_barrier(m);
	int n = cg_type_regs(res);
	CgVal r = cg_val_new(l, n);
	for (int i = 0; i < n; i++) {
		LLVMValueRef e = res->kind == TY_TENSOR
		                 ? flat_index(l, &res->layout.ll, i, res->shape, res->rank, -1)
		                 : LLVMConstInt(m->i64, 0, 0);
		r.r[i] = NULL;
		for (int s = 0; s < 1 << p->n_warp_bits; s++) {
			LLVMValueRef idx = LLVMBuildAdd(m->b, e, LLVMConstInt(m->i64,
			                                (uint64_t)(s * p->n_res), 0), "");
			LLVMValueRef x = cg_from_smem(m, LLVMBuildLoad2(m->b, st,
			                 LLVMBuildGEP2(m->b, st, base, &idx, 1, ""), ""), et);
			r.r[i] = r.r[i] ? combine(l, in, r.r[i], x) : x;
		}
	}
	l->vals[in->res->id] = r;
	return true;
}

/* Reduction along attr.axis: registers holding the same result coordinate
 * combine in the thread, then lanes along the axis by butterfly shuffles,
 * then warps along the axis through shared memory. */
static bool
reduce(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const TType *op = in->args[0]->type, *res = in->res->type;
	int axis = in->attr.axis, rank = op->rank;
	const LLayout *ly = &op->layout.ll;
	CgVal src = cg_val(l, in->args[0]);
	ReducePlan plan;
	if (!reduce_plan(in, &plan)) {
		cg_unsupported(l, in, "a reduction whose lanes or warps mix the axis with other dims");
		return false;
	}
	/* Groups of registers by coordinate without the axis. */
	int *group_reg = arena_alloc(m->arena, (size_t)src.n * sizeof *group_reg);
	Coord *keys = arena_alloc(m->arena, (size_t)src.n * sizeof *keys);
	LLVMValueRef *acc = arena_alloc(m->arena, (size_t)src.n * sizeof *acc);
	int n_groups = 0;
	for (int i = 0; i < src.n; i++) {
		/* A register that repeats an earlier one's element (a free
		 * register bit) holds a copy: combining it would count the
		 * element twice. */
		Coord full = at(ly, rank, (uint32_t)i, 0, 0);
		bool copy = false;
		for (int j = 0; j < i && !copy; j++)
			copy = coord_eq(full, at(ly, rank, (uint32_t)j, 0, 0), rank);
		if (copy)
			continue;
		Coord k = map_coord(full, MAP_DROP_AXIS, NULL, axis, rank);
		int g = 0;
		while (g < n_groups && !coord_eq(keys[g], k, rank - 1))
			g++;
		if (g == n_groups) {
			keys[n_groups] = k;
			group_reg[n_groups] = i;
			acc[n_groups++] = src.r[i];
		} else {
			acc[g] = combine(l, in, acc[g], src.r[i]);
		}
	}
	for (int b = 0; b < ll_in_bits(ly, LL_LANE); b++) {
		if (!at(ly, rank, 0, 1u << b, 0).c[axis])
			continue;
		for (int g = 0; g < n_groups; g++) {
			LLVMValueRef o = cg_shfl(m, CG_SHFL_BFLY, acc[g], LLVMConstInt(m->i32, 1u << b, 0));
			acc[g] = combine(l, in, acc[g], o);
		}
	}
	if (!plan.direct)
		return reduce_through_smem(l, in, &plan, group_reg, acc, n_groups);
	/* Result registers: the group with the same coordinate. */
	int n = cg_type_regs(res);
	CgVal r = cg_val_new(l, n);
	for (int i = 0; i < n; i++) {
		Coord want = res->kind == TY_TENSOR ? at(&res->layout.ll, res->rank, (uint32_t)i, 0, 0)
		                                    : (Coord){{0}};
		int g = 0;
		while (g < n_groups && !coord_eq(keys[g], want, rank - 1))
			g++;
		r.r[i] = acc[g];
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
	default:
		cg_unsupported(l, in, "this operation");
		return false;
	}
}
