/*
 * Reductions along attr.axis, by an operation (gl.sum, gl.max, ...:
 * attr.combine) or a combine function (gl.reduce, over one tensor or a
 * tuple: the region), in Triton 3.6's order (ReduceOpToLLVM.cpp), so that
 * float results are Triton's bit for bit: each thread folds its registers
 * of one result element from the left, in register order (a register that
 * repeats another's element counted once); then the lanes along the axis
 * combine by butterfly shuffles, the widest stride first (integers over
 * all 32 lanes by one redux.sync, as Triton's); then the warps
 * along the axis through shared memory, their partials combined as a
 * butterfly too (slot s with slot s + W/2 first, down to neighbours).
 * Every combination takes this thread's value on the left, which Triton's
 * order needs the combination to commute for: a region glc cannot see to
 * commute is lowered by lower_scan.c instead, in order along the axis.
 */
#include "codegen/ops/ops.h"

#include <string.h>

void
cg_combine(Lower *l, const TInst *in, const LLVMValueRef *a, const LLVMValueRef *b,
           LLVMValueRef *out)
{
	if (!in->n_region) {
		out[0] = cg_binary(l, in, in->attr.combine, in->args[0]->type->dtype, a[0], b[0]);
		return;
	}
	int n = in->n_args;
	for (int k = 0; k < n; k++) {
		CgVal va = cg_val_new(l, 1), vb = cg_val_new(l, 1);
		va.r[0] = a[k];
		vb.r[0] = b[k];
		l->vals[in->region[k]->id] = va;
		l->vals[in->region[n + k]->id] = vb;
	}
	l->lower_block(l, &in->body);
	const TInst *y = in->body.insts[in->body.n - 1];
	for (int k = 0; k < n; k++)
		out[k] = cg_val(l, y->args[k]).r[0];
	cg_set_loc(l->m, in->at);
}

typedef LLVMValueRef Vals[CG_MAX_COMBINE];

static bool
commutative(TOp op)
{
	return op == OP_ADD || op == OP_MUL || op == OP_MAX || op == OP_MIN || op == OP_AND ||
	       op == OP_OR || op == OP_XOR;
}

/* The commutative operation result k of in's region is of its two
 * arguments of input k, or OP_COUNT when it is not one. */
static TOp
region_op(const TInst *in, int k)
{
	const TBlock *b = &in->body;
	const TInst *y = b->n ? b->insts[b->n - 1] : NULL;
	int n = in->n_args;
	if (!y || y->op != OP_YIELD || y->n_args != n)
		return OP_COUNT;
	const TInst *d = NULL;
	for (size_t i = 0; i + 1 < b->n && !d; i++)
		if (b->insts[i]->res == y->args[k])
			d = b->insts[i];
	if (!d || d->n_args != 2 || !commutative(d->op))
		return OP_COUNT;
	const TValue *x = in->region[k], *z = in->region[n + k];
	if (!((d->args[0] == x && d->args[1] == z) || (d->args[0] == z && d->args[1] == x)))
		return OP_COUNT;
	return d->op;
}

bool
cg_reduce_commutes(const TInst *in)
{
	for (int k = 0; in->n_region && k < in->n_args; k++)
		if (region_op(in, k) == OP_COUNT)
			return false;
	return true;
}

/* The redux.sync that combines all 32 lanes at once, as Triton's
 * matchReduxKind picks it: one input of integers of at most 32 bits (which
 * it extends to 32: signed min and max by sign), added, compared, or bit
 * combined; NULL for the shuffles. */
static const char *
redux_name(const TInst *in, bool *sign_extend)
{
	const TType *t = in->args[0]->type;
	if (in->n_args != 1 || t->elem_is_ptr || cg_dtype_is_fp(t->dtype) ||
	    ir_dtype_is_f8(t->dtype) || ir_dtype_bits(t->dtype) > 32)
		return NULL;
	TOp op = in->n_region ? region_op(in, 0) : in->attr.combine;
	bool s = ir_dtype_is_signed(t->dtype);
	*sign_extend = s && (op == OP_MIN || op == OP_MAX);
	switch (op) {
	case OP_ADD: return "llvm.nvvm.redux.sync.add";
	case OP_AND: return "llvm.nvvm.redux.sync.and";
	case OP_OR: return "llvm.nvvm.redux.sync.or";
	case OP_XOR: return "llvm.nvvm.redux.sync.xor";
	case OP_MIN: return s ? "llvm.nvvm.redux.sync.min" : "llvm.nvvm.redux.sync.umin";
	case OP_MAX: return s ? "llvm.nvvm.redux.sync.max" : "llvm.nvvm.redux.sync.umax";
	default: return NULL;
	}
}

/* x combined over the 32 lanes by redux.sync `name`. */
static LLVMValueRef
redux(CgModule *m, const char *name, bool sign_extend, LLVMValueRef x)
{
	LLVMTypeRef t = LLVMTypeOf(x);
	LLVMValueRef w = t == m->i32 ? x : sign_extend ? LLVMBuildSExt(m->b, x, m->i32, "")
	                                              : LLVMBuildZExt(m->b, x, m->i32, "");
	LLVMValueRef args[] = {w, LLVMConstInt(m->i32, 0xffffffffu, 0)};
	LLVMValueRef r = cg_intrinsic(m, name, m->i32, NULL, 0, args, 2);
	return t == m->i32 ? r : LLVMBuildTrunc(m->b, r, t, "");
}

/* The lanes along the axis combined: by one redux.sync where all 32 are
 * (Triton's choice), else butterfly shuffles, the widest stride first. */
static void
combine_lanes(Lower *l, const TInst *in, Vals *acc, int n_groups)
{
	CgModule *m = l->m;
	const TType *op = in->args[0]->type;
	const LLayout *ly = &op->layout.ll;
	int axis = in->attr.axis, along = 0;
	for (int b = 0; b < ll_in_bits(ly, LL_LANE); b++)
		along += cg_coord_of(ly, op->rank, 0, 1u << b, 0).c[axis] != 0;
	bool sext;
	const char *name = along == 5 ? redux_name(in, &sext) : NULL;
	if (name) {
		for (int g = 0; g < n_groups; g++)
			acc[g][0] = redux(m, name, sext, acc[g][0]);
		return;
	}
	for (int b = ll_in_bits(ly, LL_LANE) - 1; b >= 0; b--) {
		if (!cg_coord_of(ly, op->rank, 0, 1u << b, 0).c[axis])
			continue;
		LLVMValueRef mask = LLVMConstInt(m->i32, 1u << b, 0);
		for (int g = 0; g < n_groups; g++) {
			Vals o;
			for (int k = 0; k < in->n_args; k++)
				o[k] = cg_shfl(m, CG_SHFL_BFLY, acc[g][k], mask);
			cg_combine(l, in, acc[g], o, acc[g]);
		}
	}
}

/* How a reduction along attr.axis splits: warp bits along the axis (each
 * of which must move along the axis only) go through shared memory; so
 * does a result layout whose threads do not hold the partials directly. */
typedef struct ReducePlan {
	int warp_bits[LL_MAX_BITS];  /* warp bits along the axis */
	int n_warp_bits;
	bool direct;                 /* result registers = groups, no smem */
	int64_t n_res;               /* result elements */
} ReducePlan;

/* The type of one result (a tuple's first: all share its layout). */
static const TType *
result_type(const TInst *in)
{
	const TType *t = in->res->type;
	return t->kind == TY_TUPLE ? t->elems[0] : t;
}

/* Whether input (lane, warp) of ly moves along the axis only, across it
 * only (*along false), or both (false). */
static bool
pure_basis(const LLayout *ly, int rank, int axis, uint32_t lane, uint32_t warp, bool *along)
{
	CgCoord c = cg_coord_of(ly, rank, 0, lane, warp);
	bool other = false;
	for (int d = 0; d < rank; d++)
		other |= d != axis && c.c[d];
	*along = c.c[axis] != 0;
	return !(*along && other);
}

/* Whether every lane and warp basis of res is the operand's (layout ly)
 * without the axis, and every result register's coordinate some operand
 * register's. */
static bool
direct_result(const TType *res, const TType *op, int axis)
{
	const LLayout *ly = &op->layout.ll;
	int rank = op->rank;
	static const LLName hw[] = {LL_LANE, LL_WARP};
	for (int h = 0; h < 2; h++) {
		if (ll_in_bits(&res->layout.ll, hw[h]) != ll_in_bits(ly, hw[h]))
			return false;
		for (int b = 0; b < ll_in_bits(ly, hw[h]); b++) {
			uint32_t lane = h == 0 ? 1u << b : 0, warp = h == 1 ? 1u << b : 0;
			CgCoord o = cg_coord_drop(cg_coord_of(ly, rank, 0, lane, warp), axis, rank);
			if (!cg_coord_eq(o, cg_coord_of(&res->layout.ll, res->rank, 0, lane, warp),
			                 rank - 1))
				return false;
		}
	}
	for (int i = 0; i < cg_type_regs(res); i++) {
		CgCoord want = cg_coord_of(&res->layout.ll, res->rank, (uint32_t)i, 0, 0);
		bool found = false;
		for (int j = 0; j < cg_type_regs(op) && !found; j++)
			found = cg_coord_eq(want, cg_coord_drop(cg_coord_of(ly, rank, (uint32_t)j, 0, 0),
			                                        axis, rank), rank - 1);
		if (!found)
			return false;
	}
	return true;
}

static bool
reduce_plan(const TInst *in, ReducePlan *p)
{
	const TType *op = in->args[0]->type, *res = result_type(in);
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
	p->direct = p->n_warp_bits == 0 && (res->kind != TY_TENSOR || direct_result(res, op, axis));
	return in->n_args <= CG_MAX_COMBINE;
}

/* Bytes of one input's exchange through shared memory: a slot per warp
 * along the axis and result element, 8-byte aligned. */
static int64_t
exchange_bytes(const TType *t, const ReducePlan *p)
{
	int bytes = t->dtype == DT_I1 ? 1 : ir_dtype_bits(t->dtype) / 8;
	return (((int64_t)1 << p->n_warp_bits) * p->n_res * bytes + 7) / 8 * 8;
}

int64_t
cg_reduce_scratch(const TInst *in)
{
	ReducePlan p;
	if (!reduce_plan(in, &p) || p.direct)
		return 0;
	int64_t bytes = 0;
	for (int k = 0; k < in->n_args; k++)
		bytes += exchange_bytes(in->args[k]->type, &p);
	return bytes;
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

/* The partials of slots 0..w-1 (w a power of two) combined as Triton's
 * butterfly leaves them in its first lane: x[s] with x[s + w/2] first. */
static void
combine_slots(Lower *l, const TInst *in, Vals *x, int w)
{
	for (int half = w / 2; half > 0; half /= 2)
		for (int s = 0; s < half; s++)
			cg_combine(l, in, x[s], x[s + half], x[s]);
}

/* Where the inputs' exchange lives in the scratch, and its element types. */
typedef struct Exchange {
	LLVMValueRef base[CG_MAX_COMBINE];
	LLVMTypeRef st[CG_MAX_COMBINE], et[CG_MAX_COMBINE];
} Exchange;

/* The slots 0..w-1 of result element e (i64) of every input into x. */
static void
load_slots(Lower *l, const TInst *in, const Exchange *ex, LLVMValueRef e, int w,
           int64_t n_res, Vals *x)
{
	CgModule *m = l->m;
	for (int s = 0; s < w; s++) {
		LLVMValueRef idx = LLVMBuildAdd(m->b, e, LLVMConstInt(m->i64,
		                                (uint64_t)s * (uint64_t)n_res, 0), "");
		for (int k = 0; k < in->n_args; k++)
			x[s][k] = cg_from_smem(m, LLVMBuildLoad2(m->b, ex->st[k],
			          LLVMBuildGEP2(m->b, ex->st[k], ex->base[k], &idx, 1, ""), ""),
			          ex->et[k]);
	}
}

/* Result elements of consecutive result registers (runs of a power of two,
 * at most 16 bytes): how many loads of them one vector load makes. */
static int
result_vector(const TType *res, int nr)
{
	if (res->kind != TY_TENSOR)
		return 1;
	int bytes = res->dtype == DT_I1 ? 1 : ir_dtype_bits(res->dtype) / 8, v = 16 / bytes;
	for (; v > 1; v /= 2) {
		bool runs = nr % v == 0;
		for (int i = 0; i < nr && runs; i++) {
			CgCoord a = cg_coord_of(&res->layout.ll, res->rank, (uint32_t)(i - i % v), 0, 0);
			CgCoord b = cg_coord_of(&res->layout.ll, res->rank, (uint32_t)i, 0, 0);
			int64_t fa = 0, fb = 0;
			for (int d = 0; d < res->rank; d++) {
				fa = fa * res->shape[d] + a.c[d];
				fb = fb * res->shape[d] + b.c[d];
			}
			runs = fb - fa == i % v;
		}
		if (runs)
			break;
	}
	return v;
}

/* Shared-memory accesses a barrier is counted as. */
enum { BARRIER_COST = 4 };

/* Whether the threads should finish the result elements first (each of
 * the T threads combines the slots of n_res / T elements and writes the
 * total back, then every result register reads its total: Triton's order
 * of work) rather than every result register combine its element's w
 * slots itself (a replica of the result reads every slot: cheaper for few
 * result registers). Counted in shared-memory accesses per thread, vector
 * loads as one. */
static bool
finish_first(const ReducePlan *p, const TType *res, int nr, int threads)
{
	int w = 1 << p->n_warp_bits, v = result_vector(res, nr);
	int64_t per_thread = (p->n_res + threads - 1) / threads;
	int64_t broadcast = (nr + v - 1) / v * w;
	int64_t finish = per_thread * (w + 1) + BARRIER_COST + (nr + v - 1) / v;
	return finish < broadcast;
}

/* The threads finish the result elements (thread t those t + T * j), then
 * every result register reads its total. */
static void
finish_then_read(Lower *l, const TInst *in, const ReducePlan *p, const Exchange *ex,
                 CgVal *out)
{
	CgModule *m = l->m;
	const TType *res = result_type(in);
	int w = 1 << p->n_warp_bits, threads = 32 * l->part_warps, nr = cg_type_regs(res);
	LLVMValueRef warp = LLVMBuildSub(m->b, cg_warp_id(m),
	                                 LLVMConstInt(m->i32, (uint64_t)l->first_warp, 0), "");
	LLVMValueRef tid = LLVMBuildZExt(m->b, LLVMBuildAdd(m->b, LLVMBuildMul(m->b, warp,
	                   LLVMConstInt(m->i32, 32, 0), ""), cg_lane_id(m), ""), m->i64, "");
	Vals *x = arena_alloc(m->arena, (size_t)w * sizeof *x);
	for (int64_t first = 0; first < p->n_res; first += threads) {
		LLVMValueRef e = LLVMBuildAdd(m->b, tid, LLVMConstInt(m->i64, (uint64_t)first, 0), "");
		LLVMBasicBlockRef done = NULL;
		if (first + threads > p->n_res)
			done = cg_if_open(l, LLVMBuildICmp(m->b, LLVMIntULT, e, LLVMConstInt(m->i64,
			                  (uint64_t)p->n_res, 0), ""));
		load_slots(l, in, ex, e, w, p->n_res, x);
		combine_slots(l, in, x, w);
		for (int k = 0; k < in->n_args; k++)
			LLVMBuildStore(m->b, cg_to_smem(m, x[0][k], ex->st[k]),
			               LLVMBuildGEP2(m->b, ex->st[k], ex->base[k], &e, 1, ""));
		if (done)
			cg_if_close(l, done);
	}
	cg_barrier(m);
	for (int i = 0; i < nr; i++) {
		LLVMValueRef e = res->kind == TY_TENSOR
		                 ? flat_index(l, &res->layout.ll, i, res->shape, res->rank, -1)
		                 : LLVMConstInt(m->i64, 0, 0);
		for (int k = 0; k < in->n_args; k++)
			out->r[k * nr + i] = cg_from_smem(m, LLVMBuildLoad2(m->b, ex->st[k],
			                     LLVMBuildGEP2(m->b, ex->st[k], ex->base[k], &e, 1, ""), ""),
			                     ex->et[k]);
	}
}

/* The exchange through shared memory: every thread writes its partials at
 * scratch[input][warp slot][result element]; after a barrier, the result
 * elements are finished as finish_first chooses. */
static void
reduce_through_smem(Lower *l, const TInst *in, const ReducePlan *p, const int *group_reg,
                    Vals *acc, int n_groups, CgVal *out)
{
	CgModule *m = l->m;
	const TType *op = in->args[0]->type, *res = result_type(in);
	int axis = in->attr.axis, n = in->n_args, w = 1 << p->n_warp_bits;
	Exchange ex;
	int64_t off = 0;
	for (int k = 0; k < n; k++) {
		const TType *t = in->args[k]->type;
		LLVMValueRef o = LLVMConstInt(m->i64, (uint64_t)off, 0);
		ex.base[k] = LLVMBuildGEP2(m->b, m->i8, cg_scratch(l), &o, 1, "");
		ex.st[k] = cg_smem_elem_type(m, t);
		ex.et[k] = cg_elem_type(m, t);
		off += exchange_bytes(t, p);
	}
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
		for (int k = 0; k < n; k++)
			LLVMBuildStore(m->b, cg_to_smem(m, acc[g][k], ex.st[k]),
			               LLVMBuildGEP2(m->b, ex.st[k], ex.base[k], &i, 1, ""));
	}
	cg_barrier(m);
	int nr = cg_type_regs(res);
	*out = cg_val_new(l, nr * n);
	if (finish_first(p, res, nr, 32 * l->part_warps)) {
		finish_then_read(l, in, p, &ex, out);
		return;
	}
	Vals *x = arena_alloc(m->arena, (size_t)w * sizeof *x);
	for (int i = 0; i < nr; i++) {
		LLVMValueRef e = res->kind == TY_TENSOR
		                 ? flat_index(l, &res->layout.ll, i, res->shape, res->rank, -1)
		                 : LLVMConstInt(m->i64, 0, 0);
		load_slots(l, in, &ex, e, w, p->n_res, x);
		combine_slots(l, in, x, w);
		for (int k = 0; k < n; k++)
			out->r[k * nr + i] = x[0][k];
	}
}

bool
cg_lower_reduce(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const TType *op = in->args[0]->type, *res = result_type(in);
	int axis = in->attr.axis, rank = op->rank, n = in->n_args;
	const LLayout *ly = &op->layout.ll;
	ReducePlan plan;
	if (!reduce_plan(in, &plan)) {
		cg_unsupported(l, in, "a reduction whose lanes or warps mix the axis with other "
		               "dims (convert_layout to a BlockedLayout first)");
		return false;
	}
	CgVal src[CG_MAX_COMBINE];
	for (int k = 0; k < n; k++)
		src[k] = cg_val(l, in->args[k]);
	int regs = src[0].n;
	/* Groups of registers by coordinate without the axis. */
	int *group_reg = arena_alloc(m->arena, (size_t)regs * sizeof *group_reg);
	CgCoord *keys = arena_alloc(m->arena, (size_t)regs * sizeof *keys);
	Vals *acc = arena_alloc(m->arena, (size_t)regs * sizeof *acc);
	int n_groups = 0;
	for (int i = 0; i < regs; i++) {
		CgCoord full = cg_coord_of(ly, rank, (uint32_t)i, 0, 0);
		bool copy = false;
		for (int j = 0; j < i && !copy; j++)
			copy = cg_coord_eq(full, cg_coord_of(ly, rank, (uint32_t)j, 0, 0), rank);
		if (copy)
			continue;
		Vals x;
		for (int k = 0; k < n; k++)
			x[k] = src[k].r[i];
		CgCoord key = cg_coord_drop(full, axis, rank);
		int g = 0;
		while (g < n_groups && !cg_coord_eq(keys[g], key, rank - 1))
			g++;
		if (g == n_groups) {
			keys[n_groups] = key;
			group_reg[n_groups] = i;
			memcpy(acc[n_groups++], x, sizeof x);
		} else {
			cg_combine(l, in, acc[g], x, acc[g]);
		}
	}
	combine_lanes(l, in, acc, n_groups);
	CgVal out;
	if (!plan.direct) {
		reduce_through_smem(l, in, &plan, group_reg, acc, n_groups, &out);
		l->vals[in->res->id] = out;
		return true;
	}
	/* Result registers: the group with the same coordinate. */
	int nr = cg_type_regs(res);
	out = cg_val_new(l, nr * n);
	for (int i = 0; i < nr; i++) {
		CgCoord want = res->kind == TY_TENSOR
		               ? cg_coord_of(&res->layout.ll, res->rank, (uint32_t)i, 0, 0)
		               : (CgCoord){{0}};
		int g = 0;
		while (g < n_groups && !cg_coord_eq(keys[g], want, rank - 1))
			g++;
		for (int k = 0; k < n; k++)
			out.r[k * nr + i] = acc[g][k];
	}
	l->vals[in->res->id] = out;
	return true;
}
