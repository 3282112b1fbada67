/*
 * Scans, and reductions by a combine function (a region) that glc cannot
 * see to be commutative (lower_reduce.c has the others), planned on the
 * layout. The axis coordinate of an element is a linear function of its
 * register, lane and warp bits, each of its bits given by one of them.
 * Taken from the lowest axis bit up, those bits form levels of one kind
 * each (registers, lanes or warps). Every element keeps the combination
 * of its block so far (its prefix, for scans) and the block's total; a
 * level merges 2^m consecutive blocks: in the thread for registers, by
 * butterfly shuffles for lanes, through shared memory for warps. The
 * combine function is always applied with the earlier block on the left,
 * so it needs only be associative. A reverse scan runs the same levels
 * with the axis mirrored (each level's index complemented), combining the
 * later elements first as Triton does.
 *
 * Registers a layout duplicates (free bits) compute the same values; lane
 * and warp duplicates likewise. Tuples of inputs combine together: the
 * values of one register are the inputs' values at it.
 */
#include "codegen/ops/ops.h"

#include <string.h>

enum { MAX_OPS = CG_MAX_COMBINE, N_HW = 3 };

typedef enum HwKind { HW_REG, HW_LANE, HW_WARP } HwKind;

static const LLName hw_name[N_HW] = {LL_REGISTER, LL_LANE, LL_WARP};

/* Axis bits low..low+m-1 come from hardware bits bit[0..m-1] of one kind. */
typedef struct Level {
	HwKind kind;
	int low, m;
	int bit[LL_MAX_BITS];
} Level;

typedef struct Plan {
	Level lv[LL_MAX_BITS];
	int n_lv;
	uint64_t free[N_HW];    /* duplicate bits per hardware kind */
	int bits[N_HW];         /* bits per hardware kind */
	int log_numel;
} Plan;

/* The levels of a scan or reduction of type t along axis; false when some
 * register, lane or warp bit moves along the axis and across it, or along
 * it by more than one power of two. */
static bool
plan(const TType *t, int axis, Plan *p)
{
	const LLayout *ly = &t->layout.ll;
	memset(p, 0, sizeof *p);
	uint64_t free[LL_MAX_DIMS];
	ll_free_masks(ly, free);
	int ja = ll_out_index(ly, (LLName)(LL_DIM0 + axis));
	int k_bits = ja < 0 ? 0 : ly->out_bits[ja];
	int kind_of[LL_MAX_BITS], bit_of[LL_MAX_BITS];
	for (int q = 0; q < k_bits; q++)
		kind_of[q] = -1;
	for (int h = 0; h < N_HW; h++) {
		int i = ll_in_index(ly, hw_name[h]);
		if (i < 0)
			continue;
		p->free[h] = free[i];
		p->bits[h] = ly->in_bits[i];
		for (int b = 0; b < ly->in_bits[i]; b++) {
			uint32_t v[LL_MAX_DIMS];
			if (free[i] >> b & 1)
				continue;
			p->log_numel++;
			ll_get_basis(ly, i, b, v);
			uint32_t along = ja >= 0 ? v[ja] : 0;
			bool other = false;
			for (int j = 0; j < ly->n_out; j++)
				other |= j != ja && v[j];
			if (!along)
				continue;
			int q = 0;
			while ((1u << q) < along)
				q++;
			if (other || along & (along - 1) || kind_of[q] >= 0)
				return false;
			kind_of[q] = h;
			bit_of[q] = b;
		}
	}
	for (int q = 0; q < k_bits; q++) {
		if (kind_of[q] < 0)
			return false;
		Level *lv = p->n_lv ? &p->lv[p->n_lv - 1] : NULL;
		if (!lv || (int)lv->kind != kind_of[q]) {
			lv = &p->lv[p->n_lv++];
			lv->kind = (HwKind)kind_of[q];
			lv->low = q;
		}
		lv->bit[lv->m++] = bit_of[q];
	}
	return true;
}

/* Bytes of one element of t in shared memory. */
static int64_t
elem_bytes(const TType *t)
{
	return t->dtype == DT_I1 ? 1 : ir_dtype_bits(t->dtype) / 8;
}

/* Entries per input of warp level lv's exchange (a slot per block and warp
 * index), and the bytes of the exchange for the inputs of in. */
static int64_t
level_slots(const Plan *p, const Level *lv)
{
	return (int64_t)1 << (p->log_numel - lv->low);
}

static int64_t
level_bytes(const TInst *in, const Plan *p, const Level *lv)
{
	int64_t bytes = 0;
	for (int k = 0; k < in->n_args; k++)
		bytes += (level_slots(p, lv) * elem_bytes(in->args[k]->type) + 7) / 8 * 8;
	return bytes;
}

int64_t
cg_scan_scratch(const TInst *in)
{
	Plan p;
	if (!plan(in->args[0]->type, in->attr.axis, &p))
		return 0;
	int64_t most = 0;
	for (int v = 0; v < p.n_lv; v++) {
		int64_t b = p.lv[v].kind == HW_WARP ? level_bytes(in, &p, &p.lv[v]) : 0;
		most = b > most ? b : most;
	}
	return most;
}

/* -- Combining ----------------------------------------------------------------- */

static void
pick(CgModule *m, LLVMValueRef cond, LLVMValueRef *x, LLVMValueRef *y, LLVMValueRef *out, int n)
{
	for (int k = 0; k < n; k++)
		out[k] = LLVMBuildSelect(m->b, cond, x[k], y[k], "");
}

/* -- The levels ---------------------------------------------------------------- */

/* The state of the lowering: per register, the prefix (scans) and the
 * block total of every input. */
typedef struct Scan {
	Lower *l;
	const TInst *in;
	const Plan *p;
	int n, regs;
	bool scan, reverse;
	LLVMValueRef (*pre)[MAX_OPS], (*tot)[MAX_OPS];
	uint64_t done_regs;     /* register bits of the levels done */
} Scan;

static uint64_t
deposit(const Level *lv, uint64_t s)
{
	uint64_t r = 0;
	for (int j = 0; j < lv->m; j++)
		r |= (s >> j & 1) << lv->bit[j];
	return r;
}

static void
reg_level(Scan *s, const Level *lv)
{
	uint64_t mask = deposit(lv, ~(uint64_t)0);
	int blocks = 1 << lv->m;
	for (int g = 0; g < s->regs; g++) {
		if ((uint64_t)g & mask)
			continue;
		LLVMValueRef acc[MAX_OPS];
		for (int t = 0; t < blocks; t++) {
			int r = g | (int)deposit(lv, (uint64_t)(s->reverse ? blocks - 1 - t : t));
			if (!t) {
				memcpy(acc, s->tot[r], sizeof acc);
				continue;
			}
			if (s->scan)
				cg_combine(s->l, s->in, acc, s->pre[r], s->pre[r]);
			cg_combine(s->l, s->in, acc, s->tot[r], acc);
		}
		for (int t = 0; t < blocks; t++)
			memcpy(s->tot[g | (int)deposit(lv, (uint64_t)t)], acc, sizeof acc);
	}
	s->done_regs |= mask;
}

/* Bit `bit` of hardware index id (i32), flipped for reverse scans (i1). */
static LLVMValueRef
hw_bit(Scan *s, LLVMValueRef id, int bit)
{
	CgModule *m = s->l->m;
	LLVMValueRef x = LLVMBuildAnd(m->b, id, LLVMConstInt(m->i32, 1u << bit, 0), "");
	return LLVMBuildICmp(m->b, s->reverse ? LLVMIntEQ : LLVMIntNE, x,
	                     LLVMConstInt(m->i32, 0, 0), "");
}

/* A register whose block so far is its own: no bit of a register level
 * done, no duplicate bit. */
static bool
is_rep(const Scan *s, int r)
{
	return !((uint64_t)r & (s->done_regs | s->p->free[HW_REG]));
}

static int
rep_of(const Scan *s, int r)
{
	return (int)((uint64_t)r & ~(s->done_regs | s->p->free[HW_REG]));
}

/* Every register takes its representative's exclusive prefix e (when
 * has_e) and total t. */
static void
apply(Scan *s, LLVMValueRef (*e)[MAX_OPS], LLVMValueRef has_e, LLVMValueRef (*t)[MAX_OPS])
{
	LLVMValueRef c[MAX_OPS];
	for (int r = 0; r < s->regs; r++) {
		int q = rep_of(s, r);
		if (s->scan) {
			cg_combine(s->l, s->in, e[q], s->pre[r], c);
			pick(s->l->m, has_e, c, s->pre[r], s->pre[r], s->n);
		}
		memcpy(s->tot[r], t[q], sizeof t[q]);
	}
}

static void
lane_level(Scan *s, const Level *lv)
{
	CgModule *m = s->l->m;
	LLVMValueRef (*e)[MAX_OPS] = arena_alloc(m->arena, (size_t)s->regs * sizeof *e);
	LLVMValueRef (*t)[MAX_OPS] = arena_alloc(m->arena, (size_t)s->regs * sizeof *t);
	LLVMValueRef has_e = LLVMConstInt(m->i1, 0, 0);
	for (int r = 0; r < s->regs; r++)
		memcpy(t[r], s->tot[r], sizeof t[r]);
	for (int j = 0; j < lv->m; j++) {
		LLVMValueRef up = hw_bit(s, cg_lane_id(m), lv->bit[j]);
		LLVMValueRef mask = LLVMConstInt(m->i32, 1u << lv->bit[j], 0);
		for (int r = 0; r < s->regs; r++) {
			if (!is_rep(s, r))
				continue;
			LLVMValueRef pt[MAX_OPS], late[MAX_OPS], early[MAX_OPS], pe[MAX_OPS];
			for (int k = 0; k < s->n; k++)
				pt[k] = cg_shfl(m, CG_SHFL_BFLY, t[r][k], mask);
			cg_combine(s->l, s->in, pt, t[r], late);
			cg_combine(s->l, s->in, t[r], pt, early);
			if (s->scan && j) {
				cg_combine(s->l, s->in, pt, e[r], pe);
				pick(m, has_e, pe, pt, pe, s->n);
				pick(m, up, pe, e[r], e[r], s->n);
			} else if (s->scan) {
				memcpy(e[r], pt, sizeof pt);
			}
			pick(m, up, late, early, t[r], s->n);
		}
		has_e = LLVMBuildOr(m->b, has_e, up, "");
	}
	apply(s, e, has_e, t);
}

/* The slot of this thread's block for register r at warp level lv: the
 * duplicate-free hardware bits outside the levels up to lv, packed. */
static LLVMValueRef
block_key(Scan *s, int li, int r)
{
	CgModule *m = s->l->m;
	uint64_t skip[N_HW] = {s->p->free[HW_REG], s->p->free[HW_LANE], s->p->free[HW_WARP]};
	for (int v = 0; v <= li; v++)
		skip[s->p->lv[v].kind] |= deposit(&s->p->lv[v], ~(uint64_t)0);
	LLVMValueRef key = LLVMConstInt(m->i32, 0, 0);
	LLVMValueRef ids[N_HW] = {NULL, cg_lane_id(m), cg_warp_id(m)};
	int pos = 0;
	for (int h = 0; h < N_HW; h++)
		for (int b = 0; b < s->p->bits[h]; b++) {
			if (skip[h] >> b & 1)
				continue;
			LLVMValueRef at = LLVMConstInt(m->i32, (uint64_t)pos++, 0);
			LLVMValueRef bit = h == HW_REG ? LLVMConstInt(m->i32, (uint64_t)(r >> b & 1), 0)
			                               : LLVMBuildAnd(m->b, LLVMBuildLShr(m->b, ids[h],
			                                 LLVMConstInt(m->i32, (uint64_t)b, 0), ""),
			                                 LLVMConstInt(m->i32, 1, 0), "");
			key = LLVMBuildOr(m->b, key, LLVMBuildShl(m->b, bit, at, ""), "");
		}
	return key;
}

static void
warp_level(Scan *s, const Level *lv, int li)
{
	CgModule *m = s->l->m;
	int blocks = 1 << lv->m;
	LLVMValueRef idx = LLVMConstInt(m->i32, 0, 0);
	for (int j = 0; j < lv->m; j++)
		idx = LLVMBuildOr(m->b, idx, LLVMBuildShl(m->b, LLVMBuildZExt(m->b,
		                  hw_bit(s, cg_warp_id(m), lv->bit[j]), m->i32, ""),
		                  LLVMConstInt(m->i32, (uint64_t)j, 0), ""), "");
	LLVMValueRef base[MAX_OPS];
	LLVMTypeRef st[MAX_OPS], et[MAX_OPS];
	int64_t off = 0;
	for (int k = 0; k < s->n; k++) {
		const TType *t = s->in->args[k]->type;
		LLVMValueRef o = LLVMConstInt(m->i64, (uint64_t)off, 0);
		base[k] = LLVMBuildGEP2(m->b, m->i8, cg_scratch(s->l), &o, 1, "");
		st[k] = cg_smem_elem_type(m, t);
		et[k] = cg_elem_type(m, t);
		off += (level_slots(s->p, lv) * elem_bytes(t) + 7) / 8 * 8;
	}
	/* The scratch may still be read by its previous user. */
	cg_barrier(m);
	LLVMValueRef *slot = arena_alloc(m->arena, (size_t)s->regs * sizeof *slot);
	for (int r = 0; r < s->regs; r++) {
		if (!is_rep(s, r))
			continue;
		slot[r] = LLVMBuildShl(m->b, block_key(s, li, r),
		                       LLVMConstInt(m->i32, (uint64_t)lv->m, 0), "");
		LLVMValueRef i = LLVMBuildOr(m->b, slot[r], idx, "");
		for (int k = 0; k < s->n; k++)
			LLVMBuildStore(m->b, cg_to_smem(m, s->tot[r][k], st[k]),
			               LLVMBuildGEP2(m->b, st[k], base[k], &i, 1, ""));
	}
	cg_barrier(m);
	LLVMValueRef (*e)[MAX_OPS] = arena_alloc(m->arena, (size_t)s->regs * sizeof *e);
	LLVMValueRef (*t)[MAX_OPS] = arena_alloc(m->arena, (size_t)s->regs * sizeof *t);
	for (int r = 0; r < s->regs; r++) {
		if (!is_rep(s, r))
			continue;
		for (int b = 0; b < blocks; b++) {
			LLVMValueRef i = LLVMBuildOr(m->b, slot[r], LLVMConstInt(m->i32, (uint64_t)b, 0), "");
			LLVMValueRef x[MAX_OPS];
			for (int k = 0; k < s->n; k++)
				x[k] = cg_from_smem(m, LLVMBuildLoad2(m->b, st[k],
				                    LLVMBuildGEP2(m->b, st[k], base[k], &i, 1, ""), ""), et[k]);
			if (!b) {
				memcpy(t[r], x, sizeof x);
				memcpy(e[r], x, sizeof x);
				continue;
			}
			LLVMValueRef here = LLVMBuildICmp(m->b, LLVMIntEQ, idx,
			                                  LLVMConstInt(m->i32, (uint64_t)b, 0), "");
			pick(m, here, t[r], e[r], e[r], s->n);
			cg_combine(s->l, s->in, t[r], x, t[r]);
		}
	}
	apply(s, e, LLVMBuildICmp(m->b, LLVMIntNE, idx, LLVMConstInt(m->i32, 0, 0), ""), t);
}

/* -- Results -------------------------------------------------------------------- */

/* The coordinate of register r of ly (lane and warp 0), dim `skip` left
 * out (-1: none). */
static void
reg_coord(const LLayout *ly, int rank, int r, int skip, uint32_t *c)
{
	uint32_t in[LL_MAX_DIMS] = {0}, out[LL_MAX_DIMS] = {0};
	int ri = ll_in_index(ly, LL_REGISTER);
	if (ri >= 0)
		in[ri] = (uint32_t)r;
	ll_apply(ly, in, out);
	for (int d = 0, k = 0; d < rank; d++) {
		if (d == skip)
			continue;
		int j = ll_out_index(ly, (LLName)(LL_DIM0 + d));
		c[k++] = j >= 0 ? out[j] : 0;
	}
}

/* Whether every lane and warp basis of the reduction result res is the
 * operand's with the axis left out. */
static bool
threads_agree(const LLayout *op, int rank, int axis, const TType *res)
{
	if (res->kind != TY_TENSOR)
		return true;
	const LLayout *rl = &res->layout.ll;
	for (int h = HW_LANE; h < N_HW; h++) {
		int io = ll_in_index(op, hw_name[h]), ir = ll_in_index(rl, hw_name[h]);
		int bits = io < 0 ? 0 : op->in_bits[io];
		if (bits != (ir < 0 ? 0 : rl->in_bits[ir]))
			return false;
		for (int b = 0; b < bits; b++) {
			uint32_t vo[LL_MAX_DIMS], vr[LL_MAX_DIMS];
			ll_get_basis(op, io, b, vo);
			ll_get_basis(rl, ir, b, vr);
			for (int d = 0, k = 0; d < rank; d++) {
				if (d == axis)
					continue;
				int jo = ll_out_index(op, (LLName)(LL_DIM0 + d));
				int jr = ll_out_index(rl, (LLName)(LL_DIM0 + k++));
				if ((jo >= 0 ? vo[jo] : 0) != (jr >= 0 ? vr[jr] : 0))
					return false;
			}
		}
	}
	return true;
}

/* The reduction's results: each result register takes the total of an
 * operand register at its coordinate. */
static bool
reduce_results(Scan *s, CgVal *out)
{
	const TInst *in = s->in;
	const TType *op = in->args[0]->type;
	const TType *rt = in->res->type->kind == TY_TUPLE ? in->res->type->elems[0] : in->res->type;
	if (!threads_agree(&op->layout.ll, op->rank, in->attr.axis, rt))
		return false;
	int n = cg_type_regs(rt);
	*out = cg_val_new(s->l, n * s->n);
	for (int i = 0; i < n; i++) {
		uint32_t want[LL_MAX_RANK] = {0}, have[LL_MAX_RANK];
		if (rt->kind == TY_TENSOR)
			reg_coord(&rt->layout.ll, rt->rank, i, -1, want);
		int r = 0;
		for (; r < s->regs; r++) {
			reg_coord(&op->layout.ll, op->rank, r, in->attr.axis, have);
			if (memcmp(want, have, (size_t)(op->rank - 1) * sizeof *have) == 0)
				break;
		}
		if (r == s->regs)
			return false;
		for (int k = 0; k < s->n; k++)
			out->r[k * n + i] = s->tot[r][k];
	}
	return true;
}

bool
cg_lower_scan(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	Plan p;
	if (in->n_args > MAX_OPS || !plan(in->args[0]->type, in->attr.axis, &p)) {
		cg_unsupported(l, in, "a scan or reduction whose layout moves a register, lane or "
		               "warp bit along the axis and across it (convert_layout to a "
		               "BlockedLayout first)");
		return false;
	}
	Scan s = {.l = l, .in = in, .p = &p, .n = in->n_args,
	          .regs = cg_type_regs(in->args[0]->type), .scan = in->op == OP_SCAN,
	          .reverse = in->attr.reverse};
	s.pre = arena_alloc(m->arena, (size_t)s.regs * sizeof *s.pre);
	s.tot = arena_alloc(m->arena, (size_t)s.regs * sizeof *s.tot);
	for (int k = 0; k < s.n; k++) {
		CgVal x = cg_val(l, in->args[k]);
		for (int r = 0; r < s.regs; r++)
			s.pre[r][k] = s.tot[r][k] = x.r[r];
	}
	for (int v = 0; v < p.n_lv; v++) {
		switch (p.lv[v].kind) {
		case HW_REG: reg_level(&s, &p.lv[v]); break;
		case HW_LANE: lane_level(&s, &p.lv[v]); break;
		case HW_WARP: warp_level(&s, &p.lv[v], v); break;
		}
	}
	CgVal out;
	if (s.scan) {
		out = cg_val_new(l, s.regs * s.n);
		for (int k = 0; k < s.n; k++)
			for (int r = 0; r < s.regs; r++)
				out.r[k * s.regs + r] = s.pre[r][k];
	} else if (!reduce_results(&s, &out)) {
		cg_unsupported(l, in, "this reduction's result layout (its threads hold other "
		               "elements than the operand's)");
		return false;
	}
	l->vals[in->res->id] = out;
	return true;
}
