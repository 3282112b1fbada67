/* Unit tests of CGA layouts (block bases): every constructor with a
 * cga_layout against the index map of its CTA tiles (brute force over all
 * registers, lanes, warps or offsets and CTAs), Triton 3.6's goldens and
 * refusals, the algebra with a block in-dim against brute force, each
 * CTA's part (tile, box, multicast mask), descriptions and printers. */
#include "test/unit/check.h"
#include "test/unit/test_layout_util.h"

static Arena *arena;

static LLBases
bases_n(int n, int rank, const int64_t (*v)[3])
{
	LLBases b = {0};
	b.n = n;
	for (int i = 0; i < n; i++)
		b.b[i] = ints_n(rank, v[i]);
	return b;
}

/* Checks, by brute force over every hardware index x (all in-dims but
 * block) and CTA c, that withcga(x, c) is plain(x) moved to CTA c's tile:
 * per dim, (g[j] * tile[j] + plain(x)[j]) mod shape[j], where g is the
 * XOR of the grid bases of c's set bits and tile[j] = shape[j] / grid[j]
 * (at least 1), grid[j] the smallest power of two above the largest
 * coordinate. plain is the same constructor with no cga_layout, built on
 * the tile. Returns the number of wrong elements (0 too when neither
 * builds, -1 when only plain does). */
static int
check_tiles(const LLDesc *withcga, const LLDesc *plain, const LLBases *grid,
            const int64_t *shape, int rank)
{
	int64_t g[LL_MAX_RANK], tile[LL_MAX_RANK];
	for (int j = 0; j < rank; j++) {
		g[j] = 1;
		for (int i = 0; i < grid->n; i++)
			while (g[j] <= grid->b[i].v[j])
				g[j] *= 2;
		tile[j] = shape[j] / g[j] > 1 ? shape[j] / g[j] : 1;
	}
	LLayout l, t;
	LLErr e = {arena, NULL};
	if (!ll_build(plain, tile, rank, 0, &t, &e))   /* no such tile: no such layout */
		return ll_build(withcga, shape, rank, 0, &l, &e) ? -1 : 0;
	if (!build_shape(arena, withcga, shape, rank, &l))
		return -1;
	int nb = ll_in_bits(&l, LL_BLOCK), nx = ll_total_in_bits(&l) - nb;
	CHECK_EQ(grid->n, nb);
	CHECK_EQ(nx, ll_total_in_bits(&t));
	int bad = 0;
	for (int c = 0; c < 1 << nb; c++) {
		int64_t at[LL_MAX_RANK] = {0};
		for (int i = 0; i < grid->n; i++)
			for (int j = 0; c >> i & 1 && j < rank; j++)
				at[j] ^= grid->b[i].v[j];
		for (uint64_t x = 0; x < 1ull << nx; x++) {
			uint32_t got[LL_MAX_DIMS], want[LL_MAX_DIMS];
			ll_unpack_out(&l, ll_apply_packed(&l, x | (uint64_t)c << nx), got);
			ll_unpack_out(&t, ll_apply_packed(&t, x), want);
			for (int j = 0; j < rank; j++)
				bad += got[j] != (uint32_t)((at[j] * tile[j] + want[j]) % shape[j]);
		}
	}
	return bad;
}

static const int64_t grids2[][4][3] = {
	{{1, 0}}, {{0, 1}}, {{1, 0}, {0, 1}}, {{0, 1}, {1, 0}}, {{1, 0}, {2, 0}},
	{{2, 0}, {1, 0}}, {{0, 0}}, {{1, 0}, {0, 0}}, {{0, 1}, {0, 2}, {1, 0}},
	{{1, 0}, {2, 0}, {0, 1}, {0, 2}},
};
static const int grid_n[] = {1, 1, 2, 2, 2, 2, 1, 2, 3, 4};
enum { N_GRIDS = sizeof grid_n / sizeof grid_n[0] };

static void
test_blocked_tiles(void)
{
	static const int64_t sets[][4][2] = {
		{{1, 4}, {8, 4}, {4, 1}, {1, 0}}, {{2, 2}, {4, 8}, {2, 2}, {0, 1}},
		{{1, 1}, {32, 1}, {1, 4}, {1, 0}},
	};
	static const int64_t shapes[][2] = {{64, 64}, {128, 32}, {16, 256}, {4, 8}, {1, 16}};
	for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++)
		for (int k = 0; k < N_GRIDS; k++)
			for (size_t h = 0; h < sizeof shapes / sizeof shapes[0]; h++) {
				LLDesc p = blocked(ints_n(2, sets[s][0]), ints_n(2, sets[s][1]),
				                   ints_n(2, sets[s][2]), ints_n(2, sets[s][3]));
				LLDesc d = p;
				d.cga_layout = bases_n(grid_n[k], 2, grids2[k]);
				CHECK_EQ(0, check_tiles(&d, &p, &d.cga_layout, shapes[h], 2));
			}
	/* rank 3, a dim split over 4 CTAs and one over 2 */
	const int64_t s3[3] = {1, 2, 2}, t3[3] = {2, 4, 4}, w3[3] = {2, 1, 2}, o3[3] = {2, 0, 1};
	const int64_t g3[3][3] = {{0, 0, 1}, {1, 0, 0}, {0, 0, 2}}, sh3[3] = {8, 16, 64};
	LLDesc p = blocked(ints_n(3, s3), ints_n(3, t3), ints_n(3, w3), ints_n(3, o3)), d = p;
	d.cga_layout = bases_n(3, 3, g3);
	CHECK_EQ(0, check_tiles(&d, &p, &d.cga_layout, sh3, 3));
}

static void
test_nvmma_and_dot_tiles(void)
{
	static const int64_t shapes[][2] = {{128, 64}, {256, 128}, {64, 256}, {32, 64}};
	for (int k = 0; k < N_GRIDS; k++)
		for (size_t h = 0; h < sizeof shapes / sizeof shapes[0]; h++) {
			LLDesc m = nvmma(ints2(4, 1), 64), mc = m;
			mc.cga_layout = bases_n(grid_n[k], 2, grids2[k]);
			CHECK_EQ(0, check_tiles(&mc, &m, &mc.cga_layout, shapes[h], 2));
			/* operand A: broadcast over the CTAs that split K (dim1) */
			LLDesc a = {.kind = LL_DOT_OPERAND, .parent = &m, .k_width = 2}, ac = a;
			ac.parent = &mc;
			LLBases kz = mc.cga_layout;
			for (int i = 0; i < kz.n; i++)
				kz.b[i].v[1] = 0;
			CHECK_EQ(0, check_tiles(&ac, &a, &kz, shapes[h], 2));
			LLBases got;
			CHECK(ll_desc_cga_layout(&ac, &got));
			CHECK_EQ(kz.n, got.n);
			for (int i = 0; i < kz.n; i++)
				CHECK(got.b[i].v[0] == kz.b[i].v[0] && got.b[i].v[1] == 0);
			/* operand B of an FMA dot over a Blocked parent: K is dim0 */
			LLDesc bp = blocked(ints2(1, 2), ints2(4, 8), ints2(2, 2), ints2(1, 0)), bc = bp;
			bc.cga_layout = mc.cga_layout;
			LLDesc b = {.kind = LL_DOT_OPERAND, .operand_index = 1, .parent = &bp}, bcd = b;
			bcd.parent = &bc;
			LLBases kz0 = mc.cga_layout;
			for (int i = 0; i < kz0.n; i++)
				kz0.b[i].v[0] = 0;
			const int64_t small[2] = {16, shapes[h][1]};
			CHECK_EQ(0, check_tiles(&bcd, &b, &kz0, small, 2));
		}
}

static void
test_slice_tiles(void)
{
	LLDesc p = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	for (int k = 0; k < N_GRIDS; k++)
		for (int dim = 0; dim < 2; dim++) {
			LLDesc pc = p;
			pc.cga_layout = bases_n(grid_n[k], 2, grids2[k]);
			LLDesc s = {.kind = LL_SLICE, .dim = dim, .parent = &p}, sc = s;
			sc.parent = &pc;
			LLBases kept;
			CHECK(ll_desc_cga_layout(&sc, &kept));
			for (int i = 0; i < kept.n; i++)
				CHECK(kept.b[i].n == 1 && kept.b[i].v[0] == grids2[k][i][1 - dim]);
			for (int64_t n = 1; n <= 256; n *= 4)
				CHECK_EQ(0, check_tiles(&sc, &s, &kept, &n, 1));
		}
}

static void
test_shared_tiles(void)
{
	static const int64_t shapes[][2] = {{128, 64}, {64, 128}, {256, 256}};
	static const int sws[] = {0, 32, 64, 128};
	for (int k = 0; k < N_GRIDS; k++)
		for (size_t h = 0; h < sizeof shapes / sizeof shapes[0]; h++) {
			for (int w = 0; w < 4; w++)
				for (int tr = 0; tr < 2; tr++) {
					LLDesc n = nvmma_shared(sws[w], 16), nc;
					n.transposed = tr;
					nc = n;
					nc.cga_layout = bases_n(grid_n[k], 2, grids2[k]);
					CHECK_EQ(0, check_tiles(&nc, &n, &nc.cga_layout, shapes[h], 2));
				}
			LLDesc s = {.kind = LL_SWIZZLED_SHARED, .vec = 4, .per_phase = 2, .max_phase = 4,
			            .order = ints2(0, 1)}, sc = s;
			sc.cga_layout = bases_n(grid_n[k], 2, grids2[k]);
			CHECK_EQ(0, check_tiles(&sc, &s, &sc.cga_layout, shapes[h], 2));
		}
}

/* Bases Triton 3.6 gives (GluonOpBuilder.to_linear_layout; for shared
 * layouts the SharedLinearLayout of a buffer's reshape to its own shape). */
static void
test_triton_goldens(void)
{
#define BL "BlockedLayout([1,4],[8,4],[4,1],[1,0], cga_layout="
#define MMA "NVMMADistributedLayout([3,0],[4,1],[16,64,16], cga_layout="
	static const struct {
		const char *layout;
		int64_t shape[2];
		int rank;
		LLName dim;
		const char *want;
	} goldens[] = {
		{BL "[[1,0]])", {64, 16}, 2, LL_REGISTER, "[[0,1],[0,2]]"},
		{BL "[[1,0]])", {64, 16}, 2, LL_WARP, "[[8,0],[16,0]]"},
		{BL "[[1,0]])", {64, 16}, 2, LL_BLOCK, "[[32,0]]"},
		{BL "[[1,0]])", {16, 16}, 2, LL_WARP, "[[0,0],[0,0]]"},
		{BL "[[1,0]])", {16, 16}, 2, LL_BLOCK, "[[8,0]]"},
		{BL "[[1,0]])", {1, 16}, 2, LL_LANE, "[[0,4],[0,8],[0,0],[0,0],[0,0]]"},
		{BL "[[1,0]])", {1, 16}, 2, LL_BLOCK, "[[0,0]]"},
		{BL "[[1,0],[0,1]])", {128, 128}, 2, LL_REGISTER, "[[0,1],[0,2],[0,16],[0,32],[32,0]]"},
		{BL "[[1,0],[0,1]])", {128, 128}, 2, LL_BLOCK, "[[64,0],[0,64]]"},
		{BL "[[1,0],[2,0]])", {2, 16}, 2, LL_BLOCK, "[[1,0],[0,0]]"},
		{BL "[[1,0],[1,0]])", {64, 32}, 2, LL_REGISTER, "[[0,1],[0,2],[0,16]]"},
		{BL "[[1,0],[1,0]])", {64, 32}, 2, LL_BLOCK, "[[32,0],[32,0]]"},
		{BL "[[2,0],[3,0]])", {64, 8}, 2, LL_BLOCK, "[[32,0],[48,0]]"},
		{MMA "[[1,0]])", {128, 64}, 2, LL_REGISTER, "[[0,1],[8,0],[0,8],[0,16],[0,32]]"},
		{MMA "[[1,0]])", {128, 64}, 2, LL_BLOCK, "[[64,0]]"},
		{"DotOperandLayout(0, " MMA "[[0,1]]), 2)", {64, 64}, 2, LL_BLOCK, "[[0,0]]"},
		{"SliceLayout(1, " BL "[[1,0],[0,1]]))", {64, 0}, 1, LL_BLOCK, "[[32],[0]]"},
		{"SliceLayout(0, " BL "[[1,0],[0,1]]))", {64, 0}, 1, LL_REGISTER, "[[1],[2],[16]]"},
		{"SliceLayout(0, " BL "[[1,0],[0,1]]))", {64, 0}, 1, LL_BLOCK, "[[0],[32]]"},
		{"SwizzledSharedLayout(8, 1, 8, [1,0], cga_layout=[[1,0]])", {128, 64}, 2, LL_OFFSET,
		 "[[0,1],[0,2],[0,4],[0,8],[0,16],[0,32],[1,8],[2,16],[4,32],[8,0],[16,0],[32,0]]"},
		{"SwizzledSharedLayout(8, 1, 8, [1,0], cga_layout=[[1,0]])", {128, 64}, 2, LL_BLOCK,
		 "[[64,0]]"},
		{"NVMMASharedLayout(128, 16, transposed=True, cga_layout=[[0,1]])", {128, 64}, 2,
		 LL_OFFSET,
		 "[[1,0],[2,0],[4,0],[8,0],[16,0],[32,0],[8,1],[16,2],[32,4],[0,8],[0,16],[64,0]]"},
		{"NVMMASharedLayout(128, 16, transposed=True, cga_layout=[[0,1]])", {128, 64}, 2,
		 LL_BLOCK, "[[0,32]]"},
	};
#undef BL
#undef MMA
	for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++) {
		const LLDesc *d;
		size_t used;
		LLErr e = {arena, NULL};
		LLayout l;
		CHECK(ll_desc_parse(goldens[i].layout, strlen(goldens[i].layout), arena, &d, &used, &e));
		if (d && build_shape(arena, d, goldens[i].shape, goldens[i].rank, &l))
			CHECK_STR(goldens[i].want, bases_str(&l, goldens[i].dim));
	}
}

static void
expect_refusal(const LLDesc *d, const int64_t *shape, int rank, const char *needle)
{
	LLErr e = {arena, NULL};
	LLayout l;
	bool ok = ll_build(d, shape, rank, 0, &l, &e);
	CHECK(!ok);
	if (!ok && (!e.msg || !strstr(e.msg, needle))) {
		check_failures_in_test++;
		fprintf(stderr, "want an error with \"%s\", got \"%s\"\n", needle, e.msg ? e.msg : "");
	}
}

/* What Triton 3.6 refuses (aborts on), refused here with a sentence. */
static void
test_refusals(void)
{
	LLDesc b = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	const int64_t s64[2] = {64, 32}, s41[2] = {4, 1}, s18[2] = {1, 8};
	const int64_t gap[1][3] = {{2, 0}}, diag[1][3] = {{1, 1}}, rank1[1][3] = {{1}};
	const int64_t tie[2][3] = {{0, 1}, {1, 1}}, odd[2][3] = {{2, 0}, {3, 0}};
	const int64_t five[5][3] = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}};
	b.cga_layout = bases_n(1, 2, gap);
	expect_refusal(&b, s64, 2, "does not reach every tile of its grid of [4 x 1] CTA tiles");
	b.cga_layout = bases_n(1, 2, diag);
	expect_refusal(&b, s64, 2, "does not reach every tile");
	b.cga_layout = bases_n(1, 1, rank1);
	expect_refusal(&b, s64, 2, "cga_layout[0] has 1 coordinates but the tensor has rank 2");
	b.cga_layout = bases_n(2, 2, tie);
	expect_refusal(&b, s41, 2, "two bases step alike");
	expect_refusal(&b, s64, 2, "block basis 1 moves along 2 dims");
	b.cga_layout = bases_n(2, 2, odd);
	expect_refusal(&b, s18, 2, "steps 3 CTA tiles along dim0");
	LLayout l;
	CHECK(build_shape(arena, &b, s64, 2, &l)); /* uncut, 3 tiles is fine */
	CHECK_STR("[[32,0],[48,0]]", bases_str(&l, LL_BLOCK));
	b.cga_layout = bases_n(5, 2, five);
	expect_refusal(&b, s64, 2, "a cluster holds at most 16 CTAs");
	/* a dot operand checks its parent's cga_layout as given */
	LLDesc bp = blocked(ints2(1, 1), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	bp.cga_layout = bases_n(1, 2, gap);
	LLDesc dot = {.kind = LL_DOT_OPERAND, .operand_index = 1, .parent = &bp};
	const int64_t s16[2] = {16, 1};
	expect_refusal(&dot, s16, 2, "does not reach every tile");
	/* shared layouts: the block bases must place new elements */
	LLDesc w = {.kind = LL_SWIZZLED_SHARED, .vec = 1, .per_phase = 1, .max_phase = 1,
	            .order = ints2(1, 0)};
	const int64_t dup[2][3] = {{1, 0}, {1, 0}};
	w.cga_layout = bases_n(2, 2, dup);
	expect_refusal(&w, s64, 2, "block basis 1 gives a CTA elements that the offsets");
	LLDesc sl = {.kind = LL_SHARED_LINEAR};
	const int64_t offs[3][3] = {{1, 0}, {2, 0}, {0, 1}}, blk[1][3] = {{1, 0}};
	sl.offset_bases = bases_n(3, 2, offs);
	sl.block_bases = bases_n(1, 2, blk);
	const int64_t s42[2] = {4, 2};
	expect_refusal(&sl, s42, 2, "block basis 0 gives a CTA elements");
	/* a distributed linear layout: block bases along one dim each */
	LLDesc dl = {.kind = LL_DISTRIBUTED_LINEAR};
	const int64_t lanes[5][3] = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
	const int64_t reg[1][3] = {{0, 1}}, warp[1][3] = {{8, 0}}, bd[1][3] = {{16, 1}};
	dl.reg_bases = bases_n(1, 2, reg), dl.lane_bases = bases_n(5, 2, lanes);
	dl.warp_bases = bases_n(1, 2, warp), dl.block_bases = bases_n(1, 2, bd);
	dl.shape = ints2(32, 8);
	const int64_t s328[2] = {32, 8};
	expect_refusal(&dl, s328, 2, "block basis 0 moves along 2 dims");
	dl.block_bases.b[0] = ints2(16, 0);
	CHECK(build_shape(arena, &dl, s328, 2, &l));
	CHECK_STR("[[16,0]]", bases_str(&l, LL_BLOCK));
}

/* -- The algebra with a block in-dim ---------------------------------------- */

/* A random map from register (3 bits), lane (5), warp (2) and block (2) to
 * dim0 x dim1 (6 + 6 bits, or 5 + 6 when `narrow`): a permutation of the
 * output bits, some columns XORed with others, sometimes one made zero or
 * a copy of another (a broadcast; narrow maps always have one). */
static LLayout
random_cga_map(uint64_t *s, bool narrow)
{
	LLayout l = ll_empty();
	ll_add_in(&l, LL_REGISTER, 3);
	ll_add_in(&l, LL_LANE, 5);
	ll_add_in(&l, LL_WARP, 2);
	ll_add_in(&l, LL_BLOCK, 2);
	ll_add_out(&l, LL_DIM0, narrow ? 5 : 6);
	ll_add_out(&l, LL_DIM1, 6);
	for (int k = 0; k < 12; k++)
		l.col[k] = 1ull << k;
	for (int k = 11; k > 0; k--) {
		int j = (int)(rnd(s) % (uint64_t)(k + 1));
		uint64_t t = l.col[k];
		l.col[k] = l.col[j], l.col[j] = t;
	}
	for (int n = (int)(rnd(s) % 4); n > 0; n--) {
		int a = (int)(rnd(s) % 12), b = (int)(rnd(s) % 12);
		if (a != b)
			l.col[a] ^= l.col[b];
	}
	int k = 0;
	while (!narrow && k < 11 && !(l.col[k] >> 11 & 1))
		k++;
	if (!narrow)
		k = (int)(rnd(s) % 12);
	for (int i = 0; narrow && i < 12; i++)
		if (l.col[i] >> 11 & 1)
			k = i;
	switch (narrow ? rnd(s) % 2 : rnd(s) % 4) {
	case 0: l.col[k] = 0; break;
	case 1: l.col[k] = l.col[(k + 1) % 12]; break;
	default: break;
	}
	for (int i = 0; narrow && i < 12; i++)
		l.col[i] &= (1ull << 11) - 1;
	return l;
}

/* The packed input of l given a map's packed output whose out-dims are
 * l's in-dims (a pseudo-inverse's or invert-and-compose's result). */
static uint64_t
as_input(const LLayout *map, uint64_t y, const LLayout *l)
{
	uint32_t v[LL_MAX_DIMS];
	ll_unpack_out(map, y, v);
	uint64_t x = 0;
	for (int j = 0; j < map->n_out; j++) {
		int i = ll_in_index(l, (LLName)map->out_name[j]);
		x |= (uint64_t)v[j] << ll_in_start(l, i);
	}
	return x;
}

static void
test_algebra_with_blocks(void)
{
	uint64_t s = 77;
	int bijections = 0, surjections = 0;
	for (int t = 0; t < 300; t++) {
		LLayout l = random_cga_map(&s, t % 2);
		/* free variables: bit k is free iff its column is in the span of
		 * the columns before it */
		uint64_t masks[LL_MAX_DIMS];
		ll_free_masks(&l, masks);
		for (int k = 0; k < 12; k++) {
			bool in_span = false;
			for (uint64_t c = 0; c < 1ull << k && !in_span; c++)
				in_span = ll_apply_packed(&l, c) == l.col[k];
			int i = k < 3 ? 0 : k < 8 ? 1 : k < 10 ? 2 : 3, b = k - ll_in_start(&l, i);
			CHECK_EQ(in_span, masks[i] >> b & 1);
		}
		if (!ll_is_surjective(&l))
			continue;
		surjections++;
		/* pseudo-inverse: a preimage, the smallest one */
		LLayout p, c;
		CHECK(ll_pseudo_invert(&l, &p, NULL));
		CHECK_EQ(2, ll_out_bits(&p, LL_BLOCK));
		for (uint64_t y = 0; y < 1ull << ll_total_out_bits(&l); y += 7) {
			uint64_t yi = as_input(&l, y, &p), best = 0;
			uint64_t x = as_input(&p, ll_apply_packed(&p, yi), &l);
			CHECK_EQ(y, ll_apply_packed(&l, x));
			while (ll_apply_packed(&l, best) != y)
				best++;
			CHECK_EQ(best, x);
		}
		/* invert-and-compose: another layout's values found through l */
		LLayout m = random_cga_map(&s, t % 2);
		if (ll_invert_and_compose(&m, &l, &c, NULL))
			for (uint64_t x = 0; x < 1u << 12; x += 3)
				CHECK_EQ(ll_apply_packed(&m, x),
				         ll_apply_packed(&l, as_input(&c, ll_apply_packed(&c, x), &l)));
		/* a bijection inverts, and composes back to the identity */
		if (!ll_is_injective(&l))
			continue;
		bijections++;
		LLayout inv, id;
		CHECK(ll_invert(&l, &inv, NULL));
		CHECK(ll_compose(&l, &inv, &id, NULL));
		for (uint32_t x = 0; x < 1u << 12; x++) {
			uint32_t in[4] = {x & 7, x >> 3 & 31, x >> 8 & 3, x >> 10}, out[4];
			ll_apply(&id, in, out);
			CHECK(memcmp(in, out, sizeof in) == 0);
		}
		LLayout q;
		CHECK(ll_quotient(&id, LL_BLOCK, &q) && ll_in_index(&q, LL_BLOCK) < 0);
	}
	CHECK(bijections > 5 && surjections > bijections);
}

/* -- Each CTA's part ----------------------------------------------------------- */

/* The elements CTA c holds, as a bit set over the packed outputs. */
static void
part_of(const LLayout *l, int c, uint8_t *set)
{
	int nb = ll_in_bits(l, LL_BLOCK), nx = ll_total_in_bits(l) - nb;
	memset(set, 0, (size_t)1 << ll_total_out_bits(l));
	for (uint64_t x = 0; x < 1ull << nx; x++)
		set[ll_apply_packed(l, x | (uint64_t)c << nx)] = 1;
}

static void
check_parts(const LLayout *l)
{
	int nb = ll_in_bits(l, LL_BLOCK), nx = ll_total_in_bits(l) - nb;
	size_t n = (size_t)1 << ll_total_out_bits(l);
	uint8_t *set = malloc(n), *box = malloc(n);
	LLErr e = {arena, NULL};
	for (int c = 0; c < 1 << nb; c++) {
		/* multicast mask: the CTAs with the same element in every place */
		uint32_t want = 0;
		for (int d = 0; d < 1 << nb; d++) {
			bool same = true;
			for (uint64_t x = 0; x < 1ull << nx && same; x++)
				same = ll_apply_packed(l, x | (uint64_t)c << nx) ==
				       ll_apply_packed(l, x | (uint64_t)d << nx);
			want |= (uint32_t)same << d;
		}
		CHECK_EQ(want, ll_cta_multicast_mask(l, c));
		/* the box, when the part is one: exactly its elements */
		int64_t origin[LL_MAX_DIMS], extent[LL_MAX_DIMS];
		part_of(l, c, set);
		if (!ll_cta_box(l, c, origin, extent, &e))
			continue;
		memset(box, 0, n);
		for (uint64_t y = 0; y < n; y++) {
			uint32_t v[LL_MAX_DIMS];
			ll_unpack_out(l, y, v);
			bool in = true;
			for (int j = 0; j < l->n_out; j++)
				in &= v[j] >= origin[j] && v[j] < origin[j] + extent[j];
			box[y] = in;
		}
		CHECK(memcmp(set, box, n) == 0);
	}
	CHECK_EQ(0, ll_cta_multicast_mask(l, 1 << nb));
	free(set);
	free(box);
}

static void
test_cta_parts(void)
{
	LLDesc b = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	static const int64_t shapes[][2] = {{64, 64}, {16, 16}, {1, 16}};
	for (int k = 0; k < N_GRIDS; k++)
		for (int h = 0; h < 3; h++) {
			b.cga_layout = bases_n(grid_n[k], 2, grids2[k]);
			LLayout l, t;
			CHECK(build_shape(arena, &b, shapes[h], 2, &l));
			check_parts(&l);
			/* the tile: no block bits, CTA 0's elements in its own coordinates */
			LLErr e = {arena, NULL};
			int64_t origin[2], extent[2];
			CHECK(ll_cta_tile(&l, &t, &e) && ll_in_bits(&t, LL_BLOCK) == 0);
			CHECK(ll_cta_box(&l, 0, origin, extent, &e));
			CHECK(origin[0] == 0 && origin[1] == 0);
			CHECK(1ll << ll_out_bits(&t, LL_DIM0) == extent[0]);
			CHECK(1ll << ll_out_bits(&t, LL_DIM1) == extent[1]);
			for (uint64_t x = 0; x < 1ull << ll_total_in_bits(&t); x++) {
				uint32_t a[2], c[2];
				ll_unpack_out(&l, ll_apply_packed(&l, x), a);
				ll_unpack_out(&t, ll_apply_packed(&t, x), c);
				CHECK(a[0] == c[0] && a[1] == c[1]);
			}
		}
	/* shared: a buffer broadcast over CTA bit 0 (a TMA multicast to 2 CTAs)
	 * and split over bit 1 */
	LLDesc n = nvmma_shared(128, 16);
	const int64_t mc[2][3] = {{0, 0}, {1, 0}};
	n.cga_layout = bases_n(2, 2, mc);
	LLayout s = build_in(arena, &n, 128, 64, 2);
	check_parts(&s);
	CHECK_EQ(0x3, ll_cta_multicast_mask(&s, 1));
	CHECK_EQ(0xc, ll_cta_multicast_mask(&s, 2));
	int64_t origin[2], extent[2];
	CHECK(ll_cta_box(&s, 3, origin, extent, NULL));
	CHECK(origin[0] == 64 && origin[1] == 0 && extent[0] == 64 && extent[1] == 64);
	/* random maps: interleaved parts are no box */
	uint64_t r = 5;
	int boxes = 0, others = 0;
	for (int t = 0; t < 200; t++) {
		LLayout l = random_cga_map(&r, false);
		check_parts(&l);
		int64_t o[2], x[2];
		if (ll_cta_box(&l, 0, o, x, NULL))
			boxes++;
		else
			others++;
	}
	CHECK(boxes > 0 && others > 0);   /* both kinds of part were met */
	/* interleaved CTAs (even and odd rows): no box, a tile of 8 rows */
	LLDesc dl = {.kind = LL_DISTRIBUTED_LINEAR};
	const int64_t lanes[5][3] = {{0, 2}, {0, 4}, {2, 0}, {4, 0}, {8, 0}};
	const int64_t reg[1][3] = {{0, 1}}, blk[1][3] = {{1, 0}};
	dl.reg_bases = bases_n(1, 2, reg), dl.lane_bases = bases_n(5, 2, lanes);
	dl.block_bases = bases_n(1, 2, blk), dl.shape = ints2(16, 8);
	LLayout il = build_in(arena, &dl, 16, 8, 2), it;
	LLErr e = {arena, NULL};
	CHECK(!ll_cta_box(&il, 1, origin, extent, &e) && strstr(e.msg, "not a box"));
	CHECK(ll_cta_tile(&il, &it, &e));
	CHECK_EQ(3, ll_out_bits(&it, LL_DIM0));
	CHECK(ll_is_surjective(&it) && ll_is_injective(&it));
}

/* -- Descriptions and printers -------------------------------------------------- */

static void
test_descs(void)
{
	static const char *const texts[] = {
		"BlockedLayout([1,4],[8,4],[4,1],[1,0], cga_layout=[[1,0],[0,0]])",
		"NVMMADistributedLayout([3,0],[4,1],[16,64,16], cga_layout=[[0,1]])",
		"NVMMASharedLayout(128, 16, transposed=True, cga_layout=[[1,0]])",
		"SwizzledSharedLayout(8, 1, 8, [1,0], cga_layout=[[1,0],[2,0]])",
		"SliceLayout(0, BlockedLayout([1,4],[8,4],[4,1],[1,0], cga_layout=[[1,0],[0,1]]))",
		"PaddedSharedLayout([[2,1]],[[1]],[[2]],[4])",
	};
	static const int bits[] = {2, 1, 1, 2, 2, 1};
	for (int i = 0; i < 6; i++) {
		const LLDesc *d;
		size_t used;
		LLErr e = {arena, NULL};
		CHECK(ll_desc_parse(texts[i], strlen(texts[i]), arena, &d, &used, &e));
		StrBuf b = {0};
		ll_desc_print(d, &b);
		CHECK_STR(texts[i], b.s);
		CHECK_EQ(bits[i], ll_desc_cta_bits(d));
		LLDesc other = *d;
		other.cga_layout.n = 0;
		CHECK(ll_desc_equal(d, d) && (d->cga_layout.n == 0 || !ll_desc_equal(d, &other)));
		buf_free(&b);
	}
	LLDesc a = {.kind = LL_AUTO};
	CHECK_EQ(-1, ll_desc_cta_bits(&a));
	LLBases out;
	LLDesc dl = {.kind = LL_DISTRIBUTED_LINEAR};
	CHECK(!ll_desc_cga_layout(&dl, &out) && !ll_desc_cga_layout(&a, &out));
	/* results of shape operations keep no cga_layout: described by map */
	LLDesc b = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	const int64_t g[1][3] = {{1, 0}};
	b.cga_layout = bases_n(1, 2, g);
	int perm[2] = {1, 0};
	int64_t from[2] = {64, 16}, to[1] = {1024};
	CHECK(ll_desc_permuted(arena, &b, perm, 2) == NULL);
	CHECK(ll_desc_reshaped(arena, &b, from, 2, to, 1, 4) == NULL);
	CHECK(ll_desc_joined(arena, &b, 2) == NULL);
	LLDesc n = nvmma_shared(128, 16);
	n.cga_layout = b.cga_layout;
	CHECK(ll_desc_permuted(arena, &n, perm, 2) == NULL);
	CHECK(ll_desc_smem_reshaped(arena, &n, 3) == NULL);
	/* the SharedLinearLayout of a shared map keeps its block bases */
	LLayout l = build_in(arena, &n, 128, 64, 2), back;
	const LLDesc *sl = ll_desc_shared_linear(arena, &l);
	const int64_t buffer[2] = {128, 64};
	CHECK(build_shape(arena, sl, buffer, 2, &back));
	CHECK(ll_equal(&l, &back));
}

static void
test_printers(void)
{
	LLDesc b = blocked(ints2(1, 4), ints2(8, 4), ints2(1, 1), ints2(1, 0));
	const int64_t g[2][3] = {{1, 0}, {0, 1}};
	b.cga_layout = bases_n(2, 2, g);
	LLayout l = build_in(arena, &b, 16, 32, 2);
	StrBuf s = {0};
	ll_format_json(&l, NULL, &s);
	CHECK(strstr(s.s, "\"block\":[[8,0],[0,16]]}}\n") != NULL);
	buf_clear(&s);
	ll_format_text(&l, NULL, &s);
	CHECK(strstr(s.s, " b3:t31:r3\n") != NULL);   /* element (15, 31) */
	CHECK(strstr(s.s, "CTA 2: [0:8, 16:32], multicast mask 0x4\n") != NULL);
	buf_clear(&s);
	ll_format_matrix(&l, NULL, &s);
	CHECK(strstr(s.s, " blk0 blk1\n") != NULL);
	buf_clear(&s);
	ll_format_svg(&l, NULL, 16, &s);
	CHECK(strstr(s.s, "4 CTAs: one hue each") && strstr(s.s, "stroke-width=\"3\""));
	buf_free(&s);
}

int
main(void)
{
	arena = arena_new();
	RUN_TEST(test_blocked_tiles);
	RUN_TEST(test_nvmma_and_dot_tiles);
	RUN_TEST(test_slice_tiles);
	RUN_TEST(test_shared_tiles);
	RUN_TEST(test_triton_goldens);
	RUN_TEST(test_refusals);
	RUN_TEST(test_algebra_with_blocks);
	RUN_TEST(test_cta_parts);
	RUN_TEST(test_descs);
	RUN_TEST(test_printers);
	arena_free(arena);
	return check_summary();
}
