/* Unit tests of ll_desc_parse: every constructor form reads back to the
 * description ll_desc_print wrote (text and fields), random descriptions
 * round-trip, and malformed text fails at the right offset with a reason. */
#include "test/unit/check.h"
#include "test/unit/test_layout_util.h"

static Arena *arena;

static const char *
print_desc(const LLDesc *d)
{
	StrBuf b = {0};
	ll_desc_print(d, &b);
	const char *s = arena_strndup(arena, b.s, b.len);
	buf_free(&b);
	return s;
}

/* Parses all of s; NULL (after a message) when that fails. */
static const LLDesc *
parse_all(const char *s)
{
	const LLDesc *d;
	size_t used;
	LLErr e = {arena, NULL};
	if (!ll_desc_parse(s, strlen(s), arena, &d, &used, &e)) {
		fprintf(stderr, "parse of '%s' failed at %zu: %s\n", s, used, e.msg);
		return NULL;
	}
	if (used != strlen(s)) {
		fprintf(stderr, "parse of '%s' stopped at %zu\n", s, used);
		return NULL;
	}
	return d;
}

static void
test_every_form_round_trips(void)
{
	static const char *const forms[] = {
		"BlockedLayout([1,4],[8,4],[4,1],[1,0])",
		"BlockedLayout([4],[32],[4],[0])",
		"SliceLayout(1, BlockedLayout([1,4],[8,4],[4,1],[1,0]))",
		"SliceLayout(0, SliceLayout(2, BlockedLayout([1,1,4],[2,4,4],[4,1,1],[2,1,0])))",
		"DotOperandLayout(0, NVMMADistributedLayout([3,0],[4,1],[16,128,16]), 2)",
		"NVMMADistributedLayout([3,0],[8,1],[16,256,16])",
		"DistributedLinearLayout([[0,1],[0,2]],[[0,4],[0,8],[1,0],[2,0],[4,0]],"
		"[[8,0],[16,0]],[],[32,16])",
		"NVMMASharedLayout(128, 16)",
		"NVMMASharedLayout(64, 8, rank=3)",
		"NVMMASharedLayout(128, 16, transposed=True)",
		"NVMMASharedLayout(32, 32, rank=4, transposed=True)",
		"NVMMASharedLayout(128, 8, fp4_padded=True)",
		"NVMMASharedLayout(64, 8, rank=3, transposed=True, fp4_padded=True)",
		"SwizzledSharedLayout(1, 1, 1, [0])",
		"SwizzledSharedLayout(8, 2, 4, [1,0])",
		"SharedLinearLayout([[0,1],[0,2],[1,0]])",
		"SharedLinearLayout([[0,1],[1,0]], [[0,0]])",
		"SharedLinearLayout([])",
		"BlockedLayout([-1],[0],[9223372036854775807],[-9223372036854775807])",
	};
	for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
		const LLDesc *d = parse_all(forms[i]);
		CHECK(d != NULL);
		if (d)
			CHECK_STR(forms[i], print_desc(d));
	}
}

static void
test_fields(void)
{
	const LLDesc *d = parse_all("DotOperandLayout(1, NVMMADistributedLayout([3,0],[4,1],"
	                            "[16,64,16]), 4)");
	CHECK(d && d->kind == LL_DOT_OPERAND && d->operand_index == 1 && d->k_width == 4);
	CHECK(d && d->parent && d->parent->kind == LL_NVMMA_DISTRIBUTED &&
	      d->parent->instr_shape.n == 3 && d->parent->instr_shape.v[1] == 64);
	d = parse_all("NVMMASharedLayout(128, 16)");
	CHECK(d && d->rank == 2 && !d->transposed && d->swizzle_byte_width == 128);
	d = parse_all("NVMMASharedLayout(0, 8, rank=2, transposed=False)");
	CHECK(d && d->rank == 2 && !d->transposed && d->element_bitwidth == 8);
	d = parse_all("SharedLinearLayout([[0,1]])");
	CHECK(d && d->offset_bases.n == 1 && d->block_bases.n == 0 &&
	      d->offset_bases.b[0].n == 2 && d->offset_bases.b[0].v[1] == 1);
	/* blanks anywhere between tokens, as people write it */
	d = parse_all("  BlockedLayout( [1, 4] , [8,4],\t[4, 1], [1, 0] )");
	CHECK(d != NULL);
	if (d)
		CHECK_STR("BlockedLayout([1,4],[8,4],[4,1],[1,0])", print_desc(d));
	/* a parsed description builds the same map as a constructed one */
	LLDesc want = blocked(ints2(1, 4), ints2(8, 4), ints2(4, 1), ints2(1, 0));
	d = parse_all("BlockedLayout([1,4],[8,4],[4,1],[1,0])");
	int64_t shape[2] = {32, 16};
	LLayout a, b;
	LLErr e = {arena, NULL};
	CHECK(d && ll_build(&want, shape, 2, 4, &a, &e) && ll_build(d, shape, 2, 4, &b, &e) &&
	      ll_equal(&a, &b));
}

static void
test_consumed_stops_after_the_layout(void)
{
	const char *s = "SwizzledSharedLayout(1, 1, 1, [0]) on [3, 1]";
	const LLDesc *d;
	size_t used;
	LLErr e = {arena, NULL};
	CHECK(ll_desc_parse(s, strlen(s), arena, &d, &used, &e));
	CHECK_EQ(34, used);
	/* len bounds the text: a cut-off layout is an error */
	CHECK(!ll_desc_parse(s, 20, arena, &d, &used, &e));
	CHECK(d == NULL);
}

static void
test_malformed(void)
{
	static const struct { const char *text; size_t at; const char *why; } bad[] = {
		{"", 0, "expected a layout"},
		{"Blocked([1],[32],[4],[0])", 0, "unknown layout 'Blocked'"},
		{"BlockedLayout[1]", 13, "expected '('"},
		{"BlockedLayout([1],[32],[4])", 26, "expected ','"},
		{"BlockedLayout([1],[32],[4],[0]", 30, "expected ')'"},
		{"BlockedLayout([1,],[32],[4],[0])", 17, "expected an integer"},
		{"BlockedLayout([1 2],[32],[4],[0])", 17, "expected ']'"},
		{"BlockedLayout([99999999999999999999],[32],[4],[0])", 15, "64 bits"},
		{"SliceLayout(4294967296, BlockedLayout([1],[32],[4],[0]))", 22, "out of range"},
		{"SliceLayout(0, 7)", 15, "expected a layout"},
		{"NVMMASharedLayout(128, 16, swizzled=1)", 27,
		 "expected rank=, transposed=, fp4_padded= or cga_layout=, in that order"},
		{"NVMMASharedLayout(128, 16, transposed=Yes)", 38, "True or False"},
		{"NVMMASharedLayout(128, 16, transposed=True, rank=3)", 44, "in that order"},
		{"NVMMASharedLayout(128, 8, fp4_padded=1)", 37, "fp4_padded= takes True or False"},
		{"SharedLinearLayout([[0,1]], [[0]], [])", 33, "expected ')'"},
		{"SharedLinearLayout([0,1])", 20, "expected '['"},
		{"DistributedLinearLayout([],[],[],[])", 35, "expected ','"},
		{"-", 0, "expected a layout"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const LLDesc *d = (const LLDesc *)1;
		size_t used = 999;
		LLErr e = {arena, NULL};
		bool ok = ll_desc_parse(bad[i].text, strlen(bad[i].text), arena, &d, &used, &e);
		CHECK(!ok && d == NULL);
		if (used != bad[i].at || !e.msg || !strstr(e.msg, bad[i].why))
			fprintf(stderr, "'%s': at %zu (want %zu): %s\n", bad[i].text, used, bad[i].at,
			        e.msg ? e.msg : "(no message)");
		CHECK_EQ(bad[i].at, used);
		CHECK(e.msg && strstr(e.msg, bad[i].why));
	}
	/* lists longer than a description stores, and runaway nesting */
	StrBuf b = {0};
	buf_puts(&b, "BlockedLayout([");
	for (int i = 0; i < LL_MAX_LIST + 1; i++)
		buf_printf(&b, "%s1", i ? "," : "");
	buf_puts(&b, "],[32],[4],[0])");
	const LLDesc *d;
	size_t used;
	LLErr e = {arena, NULL};
	CHECK(!ll_desc_parse(b.s, b.len, arena, &d, &used, &e) && strstr(e.msg, "at most 32"));
	buf_clear(&b);
	for (int i = 0; i < 40; i++)
		buf_puts(&b, "SliceLayout(0, ");
	CHECK(!ll_desc_parse(b.s, b.len, arena, &d, &used, &e) && strstr(e.msg, "nest"));
	buf_free(&b);
}

/* -- random descriptions ---------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static int64_t
rand_in(int64_t lo, int64_t hi)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return lo + (int64_t)(rng % (uint64_t)(hi - lo + 1));
}

static LLInts
rnd_ints(void)
{
	LLInts v = {0};
	v.n = (int)rand_in(0, 4);
	for (int i = 0; i < v.n; i++)
		v.v[i] = rand_in(-3, 300);
	return v;
}

static LLBases
rnd_bases(void)
{
	LLBases v = {0};
	v.n = (int)rand_in(0, 5);
	for (int i = 0; i < v.n; i++)
		v.b[i] = rnd_ints();
	return v;
}

static LLDesc *
rnd_desc(int depth)
{
	LLDesc *d = arena_alloc(arena, sizeof *d);
	d->kind = (LLKind)rand_in(0, LL_AUTO);
	if (depth > 3 && (d->kind == LL_SLICE || d->kind == LL_DOT_OPERAND))
		d->kind = LL_BLOCKED;
	switch (d->kind) {
	case LL_BLOCKED:
		d->size_per_thread = rnd_ints(), d->threads_per_warp = rnd_ints();
		d->warps_per_cta = rnd_ints(), d->order = rnd_ints();
		break;
	case LL_SLICE:
		d->dim = (int)rand_in(-1, 4), d->parent = rnd_desc(depth + 1);
		break;
	case LL_DOT_OPERAND:
		d->operand_index = (int)rand_in(0, 1), d->k_width = (int)rand_in(1, 16);
		d->parent = rnd_desc(depth + 1);
		break;
	case LL_NVMMA_DISTRIBUTED:
		d->version = rnd_ints(), d->warps_per_cta = rnd_ints(), d->instr_shape = rnd_ints();
		break;
	case LL_DISTRIBUTED_LINEAR:
		d->reg_bases = rnd_bases(), d->lane_bases = rnd_bases(), d->warp_bases = rnd_bases();
		d->block_bases = rnd_bases(), d->shape = rnd_ints();
		break;
	case LL_NVMMA_SHARED:
		d->swizzle_byte_width = (int)rand_in(0, 128), d->element_bitwidth = (int)rand_in(8, 32);
		d->rank = (int)rand_in(1, 5), d->transposed = rand_in(0, 1);
		d->fp4_padded = rand_in(0, 1);
		break;
	case LL_SWIZZLED_SHARED:
		d->vec = (int)rand_in(1, 8), d->per_phase = (int)rand_in(1, 8), d->max_phase = (int)rand_in(1, 8);
		d->order = rnd_ints();
		break;
	case LL_SHARED_LINEAR:
		d->offset_bases = rnd_bases(), d->block_bases = rnd_bases();
		break;
	case LL_PADDED_SHARED:
		d->interval_padding_pairs = rnd_bases(), d->offset_bases = rnd_bases();
		d->block_bases = rnd_bases(), d->shape = rnd_ints();
		break;
	case LL_AUTO:
		d->auto_id = (int)rand_in(0, 1000);
		break;
	}
	return d;
}

static void
test_random_round_trips(void)
{
	for (int i = 0; i < 2000; i++) {
		const LLDesc *d = rnd_desc(0);
		const char *text = print_desc(d);
		const LLDesc *back = parse_all(text);
		CHECK(back != NULL);
		if (back)
			CHECK_STR(text, print_desc(back));
	}
}

int
main(void)
{
	arena = arena_new();
	RUN_TEST(test_every_form_round_trips);
	RUN_TEST(test_fields);
	RUN_TEST(test_consumed_stops_after_the_layout);
	RUN_TEST(test_malformed);
	RUN_TEST(test_random_round_trips);
	arena_free(arena);
	return check_summary();
}
