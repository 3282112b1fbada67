/* Unit tests of layout/: constructors (goldens from gluon-api.md and
 * exhaustive index formulas), the algebra laws, validation and printers. */
#include "test/unit/check.h"
#include "test/unit/test_layout_util.h"

static Arena *arena;

/* -- Goldens (gluon-api.md §2) ---------------------------------------------- */

static void
test_golden_blocked(void)
{
	LLDesc d = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	LLayout l = build_in(arena, &d, 32, 16, 2);
	CHECK_STR("[[0,1],[0,2]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[0,4],[0,8],[1,0],[2,0],[4,0]]", bases_str(&l, LL_LANE));
	CHECK_STR("[[8,0],[16,0]]", bases_str(&l, LL_WARP));
	CHECK_STR("[]", bases_str(&l, LL_BLOCK));
	uint32_t in[4] = {3, 5, 2, 0}, out[2];
	ll_apply(&l, in, out);
	CHECK_EQ(17, out[0]);
	CHECK_EQ(7, out[1]);
	l = build_in(arena, &d, 64, 16, 2);
	CHECK_STR("[[0,1],[0,2],[32,0]]", bases_str(&l, LL_REGISTER));
	l = build_in(arena, &d, 16, 16, 2);
	CHECK_STR("[[8,0],[0,0]]", bases_str(&l, LL_WARP));
	LLDesc t = blocked(ints2(2, 4), ints2(16, 2), ints2(2, 2), ints2(1, 0));
	l = build_in(arena, &t, 64, 16, 2);
	CHECK_STR("[[0,1],[0,2],[1,0]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[0,4],[2,0],[4,0],[8,0],[16,0]]", bases_str(&l, LL_LANE));
	CHECK_STR("[[0,8],[32,0]]", bases_str(&l, LL_WARP));
	l = build_in(arena, &t, 128, 128, 2);
	CHECK_STR("[[0,1],[0,2],[1,0],[0,16],[0,32],[0,64],[64,0]]", bases_str(&l, LL_REGISTER));
}

static void
test_golden_slice_1d(void)
{
	LLDesc b1 = blocked((LLInts){1, {1}}, (LLInts){1, {32}}, (LLInts){1, {4}}, (LLInts){1, {0}});
	LLayout l1 = build_in(arena, &b1, 128, 0, 1);
	CHECK_STR("[[1],[2],[4],[8],[16]]", bases_str(&l1, LL_LANE));
	CHECK_STR("[[32],[64]]", bases_str(&l1, LL_WARP));
	LLDesc p = blocked(ints2(1, 1), ints2(32, 1), ints2(4, 1), ints2(1, 0));
	LLDesc s = {0};
	s.kind = LL_SLICE, s.dim = 1, s.parent = &p;
	LLayout l2 = build_in(arena, &s, 128, 0, 1);
	CHECK(ll_equal(&l1, &l2));
	LLDesc q = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	s.dim = 0, s.parent = &q;
	l2 = build_in(arena, &s, 16, 0, 1);
	CHECK_STR("[[1],[2]]", bases_str(&l2, LL_REGISTER));
	CHECK_STR("[[4],[8],[0],[0],[0]]", bases_str(&l2, LL_LANE));
	CHECK_STR("[[0],[0]]", bases_str(&l2, LL_WARP));
}

static void
test_golden_nvmma(void)
{
	LLDesc m = nvmma(ints2(4, 1), 64);
	LLayout l = build_in(arena, &m, 64, 64, 2);
	CHECK_STR("[[0,1],[8,0],[0,8],[0,16],[0,32]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[0,2],[0,4],[1,0],[2,0],[4,0]]", bases_str(&l, LL_LANE));
	CHECK_STR("[[16,0],[32,0]]", bases_str(&l, LL_WARP));
	l = build_in(arena, &m, 128, 64, 2);
	CHECK_STR("[[0,1],[8,0],[0,8],[0,16],[0,32],[64,0]]", bases_str(&l, LL_REGISTER));
	LLDesc m8 = nvmma(ints2(8, 1), 64);
	l = build_in(arena, &m8, 128, 64, 2);
	CHECK_STR("[[16,0],[32,0],[64,0]]", bases_str(&l, LL_WARP));
	LLDesc m42 = nvmma(ints2(4, 2), 64);
	l = build_in(arena, &m42, 64, 128, 2);
	CHECK_STR("[[16,0],[32,0],[0,64]]", bases_str(&l, LL_WARP));
	LLDesc m256 = nvmma(ints2(4, 1), 256);
	l = build_in(arena, &m256, 64, 256, 2);
	CHECK_EQ(7, ll_in_bits(&l, LL_REGISTER)); /* 128 registers */
}

static void
test_golden_dot_operand(void)
{
	LLDesc m = nvmma(ints2(4, 1), 64);
	LLDesc d = {0};
	d.kind = LL_DOT_OPERAND, d.operand_index = 0, d.parent = &m, d.k_width = 2;
	LLayout l = build_in(arena, &d, 64, 16, 2);
	CHECK_STR("[[0,1],[8,0],[0,8]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[0,2],[0,4],[1,0],[2,0],[4,0]]", bases_str(&l, LL_LANE));
	CHECK_STR("[[16,0],[32,0]]", bases_str(&l, LL_WARP));
	l = build_in(arena, &d, 64, 64, 2);
	CHECK_STR("[[0,1],[8,0],[0,8],[0,16],[0,32]]", bases_str(&l, LL_REGISTER));
	d.k_width = 4;
	l = build_in(arena, &d, 64, 32, 2);
	CHECK_STR("[[0,1],[0,2],[8,0],[0,16]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[0,4],[0,8],[1,0],[2,0],[4,0]]", bases_str(&l, LL_LANE));
	LLDesc m42 = nvmma(ints2(4, 2), 64);
	d.parent = &m42, d.k_width = 2;
	l = build_in(arena, &d, 64, 16, 2);
	CHECK_STR("[[16,0],[32,0],[0,0]]", bases_str(&l, LL_WARP));
}

/* Ampere's mma.sync layouts (version [2, 0], m16n8 tiles): warps row-major
 * (N first); A as on Hopper; B [K, N] with K inner and repeated first. */
static void
test_golden_nvmma_v2(void)
{
	LLDesc m = nvmma(ints2(2, 2), 8);
	m.version = (LLInts){.n = 2, .v = {2, 0}};
	m.instr_shape = (LLInts){.n = 2, .v = {16, 8}};
	LLayout l = build_in(arena, &m, 64, 32, 2);
	CHECK_STR("[[0,1],[8,0],[0,16],[32,0]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[0,2],[0,4],[1,0],[2,0],[4,0]]", bases_str(&l, LL_LANE));
	CHECK_STR("[[0,8],[16,0]]", bases_str(&l, LL_WARP));
	LLDesc d = {0};
	d.kind = LL_DOT_OPERAND, d.operand_index = 0, d.parent = &m, d.k_width = 2;
	l = build_in(arena, &d, 64, 32, 2);
	CHECK_STR("[[0,1],[8,0],[0,8],[0,16],[32,0]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[0,0],[16,0]]", bases_str(&l, LL_WARP));
	d.operand_index = 1;
	l = build_in(arena, &d, 32, 32, 2);
	CHECK_STR("[[1,0],[8,0],[16,0],[0,16]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[2,0],[4,0],[0,1],[0,2],[0,4]]", bases_str(&l, LL_LANE));
	CHECK_STR("[[0,8],[0,0]]", bases_str(&l, LL_WARP));
	d.k_width = 4;   /* 8-bit: four K elements a register */
	l = build_in(arena, &d, 32, 8, 2);
	CHECK_STR("[[1,0],[2,0],[16,0]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[4,0],[8,0],[0,1],[0,2],[0,4]]", bases_str(&l, LL_LANE));
}

static void
test_golden_shared(void)
{
	LLDesc s = nvmma_shared(128, 16);
	LLayout l = build_in(arena, &s, 64, 64, 2);
	CHECK_STR("[[0,1],[0,2],[0,4],[0,8],[0,16],[0,32],[1,8],[2,16],[4,32],[8,0],[16,0],[32,0]]",
	          bases_str(&l, LL_OFFSET));
	l = build_in(arena, &s, 64, 128, 2);
	CHECK_STR("[[0,1],[0,2],[0,4],[0,8],[0,16],[0,32],[1,8],[2,16],[4,32],[8,0],[16,0],[32,0],"
	          "[0,64]]", bases_str(&l, LL_OFFSET));
	s = nvmma_shared(128, 32);
	l = build_in(arena, &s, 64, 32, 2);
	CHECK_STR("[[0,1],[0,2],[0,4],[0,8],[0,16],[1,4],[2,8],[4,16],[8,0],[16,0],[32,0]]",
	          bases_str(&l, LL_OFFSET));
	s = nvmma_shared(64, 16);
	l = build_in(arena, &s, 8, 32, 2);
	CHECK_STR("[[0,1],[0,2],[0,4],[0,8],[0,16],[1,0],[2,8],[4,16]]", bases_str(&l, LL_OFFSET));
	s = nvmma_shared(32, 16);
	l = build_in(arena, &s, 8, 16, 2);
	CHECK_STR("[[0,1],[0,2],[0,4],[0,8],[1,0],[2,0],[4,8]]", bases_str(&l, LL_OFFSET));
	LLDesc w = {0};
	w.kind = LL_SWIZZLED_SHARED, w.vec = 4, w.per_phase = 2, w.max_phase = 4, w.order = ints2(1, 0);
	l = build_in(arena, &w, 16, 32, 2);
	CHECK_STR("[[0,1],[0,2],[0,4],[0,8],[0,16],[1,0],[2,4],[4,8],[8,0]]", bases_str(&l, LL_OFFSET));
	w.vec = 8, w.per_phase = 1, w.max_phase = 8;
	LLayout a = build_in(arena, &w, 64, 64, 2), b = build_in(arena, &(LLDesc){.kind = LL_NVMMA_SHARED,
	                                                       .swizzle_byte_width = 128,
	                                                       .element_bitwidth = 16, .rank = 2},
	                                             64, 64, 2);
	CHECK(ll_equal(&a, &b));
}

/* -- Exhaustive index formulas ------------------------------------------------ */

/* Splits a linear id into per-dim coordinates along `order` (order[0] fastest). */
static void
split(int64_t id, const int64_t *size, const int64_t *order, int rank, int64_t *out)
{
	for (int i = 0; i < rank; i++) {
		out[order[i]] = id % size[order[i]];
		id /= size[order[i]];
	}
}

static void
check_blocked(const int64_t *spt, const int64_t *tpw, const int64_t *wpc, const int64_t *order,
              const int64_t *shape, int rank)
{
	LLDesc d = blocked(ints_n(rank, spt), ints_n(rank, tpw), ints_n(rank, wpc), ints_n(rank, order));
	LLErr e = {arena, NULL};
	LLayout l;
	if (!ll_build(&d, shape, rank, 0, &l, &e)) {
		CHECK(!"blocked build failed");
		return;
	}
	int64_t reps[LL_MAX_RANK], nspt = 1, nreps = 1, nw = 1;
	for (int i = 0; i < rank; i++) {
		int64_t tile = spt[i] * tpw[i] * wpc[i];
		reps[i] = shape[i] > tile ? shape[i] / tile : 1;
		nspt *= spt[i], nreps *= reps[i], nw *= wpc[i];
	}
	CHECK_EQ(nspt * nreps, 1ll << ll_in_bits(&l, LL_REGISTER));
	int bad = 0;
	for (int64_t w = 0; w < nw; w++)
		for (int64_t ln = 0; ln < 32; ln++)
			for (int64_t r = 0; r < nspt * nreps; r++) {
				int64_t s[LL_MAX_RANK], t[LL_MAX_RANK], wv[LL_MAX_RANK], rp[LL_MAX_RANK];
				split(r % nspt, spt, order, rank, s);
				split(r / nspt, reps, order, rank, rp);
				split(ln, tpw, order, rank, t);
				split(w, wpc, order, rank, wv);
				uint32_t in[4] = {(uint32_t)r, (uint32_t)ln, (uint32_t)w, 0}, out[LL_MAX_RANK];
				ll_apply(&l, in, out);
				for (int i = 0; i < rank; i++) {
					int64_t c = rp[i] * spt[i] * tpw[i] * wpc[i] +
					            wv[i] * spt[i] * tpw[i] + t[i] * spt[i] + s[i];
					bad += (int64_t)out[i] != c % shape[i];
				}
			}
	CHECK_EQ(0, bad);
}

static void
test_blocked_formula(void)
{
	static const int64_t sets[][4][2] = {
		{{1, 4}, {8, 4}, {4, 1}, {1, 0}}, {{2, 4}, {16, 2}, {2, 2}, {1, 0}},
		{{1, 1}, {32, 1}, {4, 1}, {1, 0}}, {{4, 1}, {4, 8}, {1, 4}, {0, 1}},
		{{1, 8}, {4, 8}, {8, 1}, {1, 0}},  {{2, 2}, {2, 16}, {2, 4}, {0, 1}},
	};
	static const int64_t shapes[][2] = {{32, 16}, {16, 16}, {128, 128}, {8, 4}, {64, 256}, {1, 64}};
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
		for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; j++)
			check_blocked(sets[i][0], sets[i][1], sets[i][2], sets[i][3], shapes[j], 2);
	const int64_t o1[1] = {0}, s1[1] = {4}, t1[1] = {32}, w1[1] = {4};
	for (int64_t n = 1; n <= 2048; n *= 4)
		check_blocked(s1, t1, w1, o1, &n, 1);
	const int64_t s3[3] = {1, 2, 2}, t3[3] = {2, 4, 4}, w3[3] = {2, 1, 2}, o3[3] = {2, 0, 1};
	const int64_t sh3[][3] = {{4, 8, 16}, {2, 2, 2}, {8, 32, 4}};
	for (int j = 0; j < 3; j++)
		check_blocked(s3, t3, w3, o3, sh3[j], 3);
}

static void
test_wgmma_formula(void)
{
	static const int64_t cfg[][5] = {
		/* W0, W1, n, M, N */
		{4, 1, 64, 64, 64}, {4, 1, 256, 64, 256}, {4, 1, 64, 128, 64}, {4, 2, 64, 64, 128},
		{8, 1, 128, 128, 128}, {4, 1, 16, 128, 64}, {4, 2, 8, 256, 64}, {4, 1, 128, 64, 256},
	};
	for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
		int64_t W0 = cfg[c][0], W1 = cfg[c][1], n = cfg[c][2], M = cfg[c][3], N = cfg[c][4];
		LLDesc m = nvmma(ints2(W0, W1), (int)n);
		LLayout l = build_in(arena, &m, M, N, 2);
		int64_t repM = M / (16 * W0), repN = N / (n * W1), nregs = n / 2 * repM * repN;
		CHECK_EQ(nregs, 1ll << ll_in_bits(&l, LL_REGISTER));
		int bad = 0;
		for (int64_t w = 0; w < W0 * W1; w++)
			for (int64_t ln = 0; ln < 32; ln++)
				for (int64_t r = 0; r < nregs; r++) {
					int64_t wm = w % W0, wn = w / W0, q = r % (n / 2), rep = r / (n / 2);
					int64_t row = 16 * wm + ln / 4 + 8 * ((q / 2) % 2) + (rep / repN) * 16 * W0;
					int64_t col = wn * n + 2 * (ln % 4) + q % 2 + 8 * (q / 4) +
					              (rep % repN) * n * W1;
					uint32_t in[4] = {(uint32_t)r, (uint32_t)ln, (uint32_t)w, 0}, out[2];
					ll_apply(&l, in, out);
					bad += out[0] != row || out[1] != col;
				}
		CHECK_EQ(0, bad);
	}
}

static void
test_dot_a_formula(void)
{
	static const int64_t cfg[][5] = {
		/* W0, W1, kw, M, K */
		{4, 1, 2, 64, 16}, {4, 1, 2, 64, 64}, {4, 1, 4, 64, 32}, {4, 2, 2, 128, 32},
		{8, 1, 1, 128, 64}, {4, 1, 4, 128, 128},
	};
	for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
		int64_t W0 = cfg[c][0], W1 = cfg[c][1], kw = cfg[c][2], M = cfg[c][3], K = cfg[c][4];
		LLDesc m = nvmma(ints2(W0, W1), 64);
		LLDesc d = {0};
		d.kind = LL_DOT_OPERAND, d.parent = &m, d.k_width = (int)kw;
		LLayout l = build_in(arena, &d, M, K, 2);
		int64_t repM = M / (16 * W0), repK = K / (8 * kw), nregs = 4 * kw * repM * repK;
		CHECK_EQ(nregs, 1ll << ll_in_bits(&l, LL_REGISTER));
		int bad = 0;
		for (int64_t w = 0; w < W0 * W1; w++)
			for (int64_t ln = 0; ln < 32; ln++)
				for (int64_t r = 0; r < nregs; r++) {
					int64_t wm = w % W0, q = r % (4 * kw), rep = r / (4 * kw);
					int64_t row = 16 * wm + ln / 4 + 8 * ((q / kw) % 2) + (rep / repK) * 16 * W0;
					int64_t col = q % kw + kw * (ln % 4) + 4 * kw * (q / (2 * kw)) +
					              (rep % repK) * 8 * kw;
					uint32_t in[4] = {(uint32_t)r, (uint32_t)ln, (uint32_t)w, 0}, out[2];
					ll_apply(&l, in, out);
					bad += out[0] != row || out[1] != col;
				}
		CHECK_EQ(0, bad);
	}
}

/* fp4_padded: every offset of an [R, C] (or transposed [C, R]) buffer
 * maps where the same offset of the plain 8-bit layout of the buffer
 * doubled along its contiguous dim maps, that dim's coordinate packed (its
 * bit 3, the padding, dropped: c / 16 * 8 + c % 8); twice as many offsets
 * as elements. Unswizzled, it is the plain layout up to 128 contiguous
 * elements (Triton's TMA box counts fp4 values: 256 of them, 128 bytes). */
static void
test_nvmma_fp4_padded(void)
{
	static const int sws[4] = {0, 32, 64, 128};
	for (int a = 0; a < 4; a++)
		for (int t = 0; t < 2; t++)
			for (int64_t R = 8; R <= 128; R *= 4)
				for (int64_t C = 16; C <= 256; C *= 2) {
					int sw = sws[a];
					if (2 * C < sw || (sw == 0 && C > 128))
						continue;
					int pack = sw ? 2 : 1, k = t ? 0 : 1;
					LLDesc pd = nvmma_shared(sw, 8), fd = pd;
					pd.transposed = fd.transposed = t;
					fd.fp4_padded = true;
					int64_t fs[2] = {t ? C : R, t ? R : C}, ps[2] = {fs[0], fs[1]};
					ps[k] *= pack;
					LLayout f = build_in(arena, &fd, fs[0], fs[1], 2);
					LLayout p = build_in(arena, &pd, ps[0], ps[1], 2);
					CHECK_EQ(ll_in_bits(&p, LL_OFFSET), ll_in_bits(&f, LL_OFFSET));
					int bad = 0;
					for (int64_t off = 0; off < ps[0] * ps[1]; off++) {
						uint32_t in[2] = {(uint32_t)off, 0}, want[2], got[2];
						ll_apply(&p, in, want);
						if (sw)
							want[k] = want[k] / 16 * 8 + want[k] % 8;
						ll_apply(&f, in, got);
						bad += got[0] != want[0] || got[1] != want[1];
					}
					CHECK_EQ(0, bad);
				}
}

static void
test_nvmma_shared_formula(void)
{
	static const int sws[3] = {32, 64, 128}, bws[3] = {8, 16, 32};
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 3; b++) {
			int sw = sws[a], bw = bws[b];
			int64_t atom = 8 * sw / bw, vec = 128 / bw, pp = 128 / sw, mp = sw / 16;
			for (int64_t R = 8; R <= 256; R *= 4)
				for (int64_t C = atom; C <= 4 * atom; C *= 2) {
					LLDesc s = nvmma_shared(sw, bw);
					LLayout l = build_in(arena, &s, R, C, 2);
					int bad = 0;
					for (int64_t off = 0; off < R * C; off++) {
						uint32_t in[2] = {(uint32_t)off, 0}, rc[2];
						ll_apply(&l, in, rc);
						int64_t r = rc[0], c = rc[1], slab = c / atom, cc = c % atom;
						int64_t phase = (r / pp) % mp;
						int64_t sc = ((cc / vec) ^ phase) * vec + cc % vec;
						bad += slab * R * atom + r * atom + sc != off;
					}
					CHECK_EQ(0, bad);
				}
		}
	/* Unswizzled: row-major. */
	LLDesc s = nvmma_shared(0, 16);
	LLayout l = build_in(arena, &s, 32, 64, 2);
	int bad = 0;
	for (int64_t off = 0; off < 32 * 64; off++) {
		uint32_t in[2] = {(uint32_t)off, 0}, rc[2];
		ll_apply(&l, in, rc);
		bad += rc[0] * 64 + rc[1] != off;
	}
	CHECK_EQ(0, bad);
	/* Transposed: dim0 is contiguous. */
	s = nvmma_shared(128, 16);
	s.transposed = true;
	l = build_in(arena, &s, 64, 64, 2);
	bad = 0;
	for (int64_t off = 0; off < 64 * 64; off++) {
		uint32_t in[2] = {(uint32_t)off, 0}, rc[2];
		ll_apply(&l, in, rc);
		int64_t r = rc[1], c = rc[0];
		bad += r * 64 + (((c / 8) ^ (r % 8)) * 8 + c % 8) != off;
	}
	CHECK_EQ(0, bad);
}

static void
test_swizzled_formula(void)
{
	static const int p[][3] = {{1, 1, 1}, {8, 1, 8}, {4, 2, 4}, {2, 4, 2}, {1, 1, 16}, {4, 1, 8}};
	for (size_t k = 0; k < sizeof p / sizeof p[0]; k++)
		for (int o = 0; o < 2; o++)
			for (int64_t rows = 4; rows <= 128; rows *= 4)
				for (int64_t cols = 32; cols <= 128; cols *= 2) {
					int vec = p[k][0], pp = p[k][1], mp = p[k][2];
					if (vec * mp > cols)
						continue;
					LLDesc w = {0};
					w.kind = LL_SWIZZLED_SHARED, w.vec = vec, w.per_phase = pp;
					w.max_phase = mp, w.order = o ? ints2(0, 1) : ints2(1, 0);
					LLayout l = o ? build_in(arena, &w, cols, rows, 2) : build_in(arena, &w, rows, cols, 2);
					int bad = 0;
					for (int64_t off = 0; off < rows * cols; off++) {
						uint32_t in[2] = {(uint32_t)off, 0}, rc[2];
						ll_apply(&l, in, rc);
						int64_t r = o ? rc[1] : rc[0], c = o ? rc[0] : rc[1];
						int64_t ph = (r / pp) % mp;
						bad += r * cols + (((c / vec) ^ ph) * vec + c % vec) != off;
					}
					CHECK_EQ(0, bad);
				}
}

static void
test_distributed_linear(void)
{
	LLDesc d = {0};
	d.kind = LL_DISTRIBUTED_LINEAR;
	d.reg_bases.n = 2;
	d.reg_bases.b[0] = ints2(0, 1), d.reg_bases.b[1] = ints2(0, 2);
	int64_t lanes[5][2] = {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}};
	d.lane_bases.n = 5;
	for (int i = 0; i < 5; i++)
		d.lane_bases.b[i] = ints2(lanes[i][0], lanes[i][1]);
	d.warp_bases.n = 2;
	d.warp_bases.b[0] = ints2(8, 0), d.warp_bases.b[1] = ints2(16, 0);
	d.shape = ints2(32, 16);
	LLayout a = build_in(arena, &d, 32, 16, 2);
	LLDesc b = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	LLayout c = build_in(arena, &b, 32, 16, 2);
	CHECK(ll_equal(&a, &c));
	LLErr e = {arena, NULL};
	int64_t shape[2] = {64, 16};
	d.shape = ints2(64, 16);
	CHECK(!ll_build(&d, shape, 2, 4, &a, &e));
	CHECK(e.msg && strstr(e.msg, "do not cover"));
	d.lane_bases.n = 4;
	CHECK(!ll_build(&d, shape, 2, 4, &a, &e));
	CHECK(e.msg && strstr(e.msg, "lane_bases"));
}

/* -- Validation --------------------------------------------------------------- */

static void
expect_error(const LLDesc *d, int64_t s0, int64_t s1, int rank, int warps, const char *needle)
{
	int64_t shape[2] = {s0, s1};
	LLErr e = {arena, NULL};
	LLayout l;
	bool ok = ll_build(d, shape, rank, warps, &l, &e);
	CHECK(!ok);
	if (!ok && (!e.msg || !strstr(e.msg, needle))) {
		check_failures_in_test++;
		fprintf(stderr, "want an error with \"%s\", got \"%s\"\n", needle,
		        e.msg ? e.msg : "(null)");
	}
}

static void
test_validation(void)
{
	LLDesc d = blocked(ints2(1, 3), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	expect_error(&d, 32, 16, 2, 0, "size_per_thread[1] = 3 is not a power of two");
	d = blocked(ints2(1, 4), ints2(8, 2), ints2(4, 1), ints2(1, 0));
	expect_error(&d, 32, 16, 2, 0, "threads_per_warp multiplies to 16");
	d = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 1));
	expect_error(&d, 32, 16, 2, 0, "order is not a permutation");
	d = blocked(ints2(1, 4), ints2(8, 4), (LLInts){3, {4, 1, 1}}, ints2(1, 0));
	expect_error(&d, 32, 16, 2, 0, "warps_per_cta has 3 entries");
	d = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	expect_error(&d, 32, 16, 2, 8, "the kernel has 8 warps");
	expect_error(&d, 24, 16, 2, 0, "dim0 = 24 is not a power of two");
	LLDesc s = nvmma_shared(96, 16);
	expect_error(&s, 64, 64, 2, 0, "swizzle_byte_width = 96");
	s = nvmma_shared(128, 12);
	expect_error(&s, 64, 64, 2, 0, "element_bitwidth = 12");
	s = nvmma_shared(128, 16);
	expect_error(&s, 64, 32, 2, 0, "fewer than one 128-byte swizzle row");
	LLDesc m = nvmma(ints2(4, 1), 64);
	m.instr_shape.v[0] = 32;
	expect_error(&m, 64, 64, 2, 0, "instr_shape[0] = 32");
	m = nvmma(ints2(4, 1), 24);
	expect_error(&m, 64, 64, 2, 0, "instr_shape[1] = 24");
	m = nvmma(ints2(4, 1), 64);
	LLDesc dot = {0};
	dot.kind = LL_DOT_OPERAND, dot.operand_index = 1, dot.parent = &m, dot.k_width = 2;
	expect_error(&dot, 64, 64, 2, 0, "operand 0 (A)");
	LLDesc w = {0};
	w.kind = LL_SWIZZLED_SHARED, w.vec = 3, w.per_phase = 1, w.max_phase = 1, w.order = ints2(1, 0);
	expect_error(&w, 64, 64, 2, 0, "powers of two");
}

static void
test_desc_print(void)
{
	LLDesc d = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	StrBuf b = {0};
	ll_desc_print(&d, &b);
	CHECK_STR("BlockedLayout([1,4],[8,4],[4,1],[1,0])", b.s);
	LLDesc s = {0};
	s.kind = LL_SLICE, s.dim = 1, s.parent = &d;
	buf_clear(&b);
	ll_desc_print(&s, &b);
	CHECK_STR("SliceLayout(1, BlockedLayout([1,4],[8,4],[4,1],[1,0]))", b.s);
	LLDesc n = nvmma_shared(128, 16);
	buf_clear(&b);
	ll_desc_print(&n, &b);
	CHECK_STR("NVMMASharedLayout(128, 16)", b.s);
	buf_free(&b);
}

/* -- Algebra laws --------------------------------------------------------------- */

static LLayout
random_map(uint64_t *s, LLName in, int in_bits, LLName out, int out_bits)
{
	LLayout l = ll_empty();
	ll_add_in(&l, in, in_bits);
	ll_add_out(&l, out, out_bits);
	for (int k = 0; k < in_bits; k++)
		l.col[k] = out_bits ? rnd(s) & ((1ull << out_bits) - 1) : 0;
	return l;
}

static LLayout
random_bijection(uint64_t *s, int bits)
{
	for (;;) {
		LLayout l = random_map(s, LL_DIM0, bits, LL_DIM1, bits);
		if (ll_is_injective(&l))
			return l;
	}
}

static void
test_compose_assoc(void)
{
	uint64_t s = 12345;
	for (int t = 0; t < 200; t++) {
		LLayout a = random_map(&s, LL_REGISTER, 6, LL_LANE, 5);
		LLayout b = random_map(&s, LL_LANE, 5, LL_WARP, 7);
		LLayout c = random_map(&s, LL_WARP, 7, LL_DIM0, 4);
		LLayout ab, abc1, bc, abc2;
		CHECK(ll_compose(&a, &b, &ab, NULL) && ll_compose(&ab, &c, &abc1, NULL));
		CHECK(ll_compose(&b, &c, &bc, NULL) && ll_compose(&a, &bc, &abc2, NULL));
		CHECK(ll_equal(&abc1, &abc2));
		for (uint64_t x = 0; x < 64; x++)
			CHECK(ll_apply_packed(&abc1, x) ==
			      ll_apply_packed(&c, ll_apply_packed(&b, ll_apply_packed(&a, x))));
	}
}

static void
test_invert(void)
{
	uint64_t s = 99;
	for (int t = 0; t < 100; t++) {
		LLayout l = random_bijection(&s, 8), inv, back;
		CHECK(ll_invert(&l, &inv, NULL));
		CHECK(ll_invert(&inv, &back, NULL));
		CHECK(ll_equal(&l, &back));
		for (uint64_t x = 0; x < 256; x++)
			CHECK_EQ(x, ll_apply_packed(&inv, ll_apply_packed(&l, x)));
	}
	LLayout z = ll_zeros_1d(3, LL_DIM0, LL_DIM1), inv;
	LLErr e = {arena, NULL};
	CHECK(!ll_invert(&z, &inv, &e) && e.msg);
}

static void
test_pseudo_invert_and_compose(void)
{
	uint64_t s = 7;
	for (int t = 0; t < 100; t++) {
		LLayout a = random_map(&s, LL_REGISTER, 9, LL_DIM0, 5);
		if (!ll_is_surjective(&a))
			continue;
		LLayout p;
		CHECK(ll_pseudo_invert(&a, &p, NULL));
		for (uint64_t y = 0; y < 32; y++) {
			uint64_t x = ll_apply_packed(&p, y);
			CHECK_EQ(y, ll_apply_packed(&a, x));
			/* smallest preimage, by brute force */
			uint64_t best = 0;
			while (ll_apply_packed(&a, best) != y)
				best++;
			CHECK_EQ(best, x);
		}
		LLayout b = random_map(&s, LL_WARP, 6, LL_DIM0, 5), c;
		if (!ll_invert_and_compose(&b, &a, &c, NULL))
			continue;
		for (uint64_t x = 0; x < 64; x++)
			CHECK_EQ(ll_apply_packed(&b, x), ll_apply_packed(&a, ll_apply_packed(&c, x)));
	}
	LLayout a = random_map(&s, LL_REGISTER, 2, LL_DIM0, 5), b = random_map(&s, LL_WARP, 2, LL_DIM0, 5);
	a.col[0] = 1, a.col[1] = 0, b.col[0] = 2, b.col[1] = 0;
	LLayout c;
	LLErr e = {arena, NULL};
	CHECK(!ll_invert_and_compose(&b, &a, &c, &e) && e.msg);
}

static void
test_product_and_divide(void)
{
	LLayout a = ll_identity_1d(2, LL_REGISTER, LL_DIM0), b = ll_identity_1d(1, LL_REGISTER, LL_DIM0);
	LLayout p, q = ll_identity_1d(3, LL_REGISTER, LL_DIM0), c;
	CHECK(ll_product(&a, &b, &p, NULL));
	CHECK(ll_equal(&p, &q));
	uint64_t s = 5;
	for (int t = 0; t < 50; t++) {
		LLayout x = random_map(&s, LL_REGISTER, 3, LL_DIM0, 3);
		LLayout y = random_map(&s, LL_REGISTER, 4, LL_DIM0, 5);
		LLayout z = random_map(&s, LL_LANE, 2, LL_DIM1, 2);
		LLayout yz;
		ll_product(&y, &z, &yz, NULL);
		CHECK(ll_product(&x, &yz, &p, NULL));
		CHECK_EQ(7, ll_in_bits(&p, LL_REGISTER));
		CHECK_EQ(8, ll_out_bits(&p, LL_DIM0));
		CHECK_EQ(2, ll_out_bits(&p, LL_DIM1));
		CHECK(ll_divide_left(&p, &x, &c, NULL));
		CHECK(ll_equal(&c, &yz));
		/* apply of a product: x's bits then yz's bits shifted above x */
		for (uint64_t i = 0; i < 8; i++)
			for (uint64_t j = 0; j < 16; j++) {
				uint32_t in[2] = {(uint32_t)(i | j << 3), 0}, out[2];
				ll_apply(&p, in, out);
				CHECK_EQ(ll_apply_packed(&x, i) | ll_apply_packed(&y, j) << 3, out[0]);
			}
	}
	LLayout w = ll_identity_1d(3, LL_REGISTER, LL_DIM0);
	w.col[0] = 2, w.col[1] = 1;
	LLErr e = {arena, NULL};
	CHECK(!ll_divide_left(&w, &a, &c, &e) && e.msg);
}

static void
test_free_masks_and_rank(void)
{
	uint64_t s = 31;
	for (int t = 0; t < 100; t++) {
		LLayout l = random_map(&s, LL_REGISTER, 3, LL_DIM0, 4);
		LLayout m = random_map(&s, LL_LANE, 3, LL_DIM0, 4), p;
		if (t % 3 == 0)
			m.col[1] = 0;
		/* in-dims register and lane into one layout on dim0 */
		p = l;
		ll_add_in(&p, LL_LANE, 3);
		for (int k = 0; k < 3; k++)
			p.col[3 + k] = m.col[k];
		uint64_t masks[LL_MAX_DIMS];
		ll_free_masks(&p, masks);
		/* bit k is free iff column k is in the span of columns 0..k-1 */
		int rank = 0;
		for (int k = 0; k < 6; k++) {
			bool in_span = false;
			for (uint64_t c = 0; c < 1u << k && !in_span; c++)
				in_span = ll_apply_packed(&p, c) == p.col[k];
			bool freebit = (k < 3 ? masks[0] >> k : masks[1] >> (k - 3)) & 1;
			CHECK_EQ(in_span, freebit);
			rank += !in_span;
		}
		CHECK_EQ(rank, ll_rank(&p));
		CHECK_EQ(rank == 6, ll_is_injective(&p));
		CHECK_EQ(rank == 4, ll_is_surjective(&p));
	}
}

static void
test_reshape_transpose_consecutive(void)
{
	LLDesc d = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	LLayout l = build_in(arena, &d, 32, 16, 2), t, back, r;
	CHECK_EQ(4, ll_num_consecutive(&l, LL_REGISTER, LL_DIM1));
	CHECK_EQ(1, ll_num_consecutive(&l, LL_REGISTER, LL_DIM0));
	CHECK_EQ(4, ll_global_vector_width(&l, 16, 16));
	CHECK_EQ(2, ll_global_vector_width(&l, 16, 4));
	CHECK_EQ(2, ll_global_vector_width(&l, 64, 16));
	int perm[2] = {1, 0};
	CHECK(ll_transpose_outs(&l, perm, &t, NULL));
	CHECK(ll_transpose_outs(&t, perm, &back, NULL));
	CHECK(ll_equal(&l, &back));
	uint32_t in[4] = {3, 5, 2, 0}, o1[2], o2[2];
	ll_apply(&l, in, o1);
	ll_apply(&t, in, o2);
	CHECK(o1[0] == o2[1] && o1[1] == o2[0]);
	int bits[1] = {9};
	CHECK(ll_reshape_outs(&l, bits, 1, &r, NULL));
	uint32_t flat[1];
	ll_apply(&r, in, flat);
	CHECK_EQ(o1[0] * 16 + o1[1], flat[0]);
	LLayout q;
	CHECK(!ll_quotient(&l, LL_LANE, &q));
	LLayout id = ll_identity_1d(5, LL_LANE, LL_LANE);
	CHECK(ll_quotient(&id, LL_LANE, &q) && q.n_in == 0);
}

/* ll_permute_outs is numpy's transpose: the permuted map of every input,
 * checked exhaustively for a 3-D shared layout and all 6 permutations, names
 * dim0..dim2 in order (ll_transpose_outs keeps the names and would match the
 * unpermuted map by name). */
static void
test_permute_outs(void)
{
	LLDesc d = {.kind = LL_SWIZZLED_SHARED, .vec = 2, .per_phase = 1, .max_phase = 4,
	            .order = {3, {2, 1, 0}}};
	int64_t shape[3] = {2, 8, 16};
	LLayout l, p;
	CHECK(ll_build(&d, shape, 3, 0, &l, NULL));
	static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1},
	                                {2, 1, 0}};
	for (int k = 0; k < 6; k++) {
		CHECK(ll_permute_outs(&l, perms[k], &p, NULL));
		for (int j = 0; j < 3; j++)
			CHECK_EQ(LL_DIM0 + j, p.out_name[j]);
		for (uint32_t off = 0; off < 256; off++) {
			uint32_t in[2] = {off, 0}, a[3], b[3];
			ll_apply(&l, in, a);
			ll_apply(&p, in, b);
			for (int j = 0; j < 3; j++)
				CHECK_EQ(a[perms[k][j]], b[j]);
		}
	}
}

/* The constructor Triton gives a permuted shared view (ll_desc_permuted:
 * a SwizzledSharedLayout's order renumbered, a 2-D NVMMASharedLayout's
 * `transposed` flipped) builds exactly the permuted map, for every
 * permutation of swizzled layouts over every order of a 3-D shape and for
 * 2-D NVMMA tiles of each swizzle but none; other NVMMA permutations have
 * none. */
static void
test_permuted_shared_descs(void)
{
	static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1},
	                                {2, 1, 0}};
	static const int swz[][3] = {{1, 1, 1}, {2, 1, 4}, {4, 2, 4}, {8, 1, 8}};
	int64_t shape[3] = {2, 16, 32};
	for (size_t s = 0; s < sizeof swz / sizeof swz[0]; s++)
		for (int o = 0; o < 6; o++)
			for (int k = 0; k < 6; k++) {
				LLDesc d = {.kind = LL_SWIZZLED_SHARED, .vec = swz[s][0],
				            .per_phase = swz[s][1], .max_phase = swz[s][2]};
				int64_t order[3] = {perms[o][0], perms[o][1], perms[o][2]};
				d.order = ints_n(3, order);
				LLayout l, p, built;
				CHECK(ll_build(&d, shape, 3, 0, &l, NULL));
				CHECK(ll_permute_outs(&l, perms[k], &p, NULL));
				const LLDesc *pd = ll_desc_permuted(arena, &d, perms[k], 3);
				int64_t pshape[3];
				for (int j = 0; j < 3; j++)
					pshape[j] = shape[perms[k][j]];
				CHECK(pd && ll_build(pd, pshape, 3, 0, &built, NULL) && ll_equal(&built, &p));
			}
	static const int sw[] = {0, 32, 64, 128};
	static const int t2[2] = {1, 0}, id2[2] = {0, 1};
	for (int s = 0; s < 4; s++)
		for (int tr = 0; tr < 2; tr++) {
			LLDesc d = nvmma_shared(sw[s], 16);
			d.transposed = tr;
			LLayout l = build_in(arena, &d, 64, 64, 2), p, built;
			CHECK(ll_permute_outs(&l, t2, &p, NULL));
			const LLDesc *pd = ll_desc_permuted(arena, &d, t2, 2);
			int64_t shp[2] = {64, 64};
			/* unswizzled tiles transpose their 8x16-byte core matrices
			 * differently: the flipped constructor is another map, and
			 * the view keeps its SharedLinearLayout (sema's view_type) */
			CHECK(pd && pd->transposed == !tr && ll_build(pd, shp, 2, 0, &built, NULL));
			CHECK(ll_equal(&built, &p) == (sw[s] != 0));
			CHECK(ll_desc_permuted(arena, &d, id2, 2) == &d);
		}
	LLDesc n3 = nvmma_shared(128, 16);
	n3.rank = 3;
	CHECK(ll_desc_permuted(arena, &n3, perms[1], 3) == NULL);
	CHECK(ll_desc_smem_reshaped(arena, &n3, 2)->rank == 2);
	LLDesc sw2 = {.kind = LL_SWIZZLED_SHARED, .vec = 1, .per_phase = 1, .max_phase = 1,
	              .order = ints2(1, 0)};
	CHECK(ll_desc_smem_reshaped(arena, &sw2, 3) == NULL);
}

/* -- Printers ----------------------------------------------------------------- */

static void
test_formats(void)
{
	LLDesc d = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	LLayout l = build_in(arena, &d, 32, 16, 2);
	StrBuf b = {0};
	ll_format_json(&l, NULL, &b);
	CHECK_STR("{\"kind\":\"distributed\",\"shape\":[32,16],\"bases\":{\"register\":[[0,1],[0,2]],"
	          "\"lane\":[[0,4],[0,8],[1,0],[2,0],[4,0]],\"warp\":[[8,0],[16,0]],\"block\":[]}}\n",
	          b.s);
	LLDesc s = nvmma_shared(128, 16);
	LLayout sh = build_in(arena, &s, 8, 64, 2);
	buf_clear(&b);
	ll_format_json(&sh, NULL, &b);
	CHECK(strncmp(b.s, "{\"kind\":\"shared\",\"shape\":[8,64],\"bases\":{\"offset\":[[0,1]", 55) == 0);
	CHECK(strstr(b.s, "\"block\":[]}}\n") != NULL);
	/* owner table: element (17,7) is warp 2 lane 5 register 3 -> t69:r3 */
	buf_clear(&b);
	ll_format_text(&l, NULL, &b);
	const char *row = strstr(b.s, "\n   17 ");
	CHECK(row != NULL);
	if (row) {
		char cell[32];
		const char *p = row + 7;
		for (int c = 0; c < 8; c++) {
			sscanf(p, "%31s", cell);
			p = strstr(p, cell) + strlen(cell);
		}
		CHECK_STR("t69:r3", cell);
	}
	buf_clear(&b);
	ll_format_text(&sh, NULL, &b);
	CHECK(strstr(b.s, "\n    1  72  73  74") != NULL); /* row 1: 64 + (c ^ 8) */
	buf_clear(&b);
	ll_format_matrix(&l, NULL, &b);
	CHECK(strncmp(b.s, "          reg0 reg1 lane0", 25) == 0);
	CHECK(strstr(b.s, "\ndim0[0]      0    0     0     0     1") != NULL);
	buf_clear(&b);
	ll_format_svg(&l, NULL, 16, &b);
	CHECK(strncmp(b.s, "<svg", 4) == 0 && strstr(b.s, ">T69:R3<") && strstr(b.s, "</svg>"));
	buf_free(&b);
}

int
main(void)
{
	arena = arena_new();
	RUN_TEST(test_golden_blocked);
	RUN_TEST(test_golden_slice_1d);
	RUN_TEST(test_golden_nvmma);
	RUN_TEST(test_golden_dot_operand);
	RUN_TEST(test_golden_nvmma_v2);
	RUN_TEST(test_golden_shared);
	RUN_TEST(test_blocked_formula);
	RUN_TEST(test_wgmma_formula);
	RUN_TEST(test_dot_a_formula);
	RUN_TEST(test_nvmma_shared_formula);
	RUN_TEST(test_swizzled_formula);
	RUN_TEST(test_distributed_linear);
	RUN_TEST(test_validation);
	RUN_TEST(test_desc_print);
	RUN_TEST(test_compose_assoc);
	RUN_TEST(test_invert);
	RUN_TEST(test_pseudo_invert_and_compose);
	RUN_TEST(test_product_and_divide);
	RUN_TEST(test_free_masks_and_rank);
	RUN_TEST(test_reshape_transpose_consecutive);
	RUN_TEST(test_permute_outs);
	RUN_TEST(test_permuted_shared_descs);
	RUN_TEST(test_formats);
	RUN_TEST(test_nvmma_fp4_padded);
	arena_free(arena);
	return check_summary();
}
