/*
 * warp_specialize. A kernel with one call, at its top level (the GEMMs),
 * is lowered as follows; other kernels use the dispatch loop described
 * further down.
 *
 * One call: after a CTA-wide barrier (the partitions start once
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
#include "codegen/ops/ops.h"

#include <string.h>

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

/* Lets on only the warps of partition `part` when it leaves some of its
 * warpgroups' warps unused: the others go to block `other`, or return when
 * it is NULL. The builder is left where the partition's warps go on. */
static void
own_warps_only(CgModule *m, const TPartition *part, LLVMBasicBlockRef other)
{
	if (part->num_warps % WG_WARPS == 0)
		return;
	LLVMValueRef mine = LLVMBuildICmp(m->b, LLVMIntULT, cg_warp_id(m),
	                                  LLVMConstInt(m->i32, (uint64_t)(part->first_warp +
	                                               part->num_warps), 0), "");
	LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.run");
	LLVMBasicBlockRef rest = other ? other
	                               : LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.idle");
	LLVMBuildCondBr(m->b, mine, run, rest);
	if (!other) {
		LLVMPositionBuilderAtEnd(m->b, rest);
		LLVMBuildRetVoid(m->b);
	}
	LLVMPositionBuilderAtEnd(m->b, run);
}

/* Lowering inside partition p of the call whose partitions start at
 * k->parts[first]: its leader, warps, named barrier and scratch. */
static void
in_partition(Lower *l, int first, int p)
{
	const TPartition *part = &l->k->parts[first + p];
	l->part = first + p;
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
	own_warps_only(m, part, NULL);
	in_partition(l, 0, p);
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

/* ---- Several calls, or a call in runtime control flow: the dispatch loop.
 *
 * The worker warps (past the default partition's warpgroups) leave at the
 * kernel's entry for a loop: they meet the default partition's warps at
 * named barrier WS_DISPATCH_BAR (all the block's threads), read the state
 * word (which call, or WS_EXIT) from the shared-memory area that
 * cg_ws_area reserves, run their partition of that call (a warpgroup no
 * partition of it uses goes on at once), meet at the barrier again and
 * wait for the next. At each call the default partition's leader writes
 * the call's captures (the kernel values its workers read) and its number
 * to the area; the default partition's warps arrive at the barrier, run
 * partition 0 and join the workers at the barrier again. At the kernel's
 * end the leader writes WS_EXIT and releases them.
 *
 * Registers: the default partition's warps keep one budget (the least any
 * call leaves them); worker warps wait at 24 registers, raise theirs to the
 * partition's budget on entering it and lower it to 24 after, so every
 * path into the loop's head has the same budget (ptxas merges budgets only
 * where they agree). Barriers: the default code and partition 0 use named
 * barrier 1 over the default partition's threads, partition p of a call
 * barrier p + 1. */

enum { WS_DISPATCH_BAR = 15, WS_EXIT = -1, WS_IDLE_REGS = 24, WS_SLOT = 8 };

/* A call of a dispatching kernel: its partitions, the kernel values its
 * workers read (captures) and the slot (byte offset in the area, -1: the
 * value is a constant or parameter and needs none) of each of their
 * registers, set when the default path lowers the call. */
typedef struct WsCall {
	const TPartition *parts;
	int first, n;            /* its partitions: k->parts[first .. first + n) */
	const TValue **caps;
	int n_caps;
	CgVal *at_call;          /* each capture's registers at the call */
	int **slot;
} WsCall;

struct CgWs {
	WsCall *calls;
	int n_calls;
	int default_regs;        /* the default partition's warps' budget */
	int64_t area_off, area_bytes;   /* state word, then capture slots */
	int all_threads;         /* 32 * total_warps */
	LLVMBasicBlockRef workers;   /* where the worker warps branch at entry */
};

/* The single call at the kernel's top level, if that is all it has. */
static bool
single_top_call(const TKernel *k)
{
	for (size_t i = 0; i < k->body.n; i++) {
		const TInst *in = k->body.insts[i];
		if (in->op == OP_WARP_SPECIALIZE)
			return in->attr.index == 0 && in->attr.count == k->n_parts;
	}
	return false;
}

/* What a call's workers define and use of the kernel (plan_call). */
typedef struct Caps {
	Arena *a;
	WsCall *c;
	bool *seen;          /* by value id: defined by the workers, or a capture */
	bool *var;           /* by variable id: written by the workers */
	const TInst *outer;  /* a read of a variable the workers do not write */
} Caps;

/* Marks the values and variables in defines. */
static IrStep
mark_defs(IrWalker *w, TInst *in)
{
	Caps *x = w->ctx;
	if (in->var && in->op != OP_VAR_READ)
		x->var[in->var->id] = true;
	if (in->res)
		x->seen[in->res->id] = true;
	for (int r = 0; r < in->n_region; r++)
		x->seen[in->region[r]->id] = true;
	return IR_ON;
}

static void
add_cap(Arena *a, WsCall *c, bool *seen, const TValue *v)
{
	if (!v || seen[v->id])
		return;
	seen[v->id] = true;
	const TValue **caps = arena_alloc(a, (size_t)(c->n_caps + 1) * sizeof *caps);
	if (c->n_caps)
		memcpy(caps, c->caps, (size_t)c->n_caps * sizeof *caps);
	caps[c->n_caps++] = v;
	c->caps = caps;
}

/* The values in uses that the workers do not define become captures. A
 * variable read but never written is the kernel's, which the workers do
 * not hold: its read stops the walk (in x->outer). */
static IrStep
find_caps(IrWalker *w, TInst *in)
{
	Caps *x = w->ctx;
	if (in->op == OP_VAR_READ && !x->var[in->var->id]) {
		x->outer = in;
		return IR_STOP;
	}
	for (int k = 0; k < in->n_args; k++)
		add_cap(x->a, x->c, x->seen, in->args[k]);
	add_cap(x->a, x->c, x->seen, in->cond_value);
	return IR_ON;
}

/* Registers a capture of type t can take: a descriptor's map and extents,
 * one otherwise (workers take no register tensors). */
static int
cap_regs(const TType *t)
{
	return t->kind == TY_DESC ? 1 + t->rank : cg_type_regs(t);
}

/* Call c's captures: what its workers read of the kernel's values. */
static bool
plan_call(Lower *l, WsCall *c)
{
	Arena *a = l->m->arena;
	Caps x = {a, c, arena_alloc(a, (size_t)l->k->n_values + 1),
	          arena_alloc(a, (size_t)l->k->n_vars + 1), NULL};
	IrWalker w = {.k = l->k, .ctx = &x, .pre = mark_defs};
	for (int p = 1; p < c->n; p++)
		ir_walk_partition(&w, c->first + p);
	w.pre = find_caps;
	for (int p = 1; p < c->n; p++) {
		ir_walk_partition(&w, c->first + p);
		if (x.outer) {
			cg_unsupported(l, x.outer, "a worker partition reading a variable of the kernel");
			return false;
		}
	}
	c->at_call = arena_alloc(a, (size_t)(c->n_caps + 1) * sizeof *c->at_call);
	c->slot = arena_alloc(a, (size_t)(c->n_caps + 1) * sizeof *c->slot);
	return true;
}

/* The default partition's budget: what every call's workers leave of the
 * registers the block starts with (idle worker warpgroups at 24). */
static int
dispatch_default_regs(const TKernel *k, const CgWs *ws)
{
	int wg_all = warpgroups(k->total_warps), wg0 = warpgroups(k->num_warps), best = 256;
	for (int c = 0; c < ws->n_calls; c++) {
		const WsCall *call = &ws->calls[c];
		int pool = cg_ws_entry_regs(k) * wg_all, idle = wg_all - wg0;
		for (int p = 1; p < call->n; p++) {
			pool -= call->parts[p].num_regs * warpgroups(call->parts[p].num_warps);
			idle -= warpgroups(call->parts[p].num_warps);
		}
		int r = (pool - WS_IDLE_REGS * idle) / wg0 / 8 * 8;
		best = r < best ? r : best;
	}
	return best;
}

/* The kernel's calls (each starts at a default partition, the one
 * partition without a budget), their captures and the area's size; NULL
 * after an error. */
static CgWs *
plan_calls(Lower *l)
{
	const TKernel *k = l->k;
	CgWs *ws = arena_alloc(l->m->arena, sizeof *ws);
	for (int p = 0; p < k->n_parts; p++)
		ws->n_calls += k->parts[p].num_regs == 0;
	ws->calls = arena_alloc(l->m->arena, (size_t)ws->n_calls * sizeof *ws->calls);
	for (int p = 0, c = -1; p < k->n_parts; p++) {
		if (k->parts[p].num_regs == 0)
			ws->calls[++c] = (WsCall){.parts = &k->parts[p], .first = p};
		ws->calls[c].n++;
	}
	int64_t slots = 0;
	for (int c = 0; c < ws->n_calls; c++) {
		if (!plan_call(l, &ws->calls[c]))
			return NULL;
		int64_t n = 0;
		for (int i = 0; i < ws->calls[c].n_caps; i++)
			n += cap_regs(ws->calls[c].caps[i]->type);
		slots = n > slots ? n : slots;
	}
	ws->area_bytes = WS_SLOT * (1 + slots);
	ws->all_threads = 32 * k->total_warps;
	return ws;
}

bool
cg_ws_begin(Lower *l)
{
	const TKernel *k = l->k;
	CgModule *m = l->m;
	if (!k->n_parts || single_top_call(k))
		return true;
	if (k->num_warps % WG_WARPS) {
		/* the default partition's warpgroup would hold warps of neither
		 * the default code nor the dispatch loop */
		diag_error(m->diags, k->at, "kernel '%s' calls gl.warp_specialize several times or "
		           "inside runtime control flow, which needs num_warps to be a multiple of 4 "
		           "(it is %d)", k->name, k->num_warps);
		return false;
	}
	CgWs *ws = plan_calls(l);
	if (!ws)
		return false;
	ws->default_regs = dispatch_default_regs(k, ws);
	if (ws->default_regs < 24) {
		diag_error(m->diags, k->at, "kernel '%s': a warp_specialize call's worker budgets "
		           "(with 24 registers a thread for each worker warpgroup it leaves idle) "
		           "leave the default partition %d registers a thread, below setmaxnreg's 24; "
		           "lower worker_num_regs", k->name, ws->default_regs);
		return false;
	}
	l->ws = ws;
	LLVMBasicBlockRef def = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.main");
	LLVMBasicBlockRef workers = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.workers");
	int end = WG_WARPS * warpgroups(k->num_warps);
	LLVMBuildCondBr(m->b, LLVMBuildICmp(m->b, LLVMIntULT, cg_warp_id(m),
	                                    LLVMConstInt(m->i32, (uint64_t)end, 0), ""),
	                def, workers);
	ws->workers = workers;
	LLVMPositionBuilderAtEnd(m->b, def);
	setmaxnreg(m, cg_ws_entry_regs(k), ws->default_regs);
	m->bar_id = 1;
	m->bar_threads = 32 * k->num_warps;
	return true;
}

int64_t
cg_ws_area(Lower *l, int64_t end)
{
	if (!l->ws)
		return end;
	l->ws->area_off = (end + 15) / 16 * 16;
	return l->ws->area_off + l->ws->area_bytes;
}

/* Byte `off` of the dispatch area. */
static LLVMValueRef
area_ptr(Lower *l, int64_t off)
{
	LLVMValueRef o = LLVMConstInt(l->m->i64, (uint64_t)(l->ws->area_off + off), 0);
	return LLVMBuildGEP2(l->m->b, l->m->i8, l->smem, &o, 1, "");
}

/* Back in the default partition's code outside warp_specialize. */
static void
in_default_code(Lower *l)
{
	l->part = -1;
	l->first_warp = 0;
	l->part_warps = l->k->num_warps;
	l->m->bar_id = 1;
	l->m->bar_threads = 32 * l->k->num_warps;
}

/* On the default path: call c's captures and number into the area (by the
 * leader), the workers released. */
static bool
send_call(Lower *l, const TInst *in, WsCall *c, int id)
{
	CgModule *m = l->m;
	LLVMBasicBlockRef send = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.send");
	LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.go");
	LLVMBuildCondBr(m->b, cg_leader(l), send, go);
	LLVMPositionBuilderAtEnd(m->b, send);
	int64_t off = WS_SLOT;
	for (int i = 0; i < c->n_caps; i++) {
		CgVal v = cg_val(l, c->caps[i]);
		if (v.n != cap_regs(c->caps[i]->type)) {
			cg_unsupported(l, in, "a worker argument of this kind");
			return false;
		}
		c->at_call[i] = v;
		c->slot[i] = arena_alloc(m->arena, (size_t)v.n * sizeof *c->slot[i]);
		for (int r = 0; r < v.n; r++) {
			c->slot[i][r] = -1;
			if (!LLVMIsAInstruction(v.r[r]))
				continue;
			if (LLVMABISizeOfType(m->target->data, LLVMTypeOf(v.r[r])) > WS_SLOT) {
				cg_unsupported(l, in, "a worker argument wider than 8 bytes");
				return false;
			}
			c->slot[i][r] = off;
			LLVMBuildStore(m->b, v.r[r], area_ptr(l, off));
			off += WS_SLOT;
		}
	}
	LLVMBuildStore(m->b, LLVMConstInt(m->i32, (uint64_t)id, 0), area_ptr(l, 0));
	LLVMBuildBr(m->b, go);
	LLVMPositionBuilderAtEnd(m->b, go);
	cg_barrier_unaligned(m, WS_DISPATCH_BAR, l->ws->all_threads);
	return true;
}

/* The call on the default path of a dispatching kernel: release the
 * workers, run partition 0, join them. */
static bool
dispatch_call(Lower *l, const TInst *in)
{
	int id = 0;
	while (l->ws->calls[id].first != in->attr.index)
		id++;
	WsCall *c = &l->ws->calls[id];
	if (!send_call(l, in, c, id))
		return false;
	in_partition(l, c->first, 0);
	bool ok = l->lower_block(l, &c->parts[0].body);
	cg_barrier_unaligned(l->m, WS_DISPATCH_BAR, l->ws->all_threads);
	in_default_code(l);
	return ok;
}

/* Worker partition p of call c in the dispatch loop (the builder at its
 * block; on to `done`): its budget, its captures from the area, its body,
 * the idle budget again. The body's thread ids are read in its block
 * (cg_thread_ids_here): the addresses and indices it derives from them
 * would otherwise be hoisted out of the loop and held, with the idle
 * budget's few registers, between calls (spills in ws_two's generic
 * entry, whose alignment checks add to them). */
static bool
worker_part(Lower *l, const WsCall *c, int p, LLVMBasicBlockRef done)
{
	CgModule *m = l->m;
	const TPartition *part = &c->parts[p];
	setmaxnreg(m, WS_IDLE_REGS, part->num_regs);
	LLVMBasicBlockRef pend = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.pend");
	own_warps_only(m, part, pend);
	LLVMValueRef lane = m->lane, warp = m->warp;
	cg_thread_ids_here(m);
	for (int i = 0; i < c->n_caps; i++) {
		CgVal v = cg_val_new(l, c->at_call[i].n);
		for (int r = 0; r < v.n; r++)
			v.r[r] = c->slot[i][r] < 0 ? c->at_call[i].r[r]
			       : LLVMBuildLoad2(m->b, LLVMTypeOf(c->at_call[i].r[r]),
			                        area_ptr(l, c->slot[i][r]), "");
		l->vals[c->caps[i]->id] = v;
	}
	in_partition(l, c->first, p);
	bool ok = l->lower_block(l, &part->body);
	m->lane = lane;
	m->warp = warp;
	LLVMBuildBr(m->b, pend);
	LLVMPositionBuilderAtEnd(m->b, pend);
	setmaxnreg(m, part->num_regs, WS_IDLE_REGS);
	LLVMBuildBr(m->b, done);
	return ok;
}

/* The worker warps' loop (the builder at its entry block). */
static bool
dispatch_loop(Lower *l)
{
	CgModule *m = l->m;
	const CgWs *ws = l->ws;
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.loop");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.done");
	LLVMBasicBlockRef quit = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.quit");
	setmaxnreg(m, cg_ws_entry_regs(l->k), WS_IDLE_REGS);
	LLVMBuildBr(m->b, head);
	LLVMPositionBuilderAtEnd(m->b, head);
	cg_barrier_unaligned(m, WS_DISPATCH_BAR, ws->all_threads);
	LLVMValueRef state = LLVMBuildLoad2(m->b, m->i32, area_ptr(l, 0), "ws.state");
	LLVMValueRef sw = LLVMBuildSwitch(m->b, state, quit, (unsigned)ws->n_calls);
	LLVMValueRef warp = cg_warp_id(m);
	bool ok = true;
	for (int c = 0; c < ws->n_calls; c++) {
		const WsCall *call = &ws->calls[c];
		LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.call");
		LLVMAddCase(sw, LLVMConstInt(m->i32, (uint64_t)c, 0), next);
		for (int p = 1; p < call->n; p++) {
			const TPartition *part = &call->parts[p];
			int end = part->first_warp + WG_WARPS * warpgroups(part->num_warps);
			LLVMPositionBuilderAtEnd(m->b, next);
			LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.part");
			next = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.next");
			LLVMBuildCondBr(m->b, LLVMBuildICmp(m->b, LLVMIntULT, warp,
			                                    LLVMConstInt(m->i32, (uint64_t)end, 0), ""),
			                run, next);
			LLVMPositionBuilderAtEnd(m->b, run);
			ok = worker_part(l, call, p, done) && ok;
		}
		LLVMPositionBuilderAtEnd(m->b, next);
		LLVMBuildBr(m->b, done);
	}
	LLVMPositionBuilderAtEnd(m->b, done);
	cg_barrier_unaligned(m, WS_DISPATCH_BAR, ws->all_threads);
	LLVMBuildBr(m->b, head);
	LLVMPositionBuilderAtEnd(m->b, quit);
	LLVMBuildRetVoid(m->b);
	return ok;
}

bool
cg_ws_end(Lower *l)
{
	CgModule *m = l->m;
	if (!l->ws)
		return true;
	if (!LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(m->b))) {
		LLVMBasicBlockRef send = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.exit");
		LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "ws.release");
		in_default_code(l);
		LLVMBuildCondBr(m->b, cg_leader(l), send, go);
		LLVMPositionBuilderAtEnd(m->b, send);
		LLVMBuildStore(m->b, LLVMConstInt(m->i32, (uint64_t)(int64_t)WS_EXIT, 1),
		               area_ptr(l, 0));
		LLVMBuildBr(m->b, go);
		LLVMPositionBuilderAtEnd(m->b, go);
		cg_barrier_unaligned(m, WS_DISPATCH_BAR, l->ws->all_threads);
		LLVMBuildRetVoid(m->b);
	}
	LLVMPositionBuilderAtEnd(m->b, l->ws->workers);
	return dispatch_loop(l);
}

bool
cg_lower_warp_specialize(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const TKernel *k = l->k;
	const TBlock *body = &k->body;
	int n_parts;
	if (!ir_ws_parts(k, in, &n_parts) || n_parts > 13) {
		cg_unsupported(l, in, "warp_specialize without partitions or with more than 13 "
		               "(named barriers)");
		return false;
	}
	if (l->ws)
		return dispatch_call(l, in);
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
	bool ok = l->lower_block(l, &k->parts[0].body);
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
		ok = l->lower_block(l, &part->body) && ok;
		if (then)
			join(l);
		LLVMBuildRetVoid(m->b);
	}
	LLVMPositionBuilderAtEnd(m->b, next);
	LLVMBuildRetVoid(m->b);
	/* The default partition's warps go on with the code after the call
	 * (the caller lowers it), in the partition's registers and barriers. */
	LLVMPositionBuilderAtEnd(m->b, def);
	in_partition(l, 0, 0);
	return ok;
}
