/* Unit tests of ir/: the verifier's rules on what the passes provide
 * (lifetimes, offsets, plans), which the driver checks only after the
 * passes have recomputed them, on IR read from text. */
#include "ir/ir.h"
#include "test/unit/check.h"

static Arena *arena;

/* Reads text as IR and verifies it; the first diagnostic's message (or
 * NULL when there is none). */
static const char *
verify(const char *text, bool planned)
{
	Interner *in = intern_new(arena);
	Sources *src = src_new(arena);
	Diags d;
	diag_init(&d, arena, src);
	uint32_t file = src_add(src, "t.ir", text, strlen(text));
	TProgram *p = ir_read(arena, in, src, file, NULL, &d, NULL);
	if (p)
		ir_verify(p, planned, &d);
	if (!p && !d.first)
		return "(no program, no diagnostic)";
	return d.first ? d.first->msg : NULL;
}

#define ALLOCS(a, b)                                                                   \
	"#s = SwizzledSharedLayout(1, 1, 1, [1,0]) on [32, 32]\n"                      \
	"#r = BlockedLayout([1,1],[1,32],[4,1],[1,0]) on [32, 32]\n"                   \
	"kernel k() num_warps=4 total_warps=4 smem=8192 {\n"                           \
	"  alloc 0 a f32 [32, 32] #s bytes=4096 " a "\n"                               \
	"  alloc 1 b f32 [32, 32] #s bytes=4096 " b "\n"                               \
	"  %0 = smem_alloc alloc=0 : smem<f32, [32, 32], #s, alloc 0>\n"               \
	"  %1 = smem_alloc alloc=1 : smem<f32, [32, 32], #s, alloc 1>\n"               \
	"  %2 = smem_load %0 : tensor<f32, [32, 32], #r>\n"                            \
	"  smem_store %1, %2\n"                                                        \
	"}\n"

static void
test_planned_allocations(void)
{
	const char *good = ALLOCS("offset=0 align=16 live=0..2", "offset=4096 align=16 live=1..3");
	CHECK(verify(good, true) == NULL);
	const char *m = verify(ALLOCS("offset=0 align=16 live=0..2",
	                              "offset=2048 align=16 live=1..3"), true);
	CHECK(m && strstr(m, "lifetimes: allocations 0 (a) and 1 (b) are live together but share "
	                     "bytes"));
	/* dead apart: sharing bytes is what planning is for */
	CHECK(verify(ALLOCS("offset=0 align=16 live=0..2", "offset=0 align=16 live=3..3"), false)
	      == NULL);
	m = verify(ALLOCS("offset=8 align=16 live=0..2", "offset=4096 align=16 live=1..3"), true);
	CHECK(m && strstr(m, "smem: allocation 0 (a) at offset 8 is not aligned to 16 bytes"));
	m = verify(ALLOCS("offset=0 align=16 live=0..1", "offset=4096 align=16 live=1..3"), true);
	CHECK(m && strstr(m, "lifetimes: 'smem_load' uses allocation 0 (a) at instruction 2, "
	                     "outside its live range 0..1"));
	m = verify(ALLOCS("offset=0 align=16 live=1..2", "offset=4096 align=16 live=1..3"), true);
	CHECK(m && strstr(m, "lifetimes: allocation 0 (a) is created at instruction 0 but its live "
	                     "range starts at 1"));
	m = verify(ALLOCS("offset=0 align=16 live=0..2", "offset=8192 align=16 live=1..3"), true);
	CHECK(m && strstr(m, "smem: allocation 1 (b) ends at byte 12288, past the kernel's 8192"));
	/* none of this is checked before the passes */
	CHECK(verify(ALLOCS("offset=8 align=16 live=0..0", "offset=8 align=16 live=0..0"), false)
	      == NULL);
	m = verify(ALLOCS("offset=0 align=12 live=0..2", "offset=4096 align=16 live=1..3"), false);
	CHECK(m && strstr(m, "smem: allocation 0 (a) is aligned to 12 bytes, not a power of two"));
}

static void
test_planned_conversions(void)
{
	const char *text =
		"#a = BlockedLayout([1],[32],[4],[0]) on [128]\n"
		"#c = BlockedLayout([1],[32],[4],[0]) on [128]\n"
		"kernel k() num_warps=4 total_warps=4 smem=0 {\n"
		"  %0 = arange start=0 end=128 : tensor<i32, [128], #a>\n"
		"  %1 = convert_layout plan=free %0 : tensor<i32, [128], #c>\n"
		"}\n";
	CHECK(verify(text, false) == NULL);
	const char *m = verify(text, true);
	CHECK(m && strstr(m, "operands: convert_layout has no plan after the cvt-plan pass"));
	TProgram prog = {0};
	Diags d;
	diag_init(&d, arena, NULL);
	CHECK(ir_verify(&prog, true, &d) && d.errors == 0);
}

int
main(void)
{
	arena = arena_new();
	RUN_TEST(test_planned_allocations);
	RUN_TEST(test_planned_conversions);
	arena_free(arena);
	return check_summary();
}
