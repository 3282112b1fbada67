/*
 * warp_specialize: after a CTA-wide barrier (the partitions start once
 * what the kernel did before is visible, e.g. initialized mbarriers), each
 * warp branches to its partition. A partition owns whole warpgroups: every
 * warp of them runs its setmaxnreg (an aligned, warpgroup-wide
 * instruction), then the warps past the partition's own return at once and
 * the others run its body. Workers then return; the default partition's
 * warps go on with the code after warp_specialize (Gluon's default
 * partition is the caller's code), after a barrier that joins every
 * partition's warps when there is such code. No branch rejoins another, so
 * ptxas honours each setmaxnreg (a rejoin would make it keep the larger
 * budget); the code after the call runs in the default partition's budget
 * and named barrier.
 *
 * Register budgets: every thread starts with the budget that nvvm.minctasm
 * 1 gives (65536 registers over the block's threads, down to a multiple of
 * 8, at most 256); workers take what warp_specialize asked for and the
 * default partition the rest, split evenly over its warpgroups.
 *
 * Inside a partition, thread_barrier and the barriers that codegen adds
 * (reductions, conversions) are named barrier (partition + 1) over the
 * partition's threads.
 */
#include "codegen/cg_internal.h"

enum { REGFILE = 65536, WG_WARPS = 4 };

static int
warpgroups(int warps)
{
	return (warps + WG_WARPS - 1) / WG_WARPS;
}

int
cg_ws_entry_regs(const TKernel *k)
{
	int r = REGFILE / (32 * k->total_warps) / 8 * 8;
	return r > 256 ? 256 : r;
}

int
cg_ws_part_regs(const TKernel *k, int part)
{
	if (part > 0 && k->parts[part].num_regs > 0)
		return k->parts[part].num_regs;
	if (part > 0)
		return cg_ws_entry_regs(k);
	int pool = cg_ws_entry_regs(k) * warpgroups(k->total_warps);
	for (int p = 1; p < k->n_parts; p++)
		pool -= cg_ws_part_regs(k, p) * warpgroups(k->parts[p].num_warps);
	int r = pool / warpgroups(k->parts[0].num_warps) / 8 * 8;
	return r > 256 ? 256 : r;
}

static void
setmaxnreg(CgModule *m, int entry, int regs)
{
	if (regs != entry)
		cg_setmaxnreg(m, regs > entry, regs);
}

/* Lowering inside partition p: its leader, warps, named barrier and
 * scratch. */
static void
in_partition(Lower *l, int p)
{
	const TPartition *part = &l->k->parts[p];
	l->part = p;
	l->first_warp = part->first_warp;
	l->part_warps = part->num_warps;
	l->m->bar_id = p + 1;
	l->m->bar_threads = 32 * part->num_warps;
}

/* Enters partition p's branch (the builder at its start): its register
 * budget, its idle warps returned, barriers and scratch its own. */
static void
enter(Lower *l, int p)
{
	CgModule *m = l->m;
	const TPartition *part = &l->k->parts[p];
	setmaxnreg(m, cg_ws_entry_regs(l->k), cg_ws_part_regs(l->k, p));
	if (part->num_warps % WG_WARPS) {
		LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.run");
		LLVMBasicBlockRef idle = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.idle");
		LLVMValueRef mine = LLVMBuildICmp(m->b, LLVMIntULT, cg_warp_id(m),
		                                  LLVMConstInt(m->i32, (uint64_t)(part->first_warp +
		                                               part->num_warps), 0), "");
		LLVMBuildCondBr(m->b, mine, run, idle);
		LLVMPositionBuilderAtEnd(m->b, idle);
		LLVMBuildRetVoid(m->b);
		LLVMPositionBuilderAtEnd(m->b, run);
	}
	in_partition(l, p);
}

/* The barrier where every partition's warps meet when code follows the
 * warp_specialize: named barrier n_parts + 1 over all their threads. Each
 * partition reaches it at its own instruction, so it is not .aligned
 * (compute-sanitizer's synccheck reports an aligned one as divergent). */
static void
join(Lower *l)
{
	int all = 0;
	for (int p = 0; p < l->k->n_parts; p++)
		all += 32 * l->k->parts[p].num_warps;
	cg_barrier_unaligned(l->m, l->k->n_parts + 1, all);
}

bool
cg_lower_warp_specialize(Lower *l, const TInst *in,
                         bool (*lower_block)(Lower *, const TBlock *))
{
	CgModule *m = l->m;
	const TKernel *k = l->k;
	const TBlock *body = &k->body;
	if (!k->parts || k->n_parts < 1) {
		cg_unsupported(l, in, "warp_specialize without partitions");
		return false;
	}
	if (k->n_parts > 14) {
		cg_unsupported(l, in, "more than 14 partitions (named barriers)");
		return false;
	}
	bool then = body->n == 0 || body->insts[body->n - 1] != in;
	cg_barrier(m);
	LLVMValueRef warp = cg_warp_id(m);
	LLVMBasicBlockRef def = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.default");
	LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.next");
	int end = WG_WARPS * warpgroups(k->parts[0].num_warps);
	LLVMBuildCondBr(m->b, LLVMBuildICmp(m->b, LLVMIntULT, warp,
	                                    LLVMConstInt(m->i32, (uint64_t)end, 0), ""), def, next);
	LLVMPositionBuilderAtEnd(m->b, def);
	enter(l, 0);
	bool ok = lower_block(l, &k->parts[0].body);
	if (then)
		join(l);
	def = LLVMGetInsertBlock(m->b);
	for (int p = 1; p < k->n_parts; p++) {
		const TPartition *part = &k->parts[p];
		end = part->first_warp + WG_WARPS * warpgroups(part->num_warps);
		LLVMPositionBuilderAtEnd(m->b, next);
		LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.part");
		next = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.next");
		LLVMBuildCondBr(m->b, LLVMBuildICmp(m->b, LLVMIntULT, warp,
		                                    LLVMConstInt(m->i32, (uint64_t)end, 0), ""), run,
		                next);
		LLVMPositionBuilderAtEnd(m->b, run);
		enter(l, p);
		ok = lower_block(l, &part->body) && ok;
		if (then)
			join(l);
		LLVMBuildRetVoid(m->b);
	}
	LLVMPositionBuilderAtEnd(m->b, next);
	LLVMBuildRetVoid(m->b);
	/* The default partition's warps go on with the code after the call
	 * (the caller lowers it), in the partition's registers and barriers. */
	LLVMPositionBuilderAtEnd(m->b, def);
	in_partition(l, 0);
	return ok;
}
