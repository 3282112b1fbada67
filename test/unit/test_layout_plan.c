/* Unit tests of layout/ conversion plans and bank conflicts: every plan is
 * executed on integer data (in every CTA of a CGA layout) and compared with
 * the destination layout; bank conflict counts are compared with a
 * brute-force simulation of the banks. */
#include "test/unit/check.h"
#include "test/unit/test_layout_util.h"

#include <time.h>

static Arena *arena;

static LLayout
build(const LLDesc *d, int64_t s0, int64_t s1)
{
	int64_t shape[2] = {s0, s1};
	LLErr e = {arena, NULL};
	LLayout l = ll_empty();
	if (!ll_build(d, shape, 2, 0, &l, &e))
		fprintf(stderr, "build failed: %s\n", e.msg);
	return l;
}

/* The element of register r, lane `lane`, warp w of CTA `cta` (the CTA
 * of the current simulation: every CTA runs the same plan). */
static uint64_t cta;

static uint64_t
hw(const LLayout *l, uint64_t r, uint64_t lane, uint64_t w)
{
	uint32_t in[4] = {(uint32_t)r, (uint32_t)lane, (uint32_t)w, (uint32_t)cta};
	uint32_t out[LL_MAX_DIMS];
	ll_apply(l, in, out);
	return ll_pack_out(l, out);
}

/* Offset of hardware index (r, lane, w) under an access map. */
static uint64_t
offset_of(const LLayout *a, uint64_t r, uint64_t lane, uint64_t w)
{
	uint32_t in[4] = {(uint32_t)r, (uint32_t)lane, (uint32_t)w, 0}, out[LL_MAX_DIMS];
	ll_apply(a, in, out);
	return out[ll_out_index(a, LL_OFFSET)];
}

/* Wavefronts of the instruction of warp 0 holding register 0, by brute
 * force over banks; -1 when the vector registers are not found. */
static int
brute_wavefronts(const LLayout *a, int bitwidth, int vec)
{
	int nregs = 1 << ll_in_bits(a, LL_REGISTER), regs[16], nv = 0;
	uint64_t base = offset_of(a, 0, 0, 0);
	for (int r = 0; r < nregs; r++)
		if ((offset_of(a, (uint64_t)r, 0, 0) ^ base) < (uint64_t)vec && nv < 16)
			regs[nv++] = r;
	if (nv != vec)
		return -1;
	int bytes = bitwidth / 8, access = vec * bytes;
	int phase = access <= 4 ? 32 : access == 8 ? 16 : 8, total = 0;
	for (int p0 = 0; p0 < 32; p0 += phase) {
		uint64_t words[32][64];
		int nw[32] = {0};
		for (int lane = p0; lane < p0 + phase; lane++)
			for (int i = 0; i < nv; i++)
				for (int b = 0; b < bytes; b++) {
					uint64_t word = (offset_of(a, (uint64_t)regs[i], (uint64_t)lane, 0) *
					                 (uint64_t)bytes + (uint64_t)b) / 4;
					int bank = (int)(word % 32), seen = 0;
					for (int k = 0; k < nw[bank]; k++)
						seen |= words[bank][k] == word;
					if (!seen && nw[bank] < 64)
						words[bank][nw[bank]++] = word;
				}
		int worst = 1;
		for (int k = 0; k < 32; k++)
			worst = nw[k] > worst ? nw[k] : worst;
		total += worst;
	}
	return total;
}

/* Executes the plan on element ids in one CTA (`cta`) and checks the
 * destination registers. */
static int
simulate_cta(const LLayout *src, const LLayout *dst, const LLCvtPlan *p)
{
	int bad = 0, nw = 1 << ll_in_bits(src, LL_WARP);
	int ns = p->n_src_regs, nd = p->n_dst_regs;
	if (p->kind == LL_CVT_FREE) {
		for (int w = 0; w < nw; w++)
			for (int l = 0; l < 32; l++)
				for (int r = 0; r < nd; r++)
					bad += hw(src, (uint64_t)p->reg_perm[r], (uint64_t)l, (uint64_t)w) !=
					       hw(dst, (uint64_t)r, (uint64_t)l, (uint64_t)w);
	} else if (p->kind == LL_CVT_SHUFFLE) {
		int64_t *got = calloc((size_t)(32 * nd), sizeof *got);
		for (int w = 0; w < nw; w++) {
			for (int i = 0; i < 32 * nd; i++)
				got[i] = -1;
			for (int k = 0; k < p->n_rounds; k++) {
				const LLShuffleRound *s = &p->rounds[k];
				int64_t sent[32];
				for (int l = 0; l < 32; l++)
					sent[l] = (int64_t)hw(src, (uint64_t)s->send_reg[l], (uint64_t)l, (uint64_t)w);
				for (int l = 0; l < 32; l++)
					if (s->recv_mask >> l & 1)
						got[l * nd + s->dst_reg[l]] = sent[s->src_lane[l]];
			}
			for (int l = 0; l < 32; l++)
				for (int r = 0; r < nd; r++)
					bad += got[l * nd + r] != (int64_t)hw(dst, (uint64_t)r, (uint64_t)l, (uint64_t)w);
		}
		free(got);
	} else {
		size_t n = (size_t)1 << ll_in_bits(&p->smem, LL_OFFSET);
		CHECK_EQ((int64_t)n * p->bitwidth / 8, p->scratch_bytes);
		int64_t *smem = malloc(n * sizeof *smem);
		for (size_t i = 0; i < n; i++)
			smem[i] = -1;
		for (int w = 0; w < nw; w++)
			for (int l = 0; l < 32; l++)
				for (int r = 0; r < ns; r++) {
					uint64_t off = offset_of(&p->store, (uint64_t)r, (uint64_t)l, (uint64_t)w);
					int64_t v = (int64_t)hw(src, (uint64_t)r, (uint64_t)l, (uint64_t)w);
					if (off >= n || (smem[off] >= 0 && smem[off] != v)) {
						bad++;
						continue;
					}
					smem[off] = v;
				}
		for (int w = 0; w < nw; w++)
			for (int l = 0; l < 32; l++)
				for (int r = 0; r < nd; r++) {
					uint64_t off = offset_of(&p->load, (uint64_t)r, (uint64_t)l, (uint64_t)w);
					bad += off >= n ||
					       smem[off] != (int64_t)hw(dst, (uint64_t)r, (uint64_t)l, (uint64_t)w);
				}
		free(smem);
		CHECK_EQ(brute_wavefronts(&p->store, p->bitwidth, p->store_cost.vec),
		         p->store_cost.wavefronts);
		CHECK_EQ(brute_wavefronts(&p->load, p->bitwidth, p->load_cost.vec),
		         p->load_cost.wavefronts);
	}
	return bad;
}

/* The plan run by every CTA of the layouts (their own scratch each). */
static int
simulate(const LLayout *src, const LLayout *dst, const LLCvtPlan *p)
{
	int bad = 0;
	for (cta = 0; cta < 1ull << ll_in_bits(src, LL_BLOCK); cta++)
		bad += simulate_cta(src, dst, p);
	cta = 0;
	return bad;
}

static LLCvtPlan
plan_and_check(const LLayout *src, const LLayout *dst, int bitwidth)
{
	LLCvtPlan p;
	LLErr e = {arena, NULL};
	memset(&p, 0, sizeof p);
	if (!ll_plan_convert(src, dst, bitwidth, &p, &e)) {
		check_failures_in_test++;
		fprintf(stderr, "plan failed: %s\n", e.msg);
		return p;
	}
	CHECK_EQ(0, simulate(src, dst, &p));
	return p;
}

static void
test_plan_free(void)
{
	LLDesc d = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	LLayout a = build(&d, 32, 16);
	LLCvtPlan p = plan_and_check(&a, &a, 16);
	CHECK_EQ(LL_CVT_FREE, p.kind);
	for (int r = 0; r < 4; r++)
		CHECK_EQ(r, p.reg_perm[r]);
	LLayout b = a;
	uint64_t t = b.col[0];
	b.col[0] = b.col[1], b.col[1] = t;
	p = plan_and_check(&a, &b, 32);
	CHECK_EQ(LL_CVT_FREE, p.kind);
	CHECK(p.reg_perm[1] == 2 && p.reg_perm[2] == 1 && p.reg_perm[3] == 3);
	/* Slice of the same parent: equal maps are free however they are written. */
	LLDesc p1 = blocked(ints2(1, 1), ints2(32, 1), ints2(4, 1), ints2(1, 0)), s = {0};
	s.kind = LL_SLICE, s.dim = 1, s.parent = &p1;
	LLDesc b1 = blocked((LLInts){1, {1}}, (LLInts){1, {32}}, (LLInts){1, {4}}, (LLInts){1, {0}});
	int64_t n = 256;
	LLayout x, y;
	ll_build(&s, &n, 1, 4, &x, NULL);
	ll_build(&b1, &n, 1, 4, &y, NULL);
	p = plan_and_check(&x, &y, 16);
	CHECK_EQ(LL_CVT_FREE, p.kind);
}

static void
test_plan_shuffle(void)
{
	LLDesc s = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	LLDesc d = blocked(ints2(1, 1), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	LLayout a = build(&s, 32, 16), b = build(&d, 32, 16);
	for (int bw = 8; bw <= 64; bw *= 2) {
		LLCvtPlan p = plan_and_check(&a, &b, bw);
		CHECK_EQ(LL_CVT_SHUFFLE, p.kind);
		CHECK_EQ(4, p.n_rounds);
		p = plan_and_check(&b, &a, bw);
		CHECK_EQ(LL_CVT_SHUFFLE, p.kind);
	}
	StrBuf t = {0};
	LLCvtPlan p = plan_and_check(&a, &b, 32);
	ll_plan_report_text(&p, &t);
	CHECK(strstr(t.s, "conversion: shuffle") && strstr(t.s, "cost: 4 shuffle rounds"));
	buf_clear(&t);
	ll_plan_report_json(&p, &t);
	CHECK(strncmp(t.s, "{\"kind\":\"shuffle\",\"bitwidth\":32,\"map\":{\"kind\":\"map\"", 50) == 0);
	CHECK(t.len > 2 && strchr(t.s, '\n') == t.s + t.len - 1 && t.s[t.len - 2] == '}');
	buf_free(&t);
}

static void
test_plan_shared_transpose(void)
{
	LLDesc s = blocked(ints2(1, 1), ints2(1, 32), ints2(4, 1), ints2(1, 0));
	LLDesc d = blocked(ints2(1, 1), ints2(32, 1), ints2(1, 4), ints2(0, 1));
	LLayout a = build(&s, 32, 32), b = build(&d, 32, 32);
	LLCvtPlan p = plan_and_check(&a, &b, 32);
	CHECK_EQ(LL_CVT_SHARED, p.kind);
	CHECK_EQ(p.store_cost.ideal, p.store_cost.wavefronts);
	CHECK_EQ(p.load_cost.ideal, p.load_cost.wavefronts);
	CHECK_EQ(4096, p.scratch_bytes);
	/* Vectorized transpose: 4 x 4 per thread, 16-byte accesses both ways. */
	LLDesc s4 = blocked(ints2(4, 4), ints2(4, 8), ints2(4, 1), ints2(1, 0));
	LLDesc d4 = blocked(ints2(4, 4), ints2(8, 4), ints2(1, 4), ints2(0, 1));
	a = build(&s4, 64, 64), b = build(&d4, 64, 64);
	p = plan_and_check(&a, &b, 32);
	CHECK_EQ(LL_CVT_SHARED, p.kind);
	CHECK_EQ(p.store_cost.ideal, p.store_cost.wavefronts);
	CHECK_EQ(p.load_cost.ideal, p.load_cost.wavefronts);
	/* examples/transpose.gl: no register basis in common, so one side's own
	 * registers make the vector and the other side reads single elements
	 * through the swizzle, both free of bank conflicts: f32 stores 8 bytes
	 * (16 would cost the loads 2-way conflicts), f16 16 bytes. */
	LLDesc ld = blocked(ints2(1, 4), ints2(2, 16), ints2(4, 1), ints2(1, 0));
	LLDesc st = blocked(ints2(4, 1), ints2(16, 2), ints2(1, 4), ints2(0, 1));
	a = build(&ld, 64, 64), b = build(&st, 64, 64);
	p = plan_and_check(&a, &b, 32);
	CHECK_EQ(2, p.store_cost.vec);
	CHECK_EQ(1, p.load_cost.vec);
	CHECK_EQ(p.store_cost.ideal, p.store_cost.wavefronts);
	CHECK_EQ(p.load_cost.ideal, p.load_cost.wavefronts);
	p = plan_and_check(&a, &b, 16);
	CHECK_EQ(8, p.store_cost.vec);
	CHECK_EQ(p.store_cost.ideal, p.store_cost.wavefronts);
	CHECK_EQ(p.load_cost.ideal, p.load_cost.wavefronts);
	/* The other direction: one side vectorized as well. */
	p = plan_and_check(&b, &a, 32);
	CHECK_EQ(2, p.store_cost.vec * p.load_cost.vec);
	CHECK_EQ(p.store_cost.ideal, p.store_cost.wavefronts);
	CHECK_EQ(p.load_cost.ideal, p.load_cost.wavefronts);
}

static void
test_plan_named_pairs(void)
{
	LLDesc bl = blocked(ints2(1, 8), ints2(4, 8), ints2(4, 1), ints2(1, 0));
	LLDesc bt = blocked(ints2(8, 1), ints2(8, 4), ints2(1, 4), ints2(0, 1));
	LLDesc m = nvmma(ints2(4, 1), 128), m2 = nvmma(ints2(4, 1), 64);
	LLDesc dot = {0};
	dot.kind = LL_DOT_OPERAND, dot.parent = &m, dot.k_width = 2;
	const LLDesc *all[5] = {&bl, &bt, &m, &m2, &dot};
	int shared = 0;
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 5; j++)
			for (int bw = 8; bw <= 64; bw *= 2) {
				LLayout a = build(all[i], 128, 128), b = build(all[j], 128, 128);
				LLCvtPlan p = plan_and_check(&a, &b, bw);
				if (i == j)
					CHECK_EQ(LL_CVT_FREE, p.kind);
				shared += p.kind == LL_CVT_SHARED;
			}
	CHECK(shared > 0);
}

/* A random distributed layout of `n` tensor bits: a random bijection from
 * (5 register, 5 lane, 2 warp) bits, sometimes with broadcast lanes. */
static LLayout
random_distributed(uint64_t *s, int b0, int b1, bool broadcast)
{
	LLayout l = ll_empty();
	int n = b0 + b1, nr = n - 7 + (broadcast ? 1 : 0);
	ll_add_in(&l, LL_REGISTER, nr);
	ll_add_in(&l, LL_LANE, 5);
	ll_add_in(&l, LL_WARP, 2);
	ll_add_in(&l, LL_BLOCK, 0);
	ll_add_out(&l, LL_DIM0, b0);
	ll_add_out(&l, LL_DIM1, b1);
	for (;;) {
		int perm[LL_MAX_BITS];
		for (int i = 0; i < n; i++)
			perm[i] = i;
		for (int i = n - 1; i > 0; i--) {
			int j = (int)(rnd(s) % (uint64_t)(i + 1)), t = perm[i];
			perm[i] = perm[j], perm[j] = t;
		}
		int k = 0, total = nr + 7;
		for (int c = 0; c < total; c++) {
			if (broadcast && c == nr + 2) {
				l.col[c] = 0;
				continue;
			}
			l.col[c] = 1ull << perm[k++];
		}
		if (rnd(s) % 2) /* mix two bits: a swizzled layout */
			l.col[rnd(s) % (uint64_t)total] ^= 1ull << perm[rnd(s) % (uint64_t)n];
		if (ll_is_surjective(&l))
			return l;
	}
}

static void
test_plan_random(void)
{
	uint64_t s = 2024;
	int kinds[3] = {0};
	for (int t = 0; t < 150; t++) {
		LLayout a = random_distributed(&s, 6, 6, t % 5 == 0);
		LLayout b = t % 3 ? random_distributed(&s, 6, 6, t % 7 == 0) : a;
		if (t % 3 == 1) { /* same lanes and warps, registers permuted -> free */
			b = a;
			int nr = ll_in_bits(&b, LL_REGISTER);
			uint64_t c = b.col[0];
			b.col[0] = b.col[nr - 1], b.col[nr - 1] = c;
		}
		LLCvtPlan p = plan_and_check(&a, &b, 8 << (t % 4));
		kinds[p.kind]++;
	}
	CHECK(kinds[LL_CVT_FREE] > 0 && kinds[LL_CVT_SHARED] > 0);
}

static void
test_bank_conflicts(void)
{
	LLDesc rows = blocked(ints2(1, 1), ints2(32, 1), ints2(4, 1), ints2(1, 0));
	LLayout d = build(&rows, 128, 32);
	LLDesc s0 = nvmma_shared(0, 32), s128 = nvmma_shared(128, 32);
	LLayout a = build(&s0, 128, 32), b = build(&s128, 128, 32);
	LLBankCost c;
	LLErr e = {arena, NULL};
	CHECK(ll_bank_conflicts(&d, &a, 32, &c, &e));
	CHECK_EQ(4, c.vec); /* 32 registers along dim1: 16-byte vectors */
	CHECK_EQ(32, c.wavefronts);
	CHECK_EQ(4, c.ideal);
	CHECK(ll_bank_conflicts(&d, &b, 32, &c, &e));
	CHECK_EQ(4, c.wavefronts);
	/* Every named distributed layout against every NVMMA swizzle, fp16 and
	 * fp32, checked against brute force. */
	LLDesc m = nvmma(ints2(4, 1), 64), bl = blocked(ints2(1, 8), ints2(4, 8), ints2(4, 1), ints2(1, 0));
	LLDesc dot = {0};
	dot.kind = LL_DOT_OPERAND, dot.parent = &m, dot.k_width = 2;
	const LLDesc *dists[4] = {&m, &bl, &dot, &rows};
	int sws[4] = {0, 32, 64, 128};
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 4; k++)
			for (int bw = 16; bw <= 32; bw *= 2) {
				LLDesc sh = nvmma_shared(sws[k], bw);
				LLayout dl = build(dists[i], 64, 64), sl = build(&sh, 64, 64), acc;
				CHECK(ll_bank_conflicts(&dl, &sl, bw, &c, &e));
				CHECK(ll_invert_and_compose(&dl, &sl, &acc, NULL));
				CHECK_EQ(brute_wavefronts(&acc, bw, c.vec), c.wavefronts);
			}
	CHECK(!ll_bank_conflicts(&d, &a, 12, &c, &e) && e.msg);
}

static LLBases
grid(int n, const int64_t (*v)[2])
{
	LLBases b = {0};
	b.n = n;
	for (int i = 0; i < n; i++)
		b.b[i] = ints2(v[i][0], v[i][1]);
	return b;
}

static const int64_t g_rows[1][2] = {{1, 0}}, g_cols[1][2] = {{0, 1}};
static const int64_t g_both[2][2] = {{1, 0}, {0, 1}}, g_bcast[1][2] = {{0, 0}};
static const int64_t g_half[2][2] = {{1, 0}, {0, 0}};

static LLayout
build_cga(LLDesc d, const LLBases *cga, int64_t s0, int64_t s1)
{
	if (d.kind == LL_DOT_OPERAND) {
		LLDesc *p = arena_alloc(arena, sizeof *p);
		*p = *d.parent;
		p->cga_layout = *cga;
		d.parent = p;
	} else {
		d.cga_layout = *cga;
	}
	return build(&d, s0, s1);
}

static void
expect_no_plan(const LLayout *a, const LLayout *b, const char *needle)
{
	LLCvtPlan p;
	LLErr e = {arena, NULL};
	CHECK(!ll_plan_convert(a, b, 16, &p, &e));
	if (!e.msg || !strstr(e.msg, needle)) {
		check_failures_in_test++;
		fprintf(stderr, "want \"%s\", got \"%s\"\n", needle, e.msg ? e.msg : "(none)");
	}
}

/* Layouts over several CTAs: with the same cga_layout on both sides every
 * CTA converts its part as CTA 0 does, by the plan of the tiles, and the
 * plan run in every CTA gives each its destination registers; conversions
 * that move elements between CTAs, or whose CTAs would move them
 * differently, are refused with the reason. */
static void
test_plan_cga(void)
{
	LLDesc bl = blocked(ints2(1, 8), ints2(4, 8), ints2(4, 1), ints2(1, 0));
	LLDesc bt = blocked(ints2(8, 1), ints2(8, 4), ints2(1, 4), ints2(0, 1));
	LLDesc b1 = blocked(ints2(1, 1), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	LLDesc m = nvmma(ints2(4, 1), 64);
	LLDesc dot = {.kind = LL_DOT_OPERAND, .parent = &m, .k_width = 2};
	const LLDesc *all[5] = {&bl, &bt, &b1, &m, &dot};
	LLBases grids[5] = {grid(1, g_rows), grid(1, g_cols), grid(2, g_both), grid(1, g_bcast),
	                    grid(2, g_half)};
	int kinds[3] = {0};
	for (int g = 0; g < 5; g++)
		for (int i = 0; i < 5; i++)
			for (int j = 0; j < 5; j++) {
				bool dots = all[i] == &dot || all[j] == &dot;
				if (dots && grids[g].b[0].v[1] + grids[g].b[1].v[1])
					continue;   /* A is broadcast along K: another grid */
				LLayout a = build_cga(*all[i], &grids[g], 256, 128);
				LLayout b = build_cga(*all[j], &grids[g], 256, 128), ta, tb;
				LLCvtPlan p = plan_and_check(&a, &b, 16), q;
				LLErr e = {arena, NULL};
				CHECK(ll_cta_tile(&a, &ta, &e) && ll_cta_tile(&b, &tb, &e));
				CHECK(ll_plan_convert(&ta, &tb, 16, &q, &e));
				CHECK(p.kind == q.kind && ll_equal(&p.map, &q.map));
				CHECK_EQ(q.scratch_bytes, p.scratch_bytes);
				kinds[p.kind]++;
			}
	/* test_plan_shuffle's pair, on 2 x 2 CTAs */
	LLDesc s4 = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	LLayout a = build_cga(s4, &grids[2], 64, 32), b = build_cga(b1, &grids[2], 64, 32);
	for (int bw = 8; bw <= 64; bw *= 2)
		kinds[plan_and_check(&a, &b, bw).kind]++;
	CHECK(kinds[LL_CVT_FREE] && kinds[LL_CVT_SHUFFLE] && kinds[LL_CVT_SHARED]);
	LLBases rows = grid(1, g_rows), cols = grid(1, g_cols), bcast = grid(1, g_bcast);
	LLBases both = grid(2, g_both);
	LLayout r = build_cga(bl, &rows, 128, 128), c = build_cga(bl, &cols, 128, 128);
	LLayout z = build_cga(bl, &bcast, 128, 128), two = build_cga(bl, &both, 128, 128);
	expect_no_plan(&r, &c, "moves elements between the CTAs of the cluster");
	expect_no_plan(&r, &z, "moves elements between the CTAs of the cluster");
	expect_no_plan(&z, &r, "block bases differ");
	expect_no_plan(&r, &two, "different numbers of CTAs (2 and 4)");
	LLayout one = build(&bl, 128, 128);
	expect_no_plan(&one, &r, "different numbers of CTAs (1 and 2)");
}

/* Bank conflicts over several CTAs are one CTA's: the tiles'; a
 * distributed layout reading another CTA's buffer is refused. */
static void
test_bank_conflicts_cga(void)
{
	LLDesc d1 = blocked(ints2(1, 1), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	LLDesc d2 = blocked(ints2(1, 1), ints2(8, 4), ints2(4, 1), ints2(0, 1));
	LLDesc w = {.kind = LL_SWIZZLED_SHARED, .vec = 1, .per_phase = 1, .max_phase = 1,
	            .order = ints2(1, 0)};
	LLDesc n = nvmma_shared(128, 16);
	LLBases rows = grid(1, g_rows), cols = grid(1, g_cols), bcast = grid(1, g_bcast);
	const LLDesc *dists[2] = {&d1, &d2}, *shareds[2] = {&w, &n};
	const LLBases *grids[3] = {&rows, &cols, &bcast};
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 2; k++)
			for (int g = 0; g < 3; g++) {
				LLayout dl = build_cga(*dists[i], grids[g], 128, 128);
				LLayout sl = build_cga(*shareds[k], grids[g], 128, 128), td, ts, acc;
				LLBankCost c, tc;
				LLErr e = {arena, NULL};
				int count, tcount;
				CHECK(ll_cta_tile(&sl, &ts, &e) && ll_cta_tile(&dl, &td, &e));
				CHECK(ll_bank_conflicts(&dl, &sl, 16, &c, &e));
				CHECK(ll_bank_conflicts(&td, &ts, 16, &tc, &e));
				CHECK(c.vec == tc.vec && c.wavefronts == tc.wavefronts);
				CHECK(ll_invert_and_compose(&td, &ts, &acc, NULL));
				CHECK_EQ(brute_wavefronts(&acc, 16, c.vec), c.wavefronts);
				CHECK(ll_gluon_bank_conflicts(&dl, &sl, 16, &count, &e));
				CHECK(ll_gluon_bank_conflicts(&td, &ts, 16, &tcount, &e));
				CHECK_EQ(tcount, count);
			}
	/* Triton 3.6's gl.bank_conflicts on CGA layouts (get_shared_bank_conflicts) */
	LLayout dl = build_cga(d1, &rows, 64, 32), sl = build_cga(w, &rows, 64, 32);
	int count;
	LLErr e = {arena, NULL};
	CHECK(ll_gluon_bank_conflicts(&dl, &sl, 16, &count, &e));
	CHECK_EQ(3, count);
	dl = build_cga(d2, &rows, 32, 32), sl = build_cga(w, &bcast, 32, 32);
	CHECK(ll_gluon_bank_conflicts(&dl, &sl, 16, &count, &e));   /* a copy in every CTA */
	CHECK_EQ(3, count);
	dl = build_cga(d1, &rows, 128, 128), sl = build_cga(w, &cols, 128, 128);
	LLBankCost c;
	CHECK(!ll_bank_conflicts(&dl, &sl, 16, &c, &e) && strstr(e.msg, "other CTAs' shared memory"));
	CHECK(!ll_gluon_bank_conflicts(&dl, &sl, 16, &count, &e));
}

static void
test_plan_speed(void)
{
	LLDesc bl = blocked(ints2(1, 8), ints2(4, 8), ints2(4, 1), ints2(1, 0));
	LLDesc m = nvmma(ints2(4, 1), 128);
	LLayout a = build(&bl, 128, 128), b = build(&m, 128, 128);
	int n = 0;
	clock_t t0 = clock(), t1;
	do {
		Arena *scratch = arena_new();
		LLErr e = {scratch, NULL};
		for (int i = 0; i < 50; i++, n++) {
			LLCvtPlan p;
			CHECK(ll_plan_convert(&a, &b, 16, &p, &e));
		}
		arena_free(scratch);
		t1 = clock();
	} while (t1 - t0 < CLOCKS_PER_SEC / 4);
	double secs = (double)(t1 - t0) / CLOCKS_PER_SEC;
	printf("planning speed: %.0f conversion plans/s (128x128 fp16, Blocked -> NVMMA)\n", n / secs);
}

int
main(void)
{
	arena = arena_new();
	RUN_TEST(test_plan_free);
	RUN_TEST(test_plan_shuffle);
	RUN_TEST(test_plan_shared_transpose);
	RUN_TEST(test_plan_named_pairs);
	RUN_TEST(test_plan_random);
	RUN_TEST(test_bank_conflicts);
	RUN_TEST(test_plan_cga);
	RUN_TEST(test_bank_conflicts_cga);
	RUN_TEST(test_plan_speed);
	arena_free(arena);
	return check_summary();
}
