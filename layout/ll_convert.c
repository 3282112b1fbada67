/* convert_layout planning (Triton's minimalCvtLayout + quotienting): free
 * register renaming, warp shuffles, or a swizzled shared-memory round trip
 * whose swizzle keeps both sides free of bank conflicts where possible. */
#include "layout/ll_internal.h"

#include <string.h>

const char *
ll_cvt_kind_str(LLCvtKind k)
{
	switch (k) {
	case LL_CVT_FREE: return "free";
	case LL_CVT_SHUFFLE: return "shuffle";
	case LL_CVT_SHARED: return "shared";
	}
	return "?";
}

static bool
check_distributed(const LLayout *l, const char *which, LLErr *err)
{
	if (ll_in_index(l, LL_REGISTER) != 0 || ll_in_bits(l, LL_LANE) != 5 ||
	    ll_in_index(l, LL_WARP) < 0)
		return ll_fail(err, "convert_layout: the %s layout is not a distributed layout of "
		                    "32-lane warps", which);
	if (!ll_is_surjective(l))
		return ll_fail(err, "convert_layout: the %s layout does not cover its shape", which);
	return true;
}

/* Register renaming: dst register r is src register C(r). */
static void
plan_free(LLCvtPlan *p, Arena *a)
{
	p->reg_perm = arena_alloc(a, sizeof(int) * (size_t)p->n_dst_regs);
	int oj = ll_out_index(&p->map, LL_REGISTER);
	for (int r = 0; r < p->n_dst_regs; r++) {
		uint32_t v[LL_MAX_DIMS];
		ll_unpack_out(&p->map, ll_apply_packed(&p->map, (uint64_t)r), v);
		p->reg_perm[r] = oj < 0 ? 0 : (int)v[oj];
	}
}

/* Shuffle rounds: each round every lane receives one still-missing value;
 * a sender serves every receiver that asks it for the same register. */
static void
plan_shuffle(LLCvtPlan *p, Arena *a)
{
	VEC(LLShuffleRound) rounds = {0};
	const LLayout *c = &p->map;
	int rb = ll_in_bits(c, LL_REGISTER), ro = ll_out_index(c, LL_REGISTER);
	int lo = ll_out_index(c, LL_LANE), nd = p->n_dst_regs;
	uint8_t *want_lane = arena_alloc(a, (size_t)(32 * nd));
	int *want_reg = arena_alloc(a, sizeof(int) * (size_t)(32 * nd));
	bool *done = arena_alloc(a, (size_t)(32 * nd));
	for (int l = 0; l < 32; l++)
		for (int r = 0; r < nd; r++) {
			uint32_t v[LL_MAX_DIMS];
			ll_unpack_out(c, ll_apply_packed(c, (uint64_t)r | (uint64_t)l << rb), v);
			want_lane[l * nd + r] = (uint8_t)v[lo];
			want_reg[l * nd + r] = ro < 0 ? 0 : (int)v[ro];
		}
	int left = 32 * nd;
	int first[32] = {0}; /* lane l's registers below first[l] are all done */
	while (left) {
		LLShuffleRound s;
		memset(&s, 0, sizeof s);
		bool chosen[32] = {false};
		for (int l = 0; l < 32; l++) {
			s.src_lane[l] = (uint8_t)l;
			while (first[l] < nd && done[l * nd + first[l]])
				first[l]++;
			for (int r = first[l]; r < nd; r++) {
				int k = l * nd + r, from = want_lane[k];
				if (done[k] || (chosen[from] && s.send_reg[from] != want_reg[k]))
					continue;
				chosen[from] = true;
				s.send_reg[from] = want_reg[k];
				s.src_lane[l] = (uint8_t)from;
				s.dst_reg[l] = r;
				s.recv_mask |= 1u << l;
				done[k] = true;
				left--;
				break;
			}
		}
		vec_push(a, &rounds, s);
	}
	p->rounds = rounds.data;
	p->n_rounds = (int)rounds.len;
}

/* Columns of in-dim `name` of l (nonzero ones), at most `max`. */
static int
columns(const LLayout *l, LLName name, int max, uint64_t *out)
{
	int i = ll_in_index(l, name), n = 0;
	if (i < 0)
		return 0;
	for (int k = 0; k < l->in_bits[i] && k < max; k++)
		if (l->col[ll_in_start(l, i) + k])
			out[n++] = l->col[ll_in_start(l, i) + k];
	return n;
}

static int
span_rank(const uint64_t *a, int na, const uint64_t *b, int nb)
{
	LLGf2 g;
	ll_gf2_init(&g);
	for (int i = 0; i < na; i++)
		ll_gf2_insert(&g, a[i], 0);
	for (int i = 0; i < nb; i++)
		ll_gf2_insert(&g, b[i], 0);
	return g.rank;
}

/* dim((X ∩ (L + Low)) / Low): lane combinations that X sends to another
 * word of the same bank (X contains Low). */
static int
bad(const uint64_t *x, int nx, const uint64_t *lanes, int nl, int low_with_lanes, int low)
{
	return nx + low_with_lanes - low - span_rank(x, nx, lanes, nl);
}

typedef struct Cands {
	uint64_t v[1024];
	int n;
} Cands;

static void
cand_add(Cands *c, uint64_t v)
{
	if (!v || c->n >= (int)(sizeof c->v / sizeof c->v[0]))
		return;
	for (int i = 0; i < c->n; i++)
		if (c->v[i] == v)
			return;
	c->v[c->n++] = v;
}

/* One side of the round trip: its lanes of one access phase, and how many
 * low offset bits (x[0..low)) stay inside one of its accesses. */
typedef struct Side {
	uint64_t lanes[5];
	int nl, low, low_with_lanes;
} Side;

static void
side_init(Side *s, const LLayout *l, int vs, int lb)
{
	int p = 5 - (vs + lb > 2 ? vs + lb - 2 : 0);
	s->nl = columns(l, LL_LANE, p, s->lanes);
	s->low = vs > 2 - lb ? vs : (2 - lb > 0 ? 2 - lb : 0);
}

/* Lane combinations of side s that the low bits x[0..s->low) and the high
 * bits hi[0..nh) send to another word of the same bank. */
static int
side_bad(const Side *s, const uint64_t *x, const uint64_t *hi, int nh)
{
	uint64_t xs[LL_MAX_BITS];
	memcpy(xs, x, sizeof xs[0] * (size_t)s->low);
	memcpy(xs + s->low, hi, sizeof xs[0] * (size_t)nh);
	return bad(xs, s->low + nh, s->lanes, s->nl, s->low_with_lanes, s->low);
}

/* Picks the scratch layout: offset bits = vector | sub-word | bank | high.
 * The vector vec[0..v) serves the source side's accesses when vs_src = v
 * and the destination's when vs_dst = v (0: that side accesses single
 * elements); the high bits are chosen so that neither side's phase of
 * lanes meets another word of the same bank. */
static void
choose_smem(const LLayout *src, const LLayout *dst, int lb, const uint64_t *vec, int v,
            int vs_src, int vs_dst, LLayout *smem)
{
	int n = ll_total_out_bits(src);
	uint64_t sreg[LL_MAX_BITS], dreg[LL_MAX_BITS], x[LL_MAX_BITS];
	int nsr = columns(src, LL_REGISTER, LL_MAX_BITS, sreg);
	int ndr = columns(dst, LL_REGISTER, LL_MAX_BITS, dreg);
	LLGf2 g;
	ll_gf2_init(&g);
	int nx = 0;
	/* Other bits must not XOR into unit vector bits: that would permute
	 * a vector's elements per thread. */
	uint64_t vmask = 0;
	for (int i = 0; i < v; i++) {
		if (ll_gf2_insert(&g, vec[i], 0))
			x[nx++] = vec[i];
		vmask |= vec[i];
	}
	for (int i = 0; i < v; i++)
		if (vec[i] & (vec[i] - 1))
			vmask = 0;
	Side ss, ds;
	side_init(&ss, src, vs_src, lb);
	side_init(&ds, dst, vs_dst, lb);
	const uint64_t *sl = ss.lanes, *dl = ds.lanes;
	int nsl = ss.nl, ndl = ds.nl;
	Cands lanes = {.n = 0}, all = {.n = 0};
	for (int i = 0; i < nsl; i++)
		for (int j = 0; j < ndl; j++)
			if (sl[i] == dl[j])
				cand_add(&lanes, sl[i]);
	for (int i = 0; i < nsl; i++)
		cand_add(&lanes, sl[i]);
	for (int i = 0; i < ndl; i++)
		cand_add(&lanes, dl[i]);
	for (int b = 0; b < n; b++)
		cand_add(&lanes, 1ull << b);
	/* Sub-word bits (accesses under 4 bytes): lanes sharing a word. */
	int sw = 2 - lb - nx > 0 ? 2 - lb - nx : 0;
	int want = nx + sw;
	for (int i = 0; i < lanes.n && nx < want && nx < n; i++)
		if (!(lanes.v[i] & vmask) && ll_gf2_insert(&g, lanes.v[i], 0))
			x[nx++] = lanes.v[i];
	int low = nx;
	if (ss.low > low)
		ss.low = low;
	if (ds.low > low)
		ds.low = low;
	int nb = 7 - lb - low;
	if (nb > n - low)
		nb = n - low;
	/* High bits: avoid the phase lanes of both sides. */
	for (int b = 0; b < n; b++)
		cand_add(&all, 1ull << b);
	for (int i = 0; i < nsr; i++)
		cand_add(&all, sreg[i]);
	for (int i = 0; i < ndr; i++)
		cand_add(&all, dreg[i]);
	uint64_t w[LL_MAX_BITS];
	int nw = columns(src, LL_WARP, LL_MAX_BITS, w);
	for (int i = 0; i < nw; i++)
		cand_add(&all, w[i]);
	nw = columns(dst, LL_WARP, LL_MAX_BITS, w);
	for (int i = 0; i < nw; i++)
		cand_add(&all, w[i]);
	for (int i = 0; i < nsl; i++)
		for (int j = 0; j < ndl; j++)
			cand_add(&all, sl[i] ^ dl[j]);
	for (int b = 0; b < n; b++) {
		for (int i = 0; i < nsl; i++)
			cand_add(&all, (1ull << b) ^ sl[i]);
		for (int i = 0; i < ndl; i++)
			cand_add(&all, (1ull << b) ^ dl[i]);
	}
	ss.low_with_lanes = span_rank(x, ss.low, sl, nsl);
	ds.low_with_lanes = span_rank(x, ds.low, dl, ndl);
	int h = n - low - nb;
	uint64_t high[LL_MAX_BITS];
	for (int k = 0; k < h; k++) {
		int best = -1, best_cost = 1 << 30;
		for (int i = 0; i < all.n && best_cost > 0; i++) {
			if ((all.v[i] & vmask) || ll_gf2_reduce(&g, all.v[i], NULL) == 0)
				continue;
			high[k] = all.v[i];
			int cost = side_bad(&ss, x, high, k + 1) + side_bad(&ds, x, high, k + 1);
			if (cost < best_cost)
				best_cost = cost, best = i;
		}
		ll_gf2_insert(&g, all.v[best], 0);
		high[k] = all.v[best];
	}
	/* Bank bits: any completion (conflicts depend only on low + high). */
	nx = low;
	for (int i = 0; i < lanes.n && nx < low + nb; i++)
		if (!(lanes.v[i] & vmask) && ll_gf2_insert(&g, lanes.v[i], 0))
			x[nx++] = lanes.v[i];
	for (int k = 0; k < h; k++)
		x[nx++] = high[k];
	*smem = ll_empty();
	ll_add_in(smem, LL_OFFSET, n);
	for (int j = 0; j < src->n_out; j++)
		ll_add_out(smem, (LLName)src->out_name[j], src->out_bits[j]);
	ll_add_in(smem, LL_BLOCK, 0);
	memcpy(smem->col, x, sizeof x[0] * (size_t)n);
}

/* Vector bases held in registers on both sides, up to `cap`. */
static int
common_vector(const LLayout *src, const LLayout *dst, int cap, uint64_t *vec)
{
	uint64_t sreg[LL_MAX_BITS], dreg[LL_MAX_BITS];
	int nsr = columns(src, LL_REGISTER, LL_MAX_BITS, sreg);
	int ndr = columns(dst, LL_REGISTER, LL_MAX_BITS, dreg);
	LLGf2 g;
	ll_gf2_init(&g);
	int v = 0;
	for (int i = 0; i < nsr && v < cap; i++)
		for (int j = 0; j < ndr; j++)
			if (sreg[i] == dreg[j] && ll_gf2_insert(&g, sreg[i], 0)) {
				vec[v++] = sreg[i];
				break;
			}
	return v;
}

/* l's first register bases (register bits 0, 1, ...: one vector access of
 * consecutive registers), up to `cap`. */
static int
own_vector(const LLayout *l, int cap, uint64_t *vec)
{
	int ri = ll_in_index(l, LL_REGISTER);
	LLGf2 g;
	ll_gf2_init(&g);
	int v = 0;
	while (ri >= 0 && v < cap && v < l->in_bits[ri]) {
		uint64_t c = l->col[ll_in_start(l, ri) + v];
		if (!c || !ll_gf2_insert(&g, c, 0))
			break;
		vec[v++] = c;
	}
	return v;
}

/* Shared-memory wavefronts (then instructions) per warp of a plan. */
static int64_t
plan_cost(const LLCvtPlan *p, int64_t *instrs)
{
	int64_t st = p->n_src_regs / p->store_cost.vec, ld = p->n_dst_regs / p->load_cost.vec;
	*instrs = st + ld;
	return st * p->store_cost.wavefronts + ld * p->load_cost.wavefronts;
}

/* The plan through scratch layout vec[0..v) serving the sides named. */
static bool
try_shared(const LLayout *src, const LLayout *dst, const uint64_t *vec, int v, bool for_src,
           bool for_dst, LLCvtPlan *p, LLErr *err)
{
	int lb = ll_log2((uint64_t)(p->bitwidth / 8));
	choose_smem(src, dst, lb, vec, v, for_src ? v : 0, for_dst ? v : 0, &p->smem);
	if (!ll_invert_and_compose(src, &p->smem, &p->store, err) ||
	    !ll_invert_and_compose(dst, &p->smem, &p->load, err))
		return false;
	ll_access_cost(&p->store, p->bitwidth, &p->store_cost);
	ll_access_cost(&p->load, p->bitwidth, &p->load_cost);
	return true;
}

/* Candidate scratch layouts: a vector common to both sides, or the first
 * 1, 2, ... of the source's or the destination's own register bases (the
 * other side then accesses single elements through the swizzle). The
 * fewest wavefronts win, then the fewest instructions. */
static bool
plan_shared(const LLayout *src, const LLayout *dst, LLCvtPlan *p, LLErr *err)
{
	int cap = 4 - ll_log2((uint64_t)(p->bitwidth / 8));
	uint64_t vec[3][4];
	int v[3] = {common_vector(src, dst, cap, vec[0]), own_vector(src, cap, vec[1]),
	            own_vector(dst, cap, vec[2])};
	LLCvtPlan best = *p;
	int64_t best_cost = -1, best_instrs = 0;
	for (int c = 0; c < 3; c++)
		for (int k = c == 0 ? v[0] : v[0] + 1; k <= v[c]; k++) {
			LLCvtPlan q = *p;
			if (!try_shared(src, dst, vec[c], k, c != 2, c != 1, &q, err))
				return false;
			int64_t instrs, cost = plan_cost(&q, &instrs);
			if (best_cost < 0 || cost < best_cost ||
			    (cost == best_cost && instrs < best_instrs)) {
				best = q;
				best_cost = cost;
				best_instrs = instrs;
			}
		}
	*p = best;
	p->scratch_bytes = (int64_t)(p->bitwidth / 8) << ll_total_out_bits(src);
	p->smem_rounds = 1;
	return true;
}

static bool
zero_basis(const LLayout *l, int i, int bit)
{
	uint32_t v[LL_MAX_DIMS];
	ll_get_basis(l, i, bit, v);
	for (int j = 0; j < l->n_out; j++)
		if (v[j])
			return false;
	return true;
}

/* A lane, warp or block bit along which both layouts broadcast (a zero
 * basis in each) holds the same element either way, so the conversion map
 * may keep it (identity on that bit) instead of the smallest preimage's
 * choice of clearing it; then quotienting can drop the dim and a layout
 * converted to itself is free. */
static void
keep_broadcast(LLayout *c, const LLayout *src, const LLayout *dst)
{
	static const LLName hw[] = {LL_LANE, LL_WARP, LL_BLOCK};
	for (int h = 0; h < 3; h++) {
		int is = ll_in_index(src, hw[h]), id = ll_in_index(dst, hw[h]);
		int ci = ll_in_index(c, hw[h]), co = ll_out_index(c, hw[h]);
		if (is < 0 || id < 0 || ci < 0 || co < 0)
			continue;
		for (int b = 0; b < c->in_bits[ci] && b < src->in_bits[is]; b++)
			if (zero_basis(src, is, b) && zero_basis(dst, id, b)) {
				uint32_t v[LL_MAX_DIMS] = {0};
				v[co] = 1u << b;
				ll_set_basis(c, ci, b, v);
			}
	}
}

/* Why a conversion whose map keeps the block dim is refused: the elements
 * a destination CTA needs sit in other CTAs of the source, or sit in its
 * own but not as in CTA 0 (the block bases differ). */
static bool
cluster_refusal(const LLayout *src, const LLayout *dst, LLErr *err)
{
	LLErr why = {err->arena, NULL};
	if (!ll_cta_covers(src, dst, &why))
		return ll_fail(err, "convert_layout moves elements between the CTAs of the cluster "
		                    "(the destination: %s); that needs a copy through distributed "
		                    "shared memory, which glc does not plan", why.msg);
	return ll_fail(err, "convert_layout: every CTA holds the elements it needs, but the "
	                    "layouts' block bases differ, so CTAs would convert differently; glc "
	                    "plans conversions whose CTAs all move their elements as CTA 0 does");
}

bool
ll_plan_convert(const LLayout *src, const LLayout *dst, int bitwidth, LLCvtPlan *plan,
                LLErr *err)
{
	memset(plan, 0, sizeof *plan);
	plan->bitwidth = bitwidth;
	if (bitwidth != 8 && bitwidth != 16 && bitwidth != 32 && bitwidth != 64)
		return ll_fail(err, "convert_layout: element bitwidth %d is not 8, 16, 32 or 64",
		               bitwidth);
	if (!check_distributed(src, "source", err) || !check_distributed(dst, "destination", err))
		return false;
	if (ll_in_bits(src, LL_WARP) != ll_in_bits(dst, LL_WARP))
		return ll_fail(err, "convert_layout: the layouts use different numbers of warps");
	if (ll_in_bits(src, LL_BLOCK) != ll_in_bits(dst, LL_BLOCK))
		return ll_fail(err, "convert_layout: the layouts span different numbers of CTAs (%d "
		                    "and %d)", 1 << ll_in_bits(src, LL_BLOCK), 1 << ll_in_bits(dst, LL_BLOCK));
	LLayout c;
	if (!ll_invert_and_compose(dst, src, &c, err))
		return false;
	keep_broadcast(&c, src, dst);
	const LLName dims[3] = {LL_BLOCK, LL_WARP, LL_LANE};
	for (int i = 0; i < 3 && ll_quotient(&c, dims[i], &c); i++)
		;
	if (ll_in_index(&c, LL_BLOCK) >= 0)
		return cluster_refusal(src, dst, err);
	if (ll_in_bits(src, LL_BLOCK) > 0) {
		/* every CTA converts its own part as CTA 0 does: plan that */
		LLayout s, d;
		return ll_cta_squeeze(src, src, &s, err) && ll_cta_squeeze(src, dst, &d, err) &&
		       ll_plan_convert(&s, &d, bitwidth, plan, err);
	}
	plan->map = c;
	plan->n_src_regs = 1 << ll_in_bits(src, LL_REGISTER);
	plan->n_dst_regs = 1 << ll_in_bits(dst, LL_REGISTER);
	bool has_lane = ll_in_index(&c, LL_LANE) >= 0, has_warp = ll_in_index(&c, LL_WARP) >= 0 ||
	                                                       ll_in_index(&c, LL_BLOCK) >= 0;
	if (!has_lane && !has_warp) {
		plan->kind = LL_CVT_FREE;
		plan_free(plan, err->arena);
	} else if (!has_warp) {
		plan->kind = LL_CVT_SHUFFLE;
		plan_shuffle(plan, err->arena);
	} else {
		plan->kind = LL_CVT_SHARED;
		return plan_shared(src, dst, plan, err);
	}
	return true;
}
