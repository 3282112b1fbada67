/* Unit tests of padded shared layouts (layout/ll_padded.c): the padding
 * function against memory laid out element by element, exhaustively over
 * pairs and sizes; its size, additivity and vector width; the linear part
 * and its checks; and Gluon's bank-conflict count on Triton's examples. */
#include "test/unit/check.h"
#include "test/unit/test_layout_util.h"

static Arena *arena;

/* Where linear offsets 0..n-1 land when elements are laid out one by one,
 * `padding` empty elements inserted before every element whose offset is a
 * nonzero multiple of `interval` (for each pair); returns the end. */
static int64_t
lay_out(const int64_t *interval, const int64_t *padding, int pairs, int64_t n, int64_t *at)
{
	int64_t addr = 0;
	for (int64_t x = 0; x < n; x++) {
		for (int i = 0; x && i < pairs; i++)
			if (x % interval[i] == 0)
				addr += padding[i];
		at[x] = addr++;
	}
	return addr;
}

static LLDesc
padded_desc(const int64_t *interval, const int64_t *padding, int pairs)
{
	LLDesc d;
	memset(&d, 0, sizeof d);
	d.kind = LL_PADDED_SHARED;
	d.interval_padding_pairs.n = pairs;
	for (int i = 0; i < pairs; i++)
		d.interval_padding_pairs.b[i] = ints2(interval[i], padding[i]);
	d.shape.n = 1, d.shape.v[0] = 1;
	return d;
}

enum { MAX_N = 1024 };

/* Every set of up to three pairs (intervals 1..64 distinct, paddings
 * 1..16) and every size up to MAX_N: ll_pad is the layout, ll_padded_size
 * its end and Triton's getPaddedSize. */
static void
test_pad_brute_force(void)
{
	static int64_t at[MAX_N];
	int cases = 0, bad = 0;
	for (int pairs = 1; pairs <= 3; pairs++) {
		int64_t iv[3], pd[3];
		int combos = 1;
		for (int i = 0; i < pairs; i++)
			combos *= 7 * 5;
		for (int c = 0; c < combos; c++) {
			int k = c;
			bool distinct = true;
			for (int i = 0; i < pairs; i++) {
				iv[i] = 1ll << (k % 7), k /= 7;
				pd[i] = 1ll << (k % 5), k /= 5;
				for (int j = 0; j < i; j++)
					distinct &= iv[j] != iv[i];
			}
			if (!distinct)
				continue;
			LLDesc d = padded_desc(iv, pd, pairs);
			LLPadding p = ll_desc_padding(&d);
			CHECK_EQ(pairs, p.n);
			int64_t end = lay_out(iv, pd, pairs, MAX_N, at);
			for (int64_t x = 0; x < MAX_N && !bad; x++)
				if (ll_pad(&p, x) != at[x]) {
					fprintf(stderr, "pad(%lld) = %lld, laid out at %lld (pairs %d, first "
					        "[%lld,%lld])\n", (long long)x, (long long)ll_pad(&p, x),
					        (long long)at[x], pairs, (long long)iv[0], (long long)pd[0]);
					bad++;
				}
			for (int64_t n = 1; n <= MAX_N; n++) {
				int64_t triton = n;   /* getPaddedSize */
				for (int i = 0; i < pairs; i++)
					triton += (n / iv[i]) * pd[i] - (n % iv[i] == 0 ? pd[i] : 0);
				bad += ll_padded_size(&p, n) != at[n - 1] + 1 ||
				       ll_padded_size(&p, n) != triton;
			}
			bad += ll_padded_size(&p, MAX_N) != end || ll_padded_size(&p, 0) != 0;
			cases++;
		}
	}
	CHECK_EQ(0, bad);
	CHECK(cases > 1000);
}

/* pad(a | b) = pad(a) + pad(b) for offsets with disjoint bits, which lets
 * a register's constant part keep its immediate offset. */
static void
test_pad_additive(void)
{
	int64_t iv[3] = {4, 32, 256}, pd[3] = {1, 8, 2};
	LLDesc d = padded_desc(iv, pd, 3);
	LLPadding p = ll_desc_padding(&d);
	int bad = 0;
	for (int64_t a = 0; a < 4096; a++)
		for (int64_t b = a; b; b = (b - 1) & a)   /* every submask b of a */
			bad += ll_pad(&p, a) != ll_pad(&p, b) + ll_pad(&p, a & ~b);
	CHECK_EQ(0, bad);
}

/* ll_padding_vector: the widest V whose aligned runs stay whole and
 * aligned, and no wider. */
static bool
vectors_hold(const LLPadding *p, int64_t v, int64_t n)
{
	for (int64_t x = 0; x + v <= n; x += v) {
		if (ll_pad(p, x) % v)
			return false;
		for (int64_t i = 1; i < v; i++)
			if (ll_pad(p, x + i) != ll_pad(p, x) + i)
				return false;
	}
	return true;
}

static void
test_pad_vector(void)
{
	int64_t sets[][2][2] = {
		{{32, 4}, {64, 8}}, {{8, 1}, {0, 0}}, {{4, 2}, {16, 1}}, {{64, 16}, {128, 32}},
		{{2, 8}, {0, 0}},
	};
	for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
		int pairs = sets[s][1][0] ? 2 : 1;
		int64_t iv[2] = {sets[s][0][0], sets[s][1][0]}, pd[2] = {sets[s][0][1], sets[s][1][1]};
		LLDesc d = padded_desc(iv, pd, pairs);
		LLPadding p = ll_desc_padding(&d);
		int v = ll_padding_vector(&p);
		CHECK(vectors_hold(&p, v, 4096));
		CHECK(!vectors_hold(&p, 2 * v, 4096));
	}
	LLPadding none = {0};
	CHECK_EQ(1 << 30, ll_padding_vector(&none));
	CHECK_EQ(7, ll_pad(&none, 7));
}

static LLDesc
padded_bases(int64_t interval, int64_t padding, const int64_t (*bases)[2], int n,
             int64_t s0, int64_t s1)
{
	LLDesc d = padded_desc(&interval, &padding, 1);
	d.shape = ints2(s0, s1);
	d.offset_bases.n = n;
	for (int k = 0; k < n; k++)
		d.offset_bases.b[k] = ints2(bases[k][0], bases[k][1]);
	return d;
}

/* The linear part: each element at the offset its bases give, padded; the
 * placements are distinct and inside the padded size. */
static void
test_linear_part(void)
{
	/* Gluon's example: [8, 4], rows 0, 2, 4, 6 then 1, 3, 5, 7, 1 after every 8 */
	const int64_t b[5][2] = {{0, 1}, {0, 2}, {2, 0}, {4, 0}, {1, 0}};
	LLDesc d = padded_bases(8, 1, b, 5, 8, 4);
	int64_t shape[2] = {8, 4};
	LLErr e = {arena, NULL};
	LLayout l;
	CHECK(ll_build(&d, shape, 2, 0, &l, &e));
	LLPadding p = ll_desc_padding(&d);
	/* offset x holds row 2 (x >> 2 & 3) + (x >> 4), column x & 3 */
	static const int64_t want[8][4] = {
		{0, 1, 2, 3}, {18, 19, 20, 21}, {4, 5, 6, 7}, {22, 23, 24, 25},
		{9, 10, 11, 12}, {27, 28, 29, 30}, {13, 14, 15, 16}, {31, 32, 33, 34},
	};
	bool seen[35] = {false};
	int bad = 0;
	for (uint32_t x = 0; x < 32; x++) {
		uint32_t in[2] = {x, 0}, c[2];
		ll_apply(&l, in, c);
		int64_t at = ll_pad(&p, x);
		bad += at != want[c[0]][c[1]] || at >= ll_padded_size(&p, 32) || seen[at];
		seen[at] = true;
	}
	CHECK_EQ(0, bad);
	CHECK_EQ(35, ll_padded_size(&p, 32));
	/* with_identity_for walks the dims in order, fastest first */
	LLBases pairs = {1, {ints2(16, 2)}};
	int64_t order[2] = {0, 1};
	const LLDesc *id = ll_desc_padded_identity(arena, &pairs, shape, order, 2, &e);
	CHECK(id && ll_build(id, shape, 2, 0, &l, &e));
	CHECK_STR("[[1,0],[2,0],[4,0],[0,1],[0,2]]", bases_str(&l, LL_OFFSET));
	StrBuf s = {0};
	ll_desc_print(id, &s);
	CHECK_STR("PaddedSharedLayout([[16,2]],[[1,0],[2,0],[4,0],[0,1],[0,2]],[],[8,4])", s.s);
	const LLDesc *back;
	size_t used;
	CHECK(ll_desc_parse(s.s, s.len, arena, &back, &used, &e) && ll_desc_equal(back, id));
	buf_free(&s);
	/* the layout of a view: the same pairs over the view's map */
	const LLDesc *view = ll_desc_padded(arena, id, &l, shape, 2);
	CHECK(ll_desc_equal(view, id));
}

static bool
fails(const LLDesc *d, int64_t s0, int64_t s1, const char *msg)
{
	int64_t shape[2] = {s0, s1};
	LLErr e = {arena, NULL};
	LLayout l;
	if (ll_build(d, shape, 2, 0, &l, &e))
		return false;
	if (!strstr(e.msg, msg))
		fprintf(stderr, "message: %s\n", e.msg);
	return strstr(e.msg, msg) != NULL;
}

static void
test_checks(void)
{
	const int64_t ok[3][2] = {{0, 1}, {1, 0}, {2, 0}};
	LLDesc d = padded_bases(4, 1, ok, 3, 4, 2);
	CHECK(fails(&d, 8, 2, "its offset bases span [4, 2] but the buffer is [8, 2]"));
	const int64_t swz[3][2] = {{0, 1}, {1, 1}, {2, 0}};
	d = padded_bases(4, 1, swz, 3, 4, 2);
	CHECK(fails(&d, 4, 2, "offset_bases[1] must move along one dim by a power of two"));
	const int64_t rep[3][2] = {{0, 1}, {1, 0}, {1, 0}};
	d = padded_bases(4, 1, rep, 3, 4, 2);
	CHECK(fails(&d, 4, 2, "repeat a basis"));
	const int64_t gap[2][2] = {{0, 1}, {2, 0}};
	d = padded_bases(4, 1, gap, 2, 4, 2);
	CHECK(fails(&d, 4, 2, "leave gaps"));
	d = padded_bases(3, 1, ok, 3, 4, 2);
	CHECK(fails(&d, 4, 2, "interval 3 (interval_padding_pairs[0]) is not a power of two"));
	CHECK_EQ(0, ll_desc_padding(&d).n);
	d = padded_bases(4, 0, ok, 3, 4, 2);
	CHECK(fails(&d, 4, 2, "padding 0"));
	d = padded_bases(4, 1, ok, 3, 4, 2);
	d.interval_padding_pairs = (LLBases){2, {ints2(4, 1), ints2(4, 2)}};
	CHECK(fails(&d, 4, 2, "interval 4 is given twice"));
	d.interval_padding_pairs.n = 0;
	CHECK(fails(&d, 4, 2, "at least one"));
	d = padded_bases(4, 1, ok, 3, 4, 2);
	d.block_bases = (LLBases){1, {ints2(1, 0)}};
	CHECK(fails(&d, 4, 2, "block basis 0 gives a CTA elements that the offsets"));
	/* a huge padding saturates instead of overflowing */
	int64_t iv = 1, pd = 1 << 30;
	LLDesc big = padded_desc(&iv, &pd, 1);
	LLPadding p = ll_desc_padding(&big);
	CHECK_EQ(INT64_MAX, ll_pad(&p, INT64_MAX / 2));
	CHECK_EQ(INT64_MAX, ll_padded_size(&p, INT64_MAX / 2));
}

/* Triton's test_bank_conflicts (test_frontend.py) through the algebra. */
static void
test_gluon_bank_conflicts(void)
{
	LLErr e = {arena, NULL};
	int n = -1;
	LLDesc b = blocked((LLInts){1, {1}}, (LLInts){1, {32}}, (LLInts){1, {4}}, (LLInts){1, {0}});
	LLDesc s = {0};
	s.kind = LL_SWIZZLED_SHARED, s.vec = s.per_phase = s.max_phase = 1, s.order = (LLInts){1, {0}};
	LLayout bl = build_in(arena, &b, 32, 0, 1), sl = build_in(arena, &s, 32, 0, 1);
	CHECK(ll_gluon_bank_conflicts(&bl, &sl, 32, &n, &e));
	CHECK_EQ(0, n);
	LLDesc v2 = {0};
	v2.kind = LL_NVMMA_DISTRIBUTED, v2.version = ints2(2, 0), v2.warps_per_cta = ints2(2, 4);
	v2.instr_shape = ints2(16, 8);
	LLDesc flat = nvmma_shared(0, 16);
	LLayout a = build_in(arena, &v2, 4, 64, 2), f = build_in(arena, &flat, 4, 64, 2);
	CHECK(ll_gluon_bank_conflicts(&a, &f, 16, &n, &e));
	CHECK_EQ(3, n);
	LLDesc v3 = nvmma(ints2(4, 1), 32);
	LLDesc sw = nvmma_shared(128, 32);
	a = build_in(arena, &v3, 128, 64, 2), f = build_in(arena, &sw, 128, 64, 2);
	CHECK(ll_gluon_bank_conflicts(&a, &f, 32, &n, &e));
	CHECK_EQ(1, n);
	CHECK(!ll_gluon_bank_conflicts(&a, &f, 12, &n, &e) && e.msg);
}

int
main(void)
{
	arena = arena_new();
	RUN_TEST(test_pad_brute_force);
	RUN_TEST(test_pad_additive);
	RUN_TEST(test_pad_vector);
	RUN_TEST(test_linear_part);
	RUN_TEST(test_checks);
	RUN_TEST(test_gluon_bank_conflicts);
	arena_free(arena);
	return check_summary();
}
