/*
 * A kernel's shared memory (lower_kernel): sema's allocations at the
 * offsets smem-plan gave them, then one scratch region that reductions and
 * layout conversions reuse (each warp_specialize partition its own), then
 * the warp-specialize dispatch area; a static array up to 48 KB, the
 * dynamic shared memory beyond.
 */
#include "codegen/lower/lower.h"

/* Past 48 KB a block's shared memory must be dynamic. */
enum { STATIC_SMEM_LIMIT = 48 * 1024 };

static int64_t
align_up(int64_t x, int64_t a)
{
	return (x + a - 1) / a * a;
}

static int64_t
op_scratch(const TInst *in)
{
	if (in->op == OP_SCAN || (in->op == OP_REDUCE && !cg_reduce_commutes(in)))
		return cg_scan_scratch(in);
	if (in->op == OP_REDUCE)
		return cg_reduce_scratch(in);
	if (in->op == OP_ATOMIC_RMW || in->op == OP_ATOMIC_CAS)
		return cg_atomic_scratch(in);
	if (in->op == OP_GATHER)
		return cg_gather_scratch(in);
	if (in->op == OP_HISTOGRAM)
		return cg_histogram_scratch(in);
	if (in->op == OP_CONVERT_LAYOUT && in->attr.plan && in->attr.plan->kind == LL_CVT_SHARED)
		return in->attr.plan->scratch_bytes;
	return 0;
}

static IrStep
most_scratch(IrWalker *w, TInst *in)
{
	int64_t *most = w->ctx, s = op_scratch(in);
	*most = s > *most ? s : *most;
	return in->op == OP_WARP_SPECIALIZE ? IR_PASS : IR_ON;
}

/* The most scratch an operation of the kernel's own path (p < 0) or of
 * partition p needs. */
static int64_t
scratch_of(const TKernel *k, int p)
{
	int64_t most = 0;
	IrWalker w = {.k = k, .ctx = &most, .pre = most_scratch};
	if (p < 0)
		ir_walk(&w);
	else
		ir_walk_partition(&w, p);
	return most;
}

void
cg_smem_begin(Lower *l, uint32_t *dynamic_bytes)
{
	CgModule *m = l->m;
	const TKernel *k = l->k;
	*dynamic_bytes = 0;
	l->smem = NULL;
	l->scratch_off = align_up(k->smem_bytes, 16);
	int64_t end = l->scratch_off + scratch_of(k, -1);
	/* The body's scratch is dead once the partitions start (a barrier
	 * separates them); they reuse it, each with a region of its own. */
	l->part_scratch_off = arena_alloc(m->arena, (size_t)(k->n_parts + 1) * sizeof(int64_t));
	int64_t off = l->scratch_off;
	for (int p = 0; p < k->n_parts; p++) {
		l->part_scratch_off[p] = off;
		off = align_up(off + scratch_of(k, p), 16);
	}
	int64_t total = cg_ws_area(l, end > off ? end : off);
	if (total == 0)
		return;
	if (total > IR_SMEM_LIMIT) {
		diag_error(m->diags, k->at, "kernel '%s' needs %lld bytes of shared memory (%lld of "
		           "them scratch for reductions and layout conversions); sm_90a allows at "
		           "most %d per block", k->name, (long long)total,
		           (long long)(total - l->scratch_off), IR_SMEM_LIMIT);
		l->failed = true;
		return;
	}
	if (total > STATIC_SMEM_LIMIT) {
		*dynamic_bytes = (uint32_t)total;
		l->smem = cg_dynamic_smem(m);
		return;
	}
	unsigned align = 16;
	for (int i = 0; i < k->n_smem; i++)
		if ((unsigned)k->smem[i].align > align)
			align = (unsigned)k->smem[i].align;
	/* Named after the kernel a variant specializes: one family, one name. */
	const char *name = (k->generic ? k->generic : k)->name;
	l->smem = cg_shared_global(m, arena_printf(m->arena, "%s.smem", name), (uint64_t)total,
	                           align);
}
