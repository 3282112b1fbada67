/* Unit tests of ir/: the verifier's rules on what the passes provide
 * (lifetimes, offsets, plans), which the driver checks only after the
 * passes have recomputed them, on IR read from text; the walker's order,
 * hooks and insertion. */
#include "ir/ir.h"
#include "test/unit/check.h"

static Arena *arena;

/* text read as IR; NULL after a diagnostic in d. */
static TProgram *
read_ir(const char *text, Diags *d)
{
	Interner *in = intern_new(arena);
	Sources *src = src_new(arena);
	diag_init(d, arena, src);
	uint32_t file = src_add(src, "t.ir", text, strlen(text));
	return ir_read(arena, in, src, file, NULL, d, NULL);
}

/* The one kernel of text read as IR; NULL (a failed check) otherwise. */
static TKernel *
read_kernel(const char *text)
{
	Diags d;
	TProgram *p = read_ir(text, &d);
	CHECK(p && p->n_kernels == 1);
	return p && p->n_kernels == 1 ? p->kernels[0] : NULL;
}

/* Reads text as IR and verifies it; the first diagnostic's message (or
 * NULL when there is none). */
static const char *
verify(const char *text, bool planned)
{
	Diags d;
	TProgram *p = read_ir(text, &d);
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

/* The walker's events as text: "<" and ">" around an instruction's
 * blocks, "[" and "]" around a block (with its role's letter), each
 * instruction as its result or op, "@w" the warps there. */
static const char *const roles = "becrp";

static IrStep
on_pre(IrWalker *w, TInst *in)
{
	StrBuf *b = w->ctx;
	if (in->res)
		buf_printf(b, " %%%d@%d", in->res->id, ir_walk_warps(w));
	else
		buf_printf(b, " %s", ir_op_name(in->op));
	if (in->op == OP_BREAK)
		ir_walk_insert(w, arena, ir_inst_new(arena, OP_THREAD_BARRIER, in->at));
	return in->op == OP_WARP_SPECIALIZE && in->attr.index > 0 ? IR_PASS : IR_ON;
}

static IrStep
on_post(IrWalker *w, TInst *in)
{
	(void)in;
	buf_puts(w->ctx, " >");
	return IR_ON;
}

static IrStep
on_enter(IrWalker *w, const IrNest *n)
{
	buf_printf(w->ctx, " [%c", n->owner ? roles[n->role] : 't');
	return n->role == IR_ELSE ? IR_PASS : IR_ON;
}

static IrStep
on_leave(IrWalker *w, const IrNest *n)
{
	(void)n;
	buf_puts(w->ctx, " ]");
	return IR_ON;
}

static void
test_walk(void)
{
	const char *text =
		"kernel k(n: i32) num_warps=4 total_warps=8 smem=0 {\n"
		"  var $0 i : i32\n"
		"  %0 = param n : i32\n"
		"  %1 = lt %0, %0 : i1\n"
		"  if %1 {\n"
		"    %2 = add %0, %0 : i32\n"
		"  } else {\n"
		"    %3 = add %0, %0 : i32\n"
		"  }\n"
		"  while {\n"
		"    %4 = lt %0, %0 : i1\n"
		"    condition %4\n"
		"  } do {\n"
		"    break\n"
		"  }\n"
		"  for $0 = %0 to %0 step %0 {\n"
		"  }\n"
		"  warp_specialize {\n"
		"    partition 0 f warps=4 regs=0 first_warp=0 {\n"
		"      %5 = add %0, %0 : i32\n"
		"    }\n"
		"    partition 1 g warps=2 regs=24 first_warp=4 {\n"
		"      %6 = add %0, %0 : i32\n"
		"    }\n"
		"  }\n"
		"  warp_specialize {\n"
		"    partition 2 f warps=4 regs=0 first_warp=0 {\n"
		"      %7 = add %0, %0 : i32\n"
		"    }\n"
		"  }\n"
		"}\n";
	TKernel *k = read_kernel(text);
	if (!k)
		return;
	StrBuf b = {0};
	IrWalker w = {.k = k, .ctx = &b, .pre = on_pre, .post = on_post,
	              .enter = on_enter, .leave = on_leave};
	CHECK(ir_walk(&w));
	CHECK_STR(" [t %0@4 > %1@4 > if [b %2@4 > ] [e > while [c %4@4 > ] [b break > ] > for [b ]"
	          " > warp_specialize [p %5@4 > ] [p %6@2 > ] > warp_specialize ]", b.s);
	/* the barrier went in before the break, and is walked from now on */
	const TBlock *loop = &k->body.insts[3]->body;
	CHECK(loop->n == 2 && loop->insts[0]->op == OP_THREAD_BARRIER);
	b.len = 0;
	w = (IrWalker){.k = k, .ctx = &b, .pre = on_pre};
	CHECK(ir_walk_partition(&w, 1));
	CHECK_STR(" %6@2", b.s);
	buf_free(&b);
}

/* Removes every add after its blocks; counts what the walk visits. */
static IrStep
remove_adds(IrWalker *w, TInst *in)
{
	(*(int *)w->ctx)++;
	if (in->op == OP_ADD)
		ir_walk_remove(w);
	return IR_ON;
}

static void
test_walk_remove(void)
{
	const char *text =
		"kernel k(n: i32) num_warps=4 total_warps=4 smem=0 {\n"
		"  %0 = param n : i32\n"
		"  %1 = add %0, %0 : i32\n"
		"  %2 = add %0, %0 : i32\n"
		"  %3 = lt %0, %0 : i1\n"
		"  if %3 {\n"
		"    %4 = add %0, %0 : i32\n"
		"  }\n"
		"}\n";
	TKernel *k = read_kernel(text);
	if (!k)
		return;
	int seen = 0;
	CHECK(ir_walk(&(IrWalker){.k = k, .ctx = &seen, .post = remove_adds}));
	/* each instruction visited once, the first of a block removed too */
	CHECK(seen == 6);
	const TBlock *body = &k->body;
	CHECK(body->n == 3 && body->insts[1]->op == OP_LT && body->insts[2]->body.n == 0);
}

int
main(void)
{
	arena = arena_new();
	RUN_TEST(test_planned_allocations);
	RUN_TEST(test_planned_conversions);
	RUN_TEST(test_walk);
	RUN_TEST(test_walk_remove);
	arena_free(arena);
	return check_summary();
}
