/* Unit tests of layout/ for shapes a layout is fitted to: SliceLayout of a
 * DistributedLinearLayout (built on its declared shape, then fitted like
 * Triton's LinearEncodingAttr::toLinearLayout), and NVMMASharedLayout at
 * rank 3 (batched), transposed, and unswizzled, checked against goldens
 * worked by hand from Triton's nvmmaSharedToLinearLayout and against index
 * formulas. */
#include "test/unit/check.h"
#include "test/unit/test_layout_util.h"

static Arena *arena;

static LLInts
ints1(int64_t a)
{
	LLInts v = {0};
	v.n = 1, v.v[0] = a;
	return v;
}

/* A DistributedLinearLayout description from bases given as flat arrays of
 * `rank` coordinates each. */
static LLDesc
linear(int rank, const int64_t *shape, const int64_t *reg, int nreg, const int64_t *lane,
       const int64_t *warp, int nwarp)
{
	LLDesc d = {0};
	d.kind = LL_DISTRIBUTED_LINEAR;
	d.shape = ints_n(rank, shape);
	d.reg_bases.n = nreg, d.lane_bases.n = 5, d.warp_bases.n = nwarp;
	for (int i = 0; i < nreg; i++)
		d.reg_bases.b[i] = ints_n(rank, reg + rank * i);
	for (int i = 0; i < 5; i++)
		d.lane_bases.b[i] = ints_n(rank, lane + rank * i);
	for (int i = 0; i < nwarp; i++)
		d.warp_bases.b[i] = ints_n(rank, warp + rank * i);
	return d;
}

/* The description of an already built distributed layout, as the user would
 * write it with DistributedLinearLayout. */
static LLDesc
linear_of(const LLayout *l)
{
	LLDesc d = {0};
	d.kind = LL_DISTRIBUTED_LINEAR;
	d.shape.n = l->n_out;
	for (int j = 0; j < l->n_out; j++)
		d.shape.v[j] = 1ll << l->out_bits[j];
	LLBases *lists[4] = {&d.reg_bases, &d.lane_bases, &d.warp_bases, &d.block_bases};
	for (int i = 0; i < 4; i++) {
		int k = ll_in_index(l, (LLName)(LL_REGISTER + i));
		lists[i]->n = k < 0 ? 0 : l->in_bits[k];
		for (int b = 0; b < lists[i]->n; b++) {
			uint32_t v[LL_MAX_DIMS];
			ll_get_basis(l, k, b, v);
			lists[i]->b[b].n = l->n_out;
			for (int j = 0; j < l->n_out; j++)
				lists[i]->b[b].v[j] = v[j];
		}
	}
	return d;
}

/* -- SliceLayout of a DistributedLinearLayout -------------------------------- */

static void
test_slice_linear_golden(void)
{
	/* The shape of examples/transpose.gl: a [64,64] linear parent sliced to 1-D. */
	static const int64_t shape[2] = {64, 64};
	static const int64_t reg[] = {1, 0, 2, 0, 0, 8, 0, 16, 0, 32};
	static const int64_t lane[] = {4, 0, 8, 0, 16, 0, 0, 1, 0, 2};
	static const int64_t warp[] = {32, 0, 0, 4};
	LLDesc p = linear(2, shape, reg, 5, lane, warp, 2);
	LLDesc s = {0};
	s.kind = LL_SLICE, s.dim = 1, s.parent = &p;
	int64_t n = 64;
	LLayout l;
	CHECK(build_shape(arena, &s, &n, 1, &l));
	CHECK_STR("[[1],[2]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[4],[8],[16],[0],[0]]", bases_str(&l, LL_LANE));
	CHECK_STR("[[32],[0]]", bases_str(&l, LL_WARP));
	s.dim = 0;
	CHECK(build_shape(arena, &s, &n, 1, &l));
	CHECK_STR("[[8],[16],[32]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[0],[0],[0],[1],[2]]", bases_str(&l, LL_LANE));
	CHECK_STR("[[0],[4]]", bases_str(&l, LL_WARP));
	/* Element e of the slice sits where dim0 = e sits in the parent. */
	s.dim = 1;
	CHECK(build_shape(arena, &s, &n, 1, &l));
	LLayout full;
	CHECK(build_shape(arena, &p, shape, 2, &full));
	int bad = 0;
	for (uint32_t r = 0; r < 4; r++)
		for (uint32_t ln = 0; ln < 32; ln++)
			for (uint32_t w = 0; w < 4; w++) {
				uint32_t in[4] = {r, ln, w, 0}, pin[4] = {r, ln, w, 0}, a[1], b[2];
				ll_apply(&l, in, a);
				ll_apply(&full, pin, b);
				bad += a[0] != b[0];
			}
	CHECK_EQ(0, bad);
}

static void
test_slice_linear_refit(void)
{
	/* Declared [32,64]; sliced along dim1 onto a larger and a smaller dim0. */
	static const int64_t shape[2] = {32, 64};
	static const int64_t reg[] = {1, 0, 0, 8, 0, 16, 0, 32};
	static const int64_t lane[] = {2, 0, 4, 0, 8, 0, 0, 1, 0, 2};
	static const int64_t warp[] = {16, 0, 0, 4};
	LLDesc p = linear(2, shape, reg, 4, lane, warp, 2);
	LLDesc s = {0};
	s.kind = LL_SLICE, s.dim = 1, s.parent = &p;
	int64_t n = 128;
	LLayout l;
	CHECK(build_shape(arena, &s, &n, 1, &l));
	CHECK_STR("[[1],[32],[64]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[2],[4],[8],[0],[0]]", bases_str(&l, LL_LANE));
	CHECK_STR("[[16],[0]]", bases_str(&l, LL_WARP));
	n = 16;
	CHECK(build_shape(arena, &s, &n, 1, &l));
	CHECK_STR("[[1]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[2],[4],[8],[0],[0]]", bases_str(&l, LL_LANE));
	CHECK_STR("[[0],[0]]", bases_str(&l, LL_WARP));
}

/* Slicing a DistributedLinearLayout copied from a BlockedLayout gives the
 * slice of the BlockedLayout itself (two independent routes). */
static void
check_slice_matches_blocked(const LLDesc *b, const int64_t *shape, int rank)
{
	LLayout full;
	if (!build_shape(arena, b, shape, rank, &full)) {
		CHECK(!"blocked build failed");
		return;
	}
	LLDesc lin = linear_of(&full);
	for (int dim = 0; dim < rank; dim++) {
		int64_t sshape[LL_MAX_RANK];
		for (int i = 0, k = 0; i < rank; i++)
			if (i != dim)
				sshape[k++] = shape[i];
		LLDesc sb = {0}, sl = {0};
		sb.kind = sl.kind = LL_SLICE;
		sb.dim = sl.dim = dim;
		sb.parent = b, sl.parent = &lin;
		LLayout a, c;
		bool ok = build_shape(arena, &sb, sshape, rank - 1, &a) && build_shape(arena, &sl, sshape, rank - 1, &c);
		CHECK(ok);
		if (ok && !ll_equal(&a, &c)) {
			check_failures_in_test++;
			fprintf(stderr, "slice %d of rank %d: blocked reg %s", dim, rank,
			        bases_str(&a, LL_REGISTER));
			fprintf(stderr, " vs linear reg %s\n", bases_str(&c, LL_REGISTER));
		}
	}
}

static void
test_slice_linear_matches_blocked(void)
{
	static const int64_t sets[][4][2] = {
		{{1, 4}, {8, 4}, {4, 1}, {1, 0}}, {{2, 4}, {16, 2}, {2, 2}, {1, 0}},
		{{1, 1}, {32, 1}, {4, 1}, {1, 0}}, {{4, 1}, {4, 8}, {1, 4}, {0, 1}},
		{{1, 8}, {4, 8}, {8, 1}, {1, 0}},  {{2, 2}, {2, 16}, {2, 4}, {0, 1}},
	};
	static const int64_t shapes[][2] = {{32, 16}, {16, 16}, {128, 128}, {64, 256}, {256, 8}};
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
		for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; j++) {
			LLDesc b = blocked(ints_n(2, sets[i][0]), ints_n(2, sets[i][1]),
			                   ints_n(2, sets[i][2]), ints_n(2, sets[i][3]));
			check_slice_matches_blocked(&b, shapes[j], 2);
		}
	static const int64_t s3[3] = {1, 2, 2}, t3[3] = {2, 4, 4}, w3[3] = {2, 1, 2};
	static const int64_t o3[3] = {2, 0, 1};
	static const int64_t sh3[][3] = {{4, 8, 16}, {8, 32, 4}, {16, 16, 16}};
	LLDesc b3 = blocked(ints_n(3, s3), ints_n(3, t3), ints_n(3, w3), ints_n(3, o3));
	for (int j = 0; j < 3; j++)
		check_slice_matches_blocked(&b3, sh3[j], 3);
}

/* Used directly on another shape (expand_dims gives [64,1] the layout declared
 * for [64,64]), the layout is fitted the same way. */
static void
test_linear_refit_direct(void)
{
	static const int64_t reg[] = {1}, lane[] = {2, 4, 8, 16, 32}, warp[] = {64, 128};
	int64_t n = 256;
	LLDesc p = linear(1, &n, reg, 1, lane, warp, 2);
	LLayout l;
	CHECK(build_shape(arena, &p, &n, 1, &l));
	CHECK_STR("[[1]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[64],[128]]", bases_str(&l, LL_WARP));
	n = 128;
	CHECK(build_shape(arena, &p, &n, 1, &l));
	CHECK_STR("[[1]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[2],[4],[8],[16],[32]]", bases_str(&l, LL_LANE));
	CHECK_STR("[[64],[0]]", bases_str(&l, LL_WARP));
	n = 512;
	CHECK(build_shape(arena, &p, &n, 1, &l));
	CHECK_STR("[[1],[256]]", bases_str(&l, LL_REGISTER));
	/* [64,64] -> [64,1]: registers along dim1 go, lanes along dim1 broadcast. */
	static const int64_t shape[2] = {64, 64};
	static const int64_t reg2[] = {1, 0, 0, 1, 0, 16, 0, 32, 32, 0};
	static const int64_t lane2[] = {0, 2, 0, 4, 0, 8, 2, 0, 4, 0};
	static const int64_t warp2[] = {8, 0, 16, 0};
	LLDesc q = linear(2, shape, reg2, 5, lane2, warp2, 2);
	int64_t col[2] = {64, 1};
	CHECK(build_shape(arena, &q, col, 2, &l));
	CHECK_STR("[[1,0],[32,0]]", bases_str(&l, LL_REGISTER));
	CHECK_STR("[[0,0],[0,0],[0,0],[2,0],[4,0]]", bases_str(&l, LL_LANE));
	CHECK_STR("[[8,0],[16,0]]", bases_str(&l, LL_WARP));
}

static void
test_slice_linear_errors(void)
{
	static const int64_t reg[] = {1}, lane[] = {2, 4, 8, 16, 32}, warp[] = {64, 128};
	int64_t n = 256;
	LLDesc p = linear(1, &n, reg, 1, lane, warp, 2);
	LLDesc s = {0};
	s.kind = LL_SLICE, s.dim = 0, s.parent = &p;
	LLErr e = {arena, NULL};
	LLayout l;
	CHECK(!ll_build(&s, &n, 1, 0, &l, &e));
	CHECK(e.msg && strstr(e.msg, "shape has 1 entries but the tensor has rank 2"));
	int64_t m = 128;
	/* A bad declared shape is reported for a slice parent too. */
	p.shape = ints1(96);
	e.msg = NULL;
	CHECK(!ll_build(&s, &m, 1, 0, &l, &e));
	CHECK(e.msg && strstr(e.msg, "shape[0] = 96 is not a power of two"));
}

/* -- NVMMASharedLayout at rank 3, transposed and unswizzled ------------------- */

static LLDesc
nvmma_shared_n(int sw, int bw, int rank, bool transposed)
{
	LLDesc d = nvmma_shared(sw, bw);
	d.rank = rank, d.transposed = transposed;
	return d;
}

static void
expect_offsets(const LLDesc *d, const int64_t *shape, int rank, const char *want)
{
	LLayout l;
	if (!build_shape(arena, d, shape, rank, &l)) {
		CHECK(!"nvmma shared build failed");
		return;
	}
	CHECK_STR(want, bases_str(&l, LL_OFFSET));
}

/* Goldens worked by hand from nvmmaSharedToLinearLayout: tma box, collapsed
 * 2-D core tile, row-major reshape, rotation for transposed, growth. */
static void
test_nvmma_shared_goldens(void)
{
	LLDesc d = nvmma_shared_n(128, 16, 3, true);
	expect_offsets(&d, (int64_t[]){64, 2, 8}, 3,
	               "[[1,0,0],[2,0,0],[4,0,0],[8,0,0],[16,0,0],[32,0,0],[8,0,2],[16,0,4],"
	               "[32,1,0],[0,0,1]]");
	d = nvmma_shared_n(128, 16, 3, false);
	expect_offsets(&d, (int64_t[]){2, 16, 64}, 3,
	               "[[0,0,1],[0,0,2],[0,0,4],[0,0,8],[0,0,16],[0,0,32],[0,1,8],[0,2,16],"
	               "[0,4,32],[0,8,0],[1,0,0]]");
	/* Four rows per batch: the swizzle phase continues into the batch index. */
	expect_offsets(&d, (int64_t[]){4, 4, 64}, 3,
	               "[[0,0,1],[0,0,2],[0,0,4],[0,0,8],[0,0,16],[0,0,32],[0,1,8],[0,2,16],"
	               "[1,0,32],[2,0,0]]");
	d = nvmma_shared_n(128, 16, 2, true);
	expect_offsets(&d, (int64_t[]){128, 64}, 2,
	               "[[1,0],[2,0],[4,0],[8,0],[16,0],[32,0],[8,1],[16,2],[32,4],[0,8],[0,16],"
	               "[0,32],[64,0]]");
	/* Unswizzled: row-major over the (<= 256) TMA box, then the box repeats,
	 * dim1 first (the layout's out-dims run from the last dim). */
	d = nvmma_shared_n(0, 16, 2, false);
	expect_offsets(&d, (int64_t[]){512, 512}, 2,
	               "[[0,1],[0,2],[0,4],[0,8],[0,16],[0,32],[0,64],[0,128],[1,0],[2,0],[4,0],"
	               "[8,0],[16,0],[32,0],[64,0],[128,0],[0,256],[256,0]]");
	/* swizzle 0 ignores transposed (Triton builds it before looking at it). */
	for (int bw = 8; bw <= 64; bw *= 2) {
		LLDesc a = nvmma_shared_n(0, bw, 2, false), t = nvmma_shared_n(0, bw, 2, true);
		LLayout la, lt;
		int64_t shape[2] = {32, 64};
		CHECK(build_shape(arena, &a, shape, 2, &la) && build_shape(arena, &t, shape, 2, &lt));
		CHECK(ll_equal(&la, &lt));
		LLDesc a3 = nvmma_shared_n(0, bw, 3, false), t3 = nvmma_shared_n(0, bw, 3, true);
		int64_t shape3[3] = {4, 8, 16};
		CHECK(build_shape(arena, &a3, shape3, 3, &la) && build_shape(arena, &t3, shape3, 3, &lt));
		CHECK(ll_equal(&la, &lt));
		CHECK_STR("[[0,0,1],[0,0,2],[0,0,4],[0,0,8],[0,1,0],[0,2,0],[0,4,0],[1,0,0],[2,0,0]]",
		          bases_str(&la, LL_OFFSET));
	}
}

/* The byte-level swizzle of one collapsed 2-D tile: offset -> (row, col)
 * with `cols` = atom * slabs columns (slabs after all rows). */
static void
tile_coord(int64_t off, int64_t rows, int64_t atom, int vec, int pp, int mp, int64_t *row,
           int64_t *col)
{
	int64_t cc = off % atom, r = (off / atom) % rows, slab = off / (atom * rows);
	*row = r;
	*col = slab * atom + (cc ^ (vec * ((r / pp) % mp)));
}

/* Non-transposed rank 3 [B, R, C]: the collapsed row is b*R + r. */
static void
test_nvmma_shared_batched_formula(void)
{
	static const int sws[3] = {32, 64, 128}, bws[3] = {8, 16, 32};
	for (int a = 0; a < 3; a++)
		for (int k = 0; k < 3; k++) {
			int sw = sws[a], bw = bws[k], vec = 128 / bw, pp = 128 / sw, mp = sw / 16;
			int64_t atom = 8 * sw / bw;
			static const int64_t br[][2] = {{2, 8}, {4, 4}, {8, 2}, {2, 32}, {16, 1}};
			for (size_t s = 0; s < sizeof br / sizeof br[0]; s++)
				for (int64_t C = atom; C <= 2 * atom; C *= 2) {
					int64_t B = br[s][0], R = br[s][1];
					LLDesc d = nvmma_shared_n(sw, bw, 3, false);
					LLayout l;
					if (!build_shape(arena, &d, (int64_t[]){B, R, C}, 3, &l)) {
						CHECK(!"build failed");
						continue;
					}
					int bad = 0;
					for (int64_t off = 0; off < B * R * C; off++) {
						uint32_t in[2] = {(uint32_t)off, 0}, o[3];
						ll_apply(&l, in, o);
						int64_t row, col;
						tile_coord(off, B * R, atom, vec, pp, mp, &row, &col);
						bad += o[0] != row / R || o[1] != row % R || o[2] != col;
					}
					CHECK_EQ(0, bad);
				}
		}
}

/* Transposed rank r over [T0, T1, .., T{r-1}] (dim0 contiguous, T0 = atom
 * or 2 atoms): a 2-D tile of T{r-1} rows and atom*T1*..*T{r-2} columns,
 * read row-major as [T1, .., T{r-1}, atom], then the last coordinate moved
 * to the front; a second atom along dim0 comes last. */
static void
check_transposed(int sw, int bw, const int64_t *shape, int rank)
{
	int vec = 128 / bw, pp = 128 / sw, mp = sw / 16;
	int64_t atom = 8 * sw / bw, rows = shape[rank - 1], cols = atom, total = 1;
	for (int i = 1; i + 1 < rank; i++)
		cols *= shape[i];
	for (int i = 0; i < rank; i++)
		total *= shape[i];
	LLDesc d = nvmma_shared_n(sw, bw, rank, true);
	LLayout l;
	if (!build_shape(arena, &d, shape, rank, &l)) {
		CHECK(!"build failed");
		return;
	}
	int64_t box = rows * cols;
	int bad = 0;
	for (int64_t off = 0; off < total; off++) {
		uint32_t in[2] = {(uint32_t)off, 0}, o[LL_MAX_RANK];
		ll_apply(&l, in, o);
		int64_t row, col;
		tile_coord(off % box, rows, atom, vec, pp, mp, &row, &col);
		int64_t flat = row * cols + col, want[LL_MAX_RANK], q = flat / atom;
		want[0] = flat % atom + (off / box) * atom;
		for (int i = rank - 1; i >= 1; i--) {
			want[i] = q % shape[i];
			q /= shape[i];
		}
		for (int i = 0; i < rank; i++)
			bad += o[i] != want[i];
	}
	CHECK_EQ(0, bad);
}

static void
test_nvmma_shared_transposed_formula(void)
{
	static const int sws[3] = {32, 64, 128}, bws[3] = {8, 16, 32};
	for (int a = 0; a < 3; a++)
		for (int k = 0; k < 3; k++) {
			int sw = sws[a], bw = bws[k];
			int64_t atom = 8 * sw / bw;
			for (int64_t rows = 8; rows <= 64; rows *= 8) {
				check_transposed(sw, bw, (int64_t[]){atom, rows}, 2);
				check_transposed(sw, bw, (int64_t[]){2 * atom, rows}, 2);
				check_transposed(sw, bw, (int64_t[]){atom, 2, rows}, 3);
				check_transposed(sw, bw, (int64_t[]){atom, 4, rows}, 3);
			}
		}
}

int
main(void)
{
	arena = arena_new();
	RUN_TEST(test_slice_linear_golden);
	RUN_TEST(test_slice_linear_refit);
	RUN_TEST(test_slice_linear_matches_blocked);
	RUN_TEST(test_linear_refit_direct);
	RUN_TEST(test_slice_linear_errors);
	RUN_TEST(test_nvmma_shared_goldens);
	RUN_TEST(test_nvmma_shared_batched_formula);
	RUN_TEST(test_nvmma_shared_transposed_formula);
	arena_free(arena);
	return check_summary();
}
