/*
 * warpgroup_mma and warpgroup_mma_wait. Each warpgroup (4 consecutive
 * warps) issues m64nNkK wgmma.mma_async instructions (wgmma.c has the
 * forms) for its 64-row slices of the accumulator, reading B from shared
 * memory through a matrix descriptor (codegen/ops/wgmma_desc.c) and A from
 * shared memory the same way or from registers.
 *
 * The accumulator's registers are matched to the instruction's fragment
 * (register i of m64nN: row 8 * (i/2 % 2), column 8 * (i/4) + i % 2, lanes
 * and warps as NVMMADistributedLayout v3) through the layout's register
 * bases, so any register order that holds the same elements works; the
 * values stay in registers and pass straight between instructions. A in
 * registers is matched the same way (mma_frag.c: DotOperandLayout of the
 * accumulator's layout), packed into four 32-bit words.
 *
 * The instruction width n is the widest multiple of 8 up to 256 dividing N
 * whose fragments each register is in exactly once; the columns (and rows)
 * of the other warpgroups come from the warp bits at run time.
 *
 * fp8 operands with an f32 accumulator and attr.count = max_num_imprecise_acc
 * (sema sets it only then) accumulate in chunks of ceil(count / 32)
 * instructions into fresh registers, which are waited for and added to the
 * accumulator in f32, as Triton does.
 */
#include "codegen/ops/mma.h"
#include "codegen/ops/ops.h"

enum { WG_ROWS = 64, MAX_N = 256, A_WORDS = 4 };

/* Coordinate `dim` (i32) of this thread's warpgroup: the XOR of the warp
 * bases from bit 2 up whose bits are set in the warp id. */
static LLVMValueRef
warpgroup_coord(Lower *l, const LLayout *ly, int dim)
{
	CgModule *m = l->m;
	int wi = ll_in_index(ly, LL_WARP), j = ll_out_index(ly, (LLName)(LL_DIM0 + dim));
	LLVMValueRef c = LLVMConstInt(m->i32, 0, 0);
	LLVMValueRef w = LLVMBuildSub(m->b, cg_warp_id(m),
	                              LLVMConstInt(m->i32, (uint64_t)l->first_warp, 0), "");
	uint32_t v[LL_MAX_DIMS];
	for (int b = 2; b < ly->in_bits[wi]; b++) {
		ll_get_basis(ly, wi, b, v);
		LLVMValueRef bit = LLVMBuildAnd(m->b, w, LLVMConstInt(m->i32, 1u << b, 0), "");
		LLVMValueRef on = LLVMBuildICmp(m->b, LLVMIntNE, bit, LLVMConstInt(m->i32, 0, 0), "");
		c = LLVMBuildXor(m->b, c,
		                 LLVMBuildSelect(m->b, on, LLVMConstInt(m->i32, v[j], 0),
		                                 LLVMConstInt(m->i32, 0, 0), ""), "");
	}
	return c;
}

/* Whether some warp basis of ly moves along dim (from bit 2 up). */
static bool
warps_move(const LLayout *ly, int dim)
{
	int wi = ll_in_index(ly, LL_WARP);
	for (int b = 2; b < ly->in_bits[wi]; b++) {
		int64_t c[2];
		cg_basis2(ly, LL_WARP, b, c);
		if (c[dim])
			return true;
	}
	return false;
}

/* One instruction's slice of the accumulator: its first row and column at
 * lane 0, warp 0, and the register of each of its n/2 fragment elements. */
typedef struct Slice {
	int64_t m0, n0;
	int *frag;
	LLVMValueRef *cur;     /* the accumulator elements, fragment order */
	LLVMValueRef *part;    /* chunked accumulation: this chunk's sum */
} Slice;

/* Finds the registers of the slice at (m0, n0) of width n; returns how many
 * of its n/2 elements the registers hold. */
static int
fragment(const CgCoord2 *rc, int regs, int64_t m0, int64_t n0, int n, int *frag)
{
	int found = 0;
	for (int i = 0; i < n / 2; i++) {
		int64_t row = m0 + 8 * (i >> 1 & 1), col = n0 + 8 * (i >> 2) + (i & 1);
		frag[i] = -1;
		for (int r = 0; r < regs && frag[i] < 0; r++)
			if (rc[r][0] == row && rc[r][1] == col)
				frag[i] = r;
		found += frag[i] >= 0;
	}
	return found;
}

/* The slices of instruction width n: every slice whose elements the
 * registers hold all of; 0 when some slice is held in part or some
 * register in none. */
static int
slices_of(Lower *l, const TType *ct, const CgCoord2 *rc, int regs, int n, Slice *out)
{
	int64_t M = ct->shape[0], N = ct->shape[1];
	int k = 0, done = 0;
	int *frag = arena_alloc(l->m->arena, (size_t)n / 2 * sizeof *frag);
	for (int64_t m0 = 0; m0 < M; m0 += WG_ROWS)
		for (int64_t n0 = 0; n0 < N; n0 += n) {
			int found = fragment(rc, regs, m0, n0, n, frag);
			if (found == 0)
				continue;
			if (found != n / 2)
				return 0;
			out[k] = (Slice){m0, n0, frag, NULL, NULL};
			frag = arena_alloc(l->m->arena, (size_t)n / 2 * sizeof *frag);
			done += n / 2;
			k++;
		}
	return done == regs ? k : 0;
}

/* The widest instruction (from min(N, 256) down by halves) whose slices
 * cover the registers; its slices into *out. 0 when none does. */
static int
pick_width(Lower *l, const TType *ct, int regs, Slice **out, int *n_slices)
{
	CgCoord2 *rc = cg_reg_coords(l->m->arena, &ct->layout.ll, regs);
	int64_t N = ct->shape[1];
	*out = arena_alloc(l->m->arena, (size_t)regs * sizeof **out);
	for (int n = N < MAX_N ? (int)N : MAX_N; n >= 8 && n % 8 == 0; n /= 2)
		if (N % n == 0 && (*n_slices = slices_of(l, ct, rc, regs, n, *out)) > 0)
			return n;
	return 0;
}

/* acc + part per element (f32), or part alone where use (i1, may be NULL:
 * always) is false. */
static void
add_part(CgModule *m, LLVMValueRef use, LLVMValueRef *acc, const LLVMValueRef *part, int n)
{
	for (int i = 0; i < n; i++) {
		LLVMValueRef s = LLVMBuildFAdd(m->b, acc[i], part[i], "");
		acc[i] = use ? LLVMBuildSelect(m->b, use, s, part[i], "") : s;
	}
}

/* Concatenates (cur or part) of the slices, waits for every group with them
 * tied through the wait, and puts them back. */
static void
wait_slices(CgModule *m, TDType d, Slice *s, int ns, int per, bool part)
{
	LLVMValueRef *all = arena_alloc(m->arena, (size_t)(ns * per) * sizeof *all);
	for (int i = 0; i < ns; i++)
		for (int j = 0; j < per; j++)
			all[i * per + j] = part ? s[i].part[j] : s[i].cur[j];
	cg_wgmma_wait_tied(m, 0, d, all, ns * per, all);
	for (int i = 0; i < ns; i++)
		for (int j = 0; j < per; j++)
			(part ? s[i].part : s[i].cur)[j] = all[i * per + j];
}

static bool
lower_mma(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const TType *at = in->args[0]->type, *bt = in->args[1]->type, *ct = in->res->type;
	const LLayout *ly = &ct->layout.ll;
	static const int64_t lane_bases[5][2] = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
	static const int64_t warp_bases[2][2] = {{16, 0}, {32, 0}};
	bool a_regs = at->kind == TY_TENSOR;
	int kk = cg_wgmma_k(at->dtype);
	if (ct->rank != 2 || at->rank != 2 || !kk || !cg_bases_are(ly, LL_LANE, lane_bases, 5) ||
	    !cg_bases_are(ly, LL_WARP, warp_bases, 2) ||
	    (a_regs && !cg_mma_operand_fits(&at->layout.ll, ly, 0, 32 / ir_dtype_bits(at->dtype)))) {
		cg_unsupported(l, in, "this WGMMA operand layout (the accumulator must be a version "
		               "3 NVMMADistributedLayout, A in registers its DotOperandLayout)");
		return false;
	}
	CgWgmmaOperand a, b;
	if ((!a_regs && !cg_wgmma_operand(l, in, in->args[0], 0, &a)) ||
	    !cg_wgmma_operand(l, in, in->args[1], 1, &b))
		return false;
	int regs = cg_type_regs(ct), ns;
	int64_t K = at->shape[1], M = ct->shape[0], N = ct->shape[1];
	Slice *sl;
	CgWgmma f = {pick_width(l, ct, regs, &sl, &ns), at->dtype, bt->dtype, ct->dtype, a_regs,
	             !a_regs && a.mn_major, b.mn_major};
	if (!f.n || K % kk || !cg_wgmma_valid(&f)) {
		cg_unsupported(l, in, "this WGMMA form (shape, dtypes or operand majorness)");
		return false;
	}
	int per = f.n / 2, steps = (int)(K / kk);
	bool split = in->attr.count > 0;
	int chunk = split ? (int)((in->attr.count + kk - 1) / kk) : steps;
	CgVal acc = cg_val(l, in->args[2]), res = cg_val_new(l, regs);
	LLVMValueRef use_acc = in->attr.has_use_acc ? cg_val(l, in->args[3]).r[0] : NULL;
	LLVMValueRef rt_a = NULL, rt_b = NULL;
	if (!a_regs)
		rt_a = cg_wgmma_mn_offset(l, &a, warpgroup_coord(l, ly, 0), WG_ROWS, M);
	if (warps_move(ly, 1))
		rt_b = cg_wgmma_mn_offset(l, &b, warpgroup_coord(l, ly, 1), f.n, N);
	/* A's words (before the fence: no register is written between it and
	 * the mmas), indexed by slice row block and k step. */
	LLVMValueRef *aw = NULL;
	if (a_regs) {
		CgVal av = cg_val(l, in->args[0]);
		CgCoord2 *rc = cg_reg_coords(m->arena, &at->layout.ll, av.n);
		aw = arena_alloc(m->arena, (size_t)(ns * steps * A_WORDS) * sizeof *aw);
		for (int s = 0; s < ns; s++)
			for (int k = 0; k < steps; k++)
				if (!cg_mma_frag_words(m, at->dtype, av, rc, 0, sl[s].m0, (int64_t)k * kk,
				                       &aw[(s * steps + k) * A_WORDS])) {
					cg_unsupported(l, in, "A in registers that do not hold its WGMMA "
					               "fragments");
					return false;
				}
	}
	for (int s = 0; s < ns; s++) {
		sl[s].cur = arena_alloc(m->arena, (size_t)per * sizeof *sl[s].cur);
		sl[s].part = arena_alloc(m->arena, (size_t)per * sizeof *sl[s].part);
		for (int i = 0; i < per; i++)
			sl[s].cur[i] = acc.r[sl[s].frag[i]];
	}
	/* An accumulator of constant zeros starts fresh (poison inputs,
	 * scale-d false), so no register is set between fence and mma. */
	bool zero = true;
	for (int r = 0; r < regs; r++)
		zero &= LLVMIsConstant(acc.r[r]) && LLVMIsNull(acc.r[r]);
	LLVMValueRef one = LLVMConstInt(m->i1, 1, 0);
	for (int c0 = 0; c0 < steps; c0 += chunk) {
		cg_wgmma_fence(m);
		for (int s = 0; s < ns; s++) {
			LLVMValueRef *in_v = split || zero ? NULL : sl[s].cur;
			LLVMValueRef *out_v = split ? sl[s].part : sl[s].cur;
			for (int k = c0; k < steps && k < c0 + chunk; k++) {
				LLVMValueRef da = a_regs ? NULL
				                : cg_wgmma_desc(l, &a, sl[s].m0, (int64_t)k * kk, rt_a);
				LLVMValueRef db = cg_wgmma_desc(l, &b, sl[s].n0, (int64_t)k * kk, rt_b);
				LLVMValueRef sd = k ? one : use_acc ? use_acc : one;
				cg_wgmma_mma(m, &f, in_v, da, aw ? &aw[(s * steps + k) * A_WORDS] : NULL, db,
				             sd, out_v);
				in_v = out_v;
			}
		}
		if (!split)
			continue;
		/* This chunk's sums are read by the adds: wait for them (and for
		 * the accumulator that came in, which an async MMA may still
		 * write). */
		cg_wgmma_commit(m);
		wait_slices(m, f.d, sl, ns, per, true);
		if (c0 == 0)
			wait_slices(m, f.d, sl, ns, per, false);
		for (int s = 0; s < ns; s++)
			add_part(m, c0 == 0 ? use_acc : NULL, sl[s].cur, sl[s].part, per);
	}
	cg_wgmma_commit(m);
	for (int s = 0; s < ns; s++)
		for (int i = 0; i < per; i++)
			res.r[sl[s].frag[i]] = sl[s].cur[i];
	if (!in->attr.is_async)
		cg_wgmma_wait_tied(m, 0, f.d, res.r, regs, res.r);
	l->vals[in->res->id] = res;
	return true;
}

bool
cg_lower_wgmma(Lower *l, const TInst *in)
{
	if (in->op == OP_WGMMA)
		return lower_mma(l, in);
	/* OP_WGMMA_WAIT: the first dependency's registers pass through the
	 * wait when they are accumulator words (f32, i32, pairs of f16);
	 * further dependencies only need the wait itself. */
	CgModule *m = l->m;
	const TType *t = in->n_args ? in->args[0]->type : NULL;
	CgVal v = t ? cg_val(l, in->args[0]) : (CgVal){0};
	bool tied = t && t->kind == TY_TENSOR && !t->elem_is_ptr &&
	            (t->dtype == DT_F32 || t->dtype == DT_I32 || (t->dtype == DT_F16 && v.n % 2 == 0));
	if (!tied) {
		cg_wgmma_wait(m, (int)in->attr.count);
		if (in->res && t)
			l->vals[in->res->id] = v;
		return true;
	}
	CgVal r = cg_val_new(l, v.n);
	cg_wgmma_wait_tied(m, (int)in->attr.count, t->dtype, v.r, v.n, r.r);
	if (in->res)
		l->vals[in->res->id] = r;
	return true;
}
